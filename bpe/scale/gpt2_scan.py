"""GPT-2's pieces of ASCII text in one pass over its characters, for the compiler.

On ASCII text GPT-2's pattern (``pretokenizer.PAT``) needs only four classes of
character: letters, digits, whitespace and the rest. At each place its
alternatives come down to four moves, which ``scan_ascii`` makes in order:

1. an apostrophe starting one of the contractions 's 't 're 've 'm 'll 'd is
   that contraction;
2. otherwise a piece is a run of one class, and a space takes the run of
   letters, digits or other characters right after it (`` ?\\p{L}+`` and its
   two neighbours);
3. a run of whitespace before a visible character gives that last character
   back, since it starts the next piece (``\\s+(?!\\S)``);
4. unless the run is that one character (``\\s+``).

Which class each character is in comes from the pattern's own ``regex``
(``ascii_pattern.gpt2_classes``), never from a list typed here. Compiled,
this loop reads each character once, in C, and runs about twice as fast as
``re`` runs the ASCII pattern; as Python it is far slower than ``re``, so
``fast_finder`` takes it only compiled (the tests compare both with ``regex``).
"""

from __future__ import annotations

try:  # the C types the compiled module uses; as Python, the decorators do nothing
    import cython
except ImportError:  # no Cython here (the page's Python): its stand-in
    from . import _cython as cython

LETTER, DIGIT, SPACE, OTHER = 1, 2, 3, 4  # the classes, as kinds[ord(character)]


# No bounds or wraparound checks: every index read is below n, checked first, and
# kinds has 128 entries while the text is checked to be ASCII.
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.locals(
    n=cython.Py_ssize_t,
    start=cython.Py_ssize_t,
    end=cython.Py_ssize_t,
    kind=cython.int,
    first=cython.Py_UCS4,
    second=cython.Py_UCS4,
    third=cython.Py_UCS4,
)
def scan_ascii(kinds: bytes, text: str) -> list[str]:
    r"""The pieces GPT-2's pattern finds in ASCII text; kinds: each character's class.

    >>> kinds = bytes(LETTER if chr(c).isalpha() else DIGIT if chr(c).isdigit()
    ...               else SPACE if chr(c).isspace() else OTHER for c in range(128))
    >>> scan_ascii(kinds, "it's 42 cats!!  \n")
    ['it', "'s", ' 42', ' cats', '!!', '  \n']
    """
    if not text.isascii():
        raise ValueError("scan_ascii reads ASCII text only")
    out, n, start = [], len(text), 0
    while start < n:
        first, end = text[start], start + 1
        if first == "'" and end < n:  # move 1: a contraction?
            second = text[end]
            if second in "stmd":
                out.append(text[start : start + 2])
                start += 2
                continue
            if second in "rvl" and end + 1 < n:  # 're 've 'll
                third = text[end + 1]
                if third == ("l" if second == "l" else "e"):
                    out.append(text[start : start + 3])
                    start += 3
                    continue
        kind = kinds[ord(first)]
        if first == " " and end < n and kinds[ord(text[end])] != SPACE:
            kind = kinds[ord(text[end])]  # move 2: the space leads the run after it
            end += 1
        while end < n and kinds[ord(text[end])] == kind:
            end += 1
        if kind == SPACE and end < n and end - 1 > start:
            end -= 1  # move 3: the last one starts the next piece; else move 4
        out.append(text[start:end])
        start = end
    return out
