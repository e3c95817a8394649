"""Pre-tokenizer patterns rewritten for JavaScript, to split text as tiktoken does.

The patterns of GPT-2, cl100k_base and o200k_base are written for Rust's regex
engines and for Python's ``regex``. JavaScript (with the ``u`` flag) has the same
``\\p{...}`` classes and backtracking, but differs in three ways that these
patterns touch:

* ``\\s`` also matches U+FEFF there; ``\\p{White_Space}`` is what Rust means by ``\\s``;
* possessive quantifiers (``++``, ``?+``, ``{1,3}+``) do not exist;
* inline case-insensitive groups (``(?i:...)``) are too new for Node 20.

``js_pattern`` rewrites exactly those, and refuses any other construct it does
not know, rather than guess. Dropping a possessive mark changes what a pattern
can match only when backtracking into the quantified part could make the rest
match; in the three patterns every possessive part is followed by something it
cannot itself match, or by nothing, so the pieces are the same. The Node
cross-checks (tests/test_playground.py) confirm the ids on real and generated text.
"""

from __future__ import annotations

# What Rust's case-insensitive matching adds to an ASCII letter beyond its other
# case: simple case folding maps U+017F LATIN SMALL LETTER LONG S to "s" and
# U+212A KELVIN SIGN to "k" (measured against tiktoken in tests/test_jspattern.py).
CASE_FOLDS = {"s": "\u017f", "k": "\u212a"}
ESCAPES = {"s": r"\p{White_Space}", "S": r"\P{White_Space}"}
QUANTIFIER_ENDS = "?*+}"


def cases(letter: str) -> str:
    """Every character a case-insensitive ``letter`` matches, lower case first."""
    return letter.lower() + letter.upper() + CASE_FOLDS.get(letter.lower(), "")


def js_pattern(pattern: str) -> str:
    """The source of a JavaScript regular expression (for flags "gu") equal to pattern.

    >>> js_pattern(r"(?i:'s)|\\s++$")
    "(?:'[sSſ])|\\\\p{White_Space}+$"
    """
    out: list[str] = []
    groups: list[bool] = []  # for each open group: is it case-insensitive?
    in_class = False
    after_quantifier = False  # did the last item end with a quantifier?
    i = 0
    while i < len(pattern):
        c = pattern[i]
        insensitive = bool(groups) and groups[-1]
        if c == "\\":
            if i + 1 >= len(pattern):
                raise ValueError(f"pattern ends in a lone backslash: {pattern!r}")
            e = pattern[i + 1]
            if e in "pP":
                end = pattern.index("}", i) + 1
                out.append(pattern[i:end])
                i = end
            else:
                if e.isalpha() and e not in ESCAPES and e not in "rnt":
                    raise ValueError(f"unsupported escape \\{e} in {pattern!r}")
                out.append(ESCAPES.get(e, pattern[i : i + 2]))
                i += 2
            after_quantifier = False
            continue
        if in_class:
            if c == "]":
                in_class = False
                out.append(c)
            else:
                out.append(
                    cases(c) if insensitive and c.isascii() and c.isalpha() else c
                )
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            after_quantifier = False
        elif c == "(":
            if pattern.startswith("(?i:", i):
                groups.append(True)
                out.append("(?:")
                i += 4
                after_quantifier = False
                continue
            if pattern.startswith("(?", i) and not pattern.startswith(
                ("(?:", "(?!", "(?="), i
            ):
                raise ValueError(f"unsupported group at {i} in {pattern!r}")
            groups.append(insensitive)
            out.append(c)
            after_quantifier = False
        elif c == ")":
            if not groups:
                raise ValueError(f"unbalanced ')' at {i} in {pattern!r}")
            groups.pop()
            out.append(c)
            after_quantifier = False
        elif c == "+" and after_quantifier:
            after_quantifier = False  # possessive: see the module's docstring
        elif c in QUANTIFIER_ENDS:
            out.append(c)
            after_quantifier = True
        elif c == "{":
            end = pattern.index("}", i)
            out.append(pattern[i:end])
            i = end  # the "}" is handled above, as a quantifier's end
            continue
        elif insensitive and c.isascii() and c.isalpha():
            out.append(f"[{cases(c)}]")
            after_quantifier = False
        else:
            out.append(c)
            after_quantifier = False
        i += 1
    if in_class or groups:
        raise ValueError(f"unterminated class or group in {pattern!r}")
    return "".join(out)


def js_changed(rows: list[tuple[int, int, str, str]]) -> list[str]:
    """bpe.js's CHANGED: the rows of ``bpe.interop.unicode.engine_differences``, as
    lines of at most 80 characters of "first[-last]" in hex, then the two keys.

    >>> js_changed([(0x295, 0x295, "o", "l"), (0x1ACF, 0x1AF0, "M", "_")])
    ['295ol 1acf-1af0M_']
    """
    words = [
        f"{a:x}" + (f"-{b:x}" if b != a else "") + regex_key + tiktoken_key
        for a, b, regex_key, tiktoken_key in rows
    ]
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > 80:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + word
    return lines
