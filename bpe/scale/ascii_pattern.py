"""A pattern for pure-ASCII text, run by Python's own ``re``: the same pieces, faster.

``fast_finder`` is ``pretokenizer.finder`` made faster: most text is ASCII, and
``re`` runs such a pattern about twice as fast as ``regex`` runs the original; the
rest is cut by ``regex``, as the core cuts it, or, for a tokenizer that must give
tiktoken's ids, as tiktoken cuts it (``interop/unicode.py``).
Each Unicode class (``\\p{L}``, ``\\s``, ...) is spelled out as the ASCII characters
that ``regex`` itself puts in it, so on ASCII text the two cannot disagree (the
tests check it). A pattern ``re`` cannot compile gets no fast path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import regex

from ..interop.unicode import tiktoken_view
from ..pretokenizer import PAT, whole
from . import gpt2_scan
from .compiled import is_compiled
from .pattern_atoms import atoms


@functools.lru_cache(maxsize=256)
def ascii_members(cls: str) -> str:
    """The ASCII characters a ``regex`` class matches, as the body of an ``re`` class.

    >>> ascii_members(r"\\p{N}")
    '0123456789'
    """
    chars = (chr(c) for c in range(128))
    return "".join(re.escape(c) for c in chars if regex.fullmatch(cls, c))


@functools.cache
def gpt2_classes() -> bytes:
    """Each ASCII character's class in GPT-2's pattern, as ``gpt2_scan`` reads it."""
    classes = ((r"\p{L}", gpt2_scan.LETTER), (r"\p{N}", gpt2_scan.DIGIT))
    classes += ((r"\s", gpt2_scan.SPACE),)

    def kind(c: str) -> int:
        found = (k for cls, k in classes if regex.fullmatch(cls, c))
        return next(found, gpt2_scan.OTHER)

    return bytes(map(kind, map(chr, range(128))))


@functools.lru_cache(maxsize=64)
def ascii_pattern(pattern: str) -> re.Pattern | None:
    """pattern with its Unicode classes spelled out for ASCII, for ``re`` (or None).

    >>> fast = ascii_pattern(r" ?\\p{L}+| ?\\p{N}+|\\s+(?!\\S)|\\s+")
    >>> fast.pattern[:16], fast.findall("low 42  lower")
    (' ?[ABCDEFGHIJKLM', ['low', ' 42', ' ', ' lower'])
    """
    out: list[str] = []
    body_start = 0  # where the current set's members begin in out (0: in no set)
    try:
        for atom in atoms(pattern):
            if atom.kind == "class":
                members = ascii_members(atom.text)
                out.append(
                    members if body_start else f"[{members}]" if members else "(?!)"
                )
            elif atom.kind == "end" and not "".join(out[body_start:]):
                out[body_start - 1 :] = [empty_set(out[body_start - 1])]
            else:
                out.append(atom.text)
            if atom.kind in ("set", "end"):
                body_start = len(out) if atom.kind == "set" else 0
        return re.compile("".join(out))
    except (re.error, ValueError):  # a construct only regex knows, or an old Python
        return None


def empty_set(opening: str) -> str:
    """A set whose members were all classes with no ASCII member, for ASCII text.

    >>> empty_set("["), empty_set("[^")
    ('(?!)', '[\\\\x00-\\\\x7f]')
    """
    return "[\\x00-\\x7f]" if opening == "[^" else "(?!)"


# Before a newline that follows a visible ASCII character, GPT-2's pattern splits the
# same way whether or not the text is cut there (scale/cuts.py explains why).
LINES = re.compile(r"(?<=[!-~])(?=\n)")


def ascii_first(
    pattern: str, slow: Callable[[str], list[str]], by_lines: bool = False
) -> Callable[[str], list[str]]:
    """A findall for pattern: its ASCII version on ASCII text, slow on the rest.

    With ``by_lines`` (only for GPT-2's pattern), a chunk that is not all ASCII is
    first cut into lines, so that one accented word does not slow down all of it.
    """
    fast = ascii_findall(pattern)
    if fast is None:
        return slow
    return functools.partial(by_line if by_lines else either, fast, slow)


def ascii_findall(pattern: str) -> Callable[[str], list[str]] | None:
    """A findall for pattern on ASCII text (None: ``re`` cannot run it).

    For GPT-2's pattern, when compiled, ``gpt2_scan``'s one pass; else ``re``.
    """
    if pattern == PAT and is_compiled(gpt2_scan):
        return functools.partial(gpt2_scan.scan_ascii, gpt2_classes())
    fast = ascii_pattern(pattern)
    return None if fast is None else fast.findall


def either(fast: Callable, slow: Callable, chunk: str) -> list[str]:
    """fast(chunk) when the chunk is pure ASCII, else slow(chunk)."""
    return fast(chunk) if chunk.isascii() else slow(chunk)


def by_line(fast: Callable, slow: Callable, chunk: str) -> list[str]:
    """either() on each line of the chunk, cut where the pattern never joins."""
    if chunk.isascii():
        return fast(chunk)
    found = []
    for line in LINES.split(chunk):
        found += fast(line) if line.isascii() else slow(line)
    return found


# How a finder reads the classes of characters beyond ASCII (on ASCII all agree):
# "regex" as the core does, with today's Unicode tables; "tiktoken" with the older
# tables of tiktoken's Rust regex, for a tokenizer that must give tiktoken's ids.
VIEWS = ("regex", "tiktoken")


def check_view(unicode: str) -> str:
    """unicode, if it names one of the VIEWS."""
    if unicode not in VIEWS:
        raise ValueError(
            f"unicode must be one of {', '.join(map(repr, VIEWS))}, not {unicode!r}"
        )
    return unicode


@functools.lru_cache(maxsize=64)
def fast_finder(
    pattern: str | None, unicode: str = "regex"
) -> Callable[[str], list[str]]:
    """``pretokenizer.finder(pattern)``'s pieces, found faster where it can.

    Pure-ASCII chunks take the ASCII pattern; the others are cut by ``regex``, the
    core's own finder, or with ``unicode="tiktoken"`` as tiktoken's Unicode tables
    cut them. Only GPT-2's pattern is cut into lines first.
    """
    if check_view(unicode) and pattern is None:
        return whole
    search = regex.compile(pattern)
    slow = search.findall if unicode == "regex" else tiktoken_view(search)
    return ascii_first(pattern, slow, by_lines=pattern == PAT)
