"""Chapter 20's exercises: another trainer's tie-break, and where two lists part.

``smaller_ids`` is the pick rustbpe and HF tokenizers make (the reference is
``bpe.book.chapters.divergence.smaller_ids``); the cases mix plain byte ids with
HF's, where the space comes after the letters, so that comparing bytes instead of
ids shows.
``first_difference`` is where two merge lists first differ.
"""

from __future__ import annotations

import random

from bpe.book.chapters.divergence import (
    BYTE_IDS,
    first_difference,
    hf_byte_ids,
    smaller_ids,
)
from bpe.book.practice.runner import Exercise, Wrong
from bpe.trainer import Pair

TIE_TOKENS = (b" ", b"a", b"d", b"l", b"r", b" d")  # b" d" is a merged token


def some_ids(hf: bool) -> dict[bytes, int]:
    """The ids of TIE_TOKENS: byte values (rustbpe) or HF's byte-level ranks."""
    base = hf_byte_ids() if hf else BYTE_IDS
    ids = {tok: base[tok] for tok in TIE_TOKENS if len(tok) == 1}
    return {**ids, b" d": 256}


def tie_cases() -> list[tuple]:
    """Ties that each wrong answer below breaks its own way (byte ids, then HF's)."""
    a, d, ell, r, space = b"a", b"d", b"l", b"r", b" "
    return [
        ({(space, ell): 5, (a, r): 5, (space, d): 5}, some_ids(hf=False)),
        ({(a, r): 976, (space, r): 976}, some_ids(hf=True)),
        ({(a, ell): 3, (d, a): 3}, some_ids(hf=False)),
    ]


def random_tie(rng: random.Random) -> tuple:
    """Two to five pairs of TIE_TOKENS with counts 1-2 (so ties are common)."""
    pairs = [(rng.choice(TIE_TOKENS), rng.choice(TIE_TOKENS)) for _ in range(5)]
    counts = {p: rng.randint(1, 2) for p in pairs[: rng.randint(2, 5)]}
    return counts, some_ids(hf=rng.random() < 0.5)


def smaller_bytes(counts: dict[Pair, int], ids: dict[bytes, int]) -> Pair:
    """Wrong: of equal counts, the pair of smaller bytes (ids ignored)."""
    return min(counts, key=lambda p: (-counts[p], p))


def right_id_first(counts: dict[Pair, int], ids: dict[bytes, int]) -> Pair:
    """Wrong: of equal counts, the smaller right id decides first."""
    return max(counts, key=lambda p: (counts[p], -ids[p[1]], -ids[p[0]]))


def left_id_only(counts: dict[Pair, int], ids: dict[bytes, int]) -> Pair:
    """Wrong: of equal counts, the smaller left id; the right one never asked."""
    return max(counts, key=lambda p: (counts[p], -ids[p[0]]))


def rarest_pair(counts: dict[Pair, int], ids: dict[bytes, int]) -> Pair:
    """Wrong: min over (count, ids), so the least frequent pair."""
    return min(counts, key=lambda p: (counts[p], ids[p[0]], ids[p[1]]))


def random_lists(rng: random.Random) -> tuple[list[Pair], list[Pair]]:
    """Two merge lists over a, b, c that share a start, then may part or stop."""
    letters = (b"a", b"b", b"c")
    shared = [
        (rng.choice(letters), rng.choice(letters)) for _ in range(rng.randint(0, 4))
    ]
    a, b = list(shared), list(shared)
    for side in (a, b):
        side += [
            (rng.choice(letters), rng.choice(letters)) for _ in range(rng.randint(0, 2))
        ]
    return a, b


def from_one(a: list[Pair], b: list[Pair]) -> int | None:
    """Wrong: the merge number (from 1), not the list index."""
    i = first_difference(a, b)
    return None if i is None else i + 1


def zip_only(a: list[Pair], b: list[Pair]) -> int | None:
    """Wrong: pairs compared only as far as both lists go."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)


def longer_length(a: list[Pair], b: list[Pair]) -> int | None:
    """Wrong: where one list is the start of the other, the longer one's length."""
    i = zip_only(a, b)
    return max(len(a), len(b)) if i is None and len(a) != len(b) else i


