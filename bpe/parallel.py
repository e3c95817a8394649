"""Pre-tokenizing a large file in parallel, in bounded memory.

``pretokenize.py`` counts a string already in memory. Here a file is cut into
one byte range per worker, each cut moved forward to the next special token,
and each worker streams its range in blocks that are themselves cut at special
tokens. A special token is ASCII, which never occurs inside a UTF-8 character,
and it is a boundary for the regex anyway, so the counts never depend on the
number of workers or the block size. Where there is no special token to cut at
(training without any, or one document longer than a block), a newline between
two visible ASCII characters is used instead: the regex splits the same way on
either side of it.
"""
import multiprocessing
import os
import resource
from collections import Counter

from .pretokenize import PAT, check_specials, finder, split_special

BLOCK = 1 << 20  # bytes a worker reads at a time
VISIBLE = range(0x21, 0x7F)  # printable ASCII, never whitespace, never inside a UTF-8 character


def safe_newline(data, i):
    """Whether data[i] is a newline between two visible ASCII bytes, so cutting after it is safe."""
    return 0 < i < len(data) - 1 and data[i - 1] in VISIBLE and data[i + 1] in VISIBLE


def first_newline_cut(data, start):
    """The offset just after the first safe newline at or after start, or -1."""
    i = data.find(b"\n", start)
    while i >= 0 and not safe_newline(data, i):
        i = data.find(b"\n", i + 1)
    return i + 1 if i >= 0 else -1


def last_newline_cut(data):
    """The offset just after the last safe newline, or -1."""
    i = data.rfind(b"\n")
    while i >= 0 and not safe_newline(data, i):
        i = data.rfind(b"\n", 0, i)
    return i + 1 if i >= 0 else -1


def newline_allowed(specials):
    """Newline cuts are a fallback, and unsafe if a special token itself contains a newline."""
    return not any(b"\n" in s for s in specials)


def first_cut(data, specials, start=0):
    """The first safe point at or after start, or None.

    first_cut(b"ab<|e|>", [b"<|e|>"]) == 2. With special tokens, only their starts count (a
    document is never split); without any, a newline between visible ASCII characters does.
    """
    if specials:
        found = [i for i in (data.find(s, start) for s in specials) if i >= 0]
    else:
        found = [i for i in [first_newline_cut(data, start)] if i >= 0]
    return min(found) if found else None


def last_cut(data, specials):
    """The last safe point after offset 0, or None: last_cut(b"a\nb\nc", []) == 4.

    Special tokens first; a block with none (one document longer than a block) falls back to a
    newline between visible ASCII characters.
    """
    found = [i for i in (data.rfind(s) for s in specials) if i > 0]
    if not found and newline_allowed(specials):
        found = [last_newline_cut(data)]
    found = [i for i in found if i > 0]
    return max(found) if found else None


def next_cut(f, pos, end, specials):
    """The first safe point at or after pos (at most end), reading forward in blocks."""
    overlap = max((len(s) for s in specials), default=0) + 2
    while pos < end:
        f.seek(pos)
        data = f.read(min(BLOCK, end - pos))
        cut = first_cut(data, specials)
        if cut is not None:
            return pos + cut
        if pos + len(data) >= end:
            break
        pos += max(1, len(data) - overlap)  # a special token may straddle two reads
    return end


def boundaries(path, n, specials=()):
    """n byte ranges covering the file, each cut moved forward to a safe point."""
    specials = [s.encode("utf-8") for s in check_specials(specials)]
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        cuts = [0] + [next_cut(f, size * i // n, size, specials) for i in range(1, n)] + [size]
    cuts = sorted(set(cuts))
    return list(zip(cuts, cuts[1:]))


def decode(data, path, offset):
    """Strict UTF-8, with the file offset of the first bad byte in the error."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 (byte {data[e.start]:#04x} at offset {offset + e.start})") from None


def blocks(path, start, end, specials, block_size=BLOCK):
    """(offset, length, text) pieces of a byte range, each about block_size, cut at safe points."""
    encoded = [s.encode("utf-8") for s in specials]
    with open(path, "rb") as f:
        f.seek(start)
        pending, offset = b"", start
        while offset + len(pending) < end:
            # Top the buffer up to block_size; grow it only while it holds no safe point.
            want = block_size - len(pending) if len(pending) < block_size else block_size
            pending += f.read(min(want, end - offset - len(pending)))
            cut = last_cut(pending, encoded)
            if cut is None:
                continue  # no safe point yet: read on (only a huge unbroken run gets here)
            yield offset, cut, decode(pending[:cut], path, offset)
            offset, pending = offset + cut, pending[cut:]
        if pending:
            yield offset, len(pending), decode(pending, path, offset)


def count_text(text, specials, pattern):
    """Counter of pre-token strings in text, special tokens left out."""
    counts, findall = Counter(), finder(pattern)
    for chunk in split_special(text, specials):
        if chunk not in specials:
            counts.update(findall(chunk))
    return counts


def count_range(path, start, end, specials=(), pattern=PAT, block_size=BLOCK, progress=None):
    """Count the pre-token strings of one byte range; return (counts, peak RSS in bytes)."""
    counts = Counter()
    for _, length, text in blocks(path, start, end, specials, block_size):
        counts.update(count_text(text, specials, pattern))
        if progress is not None:
            progress.put(length)
    return counts, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


_progress = None  # a worker's queue for progress reports, set by the pool's initializer


def _init_worker(queue):
    global _progress
    _progress = queue


def _count_range_in_worker(args):
    return count_range(*args, progress=_progress)


def count_file(path, specials=(), pattern=PAT, workers=1, block_size=BLOCK, on_bytes=None):
    """Counter of pre-token strings over a whole file, and the largest worker's peak RSS.

    With workers=1 everything runs in this process. ``on_bytes(n)`` is told as bytes are done.
    """
    specials = check_specials(specials)
    ranges = boundaries(path, workers, specials)
    if workers == 1 or len(ranges) <= 1:
        queue = _Direct(on_bytes)
        results = [count_range(path, a, b, specials, pattern, block_size, queue) for a, b in ranges]
        return sum_counts(c for c, _ in results), 0
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    queue = ctx.Queue() if on_bytes else None  # only when someone is listening for progress
    tasks = [(path, a, b, specials, pattern, block_size) for a, b in ranges]
    with ctx.Pool(len(ranges), initializer=_init_worker, initargs=(queue,)) as pool:
        pending = pool.map_async(_count_range_in_worker, tasks)
        while not pending.ready():
            pending.wait(0.1)
            drain(queue, on_bytes)
        results = pending.get()
    drain(queue, on_bytes)
    return sum_counts(c for c, _ in results), max(peak for _, peak in results)


def drain(queue, on_bytes):
    """Pass every progress report waiting in queue to on_bytes, without blocking."""
    while queue is not None:
        try:
            on_bytes(queue.get_nowait())
        except Exception:  # queue.Empty: nothing more for now
            return


class _Direct:
    """A stand-in for a queue when counting in this process: reports go straight to the callback."""

    def __init__(self, on_bytes):
        self.on_bytes = on_bytes

    def put(self, n):
        if self.on_bytes:
            self.on_bytes(n)


def sum_counts(counters):
    """Add Counters in order (the order cannot change the sums)."""
    total = Counter()
    for c in counters:
        total.update(c)
    return total
