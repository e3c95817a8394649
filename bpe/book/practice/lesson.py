"""Chapter 00's exercises: the lesson's toy tokenizer, on ids.

The lesson's four exercises ask questions; three of them hide a function that can
be checked. Measuring "how many tokens compared with bytes" is ``tokens_per_byte``;
"change the tie-break" is ``best_pair``, the method a ``ToyBPE`` subclass
overrides; "why must encode repeat the search" is ``toy_encode``, where one pass
is the wrong answer. ``replace_pair`` is the step all of them rest on.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

from bpe.book.chapters.toy import ToyBPE, replace_pair
from bpe.book.practice.inputs import (
    Named,
    random_id_merges,
    random_ids,
    toy_corpus,
    toy_encoders,
)
from bpe.book.practice.runner import Exercise, Wrong

IdPair = tuple[int, int]


def replace_overlapping(ids: list[int], pair: IdPair, new_id: int) -> list[int]:
    """Wrong: every place the pair starts becomes a token, even if they overlap."""
    starts = [i for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) == pair]
    covered = {j for i in starts for j in (i, i + 1)}
    return [new_id if i in starts else x for i, x in enumerate(ids)
            if i in starts or i not in covered]  # fmt: skip


def replace_from_right(ids: list[int], pair: IdPair, new_id: int) -> list[int]:
    """Wrong: the scan runs from the right, so 7 7 7 becomes 7 then the new id."""
    return replace_pair(ids[::-1], pair[::-1], new_id)[::-1]


def greatest_pair(counts: Counter[IdPair]) -> IdPair:
    """Wrong: max over the Counter's keys, so the greatest pair, whatever its count."""
    return max(counts)


def right_id_first(counts: Counter[IdPair]) -> IdPair:
    """Wrong: of equal counts, the greater right id decides first."""
    return max(counts, key=lambda p: (counts[p], p[1], p[0]))


def greater_pair_first(counts: Counter[IdPair]) -> IdPair:
    """The exercise's rule: the most frequent pair, and of those the greater ids."""
    return max(counts, key=lambda p: (counts[p], p))


def random_counts(rng: random.Random) -> tuple:
    """A pair-count table with small counts, so that ties are common."""
    ids = (97, 98, 99, 256)
    n = rng.randint(1, 5)
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(n)]
    return (Counter({p: rng.randint(1, 3) for p in pairs}),)


def tokens_per_byte(text: str, encode: Callable[[str], list[int]]) -> float:
    """How many tokens encode spends on each byte of text's UTF-8."""
    return len(encode(text)) / len(text.encode("utf-8"))


def toy_encode(text: str, merges: dict[IdPair, int]) -> list[int]:
    """ToyBPE's encode, with the merges {pair: new id} given."""
    toy = ToyBPE()
    toy.merges = dict(merges)
    return toy.encode(text)


def one_pass(text: str, merges: dict[IdPair, int]) -> list[int]:
    """Wrong: one scan from the left, merging each known pair met once."""
    ids, out = list(text.encode("utf-8")), []
    for x in ids:
        if out and (out[-1], x) in merges:
            out[-1] = merges[(out[-1], x)]
        else:
            out.append(x)
    return out


def leftmost_first(text: str, merges: dict[IdPair, int]) -> list[int]:
    """Wrong: repeatedly merge the leftmost known pair, whatever its age."""
    ids = list(text.encode("utf-8"))
    while known := [p for p in zip(ids, ids[1:], strict=False) if p in merges]:
        ids = replace_pair(ids, known[0], merges[known[0]])
    return ids


def merged_by(choose: Callable, text: str, merges: dict[IdPair, int]) -> list[int]:
    """The text's bytes, merged while a known pair is present, choose picking which."""
    ids = list(text.encode("utf-8"))
    while known := [p for p in zip(ids, ids[1:], strict=False) if p in merges]:
        pair = choose(known, merges)
        ids = replace_pair(ids, pair, merges[pair])
    return ids


def characters_merged(text: str, merges: dict[IdPair, int]) -> list[int]:
    """Wrong: the text's code points, not its UTF-8 bytes, are the starting ids."""
    ids = [ord(c) for c in text]
    while known := [p for p in zip(ids, ids[1:], strict=False) if p in merges]:
        pair = min(known, key=merges.__getitem__)
        ids = replace_pair(ids, pair, merges[pair])
    return ids


def smallest_pair_first(text: str, merges: dict[IdPair, int]) -> list[int]:
    """Wrong: of the known pairs present, the smallest pair of ids, not new id."""
    return merged_by(lambda known, merges: min(known), text, merges)


def newest_first(text: str, merges: dict[IdPair, int]) -> list[int]:
    """Wrong: of the known pairs present, the one learned last (greatest new id)."""
    return merged_by(lambda known, merges: max(known, key=merges.get), text, merges)


def in_dict_order(text: str, merges: dict[IdPair, int]) -> list[int]:
    """Wrong: each merge applied once, in the dict's order, not by new id."""
    ids = list(text.encode("utf-8"))
    for pair, new_id in merges.items():
        ids = replace_pair(ids, pair, new_id)
    return ids


def toy_merges() -> dict[IdPair, int]:
    """The merges ToyBPE learns from the toy corpus (as one text) in eight steps."""
    toy = ToyBPE()
    toy.train(toy_corpus(), 264)
    return toy.merges


UNTRAINED = Named(ToyBPE().encode, "ToyBPE().encode, untrained")

