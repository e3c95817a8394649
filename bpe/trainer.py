"""The core's trainer: count every pair, merge the most frequent, repeat.

One of three homes of training, and the one the book teaches: ``bpe.train``
(``scale/training.py``) learns the same merges faster, and ``scale/pipeline.py``
trains on files and streams; both are tested against this module.

``naive_merges`` recounts every pair of the whole pre-token table for each merge:
simple, plainly correct, and the reference that the faster trainer of
``scale/indexed.py`` is tested against, merge by merge. ``train`` is the whole
recipe, from text to vocabulary.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Iterable

from .pretokenizer import (
    BYTE_TOKENS,
    PAT,
    byte_table,
    check_specials,
    check_text,
    count_strings,
)

Pair = tuple[bytes, bytes]
Table = dict[tuple[bytes, ...], int]  # {pre-token as a tuple of tokens: its count}


def count_pairs(table: Table) -> Counter[Pair]:
    """Total count of each adjacent pair over the table, duplicates kept.

    >>> count_pairs({(b"a", b"a", b"a"): 2})
    Counter({(b'a', b'a'): 4})
    """
    pairs = Counter()
    for tok, freq in table.items():
        for pair in zip(tok, tok[1:], strict=False):
            pairs[pair] += freq
    return pairs


def merge(tok: tuple[bytes, ...], pair: Pair, new: bytes) -> tuple[bytes, ...]:
    """tok with every non-overlapping pair, scanned from the left, made one token.

    >>> merge((b"a", b"a", b"a"), (b"a", b"a"), b"aa")
    (b'aa', b'a')
    """
    out, i = [], 0
    while i < len(tok):
        if i + 1 < len(tok) and tok[i] == pair[0] and tok[i + 1] == pair[1]:
            out.append(new)
            i += 2  # skip both halves: a match never overlaps the next one
        else:
            out.append(tok[i])
            i += 1
    return tuple(out)


def greater_pair(pair: Pair, token_id: dict[bytes, int]) -> Pair:
    """The article's tie-break: among equal counts, the lexicographically greater pair.

    >>> max([(b"e", b"s"), (b"s", b"t")], key=lambda p: greater_pair(p, {}))
    (b's', b't')
    """
    return pair


def lowest_ids(pair: Pair, token_id: dict[bytes, int]) -> tuple[int, int]:
    """The lesson's tie-break: among equal counts, the pair of older (smaller) ids.

    >>> ids = {b"e": 101, b"s": 115, b"t": 116}
    >>> max([(b"e", b"s"), (b"s", b"t")], key=lambda p: lowest_ids(p, ids))
    (b'e', b's')
    """
    return (-token_id[pair[0]], -token_id[pair[1]])


def check_vocab_size(vocab_size: int, specials: tuple[str, ...]) -> int:
    """The number of merges vocab_size asks for; refuse a vocabulary too small.

    >>> check_vocab_size(300, ("<|endoftext|>",))
    43
    """
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    if vocab_size < 256 + len(specials):
        raise ValueError(
            f"vocab_size={vocab_size} is too small: the 256 byte tokens "
            f"and {len(specials)} special token(s) already need "
            f"{256 + len(specials)}"
        )
    return vocab_size - 256 - len(specials)


class OutOfPairs(UserWarning):
    """Training stopped before vocab_size: no pair of tokens was left to merge."""


def warn_out_of_pairs(done: int, wanted: int, stacklevel: int = 3) -> None:
    """Say that training stopped early, and why (the public entry points call this)."""
    warnings.warn(
        f"ran out of pairs to merge after {done} of {wanted} merges; "
        "the vocabulary is smaller than asked",
        OutOfPairs,
        stacklevel=stacklevel,
    )


def naive_merges(
    table: Table,
    n_merges: int,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
    token_id: dict[bytes, int] | None = None,
) -> list[Pair]:
    """Up to n_merges merges, each found by recounting every pair of the table.

    ``on_merge(pairs, best)`` is called before each merge, for traces. ``token_id``
    holds the ids of the tokens the table is made of, for the tie-break: by default
    the 256 bytes; a table that goes on from earlier merges passes their ids too.
    """
    token_id = dict(token_id or zip(BYTE_TOKENS, range(256), strict=True))
    next_id = max(token_id.values()) + 1  # each new token takes the next free id
    merges = []
    while len(merges) < n_merges:
        pairs = count_pairs(table)  # naive: recount everything every round
        if not pairs:
            break  # every pre-token is a single token: nothing left to merge
        best = max(pairs, key=lambda p: (pairs[p], tie_break(p, token_id)))
        if on_merge:
            on_merge(pairs, best)
        new = best[0] + best[1]
        merged = Counter()
        for tok, freq in table.items():
            merged[merge(tok, best, new)] += freq  # two rows can become one
        table = merged
        token_id.setdefault(new, next_id + len(merges))
        merges.append(best)
    return merges


def vocab_from_merges(merges: list[Pair], specials: Iterable[str]) -> dict[int, bytes]:
    """The vocabulary a merge list implies: the bytes, one entry per merge, specials."""
    vocab = dict(enumerate(BYTE_TOKENS))
    for left, right in merges:
        vocab[len(vocab)] = left + right
    for s in specials:  # after the last merge: each special gets the next free id
        vocab[len(vocab)] = s.encode("utf-8")
    return vocab


def train(
    text: str,
    vocab_size: int,
    specials: Iterable[str] = (),
    pattern: str | None = PAT,
    tie_break: Callable = greater_pair,
    on_merge: Callable | None = None,
) -> tuple[dict[int, bytes], list[Pair]]:
    """Learn merges until the vocabulary has vocab_size entries (specials included).

    Returns (vocab, merges): vocab maps id -> bytes (ids 0..255 are the bytes),
    merges lists (left, right) pairs in the order they were learned. Training
    stops early, with an ``OutOfPairs`` warning, when no pair is left to merge.

    >>> vocab, merges = train("low low low", 258)
    >>> merges
    [(b'o', b'w'), (b'l', b'ow')]
    """
    specials = check_specials(specials)
    wanted = check_vocab_size(vocab_size, specials)
    table = byte_table(count_strings(check_text(text), specials, pattern))
    merges = naive_merges(table, wanted, tie_break, on_merge)
    if len(merges) < wanted:
        warn_out_of_pairs(len(merges), wanted)
    return vocab_from_merges(merges, specials), merges
