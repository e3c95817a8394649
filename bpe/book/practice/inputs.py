"""The inputs the checks try: small random cases, and ways to make a case smaller.

The random cases are built from tiny alphabets on purpose: with three letters,
pairs repeat, counts tie and matches overlap, which is where wrong answers show.
Texts mix in what breaks naive code: accents (one and two code points), CJK,
emoji (four bytes, and a skin-tone modifier), newlines and special tokens, one of
which is a prefix of another. Only the standard library and the core are used,
so that all of this runs in the page's Python too.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bpe.book.chapters.toy import ToyBPE
from bpe.data import CHECKOUT

# Pieces a random text is glued from: words of two letters, spaces, digits,
# contractions, accents (é precomposed and as e + a combining mark), CJK, emoji.
PIECES = (
    "a", "b", "ab", " ab", "ba", "aa", "aaa", " a", " ", "  ", "\n", "\n\n", "é",
    "e\u0301", "牛", "🙃", "👍🏽", "'s", "'ll", "12", "!?", "<|endoftext|>", "<|e|>",
)  # fmt: skip
# Specials to choose from: "<|e|>" needs escaping ("|" is regex alternation) and
# is a prefix of "<|e|><|e|>", so only the longest-first rule splits them right.
SPECIALS = ("<|endoftext|>", "<|e|>", "<|e|><|e|>")
LETTERS = (b"a", b"b", b"c")  # one-byte tokens of the tiny alphabet
WORDS = ("low", " low", "er", " newest", "est", "w ", " wid")  # the toy corpus's
TOKENS = (*LETTERS, b"ab")  # and one longer token, so that b"ab" != (b"a", b"b")
TOY_CORPUS = "toy_corpus.txt"  # the article's small corpus, in data/
Tokens = tuple[bytes, ...]  # a pre-token as the chapters hold it: its tokens' bytes


def random_text(rng: random.Random, pieces: int = 6) -> str:
    """Up to `pieces` pieces of PIECES, glued together."""
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, pieces)))


def random_specials(rng: random.Random) -> list[str]:
    """Zero to three distinct special tokens, in a random order."""
    return rng.sample(SPECIALS, rng.randint(0, len(SPECIALS)))


def random_tokens(rng: random.Random, alphabet: tuple = TOKENS, most: int = 8) -> tuple:
    """A tuple of up to `most` tokens drawn from alphabet."""
    return tuple(rng.choice(alphabet) for _ in range(rng.randint(0, most)))


def random_table(rng: random.Random) -> dict[tuple[bytes, ...], int]:
    """A pre-token table {tuple of tokens: count} of one to four rows."""
    rows = (random_tokens(rng, LETTERS, 6) for _ in range(rng.randint(1, 4)))
    return {tok: rng.randint(1, 3) for tok in rows}


def random_merges(
    rng: random.Random, most: int = 5, letters: tuple = LETTERS
) -> list[tuple[bytes, bytes]]:
    """Up to `most` merges, each of two tokens that exist by then, as in training."""
    known, merges = list(letters), []
    for _ in range(rng.randint(0, most)):
        pair = (rng.choice(known), rng.choice(known))
        if pair[0] + pair[1] not in known:
            merges.append(pair)
            known.append(pair[0] + pair[1])
    return merges


def random_rank(rng: random.Random) -> dict[tuple[bytes, bytes], int]:
    """A rank table {pair: its place in the merge list} from random_merges."""
    return {pair: r for r, pair in enumerate(random_merges(rng))}


def random_id_merges(rng: random.Random) -> dict[tuple[int, int], int]:
    """ToyBPE's merges {pair of ids: new id} over the ids of 'a', 'b' and 'c'."""
    known, merges = [97, 98, 99], {}
    for _ in range(rng.randint(0, 5)):
        pair = (rng.choice(known), rng.choice(known))
        if pair not in merges:
            merges[pair] = 256 + len(merges)
            known.append(merges[pair])
    return merges


def random_ids(rng: random.Random, most: int = 8) -> list[int]:
    """A list of ids from a small set, so that pairs repeat and overlap."""
    return [rng.choice((97, 98, 99, 256)) for _ in range(rng.randint(0, most))]


def toy_corpus() -> str:
    """The article's toy corpus, from the book's data/ (or ../data, from a chapter)."""
    for folder in (CHECKOUT / "data", Path("../data")):
        if (folder / TOY_CORPUS).is_file():
            return (folder / TOY_CORPUS).read_text(encoding="utf-8")
    raise FileNotFoundError(f"{TOY_CORPUS} is neither in the book's data/ nor ../data")


@functools.lru_cache(maxsize=1)
def toy_tokenizer() -> tuple[dict[int, bytes], list, list[str]]:
    """(vocab, merges, specials) of chapters 05-07's toy: 265 ids, <|endoftext|>."""
    from bpe.trainer import train

    specials = ["<|endoftext|>"]
    vocab, merges = train(toy_corpus(), 265, specials)
    return vocab, merges, specials


@functools.lru_cache(maxsize=1)
def crossing_tokenizer() -> tuple[dict[int, bytes], list, list[str]]:
    """A toy tokenizer trained with no pre-tokenizer: its merges cross words."""
    from bpe.trainer import train

    specials = ["<|endoftext|>"]
    vocab, merges = train(toy_corpus(), 280, specials, pattern=None)
    return vocab, merges, specials


@functools.lru_cache(maxsize=1)
def gpt2_files() -> tuple[dict[int, bytes], list, list[str]]:
    """(vocab, merges, specials) read from GPT-2's own files, loaded on first use."""
    from bpe.files import load_files
    from bpe.interop.openai import shipped_path

    specials = ["<|endoftext|>"]
    vocab, merges = load_files(
        shipped_path("encoder.json"), shipped_path("vocab.bpe"), specials
    )
    return vocab, merges, specials


class Named:
    """A function with a short name for the case it appears in (not its repr)."""

    def __init__(self, function: Any, name: str):
        self.function, self.name = function, name

    def __call__(self, *args: Any) -> Any:
        return self.function(*args)

    def __repr__(self) -> str:
        return self.name


TOY_TEXTS = ("ab ab ba", "aab aab é é", "🙃 ab 🙃 ab", "ba ba ba ba", "")


@functools.lru_cache(maxsize=1)
def toy_encoders() -> tuple[Named, ...]:
    """ToyBPE encoders trained on TOY_TEXTS (built once): their encode methods."""
    encoders = []
    for text in TOY_TEXTS:
        toy = ToyBPE()
        toy.train(text, 262)
        encoders.append(Named(toy.encode, f"ToyBPE().encode, trained on {text!r}"))
    return tuple(encoders)


def smaller(value: Any) -> Iterator[Any]:
    """Simpler versions of value: halves first, then one element (or line) fewer."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value > 0:
            yield value - 1
        return
    if isinstance(value, dict):
        yield from smaller_dict(value)
        return
    if not isinstance(value, (str, tuple, list)) or not value:
        return
    n = len(value)
    if n > 1:
        yield value[: n // 2]
        yield value[n // 2 :]
    if isinstance(value, str) and "\n" in value:
        lines = value.split("\n")
        for i in range(len(lines)):
            yield "\n".join(lines[:i] + lines[i + 1 :])
    for i in range(n):
        yield value[:i] + value[i + 1 :]


def smaller_dict(value: dict) -> Iterator[dict]:
    """value with one entry fewer (values are kept: a rank or id means something)."""
    kind = Counter if isinstance(value, Counter) else dict
    for key in value:
        yield kind({k: v for k, v in value.items() if k != key})
