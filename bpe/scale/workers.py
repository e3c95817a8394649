"""Worker processes that a tokenizer keeps for ``encode_batch`` (see ``batch.py``).

Each worker is forked once, so it starts with the tokenizer and its cache as they
were, then grows a cache of its own. It waits for a batch (the runs it may need),
takes runs from the back through a pair of shared counters, sends the ids of
each run home, says when it is done, and waits for the next batch. Unlike the
pool in ``parallel.py``, it outlives a single call.
"""

import ctypes
import gc
import multiprocessing
import os
import resource
import signal

PIPE_BYTES = 1 << 20  # room for a few runs, so neither side waits for the other to read

_inherited = (
    None  # the tokenizer the next forked worker serves (a global, not an argument,
)
# so that the Process objects kept here do not keep the tokenizer alive)


def die_with_parent() -> None:
    """In a worker: end on SIGTERM when the parent process dies, and leave Ctrl-C to it.

    Linux's PR_SET_PDEATHSIG does the first; elsewhere the worker notices a closed
    pipe instead. The parent handles Ctrl-C and stops its workers itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(
        signal.SIGTERM, signal.SIG_DFL
    )  # not the parent's handler, if it set one
    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(
            1, signal.SIGTERM
        )  # 1: PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        return
    if os.getppid() != parent:  # the parent died before the call: too late to be told
        os._exit(1)


def reset_peak() -> None:
    """Forget the peak memory a forked worker inherited (Linux: /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def own_peak_bytes() -> int:
    """This process's own peak resident memory (VmHWM, which exec and reset_peak renew)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def widen(pipe):
    """Enlarge a pipe's buffer where the system allows it (Linux)."""
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass


def take(ends, front, lowest=0):
    """Claim a run: the next from the front, or from the back down to lowest; None once
    they meet.

    ends is a shared [next from the front, next from the back]:

    >>> import multiprocessing
    >>> ends = multiprocessing.Array("q", [0, 3])
    >>> take(ends, True), take(ends, False), take(ends, False, lowest=2)
    (0, 3, 2)
    """
    with ends.get_lock():
        k = ends[0] if front else ends[1]
        if ends[0] > ends[1] or k < lowest:
            return None
        if front:
            ends[0] = k + 1
        else:
            ends[1] = k - 1
    return k


class Workers:
    """size - 1 forked processes that encode runs of a batch alongside this one."""

    def __init__(self, tokenizer, size):
        global _inherited
        ctx = multiprocessing.get_context("fork")
        self.size, self.ends, self.links = size, ctx.Array("q", 2), []
        # a process forked from this one must not use (or stop) these workers
        self.owner = os.getpid()
        _inherited = tokenizer
        try:
            for _ in range(size - 1):
                task_end, task_pipe = ctx.Pipe(duplex=False)
                result_pipe, result_end = ctx.Pipe(duplex=False)
                for pipe in (task_pipe, result_pipe):
                    widen(pipe)
                others = [
                    pipe for _, *pipes in self.links for pipe in pipes
                ]  # to close in the child
                process = ctx.Process(
                    target=_serve,
                    args=(self.ends, task_end, result_end, others),
                    daemon=True,
                )
                process.start()
                task_end.close()
                result_end.close()
                self.links.append((process, task_pipe, result_pipe))
        except BaseException:
            self.close(wait=False)
            raise
        finally:
            _inherited = None

    def start(self, first, runs, options):
        """Open a batch whose runs from index first on are runs; send them out."""
        with self.ends.get_lock():
            self.ends[0], self.ends[1] = 0, first + len(runs) - 1
        for _, task_pipe, _ in self.links:
            task_pipe.send((first, runs, options))

    def result_pipes(self):
        return [result_pipe for _, _, result_pipe in self.links]

    def usable(self):
        """True in the process that forked the workers, while they all run."""
        return (
            os.getpid() == self.owner
            and bool(self.links)
            and all(process.is_alive() for process, _, _ in self.links)
        )

    def close(self, wait=True):
        """Ask the workers to stop (or, without wait, stop them at once); reap them."""
        if (
            os.getpid() != self.owner
        ):  # an inherited copy: the workers belong to our parent
            self.links = []
            return
        for process, task_pipe, result_pipe in self.links:
            try:
                task_pipe.send(None)
            except OSError:
                pass
        for process, task_pipe, result_pipe in self.links:
            process.join(timeout=1 if wait else 0)
            if process.is_alive():
                process.terminate()
                process.join()
            task_pipe.close()
            result_pipe.close()
        self.links = []


def _serve(ends, task_end, result_end, others):
    """A worker's life: for each batch, encode runs from the back till the ends meet."""
    die_with_parent()
    for pipe in (
        others
    ):  # other workers' pipes: holding them open would hide their parent's exit
        pipe.close()
    tokenizer = _inherited
    # id lists hold no cycles; a collection would copy the pages shared with the parent
    gc.disable()
    while True:
        try:
            task = task_end.recv()
        except EOFError:  # the parent is gone
            return
        if task is None:
            return
        first, runs, options = task
        try:
            while (k := take(ends, front=False, lowest=first)) is not None:
                result_end.send(
                    (k, [tokenizer.encode(t, **options) for t in runs[k - first]])
                )
            result_end.send(None)  # done with this batch
        except Exception as error:  # report it; the parent then closes the pool
            result_end.send(error)
            return
