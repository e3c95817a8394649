r"""A pattern's source cut into atoms: the one step the pattern rewriters share.

Three rewriters translate a pre-tokenizer pattern for another engine: the ASCII
fast path (``ascii_pattern.py``, for Python's ``re`` on ASCII text), the regex
stand-in (``bpe/book/page/regex_standin.py``, for ``re`` in the page, where
``regex`` is missing) and the JavaScript pattern (``bpe/book/site/jspattern.py``, for
the token playground). Each must first tell a Unicode class (``\p{L}``, ``\s``)
from any other escape, a character set (``[...]``, where ``(`` and ``+`` are plain
members) from what is outside it, and a group's opening from a quantifier.
``atoms`` does that once; each rewriter only says what becomes of each kind of
atom, and which classes it spells out.

It uses only the standard library, and knows nothing of what a class means.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# \p{Name}, \P{Name}, \pL, \PL and the shorthand classes: all that depends on Unicode
UNICODE_CLASS = re.compile(r"\\[pP](?:\{[^}]*\}|\w)|\\[sSdDwW]")
# Outside a set: a group's opening, a quantifier, or one character.
GROUP = re.compile(r"\((?:\?(?:[:!=]|<[=!]|P<\w+>|[a-zA-Z]+:|[a-zA-Z]+\)))?")
QUANTIFIER = re.compile(r"[?*+]|\{\d+(?:,\d*)?\}")


class Atom(NamedTuple):
    """One piece of a pattern: its kind, its text, and where it starts.

    kind is one of "class" (a Unicode class), "escape" (any other backslash and
    the character after it), "set" (the opening of a set: ``[`` or ``[^``),
    "end" (the ``]`` that closes it), "group" (``(``, ``(?:``, ``(?i:``, ...),
    "close" (``)``), "quantifier" (``?``, ``*``, ``+``, ``{m,n}``) or "char".
    Inside a set only "class", "escape", "end" and "char" occur.
    """

    kind: str
    text: str
    start: int


def atoms(pattern: str) -> Iterator[Atom]:
    r"""The atoms of pattern, left to right; their texts join to the pattern.

    >>> [a.kind for a in atoms(r"(?i:[^\s]])+")]
    ['group', 'set', 'class', 'end', 'char', 'close', 'quantifier']
    >>> [a.text for a in atoms("[]a]")]  # a "]" first in a set is a member
    ['[', '\\]', 'a', ']']
    """
    i, in_set = 0, False
    while i < len(pattern):
        atom = next_atom(pattern, i, in_set)
        if atom.kind == "set":
            in_set = True
        elif atom.kind == "end":
            in_set = False
        yield atom
        i = atom.start + len(atom.text)
        if atom.kind == "set" and pattern.startswith("]", i):
            yield Atom("escape", "\\]", i)  # a "]" first is a member, not the end
            i += 1


def next_atom(pattern: str, i: int, in_set: bool) -> Atom:
    """The atom that starts at pattern[i], inside a set or not."""
    found = UNICODE_CLASS.match(pattern, i)
    if found:
        return Atom("class", found.group(), i)
    if pattern[i] == "\\":
        if i + 1 >= len(pattern):
            raise ValueError(f"pattern ends in a lone backslash: {pattern!r}")
        return Atom("escape", pattern[i : i + 2], i)
    if in_set:
        return Atom("end" if pattern[i] == "]" else "char", pattern[i], i)
    if pattern[i] == "[":
        return Atom("set", "[^" if pattern.startswith("[^", i) else "[", i)
    for kind, syntax in (("group", GROUP), ("quantifier", QUANTIFIER)):
        found = syntax.match(pattern, i)
        if found:
            return Atom(kind, found.group(), i)
    return Atom("close" if pattern[i] == ")" else "char", pattern[i], i)
