r"""What the book's code uses of ``regex``, built on ``re``: ``regex`` in the browser.

The page's Python (Pyodide) has no ``regex`` module: it is compiled code, and no
WebAssembly build of it is on PyPI. The core needs it only for Unicode classes such
as ``\p{L}`` and ``\p{N}``, which ``re`` lacks. This module spells each such class
out as the ranges of code points that ``unicodedata`` puts in it, and hands the
result to ``re``. The site installs it under the name ``regex`` (``archive.py``);
everywhere else the real module runs, and ``tests/test_regex_standin.py`` compares
the two on every code point.

What it knows:

* ``\p{..}``, ``\P{..}``, ``\pL`` and ``\p{^..}`` for the general categories (``L``,
  ``Lu``, ..., ``Zs``, also by their long names, such as ``Letter``) and for
  ``White_Space``, inside and outside ``[...]``;
* ``\s`` and ``\S`` as ``regex`` reads them: Unicode's White_Space, 25 code points
  (``re`` adds four control characters, U+001C to U+001F);
* the rest of the syntax is ``re``'s (possessive quantifiers included), and so are
  ``\d``, ``\w`` and ``\b``. A property it does not know raises ``error``.

Its classes follow ``unicodedata``'s Unicode version (``UNICODE_VERSION``), not
``regex``'s: a code point assigned in between is a letter in one and unassigned in
the other. ``DIFFERENCES.md`` in the tests' report lists them; see the test module.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from re import (  # noqa: F401  (the names regex has too)
    ASCII,
    DOTALL,
    IGNORECASE,
    MULTILINE,
    UNICODE,
    VERBOSE,
    A,
    I,
    M,
    Match,
    Pattern,
    S,
    U,
    X,
    error,
    purge,
)
from typing import Any

UNICODE_VERSION = unicodedata.unidata_version
LAST = 0x10FFFF

# Unicode's White_Space property (PropList.txt), unchanged since Unicode 6.3: 25 code
# points. regex's \s is exactly this set.
WHITE_SPACE = (
    (0x0009, 0x000D),
    (0x0020, 0x0020),
    (0x0085, 0x0085),
    (0x00A0, 0x00A0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)

CATEGORIES = (
    "Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp "
    "Cc Cf Cs Co Cn"
).split()
LONG_NAMES = {
    "letter": "L",
    "casedletter": "LC",
    "uppercaseletter": "Lu",
    "lowercaseletter": "Ll",
    "titlecaseletter": "Lt",
    "modifierletter": "Lm",
    "otherletter": "Lo",
    "mark": "M",
    "nonspacingmark": "Mn",
    "spacingmark": "Mc",
    "enclosingmark": "Me",
    "number": "N",
    "decimalnumber": "Nd",
    "letternumber": "Nl",
    "othernumber": "No",
    "punctuation": "P",
    "connectorpunctuation": "Pc",
    "dashpunctuation": "Pd",
    "openpunctuation": "Ps",
    "closepunctuation": "Pe",
    "initialpunctuation": "Pi",
    "finalpunctuation": "Pf",
    "otherpunctuation": "Po",
    "symbol": "S",
    "mathsymbol": "Sm",
    "currencysymbol": "Sc",
    "modifiersymbol": "Sk",
    "othersymbol": "So",
    "separator": "Z",
    "spaceseparator": "Zs",
    "lineseparator": "Zl",
    "paragraphseparator": "Zp",
    "other": "C",
    "control": "Cc",
    "format": "Cf",
    "surrogate": "Cs",
    "privateuse": "Co",
    "unassigned": "Cn",
}
# \p{L}, \P{L}, \p{^L}, \pL, \PL; and \s, \S
CLASS = re.compile(r"\\(?:([pP])(?:\{(\^?)([^}]*)\}|([A-Za-z]))|([sS]))")


@functools.lru_cache(maxsize=1)
def category_runs() -> tuple[tuple[int, int, str], ...]:
    """(first, last, category) for every run of code points of one general category."""
    category, runs, start = unicodedata.category, [], 0
    current = category("\0")
    for c in range(1, LAST + 1):
        here = category(chr(c))
        if here != current:
            runs.append((start, c - 1, current))
            start, current = c, here
    runs.append((start, LAST, current))
    return tuple(runs)


def canonical(name: str) -> str:
    """A property name as regex matches it (case, spaces, "_" and "-" ignored)."""
    loose = re.sub(r"[\s_-]", "", name).lower()
    for prefix in ("generalcategory=", "gc="):
        loose = loose.removeprefix(prefix)
    if loose in ("whitespace", "space", "wspace"):
        return "White_Space"
    if loose in ("l&", "lc"):
        return "LC"
    for short in [*CATEGORIES, "L", "M", "N", "P", "S", "Z", "C"]:
        if loose == short.lower():
            return short
    if loose in LONG_NAMES:
        return LONG_NAMES[loose]
    raise error(f"the regex stand-in does not know the property {name!r}")


@functools.lru_cache(maxsize=64)
def ranges(name: str) -> tuple[tuple[int, int], ...]:
    """The code points of a property, as sorted, merged (first, last) ranges.

    >>> ranges("Nd")[0], ranges("White_Space") == WHITE_SPACE
    ((48, 57), True)
    """
    name = canonical(name)
    if name == "White_Space":
        return WHITE_SPACE
    wanted = {"LC": ("Lu", "Ll", "Lt")}.get(name) or [
        c for c in CATEGORIES if c.startswith(name)
    ]
    merged: list[tuple[int, int]] = []
    for first, last, category in category_runs():
        if category in wanted:
            if merged and merged[-1][1] == first - 1:
                merged[-1] = (merged[-1][0], last)
            else:
                merged.append((first, last))
    return tuple(merged)


def complement(spans: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Every code point not in spans."""
    out, start = [], 0
    for first, last in spans:
        if first > start:
            out.append((start, first - 1))
        start = last + 1
    if start <= LAST:
        out.append((start, LAST))
    return tuple(out)