def a_end_only(a: list[Pair], b: list[Pair]) -> int | None:
    """Wrong: a walked to its end; b's running out is seen, a's is not."""
    for i, x in enumerate(a):
        if i >= len(b) or x != b[i]:
            return i
    return None


def minus_one(a: list[Pair], b: list[Pair]) -> int | None:
    """Wrong: -1, as str.find gives, when the lists are the same."""
    i = first_difference(a, b)
    return -1 if i is None else i


def not_in_other(a: list[Pair], b: list[Pair]) -> int | None:
    """Wrong: the first merge of a that b lacks anywhere, order ignored."""
    return next((i for i, x in enumerate(a) if x not in b), None)


SMALLER_IDS = Exercise(
    name="smaller_ids",
    chapter="20",
    reference=smaller_ids,
    examples=tie_cases,
    generate=random_tie,
    shrink=(),  # the examples are the smallest cases that tell the wrong answers apart
    valid=lambda args, expected: bool(args[0]),
    hint="The count first; of equal counts, the left token's id, then the right "
    "one's, smaller first. Look the ids up in ids.",
    wrong=(
        Wrong(
            "the right id first",
            right_id_first,
            "Order: pairs compare as tuples, the left id first; the right one only "
            "settles pairs with the same left token.",
        ),
        Wrong(
            "the left id only",
            left_id_only,
            "Half the key: when two pairs of equal counts share their left token, "
            "the right token's id, smaller first, decides between them.",
        ),
        Wrong(
            "smaller bytes, not smaller ids",
            smaller_bytes,
            "Bytes are not ids: HF's alphabet is sorted by the characters GPT-2's "
            "table spells bytes with, so the space (Ġ) comes after the letters. "
            "Compare ids[left] and ids[right].",
        ),
        Wrong(
            "ties left to dict order",
            lambda counts, ids: max(counts, key=counts.__getitem__),
            "That is minbpe's rule: of equal counts, whichever pair the table holds "
            "first. Make the ids part of the key.",
        ),
        Wrong(
            "the greater pair",
            lambda counts, ids: max(counts, key=lambda p: (counts[p], p)),
            "That is this book's tie-break (the greater bytes win). The other "
            "trainers take the smaller ids.",
        ),
        Wrong(
            "the rarest pair",
            rarest_pair,
            "min on the count picks the rarest pair: the count must be greatest, so "
            "put -counts[p] first in a min key (the ids then settle ties).",
        ),
    ),
)

FIRST_DIFFERENCE = Exercise(
    name="first_difference",
    chapter="20",
    reference=first_difference,
    examples=lambda: [
        ([(b"a", b"b"), (b"c", b"d")], [(b"a", b"b"), (b"d", b"c")]),
        ([(b"a", b"b"), (b"b", b"c")], [(b"b", b"c"), (b"a", b"b")]),
        ([(b"a", b"b")], [(b"a", b"b"), (b"b", b"c")]),
        ([(b"a", b"b")], [(b"a", b"b")]),
    ],
    generate=random_lists,
    shrink=(),  # as for smaller_ids
    hint="Walk both lists together from the start; the first index where the pairs "
    "differ is the answer, and if one list runs out first, its length is.",
    wrong=(
        Wrong(
            "counted from 1",
            from_one,
            "Off by one: the answer is the list index (from 0), not the merge "
            "number a reader would say.",
        ),
        Wrong(
            "stops where the shorter list ends",
            zip_only,
            "Length: when one list is the start of the other, they still differ, "
            "at the index where the shorter one ends.",
        ),
        Wrong(
            "the longer list's length",
            longer_length,
            "Which length: where one list is the start of the other, they part "
            "where the shorter one ends, at its length (min, not max).",
        ),
        Wrong(
            "order ignored",
            not_in_other,
            "Order matters: the same merges learned in another order are a "
            "divergence. Compare the lists index by index.",
        ),
        Wrong(
            "only a's end seen",
            a_end_only,
            "Both ends: when a is the start of a longer b, the lists still part where "
            "a ends. Check whether either list has run out.",
        ),
        Wrong(
            "-1 when the same",
            minus_one,
            "The same lists give None, not -1: -1 would be read as an index (the last "
            "merge).",
        ),
    ),
)

DIVERGING = (SMALLER_IDS, FIRST_DIFFERENCE)
