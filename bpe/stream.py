"""Encoding many texts at once, or one text too large for memory, and decoding as a stream.

``tokenizer.py`` encodes one string in memory. Here ``encode_iterable`` takes the
text in pieces (a file's lines, say) and yields ids as soon as they are certain:
it encodes up to the last point where cutting cannot change the result, and
carries the rest over. ``decode_stream`` does the reverse without ever emitting
half a character. ``encode_batch`` spreads a list of texts over processes.
"""
import array
import codecs
import gc
import multiprocessing
import os
from itertools import chain

import regex

from .pretokenize import PAT

SPACE = regex.compile(r"\s")  # the pattern's own idea of whitespace


def safe_end(text, tokenizer):
    """The last index at which text may be cut without changing its encoding (0 if none).

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
    """Yield the ids of "".join(pieces), holding only the text since the last safe cut."""
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
    """Yield text for ids as it becomes complete; a character split across tokens waits for its end."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    for token_id in ids:
        text = decoder.decode(tokenizer.decode_single_token_bytes(token_id))
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail


def slices(texts, n):
    """Split texts into n contiguous runs of about equal total length (some may be empty)."""
    total = sum(len(t) for t in texts) or 1
    cuts, running, k = [0], 0, 1
    for i, t in enumerate(texts):
        running += len(t)
        while k < n and running >= total * k / n:
            cuts.append(i + 1)
            k += 1
    cuts += [len(texts)] * (n + 1 - len(cuts))
    return [texts[a:b] for a, b in zip(cuts, cuts[1:])]


def _encode_share(tokenizer, texts, options, conn):
    """In a forked worker: encode texts and send the ids back as two flat arrays."""
    try:
        encoded = [tokenizer.encode(t, **options) for t in texts]
        conn.send_bytes(array.array("q", map(len, encoded)).tobytes())
        conn.send_bytes(array.array("q", chain.from_iterable(encoded)).tobytes())
    except BaseException as error:  # report it instead of dying silently
        conn.send_bytes(b"")
        conn.send(error)
    finally:
        conn.close()


def _receive(conn):
    """The list of id lists a worker sent, or its exception re-raised here."""
    lengths = conn.recv_bytes()
    if not lengths:
        raise conn.recv()
    sizes, flat = array.array("q"), array.array("q")
    sizes.frombytes(lengths)
    flat.frombytes(conn.recv_bytes())
    ids, out, start = flat.tolist(), [], 0
    for n in sizes:
        out.append(ids[start:start + n])
        start += n
    return out


def encode_batch(tokenizer, texts, workers=None, **options):
    """[tokenizer.encode(t, **options) for t in texts], with the work shared by processes.

    The parent encodes the first share itself while workers-1 forked processes encode
    the others and send their ids back as flat arrays (cheaper than pickled lists).
    Garbage collection is paused meanwhile: the id lists hold no cycles, and a
    collection would only walk the cache again (and, in a worker, copy its pages).
    """
    texts = list(texts)
    workers = min(workers or os.cpu_count() or 1, len(texts))
    collecting = gc.isenabled()
    gc.disable()
    try:
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return [tokenizer.encode(t, **options) for t in texts]
        ctx = multiprocessing.get_context("fork")
        shares = slices(texts, workers)
        children = []
        for share in shares[1:]:
            receive, send = ctx.Pipe(duplex=False)
            process = ctx.Process(target=_encode_share, args=(tokenizer, share, options, send), daemon=True)
            process.start()
            send.close()
            children.append((process, receive))
        results = [tokenizer.encode(t, **options) for t in shares[0]]
        for process, receive in children:
            results += _receive(receive)
            process.join()
        return results
    finally:
        if collecting:
            gc.enable()
