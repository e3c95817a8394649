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

from bpe.scale.pattern_atoms import Atom, atoms

# What Rust's case-insensitive matching adds to an ASCII letter beyond its other
# case: simple case folding maps U+017F LATIN SMALL LETTER LONG S to "s" and
# U+212A KELVIN SIGN to "k" (measured against tiktoken in tests/test_jspattern.py).
CASE_FOLDS = {"s": "\u017f", "k": "\u212a"}
ESCAPES = {r"\s": r"\p{White_Space}", r"\S": r"\P{White_Space}"}


def cases(letter: str) -> str:
    """Every character a case-insensitive ``letter`` matches, lower case first."""
    return letter.lower() + letter.upper() + CASE_FOLDS.get(letter.lower(), "")


def js_pattern(pattern: str) -> str:
    """The source of a JavaScript regular expression (for flags "gu") equal to pattern.

    >>> js_pattern(r"(?i:'s)|\\s++$")
    "(?:'[sSſ])|\\\\p{White_Space}+$"
    """
    rewrite = JsRewrite(pattern)
    for atom in atoms(pattern):
        rewrite.out.append(rewrite.atom(atom))
    if rewrite.in_set or rewrite.groups:
        raise ValueError(f"unterminated class or group in {pattern!r}")
    return "".join(rewrite.out)


# What JavaScript reads as Python's ``regex`` does; "(?i:" becomes "(?:" with its
# letters spelled out in both cases, and any other group is refused.
GROUPS = ("(", "(?:", "(?!", "(?=", "(?i:")


class JsRewrite:
    """The state of one rewrite: what is written, the open groups, the last atom."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.out: list[str] = []
        self.groups: list[bool] = []  # for each open group: is it case-insensitive?
        self.in_set = False
        self.after_quantifier = False  # did the last atom end with a quantifier?

    def atom(self, atom: Atom) -> str:
        """What JavaScript gets for one atom of the pattern."""
        insensitive = bool(self.groups) and self.groups[-1]
        quantified, self.after_quantifier = self.after_quantifier, False
        if atom.kind in ("set", "end"):
            self.in_set = atom.kind == "set"
            return atom.text
        if atom.kind in ("class", "escape"):
            return self.escape(atom.text)
        if atom.kind == "group":
            return self.open_group(atom, insensitive)
        if atom.kind == "close":
            if not self.groups:
                raise ValueError(f"unbalanced ')' at {atom.start} in {self.pattern!r}")
            self.groups.pop()
            return atom.text
        if atom.kind == "quantifier":
            self.after_quantifier = not (quantified and atom.text == "+")
            return "" if quantified and atom.text == "+" else atom.text  # possessive
        return spelled(atom.text, insensitive, self.in_set)

    def escape(self, text: str) -> str:
        """An escape, with \\s and \\S as Rust reads them; unknown letters refused."""
        if text[1] in "pP" and not text.startswith(
            "{", 2
        ):  # \\pL: \\p{L} in JavaScript
            return f"{text[:2]}{{{text[2:]}}}"
        if text in ESCAPES or text[1] in "pP":
            return ESCAPES.get(text, text)
        if text[1].isalpha() and text[1] not in "rnt":
            raise ValueError(f"unsupported escape {text} in {self.pattern!r}")
        return text

    def open_group(self, atom: Atom, insensitive: bool) -> str:
        """A group's opening: "(?i:" becomes a plain group; others kept or refused."""
        unknown = atom.text == "(" and self.pattern.startswith("(?", atom.start)
        if atom.text not in GROUPS or unknown:
            raise ValueError(f"unsupported group at {atom.start} in {self.pattern!r}")
        self.groups.append(insensitive or atom.text == "(?i:")
        return "(?:" if atom.text == "(?i:" else atom.text


def spelled(char: str, insensitive: bool, in_set: bool) -> str:
    """One plain character; a letter in a case-insensitive group, in every case.

    >>> spelled("a", True, False), spelled("a", True, True), spelled("a", False, False)
    ('[aA]', 'aA', 'a')
    """
    if not (insensitive and char.isascii() and char.isalpha()):
        return char
    return cases(char) if in_set else f"[{cases(char)}]"


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
