"""From a file on disk to a trained vocabulary, with a report of where the time went.

``train.train`` takes a string already in memory. ``train_file`` streams a file
through ``parallel.count_file`` in bounded memory, converts each distinct
pre-token to bytes once, runs the fast trainer (``fast.py``), and measures each
phase as it goes.
"""
import os
import resource
import time
from collections import Counter
from dataclasses import dataclass

from .pretokenize import PAT, check_specials, to_bytes
from .train import check_method, check_vocab_size, naive_merges, vocab_from_merges


@dataclass
class TrainReport:
    """What one training run did, and how long each phase took."""

    path: str
    bytes: int
    workers: int
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
    def stopped_early(self):
        return self.merges < self.merges_wanted

    @property
    def total_seconds(self):
        return self.pretokenize_seconds + self.pick_seconds + self.apply_seconds

    def shares(self):
        """Each phase's share of the total time, as fractions: {"pre-tokenize": 0.6, ...}."""
        total = self.total_seconds or 1.0
        return {"pre-tokenize": self.pretokenize_seconds / total, "pick": self.pick_seconds / total,
                "apply": self.apply_seconds / total}

    def __str__(self):
        mib = 1 << 20
        share = ", ".join(f"{k} {v:.0%}" for k, v in self.shares().items())
        lines = [
            f"{os.path.basename(self.path)}: {self.bytes:,} bytes; {self.workers} worker(s); method {self.method}",
            f"pre-tokenize: {self.pretokenize_seconds:7.2f} s  ({self.distinct_pretokens:,} distinct pre-tokens, "
            f"{self.total_pretokens:,} in all)",
            f"pick the pair {self.pick_seconds:7.2f} s, apply the merge {self.apply_seconds:7.2f} s; "
            f"total {self.total_seconds:.2f} s ({share})",
            f"{self.merges:,} merges; vocabulary {self.vocab_size:,}",
            f"peak memory: {self.parent_peak_bytes / mib:.0f} MiB in the main process, "
            f"{self.worker_peak_bytes / mib:.0f} MiB in the largest worker",
        ]
        if self.stopped_early:
            lines.append(f"stopped early: ran out of pairs after {self.merges:,} of {self.merges_wanted:,} merges")
        return "\n".join(lines)


def pretokenize_file(path, specials=(), pattern=PAT, workers=None, progress=False):
    """The pre-token table of a file, {tuple of one-byte tokens: count}, like pretokenize's."""
    strings, _ = count_strings(path, specials, pattern, workers, progress)
    return Counter({to_bytes(s): n for s, n in strings.items()})


def count_strings(path, specials=(), pattern=PAT, workers=None, progress=False):
    """Counter of pre-token strings over a file, and the largest worker's peak RSS in bytes."""
    from .parallel import count_file

    workers = workers or os.cpu_count() or 1
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=os.path.getsize(path), unit="B", unit_scale=True, desc="pre-tokenize")
    try:
        return count_file(path, specials, pattern, workers, on_bytes=bar.update if bar else None)
    finally:
        if bar:
            bar.close()


def train_file(path, vocab_size, specials=(), workers=None, method="heap", pattern=PAT, progress=False):
    """Train on a file without loading it whole; return (vocab, merges, TrainReport)."""
    from .fast import train_table

    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    check_method(method)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such file: {path}")
    workers = workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    strings, worker_peak = count_strings(path, specials, pattern, workers, progress)
    # Strings were counted first; each distinct one is converted to bytes only once.
    rows = {s.encode("utf-8"): n for s, n in strings.items()}
    pretokenize_seconds = time.perf_counter() - t0
    n_merges = vocab_size - 256 - len(specials)
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=n_merges, unit="merge", desc="merge")
    try:
        if method == "naive":
            t1 = time.perf_counter()
            merges = naive_merges(Counter({tuple(bytes([b]) for b in r): n for r, n in rows.items()}), n_merges)
            pick, apply = time.perf_counter() - t1, 0.0  # the naive loop does not separate the two
        else:
            merges, pick, apply = train_table(rows, n_merges, method, progress=bar)
    finally:
        if bar:
            bar.close()
    vocab = vocab_from_merges(merges, specials)
    report = TrainReport(
        path=str(path), bytes=os.path.getsize(path), workers=workers, method=method,
        pretokenize_seconds=pretokenize_seconds, pick_seconds=pick, apply_seconds=apply,
        distinct_pretokens=len(rows), total_pretokens=sum(rows.values()),
        merges=len(merges), merges_wanted=n_merges, vocab_size=len(vocab),
        parent_peak_bytes=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        worker_peak_bytes=worker_peak)
    return vocab, merges, report
