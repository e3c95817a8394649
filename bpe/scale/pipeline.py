"""Training on the data people have: files, shards, streams of documents, Dask.

One of three homes of training: ``bpe.trainer`` is the core's (what the book
teaches), ``training`` is ``bpe.train`` on a text in memory, and this module counts
pre-tokens from files and streams in parallel, then learns as ``training`` does.

``train_files`` takes paths, globs or ``fsspec`` URLs of plain text or Parquet.
Each file is cut into parts (``sources.py``) that helper processes
(``pool.py``), or Dask tasks given a ``dask.distributed`` client, count where
they run; the counts then go to the trainer of ``bpe.train``
(``training.py``). ``train_file`` is ``train_files`` on one file, and
``train_iterator`` counts any iterable of documents (a ``datasets`` stream, say)
in batches. Every route counts the same pre-tokens, so every route learns the
same merges, whatever the number of workers. Each returns
(vocab, merges, TrainReport), can show progress bars, and can go on from an
existing tokenizer or merge list (``start``, see ``extend.py``).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..files import PathLike
from ..pretokenizer import PAT, byte_table, check_specials, check_text
from ..trainer import Pair, warn_out_of_pairs
from .cuts import warn_read_whole
from .extend import extended
from .pool import Helpers, own_peak_bytes
from .sources import Counting, Part, expand, plan
from .training import Training, check_training, check_workers, learn

BATCH = 1 << 20  # characters of documents counted together, in one helper
MIB = 1 << 20


@dataclass
class TrainReport:
    """What one training run did, and how long each phase took."""

    source: str
    bytes: int
    workers: int  # processes that really counted
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
    start_merges: int = 0  # the merges of the start that training went on from

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
        same = self.workers == self.workers_asked
        asked = "" if same else f" ({self.workers_asked} asked)"
        after = f" after the start's {self.start_merges:,}" if self.start_merges else ""
        lines = [
            f"{self.source}: {self.bytes:,} bytes; {self.workers} worker(s){asked}; "
            f"method {self.method}",
            f"pre-tokenize: {self.pretokenize_seconds:7.2f} s  "
            f"({self.distinct_pretokens:,} distinct pre-tokens, "
            f"{self.total_pretokens:,} in all)",
            f"pick the pair {self.pick_seconds:7.2f} s, apply the merge "
            f"{self.apply_seconds:7.2f} s; total {self.total_seconds:.2f} s ({share})",
            f"{self.merges:,} merges{after}; vocabulary {self.vocab_size:,}",
            f"peak memory: {self.parent_peak_bytes / MIB:.0f} MiB in the main process, "
            f"{self.worker_peak_bytes / MIB:.0f} MiB in the largest worker",
        ]
        if self.stopped_early:
            lines.append(
                f"stopped early: ran out of pairs after {self.merges:,} of "
                f"{self.merges_wanted:,} merges"
            )
        return "\n".join(lines)


def progress_bar(shown: bool, total: int | None, unit: str, desc: str) -> Any:
    """A tqdm bar, which does nothing unless shown (a notebook's widget if it can)."""
    if shown:
        from tqdm.auto import tqdm
    else:  # tqdm.auto would warn, in a kernel without ipywidgets, of a bar never drawn
        from tqdm import tqdm

    return tqdm(total=total, unit=unit, unit_scale=True, desc=desc, disable=not shown)


def count_here(
    items: Iterable, counting: Counting, workers: int, bar: Any
) -> tuple[Counter[str], int, int]:
    """(counts of all items, bytes counted, largest helper's peak memory)."""
    counts, size, helpers = Counter(), 0, Helpers(counting, workers)
    try:
        for item_counts, item_size in helpers.map(items):
            counts.update(item_counts)
            size += item_size
            bar.update(item_size)
    finally:
        helpers.close()
    return counts, size, helpers.peak_bytes


def added(a: tuple[Counter, int], b: tuple[Counter, int]) -> tuple[Counter, int]:
    """Two (counts, bytes) added up, in a new Counter (Dask may still hold both)."""
    total = Counter(a[0])
    total.update(b[0])
    return total, a[1] + b[1]


def count_on_dask(client: Any, parts: list[Part], counting: Counting) -> Counter[str]:
    """Count the parts as Dask tasks, added up in a tree; retries are left to Dask."""
    futures = client.map(counting, parts)
    while len(futures) > 1:
        odd = futures[-1:] if len(futures) % 2 else []
        pairs = zip(futures[::2], futures[1::2], strict=False)
        futures = [client.submit(added, a, b) for a, b in pairs] + odd
    return futures[0].result()[0] if futures else Counter()


def learn_and_report(
    strings: Counter[str],
    started: float,
    run: Training,
    progress: bool,
    **report: Any,
) -> tuple[dict[int, bytes], list[Pair], TrainReport]:
    """Learn the merges from the counts, and say what the run did.

    The heap method empties ``strings`` as it reads them (``compact.py``).
    Running out of pairs is an ``OutOfPairs`` warning, pointed at the caller of the
    public function that called this.
    """
    distinct, total = len(strings), sum(strings.values())
    # the compact trainer reads the strings themselves, and frees them as it goes
    direct = run.method == "heap" and run.start is None
    table = strings if direct else byte_table(strings)
    counted = time.perf_counter() - started
    with progress_bar(progress, run.wanted, "merge", "merge") as bar:
        merges, pick, apply = learn(
            table, run.wanted, run.method, progress=bar.update, start=run.start,
            taken=direct,
        )  # fmt: skip
    if len(merges) < run.wanted:
        warn_out_of_pairs(len(merges), run.wanted, stacklevel=4)
    vocab, all_merges = extended(run.start, merges, run.specials)
    return (
        vocab,
        all_merges,
        TrainReport(
            method=run.method,
            pretokenize_seconds=counted,
            pick_seconds=pick,
            apply_seconds=apply,
            distinct_pretokens=distinct,
            total_pretokens=total,
            merges=len(merges),
            merges_wanted=run.wanted,
            vocab_size=len(vocab),
            parent_peak_bytes=own_peak_bytes(),
            start_merges=len(all_merges) - len(merges),
            **report,
        ),
    )


def train_files(
    sources: PathLike | Iterable[PathLike],
    vocab_size: int,
    specials: Iterable[str] = (),
    workers: int | None = None,
    method: str = "heap",
    pattern: str | None = PAT,
    progress: bool = False,
    column: str = "text",
    client: Any = None,
    start: Any = None,
) -> tuple[dict[int, bytes], list[Pair], TrainReport]:
    """Train on files, read in parts; return (vocab, merges, TrainReport).

    Each text file is cut into parts, and read in blocks, at safe places
    (``cuts.py``), so that none is held whole. A pattern with no known safe place
    has a file read whole, between special tokens (a ``ReadWhole`` warning says
    so). ``sources``: paths, globs or fsspec URLs, of text files or Parquet files
    (read from ``column``). ``workers`` processes count (at most one per core, and one
    per part; the report says how many did), or Dask tasks on ``client``'s cluster.
    ``start``: a Tokenizer or merge list to go on from, as in ``bpe.train``.
    """
    run = check_training(
        vocab_size, specials, method, workers, start=start, pattern=pattern
    )
    specials, pattern, asked = run.specials, run.pattern, run.workers
    started = time.perf_counter()
    files = expand(sources)
    if not all(f.endswith(".parquet") for f in files):  # Parquet: by row groups
        warn_read_whole(pattern, "each text file", stacklevel=3)
    counting = Counting(specials, pattern, column)
    # more processes than cores only add forks; several parts per Dask worker, so
    # that none of them waits long
    ran = len(client.ncores()) if client else min(asked, os.cpu_count() or 1)
    parts, size = plan(files, 4 * ran if client else ran, specials, pattern)
    if not size:
        raise ValueError(f"{', '.join(files)}: empty, there is nothing to learn from")
    if client is not None:
        strings, peak = count_on_dask(client, parts, counting), 0
    else:
        ran = min(ran, len(parts))
        with progress_bar(progress, size, "B", "pre-tokenize") as bar:
            strings, _, peak = count_here(parts, counting, ran, bar)
    source = files[0].rsplit("/", 1)[-1] if len(files) == 1 else f"{len(files)} files"
    return learn_and_report(
        strings, started, run, progress, source=source,
        bytes=size, workers=ran, workers_asked=asked, worker_peak_bytes=peak,
    )  # fmt: skip


def train_file(
    path: PathLike,
    vocab_size: int,
    specials: Iterable[str] = (),
    workers: int | None = None,
    method: str = "heap",
    pattern: str | None = PAT,
    progress: bool = False,
    start: Any = None,
) -> tuple[dict[int, bytes], list[Pair], TrainReport]:
    """``train_files`` on one file: the same merges as ``bpe.train`` on its text."""
    return train_files(
        [path], vocab_size, specials, workers, method, pattern, progress, start=start
    )


def batches(texts: Iterable[str], size: int = BATCH) -> Iterator[list[str]]:
    """Lists of documents of about size characters, each document checked on the way."""
    batch, length = [], 0
    for text in texts:
        batch.append(check_text(text))
        length += len(text)
        if length >= size:
            yield batch
            batch, length = [], 0
    if batch:
        yield batch


def train_iterator(
    texts: Iterable[str],
    vocab_size: int,
    specials: Iterable[str] = (),
    workers: int | None = None,
    method: str = "heap",
    pattern: str | None = PAT,
    progress: bool = False,
    start: Any = None,
) -> tuple[dict[int, bytes], list[Pair], TrainReport]:
    """Train on documents from any iterable of strings, held only while counted.

    Returns (vocab, merges, TrainReport). Each string is a document: no pre-token
    spans two. Memory grows with the distinct pre-tokens, not with the documents.
    ``workers`` as in ``train_files``: helpers count batches of documents while this
    process reads the next ones. ``start`` as in ``bpe.train``.
    """
    run = check_training(
        vocab_size, specials, method, workers, start=start, pattern=pattern
    )
    ran = min(run.workers, os.cpu_count() or 1)
    started = time.perf_counter()
    counting = Counting(run.specials, run.pattern, "text")
    with progress_bar(progress, None, "B", "pre-tokenize") as bar:
        strings, size, peak = count_here(batches(texts), counting, ran, bar)
    return learn_and_report(
        strings, started, run, progress, source="iterator",
        bytes=size, workers=ran, workers_asked=run.workers, worker_peak_bytes=peak,
    )  # fmt: skip


def pretokenize_file(
    path: PathLike,
    specials: Iterable[str] = (),
    pattern: str | None = PAT,
    workers: int | None = None,
) -> Counter[tuple[bytes, ...]]:
    """A file's pre-token table, {tuple of one-byte tokens: count}, as pretokenize
    gives for its text.

    The file is cut into parts for ``workers`` processes, and that many count
    them, even past the number of cores, so that tests can check that the table
    never depends on them.
    """
    specials, workers = check_specials(specials), check_workers(workers)
    parts, _ = plan(expand([path]), workers, specials, pattern)
    bar = progress_bar(False, None, "B", "")
    counting = Counting(specials, pattern, "text")
    strings = count_here(parts, counting, min(workers, len(parts)) or 1, bar)[0]
    return byte_table(strings)
