"""Pre-tokenizing a large file in parallel, in bounded memory.

``pretokenize.py`` counts a string already in memory. Here a file is cut into
one byte range per worker (``cuts.boundaries``), and each worker streams its
range in blocks (``cuts.blocks``), so no process ever holds the whole file. All
cuts fall where they cannot change a pre-token, so the counts never depend on
the number of workers or the block size.
"""
import multiprocessing
import resource
from collections import Counter
from queue import Empty

from .cuts import BLOCK, blocks, boundaries
from .pretokenize import PAT, check_specials, finder, split_special


def count_text(text, specials, pattern):
    """Counter of pre-token strings in text, special tokens left out."""
    counts, findall = Counter(), finder(pattern)
    for chunk in split_special(text, specials):
        if chunk not in specials:
            counts.update(findall(chunk))
    return counts


def count_range(path, start, end, specials=(), pattern=PAT, block_size=BLOCK, on_bytes=None):
    """Count the pre-token strings of one byte range; return (counts, peak RSS in bytes).

    ``on_bytes(n)`` is told after each block, for progress bars.
    """
    counts = Counter()
    for _, length, text in blocks(path, start, end, specials, block_size):
        counts.update(count_text(text, specials, pattern))
        if on_bytes:
            on_bytes(length)
    return counts, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


_progress = None  # a worker's queue for progress reports, set by the pool's initializer


def _init_worker(queue):
    global _progress
    _progress = queue


def _count_range_in_worker(args):
    return count_range(*args, on_bytes=_progress.put if _progress is not None else None)


def count_file(path, specials=(), pattern=PAT, workers=1, block_size=BLOCK, on_bytes=None):
    """Counter of pre-token strings over a whole file, and the largest worker's peak RSS.

    With workers=1 everything runs in this process. ``on_bytes(n)`` is told as bytes are done.
    """
    specials = check_specials(specials)
    ranges = boundaries(path, workers, specials)
    if workers == 1 or len(ranges) <= 1:
        results = [count_range(path, a, b, specials, pattern, block_size, on_bytes) for a, b in ranges]
        return sum_counts(c for c, _ in results), 0
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    queue = ctx.Queue() if on_bytes else None  # only when someone is listening for progress
    tasks = [(path, a, b, specials, pattern, block_size) for a, b in ranges]
    with ctx.Pool(len(ranges), initializer=_init_worker, initargs=(queue,)) as pool:
        pending = pool.map_async(_count_range_in_worker, tasks)
        while not pending.ready():
            pending.wait(0.1)
            drain(queue, on_bytes)
        results = pending.get()
    drain(queue, on_bytes)
    return sum_counts(c for c, _ in results), max(peak for _, peak in results)


def drain(queue, on_bytes):
    """Pass every progress report waiting in queue to on_bytes, without blocking."""
    while queue is not None:
        try:
            on_bytes(queue.get_nowait())
        except Empty:  # nothing more for now
            return


def sum_counts(counters):
    """Add Counters in order (the order cannot change the sums)."""
    total = Counter()
    for c in counters:
        total.update(c)
    return total
