"""The naive trainer: recount every pair, merge the best, repeat.

This is the version to read. It recounts the whole pre-token table on every
merge, which is simple and obviously correct; the fast trainers are checked
against it merge by merge.
"""
import warnings
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


METHODS = ("naive", "scan", "heap")


def check_method(method):
    """Refuse an unknown training method before any work is done."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, not {method!r}")


class OutOfPairs(UserWarning):
    """Training stopped before vocab_size: no pair of tokens was left to merge."""


def out_of_pairs(done, wanted):
    """Say that training stopped early, and why."""
    warnings.warn(f"ran out of pairs to merge after {done} of {wanted} merges; "
                  f"the vocabulary is smaller than asked", OutOfPairs, stacklevel=4)


def vocab_from_merges(merges, specials):
    """The vocabulary a merge list implies: 256 bytes, one entry per merge, then the specials."""
    vocab = {i: bytes([i]) for i in range(256)}
    for left, right in merges:
        vocab[len(vocab)] = left + right
    return add_specials(vocab, specials)


def add_specials(vocab, specials):
    """Append special tokens after the last merge: each gets the next free id."""
    for s in specials:
        vocab[len(vocab)] = s.encode("utf-8")
    return vocab


def train(text, vocab_size, specials=(), pattern=PAT, tie_break=greater_pair, on_merge=None,
          method="naive"):
    """Learn merges until the vocabulary has vocab_size entries (specials included).

    Returns (vocab, merges): vocab maps id -> bytes (ids 0..255 are the bytes),
    merges lists (left, right) pairs in the order they were learned. Training
    stops early, with a warning, when no pair is left to merge.
    ``method="naive"`` recounts everything for each merge and accepts ``tie_break``
    and ``on_merge(pairs, best)``; ``"scan"`` and ``"heap"`` (fast.py) learn the
    same merges with the default tie-break.
    """
    check_text(text)
    specials = check_specials(specials)
    check_vocab_size(vocab_size, specials)
    check_method(method)
    counts = pretokenize(text, specials, pattern)
    n_merges = vocab_size - 256 - len(specials)
    if method == "naive":
        merges = naive_merges(counts, n_merges, tie_break, on_merge)
    else:
        from .fast import train_table

        if tie_break is not greater_pair or on_merge is not None:
            raise ValueError(f"method={method!r} supports only the default tie_break and no on_merge")
        merges = train_table({b"".join(tok): n for tok, n in counts.items()}, n_merges, method)[0]
    return vocab_from_merges(merges, specials), merges


def naive_merges(counts, n_merges, tie_break=greater_pair, on_merge=None):
    """Up to n_merges merges, each found by recounting every pair of the table."""
    token_id = {bytes([i]): i for i in range(256)}
    merges = []
    while len(merges) < n_merges:
        pairs = count_pairs(counts)  # naive: recount everything every round
        if not pairs:
            out_of_pairs(len(merges), n_merges)
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
        token_id.setdefault(new, 256 + len(merges) - 1)
    return merges
