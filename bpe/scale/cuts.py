r"""Where text may be cut without changing its pre-tokens, and reading a file in pieces.

``pipeline.py`` counts a file's pieces in worker processes and ``stream.py``
encodes a text that arrives in pieces; both cut only where this module allows,
so their results never depend on where the cuts fall. The same rules serve
bytes (files) and str (streams). Two kinds of cut are safe:

* before a special token, unless another special token's occurrence covers that
  place (with ``<|a|>`` and ``Q<|a|>``, not inside ``Q<|a|>``), and never after
  the start of one that the text read so far leaves unfinished;
* between two characters that the pattern never joins, read off its alternatives
  (``CUTS``). None of the shipped patterns looks behind, so text after a cut is
  cut as it would be in the whole text, once no piece runs across the cut and no
  look-ahead (``(?!\S)``, ``$``) there chooses otherwise. For GPT-2's pattern
  (``PAT``, and tiktoken's form of it): before whitespace that follows anything
  else (no alternative goes on from a visible character into whitespace), or
  between two visible ASCII characters of different kinds (letter, digit,
  other), unless the first is an apostrophe, which may begin a contraction. For
  cl100k_base's and o200k_base's: the same before whitespace other than ``\r``
  and ``\n`` (which punctuation takes, ``[\r\n]*``); and after a ``\n`` that a
  visible character follows (``/`` excepted for o200k_base, whose punctuation
  takes ``[\r\n/]*``): whitespace before the ``\n`` is one piece with it
  whether or not the text goes on (``\s*[\r\n]`` and its kin come before
  ``\s+(?!\S)``). The tests prove each rule on every code point
  (test_cuts_any_pattern.py). In a file's bytes, each place comes before an
  ASCII byte or the first byte of a character, never inside one.

A pattern with no known rule is cut only before special tokens: a file, or a
stream, is then read whole between them (``warn_read_whole`` says so). A file
with no safe place for a long stretch (one enormous word, say) is read on until
one comes: memory grows with the longest stretch that cannot be cut.
"""

from __future__ import annotations

import functools
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from ..files import PathLike, decode_utf8
from ..pretokenizer import PAT

