"""Chapters 05-06's exercises: encoding by rank, decoding, special tokens.

``encode`` takes the tokenizer's parts as arguments (vocab, merges, specials)
rather than an object, so that the reader writes one function; the capstone of
``files.py`` calls the same function with GPT-2's own vocabulary and merges.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable

from bpe.book.practice.inputs import (
    LETTERS,
    PIECES,
    SPECIALS,
    WORDS,
    Tokens,
    crossing_tokenizer,
    random_rank,
    random_specials,
    random_text,
    random_tokens,
    toy_tokenizer,
)
from bpe.book.practice.runner import Exercise, Wrong
from bpe.pretokenizer import split_special, to_bytes
from bpe.tokenizer import Tokenizer
from bpe.tokenizer import encode_word as book_encode_word
from bpe.trainer import Pair, merge

Vocab = dict[int, bytes]


def encode_word(tok: Tokens, rank: dict[Pair, int]) -> Tokens:
    """Chapter 05: apply the merges to one pre-token, lowest rank first."""
    return book_encode_word(tok, rank)


def leftmost_first(tok: Tokens, rank: dict[Pair, int]) -> Tokens:
    """Wrong: repeatedly merge the leftmost pair that has a rank, whatever the rank."""
    while known := [p for p in zip(tok, tok[1:], strict=False) if p in rank]:
        tok = merge(tok, known[0], known[0][0] + known[0][1])
    return tok


def one_pass(tok: Tokens, rank: dict[Pair, int]) -> Tokens:
    """Wrong: one scan from the left, merging each ranked pair met once."""
    out: list[bytes] = []
    for t in tok:
        if out and (out[-1], t) in rank:
            out[-1] += t
        else:
            out.append(t)
    return tuple(out)


def highest_rank_first(tok: Tokens, rank: dict[Pair, int]) -> Tokens:
    """Wrong: repeatedly merge the pair of highest rank, the one learned last."""
    while known := [p for p in zip(tok, tok[1:], strict=False) if p in rank]:
        pair = max(known, key=rank.__getitem__)
        tok = merge(tok, pair, pair[0] + pair[1])
    return tok


def decode(ids: list[int], vocab: Vocab) -> str:
    """Chapter 06: join the ids' bytes, read them as UTF-8 once (U+FFFD if broken).

    The book's Tokenizer.decode, on a tokenizer holding only vocab: building a
    whole one would check the vocabulary on every case, for nothing.
    """
    tokenizer = Tokenizer.__new__(Tokenizer)
    tokenizer.vocab = vocab
    return tokenizer.decode(ids)


def token_by_token(ids: list[int], vocab: Vocab) -> str:
    """Wrong: each token decoded on its own."""
    return "".join(vocab[i].decode("utf-8", errors="replace") for i in ids)


@functools.lru_cache(maxsize=1)
def toy() -> Tokenizer:
    """Chapters 05-07's toy tokenizer, built once."""
    return Tokenizer(*toy_tokenizer())


def random_ids(rng: random.Random) -> tuple[list[int], Vocab]:
    """A slice of the toy's encoding of a random text: it may cut a character."""
    vocab = toy_tokenizer()[0]
    ids = toy().encode(random_text(rng))
    start = rng.randint(0, len(ids))
    return ids[start : rng.randint(start, len(ids))], vocab


def encode(
    text: str, vocab: Vocab, merges: list[Pair], specials: Iterable[str] = ()
) -> list[int]:
    """Chapter 06: text -> ids; each special token maps straight to its own id."""
    return Tokenizer(vocab, merges, specials).encode(text)


def random_encoding(rng: random.Random) -> tuple:
    """A random text (toy words, special tokens, emoji) and a toy tokenizer.

    Half the time the tokenizer was trained without a pre-tokenizer, so that it
    knows merges across words (such as "w" + " "), which encode must not apply.
    """
    text = "".join(rng.choice(WORDS + PIECES) for _ in range(rng.randint(0, 6)))
    return (text, *rng.choice((toy_tokenizer, crossing_tokenizer))())


def split_unescaped(text: str, specials: Iterable[str]) -> list[str]:
    """Wrong (the chapter's first pitfall): the tokens used as a pattern, unescaped."""
    return re.split("(" + "|".join(specials) + ")", text)


def split_in_order(text: str, specials: Iterable[str]) -> list[str]:
    """Wrong (second pitfall): escaped, but tried in the order given."""
    return re.split("(" + "|".join(map(re.escape, specials)) + ")", text)


def split_always(text: str, specials: Iterable[str]) -> list[str]:
    """Wrong (third pitfall): no special tokens still makes a pattern, '()'."""
    specials = sorted(specials, key=len, reverse=True)
    return re.split("(" + "|".join(map(re.escape, specials)) + ")", text)


def empty_chunks_dropped(text: str, specials: Iterable[str]) -> list[str]:
    """Wrong: the empty strings re.split leaves at either end of a special dropped."""
    if not specials:
        return [text]
    return [chunk for chunk in split_special(text, specials) if chunk]


def specials_dropped(
    text: str, vocab: Vocab, merges: list[Pair], specials: Iterable[str] = ()
) -> list[int]:
    """Wrong: the special tokens cut out of the text, and no id given for them."""
    tokenizer = Tokenizer(vocab, merges, specials)
    chunks = split_special(text, specials)
    return [i for c in chunks if c not in specials for i in tokenizer.encode(c)]


