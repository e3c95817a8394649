"""What training reads: files, globs and URLs, cut into parts that count alone.

``expand`` turns paths, globs and ``fsspec`` URLs into files; ``plan`` cuts each
plain-text file into byte ranges at safe places (``cuts.py``) and each Parquet
file into its row groups; ``Counting`` counts one part, or one batch of
documents, wherever it runs (this process, a helper, a Dask worker), reading its
part there. A part's counts never depend on where the cuts fall, so neither do
the merges.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable

import fsspec

from ..files import PathLike
from ..pretokenizer import PAT
from .cuts import BLOCK, Opener, blocks, boundaries
from .word_counts import count_by_words

PART_BYTES = 1 << 22  # a text file is cut into parts of about this size, or smaller

Part = tuple  # ("text", url, start, end) or ("parquet", url, row group, bytes)


def expand(sources: PathLike | Iterable[PathLike]) -> list[str]:
    """The files that paths, globs and URLs name, sorted; a name finding none fails."""
    sources = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    if not sources:
        raise ValueError("no files to train on")
    found = []
    for source in map(str, sources):
        files = fsspec.open_files(source, "rb")
        if files and files.fs.isdir(files[0].path):
            raise IsADirectoryError(f"{source} is a directory, not a text file")
        if not files or not all(files.fs.isfile(f.path) for f in files):
            raise FileNotFoundError(f"no such file: {source}")
        local = "file" in files.fs.protocol  # plain paths for local files, else URLs
        found += [f.path if local else f.full_name for f in files]
    return sorted(set(found))


def plan(
    files: list[str], workers: int, specials: tuple[str, ...], pattern: str | None
) -> tuple[list[Part], int]:
    """(the parts to count, bytes in all).

    A text file gets its share of ``workers`` parts, and one part per PART_BYTES at
    least; a Parquet file one part per row group, with its share of the file's bytes
    (for progress bars).
    """
    sizes = {url: fsspec.core.url_to_fs(url)[0].size(url) for url in files}
    total, parts = sum(sizes.values()), []
    for url in files:
        if url.endswith(".parquet"):
            import pyarrow.parquet as pq

            with fsspec.open(url, "rb") as f:
                groups = pq.ParquetFile(f).num_row_groups
            share = sizes[url] // max(groups, 1)
            parts += [("parquet", url, group, share) for group in range(groups)]
        elif sizes[url]:
            share = round(workers * sizes[url] / total)
            n = max(share, math.ceil(sizes[url] / PART_BYTES))
            ranges = boundaries(url, n, specials, pattern, fsspec.open, sizes[url])
            parts += [("text", url, a, b) for a, b in ranges]
    return parts, total


def count_range(
    path: PathLike,
    start: int,
    end: int,
    specials: tuple[str, ...] = (),
    pattern: str | None = PAT,
    block_size: int = BLOCK,
    opener: Opener = open,
) -> Counter[str]:
    """Count the pre-token strings of one byte range of a file, block by block."""
    texts = blocks(path, start, end, specials, pattern, block_size, opener)
    return count_by_words((text for _, _, text in texts), specials, pattern)


class Counting:
    """Counts the pre-token strings of a part, or of a list of documents.

    It holds the options, so that it can be sent to a helper process or a Dask
    worker. ``Counting(...)(part)`` gives (counts, the part's bytes).
    """

    def __init__(self, specials: tuple[str, ...], pattern: str | None, column: str):
        self.specials, self.pattern, self.column = specials, pattern, column

    def __call__(self, part: Part | list[str]) -> tuple[Counter[str], int]:
        if isinstance(part, list):  # a batch of documents (train_iterator)
            size = sum(len(doc.encode("utf-8")) for doc in part)
            return count_by_words(part, self.specials, self.pattern), size
        if part[0] == "text":
            _, url, start, end = part
            counts = count_range(
                url, start, end, self.specials, self.pattern, opener=fsspec.open
            )
            return counts, end - start
        import pyarrow.parquet as pq

        _, url, group, size = part
        with fsspec.open(url, "rb") as f:
            table = pq.ParquetFile(f).read_row_group(group, columns=[self.column])
        texts = table.column(0).to_pylist()
        for n, text in enumerate(texts):
            if text is not None and not isinstance(text, str):
                raise ValueError(
                    f"{url} row group {group}, row {n}: column {self.column!r} "
                    f"holds {type(text).__name__}, not text"
                )
        return count_by_words(filter(None, texts), self.specials, self.pattern), size
