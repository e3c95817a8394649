"""Encoding one text too large for memory, and decoding as a stream.

``tokenizer.py`` encodes one string in memory. Here ``encode_iterable`` takes the
text in pieces (a file's lines, say) and yields ids as soon as they are certain:
it encodes up to the last point where cutting cannot change the result, and
carries the rest over. ``decode_stream`` does the reverse without ever emitting
half a character. (``batch.py`` spreads a list of texts over processes.)
"""

import codecs

from .cuts import last_cut


def safe_end(text: str, tokenizer) -> int:
    """The last index at which text may be cut without changing its encoding (or 0).

    The cut rules are ``cuts.py``'s: before a special token, or, with GPT-2's
    pattern, between characters that pattern never joins. The text before the cut
    is then encoded exactly as it would be as part of the whole.
    """
    return last_cut(text, tokenizer.specials, tokenizer.pattern) or 0


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
    return decode_chunks(tokenizer, ([token_id] for token_id in ids))


def decode_chunks(tokenizer, chunks):
    """Yield text for lists of ids as it is complete: the bulk form of decode_stream."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    for chunk in chunks:
        text = decoder.decode(tokenizer.decode_bytes(chunk))
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail
