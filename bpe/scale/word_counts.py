"""Counting GPT-2's pre-tokens word by word: each distinct word meets the regex once.

``pretokenizer.count_strings`` runs the pattern over all the text. But a corpus is
mostly the same words again and again, and GPT-2's pattern never lets
a piece run across a single space that has a visible character on one side: the
space starts the next piece (" ?\\p{L}+" and its neighbours) and no piece before it
reaches past it. So the text can be cut at every space by ``str.split`` (C code),
the words counted with ``Counter`` (C code), and each distinct word pre-tokenized
once, with its space put back. Where a space has whitespace on both sides
("\\n \\n", three spaces, a space before the end), ``\\s+(?!\\S)`` may take it into
the run before it; but such runs have a fixed shape, which ``untangle`` cuts out
first (in source code nearly every line starts with one). The counts are the
same as ``count_strings``'s (the tests compare them on Hypothesis text and on every
code point in whitespace); only GPT-2's pattern takes this path. Pieces are found
by ``fast_finder``, as ``bpe.Tokenizer`` finds them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..pretokenizer import PAT, count_strings, special_splitter
from .ascii_pattern import fast_finder

# A space with whitespace on both sides, the end of the chunk counting as whitespace
# (there "\s+(?!\S)" need not give a space back). Python's \s is str.isspace(), which
# holds every character \s means to the pattern, and a few more: more chunks are
# untangled, never fewer.
TANGLED = re.compile(r"\s (?:\s|\Z)")
# The characters \s means to the pattern (regex's White_Space), exactly: not Python's
# \s, which holds four more (U+001C to U+001F, to the pattern punctuation). A test
# checks this against regex on every code point.
SPACE_CHARS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
SPACE_CHARS += "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
SPACE = f"[{re.escape(SPACE_CHARS)}]"
SPACE_SET = frozenset(SPACE_CHARS)
# All of a run of two or more but its last character, when the run is followed by a
# visible one: that is one piece ("\s+(?!\S)" gives the last character back).
RUN_BUT_LAST = re.compile(f"({SPACE}{SPACE}*)(?={SPACE})")  # faster in re than +
FLUSH_WORDS = 1 << 16  # distinct words held before they are turned into pieces
FLUSH_CHARS = 1 << 23  # or characters of text read: memory stays bounded


def count_by_words(
    texts: Iterable[str], specials: tuple[str, ...], pattern: str | None = PAT
) -> Counter[str]:
    """The pre-token string counts of all texts together, as count_strings gives.

    >>> counts = count_by_words(["the cat, the hat<|e|>the end"], ("<|e|>",))
    >>> counts["the"], counts[" the"], counts[","], counts["<|e|>"]
    (2, 1, 1, 0)

    The arguments are taken as already checked.
    """
    counts = Counter()
    if pattern != PAT:
        for text in texts:
            counts.update(count_strings(text, specials, pattern, fast_finder(pattern)))
        return counts
    words, first_words, read = Counter(), Counter(), 0
    split = special_splitter(specials).split if specials else None
    for text in texts:
        for chunk in split(text) if split else (text,):
            if chunk in specials:
                continue
            if TANGLED.search(chunk):
                chunk = untangle(chunk, counts)
            chunk_words = chunk.split(" ")
            words.update(chunk_words)
            first_words[chunk_words[0]] += 1  # the one with no space before it
        read += len(text)
        if len(words) > FLUSH_WORDS or read > FLUSH_CHARS:
            add_pieces(counts, words, first_words)
            read = 0
    add_pieces(counts, words, first_words)
    return counts


def untangle(chunk: str, counts: Counter) -> str:
    """Count the pieces that runs of whitespace make; return the chunk without them.

    >>> counts = Counter()
    >>> untangle("if x:\\n    y = 1  \\n", counts)
    'if x: y = 1'
    >>> counts
    Counter({'  \\n': 1, '\\n   ': 1})

    A run at the end of the chunk is one piece. A run of two or more before a
    visible character gives all but its last character as one piece; what is left
    holds only lone whitespace characters, each between two visible ones (or at the
    start), and cut there into pieces as it was: nothing before a run reaches into
    it, and its last character begins the piece after it, or is a piece alone.
    """
    text = chunk.rstrip(SPACE_CHARS)
    if len(text) < len(chunk):
        counts[chunk[len(text) :]] += 1
    parts = RUN_BUT_LAST.split(text)  # text, run, text, run, ..., text
    if len(parts) > 1:
        counts.update(parts[1::2])
        text = "".join(parts[::2])
    return text


def add_pieces(counts: Counter, words: Counter, first_words: Counter) -> None:
    """Add each word's pieces, as many times as it was seen; then forget the words."""
    find = fast_finder(PAT)
    once = []  # seen once, after a space, with a visible character at each end
    for word, n in words.items():
        first = first_words[word]
        if (
            n == 1
            and not first
            and word  # "" after a space: a space between two spaces
            and word[0] not in SPACE_SET
            and word[-1] not in SPACE_SET
        ):
            once.append(word)
            continue
        if n > first:  # after a space, which is the start of its first piece
            for piece in find(" " + word):
                counts[piece] += n - first
        if first:
            for piece in find(word):
                counts[piece] += first
    # Most distinct words of source code come once: the pattern runs over them all
    # at one go, in C. Each space of " w1 w2 ..." has a visible character on both
    # sides, so, as in the text they came from, each word's pieces are its own.
    counts.update(find(" " + " ".join(once)) if once else ())
    words.clear()
    first_words.clear()