REPLACE_PAIR = Exercise(
    name="replace_pair",
    chapter="00",
    reference=replace_pair,
    examples=lambda: [([7, 7, 7], (7, 7), 300), ([1, 2, 1, 2], (1, 2), 256)],
    generate=lambda rng: (
        random_ids(rng),
        (rng.choice((97, 98)), rng.choice((97, 98))),
        300,
    ),
    hint="Walk the list once from the left; when the pair starts here, emit the "
    "new id and step past both halves.",
    wrong=(
        Wrong(
            "overlapping pairs merged",
            replace_overlapping,
            "Overlap: in 7 7 7 the two pairs share the middle 7, and an id can go "
            "into one new token only. After a match, where does the scan go on?",
        ),
        Wrong(
            "scanned from the right",
            replace_from_right,
            "Direction: where pairs overlap, the side you start from decides which "
            "one is merged. The lesson reads left to right.",
        ),
    ),
)

BEST_PAIR = Exercise(
    name="best_pair",
    chapter="00",
    reference=greater_pair_first,
    examples=lambda: [(Counter({(101, 115): 2, (115, 116): 2, (97, 98): 1}),)],
    generate=random_counts,
    valid=lambda args, expected: bool(args[0]),
    hint="Two things decide: the count first, then, among equal counts, the pair "
    "itself compared as a tuple of ids.",
    wrong=(
        Wrong(
            "the lesson's rule, smaller ids",
            ToyBPE().best_pair,
            "That is the lesson's tie-break (smaller ids win). The exercise asks for "
            "the other one.",
        ),
        Wrong(
            "ties left to dict order",
            lambda counts: max(counts, key=counts.__getitem__),
            "Ties: several pairs share the top count here, and your answer takes "
            "whichever comes first in the table. Make the pair part of the key.",
        ),
        Wrong(
            "counts ignored",
            greatest_pair,
            "max over a Counter compares its keys, not its counts: that is the "
            "greatest pair. Put the count first in the key, then the pair.",
        ),
        Wrong(
            "the right id first",
            right_id_first,
            "Order: pairs compare as tuples, the left id first; the right id only "
            "decides between pairs that share their left id.",
        ),
    ),
)

TOKENS_PER_BYTE = Exercise(
    name="tokens_per_byte",
    chapter="00",
    reference=tokens_per_byte,
    examples=lambda: [("naïve café 🙂", UNTRAINED), ("lowest widest", UNTRAINED)],
    generate=lambda rng: (
        "x" + "".join(rng.choice("ab é牛🙃\n") for _ in range(rng.randint(0, 6))),
        rng.choice(toy_encoders()),
    ),
    same=math.isclose,
    hint="Count the tokens of the text and divide by its length in bytes.",
    wrong=(
        Wrong(
            "characters, not bytes",
            lambda text, encode: len(encode(text)) / len(text),
            "Characters are not bytes: é takes two bytes in UTF-8, 🙂 four. "
            "What does len measure on a str?",
        ),
        Wrong(
            "bytes per token",
            lambda text, encode: len(text.encode("utf-8")) / len(encode(text)),
            "Upside down: that is bytes per token. The exercise asks for tokens "
            "per byte.",
        ),
        Wrong(
            "integer division",
            lambda text, encode: len(encode(text)) // len(text.encode("utf-8")),
            "// rounds down to a whole number, and a text never has more tokens than "
            "bytes: divide with /.",
        ),
    ),
)

TOY_ENCODE = Exercise(
    name="toy_encode",
    chapter="00",
    reference=toy_encode,
    examples=lambda: [
        ("lowest", toy_merges()),
        ("aaa", {(97, 97): 256}),
        ("cab", {(99, 97): 256, (97, 98): 257}),
        ("aab", {(256, 98): 257, (97, 97): 256}),
    ],
    generate=lambda rng: (
        "".join(rng.choice(("a", "b", "c", "é")) for _ in range(rng.randint(0, 8))),
        random_id_merges(rng),
    ),
    shrink=(0, 1),
    hint="Merge the pair with the smallest new id among those present, then look "
    "again: a merge can make a pair that was not there before.",
    wrong=(
        Wrong(
            "one pass",
            one_pass,
            "One pass is not enough: a merge makes a new id, and that id can pair "
            "with its neighbour in a later merge. Search again after each merge.",
        ),
        Wrong(
            "leftmost pair first",
            leftmost_first,
            "Order: you merged the leftmost known pair; encoding merges the pair "
            "learned first (the smallest new id), wherever it is.",
        ),
        Wrong(
            "characters, not bytes",
            characters_merged,
            "Characters are not bytes: é is one code point (233) but two UTF-8 bytes. "
            "Start from text.encode('utf-8').",
        ),
        Wrong(
            "smallest pair, not smallest new id",
            smallest_pair_first,
            "Order: you took the smallest pair of ids; the pair learned first is the "
            "one whose new id, merges[pair], is smallest.",
        ),
        Wrong(
            "the newest merge first",
            newest_first,
            "Order: you merged the pair learned last (the greatest new id); encoding "
            "takes the one learned first, the smallest.",
        ),
        Wrong(
            "merges in the dict's order",
            in_dict_order,
            "Order: a dict need not hold the merges in the order learned. Each time, "
            "merge the pair present with the smallest new id.",
        ),
    ),
)

LESSON = (REPLACE_PAIR, BEST_PAIR, TOKENS_PER_BYTE, TOY_ENCODE)
