"""Training at growing sizes, for "Beyond one machine" in "Training at scale".

``shard_links`` makes k shards of one text without copying it (symbolic links,
so 64 times the stories cost no disk); ``train_fresh`` trains on them in a new
Python process, so that its peak memory is the training's own and not the
notebook's; ``measured`` makes that measurement once for a file and keeps it, so
that every chapter printing it prints the same run. (The chapter's diagram of
where each step of ``train_files`` runs is ``bpe.book.chapters.charts``'.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bpe.data import results_dir  # the ledger's folder, shared by the chapters
from bpe.disk.atomic import write_atomically
from bpe.files import PathLike

MIB = 2**20  # the book's one MiB (bpe.scale.pipeline has the package's)


_RUN = """
import hashlib, json, sys, time
from bpe.scale.pipeline import train_files
sources, vocab_size, specials, workers = json.loads(sys.argv[1])
t0 = time.perf_counter()
_, merges, report = train_files(sources, vocab_size, specials, workers=workers)
print(json.dumps({
    "seconds": time.perf_counter() - t0, "bytes": report.bytes,
    "pretokenize": report.pretokenize_seconds,
    "pick": report.pick_seconds, "apply": report.apply_seconds,
    "merge phase": report.pick_seconds + report.apply_seconds,
    "distinct": report.distinct_pretokens, "total": report.total_pretokens,
    "merges": len(merges),
    "digest": hashlib.sha256(repr(merges).encode()).hexdigest()[:16],
    "main peak": report.parent_peak_bytes, "helper peak": report.worker_peak_bytes}))
"""


def shard_links(path: PathLike, times: int, folder: PathLike) -> list[str]:
    """times shards named shard-000.txt, ... in folder, each a link to path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shards = []
    for k in range(times):
        link = folder / f"shard-{k:03d}.txt"
        if not link.is_symlink():
            link.symlink_to(Path(path).resolve())
        shards.append(str(link))
    return shards


def train_fresh(
    sources: list[str], vocab_size: int, specials: Iterable[str] = (), workers: int = 2
) -> dict[str, Any]:
    """train_files in a new process: its time, phases, merges' digest and peaks."""
    args = json.dumps([sources, vocab_size, list(specials), workers])
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _RUN, args], capture_output=True, text=True, env=env
    )
    if done.returncode:
        raise RuntimeError(f"training failed:\n{done.stderr}")
    return json.loads(done.stdout)


def measured(
    path: PathLike,
    vocab_size: int,
    specials: Iterable[str] = (),
    workers: int = 2,
    again: bool = False,
) -> dict[str, Any]:
    """train_fresh on one file, measured once, read back by every chapter printing it.

    The first chapter to ask (or one passing ``again=True``) runs the training in a
    fresh process; the run's figures are kept under ``<results>/measured/``, where
    the ledger's results live, and later chapters read the same run. So one
    training has one time and one peak memory wherever the book prints them.
    """
    specials = list(specials)
    key = f"{Path(path).name}-{vocab_size}-{workers}-{len(specials)}.json"
    kept = results_dir() / "measured" / key
    if kept.is_file() and not again:
        run = json.loads(kept.read_text(encoding="utf-8"))
        if run["bytes"] == Path(path).stat().st_size:
            return run
    run = train_fresh([str(path)], vocab_size, specials, workers)
    kept.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(kept, json.dumps(run))
    return run


def summary(run: dict[str, Any]) -> str:
    """A run of train_fresh in two lines: its phases, then its peak memory."""
    return (
        f"{run['seconds']:.2f} s in all: pre-tokenize {run['pretokenize']:.2f} s, "
        f"pick {run['pick']:.2f} s, apply {run['apply']:.2f} s\n"
        f"peak memory: {run['main peak'] / MIB:.0f} MiB in the main process, "
        f"{run['helper peak'] / MIB:.0f} MiB in the largest worker"
    )
