"""Encoding pre-tokens on integer ids: ``encode_word``'s answer, in time near-linear.

``encode_word`` rebuilds its word as a tuple of byte strings and scans all of it
for every merge: clear in a trace, but quadratic on a long piece (a million
repeated characters is one pre-token). ``PieceEncoder`` gives the same tokens on
ids, and encodes all the new pieces of a text together: their ids stand in one
list, a separator between pieces, and ``merge_rounds`` applies the merges in
rounds, one rank at a time, visiting only the places that hold the pair.
``PieceCache`` keeps what was encoded, so a word that comes back costs a lookup.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from heapq import heappop, heappush
from itertools import count, filterfalse, islice, repeat
from operator import itemgetter

from .compact import SHIFT

DEAD, BREAK = -1, -2  # ids never used by a token: a merged-away place, a piece's end
NEVER = 1 << 62  # sorts after every rank: a pair that is no merge
SHORT = 64  # bytes: shorter pieces are quicker one by one, longer ones in rounds
LONGEST_CACHED = 1024  # characters; a longer piece is encoded afresh each time


class PieceEncoder:
    """Pre-token text -> tuple of ids, as ``encode_word`` gives, for one or many pieces.

    ``merges`` are in rank order; ``token_id`` maps each token's bytes to its id.

    >>> token_id = {bytes([b]): b for b in range(256)} | {b"ow": 256, b"low": 257}
    >>> encode = PieceEncoder([(b"o", b"w"), (b"l", b"ow")], token_id)
    >>> encode("lower"), encode.all(["low", "wow"])
    ((257, 101, 114), [(257,), (119, 256)])
    """

    def __init__(
        self, merges: Sequence[tuple[bytes, bytes]], token_id: Mapping[bytes, int]
    ):
        ids = token_id.__getitem__  # C loops throughout: this runs for every tokenizer
        self.byte_id = [token_id[bytes([b])] for b in range(256)]
        self.pair_of = list(
            zip(
                map(ids, map(itemgetter(0), merges)),
                map(ids, map(itemgetter(1), merges)),
                strict=True,
            )
        )  # rank -> pair
        # rank of a pair, as one int (compact.py's key); a merge listed twice keeps
        # its last rank
        keys = (a << SHIFT | b for a, b in self.pair_of)
        self.rank_of = dict(zip(keys, count())).get
        self.merged_id = list(map(ids, map(b"".join, merges)))  # rank -> new token

    def __call__(self, piece: str) -> tuple[int, ...]:
        return self.all([piece])[0]

    def all(self, pieces: list[str]) -> list[tuple[int, ...]]:
        """The ids of each piece: short ones one by one, long ones together."""
        out, long = [], []
        for piece in pieces:
            data = piece.encode("utf-8")
            if len(data) > SHORT:
                long.append(data)
                out.append(None)  # filled in below
            else:
                out.append(tuple(self.short(list(map(self.byte_id.__getitem__, data)))))
        if long:
            found = iter(self.long(long))
            out = [next(found) if ids is None else ids for ids in out]
        return out

    def short(self, ids: list[int]) -> list[int]:
        """encode_word on the ids of a short piece: the lowest rank, everywhere, again.

        Plain loops over a few dozen ids, which the compiled module runs in C.
        """
        rank_of, pair_of, merged_id = self.rank_of, self.pair_of, self.merged_id
        while len(ids) > 1:
            best = NEVER
            for i in range(len(ids) - 1):
                rank = rank_of(ids[i] << SHIFT | ids[i + 1], NEVER)
                if rank < best:
                    best = rank
            if best == NEVER:
                return ids
            (a, b), new = pair_of[best], merged_id[best]
            n, read, write = len(ids), 0, 0
            while read < n:  # each (a, b), left to right, becomes new
                if ids[read] == a and read + 1 < n and ids[read + 1] == b:
                    ids[write], read = new, read + 2
                else:
                    ids[write], read = ids[read], read + 1
                write += 1
            del ids[write:]
        return ids

    def long(self, pieces: list[bytes]) -> list[tuple[int, ...]]:
        """The ids of long pieces (UTF-8), all encoded together by merge_rounds."""
        ids, byte_id = [], self.byte_id.__getitem__
        for data in pieces:
            ids += map(byte_id, data)
            ids.append(BREAK)
        merge_rounds(ids, self.rank_of, self.pair_of, self.merged_id)
        ids = [i for i in ids if i != DEAD]
        out, start = [], 0
        for _ in pieces:
            end = ids.index(BREAK, start)
            out.append(tuple(ids[start:end]))
            start = end + 1
        return out


def merge_rounds(
    ids: list[int], rank_of: Callable, pair_of: list, merged_id: list
) -> None:
    """Apply merges to ids in place, as ``encode_word`` does to each piece (to a BREAK).

    Each round takes the lowest rank present anywhere and merges every place that
    holds its pair, left to right; merged-away places become DEAD. ``where`` keeps,
    for each rank, the places where its pair was seen, so a round visits only those,
    and a merge only looks at its two new neighbours: about n log n steps in all.
    """
    n = len(ids)
    after = list(range(1, n + 1))  # the next live place (n: none)
    before = [-1, 0, *after[: n - 1]]  # the previous live place (-1: none)
    ids.append(BREAK)  # a guard at place n, so that after[p] always indexes ids
    # a pair is one int, as in rank_of; one holding BREAK or DEAD is no merge
    keys = [x << SHIFT | y for x, y in zip(ids, islice(ids, 1, n), strict=False)]
    ranks = list(map(rank_of, keys, repeat(NEVER)))
    order = sorted(range(n - 1), key=ranks.__getitem__)  # by rank, then by place
    ranks.sort()  # the same ranks, in the order of order
    where, lo = {}, 0
    while lo < len(ranks) and ranks[lo] != NEVER:
        hi = bisect_right(ranks, ranks[lo], lo)
        where[ranks[lo]] = order[lo:hi]
        lo = hi
    heap = list(where)  # sorted, so already a heap
    while heap:
        rank = heappop(heap)
        (a, b), new = pair_of[rank], merged_id[rank]
        places = where.pop(rank)
        places.sort()
        merged = []
        for p in places:  # left to right; a stale place no longer holds (a, b)
            if ids[p] == a:
                q = after[p]
                if ids[q] == b:
                    ids[p], ids[q] = new, DEAD
                    s = after[p] = after[q]
                    before[s] = p
                    merged.append(p)
        last = -1
        # File the new pairs, (left, p) and (p, right), for later rounds.
        for p in merged:
            left = before[p]
            if left >= 0 and left != last:  # (last, p) was filed as last's right pair
                r = rank_of(ids[left] << SHIFT | new)
                if r is not None:
                    file(where, heap, r, left)
            r = rank_of(new << SHIFT | ids[after[p]])
            if r is not None:
                file(where, heap, r, p)
            last = p
    ids.pop()


def file(where: dict, heap: list, rank: int, place: int) -> None:
    """Note that the pair at place is the merge of this rank."""
    places = where.get(rank)
    if places is None:
        where[rank] = [place]
        heappush(heap, rank)
    else:
        places.append(place)


class PieceCache(dict):
    """Pre-token -> ids, kept after the first time; at ``maxsize``, it starts afresh.

    A hit is a plain dict lookup, with no bookkeeping (cheaper than an LRU, and a
    forked worker writes to fewer shared pages). Starting afresh when full keeps
    memory bounded and follows a change of subject; very long pieces are not kept.
    """

    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize

    def table(
        self, pieces: list[str], encode_all: Callable
    ) -> Mapping[str, tuple[int, ...]]:
        """A dict holding every piece's ids: this cache, once encode_all fills it in."""
        distinct = set(pieces)
        # Not distinct.difference(self), which would walk the whole cache (this
        # subclass of dict is not a dict to it).
        new = list(filterfalse(self.__contains__, distinct))
        if not new:
            return self
        found = dict(zip(new, encode_all(new), strict=True))
        kept = [p for p in new if len(p) <= LONGEST_CACHED]  # a very long one is not
        if len(self) + len(kept) > self.maxsize:
            # Too many for what is left of the cache: this text's pieces replace it.
            found.update((p, self[p]) for p in distinct.difference(found))
            self.clear()
            short = (item for item in found.items() if len(item[0]) <= LONGEST_CACHED)
            self.update(islice(short, self.maxsize))
            return found
        if len(kept) == len(found):
            self.update(found)
            return self
        table = {p: self[p] for p in distinct.difference(found)} | found
        self.update((p, found[p]) for p in kept)  # the cache stays as it was, plus kept
        return table
