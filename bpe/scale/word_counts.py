"""Counting GPT-2's pre-tokens word by word: each distinct word meets the regex once.

``pretokenizer.count_strings`` runs the pattern over all the text. But a corpus is
mostly the same words again and again, and GPT-2's pattern never lets
a piece run across a single space that has a visible character on one side: the
space starts the next piece (" ?\\p{L}+" and its neighbours) and no piece before it
reaches past it. So the text can be cut at every space by ``str.split`` (C code),
the words counted with ``Counter`` (C code), and each distinct word pre-tokenized
once, with its space put back. Where a space has whitespace on both sides
("\\n \\n", three spaces, a space before the end), ``\\s+(?!\\S)`` may take it into
the run before it, so such a chunk is counted the plain way. The counts are the
same as ``count_strings``'s (the tests compare them on Hypothesis text); only
GPT-2's pattern takes this path. Pieces are found by ``fast_finder``, as
``bpe.Tokenizer`` finds them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..pretokenizer import PAT, count_strings, special_splitter
from .ascii_pattern import fast_finder

# A space with whitespace on both sides, the end of the chunk counting as whitespace
# (there "\s+(?!\S)" need not give a space back). Python's \s is str.isspace(), which
# holds every character \s means to the pattern, and a few more: more chunks go the
# plain way, never fewer.
TANGLED = re.compile(r"\s (?:\s|\Z)")
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
                counts.update(fast_finder(PAT)(chunk))
                continue
            chunk_words = chunk.split(" ")
            words.update(chunk_words)
            first_words[chunk_words[0]] += 1  # the one with no space before it
        read += len(text)
        if len(words) > FLUSH_WORDS or read > FLUSH_CHARS:
            add_pieces(counts, words, first_words)
            read = 0
    add_pieces(counts, words, first_words)
    return counts


def add_pieces(counts: Counter, words: Counter, first_words: Counter) -> None:
    """Add each word's pieces, as many times as it was seen; then forget the words."""
    find = fast_finder(PAT)
    for word, n in words.items():
        first = first_words[word]
        if n > first:  # after a space, which is the start of its first piece
            for piece in find(" " + word):
                counts[piece] += n - first
        if first:
            for piece in find(word):
                counts[piece] += first
    words.clear()
    first_words.clear()
