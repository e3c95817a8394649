"""Encoding one text too large for memory, and decoding as a stream.

``tokenizer.py`` encodes one string in memory. Here ``encode_iterable`` takes the
text in pieces (a file's lines, say) and yields ids as soon as they are certain:
it encodes up to the last point where cutting cannot change the result, and
carries the rest over. ``decode_stream`` does the reverse without ever emitting
half a character. (``batch.py`` spreads a list of texts over processes.)
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from typing import Any

from .cuts import last_cut, warn_read_whole


def encode_iterable(tokenizer: Any, pieces: Iterable[str]) -> Iterator[int]:
    """Yield the ids of "".join(pieces), holding just what follows the last safe cut.

    A pattern with no known safe cut holds the stream whole, between special tokens
    (with a ``ReadWhole`` warning, when the ids are first asked for).
    """
    warn_read_whole(tokenizer.pattern, "the stream")
    pending = ""
    for piece in pieces:
        pending += piece
        # the last place where a cut cannot change the ids (cuts.py)
        cut = last_cut(pending, tokenizer.specials, tokenizer.pattern)
        if cut:
            yield from tokenizer.encode(pending[:cut])
            pending = pending[cut:]
    if pending:
        yield from tokenizer.encode(pending)


def decode_stream(tokenizer: Any, ids: Iterable[int]) -> Iterator[str]:
    """Yield text for ids as it is complete; a character split across tokens waits."""
    return decode_chunks(tokenizer, ([token_id] for token_id in ids))


def decode_chunks(tokenizer: Any, chunks: Iterable[list[int]]) -> Iterator[str]:
    """Yield text for lists of ids as it is complete: the bulk form of decode_stream."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    for chunk in chunks:
        text = decoder.decode(tokenizer.decode_bytes(chunk))
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail
