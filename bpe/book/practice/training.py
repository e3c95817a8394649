"""Chapters 02-04's exercises: bytes, the pre-token table, pairs, merges, training.

Each reference is the book's own function from the core (or, for a figure the
chapter reads off a helper, that helper), so an exercise asks for exactly what the
chapter shows. The wrong answers are the mistakes the chapters warn about.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable

from bpe.book.chapters.utf8 import describe
from bpe.book.practice.inputs import (
    LETTERS,
    TOKENS,
    Tokens,
    random_specials,
    random_table,
    random_text,
    random_tokens,
    toy_corpus,
)
from bpe.book.practice.runner import Exercise, Wrong
from bpe.pretokenizer import (
    PAT,
    count_strings,
    pretokenize,
    pretokens,
    split_special,
    to_bytes,
)
from bpe.trainer import Pair, count_pairs, greater_pair, lowest_ids, merge
from bpe.trainer import train as book_train

Trained = tuple[dict[int, bytes], list[Pair]]
# UTF-8's edges: the last code point of each length and the first of the next.
UTF8_EDGES = (0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF)


def utf8_length(code_point: int) -> int:
    """How many bytes UTF-8 spends on one code point (chapter 02's table)."""
    return describe(chr(code_point))["bytes"]


def random_code_point(rng: random.Random) -> tuple[int]:
    """A code point of a random UTF-8 length (surrogates are refused by the check)."""
    low, high = rng.choice(
        ((0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, 0x10FFFF))
    )
    return (rng.randint(low, high),)


def count_words(text: str, specials: Iterable[str] = ()) -> Counter[Tokens]:
    """Chapter 03's table: {pre-token as a tuple of one-byte tokens: count}."""
    return pretokenize(text, specials)


def train(text: str, vocab_size: int, specials: Iterable[str] = ()) -> Trained:
    """Chapter 04's naive trainer with the article's tie-break: (vocab, merges)."""
    return book_train(text, vocab_size, specials)


def merge_overlapping(tok: Tokens, pair: Pair, new: bytes) -> Tokens:
    """Wrong: every place the pair starts becomes a token, even where they overlap."""
    starts = [i for i in range(len(tok) - 1) if (tok[i], tok[i + 1]) == pair]
    covered = {j for i in starts for j in (i, i + 1)}
    return tuple(new if i in starts else t for i, t in enumerate(tok)
                 if i in starts or i not in covered)  # fmt: skip


def naive_train(
    text: str, vocab_size: int, specials: Iterable[str], merge_with: Callable
) -> Trained:
    """Chapter 04's loop with another merge function (for the wrong answers)."""
    specials = list(specials)
    table, merges = pretokenize(text, specials), []
    while len(merges) < vocab_size - 256 - len(specials):
        pairs = count_pairs(table)
        if not pairs:
            break
        best = max(pairs, key=lambda p: (pairs[p], p))
        merged = Counter()
        for tok, n in table.items():
            merged[merge_with(tok, best, best[0] + best[1])] += n
        table = merged
        merges.append(best)
    vocab = dict(enumerate(bytes([b]) for b in range(256)))
    for tok in [a + b for a, b in merges] + [s.encode("utf-8") for s in specials]:
        vocab[len(vocab)] = tok
    return vocab, merges


def specials_first(text: str, vocab_size: int, specials: Iterable[str] = ()) -> Trained:
    """Wrong: the special tokens take the ids after the bytes, before the merges."""
    specials = list(specials)
    vocab, merges = book_train(text, vocab_size, specials)
    ordered = [vocab[i] for i in range(256)] + [s.encode("utf-8") for s in specials]
    ordered += [a + b for a, b in merges]
    return dict(enumerate(ordered)), merges


def specials_trained_on(
    text: str, vocab_size: int, specials: Iterable[str] = ()
) -> Trained:
    """Wrong: special tokens left in the text, so their characters get merged too."""
    specials = list(specials)
    _, merges = book_train(text, vocab_size - len(specials))
    vocab = dict(enumerate(bytes([b]) for b in range(256)))
    for tok in [a + b for a, b in merges] + [s.encode("utf-8") for s in specials]:
        vocab[len(vocab)] = tok
    return vocab, merges


def zero_bytes(s: str) -> Tokens:
    """Wrong: bytes(b) of an int b, which is b zero bytes, not the byte b."""
    return tuple(bytes(b) for b in s.encode("utf-8"))


def tokens_in_a_list(s: str) -> list[bytes]:
    """Wrong: the right one-byte tokens, in a list instead of a tuple."""
    return [bytes([b]) for b in s.encode("utf-8")]


def utf8_edges_below(code_point: int) -> int:
    """Wrong: each length's last code point (0x7F, 0x7FF, 0xFFFF) put in the next."""
    if code_point < 0x7F:
        return 1
    return 2 if code_point < 0x7FF else 3 if code_point < 0xFFFF else 4


def specials_as_pretokens(text: str, specials: Iterable[str] = ()) -> Counter[Tokens]:
    """Wrong: each special token cut out, then counted as one pre-token."""
    specials = list(specials)
    chunks = split_special(text, specials)
    return Counter(
        to_bytes(p) for c in chunks for p in ([c] if c in specials else pretokens(c))
    )


def split_unescaped(text: str, specials: Iterable[str] = ()) -> Counter[Tokens]:
    """Wrong: the text split on the specials joined by '|', neither escaped nor kept."""
    chunks = re.split("|".join(specials), text)
    return Counter(to_bytes(p) for c in chunks for p in pretokens(c))


def last_pair_missed(table: dict[Tokens, int]) -> Counter[Pair]:
    """Wrong: the loop over each pre-token stops one pair short."""
    pairs: Counter[Pair] = Counter()
    for tok, n in table.items():
        for i in range(len(tok) - 2):
            pairs[tok[i], tok[i + 1]] += n
    return pairs


def last_token_dropped(tok: Tokens, pair: Pair, new: bytes) -> Tokens:
    """Wrong: the scan stops one short, so a last token that starts no pair is lost."""
    out, i = [], 0
    while i < len(tok) - 1:
        if (tok[i], tok[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(tok[i])
            i += 1
    return tuple(out)


def specials_not_counted(
    text: str, vocab_size: int, specials: Iterable[str] = ()
) -> Trained:
    """Wrong: vocab_size - 256 merges, as if the specials took no ids."""
    specials = list(specials)
    return book_train(text, vocab_size + len(specials), specials)


def joined_bytes_first(
    text: str, vocab_size: int, specials: Iterable[str] = ()
) -> Trained:
    """Wrong: of equal counts, the pair whose joined bytes are greater."""
    return book_train(text, vocab_size, specials, tie_break=lambda p, ids: p[0] + p[1])


def random_merge_case(rng: random.Random) -> tuple:
    """(tok, pair, new): tokens from the tiny alphabet, a pair that often occurs."""
    pair = (rng.choice(TOKENS), rng.choice(LETTERS))
    return random_tokens(rng), pair, pair[0] + pair[1]


def specials_deleted(text: str, specials: Iterable[str] = ()) -> Counter[Tokens]:
    """Wrong: the special tokens removed from the text, its pieces glued together."""
    specials = list(specials)
    kept = [c for c in split_special(text, specials) if c not in specials]
    return pretokenize("".join(kept))


def same_training(expected: Trained, actual: object) -> bool:
    """(vocab, merges) equal, whatever sequence types hold them."""
    vocab, merges = actual
    return expected == (dict(vocab), [tuple(m) for m in merges])


def full_training(args: tuple, expected: Trained) -> bool:
    """A fair case: the book's trainer made every merge asked for (no early stop)."""
    specials = list(args[2]) if len(args) > 2 else []
    return len(expected[1]) == args[1] - 256 - len(specials)


def random_training(rng: random.Random) -> tuple:
    """A short text, up to three specials, and room for one to six merges."""
    specials = random_specials(rng)
    return random_text(rng, 8), 256 + len(specials) + rng.randint(1, 6), specials


TO_BYTES = Exercise(
    name="to_bytes",
    chapter="02",
    reference=to_bytes,
    examples=lambda: [("hé",), ("s",), ("牛",), ("🙃",)],
    generate=lambda rng: (random_text(rng),),
    hint="Encode the whole string as UTF-8 first, then make each byte a token of its "
    "own: a bytes object of length one.",
    wrong=(
        Wrong(
            "one token per character",
            lambda s: tuple(c.encode("utf-8") for c in s),
            "Characters, not bytes: é is one character but two bytes. Each token "
            "must hold exactly one byte.",
        ),
        Wrong(
            "ints, not one-byte tokens",
            lambda s: tuple(s.encode("utf-8")),
            "Iterating over a bytes object gives ints. A token is a bytes object "
            "of length one.",
        ),
        Wrong(
            "bytes(b) of an int",
            zero_bytes,
            "bytes(n) of an int n is n zero bytes, not the byte n: write bytes([b]) "
            "to make a one-byte token.",
        ),
        Wrong(
            "a list, not a tuple",
            tokens_in_a_list,
            "The tokens are right but the container is not: return a tuple.",
        ),
    ),
)

UTF8_LENGTH = Exercise(
    name="utf8_length",
    chapter="02",
    reference=utf8_length,
    examples=lambda: [(ord(c),) for c in "séà牛🙃"] + [(cp,) for cp in UTF8_EDGES],
    generate=random_code_point,
    shrink=(),  # a smaller code point is no simpler
    hint="UTF-8 has four lengths, one to four bytes; the chapter's table gives the "
    "last code point of each.",
    wrong=(
        Wrong(
            "no 4-byte code points",
            lambda cp: 1 if cp < 0x80 else 2 if cp < 0x800 else 3,
            "Past U+FFFF (emoji, for one) a code point takes four bytes: three are "
            "not enough.",
        ),
        Wrong(
            "edges off by one",
            lambda cp: (
                1 if cp <= 0x80 else 2 if cp <= 0x800 else 3 if cp <= 0x10000 else 4
            ),
            "An edge: each length ends just before a power of two (0x80, 0x800, "
            "0x10000). Is the limit itself inside or outside?",
        ),
        Wrong(
            "each length's last code point left out",
            utf8_edges_below,
            "An edge: 0x7F, 0x7FF and 0xFFFF are the last code points of their "
            "lengths, not the first of the next. Compare with < 0x80, < 0x800, ...",
        ),
    ),
)

COUNT_WORDS = Exercise(
    name="count_words",
    chapter="03",
    reference=count_words,
    examples=lambda: [
        ("low low low", []),
        (toy_corpus(), []),
        ("the end<|endoftext|>the start", ["<|endoftext|>"]),
    ],  # fmt: skip
    generate=lambda rng: (random_text(rng, 8), random_specials(rng)),
    shrink=(0, 1),
    hint="Cut the text at the special tokens (and drop them), find the pre-tokens of "
    f"each chunk with the book's pattern (PAT = {PAT[:12]}...), and count each one "
    "as a tuple of one-byte tokens.",
    wrong=(
        Wrong(
            "split on whitespace",
            lambda text, specials=(): Counter(map(to_bytes, text.split())),
            "str.split throws the spaces away; the book's pattern keeps a space with "
            "the word after it, and splits punctuation and digits off.",
        ),
        Wrong(
            "special tokens counted as text",
            lambda text, specials=(): pretokenize(text),
            "A special token is a boundary, not text: cut the text around it and "
            "leave it out of the table.",
        ),
        Wrong(
            "special tokens deleted, neighbours joined",
            specials_deleted,
            "Deleting the special token glues the text on either side together; "
            "pre-tokenize each chunk on its own instead.",
        ),
        Wrong(
            "strings counted, not byte tuples",
            lambda text, specials=(): count_strings(text, tuple(specials)),
            "The keys must be tuples of one-byte tokens, the form training works on, "
            "not strings.",
        ),
        Wrong(
            "special tokens kept as pre-tokens",
            specials_as_pretokens,
            "A special token must not be in the table at all, not even whole: drop "
            "the special chunks and count only the others.",
        ),
        Wrong(
            "specials split unescaped",
            split_unescaped,
            "With no specials your pattern is empty and cuts between every character; "
            "use split_special, which escapes them and keeps the text whole then.",
        ),
    ),
)

COUNT_PAIRS = Exercise(
    name="count_pairs",
    chapter="04",
    reference=count_pairs,
    examples=lambda: [({(b"a", b"a", b"a"): 2},), (pretokenize(toy_corpus()),)],
    generate=lambda rng: (random_table(rng),),
    hint="Each pre-token occurs as often as its count says, and so does every pair "
    "inside it; a pair that occurs twice in one pre-token counts twice.",
    wrong=(
        Wrong(
            "counts ignored",
            lambda table: Counter(
                p for tok in table for p in zip(tok, tok[1:], strict=False)
            ),
            "Each row of the table stands for count occurrences of the pre-token: "
            "add the count, not one.",
        ),
        Wrong(
            "a pair counted once per pre-token",
            lambda table: Counter(
                {
                    p: n
                    for tok, n in table.items()
                    for p in set(zip(tok, tok[1:], strict=False))
                }
            ),
            "Duplicates: the same pair can occur twice in one pre-token (a a a holds "
            "a a twice), and each occurrence counts.",
        ),
        Wrong(
            "pairs across pre-tokens",
            lambda table: Counter(
                p
                for tokens in [
                    [t for tok, n in table.items() for _ in range(n) for t in tok]
                ]
                for p in zip(tokens, tokens[1:], strict=False)
            ),
            "Pairs never cross from one pre-token into the next: count inside each.",
        ),
        Wrong(
            "the last pair missed",
            last_pair_missed,
            "Off by one: a pre-token of n tokens holds n - 1 pairs, and your loop "
            "stops before the last of them.",
        ),
    ),
)

MERGE = Exercise(
    name="merge",
    chapter="04",
    reference=merge,
    examples=lambda: [
        ((b"a", b"a", b"a"), (b"a", b"a"), b"aa"),
        (to_bytes("lowest"), (b"s", b"t"), b"st"),
    ],  # fmt: skip
    generate=random_merge_case,
    hint="Scan from the left; where the pair starts, put the new token and skip both "
    "halves; elsewhere copy the token. Return a tuple.",
    wrong=(
        Wrong(
            "overlapping pairs merged",
            merge_overlapping,
            "Overlap: in a a a the two a a pairs share the middle a, which can go "
            "into one token only: the answer is aa a.",
        ),
        Wrong(
            "scanned from the right",
            lambda tok, pair, new: tuple(
                reversed(merge(tuple(reversed(tok)), pair[::-1], new))
            ),
            "Direction: where pairs overlap, the scan's direction decides which "
            "is merged. The book scans from the left.",
        ),
        Wrong(
            "the last token dropped",
            last_token_dropped,
            "The end: your loop stops one token short, so a last token that starts no "
            "pair is lost. Copy it too.",
        ),
    ),
)

TRAIN = Exercise(
    name="train",
    chapter="04",
    reference=train,
    examples=lambda: [("low low low", 258), (toy_corpus(), 265, ["<|endoftext|>"])],
    generate=random_training,
    cases=150,  # about two in three are fair cases (see full_training)
    shrink=(0, 1, 2),
    valid=full_training,
    same=same_training,
    hint="Pre-tokenize (specials cut out), then repeat: count pairs, take the most "
    "frequent (ties: the greater pair), merge it in every pre-token. Ids: the bytes, "
    "then one per merge, then the specials.",
    wrong=(
        Wrong(
            "the lesson's tie-break",
            lambda text, vocab_size, specials=(): book_train(
                text, vocab_size, specials, tie_break=lowest_ids
            ),
            "Tie-break: several pairs share the top count here. The article takes the "
            "lexicographically greater pair of byte strings, not the older ids.",
        ),
        Wrong(
            "merging across pre-tokens",
            lambda text, vocab_size, specials=(): book_train(
                text, vocab_size, specials, pattern=None, tie_break=greater_pair
            ),
            "A merge reached across a pre-token boundary: count pairs inside each "
            "pre-token of the table, never over the raw text.",
        ),
        Wrong(
            "overlapping merges",
            lambda text, vocab_size, specials=(): naive_train(
                text, vocab_size, specials, merge_overlapping
            ),
            "Overlap: merging a a a with (a, a) gives aa a, not two tokens.",
        ),
        Wrong(
            "specials numbered before the merges",
            specials_first,
            "Ids: the special tokens come after the last merge, not right after the "
            "bytes.",
        ),
        Wrong(
            "special tokens trained on",
            specials_trained_on,
            "The special tokens' characters were merged: cut them out of the text "
            "before pre-tokenizing, so that they take no part in training.",
        ),
        Wrong(
            "specials left out of the count",
            specials_not_counted,
            "Too many merges: vocab_size counts the specials too, so make "
            "vocab_size - 256 - len(specials) merges.",
        ),
        Wrong(
            "ties by the joined bytes",
            joined_bytes_first,
            "Tie-break: compare the pairs as (left, right) tuples, the left token "
            "first, not the bytes they join into.",
        ),
    ),
)

BYTES = (TO_BYTES, UTF8_LENGTH)
COUNTING = (COUNT_WORDS,)
MERGING = (COUNT_PAIRS, MERGE, TRAIN)
