"""From a file on disk to a trained vocabulary, with a report of where the time went.

``train.train`` takes a string already in memory. ``train_file`` streams a file
through ``parallel.count_file`` in bounded memory, converts each distinct
pre-token to bytes once, learns the merges through the same ``train.learn_merges``
as ``train`` (the heap by default), and measures each phase as it goes.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass

from ..pretokenize import PAT, check_specials, to_bytes
from ..train import (
    check_method,
    check_vocab_size,
    learn_merges,
    vocab_from_merges,
    warn_out_of_pairs,
)
from .parallel import count_file
from .workers import own_peak_bytes

MIB = 1 << 20


@dataclass
class TrainReport:
    """What one training run did, and how long each phase took."""

    source: str
    bytes: int
    workers: int  # processes that really counted, this one included
    workers_asked: int
    method: str
    pretokenize_seconds: float
    pick_seconds: float
    apply_seconds: float
    distinct_pretokens: int
    total_pretokens: int
    merges: int
    merges_wanted: int
    vocab_size: int
    parent_peak_bytes: int
    worker_peak_bytes: int

    @property
    def stopped_early(self) -> bool:
        return self.merges < self.merges_wanted

    @property
    def total_seconds(self) -> float:
        return self.pretokenize_seconds + self.pick_seconds + self.apply_seconds

    def shares(self) -> dict[str, float]:
        """Each phase's share of the total time, as fractions: {"pick": 0.1, ...}."""
        total = self.total_seconds or 1.0
        return {
            "pre-tokenize": self.pretokenize_seconds / total,
            "pick": self.pick_seconds / total,
            "apply": self.apply_seconds / total,
        }

    def __str__(self) -> str:
        share = ", ".join(f"{k} {v:.0%}" for k, v in self.shares().items())
        asked = (
            ""
            if self.workers == self.workers_asked
            else f" ({self.workers_asked} asked)"
        )
        lines = [
            f"{self.source}: {self.bytes:,} bytes; {self.workers} worker(s){asked}; "
            f"method {self.method}",
            f"pre-tokenize: {self.pretokenize_seconds:7.2f} s  ({self.distinct_pretokens:,} "
            f"distinct pre-tokens, {self.total_pretokens:,} in all)",
            f"pick the pair {self.pick_seconds:7.2f} s, apply the merge "
            f"{self.apply_seconds:7.2f} s; total {self.total_seconds:.2f} s ({share})",
            f"{self.merges:,} merges; vocabulary {self.vocab_size:,}",
            f"peak memory: {self.parent_peak_bytes / MIB:.0f} MiB in the main process, "
            f"{self.worker_peak_bytes / MIB:.0f} MiB in the largest worker",
        ]
        if self.stopped_early:
            lines.append(
                f"stopped early: ran out of pairs after {self.merges:,} of "
                f"{self.merges_wanted:,} merges"
            )
        return "\n".join(lines)


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


def check_file(path) -> str:
    """Refuse a path that is not a readable, non-empty file, saying what it is instead."""
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path} is a directory, not a text file")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such file: {path}")
    if os.path.getsize(path) == 0:
        raise ValueError(f"{path} is empty: there is nothing to learn from")
    return str(path)


def count_file_strings(
    path, specials: tuple[str, ...], pattern: str | None, workers: int, progress: bool
) -> tuple[Counter, int, int]:
    """count_file with a progress bar in bytes when progress is true."""
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(
            total=os.path.getsize(path), unit="B", unit_scale=True, desc="pre-tokenize"
        )
    try:
        return count_file(
            path, specials, pattern, workers, on_bytes=bar.update if bar else None
        )
    finally:
        if bar:
            bar.close()


def pretokenize_file(
    path, specials=(), pattern: str | None = PAT, workers: int | None = None
) -> Counter[tuple[bytes, ...]]:
    """A file's pre-token table, {tuple of one-byte tokens: count}, like pretokenize.

    ``workers`` processes share the file, as many as asked (up to one per range the
    file can be cut into), so that tests can check the table never depends on them.
    """
    specials = check_specials(specials)
    strings = count_file_strings(
        check_file(path), specials, pattern, check_workers(workers), False
    )[0]
    return Counter({to_bytes(s): n for s, n in strings.items()})


def learn_from_table(
    table: dict, vocab_size: int, specials: tuple[str, ...], method: str, progress: bool
):
    """(vocab, merges, {"pick": s, "apply": s}) from a pre-token table."""
    wanted = vocab_size - 256 - len(specials)
    bar, timings = None, {}
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=wanted, unit="merge", desc="merge")
    try:
        merges = learn_merges(
            table, wanted, method, progress=bar.update if bar else None, timings=timings
        )
    finally:
        if bar:
            bar.close()
    if len(merges) < wanted:
        warn_out_of_pairs(len(merges), wanted, stacklevel=4)
    return vocab_from_merges(merges, specials), merges, timings


def train_file(
    path,
    vocab_size: int,
    specials=(),
    workers: int | None = None,
    method: str = "heap",
    pattern: str | None = PAT,
    progress: bool = False,
):
    """Train on a file without loading it whole; return (vocab, merges, TrainReport).

    The same merges as ``train`` on the file's text, whatever the number of workers.
    More workers than cores only add forking and memory, so at most one per core
    runs; the report says how many did.
    """
    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    check_method(method)
    path, asked = check_file(path), check_workers(workers)
    t0 = time.perf_counter()
    strings, worker_peak, ran = count_file_strings(
        path, specials, pattern, min(asked, os.cpu_count() or 1), progress
    )
    table = {to_bytes(s): n for s, n in strings.items()}  # each distinct string once
    counted = time.perf_counter() - t0
    vocab, merges, timings = learn_from_table(
        table, vocab_size, specials, method, progress
    )
    report = TrainReport(
        source=os.path.basename(path),
        bytes=os.path.getsize(path),
        workers=ran,
        workers_asked=asked,
        method=method,
        pretokenize_seconds=counted,
        pick_seconds=timings["pick"],
        apply_seconds=timings["apply"],
        distinct_pretokens=len(table),
        total_pretokens=sum(table.values()),
        merges=len(merges),
        merges_wanted=vocab_size - 256 - len(specials),
        vocab_size=len(vocab),
        parent_peak_bytes=own_peak_bytes(),
        worker_peak_bytes=worker_peak,
    )
    return vocab, merges, report