BMP, ASTRAL = "\\x00-\\uffff", "\\U00010000-\\U0010ffff"


def members(spans: tuple[tuple[int, int], ...]) -> tuple[str, str]:
    """spans as the inside of two re classes: the BMP's code points, and the others.

    re looks up a BMP character in a table, in one step, but tries the ranges above
    U+FFFF one by one; kept apart, a BMP character never meets them.
    """
    bmp = [(a, min(b, 0xFFFF)) for a, b in spans if a <= 0xFFFF]
    astral = [(max(a, 0x10000), b) for a, b in spans if b > 0xFFFF]
    return tuple(
        "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in part)
        for part in (bmp, astral)
    )


def class_members(found: re.Match) -> tuple[str, str]:
    """The BMP and astral members of one matched \\p{..}, \\P{..}, \\s or \\S."""
    p, caret, braced, single, s = found.groups()
    if s:
        negated, spans = s == "S", WHITE_SPACE
    else:
        negated, spans = (p == "P") != bool(caret), ranges(braced or single)
    return members(complement(spans) if negated else spans)


def either(bmp: str, astral: str, negated: bool = False) -> str:
    """One class, as a BMP class or (for characters above U+FFFF) an astral one.

    Each branch is exact for its own characters; the guards keep each to them.
    """
    caret = "^" if negated else ""
    branches = []
    if bmp or negated:
        guard = f"(?![{ASTRAL}])" if negated else ""
        branches.append(f"{guard}[{caret}{bmp or ASTRAL}]")
    if astral or negated:
        branches.append(f"(?![{BMP}])[{caret}{astral or BMP}]")
    return f"(?:{'|'.join(branches)})" if branches else "(?!)"


@functools.lru_cache(maxsize=256)
def translate(pattern: str) -> str:
    r"""pattern with each Unicode class spelled out as code point ranges, for re.

    >>> translate(r"\p{Zl}")
    '(?:[\\U00002028])'
    >>> translate(r"[^a\p{Zl}]")
    '(?:(?![\\U00010000-\\U0010ffff])[^a\\U00002028]|(?![\\x00-\\uffff])[^a])'
    """
    # Imported here, not above: in the page this module is ``regex``, which the
    # package imports while it starts; by the first call the package is there.
    from bpe.scale.pattern_atoms import atoms

    out: list[str] = []
    in_set: list = []  # the atoms of the [...] being read, its opening first
    try:
        for atom in atoms(pattern):
            if in_set or atom.kind == "set":
                in_set.append(atom)
                if atom.kind == "end":
                    out.append(character_class(in_set))
                    in_set = []
            else:
                out.append(spelled(atom) or atom.text)
    except ValueError as e:  # a lone backslash at the end
        raise error(str(e)) from None
    return "".join(out + [a.text for a in in_set])  # an unclosed set: re refuses it


