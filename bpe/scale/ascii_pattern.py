"""GPT-2's pattern for pure-ASCII text, run by Python's own ``re``: same pieces, faster.

``pretokenize.finder`` uses it for PAT: most text is ASCII, and ``re`` runs
this pattern about twice as fast as ``regex`` runs PAT. The character classes
are not typed by hand but read off ``regex``'s answers for the 128 ASCII
characters, so the two patterns cannot disagree on ASCII (the tests check it).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable

import regex


def ascii_members(cls: str) -> str:
    """The ASCII characters a ``regex`` class matches, as the body of an ``re`` class.

    >>> ascii_members(r"\\p{N}")
    '0123456789'
    """
    chars = (chr(c) for c in range(128))
    return "".join(re.escape(c) for c in chars if regex.fullmatch(cls, c))


@functools.lru_cache(maxsize=1)
def ascii_pat() -> re.Pattern:
    """PAT with its \\p{L}, \\p{N} and \\s spelled out for ASCII text."""
    letters, digits = ascii_members(r"\p{L}"), ascii_members(r"\p{N}")
    space = ascii_members(r"\s")
    return re.compile(rf"""'(?:[sdmt]|ll|ve|re)| ?[{letters}]+| ?[{digits}]+"""
                      rf"""| ?[^{space}{letters}{digits}]+"""
                      rf"""|[{space}]+(?![^{space}])|[{space}]+""")


def ascii_first(slow: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """A findall for PAT that runs ascii_pat on ASCII chunks and slow on the others."""
    return functools.partial(either, ascii_pat().findall, slow)


def either(fast: Callable, slow: Callable, chunk: str) -> list[str]:
    """fast(chunk) when the chunk is pure ASCII, else slow(chunk)."""
    return fast(chunk) if chunk.isascii() else slow(chunk)
