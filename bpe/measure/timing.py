"""Timing helpers for the chapters and ``make bench``, on machines whose speed drifts.

A shared 2-core VM can run the same code twice as slowly from one second to the
next. So a single time says little: ``best_seconds`` keeps the least disturbed
of a few runs, and ``paired_ratio`` compares two ways of doing something by
running them back to back, many times, and taking the median of the ratios.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def seconds(run: Callable[[], object]) -> float:
    """How long run() takes, in seconds.

    >>> seconds(lambda: sum(range(10))) < 1
    True
    """
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def best_seconds(run: Callable[[], object], repeats: int = 5) -> float:
    """The fastest of a few runs: the one that the machine's other work slowed least."""
    return min(seconds(run) for _ in range(repeats))


def median_seconds(run: Callable[[], object], repeats: int = 5) -> float:
    """The median time of a few runs."""
    return statistics.median(seconds(run) for _ in range(repeats))


def paired_ratio(
    run_a: Callable[[], object], run_b: Callable[[], object], pairs: int = 9
) -> tuple[float, float, float]:
    """(median time_a / time_b over back-to-back pairs, median time_a, median time_b).

    The order within a pair alternates, so neither run always goes first.
    """
    times_a, times_b = [], []
    for i in range(pairs):
        if i % 2 == 0:
            times_a.append(seconds(run_a))
            times_b.append(seconds(run_b))
        else:
            times_b.append(seconds(run_b))
            times_a.append(seconds(run_a))
    ratio = statistics.median(a / b for a, b in zip(times_a, times_b, strict=True))
    return ratio, statistics.median(times_a), statistics.median(times_b)
