"""Encoding a list of texts with several processes: ``Tokenizer.encode_batch``.

``parallel.py`` spreads the *counting* for training over a pool; here the texts
to encode are cut into many small runs of about equal length, and the parent and
its forked workers take runs one at a time from a shared counter until none is
left. Taking work as it comes keeps both cores busy to the end even when some
runs cost more than others (new words to merge, a slower core), and the parent
unpacks each worker's ids as they arrive, while the workers are still encoding.
Forking shares the tokenizer, and its cache of encoded words, without copying it.
"""
import gc
import multiprocessing
import os
from multiprocessing.connection import wait

from .pretokenize import check_text

RUNS_PER_WORKER = 32  # more runs balance the work better; each costs one message
CHARS_PER_WORKER = 1 << 18  # below this much text per process, forking costs more than it saves
PIPE_BYTES = 1 << 20  # room for a few runs' ids, so a worker rarely waits for the parent to read


def slices(texts, n):
    """Split texts into n contiguous runs of about equal total length (some may be empty).

    slices(["aa", "b", "c"], 2) == [["aa"], ["b", "c"]]
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


def widen(conn):
    """Enlarge a pipe's buffer where the system allows it (Linux); elsewhere leave it be."""
    try:
        import fcntl
        fcntl.fcntl(conn.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass


def claim(counter, n):
    """The next run index nobody has taken, or None once all n are taken."""
    with counter.get_lock():
        k = counter.value
        counter.value = k + 1
    return k if k < n else None


def _work(tokenizer, runs, counter, options, conn):
    """In a forked worker: encode runs as they are claimed, sending (index, ids) for each."""
    try:
        while (k := claim(counter, len(runs))) is not None:
            conn.send((k, [tokenizer.encode(t, **options) for t in runs[k]]))
        conn.send(None)  # done
    except BaseException as error:  # report it rather than die silently
        conn.send(error)
    finally:
        conn.close()


def _collect(conns, results, block):
    """Store every (index, ids) message waiting on conns; drop each conn that says it is done."""
    for conn in wait(conns, timeout=None if block else 0):
        try:
            message = conn.recv()
        except EOFError:
            raise RuntimeError("an encode_batch worker process died without a result") from None
        if isinstance(message, BaseException):
            raise message
        if message is None:
            conns.remove(conn)
        else:
            results[message[0]] = message[1]


def encode_batch(tokenizer, texts, workers=None, **options):
    """[tokenizer.encode(t, **options) for t in texts], with the work shared by processes.

    ``workers`` (default: one per CPU) is an upper bound: a batch under
    CHARS_PER_WORKER characters per process is encoded here alone, since forking
    would cost more than it saves. Garbage collection is paused meanwhile: id lists
    hold no cycles, and a collection would only walk the cache again (and, in a
    worker, copy its pages).
    """
    texts = list(texts)
    for text in texts:
        check_text(text)  # here, before any process is forked
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    workers = min(workers or os.cpu_count() or 1, len(texts), sum(map(len, texts)) // CHARS_PER_WORKER)
    collecting = gc.isenabled()
    gc.disable()
    try:
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return [tokenizer.encode(t, **options) for t in texts]
        return _encode_forked(tokenizer, texts, workers, options)
    finally:
        if collecting:
            gc.enable()


def _encode_forked(tokenizer, texts, workers, options):
    """Fork workers-1 processes and share the runs with them; the ids come back in order."""
    ctx = multiprocessing.get_context("fork")
    runs = slices(texts, min(len(texts), workers * RUNS_PER_WORKER))
    counter, results, conns, children = ctx.Value("q", 0), [None] * len(runs), [], []
    try:
        for _ in range(workers - 1):
            receive, send = ctx.Pipe(duplex=False)
            widen(receive)
            child = ctx.Process(target=_work, args=(tokenizer, runs, counter, options, send), daemon=True)
            child.start()
            send.close()
            conns.append(receive)
            children.append(child)
        while (k := claim(counter, len(runs))) is not None:
            results[k] = [tokenizer.encode(t, **options) for t in runs[k]]
            _collect(conns, results, block=False)
        while conns:
            _collect(conns, results, block=True)
    finally:
        for child in children:
            if child.is_alive() and conns:  # an error stopped us early: do not wait for the rest
                child.terminate()
            child.join()
    return [ids for run in results for ids in run]
