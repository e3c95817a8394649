"""Pre-tokenizing with tiktoken's Unicode tables, so that ids match on every code point.

The ``regex`` module follows the newest Unicode, tiktoken's Rust regex an older
one. The newer tables make about 17,000 code points letters, digits or marks that
tiktoken still treats as unassigned, and moved one letter (U+0295) from Ll to Lo.
Where it matters, two neighbours land in one pre-token here and in two there, and
the ids differ. ``tiktoken_view`` fixes that without touching the pattern: before
matching, each such character is swapped for a stand-in that ``regex`` classes
the way tiktoken classes the original (an unassigned code point, or an old
lowercase letter); the pieces are then cut from the original text at the same
places. ``DIFFERENCES`` is generated, and checked by the tests, by ``probe``.
Only a tokenizer that must give tiktoken's ids reads Unicode this way
(``bpe.Tokenizer.from_tiktoken``, or ``unicode="tiktoken"``); the core and the rest
of the package read it as ``regex`` does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import regex

# The classes tiktoken's patterns use, and letters its (?i:...) contractions match.
CLASSES = ("L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "N", "White_Space")
STAND_INS = {(): 0x0378, ("L", "Ll"): 0x0250}  # unassigned since Unicode 1.1; "ɐ"

# (first, last, stand-in) for the code points whose classes differ; from probe().
DIFFERENCES = [
    (0x0295, 0x0295, 0x0250),
    (0x0558, 0x0558, 0x0378),
    (0x058B, 0x058C, 0x0378),
    (0x05C8, 0x05C9, 0x0378),
    (0x088F, 0x088F, 0x0378),
    (0x0B53, 0x0B54, 0x0378),
    (0x0C5C, 0x0C5C, 0x0378),
    (0x0CDC, 0x0CDC, 0x0378),
    (0x1ACF, 0x1AF0, 0x0378),
    (0x208F, 0x208F, 0x0378),
    (0x209D, 0x209F, 0x0378),
    (0xA7CE, 0xA7CF, 0x0378),
    (0xA7D2, 0xA7D2, 0x0378),
    (0xA7D4, 0xA7D4, 0x0378),
    (0xA7DD, 0xA7DD, 0x0378),
    (0xA7E2, 0xA7E2, 0x0378),
    (0xA7F1, 0xA7F1, 0x0378),
    (0xAB6C, 0xAB6D, 0x0378),
    (0x107BB, 0x107BF, 0x0378),
    (0x10940, 0x10959, 0x0378),
    (0x10EC5, 0x10EC7, 0x0378),
    (0x10ECB, 0x10ECF, 0x0378),
    (0x10ED9, 0x10EEE, 0x0378),
    (0x10EF0, 0x10EFB, 0x0378),
    (0x11B0A, 0x11B0A, 0x0378),
    (0x11B60, 0x11B67, 0x0378),
    (0x11DB0, 0x11DDB, 0x0378),
    (0x11DE0, 0x11DE9, 0x0378),
    (0x11DF0, 0x11DF1, 0x0378),
    (0x1246F, 0x1246F, 0x0378),
    (0x12475, 0x1247F, 0x0378),
    (0x12550, 0x12686, 0x0378),
    (0x16EA0, 0x16EB8, 0x0378),
    (0x16EBB, 0x16ED3, 0x0378),
    (0x16FF2, 0x16FF6, 0x0378),
    (0x187F8, 0x187FF, 0x0378),
    (0x18CD6, 0x18CDA, 0x0378),
    (0x18D09, 0x18D20, 0x0378),
    (0x18D80, 0x18DF2, 0x0378),
    (0x18E00, 0x19191, 0x0378),
    (0x191A0, 0x191D2, 0x0378),
    (0x1B123, 0x1B128, 0x0378),
    (0x1B168, 0x1B168, 0x0378),
    (0x1D127, 0x1D128, 0x0378),
    (0x1D250, 0x1D252, 0x0378),
    (0x1D25B, 0x1D25C, 0x0378),
    (0x1D25F, 0x1D25F, 0x0378),
    (0x1D280, 0x1D281, 0x0378),
    (0x1D6A6, 0x1D6A6, 0x0378),
    (0x1DF1F, 0x1DF24, 0x0378),
    (0x1DF2B, 0x1DF81, 0x0378),
    (0x1DF90, 0x1DF96, 0x0378),
    (0x1DFCD, 0x1DFFF, 0x0378),
    (0x1E6C0, 0x1E6DE, 0x0378),
    (0x1E6E0, 0x1E6F5, 0x0378),
    (0x1E6FE, 0x1E6FF, 0x0378),
    (0x2B73A, 0x2B73F, 0x0378),
    (0x2B81E, 0x2B81E, 0x0378),
    (0x2CEA2, 0x2CEAD, 0x0378),
    (0x323B0, 0x33479, 0x0378),
    (0x3D000, 0x3FC3F, 0x0378),
]


def tiktoken_view(search: regex.Pattern) -> Callable[[str], list[str]]:
    """A findall for search that cuts text where tiktoken's regex would."""
    return functools.partial(find_as_tiktoken, search)


def find_as_tiktoken(search: regex.Pattern, text: str) -> list[str]:
    if NEWER.isdisjoint(set(text)):  # the usual case: nothing to swap (a set is 20x
        return search.findall(text)  # faster than a regex search for so many ranges)
    swapped = text.translate(SWAP)  # one character for one: the places stay
    return [text[m.start() : m.end()] for m in search.finditer(swapped)]


