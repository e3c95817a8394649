"""Measuring tokenizers: compression, the shape of a vocabulary, and how two vocabularies differ.

``display.py`` only formats; the functions here compute the figures the data
chapters report. They accept either this package's ``Tokenizer`` or a
``tiktoken.Encoding``, anything with an ``encode`` that maps text to ids.
"""

from collections import Counter

from ..train import vocab_from_merges


def encode_plain(encoder, text):
    """Ids for text, treating any special-token spelling as ordinary text for tiktoken encodings."""
    if hasattr(encoder, "encode_ordinary"):
        return encoder.encode_ordinary(text)
    return encoder.encode(text)


def compression(encoder, texts):
    """Bytes, tokens and bytes per token over texts, each text encoded on its own.

    >>> import bpe
    >>> compression(bpe.Tokenizer(*bpe.train("low low", 259)), ["low low"])
    {'bytes': 7, 'tokens': 2, 'bytes per token': 3.5}
    """
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    n_tokens = sum(len(encode_plain(encoder, t)) for t in texts)
    return {
        "bytes": n_bytes,
        "tokens": n_tokens,
        "bytes per token": n_bytes / n_tokens if n_tokens else 0.0,
    }


def exact_round_trips(tokenizer, texts):
    """How many texts decode back to exactly themselves."""
    return sum(tokenizer.decode(tokenizer.encode(t)) == t for t in texts)


def learned(merges):
    """The token each merge created, in order.

    >>> learned([(b"s", b"t"), (b"e", b"st")])
    [b'st', b'est']
    """
    return [a + b for a, b in merges]


def longest(merges, n=10):
    """The n longest learned tokens, longest first, ties in byte order."""
    return sorted(set(learned(merges)), key=lambda t: (-len(t), t))[:n]


def space_share(merges):
    """(learned tokens that start with a space, all learned tokens)."""
    tokens = learned(merges)
    return sum(t.startswith(b" ") for t in tokens), len(tokens)


def length_histogram(merges):
    """{length in bytes: how many learned tokens have it}, shortest first."""
    return dict(sorted(Counter(len(t) for t in learned(merges)).items()))


def compare(merges_a, vocab_a, merges_b, vocab_b):
    """Shared vocabulary entries, and where two merge lists first differ (1-based; None if never)."""
    shared = len(set(vocab_a.values()) & set(vocab_b.values()))
    first = next(
        (i for i, (x, y) in enumerate(zip(merges_a, merges_b)) if x != y), None
    )
    if first is None and len(merges_a) != len(merges_b):
        first = min(len(merges_a), len(merges_b))
    return {
        "shared entries": shared,
        "first differing merge": None if first is None else first + 1,
        "merges": (
            merges_a[first] if first is not None and first < len(merges_a) else None,
            merges_b[first] if first is not None and first < len(merges_b) else None,
        ),
    }


def compare_at(merges_a, merges_b, n, specials=()):
    """compare() for the vocabularies of the first n merges of each list."""
    a, b = merges_a[:n], merges_b[:n]
    return compare(a, vocab_from_merges(a, specials), b, vocab_from_merges(b, specials))


def text_stats(texts):
    """Characters, UTF-8 bytes and whitespace-separated words over texts."""
    return {
        "characters": sum(len(t) for t in texts),
        "UTF-8 bytes": sum(len(t.encode("utf-8")) for t in texts),
        "words": sum(len(t.split()) for t in texts),
    }


def language_costs(encoders, pairs):
    """Per tokenizer: tokens and bytes per token for each side of (English, Vietnamese) pairs."""
    english, vietnamese = [en for en, _ in pairs], [vi for _, vi in pairs]
    rows = {}
    for name, encoder in encoders.items():
        en, vi = compression(encoder, english), compression(encoder, vietnamese)
        rows[name] = {
            "English tokens": en["tokens"],
            "English bytes per token": en["bytes per token"],
            "Vietnamese tokens": vi["tokens"],
            "Vietnamese bytes per token": vi["bytes per token"],
            "Vietnamese / English": vi["tokens"] / en["tokens"],
        }
    return rows


def split_tokens(encoder, text):
    """The byte strings of text's tokens.

    >>> from bpe.interop.openai import get_encoding
    >>> split_tokens(get_encoding("gpt2"), "Xin")
    [b'X', b'in']
    """
    ids = encode_plain(encoder, text)
    if hasattr(encoder, "decode_single_token_bytes"):
        return [encoder.decode_single_token_bytes(i) for i in ids]
    return [encoder.vocab[i] for i in ids]


def changed_texts(before, after, texts):
    """How many of texts after encodes to other ids than before does."""
    return sum(encode_plain(before, t) != encode_plain(after, t) for t in texts)


def first_merges(extended, start, n):
    """The tokenizer that extends start by only the first n of extended's new merges.

    Training is greedy, so it is what asking for n merges would have learned.
    """
    from ..scale.tokenizer import Tokenizer

    last = max(start.vocab) + n
    vocab = {i: t for i, t in extended.vocab.items() if i <= last}
    merges = extended.merges[: len(start.merges) + n]
    return Tokenizer(vocab, merges, start.specials, start.pattern)


def fewest(enough, most):
    """The smallest n in 0..most for which enough(n) holds, by bisection.

    enough must stay true once it is (as "this many merges reach the target" does
    when more merges never cost tokens); None if enough(most) is false.

    >>> fewest(lambda n: n * n >= 50, 100)
    8
    """
    if not enough(most):
        return None
    lo, hi = 0, most
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid + 1, hi)
    return lo


def entries(encoder):
    """How many tokens a vocabulary holds, special tokens included.

    >>> from bpe.interop.openai import get_encoding
    >>> entries(get_encoding("gpt2"))
    50257
    """
    if hasattr(encoder, "vocab"):
        return len(encoder.vocab)
    return len(encoder.token_byte_values()) + len(encoder.special_tokens_set)
