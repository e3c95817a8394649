"""``bpe.train``: the core's ``train`` with its faster parts plugged in.

The same arguments and the same merges as ``train.train`` (the tests compare
them), found faster: pre-tokens are counted word by word (``word_counts.py``)
and the merges are learned by the indexed trainer with a heap
(``indexed.py``), which picks what the naive loop picks, ties included. A
``tie_break`` or ``on_merge`` of your own needs the naive loop, which then runs.
``check_training`` checks the options of every training entry point, here and in
``pipeline.py``, in one place.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable

from ..pretokenize import PAT, byte_table, check_specials, check_text
from ..train import (
    Pair,
    Table,
    check_vocab_size,
    greater_pair,
    naive_merges,
    vocab_from_merges,
    warn_out_of_pairs,
)
from .indexed import indexed_merges
from .word_counts import count_by_words

METHODS = ("naive", "scan", "heap")  # how each pair is picked: see learn()


def check_method(
    method: str | None,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
) -> str:
    """The method to learn with: as asked, or the heap unless the options need naive."""
    needs_naive = tie_break is not greater_pair or on_merge is not None
    if method is None:
        return "naive" if needs_naive else "heap"
    if method not in METHODS:
        raise ValueError(
            f"method must be one of {', '.join(map(repr, METHODS))}, not {method!r}"
        )
    if method != "naive" and needs_naive:
        raise ValueError(
            f"method={method!r} supports only the default tie_break and no on_merge"
        )
    return method


def check_workers(workers: int | None) -> int:
    """The number of processes to use: workers as given, or one per core for None.

    >>> check_workers(3)
    3
    """
    if workers is None:
        return os.cpu_count() or 1
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    return workers


def check_training(
    vocab_size: int,
    specials: Iterable[str],
    method: str | None = None,
    workers: int | None = 1,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
) -> tuple[tuple[str, ...], int, str, int]:
    """Every training entry point's options, checked in one place.

    Returns (specials, merges wanted, method, workers).

    >>> check_training(300, ["<|endoftext|>"], workers=2)
    (('<|endoftext|>',), 43, 'heap', 2)
    """
    specials = check_specials(specials)
    wanted = check_vocab_size(vocab_size, specials)
    return (
        specials,
        wanted,
        check_method(method, tie_break, on_merge),
        check_workers(workers),
    )


def learn(
    table: Table,
    n_merges: int,
    method: str = "heap",
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    progress: Callable | None = None,
) -> tuple[list[Pair], float, float]:
    """(up to n_merges merges, seconds picking pairs, seconds applying merges).

    ``naive`` recounts everything (its time is all counted as picking); ``scan``
    and ``heap`` keep an index of the rows and pick by a full scan or a heap.
    ``progress(1)`` hears of each merge.
    """
    if method != "naive":
        return indexed_merges(table, n_merges, method == "heap", progress)

    def told(pairs: dict, best: Pair) -> None:
        if on_merge:
            on_merge(pairs, best)
        if progress:
            progress(1)

    start = time.perf_counter()
    merges = naive_merges(table, n_merges, tie_break, told)
    return merges, time.perf_counter() - start, 0.0


def train(
    text: str,
    vocab_size: int,
    specials: Iterable[str] = (),
    pattern: str | None = PAT,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    method: str | None = None,
) -> tuple[dict[int, bytes], list[Pair]]:
    """``train.train``'s (vocab, merges), learned faster; see the module's notes.

    >>> vocab, merges = train("low low low", 258)
    >>> merges
    [(b'o', b'w'), (b'l', b'ow')]
    """
    specials, wanted, method, _ = check_training(
        vocab_size, specials, method, 1, tie_break, on_merge
    )
    table = byte_table(count_by_words([check_text(text)], specials, pattern))
    merges = learn(table, wanted, method, tie_break, on_merge)[0]
    if len(merges) < wanted:
        warn_out_of_pairs(len(merges), wanted)
    return vocab_from_merges(merges, specials), merges
