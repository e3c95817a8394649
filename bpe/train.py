"""The naive trainer: recount every pair, merge the best, repeat.

This is the version to read. It recounts the whole pre-token table on every
merge, which is simple and obviously correct; the fast trainers are checked
against it merge by merge.
"""
from collections import Counter

from .pretokenize import PAT, check_specials, check_text, pretokenize


def count_pairs(counts):
    """Total count of each adjacent pair over the table, duplicates kept.

    count_pairs({(b"a", b"a", b"a"): 2}) == Counter({(b"a", b"a"): 4})
    """
    pairs = Counter()
    for tok, freq in counts.items():
        for pair in zip(tok, tok[1:]):
            pairs[pair] += freq
    return pairs


def merge(tok, pair, new):
    """Replace each occurrence of pair in tok, left to right, without overlap.

    merge((b"a", b"a", b"a"), (b"a", b"a"), b"aa") == (b"aa", b"a")
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


def greater_pair(pair, token_id):
    """The article's tie-break: among equal counts the lexicographically greater pair wins.

    max([(b"e", b"s"), (b"s", b"t")], key=lambda p: greater_pair(p, {})) == (b"s", b"t")
    """
    return pair


def lowest_ids(pair, token_id):
    """The lesson's tie-break: among equal counts the pair of older tokens (smaller ids) wins.

    lowest_ids((b"a", b"b"), {b"a": 97, b"b": 98}) == (-97, -98)
    """
    return (-token_id[pair[0]], -token_id[pair[1]])


def check_vocab_size(vocab_size, specials):
    """Refuse a vocabulary too small for the 256 bytes and the special tokens."""
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    if vocab_size < 256 + len(specials):
        raise ValueError(
            f"vocab_size={vocab_size} is too small: the 256 byte tokens and "
            f"{len(specials)} special token(s) already need {256 + len(specials)}"
        )


def add_specials(vocab, specials):
    """Append special tokens after the last merge: each gets the next free id."""
    for s in specials:
        vocab[len(vocab)] = s.encode("utf-8")
    return vocab


def train(text, vocab_size, specials=(), pattern=PAT, tie_break=greater_pair, on_merge=None):
    """Learn merges until the vocabulary has vocab_size entries (specials included).

    Returns (vocab, merges): vocab maps id -> bytes (ids 0..255 are the bytes),
    merges lists (left, right) pairs in the order they were learned. Training
    stops early, with fewer merges, when no pair is left to merge.
    ``on_merge(pairs, best)`` is called before each merge with the pair counts.
    """
    check_text(text)
    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    counts = pretokenize(text, specials, pattern)
    vocab = {i: bytes([i]) for i in range(256)}
    token_id = {tok: i for i, tok in vocab.items()}
    merges = []
    while len(vocab) < vocab_size - len(specials):
        pairs = count_pairs(counts)  # naive: recount everything every round
        if not pairs:
            break
        best = max(pairs, key=lambda p: (pairs[p], tie_break(p, token_id)))
        if on_merge:
            on_merge(pairs, best)
        new = best[0] + best[1]
        merged = Counter()
        for tok, freq in counts.items():
            merged[merge(tok, best, new)] += freq  # two rows can become one
        counts = merged
        merges.append(best)
        token_id.setdefault(new, len(vocab))
        vocab[len(vocab)] = new
    return add_specials(vocab, specials), merges
