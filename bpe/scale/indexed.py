"""The indexed trainer: the naive trainer's merges, without recounting everything.

``trainer.naive_merges`` recounts every pair of the whole table for each merge.
Here pair totals and an index of the rows that hold each pair are built once; a
merge visits only the rows holding its pair and updates the totals in place. The
best pair is found either by a scan over all totals or with a lazy-deletion heap.
Both pick exactly what the naive loop picks, ties included. ``training.learn``
is the door to all three.
"""

from __future__ import annotations

import heapq
import time
from collections import defaultdict
from collections.abc import Callable, Mapping

Pair = tuple[int, int]  # two symbol ids


def descending(tok: bytes) -> tuple[int, ...]:
    """A key under which byte strings sort in reverse.

    >>> descending(b"b") < descending(b"a") and descending(b"ab") < descending(b"a")
    True

    Each byte is flipped and the end is marked with 256, above any flipped byte,
    so a string also sorts before its own prefixes, as reversed order requires.
    """
    return tuple(255 - b for b in tok) + (256,)


class IndexedTable:
    """Rows of symbol ids with counts, pair totals, and the rows holding each pair.

    ``table`` is a pre-token table as ``pretokenize`` makes it: {(b" ", b"a"): 5, ...},
    or one whose rows hold longer tokens (training that goes on from earlier merges).
    """

    def __init__(self, table: Mapping[tuple[bytes, ...], int]):
        self.symbols = [bytes([b]) for b in range(256)]  # symbol id -> its bytes
        self.symbol_id = {tok: i for i, tok in enumerate(self.symbols)}
        self.keys = list(map(descending, self.symbols))  # how ties sort, in the heap
        self.words = list(map(self.row, table))
        self.freqs = list(table.values())
        self.pairs = {}
        self.where = defaultdict(set)
        for i, (word, freq) in enumerate(zip(self.words, self.freqs, strict=True)):
            for pair in zip(word, word[1:], strict=False):
                self.pairs[pair] = self.pairs.get(pair, 0) + freq
                self.where[pair].add(i)

    def row(self, tok: tuple[bytes, ...]) -> list[int]:
        """A pre-token's symbol ids; a row of single bytes is its bytes, read in C."""
        joined = b"".join(tok)
        return list(joined) if len(joined) == len(tok) else list(map(self.symbol, tok))

    def symbol(self, tok: bytes) -> int:
        """The id of a token's bytes; two merges that spell the same bytes share one."""
        if tok not in self.symbol_id:
            self.symbol_id[tok] = len(self.symbols)
            self.symbols.append(tok)
            self.keys.append(descending(tok))
        return self.symbol_id[tok]

    def apply(self, pair: Pair) -> dict[Pair, int]:
        """Merge pair in each row that holds it; return {changed pair: total before}."""
        a, b = pair
        new = self.symbol(self.symbols[a] + self.symbols[b])
        words, freqs, where = self.words, self.freqs, self.where
        delta = defaultdict(int)
        for i in where.pop(pair):
            created = []
            word = merge_counting(words[i], a, b, new, freqs[i], delta, created)
            if word is not None:  # None: a stale entry, the row lost the pair
                words[i] = word
                for p in created:
                    where[p].add(i)
        return self.update_totals(delta)

    def update_totals(self, delta: Mapping[Pair, int]) -> dict[Pair, int]:
        """Add delta to the totals, dropping pairs at zero; {pair: total before}.

        A pair at zero is in no row: its list of rows goes too.
        """
        pairs, where, changed = self.pairs, self.where, {}
        for p, d in delta.items():
            if d:
                before = changed[p] = pairs.get(p, 0)
                if before + d > 0:
                    pairs[p] = before + d
                else:
                    del pairs[p]
                    where.pop(p, None)
        return changed


def merge_counting(
    word: list[int],
    a: int,
    b: int,
    new: int,
    freq: int,
    delta: defaultdict[Pair, int],
    created: list[Pair],
) -> list[int] | None:
    """merge(word, (a, b), new), also adding to delta how each pair's count changes.

    Only the neighbours of each occurrence change: (x, a) becomes (x, new) and
    (b, y) becomes (new, y). When two occurrences touch, as in a b a b, the pair
    between them, (b, a), becomes (new, new) and is counted once, from the right.
    The pairs that now hold ``new`` are appended to ``created``.
    Returns None when the pair does not occur.
    """
    out, i, n = [], 0, len(word)
    while i < n:
        if word[i] == a and i + 1 < n and word[i + 1] == b:
            delta[a, b] -= freq
            if i > 0:
                delta[word[i - 1], a] -= freq
                delta[out[-1], new] += freq
                created.append((out[-1], new))
            if i + 2 < n and not (i + 3 < n and word[i + 2] == a and word[i + 3] == b):
                delta[b, word[i + 2]] -= freq
                delta[new, word[i + 2]] += freq
                created.append((new, word[i + 2]))
            out.append(new)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out if len(out) < n else None


def pick_by_scan(table: IndexedTable) -> Pair | None:
    """The most frequent pair, ties to the greater pair of bytes, by a full scan."""
    if not table.pairs:
        return None
    top = max(table.pairs.values())
    tied = [p for p, n in table.pairs.items() if n == top]
    return max(tied, key=lambda p: (table.symbols[p[0]], table.symbols[p[1]]))


class PairHeap:
    """A max-heap of pairs under the same order as the scan, with lazy deletion."""

    def __init__(self, table: IndexedTable):
        self.table = table
        self.heap = [self.entry(p, n) for p, n in table.pairs.items()]
        heapq.heapify(self.heap)

    def entry(self, pair: tuple[int, int], count: int) -> tuple:
        keys = self.table.keys
        return (-count, keys[pair[0]], keys[pair[1]], pair)

    def pop(self) -> Pair | None:
        """The best pair, skipping entries whose count changed since they were filed."""
        pairs = self.table.pairs
        while self.heap:
            neg, _, _, pair = heapq.heappop(self.heap)
            current = pairs.get(pair, 0)
            if current == -neg:
                return pair
            if current:  # the count fell after this entry was pushed: re-file it
                heapq.heappush(self.heap, self.entry(pair, current))
        return None

    def update(self, changed: dict[Pair, int]) -> None:
        """Push the pairs whose count grew; those that shrank are re-filed on pop."""
        pairs = self.table.pairs
        for pair, before in changed.items():
            if pairs.get(pair, 0) > before:
                heapq.heappush(self.heap, self.entry(pair, pairs[pair]))


def indexed_merges(
    table: Mapping[tuple[bytes, ...], int],
    n_merges: int,
    use_heap: bool = True,
    progress: Callable | None = None,
) -> tuple[list[tuple[bytes, bytes]], float, float]:
    """Up to n_merges merges from a pre-token table: (merges, pick s, apply s)."""
    table = IndexedTable(table)
    heap = PairHeap(table) if use_heap else None
    merges, pick_seconds, apply_seconds = [], 0.0, 0.0
    while len(merges) < n_merges:
        t0 = time.perf_counter()
        best = heap.pop() if heap else pick_by_scan(table)
        t1 = time.perf_counter()
        pick_seconds += t1 - t0
        if best is None:
            break  # no pair left: the caller says so
        changed = table.apply(best)
        if heap:
            heap.update(changed)
        apply_seconds += time.perf_counter() - t1
        merges.append((table.symbols[best[0]], table.symbols[best[1]]))
        if progress:
            progress(1)
    return merges, pick_seconds, apply_seconds
