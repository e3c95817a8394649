"""Training on the data people have: many shards, streams of documents, a Dask cluster.

``pipeline.train_file`` trains on one local file. ``train_files`` takes paths, globs
or ``fsspec`` URLs of plain text or Parquet shards: each text shard is cut into byte
ranges at safe places (``cuts.py``), each Parquet shard into its row groups, and the
parts are counted by local worker processes or, given a ``dask.distributed`` client,
by Dask tasks that read their own part, with the counts added up in a tree.
``train_iterator`` counts any iterable of documents, a ``datasets`` stream say, in
memory bounded by the distinct pre-tokens. Every route counts the same pre-tokens,
so every route learns the same merges, where the client runs.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Iterable

import fsspec

from ..pretokenize import PAT, check_specials, check_text, to_bytes
from ..train import check_method, check_vocab_size
from .cuts import boundaries
from .parallel import count_range
from .pipeline import TrainReport, check_workers, learn_from_table
from .word_counts import count_by_words
from .workers import die_with_parent, own_peak_bytes, reset_peak

BATCH = 1 << 20  # characters of documents sent to a worker at once


def expand(sources: str | Iterable[str]) -> list[str]:
    """The files that paths, globs and URLs name, sorted; a name finding none fails."""
    sources = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    found = []
    for source in map(str, sources):
        files = fsspec.open_files(source, "rb")
        if files and files.fs.isdir(files[0].path):
            raise IsADirectoryError(f"{source} is a directory, not a text file")
        if not files or not all(files.fs.isfile(f.path) for f in files):
            raise FileNotFoundError(f"no such file: {source}")
        local = (
            "file" in files.fs.protocol
        )  # plain paths for local files, URLs otherwise
        found += [f.path if local else f.full_name for f in files]
    return sorted(set(found))


def plan(
    files: list[str], workers: int, specials: tuple[str, ...], pattern: str | None
) -> tuple[list[tuple], int]:
    """The parts to count, ("text", url, start, end) or ("parquet", url, group); bytes."""
    sizes = {url: fsspec.core.url_to_fs(url)[0].size(url) for url in files}
    total, parts = sum(sizes.values()) or 1, []
    for url in files:
        if url.endswith(".parquet"):
            import pyarrow.parquet as pq

            with fsspec.open(url, "rb") as f:
                groups = pq.ParquetFile(f).num_row_groups
            parts += [("parquet", url, group) for group in range(groups)]
        elif sizes[url]:
            n = max(1, round(workers * sizes[url] / total))
            ranges = boundaries(url, n, specials, pattern, fsspec.open, sizes[url])
            parts += [("text", url, a, b) for a, b in ranges]
    return parts, sum(sizes.values())


def count_part(
    part: tuple, specials: tuple[str, ...], pattern: str | None, column: str
) -> Counter:
    """Pre-token string counts of one part; it is read here, wherever this runs."""
    if part[0] == "text":
        _, url, start, end = part
        return count_range(url, start, end, specials, pattern, opener=fsspec.open)
    import pyarrow.parquet as pq

    _, url, group = part
    with fsspec.open(url, "rb") as f:
        texts = pq.ParquetFile(f).read_row_group(group, columns=[column]).column(0)
    return count_by_words(filter(None, texts.to_pylist()), specials, pattern)


def added(a: Counter, b: Counter) -> Counter:
    """a and b added up, in a new Counter (Dask may still hold both)."""
    total = Counter(a)
    total.update(b)
    return total


def count_on_dask(client, parts, specials, pattern, column) -> Counter:
    """Count the parts as Dask tasks, added up in a tree; retries are left to Dask."""
    futures = client.map(
        count_part, parts, specials=specials, pattern=pattern, column=column
    )
    while len(futures) > 1:
        odd = futures[-1:] if len(futures) % 2 else []
        pairs = zip(futures[::2], futures[1::2])
        futures = [client.submit(added, a, b) for a, b in pairs]
        futures += odd
    return futures[0].result() if futures else Counter()


_job = None  # what a pool worker counts with, set by its initializer


def _start_worker(job):
    global _job
    _job = job
    die_with_parent()
    reset_peak()  # from here on, the peak memory is the helper's own


def _count_in_worker(part) -> tuple[Counter, int]:
    return _job(part), own_peak_bytes()


class Job:
    """count_part with its options fixed: picklable, for pool workers."""

    def __init__(self, specials, pattern, column):
        self.specials, self.pattern, self.column = specials, pattern, column

    def __call__(self, part):
        if isinstance(part, list):  # a batch of documents (train_iterator)
            return count_by_words(part, self.specials, self.pattern)
        return count_part(part, self.specials, self.pattern, self.column)


def count_locally(
    parts: Iterable, job: Job, workers: int, bar=None
) -> tuple[Counter, int]:
    """(counts of parts, largest helper's peak memory), shared by this process and
    workers - 1 forked helpers.

    At most 2 parts per helper are in flight, so a stream of parts is read only as
    fast as it is counted. This process counts every workers-th part itself.
    """
    counts, parts, peak = Counter(), iter(parts), 0
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for part in parts:
            counts.update(job(part))
            bar and bar.update(1)
        return counts, peak

    def add(result):
        nonlocal peak
        helper_counts, helper_peak = result.get()
        counts.update(helper_counts)
        peak = max(peak, helper_peak)
        bar and bar.update(1)

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers - 1, initializer=_start_worker, initargs=(job,)) as pool:
        pending = []
        for k, part in enumerate(parts):
            if k % workers == 0:
                counts.update(job(part))
                bar and bar.update(1)
            else:
                pending.append(pool.apply_async(_count_in_worker, (part,)))
            while pending and (pending[0].ready() or len(pending) > 2 * (workers - 1)):
                add(pending.pop(0))
        for result in pending:
            add(result)
    return counts, peak


def progress_bar(progress: bool, total: int | None, unit: str):
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=unit, desc="pre-tokenize")


def finish(
    strings: Counter,
    started: float,
    vocab_size,
    specials,
    method,
    progress,
    source,
    size,
    workers,
    asked,
    worker_peak=0,
):
    """Learn the merges from the counts and write the report, as train_file does."""
    table = {to_bytes(s): n for s, n in strings.items()}
    counted = time.perf_counter() - started
    vocab, merges, timings = learn_from_table(
        table, vocab_size, specials, method, progress
    )
    report = TrainReport(
        source=source,
        bytes=size,
        workers=workers,
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


def train_files(
    sources,
    vocab_size: int,
    specials=(),
    workers: int | None = None,
    method: str = "heap",
    pattern: str | None = PAT,
    column: str = "text",
    client=None,
    progress: bool = False,
):
    """Train on shards: paths, globs or fsspec URLs of text or of Parquet (``column``).

    Returns (vocab, merges, TrainReport). With a ``dask.distributed`` client, the
    counting runs as Dask tasks; otherwise ``workers`` local processes share it
    (one per core at most). The merges are those of ``train`` on the texts' union.
    """
    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    check_method(method)
    asked = check_workers(workers)
    workers = min(asked, os.cpu_count() or 1)
    started = time.perf_counter()
    files = expand(sources)
    if client is not None:  # several parts per Dask worker, so that none waits long
        workers = len(client.ncores())
        parts, size = plan(files, 4 * workers, specials, pattern)
        strings, peak = count_on_dask(client, parts, specials, pattern, column), 0
    else:
        parts, size = plan(files, workers, specials, pattern)
        bar = progress_bar(progress, len(parts), "part")
        try:
            strings, peak = count_locally(
                parts, Job(specials, pattern, column), workers, bar
            )
        finally:
            bar and bar.close()
        workers = min(workers, len(parts)) or 1
    source = files[0].rsplit("/", 1)[-1] if len(files) == 1 else f"{len(files)} files"
    return finish(
        strings,
        started,
        vocab_size,
        specials,
        method,
        progress,
        source,
        size,
        workers,
        asked,
        peak,
    )


def batches(texts: Iterable[str], size: int = BATCH):
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
    specials=(),
    workers: int | None = 1,
    method: str = "heap",
    pattern: str | None = PAT,
    progress: bool = False,
):
    """Train on documents from any iterable of strings, held only as long as counted.

    Returns (vocab, merges, TrainReport). Each string is a document: no pre-token
    spans two. Memory grows with the distinct pre-tokens, not with the documents.
    """
    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    check_method(method)
    asked = check_workers(workers)
    workers = min(asked, os.cpu_count() or 1)
    started, size = time.perf_counter(), [0]

    def measured(batch):
        size[0] += sum(len(t.encode("utf-8")) for t in batch)
        return batch

    bar = progress_bar(progress, None, "batch")
    try:
        job = Job(specials, pattern, "text")
        strings, peak = count_locally(map(measured, batches(texts)), job, workers, bar)
    finally:
        bar and bar.close()
    return finish(
        strings,
        started,
        vocab_size,
        specials,
        method,
        progress,
        "iterator",
        size[0],
        workers,
        asked,
        peak,
    )
