"""UTF-8 facts the book relies on, computed rather than quoted.

Byte-level BPE starts from the 256 byte values; this module shows how
characters become those bytes and checks, over every code point, the property
that makes cutting text at an ASCII marker safe.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterator
from typing import Any

SURROGATES = range(0xD800, 0xE000)  # reserved for UTF-16; UTF-8 cannot encode them
CODE_POINTS = range(0x110000)  # Unicode's whole range, 0 to 0x10FFFF
NOT_CHARACTERS = {
    "Cc",
    "Cn",
    "Co",
    "Cs",
}  # controls, unassigned, private use, surrogates


def unicode_characters() -> tuple[str, int]:
    """(the Unicode version Python knows, how many characters it defines).

    Counted as the Unicode Standard counts its characters: graphic and format
    characters, not controls, private-use or surrogate code points.
    """
    defined = sum(
        unicodedata.category(chr(cp)) not in NOT_CHARACTERS for cp in CODE_POINTS
    )
    return unicodedata.unidata_version, defined


def describe(ch: str) -> dict[str, Any]:
    """How one string is spelled in UTF-8.

    >>> describe("é")["hex"], describe("é")["byte values"]
    ('C3 A9', [195, 169])
    """
    data = ch.encode("utf-8")
    return {
        "text": ch,
        "code point": " ".join(f"U+{ord(c):04X}" for c in ch) if len(ch) == 1 else "",
        "characters": len(ch),
        "bytes": len(data),
        "hex": " ".join(f"{b:02X}" for b in data),
        "byte values": list(data),
    }


def encodable_code_points() -> Iterator[int]:
    """Every code point UTF-8 can encode: 0..0x10FFFF without the surrogates."""
    return (cp for cp in CODE_POINTS if cp not in SURROGATES)


def census() -> tuple[dict[int, int], int]:
    """Code points by UTF-8 length, and ASCII-range bytes inside multi-byte characters.

    >>> lengths, ascii_inside = census()
    >>> lengths[1], ascii_inside
    (128, 0)
    """
    lengths, ascii_inside = Counter(), 0
    for cp in encodable_code_points():
        data = chr(cp).encode("utf-8")
        lengths[len(data)] += 1
        if len(data) > 1:
            ascii_inside += sum(b < 0x80 for b in data)
    return dict(sorted(lengths.items())), ascii_inside