BLOCK = 1 << 20  # bytes a worker reads at a time
Text = str | bytes  # the rules serve both: a file's bytes, a stream's text
Opener = Callable[..., IO[bytes]]  # open, or fsspec.open for a URL
# Unicode's White_Space: the 25 characters of regex's \s, and of tiktoken's.
WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
WHITE_SPACE += "\u2028\u2029\u202f\u205f\u3000"
# re's \s also takes U+001C..U+001F, regex's does not: no cut is made after them.
NOT_BEFORE_A_CUT = WHITE_SPACE + "\x1c\x1d\x1e\x1f"
# The patterns of tiktoken's encodings (tiktoken_ext.openai_public; a test compares):
# GPT-2's (also r50k_base's and p50k_base's), cl100k_base's and o200k_base's.
GPT2_TIKTOKEN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++"""
    r"""|\s++$|\s+(?!\S)|\s"""
)
CL100K = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"""
    r"""| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_UPPER, _LOWER = r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]", r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"
_SUFFIX = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
O200K = "|".join(
    [
        rf"[^\r\n\p{{L}}\p{{N}}]?{_UPPER}*{_LOWER}+{_SUFFIX}",
        rf"[^\r\n\p{{L}}\p{{N}}]?{_UPPER}+{_LOWER}*{_SUFFIX}",
        r"\p{N}{1,3}",
        r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"\s*[\r\n]+",
        r"\s+(?!\S)",
        r"\s+",
    ]
)
_L, _D = "A-Za-z", "0-9"
_O = "!-&(-/:-@\\[-`{-~"  # visible ASCII: not a letter, a digit or an apostrophe
ASCII_KINDS = (  # two visible ASCII characters of different kinds
    rf"(?<=[{_L}])(?=[{_D}'{_O}])|(?<=[{_D}])(?=[{_L}'{_O}])|(?<=[{_O}])(?=[{_L}{_D}])"
)


def before_whitespace(kind: type, spaces: str = WHITE_SPACE) -> str | bytes:
    """A regex (over str, or over UTF-8 bytes) for: one of spaces after anything
    but whitespace."""
    if kind is str:
        ahead = "".join(map(re.escape, spaces))
        behind = "".join(map(re.escape, NOT_BEFORE_A_CUT))
        return f"(?=[{ahead}])(?<=[^{behind}])"
    spaces = [c.encode() for c in spaces]
    first = re.escape(bytes(sorted({c[0] for c in spaces})))  # a quick test first
    ahead = b"|".join(map(re.escape, spaces))
    # The character before: one ASCII byte, or a multi-byte character's last byte.
    ascii_ok = re.escape(bytes(b for b in range(128) if chr(b) not in NOT_BEFORE_A_CUT))
    not_these = [c.encode() for c in NOT_BEFORE_A_CUT if c > "\x7f"]
    behind = b"".join(b"(?<!%s)" % re.escape(c) for c in not_these)
    return b"(?=[%s])(?=%s)(?:(?<=[%s])|(?<=[\x80-\xbf])%s)" % (
        first,
        ahead,
        ascii_ok,
        behind,
    )


def after_newline(kind: type, not_after: str) -> str | bytes:
    """A regex (over str, or over UTF-8 bytes) for: after a newline, before a whole
    character that is neither whitespace nor one of not_after."""
    if kind is str:
        return f"(?<=\n)(?=[^{re.escape(WHITE_SPACE + not_after)}])"
    ascii_ok = bytes(b for b in range(128) if chr(b) not in WHITE_SPACE + not_after)
    whole = rb"[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}"
    whole += rb"|[\xf0-\xf7][\x80-\xbf]{3}"  # a character that is all there
    spaces = b"|".join(re.escape(c.encode()) for c in WHITE_SPACE if c > "\x7f")
    return rb"(?<=\n)(?:(?=[%s])|(?=(?:%s))(?!%s))" % (
        re.escape(ascii_ok),
        whole,
        spaces,
    )


# The safe places of each pattern whose rules are known (see the module's notes).
NOT_NEWLINES = WHITE_SPACE.replace("\r", "").replace("\n", "")
CUTS = {
    PAT: lambda kind: [before_whitespace(kind), ASCII_KINDS],
    GPT2_TIKTOKEN: lambda kind: [before_whitespace(kind), ASCII_KINDS],
    CL100K: lambda kind: [
        before_whitespace(kind, NOT_NEWLINES),
        after_newline(kind, ""),
    ],
    O200K: lambda kind: [
        before_whitespace(kind, NOT_NEWLINES),
        after_newline(kind, "/"),
    ],
}


@functools.lru_cache(maxsize=16)
def pattern_cuts(kind: type, pattern: str | None) -> re.Pattern | None:
    """The places pattern never joins across, as a regex over str or bytes (or None)."""
    if pattern not in CUTS:
        return None
    rules = CUTS[pattern](kind)
    if kind is bytes:
        rules = [r if isinstance(r, bytes) else r.encode() for r in rules]
    return re.compile((b"|" if kind is bytes else "|").join(rules))


class ReadWhole(UserWarning):
    """No safe place to cut is known for a pattern: the text is held whole."""


def warn_read_whole(pattern: str | None, what: str, stacklevel: int = 3) -> None:
    """Warn, for a pattern with no known safe cut, that what is read whole."""
    if pattern is not None and pattern not in CUTS:
        warnings.warn(
            f"no safe place to cut text is known for the pattern {pattern!r}: "
            f"{what} is read whole (cut only before special tokens)",
            ReadWhole,
            stacklevel=stacklevel,
        )


def covered(text: Text, i: int, specials: Sequence[Text]) -> bool:
    """Whether an occurrence of a special token starts before i and ends after it."""
    for s in specials:
        j = text.find(s, max(0, i - len(s) + 1), i + len(s) - 1)
        while 0 <= j < i:
            if j + len(s) > i:
                return True
            j = text.find(s, j + 1, i + len(s) - 1)
    return False


def open_end(text: Text, specials: Sequence[Text]) -> int:
    """Where a special token may begin that the text after it has not finished yet."""
    starts = [
        len(text) - k
        for s in specials
        for k in range(1, len(s))
        if text.endswith(s[:k])
    ]
    return min(starts, default=len(text))


def places(
    text: Text, lo: int, hi: int, specials: Sequence[Text], pattern: str | None
) -> list[int]:
    """Where a cut might go in text[lo:hi], sorted, before checking the specials."""
    found = set()
    for s in specials:
        j = text.find(s, lo, hi + len(s) - 1)
        while j >= 0:
            found.add(j)
            j = text.find(s, j + 1, hi + len(s) - 1)
    cuts = pattern_cuts(type(text), pattern)
    if cuts is not None:
        found.update(m.start() for m in cuts.finditer(text, lo, hi))
    return sorted(found)


def last_cut(text: Text, specials: Sequence[Text], pattern: str | None) -> int | None:
    r"""The last safe place after offset 0, or None; it looks at the end first.

    >>> last_cut(b"one two\r\nthree", [], PAT)
    7
    >>> last_cut("Q<|a|>b", ["<|a|>", "Q<|a|>"], None) is None
    True
    """
    size, end = 256, open_end(text, specials)
    while True:
        lo = max(0, len(text) - size)
        for i in reversed(places(text, lo, len(text), specials, pattern)):
            if 0 < i <= end and not covered(text, i, specials):
                return i
        if lo == 0:
            return None
        size *= 16


def first_cut(
    text: Text, specials: Sequence[Text], pattern: str | None, start: int = 0
) -> int | None:
    """The first safe place at or after start, or None; it looks near start first.

    >>> first_cut(b"ab<|e|>", [b"<|e|>"], None)
    2
    """
    lo, size, end = start, 256, open_end(text, specials)
    while lo < len(text):
        hi = min(len(text), lo + size)
        for i in places(text, lo, hi, specials, pattern):
            if i <= end and not covered(text, i, specials):
                return i
        lo, size = hi, size * 16
    return None


def next_cut(
    f: IO[bytes], pos: int, end: int, specials: Sequence[bytes], pattern: str | None
) -> int:
    """The first safe place at or after pos (at most end), reading forward in blocks."""
    margin = max(map(len, specials), default=0) + 1  # a special may start before pos
    while pos < end:
        start = max(0, pos - margin)
        f.seek(start)
        data = f.read(min(BLOCK, end - start))
        cut = first_cut(data, specials, pattern, pos - start)
        if cut is not None:
            return start + cut
        if start + len(data) >= end:
            break
        pos = max(pos + 1, start + len(data) - margin)  # a special may straddle reads
    return end


def boundaries(
    path: PathLike,
    n: int,
    specials: tuple[str, ...] = (),
    pattern: str | None = PAT,
    opener: Opener = open,
    size: int | None = None,
) -> list[tuple[int, int]]:
    """n byte ranges covering the file, each cut moved forward to a safe place.

    ``opener(path, "rb")`` opens it (``open``, or ``fsspec.open`` for a URL).
    """
    specials = [s.encode("utf-8") for s in specials]
    size = os.path.getsize(path) if size is None else size
    with opener(path, "rb") as f:
        cuts = [
            0,
            *(next_cut(f, size * i // n, size, specials, pattern) for i in range(1, n)),
            size,
        ]
    cuts = sorted(set(cuts))
    return list(zip(cuts, cuts[1:], strict=False))


def blocks(
    path: PathLike,
    start: int,
    end: int,
    specials: Sequence[str],
    pattern: str | None = PAT,
    block_size: int = BLOCK,
    opener: Opener = open,
) -> Iterator[tuple[int, int, str]]:
    """(offset, length, text) pieces of a byte range, about block_size each, cut
    safely."""
    encoded = [s.encode("utf-8") for s in specials]
    with opener(path, "rb") as f:
        f.seek(start)
        pending, offset = b"", start
        while offset + len(pending) < end:
            # Top the buffer up to block_size; grow it only while it holds no safe cut.
            want = (
                block_size - len(pending) if len(pending) < block_size else block_size
            )
            pending += f.read(min(want, end - offset - len(pending)))
            cut = last_cut(pending, encoded, pattern)
            if cut is None:
                continue  # no safe place yet: read on
            yield offset, cut, decode_utf8(pending[:cut], path, offset)
            offset, pending = offset + cut, pending[cut:]
        if pending:
            yield offset, len(pending), decode_utf8(pending, path, offset)
