"""Helper processes: the one way this package shares work between processes.

``Helpers(work, size)`` forks processes that inherit ``work`` (a tokenizer's
encoder, a counting job) as it is in memory, so that nothing is pickled but the
items and the results. Two ways to share the work:

* ``map(items)``, for a stream: ``size`` helpers take the items, two per helper
  at most waiting, so every helper stays busy, the stream is read only as fast as
  it is done, and memory holds a few items at once. This process hands them out
  and takes in the results. Training counts files and shards so (``pipeline.py``).
* ``share_out(items)``, for a list (``share=True``): this process is one of the
  ``size``. Every helper is sent the whole list once; this process takes items
  from its front and the helpers from its back, through a shared pair of counters,
  until the two ends meet, so whoever is faster does more and no one waits for
  work. ``encode_batch`` (``batch.py``) works so, with helpers a tokenizer keeps.

With ``size=1`` nothing is forked: this process does everything.

Everywhere in this package, ``workers=N`` means N processes doing the work at
once, and ``workers=None`` one per core.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent import futures
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor
from typing import Any

STOPPING = {signal.SIGINT, signal.SIGTERM}  # a helper must not answer as the parent
WAITING_PER_HELPER = 2  # items handed to a helper and not yet done, at most

# What the helpers being forked will run. A global rather than an argument of the
# executor, which would keep it alive for as long as the helpers run: a tokenizer
# that keeps its helpers could then never be collected.
_inherited: tuple | None = None  # (work, ends)
_work: Callable | None = None  # in a helper: what it runs
_ends: Any = None  # in a helper: share_out's [next from the front, next from the back]


def can_fork() -> bool:
    """Whether helpers can be forked here (not on Windows, for one)."""
    return "fork" in multiprocessing.get_all_start_methods()


def die_with_parent(parent: int) -> None:
    """In a helper forked by process ``parent``: end when it dies, leave Ctrl-C to it.

    Linux's PR_SET_PDEATHSIG sends SIGTERM at the parent's death; elsewhere the
    helper ends when its executor's pipes close. The parent handles Ctrl-C and stops
    its helpers itself. The parent's pid comes from the parent: read here, it
    would already be another's if the parent died since the fork.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not a handler the parent set
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)  # held over the fork
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        return
    if os.getppid() != parent:  # the parent died before the call: too late to be told
        os._exit(1)


def reset_peak() -> None:
    """Forget the peak memory a forked helper inherited (Linux's clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def own_peak_bytes() -> int:
    """This process's own peak resident memory (VmHWM: exec and reset_peak renew it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource  # only here: the page's Python (Pyodide) has no resource module

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _start(parent: int) -> None:
    global _work, _ends
    _work, _ends = _inherited
    die_with_parent(parent)
    reset_peak()  # from here on, the peak memory is the helper's own
    # What was inherited is never garbage: collections leave it alone, so its pages
    # stay shared with the parent instead of being copied.
    gc.freeze()


def _run(item: Any) -> tuple[Any, int]:
    return _work(item), own_peak_bytes()


def _ready() -> None:
    """A task that does nothing: submitting it forks the helpers."""


def take(ends: Any, front: bool) -> int | None:
    """Claim the next item of a shared list, from the front or from the back; None
    once the two ends have met.

    >>> import multiprocessing
    >>> ends = multiprocessing.Array("q", [0, 2])
    >>> take(ends, True), take(ends, False), take(ends, False), take(ends, True)
    (0, 2, 1, None)
    """
    with ends.get_lock():
        k = ends[0] if front else ends[1]
        if ends[0] > ends[1]:
            return None
        ends[0 if front else 1] = k + 1 if front else k - 1
    return k


def _serve(items: list) -> tuple[list[tuple[int, Any]], int]:
    """In a helper: work on items from the back of the list until the ends meet."""
    done = []
    while (k := take(_ends, front=False)) is not None:
        done.append((k, _work(items[k])))
    return done, own_peak_bytes()