ENCODE_WORD = Exercise(
    name="encode_word",
    chapter="05",
    reference=encode_word,
    examples=lambda: [
        ((b"l", b"o", b"w"), {(b"o", b"w"): 0, (b"l", b"ow"): 1}),
        (to_bytes("lowest"), toy().rank),
        (to_bytes(" newest"), toy().rank),
    ],
    generate=lambda rng: (random_tokens(rng, LETTERS), random_rank(rng)),
    shrink=(0, 1),
    hint="Among the pairs present in the word, merge the one with the smallest rank, "
    "then look again; stop when no pair of the word has a rank.",
    wrong=(
        Wrong(
            "merge order found left to right",
            leftmost_first,
            "Order: you merged the leftmost pair that has a rank. Encoding merges "
            "the pair of smallest rank first, wherever it sits in the word.",
        ),
        Wrong(
            "one pass",
            one_pass,
            "One pass is not enough: a merge makes a token that can pair with its "
            "neighbour in a later merge. Search again after each merge.",
        ),
        Wrong(
            "highest rank first",
            highest_rank_first,
            "Order: you merged the pair of highest rank, learned last. The pair of "
            "lowest rank was learned first, and is merged first.",
        ),
    ),
)

DECODE = Exercise(
    name="decode",
    chapter="06",
    reference=decode,
    examples=lambda: [
        ([240, 159, 153, 131], toy_tokenizer()[0]),
        ([240, 159], toy_tokenizer()[0]),
        ([116, 104, 101, 264, 263], toy_tokenizer()[0]),
    ],
    generate=random_ids,
    hint="Look up each id's bytes, join them all into one bytes object, and decode "
    "that once, replacing what is not valid UTF-8.",
    wrong=(
        Wrong(
            "token by token",
            token_by_token,
            "Token by token fails when a character's bytes are split over two "
            "tokens: join all the bytes first, decode once.",
        ),
        Wrong(
            "strict decoding",
            lambda ids, vocab: b"".join(vocab[i] for i in ids).decode("utf-8"),
            "Ids can stop in the middle of a character; decoding must not raise "
            "then, but put U+FFFD (errors='replace').",
        ),
        Wrong(
            "bad bytes dropped",
            lambda ids, vocab: b"".join(vocab[i] for i in ids).decode(
                "utf-8", "ignore"
            ),
            "Broken bytes must show as U+FFFD, not vanish: errors='replace'.",
        ),
    ),
)

SPLIT_SPECIAL = Exercise(
    name="split_special",
    chapter="06",
    reference=split_special,
    examples=lambda: [
        ("a<|e|>b", ["<|e|>"]),
        ("the end<|end|>", ["<|end|>"]),
        ("x<|e|><|e|>y", ["<|e|>", "<|e|><|e|>"]),
        ("no specials", []),
    ],
    generate=lambda rng: (random_text(rng, 8), random_specials(rng)),
    shrink=(0, 1),
    hint="A capturing group keeps what it splits on. Which characters of the "
    f"specials ({', '.join(SPECIALS)}) mean something to a regex?",
    wrong=(
        Wrong(
            "no specials, still a pattern",
            split_always,
            "With no special tokens the pattern is '()', which matches between every "
            "two characters: return the text whole.",
        ),
        Wrong(
            "unescaped",
            split_unescaped,
            "'|' means 'or' in a pattern: escape each special token (re.escape).",
        ),
        Wrong(
            "not longest first",
            split_in_order,
            "One special token is a prefix of another; alternation takes the first "
            "that matches, so try the longest first.",
        ),
        Wrong(
            "empty chunks dropped",
            empty_chunks_dropped,
            "Keep the empty chunks: a text that starts or ends with a special token "
            "has an empty chunk there, as re.split gives it.",
        ),
    ),
)

ENCODE = Exercise(
    name="encode",
    chapter="06",
    reference=encode,
    examples=lambda: [
        ("the lowest widest fox<|endoftext|>newest lower", *toy_tokenizer()),
        ("🙃", *toy_tokenizer()),
    ],
    generate=random_encoding,
    cases=150,
    hint="Split out the special tokens (each is one id); pre-tokenize every other "
    "chunk, encode each pre-token by rank, and look up each token's id.",
    wrong=(
        Wrong(
            "a special token's id forgotten",
            lambda text, vocab, merges, specials=(): Tokenizer(
                vocab, merges, specials
            ).encode_ordinary(text),
            "A special token was encoded as its characters: cut the specials out "
            "first and give each its own id.",
        ),
        Wrong(
            "merging across pre-tokens",
            lambda text, vocab, merges, specials=(): Tokenizer(
                vocab, merges, specials, pattern=None
            ).encode(text),
            "Pre-tokenize each chunk with the book's pattern first: merges never "
            "cross from one pre-token into the next.",
        ),
        Wrong(
            "special tokens dropped",
            specials_dropped,
            "A special token must not vanish: it is one id of its own, the vocabulary's"
            " id for its bytes. Put that id where the token stood.",
        ),
    ),
)

ENCODING = (ENCODE_WORD,)
DECODING = (DECODE, SPLIT_SPECIAL, ENCODE)
