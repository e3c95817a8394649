"""A pattern for pure-ASCII text, run by Python's own ``re``: the same pieces, faster.

``fast_finder`` is ``pretokenize.finder`` made faster: most text is ASCII, and
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

# \p{Name}, \P{Name}, \pL, \PL and the shorthand classes: all that depends on Unicode
CLASS = re.compile(r"\\[pP](?:\{[^}]*\}|\w)|\\[sSdDwW]")


@functools.lru_cache(maxsize=256)
def ascii_members(cls: str) -> str:
    """The ASCII characters a ``regex`` class matches, as the body of an ``re`` class.

    >>> ascii_members(r"\\p{N}")
    '0123456789'
    """
    chars = (chr(c) for c in range(128))
    return "".join(re.escape(c) for c in chars if regex.fullmatch(cls, c))


@functools.lru_cache(maxsize=64)
def ascii_pattern(pattern: str) -> re.Pattern | None:
    """pattern with its Unicode classes spelled out for ASCII, for ``re`` (or None).

    >>> fast = ascii_pattern(r" ?\\p{L}+| ?\\p{N}+|\\s+(?!\\S)|\\s+")
    >>> fast.pattern[:16], fast.findall("low 42  lower")
    (' ?[ABCDEFGHIJKLM', ['low', ' 42', ' ', ' lower'])
    """
    out, i, depth = [], 0, 0  # depth: inside a character class or not
    body_start = 0  # where the current class's members begin in out
    while i < len(pattern):
        found = CLASS.match(pattern, i)
        if found:
            members = ascii_members(found.group())
            out.append(members if depth else f"[{members}]" if members else "(?!)")
            i = found.end()
            continue
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not depth:
            depth, opening = 1, "[^" if pattern.startswith("[^", i) else "["
            out.append(opening)
            i += len(opening)
            body_start = len(out)
            if pattern.startswith("]", i):  # a "]" first is a member, not the end
                out.append("\\]")
                i += 1
            continue
        if ch == "]" and depth:
            depth = 0
            if not "".join(out[body_start:]):  # its members were classes with no ASCII
                negated = out[body_start - 1] == "[^"
                out[body_start - 1 :] = ["[\\x00-\\x7f]" if negated else "(?!)"]
                i += 1
                continue
        out.append(ch)
        i += 1
    try:
        return re.compile("".join(out))
    except re.error:  # a construct only regex knows, or an old Python
        return None


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
    fast = ascii_pattern(pattern)
    if fast is None:
        return slow
    return functools.partial(by_line if by_lines else either, fast.findall, slow)


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
    """``pretokenize.finder(pattern)``'s pieces, found faster where it can.

    Pure-ASCII chunks take the ASCII pattern; the others are cut by ``regex``, the
    core's own finder, or with ``unicode="tiktoken"`` as tiktoken's Unicode tables
    cut them. Only GPT-2's pattern is cut into lines first.
    """
    if check_view(unicode) and pattern is None:
        return whole
    search = regex.compile(pattern)
    slow = search.findall if unicode == "regex" else tiktoken_view(search)
    return ascii_first(pattern, slow, by_lines=pattern == PAT)