class Helpers:
    """``size`` processes that run ``work(item)``: forked helpers, this process among
    them if ``share``; for 1, this process alone.

    The helpers keep ``work`` as it was when they were forked; this object keeps
    no reference to it, so that a tokenizer can keep its helpers and still be
    garbage collected (``share_out`` is given this process's own).
    """

    def __init__(self, work: Callable, size: int, share: bool = False):
        global _inherited
        self.size, self.peak_bytes, self.closed = size, 0, False
        self.forked = size - 1 if share else size  # helpers to fork
        self.owner = os.getpid()  # a forked copy of this object must not use them
        self.work = self.executor = self.ends = None
        if size < 2 or not can_fork():
            self.work = work  # this process does everything
            return
        context = multiprocessing.get_context("fork")
        if share:  # made before the fork, so that the helpers share it
            self.ends = context.Array("q", 2)
        self.executor = ProcessPoolExecutor(
            self.forked, context, initializer=_start, initargs=(self.owner,)
        )
        _inherited = (work, self.ends)
        try:
            # Ctrl-C and SIGTERM wait while the helpers are forked: until _start has
            # run, a helper would answer them with this process's handlers, and
            # print a traceback each (seen when stopped on a busy machine).
            held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
            try:
                ready = self.executor.submit(_ready)  # forks all of them, now
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            ready.result()
        except BaseException:
            self.close(wait=False)
            raise
        finally:
            _inherited = None

    def processes(self) -> list[multiprocessing.Process]:
        """The helper processes (none when this process does the work)."""
        # The executor's own table: the one place that knows them (Python 3.14 adds
        # terminate_workers(), which would make it unnecessary for close()).
        return list((getattr(self.executor, "_processes", None) or {}).values())

    def usable(self) -> bool:
        """True in the process that made the helpers, until one dies or they stop."""
        if self.closed or os.getpid() != self.owner:
            return False
        return all(process.is_alive() for process in self.processes())

    def map(self, items: Iterable) -> Iterator:
        """work(item) for every item, each as soon as it is done, in no set order.

        An error in a helper is raised here; then, and if the caller stops early, the
        helpers are stopped, and a later call needs new ones.
        """
        if self.closed:
            raise RuntimeError("these helpers have been stopped")
        if self.executor is None:
            yield from map(self.work, items)
            return
        waiting: list[futures.Future] = []
        try:
            for item in items:
                if len(waiting) >= WAITING_PER_HELPER * self.size:
                    yield from self.done(waiting, futures.FIRST_COMPLETED)
                waiting.append(self.executor.submit(_run, item))
            yield from self.done(waiting, futures.ALL_COMPLETED)
        except BaseException:
            self.close(wait=False)
            raise

    def share_out(self, items: list, here: Callable) -> list:
        """[work(item) for item in items], this process taking items from the front
        of the list and the helpers from the back, until they meet.

        ``here`` is the work as this process has it. Errors as in ``map``.
        """
        if self.closed:
            raise RuntimeError("these helpers have been stopped")
        if self.executor is None:
            return [(self.work or here)(item) for item in items]
        results = [None] * len(items)
        with self.ends.get_lock():
            self.ends[0], self.ends[1] = 0, len(items) - 1
        try:
            served = [self.executor.submit(_serve, items) for _ in range(self.forked)]
            while (k := take(self.ends, front=True)) is not None:
                results[k] = here(items[k])
            for done in self.done(served, futures.ALL_COMPLETED):
                for j, result in done:
                    results[j] = result
        except BaseException:
            self.close(wait=False)
            raise
        return results

    def done(self, waiting: list[futures.Future], until: str) -> Iterator:
        """Wait for waiting's futures (the first or all), then yield what is done."""
        futures.wait(waiting, return_when=until)
        for future in [f for f in waiting if f.done()]:
            waiting.remove(future)
            try:
                result, peak = future.result()
            except BrokenProcessPool:
                raise RuntimeError("a helper process died without a result") from None
            self.peak_bytes = max(self.peak_bytes, peak)
            yield result

    def close(self, wait: bool = True) -> None:
        """Stop the helpers: once they are done (wait), or at once."""
        processes, executor = self.processes(), self.executor
        self.executor, self.closed = None, True
        if executor is None or os.getpid() != self.owner:
            return  # nothing to stop, or an inherited copy: the parent's helpers
        executor.shutdown(wait=wait, cancel_futures=True)
        if not wait:
            for process in processes:  # shutdown() would let them finish first
                process.terminate()
            for process in processes:
                process.join()
