"""Pre-tokenizing a large file in parallel, in bounded memory.

``pretokenize.count_strings`` counts a string already in memory. Here a file is
cut into one byte range per worker (``cuts.boundaries``), and each worker streams
its range in blocks (``cuts.blocks``), so no process ever holds the whole file. All
cuts fall where they cannot change a pre-token, so the counts never depend on the
number of workers or the block size. Each block is counted word by word
(``word_counts.py``), which gives count_strings's counts, faster.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from queue import Empty

from ..pretokenize import PAT
from .cuts import BLOCK, blocks, boundaries
from .word_counts import count_by_words
from .workers import die_with_parent, own_peak_bytes, reset_peak


def count_range(
    path,
    start: int,
    end: int,
    specials: tuple[str, ...] = (),
    pattern: str | None = PAT,
    block_size: int = BLOCK,
    on_bytes=None,
    opener=open,
) -> Counter:
    """Count the pre-token strings of one byte range; ``on_bytes(n)`` hears of each block."""

    def texts():
        for _, length, text in blocks(
            path, start, end, specials, pattern, block_size, opener
        ):
            yield text
            if on_bytes:  # the block has been counted
                on_bytes(length)

    return count_by_words(texts(), specials, pattern)


_progress = None  # a worker's queue for progress reports, set by the pool's initializer


def _init_worker(queue):
    global _progress
    _progress = queue
    die_with_parent()  # no orphans: a killed `bpe train` takes its workers with it
    reset_peak()  # from here on, the peak memory is the worker's own


def _count_range_in_worker(args) -> tuple[Counter, int]:
    counts = count_range(
        *args, on_bytes=_progress.put if _progress is not None else None
    )
    return counts, own_peak_bytes()


def count_file(
    path,
    specials: tuple[str, ...] = (),
    pattern: str | None = PAT,
    workers: int = 1,
    block_size: int = BLOCK,
    on_bytes=None,
) -> tuple[Counter, int, int]:
    """(pre-token string counts over a file, largest helper's peak RSS, processes run).

    ``workers`` processes share the file, this one included, as everywhere in the
    package: this process counts the first byte range while workers - 1 forked
    helpers count the others. There are never more processes than the file has
    ranges. ``on_bytes(n)`` is told as bytes are done, for progress bars.
    """
    ranges = boundaries(path, workers, specials, pattern)
    if len(ranges) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        counts = Counter()
        for a, b in ranges:
            counts.update(
                count_range(path, a, b, specials, pattern, block_size, on_bytes)
            )
        return counts, 0, 1
    ctx = multiprocessing.get_context("fork")
    queue = (
        ctx.Queue() if on_bytes else None
    )  # only when someone is listening for progress
    tasks = [(path, a, b, specials, pattern, block_size) for a, b in ranges[1:]]
    with ctx.Pool(len(tasks), initializer=_init_worker, initargs=(queue,)) as pool:
        pending = pool.map_async(_count_range_in_worker, tasks)
        report = (lambda n: (on_bytes(n), drain(queue, on_bytes))) if on_bytes else None
        counts = count_range(path, *ranges[0], specials, pattern, block_size, report)
        while not pending.ready():
            pending.wait(0.1)
            drain(queue, on_bytes)
        results = pending.get()
    drain(queue, on_bytes)
    for (
        helper_counts,
        _,
    ) in results:  # in range order (the order cannot change the sums)
        counts.update(helper_counts)
    return counts, max(peak for _, peak in results), len(ranges)


def drain(queue, on_bytes) -> None:
    """Pass every progress report waiting in queue to on_bytes, without blocking."""
    while queue is not None:
        try:
            on_bytes(queue.get_nowait())
        except Empty:  # nothing more for now
            return
