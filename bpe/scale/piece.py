"""Encoding one pre-token on integer ids: the fast twin of ``tokenizer.encode_word``.

``encode_word`` works on byte strings so that its traces read well; it rebuilds the
word as a tuple of bytes at every step. ``PieceEncoder`` gives the same answer on
ids: pairs of ids are looked up in one dict, the word is a list edited in place,
and the scans are done by C built-ins (``map``, ``min``, ``list.index``). The
encoder only runs on a cache miss (``PieceCache``), so this matters most for the
first pass over new text (``Tokenizer.encode_batch`` from an empty cache, say).
"""

from itertools import repeat

NEVER = float("inf")  # the rank of a pair that was never merged


class PieceEncoder:
    """Text of one pre-token -> tuple of ids, lowest-rank merge first, as encode_word.

    ``rank`` maps each merge's pair of bytes to its rank, ``token_id`` each token's
    bytes to its id.

    >>> token_id = {bytes([b]): b for b in range(256)} | {b"ow": 256, b"low": 257}
    >>> PieceEncoder({(b"o", b"w"): 0, (b"l", b"ow"): 1}, token_id)("lower")
    (257, 101, 114)
    """

    def __init__(self, rank, token_id):
        self.byte_id = [token_id[bytes([b])] for b in range(256)]
        self.rank_of = {(token_id[a], token_id[b]): r for (a, b), r in rank.items()}.get
        self.merged_id = {r: token_id[a + b] for (a, b), r in rank.items()}

    def __call__(self, piece):
        ids = [self.byte_id[b] for b in piece.encode("utf-8")]
        while len(ids) > 1:
            ranks = list(map(self.rank_of, zip(ids, ids[1:]), repeat(NEVER)))
            best = min(ranks)
            if best == NEVER:
                break
            merge_at(ids, ranks, best, self.merged_id[best])
        return tuple(ids)


def merge_at(ids, ranks, best, new):
    """Replace each pair whose rank is best by new, left to right, without overlap.

    >>> ids = [7, 7, 7]
    >>> merge_at(ids, [0, 0], 0, 9)
    >>> ids
    [9, 7]
    """
    first = ranks.index(best)
    if ranks.count(best) == 1:  # the common case: one occurrence
        ids[first : first + 2] = (new,)
        return
    starts = [first]
    for j in range(first + 2, len(ranks)):
        if ranks[j] == best and j >= starts[-1] + 2:
            starts.append(j)
    for j in reversed(starts):  # from the right, so earlier positions stay valid
        ids[j : j + 2] = (new,)


class PieceCache(dict):
    """Pre-token -> ids, encoded on first use: " low" is merged once, then looked up.

    A hit is a plain dict lookup, with no bookkeeping (cheaper than an LRU, and a
    forked worker writes to fewer shared pages). At ``maxsize`` entries it starts
    afresh, so memory stays bounded and a change of subject is followed.
    """

    def __init__(self, encode, maxsize):
        super().__init__()
        self.encode, self.maxsize = encode, maxsize

    def __missing__(self, piece):
        ids = self.encode(piece)
        if len(self) >= self.maxsize:
            self.clear()
        self[piece] = ids
        return ids
