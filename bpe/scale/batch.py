"""Encoding a list of texts with several processes: ``Tokenizer.encode_batch``.

The batch is cut into short runs of about equal length, which this process and
the tokenizer's helper processes share out from both ends (``pool.share_out``).
The helpers are forked once and kept by the tokenizer, so a later batch pays
neither for forking nor for a cold cache.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable
from typing import Any

from ..pretokenizer import check_text
from .pool import Helpers
from .training import check_workers

RUNS_PER_WORKER = 32  # more runs balance the work better; each costs one message
# Text per process from which two processes beat one, measured side by side on the
# book's 2-core machines (TinyStories, 10,000 tokens): with the helpers running and
# their caches warm, from about 0.25 million characters in all; forking them and
# starting cold as well, from about 1.3 million. Below these, workers=2 was slower.
CHARS_PER_WORKER = 1 << 17  # once the helpers run: it pays for the messages
CHARS_TO_FORK = 1 << 20  # before they run: it pays for forking them too
_one_batch_at_a_time = threading.Lock()  # for callers on several threads


def slices(texts: list[str], n: int) -> list[list[str]]:
    """Split texts into n contiguous runs of about equal length (some may be empty).

    >>> slices(["aa", "b", "c"], 2)
    [['aa'], ['b', 'c']]
    """
    total = sum(len(t) for t in texts) or 1
    cuts, running, k = [0], 0, 1
    for i, t in enumerate(texts):
        running += len(t)
        while k < n and running >= total * k / n:
            cuts.append(i + 1)
            k += 1
    cuts += [len(texts)] * (n + 1 - len(cuts))
    return [texts[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


class RunEncoder:
    """(run of texts, options) -> their ids: what every process does."""

    def __init__(self, tokenizer: Any):
        self.encode = tokenizer.encode

    def __call__(self, task: tuple[list[str], dict]) -> list[list[int]]:
        run, options = task
        return [self.encode(text, **options) for text in run]


def encode_batch(
    tokenizer: Any, texts: Iterable[str], workers: int | None = None, **options: Any
) -> list[list[int]]:
    """[tokenizer.encode(t, **options) for t in texts], the work shared by processes.

    ``workers`` processes (default: one per core) share the batch, or this one
    encodes it alone when it is too small to gain: under CHARS_TO_FORK characters
    per process if the helpers have to be forked first, under CHARS_PER_WORKER if
    they already run. Garbage collection is paused meanwhile: id lists hold no
    cycles, and a collection would only walk the cache again.
    """
    texts = [check_text(text) for text in texts]  # here, rather than in a helper
    workers = min(check_workers(workers), len(texts)) or 1
    tokenizer.encode("", **options)  # bad options raise here, before any helper
    running = tokenizer.kept_helpers(workers) is not None
    per_process = CHARS_PER_WORKER if running else CHARS_TO_FORK
    collecting = gc.isenabled()
    gc.disable()
    try:
        if workers == 1 or sum(map(len, texts)) < workers * per_process:
            return [tokenizer.encode(t, **options) for t in texts]
        with _one_batch_at_a_time:
            helpers = tokenizer.kept_helpers(workers) or tokenizer.keep_helpers(
                Helpers(RunEncoder(tokenizer), workers, share=True)
            )
            runs = slices(texts, min(len(texts), workers * RUNS_PER_WORKER))
            tasks = [(run, options) for run in runs]
            results = helpers.share_out(tasks, RunEncoder(tokenizer))
            return [ids for run in results for ids in run]
    finally:
        if collecting:
            gc.enable()
