"""The trainer: count every pair, merge the most frequent, repeat.

``naive_merges`` is the version to read. It recounts the whole pre-token table
for every merge, which is simple and plainly correct. ``learn_merges`` is the one
door to every way of learning merges: the naive loop here, or the indexed
trainers of ``scale/indexed.py``, which are checked against it merge by merge.
``train`` (text in memory) and ``scale.pipeline.train_file`` (a file) both use it.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable

from .pretokenize import BYTE_TOKENS, PAT, check_specials, check_text, pretokenize
from .scale.indexed import indexed_merges

Pair = tuple[bytes, bytes]
Table = dict[tuple[bytes, ...], int]  # {pre-token as a tuple of tokens: its count}


def count_pairs(table: Table) -> Counter[Pair]:
    """Total count of each adjacent pair over the table, duplicates kept.

    >>> count_pairs({(b"a", b"a", b"a"): 2})
    Counter({(b'a', b'a'): 4})
    """
    pairs = Counter()
    for tok, freq in table.items():
        for pair in zip(tok, tok[1:]):
            pairs[pair] += freq
    return pairs


def merge(tok: tuple[bytes, ...], pair: Pair, new: bytes) -> tuple[bytes, ...]:
    """Replace each occurrence of pair in tok, left to right, without overlap.

    >>> merge((b"a", b"a", b"a"), (b"a", b"a"), b"aa")
    (b'aa', b'a')
    """
    out, i = [], 0
    while i < len(tok):
        if i + 1 < len(tok) and tok[i] == pair[0] and tok[i + 1] == pair[1]:
            out.append(new)
            i += 2  # skip both halves: a match never overlaps the next one
        else:
            out.append(tok[i])
            i += 1
    return tuple(out)


def greater_pair(pair: Pair, token_id: dict[bytes, int]) -> Pair:
    """The article's tie-break: among equal counts, the lexicographically greater pair.

    >>> max([(b"e", b"s"), (b"s", b"t")], key=lambda p: greater_pair(p, {}))
    (b's', b't')
    """
    return pair


def lowest_ids(pair: Pair, token_id: dict[bytes, int]) -> tuple[int, int]:
    """The lesson's tie-break: among equal counts, the pair of older (smaller) ids.

    >>> ids = {b"e": 101, b"s": 115, b"t": 116}
    >>> max([(b"e", b"s"), (b"s", b"t")], key=lambda p: lowest_ids(p, ids))
    (b'e', b's')
    """
    return (-token_id[pair[0]], -token_id[pair[1]])


METHODS = ("naive", "scan", "heap")  # how learn_merges picks each pair


def check_vocab_size(vocab_size: int, specials: tuple[str, ...]) -> None:
    """Refuse a vocabulary too small for the 256 bytes and the special tokens."""
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    if vocab_size < 256 + len(specials):
        raise ValueError(
            f"vocab_size={vocab_size} is too small: the 256 byte tokens "
            f"and {len(specials)} special token(s) already need "
            f"{256 + len(specials)}"
        )


def check_method(
    method: str, tie_break: Callable | None = None, on_merge: Callable | None = None
) -> None:
    """Refuse an unknown method, or options only the naive loop honours."""
    if method not in METHODS:
        raise ValueError(
            f"method must be one of {', '.join(map(repr, METHODS))}, not {method!r}"
        )
    if method != "naive" and (tie_break not in (None, greater_pair) or on_merge):
        raise ValueError(
            f"method={method!r} supports only the default tie_break and no on_merge"
        )


class OutOfPairs(UserWarning):
    """Training stopped before vocab_size: no pair of tokens was left to merge."""


def warn_out_of_pairs(done: int, wanted: int, stacklevel: int = 3) -> None:
    """Say that training stopped early, and why (the public entry points call this)."""
    warnings.warn(
        f"ran out of pairs to merge after {done} of {wanted} merges; "
        "the vocabulary is smaller than asked",
        OutOfPairs,
        stacklevel=stacklevel,
    )


def naive_merges(
    table: Table,
    n_merges: int,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    progress: Callable | None = None,
) -> list[Pair]:
    """Up to n_merges merges, each found by recounting every pair of the table."""
    token_id = {tok: i for i, tok in enumerate(BYTE_TOKENS)}
    merges = []
    while len(merges) < n_merges:
        pairs = count_pairs(table)  # naive: recount everything every round
        if not pairs:
            break  # every pre-token is a single token: nothing left to merge
        best = max(pairs, key=lambda p: (pairs[p], tie_break(p, token_id)))
        if on_merge:
            on_merge(pairs, best)
        new = best[0] + best[1]
        merged = Counter()
        for tok, freq in table.items():
            merged[merge(tok, best, new)] += freq  # two rows can become one
        table = merged
        merges.append(best)
        token_id.setdefault(new, 255 + len(merges))
        if progress:
            progress(1)
    return merges


def learn_merges(
    table: Table,
    n_merges: int,
    method: str = "naive",
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    progress: Callable | None = None,
    timings: dict | None = None,
) -> list[Pair]:
    """Up to n_merges merges from a pre-token table, by the naive or indexed trainer.

    All three methods learn the same merges. ``progress(1)`` is called after each
    merge; ``timings``, if given, receives the seconds spent picking and applying.
    """
    start = time.perf_counter()
    if method == "naive":
        merges = naive_merges(table, n_merges, tie_break, on_merge, progress)
        pick, apply = time.perf_counter() - start, 0.0  # not told apart by the loop
    else:
        merges, pick, apply = indexed_merges(
            table, n_merges, method == "heap", progress
        )
    if timings is not None:
        timings.update(pick=pick, apply=apply)
    return merges


def vocab_from_merges(
    merges: list[Pair], specials: tuple[str, ...]
) -> dict[int, bytes]:
    """The vocabulary a merge list implies: the bytes, one entry per merge, specials."""
    vocab = dict(enumerate(BYTE_TOKENS))
    for left, right in merges:
        vocab[len(vocab)] = left + right
    for s in specials:  # after the last merge: each special gets the next free id
        vocab[len(vocab)] = s.encode("utf-8")
    return vocab


def train(
    text: str,
    vocab_size: int,
    specials: Iterable[str] = (),
    pattern: str | None = PAT,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    method: str = "naive",
) -> tuple[dict[int, bytes], list[Pair]]:
    """Learn merges until the vocabulary has vocab_size entries (specials included).

    Returns (vocab, merges): vocab maps id -> bytes (ids 0..255 are the bytes),
    merges lists (left, right) pairs in the order they were learned. Training
    stops early, with an ``OutOfPairs`` warning, when no pair is left to merge.
    ``tie_break`` and ``on_merge(pairs, best)`` are for the naive method only.

    >>> vocab, merges = train("low low low", 258)
    >>> merges
    [(b'o', b'w'), (b'l', b'ow')]
    """
    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    check_method(method, tie_break, on_merge)
    table = pretokenize(check_text(text), specials, pattern)
    wanted = vocab_size - 256 - len(specials)
    merges = learn_merges(table, wanted, method, tie_break, on_merge)
    if len(merges) < wanted:
        warn_out_of_pairs(len(merges), wanted)
    return vocab_from_merges(merges, specials), merges