def spelled(atom: Any) -> str:
    """A class the stand-in spells out, as re can read it; "" for any other atom."""
    found = spelled_class(atom)
    return either(*class_members(found)) if found else ""


def character_class(items: list) -> str:
    """One [...] for re, from its atoms: its opening, its members, its closing."""
    body = items[1:-1]
    bmp, astral = [], []
    for k, atom in enumerate(body):
        found = spelled_class(atom)
        if found:
            low, high = class_members(found)
        elif atom.text == "-" and (spells(body, k - 1) or spells(body, k + 1)):
            low = high = "\\-"  # beside a class, "-" stands for itself, not a range
        else:
            low = high = atom.text
        bmp.append(low)
        astral.append(high)
    if not any(spells(body, k) for k in range(len(body))):
        return "".join(a.text for a in items)  # no Unicode class: re reads it as regex
    return either("".join(bmp), "".join(astral), items[0].text == "[^")


def spells(body: list, k: int) -> bool:
    """Whether body[k] is a class the stand-in spells out (False off either end)."""
    return 0 <= k < len(body) and bool(spelled_class(body[k]))


def spelled_class(atom: Any) -> re.Match | None:
    """The stand-in's reading of a class atom, or None."""
    return CLASS.fullmatch(atom.text) if atom.kind == "class" else None


@functools.lru_cache(maxsize=256)
def compile(pattern: str | bytes | re.Pattern, flags: int = 0) -> re.Pattern:
    """regex.compile: an re pattern with the Unicode classes spelled out."""
    if isinstance(pattern, re.Pattern):
        return pattern
    if isinstance(pattern, bytes):  # \p has no meaning for bytes in re: leave them
        return re.compile(pattern, flags)
    return re.compile(translate(pattern), flags)


def escape(
    pattern: str, special_only: bool = True, literal_spaces: bool = False
) -> str:
    """regex.escape (its options are accepted; re's escaping serves as well)."""
    return re.escape(pattern)


def scanner(name: str) -> Callable:
    """regex's module-level ``name`` (search, match, ...): re's Pattern method of it.

    It takes regex's optional pos and endpos; ``overlapped``, which only regex has,
    raises ``error``.
    """

    def scan(
        pattern: str | Pattern,
        string: str,
        flags: int = 0,
        pos: int | None = None,
        endpos: int | None = None,
        overlapped: bool = False,
    ):
        if overlapped:
            raise error("the regex stand-in has no overlapped matching")
        method = getattr(compile(pattern, flags), name)
        return method(string, *span(pos, endpos, string))

    scan.__name__ = scan.__qualname__ = name
    scan.__doc__ = f"regex.{name}, run by re's Pattern.{name}."
    return scan


search, match, fullmatch, findall, finditer = map(
    scanner, ["search", "match", "fullmatch", "findall", "finditer"]
)


def split(
    pattern: str | Pattern, string: str, maxsplit: int = 0, flags: int = 0
) -> list[str]:
    return compile(pattern, flags).split(string, maxsplit)


def sub(
    pattern: str | Pattern,
    repl: str | Callable,
    string: str,
    count: int = 0,
    flags: int = 0,
) -> str:
    return compile(pattern, flags).sub(repl, string, count)


def subn(
    pattern: str | Pattern,
    repl: str | Callable,
    string: str,
    count: int = 0,
    flags: int = 0,
) -> tuple[str, int]:
    return compile(pattern, flags).subn(repl, string, count)


def span(pos: int | None, endpos: int | None, string: str) -> tuple[int, int]:
    """regex's optional pos and endpos, as re's positional arguments."""
    return (pos or 0, len(string) if endpos is None else endpos)
