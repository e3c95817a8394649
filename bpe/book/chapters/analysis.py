"""Measuring tokenizers: compression, a vocabulary's shape, how two vocabularies differ.

``display.py`` only formats; the functions here compute the figures the data
chapters report. They accept either this package's ``Tokenizer`` or a
``tiktoken.Encoding``, anything with an ``encode`` that maps text to ids (hence
``encoder: Any``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bpe.trainer import Pair, vocab_from_merges

if TYPE_CHECKING:
    from bpe.tokenizer import Tokenizer


def encode_plain(encoder: Any, text: str) -> list[int]:
    """Ids for text; a tiktoken encoding reads special-token spellings as plain text."""
    if hasattr(encoder, "encode_ordinary"):
        return encoder.encode_ordinary(text)
    return encoder.encode(text)


def compression(encoder: Any, texts: list[str]) -> dict[str, float]:
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


def exact_round_trips(tokenizer: Any, texts: list[str]) -> int:
    """How many texts decode back to exactly themselves."""
    return sum(tokenizer.decode(tokenizer.encode(t)) == t for t in texts)


def learned(merges: list[Pair]) -> list[bytes]:
    """The token each merge created, in order.

    >>> learned([(b"s", b"t"), (b"e", b"st")])
    [b'st', b'est']
    """
    return [a + b for a, b in merges]


def longest(merges: list[Pair], n: int = 10) -> list[bytes]:
    """The n longest learned tokens, longest first, ties in byte order."""
    return sorted(set(learned(merges)), key=lambda t: (-len(t), t))[:n]


def space_share(merges: list[Pair]) -> tuple[int, int]:
    """(learned tokens that start with a space, all learned tokens)."""
    tokens = learned(merges)
    return sum(t.startswith(b" ") for t in tokens), len(tokens)


def length_histogram(merges: list[Pair]) -> dict[int, int]:
    """{length in bytes: how many learned tokens have it}, shortest first."""
    return dict(sorted(Counter(len(t) for t in learned(merges)).items()))


def compare(
    merges_a: list[Pair],
    vocab_a: dict[int, bytes],
    merges_b: list[Pair],
    vocab_b: dict[int, bytes],
) -> dict[str, Any]:
    """Shared vocabulary entries, and where two merge lists first differ.

    The place is 1-based, and None if the lists never differ.
    """
    shared = len(set(vocab_a.values()) & set(vocab_b.values()))
    first = next(
        (i for i, (x, y) in enumerate(zip(merges_a, merges_b, strict=False)) if x != y),
        None,
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


def compare_at(
    merges_a: list[Pair], merges_b: list[Pair], n: int, specials: Sequence[str] = ()
) -> dict[str, Any]:
    """compare() for the vocabularies of the first n merges of each list."""
    a, b = merges_a[:n], merges_b[:n]
    return compare(a, vocab_from_merges(a, specials), b, vocab_from_merges(b, specials))


def text_stats(texts: list[str]) -> dict[str, int]:
    """Characters, UTF-8 bytes and whitespace-separated words over texts."""
    return {
        "characters": sum(len(t) for t in texts),
        "UTF-8 bytes": sum(len(t.encode("utf-8")) for t in texts),
        "words": sum(len(t.split()) for t in texts),
    }


def language_costs(
    encoders: dict[str, Any], pairs: list[tuple[str, str]]
) -> dict[str, dict[str, float]]:
    """Per tokenizer: tokens and bytes per token on each side of the pairs.

    pairs are (English, Vietnamese) sentences.
    """
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


def split_tokens(encoder: Any, text: str) -> list[bytes]:
    """The byte strings of text's tokens.

    >>> from bpe.interop.openai import get_encoding
    >>> split_tokens(get_encoding("gpt2"), "Xin")
    [b'X', b'in']
    """
    ids = encode_plain(encoder, text)
    if hasattr(encoder, "decode_single_token_bytes"):
        return [encoder.decode_single_token_bytes(i) for i in ids]
    return [encoder.vocab[i] for i in ids]


def changed_texts(before: Any, after: Any, texts: Iterable[str]) -> int:
    """How many of texts after encodes to other ids than before does."""
    return sum(encode_plain(before, t) != encode_plain(after, t) for t in texts)


def first_merges(extended: Tokenizer, start: Tokenizer, n: int) -> Tokenizer:
    """The tokenizer that extends start by only the first n of extended's new merges.

    Training is greedy, so it is what asking for n merges would have learned. It
    reads Unicode as start does.
    """
    from bpe.scale.tokenizer import Tokenizer

    last = max(start.vocab) + n
    vocab = {i: t for i, t in extended.vocab.items() if i <= last}
    merges = extended.merges[: len(start.merges) + n]
    return Tokenizer(
        vocab, merges, start.specials, start.pattern, unicode=start.unicode
    )


def fewest(enough: Callable[[int], bool], most: int) -> int:
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


def entries(encoder: Any) -> int:
    """How many tokens a vocabulary holds, special tokens included.

    >>> from bpe.interop.openai import get_encoding
    >>> entries(get_encoding("gpt2"))
    50257
    """
    if hasattr(encoder, "vocab"):
        return len(encoder.vocab)
    return len(encoder.token_byte_values()) + len(encoder.special_tokens_set)
