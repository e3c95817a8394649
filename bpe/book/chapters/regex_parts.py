"""A pre-tokenizer pattern taken apart, for chapter 03: its alternatives, one per row.

``alternatives`` cuts a pattern at its top-level ``|``; ``matched_by`` says which
alternative found each pre-token. The pattern itself is unchanged: naming each
alternative as a group changes what a match reports, not what it matches.
"""

from __future__ import annotations

import regex


def alternatives(pattern: str) -> list[str]:
    r"""The top-level alternatives of a regular expression, in the order they are tried.

    A ``|`` inside a group, a character class or after a backslash does not count.

    >>> alternatives(r"'(?:s|ll)| ?\p{L}+|[|]|\|")
    ["'(?:s|ll)", ' ?\\p{L}+', '[|]', '\\|']
    """
    parts, start, depth, in_class, escaped = [], 0, 0, False, False
    for i, ch in enumerate(pattern):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


def matched_by(pattern: str, text: str) -> list[tuple[str, int]]:
    r"""Each pre-token of text, with the index of the alternative that matched it.

    >>> matched_by(r"'(?:s|ll)| ?\p{L}+|\s+(?!\S)|\s+", "Tom's  cat")
    [('Tom', 1), ("'s", 0), (' ', 2), (' cat', 1)]
    """
    parts = alternatives(pattern)
    named = regex.compile("|".join(f"(?P<a{i}>{p})" for i, p in enumerate(parts)))
    return [(m.group(), int(m.lastgroup[1:])) for m in named.finditer(text)]
