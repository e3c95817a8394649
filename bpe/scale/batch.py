"""Encoding a list of texts with several processes: ``Tokenizer.encode_batch``.

``parallel.py`` spreads the counting for training over processes that live for one
file. Here the worker processes are forked once per tokenizer and kept (see
``workers.py``), so later batches pay neither for a fork nor for a cold cache.
Each batch is cut into short runs of about equal length; the parent takes runs
from the front and the workers from the back until they meet, so whoever is
faster does more and both cores stay busy to the end. The parent unpacks the
workers' ids between runs of its own.
"""

import gc
import multiprocessing
import os
import threading
from multiprocessing.connection import wait

from ..pretokenize import check_text
from .workers import Workers, take

RUNS_PER_WORKER = 32  # more runs balance the work better; each costs one message
# text per process that pays for forking the workers (milliseconds)
CHARS_TO_FORK = 1 << 17
# text per process that pays for the messages, once the workers run
CHARS_PER_WORKER = 1 << 13
# for callers on several threads: one set of pipes per pool
_one_batch_at_a_time = threading.Lock()


def slices(texts, n):
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
    return [texts[a:b] for a, b in zip(cuts, cuts[1:])]


def encode_batch(tokenizer, texts, workers=None, **options):
    """[tokenizer.encode(t, **options) for t in texts], the work shared by processes.

    ``workers`` processes (default: one per CPU) share the batch, or this one
    encodes it alone when it is too small to gain: under CHARS_TO_FORK characters
    per process if the workers have to be forked first, under CHARS_PER_WORKER if
    they already run. Garbage collection is paused meanwhile: id lists hold no
    cycles, and a collection would only walk the cache again.
    """
    texts = list(texts)
    for text in texts:
        check_text(text)  # here, rather than in a worker
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    # bad options raise here, before any worker is involved
    tokenizer.encode("", **options)
    workers = min(workers or os.cpu_count() or 1, len(texts))
    running = running_workers(tokenizer, workers) is not None
    enough = sum(map(len, texts)) >= workers * (
        CHARS_PER_WORKER if running else CHARS_TO_FORK
    )
    collecting = gc.isenabled()
    gc.disable()
    try:
        if (
            workers <= 1
            or not enough
            or "fork" not in multiprocessing.get_all_start_methods()
        ):
            return [tokenizer.encode(t, **options) for t in texts]
        with _one_batch_at_a_time:
            pool = workers_for(tokenizer, workers)
            try:
                return share(pool, tokenizer, texts, options)
            except BaseException:
                # a batch cut short leaves messages in the pipes: start afresh
                pool.close(wait=False)
                raise
    finally:
        if collecting:
            gc.enable()


def running_workers(tokenizer, n):
    """The tokenizer's kept workers for n-process batches, if usable here; else None."""
    pool = tokenizer.kept_workers
    return pool if pool is not None and pool.size == n and pool.usable() else None


def workers_for(tokenizer, n):
    """The tokenizer's kept workers for n-process batches, forked if there are none."""
    pool = running_workers(tokenizer, n)
    if pool is None:
        # any others: the wrong size, dead, or inherited from a parent process
        tokenizer.close()
        pool = Workers(tokenizer, n)
        tokenizer.keep_workers(pool)  # the processes end with the tokenizer
    return pool


def share(pool, tokenizer, texts, options):
    """Encode texts: workers take runs from the back, this process from the front."""
    runs = slices(texts, min(len(texts), pool.size * RUNS_PER_WORKER))
    # surely this process's: not sent to the workers
    first = len(runs) // (2 * pool.size)
    pool.start(first, runs[first:], options)
    results, pending = [None] * len(runs), pool.result_pipes()
    while (k := take(pool.ends, front=True)) is not None:
        results[k] = [tokenizer.encode(t, **options) for t in runs[k]]
        _collect(pending, results, block=False)
    while pending:
        _collect(pending, results, block=True)
    return [ids for run in results for ids in run]


def _collect(pipes, results, block):
    """Store each (index, ids) message on pipes; drop the pipes of finished workers."""
    for pipe in wait(pipes, timeout=None if block else 0):
        try:
            message = pipe.recv()
        except EOFError:
            raise RuntimeError(
                "an encode_batch worker process died without a result"
            ) from None
        if isinstance(message, BaseException):
            raise message
        if message is None:
            pipes.remove(pipe)
        else:
            results[message[0]] = message[1]