SWAP = {
    c: stand_in for first, last, stand_in in DIFFERENCES for c in range(first, last + 1)
}
NEWER = frozenset(map(chr, SWAP))  # the characters that are swapped


def probe() -> list[tuple[int, int, int]]:
    """DIFFERENCES, measured: each class tested on every code point in both engines.

    tiktoken's regex is reached through a small tiktoken.Encoding per class whose
    pattern is "a" then a character of the class, and whose vocabulary merges "a"
    with any following byte: the "a" before a code point became a token of its own
    (id 97) or a merged one (id 256 or more), and no other byte of the text is an
    "a" (0x61 is left out), so those ids, in order, say for each code point whether
    "a" and it made one piece.
    """
    import tiktoken

    points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and c != 0x61]
    every = "".join(map(chr, points))
    text = "".join("a" + c for c in every)
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({bytes([0x61, b]): 256 + b for b in range(256)})
    theirs, ours = {}, {}  # {class: the code points in it}
    for cls in CLASSES:
        escape = r"\s" if cls == "White_Space" else rf"\p{{{cls}}}"
        probe_encoding = tiktoken.Encoding(
            f"probe-{cls}",
            pat_str=rf"a{escape}|[\s\S]",
            mergeable_ranks=ranks,
            special_tokens={},
        )
        ids = probe_encoding.encode_ordinary(text)
        joined = [i >= 256 for i in ids if i == 0x61 or i >= 256]  # one a point
        theirs[cls] = {c for c, j in zip(points, joined, strict=True) if j}
        ours[cls] = set(map(ord, regex.findall(escape, every)))
    differ = set().union(*(theirs[k] ^ ours[k] for k in CLASSES))
    found = []
    for c in sorted(differ):
        # a new kind of difference: KeyError
        stand_in = STAND_INS[tuple(k for k in CLASSES if c in theirs[k])]
        if found and found[-1][1] == c - 1 and found[-1][2] == stand_in:
            found[-1] = (found[-1][0], c, stand_in)
        else:
            found.append((c, c, stand_in))
    return found


if __name__ == "__main__":  # DIFFERENCES afresh, after an upgrade of regex or tiktoken
    for first, last, stand_in in probe():
        print(f"    (0x{first:04X}, 0x{last:04X}, 0x{stand_in:04X}),")


# ---- For JavaScript engines (bpe/book/chapters/bpe.js) ---------------------------
#
# A JavaScript engine's \p{...} follows its own Unicode tables, and they differ from
# one browser to another (and from Node's). The page's JavaScript therefore swaps,
# as above, every code point whose classes may differ between engines: those whose
# classes under `regex` differ from their classes in Unicode 14.0 (Python 3.11's
# unicodedata, September 2021), which every current engine knows. Those are the code
# points assigned since, plus the few whose class changed since; every other one is
# classed alike by `regex` and by any engine whose tables are at least 14.0 and not
# newer than `regex`'s. Each is swapped for an old stand-in of the same classes and
# the same UTF-16 length: the classes `regex` gives it for the book's own vocabulary
# and the explorer, the classes tiktoken gives it (DIFFERENCES) for OpenAI's.
ENGINE_BASELINE = "14.0.0"  # unicodedata.unidata_version of Python 3.11
# The letter by which the JavaScript names a set of classes (bpe.js: STAND_INS).
CLASS_KEYS = {
    (): "_",
    ("L", "Lu"): "u",
    ("L", "Ll"): "l",
    ("L", "Lm"): "m",
    ("L", "Lo"): "o",
    ("M",): "M",
    ("N",): "N",
}


def regex_classes() -> dict[int, tuple[str, ...]]:
    """{code point: its CLASSES under `regex`} for every code point in one or more."""
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    found: dict[int, list[str]] = {}
    for cls in CLASSES:
        escape = r"\s" if cls == "White_Space" else rf"\p{{{cls}}}"
        for m in regex.finditer(escape, text):
            found.setdefault(ord(m[0]), []).append(cls)
    return {c: tuple(sorted(v, key=CLASSES.index)) for c, v in found.items()}


def baseline_classes(c: int, white_space: bool) -> tuple[str, ...]:
    """The CLASSES of code point c in Unicode 14.0 (White_Space: the same since 6.3)."""
    import unicodedata

    category = unicodedata.category(chr(c))
    found = tuple(k for k in CLASSES[:-1] if category.startswith(k))
    return found + ("White_Space",) * white_space


def engine_differences() -> list[tuple[int, int, str, str]]:
    """(first, last, regex's key, tiktoken's key): what bpe.js swaps (CLASS_KEYS).

    Needs Python 3.11 (Unicode 14.0 in unicodedata); tests/test_playground.py checks
    bpe.js's copy against it.
    """
    import unicodedata

    if unicodedata.unidata_version != ENGINE_BASELINE:
        raise RuntimeError(f"needs unicodedata {ENGINE_BASELINE} (Python 3.11)")
    ours = regex_classes()
    rows: list[tuple[int, int, str, str]] = []
    for c in range(0x110000):
        if 0xD800 <= c < 0xE000:
            continue
        mine = ours.get(c, ())
        theirs = ours.get(SWAP.get(c, c), ())
        if mine == theirs == baseline_classes(c, "White_Space" in mine):
            continue
        row = (c, c, CLASS_KEYS[mine], CLASS_KEYS[theirs])  # a new kind: KeyError
        # a row never spans the BMP's end: one stand-in width (UTF-16 length) per row
        if rows and rows[-1][1:] == (c - 1, *row[2:]) and c != 0x10000:
            rows[-1] = (rows[-1][0], *row[1:])
        else:
            rows.append(row)
    return rows
