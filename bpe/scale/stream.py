"""Encoding one text too large for memory, and decoding as a stream.

``tokenizer.py`` encodes one string in memory. Here ``encode_iterable`` takes the
text in pieces (a file's lines, say) and yields ids as soon as they are certain:
it encodes up to the last point where cutting cannot change the result, and
carries the rest over. ``decode_stream`` does the reverse without ever emitting
half a character. (``batch.py`` spreads a list of texts over processes.)
"""

import codecs

import regex

from ..pretokenize import PAT

SPACE = regex.compile(r"\s")  # the pattern's own idea of whitespace


def safe_end(text, tokenizer):
    """The last index at which text may be cut without changing its encoding (or 0).

    Before a special token is safe (unless one special contains another, when the
    cut could fall inside the longer one). With GPT-2's pattern, so is just after a
    newline with a non-space character on both sides: no pre-token spans it, and
    the newline is a pre-token of its own either way.
    """
    specials = tokenizer.specials
    nested = any(a != b and a in b for a in specials for b in specials)
    cut = -1 if nested else max((text.rfind(s) for s in specials), default=-1)
    if tokenizer.pattern == PAT and not any("\n" in s for s in specials):
        i = text.rfind("\n", 0, len(text) - 1)
        while i > 0 and (SPACE.match(text, i - 1) or SPACE.match(text, i + 1)):
            i = text.rfind("\n", 0, i)
        cut = max(cut, i + 1 if i > 0 else -1)
    return max(cut, 0)


def encode_iterable(tokenizer, pieces):
    """Yield the ids of "".join(pieces), holding just what follows the last safe cut."""
    pending = ""
    for piece in pieces:
        pending += piece
        cut = safe_end(pending, tokenizer)
        if cut:
            yield from tokenizer.encode(pending[:cut])
            pending = pending[cut:]
    if pending:
        yield from tokenizer.encode(pending)


def decode_stream(tokenizer, ids):
    """Yield text for ids as it is complete; a character split across tokens waits."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    for token_id in ids:
        text = decoder.decode(tokenizer.decode_single_token_bytes(token_id))
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail
