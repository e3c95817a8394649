"""Where a UTF-8 file may be cut without changing its pre-tokens; reading it in pieces.

``parallel.py`` counts the pieces in worker processes; this module only decides
where the pieces begin and end. A cut goes just before a special token: it is
ASCII, which never occurs inside a UTF-8 character, and a boundary for the regex
anyway. Where there is no special token to cut at (training without any, or one
document longer than a block), a newline between two visible ASCII characters is
used instead: the regex splits the same way on either side of it.
"""

from __future__ import annotations

import os

from ..files import decode_utf8

BLOCK = 1 << 20  # bytes a worker reads at a time
# printable ASCII, never whitespace, never inside a UTF-8 character
VISIBLE = range(0x21, 0x7F)


def safe_newline(data, i):
    """Whether data[i] is a newline between two visible ASCII bytes (safe to cut)."""
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
    """Newline cuts are a fallback, unsafe if a special token contains a newline."""
    return not any(b"\n" in s for s in specials)


def first_cut(data, specials, start=0):
    """The first safe point at or after start, or None.

    >>> first_cut(b"ab<|e|>", [b"<|e|>"])
    2

    With special tokens, only their starts count (a
    document is never split); without any, a newline between visible ASCII characters
    does.
    """
    if specials:
        found = [i for i in (data.find(s, start) for s in specials) if i >= 0]
    else:
        found = [i for i in [first_newline_cut(data, start)] if i >= 0]
    return min(found) if found else None


def last_cut(data, specials):
    r"""The last safe point after offset 0, or None.

    >>> last_cut(b"a\nb\nc", [])
    4


    Special tokens first; a block with none (one document longer than a block) falls
    back to a
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


def boundaries(path, n: int, specials: tuple[str, ...] = ()) -> list[tuple[int, int]]:
    """n byte ranges covering the file, each cut moved forward to a safe point."""
    specials = [s.encode("utf-8") for s in specials]
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        cuts = (
            [0]
            + [next_cut(f, size * i // n, size, specials) for i in range(1, n)]
            + [size]
        )
    cuts = sorted(set(cuts))
    return list(zip(cuts, cuts[1:]))


def blocks(path, start, end, specials, block_size=BLOCK):
    """(offset, length, text) pieces of a byte range, about block_size each."""
    encoded = [s.encode("utf-8") for s in specials]
    with open(path, "rb") as f:
        f.seek(start)
        pending, offset = b"", start
        while offset + len(pending) < end:
            # Top the buffer up to block_size; grow it only while it holds no safe cut.
            want = (
                block_size - len(pending) if len(pending) < block_size else block_size
            )
            pending += f.read(min(want, end - offset - len(pending)))
            cut = last_cut(pending, encoded)
            if cut is None:
                continue  # no safe point yet: read on (only a huge unbroken run)
            yield offset, cut, decode_utf8(pending[:cut], path, offset)
            offset, pending = offset + cut, pending[cut:]
        if pending:
            yield offset, len(pending), decode_utf8(pending, path, offset)
