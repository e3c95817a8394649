"""``bpe.train``: the core's ``train``, faster parts plugged in, on a text in memory.

One of three homes of training: ``bpe.trainer`` is the core's (what the book
teaches, the reference), this module is the fast one that ``import bpe`` gives,
and ``pipeline`` feeds it counts taken from files, shards and streams.

The same arguments and the same merges as ``trainer.train`` (the tests compare
them), found faster: pre-tokens are counted word by word (``word_counts.py``)
and the merges are learned by the indexed trainer with a heap (``indexed.py``,
written compactly in ``compact.py``), which picks what the naive loop picks,
ties included. A
``tie_break`` or ``on_merge`` of your own needs the naive loop, which then runs.
``start`` goes on from an existing tokenizer or merge list (``extend.py``).
``check_training`` checks the options of every training entry point, here and in
``pipeline.py``, in one place, and ``learn`` is the one door to the trainers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from ..pretokenizer import PAT, byte_table, check_specials, check_text
from ..trainer import (
    Pair,
    Table,
    greater_pair,
    naive_merges,
    warn_out_of_pairs,
)
from .compact import compact_merges
from .extend import Start, check_start, extended
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


class Training(NamedTuple):
    """A training run's options, checked (``check_training``)."""

    specials: tuple[str, ...]
    wanted: int  # new merges to learn
    method: str
    workers: int
    start: Start | None  # what training goes on from
    pattern: str | None


def check_training(
    vocab_size: int,
    specials: Iterable[str],
    method: str | None = None,
    workers: int | None = 1,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    start: Any = None,
    pattern: str | None = PAT,
) -> Training:
    """Every training entry point's options, checked in one place.

    >>> check_training(300, ["<|endoftext|>"], workers=2)[:4]
    (('<|endoftext|>',), 43, 'heap', 2)
    """
    start, specials, wanted, pattern = check_start(
        start, vocab_size, check_specials(specials), pattern
    )
    return Training(
        specials,
        wanted,
        check_method(method, tie_break, on_merge),
        check_workers(workers),
        start,
        pattern,
    )


def learn(
    table: Table,
    n_merges: int,
    method: str = "heap",
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    progress: Callable | None = None,
    start: Start | None = None,
    taken: bool = False,
) -> tuple[list[Pair], float, float]:
    """(up to n_merges new merges, seconds picking pairs, seconds applying merges).

    ``naive`` recounts everything (its time is all counted as picking); ``scan``
    and ``heap`` keep an index of the rows and pick by a full scan or a heap
    (``heap`` runs the compact trainer, ``compact.py``).
    With a ``start``, its merges are first applied to the table, as encoding
    applies them (counted as applying). ``progress(1)`` hears of each merge.
    The compact trainer also takes {pre-token string: count}, and with ``taken``
    empties the table as it reads it (see ``compact.CompactTable``).
    """
    began = time.perf_counter()
    token_id = None
    if start is not None:
        table, token_id = start.replay(table), start.tokenizer.token_id
    replayed = time.perf_counter() - began
    if method != "naive":
        if method == "heap":  # the indexed trainer, compact (compact.py)
            merges, pick, apply = compact_merges(table, n_merges, progress, taken)
        else:
            merges, pick, apply = indexed_merges(table, n_merges, False, progress)
        return merges, pick, apply + replayed

    def told(pairs: dict, best: Pair) -> None:
        if on_merge:
            on_merge(pairs, best)
        if progress:
            progress(1)

    began = time.perf_counter()
    merges = naive_merges(table, n_merges, tie_break, told, token_id)
    return merges, time.perf_counter() - began, replayed


def train(
    text: str,
    vocab_size: int,
    specials: Iterable[str] = (),
    pattern: str | None = PAT,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    method: str | None = None,
    start: Any = None,
) -> tuple[dict[int, bytes], list[Pair]]:
    """``trainer.train``'s (vocab, merges), learned faster; see the module's notes.

    ``start``, a Tokenizer or a list of merges, is where training begins: the
    merges returned begin with its merges. A Tokenizer's ids stay as they are, the
    new ones follow its largest, and its pattern and specials are used (give the
    same ones, or leave them out); ``vocab_size`` counts its entries too.

    >>> vocab, merges = train("low low low", 258)
    >>> merges
    [(b'o', b'w'), (b'l', b'ow')]
    >>> train("low low low", 258, start=merges[:1])[1] == merges
    True
    """
    run = check_training(
        vocab_size, specials, method, 1, tie_break, on_merge, start, pattern
    )
    table = byte_table(count_by_words([check_text(text)], run.specials, run.pattern))
    merges = learn(table, run.wanted, run.method, tie_break, on_merge, start=run.start)[
        0
    ]
    if len(merges) < run.wanted:
        warn_out_of_pairs(len(merges), run.wanted)
    return extended(run.start, merges, run.specials)
