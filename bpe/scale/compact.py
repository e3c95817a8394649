"""The compact trainer: the indexed trainer's merges, in less time and memory.

``indexed.py`` is the trainer the book explains: pairs are tuples, each pair's rows
a set, and each merged row is built anew. This is the same algorithm (pair totals,
an index from each pair to its rows, a lazy heap), written for what CPython does
fast, because with hundreds of thousands of distinct pre-tokens applying the
merges is most of the time:

- a pair is one int, ``x << SHIFT | y``: a dict hashes it at once, and making one
  costs less than making a tuple;
- a row is one list, its count first, then its symbol ids; each pair's rows are
  a list of those lists, only ever appended to, so a merge goes straight to the
  rows (no row number to look up); a row that has since lost the pair, or comes
  twice, is merely visited for nothing;
- a row is merged in place, in one pass that copies it onto itself: a loop
  plain enough that a compiler (``compiled.py``) turns it into C;
- rows of one symbol, which hold no pair, are not kept.

The picks, ties included, are the indexed trainer's, hence the naive trainer's
(tests/test_fast.py compares all of them).
"""

from __future__ import annotations

import gc
import heapq
import itertools
import time
from collections.abc import Callable, MutableMapping

from .indexed import IndexedTable, descending

try:  # the C types the compiled module uses; as Python, the decorators do nothing
    import cython
except ImportError:  # no Cython here (the page's Python): its stand-in
    from . import _cython as cython

SHIFT = 32  # a pair (x, y) of symbol ids is the int x << SHIFT | y
LOW = (1 << SHIFT) - 1
FLOOR_SHARE = 16  # the heap files pairs counted above top count // FLOOR_SHARE


class CompactTable:
    """Rows of symbol ids with counts, pair totals, and the rows holding each pair.

    ``table`` is a pre-token table, as for ``indexed.IndexedTable``, or the
    {pre-token string: count} it is made from (its rows are then the UTF-8 bytes).
    With ``taken``, the table is emptied as it is read, so that what it held is
    freed while the rows are built.
    """

    def __init__(
        self, table: MutableMapping[tuple[bytes, ...] | str, int], taken: bool = False
    ):
        self.symbols = [bytes([b]) for b in range(256)]  # symbol id -> its bytes
        self.symbol_id = {tok: i for i, tok in enumerate(self.symbols)}
        self.keys = list(map(descending, self.symbols))  # how ties sort, in the heap
        self.pairs: dict[int, int] = {}  # pair -> its total count
        self.where: dict[int, list[list[int]]] = {}  # pair -> rows that held it
        items = iter(table.popitem, None) if taken else iter(table.items())
        for tok, freq in itertools.islice(items, len(table)):
            row = self.row(tok, freq)
            if len(row) > 2:  # a row of one symbol holds no pair
                self.add_row(row)
        if taken:  # emptied by popitem, a dict keeps its size: clear gives it back
            table.clear()

    def row(self, tok: tuple[bytes, ...] | str, freq: int) -> list[int]:
        """[freq, then the pre-token's symbol ids]; single bytes are read in C.

        A list joined to a list is made at its exact size ([freq, *ids] would
        reserve room to grow, three slots on a row of nine).
        """
        if isinstance(tok, str):
            return [freq] + list(tok.encode("utf-8"))
        joined = b"".join(tok)
        ids = joined if len(joined) == len(tok) else map(self.symbol, tok)
        return [freq] + list(ids)

    def add_row(self, row: list[int]) -> None:
        """Count the row's pairs, and file the row under each."""
        pairs, where, freq = self.pairs, self.where, row[0]
        for x, y in zip(row[1:], row[2:], strict=False):
            p = x << SHIFT | y
            pairs[p] = pairs.get(p, 0) + freq
            rows = where.get(p)
            if rows is None:
                where[p] = [row]
            elif rows[-1] is not row:  # a pair twice in a row: the row once
                rows.append(row)

    symbol = IndexedTable.symbol  # the same symbols, ids and keys as chapter 08's table

    def apply(self, pair: int) -> dict[int, int]:
        """Merge pair in each row that holds it; return {changed pair: total before}."""
        a, b = pair >> SHIFT, pair & LOW
        new = self.symbol(self.symbols[a] + self.symbols[b])
        where, delta = self.where, {}
        for row in where.pop(pair):
            merge_in_place(row, a, b, new, delta, where)
        del self.pairs[pair]  # every occurrence is merged, and none can come back
        delta.pop(pair, None)
        return self.update_totals(delta)

    # the same bookkeeping as chapter 08's table, on pair ids
    update_totals = IndexedTable.update_totals


# C integers for the positions and the symbol ids (ids < 2**31, so a pair,
# x << SHIFT | y, fits a C long long), so the loop reads and compares them in C.
# No bounds check: every index read is below n = len(word), checked before it is
# read, and the loop only ever writes where it has read (write <= read). A ccall:
# apply calls it in C, once per row, and Python can still call it.
@cython.ccall
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.locals(
    n=cython.Py_ssize_t,
    read=cython.Py_ssize_t,
    write=cython.Py_ssize_t,
    joined=cython.bint,
    x=cython.longlong,
    ca=cython.longlong,
    cb=cython.longlong,
    cnew=cython.longlong,
    left=cython.longlong,
    right=cython.longlong,
    shift=cython.int,
)
def merge_in_place(
    row: list[int],
    a: int,
    b: int,
    new: int,
    delta: dict[int, int],
    where: dict[int, list[list[int]]],
) -> None:
    """Merge each (a, b) of row into new, in place, as ``indexed.merge_counting``.

    row is [count, symbol ids...]. One pass, left to right: ``read`` walks the
    old row, ``write`` the new one. delta hears how the neighbours' pairs change,
    except (a, b) itself, which the caller drops whole; where[p] gets row for each
    pair p made. When two occurrences touch (a b a b), the pair between them,
    (b, a), becomes (new, new), counted once, from the right (``joined``: new was
    just written).
    """
    n, read, write, joined, shift = len(row), 1, 1, False, SHIFT
    ca, cb, cnew, freq = a, b, new, row[0]
    while read < n:
        item = row[read]  # the int object itself: moved, not made again
        x = item
        if x != ca or read + 1 == n or row[read + 1] != b:
            row[write] = item
            read, write, joined = read + 1, write + 1, False
            continue
        if write > 1:  # the left neighbour's pair: (left, a) becomes (left, new)
            left = row[write - 1]
            old = cb << shift | ca if joined else left << shift | ca
            delta[old] = delta.get(old, 0) - freq
            made(left << shift | cnew, freq, delta, where, row)
        if read + 2 < n:  # the right one's: (b, right) becomes (new, right)
            right = row[read + 2]
            if not (right == ca and read + 3 < n and row[read + 3] == b):
                old = cb << shift | right
                delta[old] = delta.get(old, 0) - freq
                made(cnew << shift | right, freq, delta, where, row)
        row[write] = new
        read, write, joined = read + 2, write + 1, True
    del row[write:]


@cython.cfunc  # called from merge_in_place only: a C call, when compiled
def made(
    pair: int,
    freq: int,
    delta: dict[int, int],
    where: dict[int, list[list[int]]],
    row: list[int],
) -> None:
    """A merge made pair in row: count it, and file the row under it."""
    delta[pair] = delta.get(pair, 0) + freq
    rows = where.get(pair)
    if rows is None:
        where[pair] = [row]
    elif rows[-1] is not row:
        rows.append(row)


class CompactHeap:
    """``indexed.PairHeap`` over int pairs: the same order, the same lazy deletion.

    Only pairs counted above ``floor`` are filed. Most pairs that merges make are
    rare and never picked, yet each would cost an entry (on 40 MB of Zipf words,
    over half a million of them). Every pair above the floor has an entry at its
    count or above, so the best of them is the best of all, ties included. When
    none is left, ``fill`` lowers the floor and files the pairs above it.
    """

    def __init__(self, table: CompactTable):
        self.table = table
        self.fill()

    def fill(self) -> None:
        """File each pair counted above a floor of a sixteenth of the top count."""
        pairs = self.table.pairs
        self.floor = max(pairs.values(), default=0) // FLOOR_SHARE
        self.heap = [self.entry(p, n) for p, n in pairs.items() if n > self.floor]
        heapq.heapify(self.heap)

    def entry(self, pair: int, count: int) -> tuple:
        keys = self.table.keys
        return (-count, keys[pair >> SHIFT], keys[pair & LOW], pair)

    def pop(self) -> int | None:
        """The best pair, skipping entries whose count changed since they were filed."""
        pairs = self.table.pairs
        while pairs:
            if not self.heap:  # every pair left is at the floor or under it
                self.fill()
            neg, _, _, pair = heapq.heappop(self.heap)
            current = pairs.get(pair, 0)
            if current == -neg:
                return pair
            if current > self.floor:  # the count fell since it was filed: re-file it
                heapq.heappush(self.heap, self.entry(pair, current))
        return None

    def update(self, changed: dict[int, int]) -> None:
        """Push the pairs whose count grew above the floor; those that shrank are
        re-filed on pop."""
        pairs, heap, entry, floor = self.table.pairs, self.heap, self.entry, self.floor
        for pair, before in changed.items():
            now = pairs.get(pair, 0)
            if now > before and now > floor:
                heapq.heappush(heap, entry(pair, now))


def compact_merges(
    table: MutableMapping[tuple[bytes, ...] | str, int],
    n_merges: int,
    progress: Callable | None = None,
    taken: bool = False,
) -> tuple[list[tuple[bytes, bytes]], float, float]:
    """Up to n_merges merges from a pre-token table: (merges, pick s, apply s).

    The same merges as ``indexed.indexed_merges`` and ``trainer.naive_merges``.
    ``table`` and ``taken`` as for ``CompactTable``.
    """
    # The loop makes and drops ints, tuples and dicts by the million and no cycle
    # among them: the cyclic collector, set off by the allocations, would only walk
    # the table's rows again and again. Off while it runs (as batch.py does).
    collecting = gc.isenabled()
    gc.disable()
    try:
        rows = CompactTable(table, taken)
        heap = CompactHeap(rows)
        return merge_loop(rows, heap, n_merges, progress)
    finally:
        if collecting:
            gc.enable()


def merge_loop(
    rows: CompactTable, heap: CompactHeap, n_merges: int, progress: Callable | None
) -> tuple[list[tuple[bytes, bytes]], float, float]:
    """Pick the best pair and apply it, n_merges times: (merges, pick s, apply s)."""
    symbols, merges, pick_seconds, apply_seconds = rows.symbols, [], 0.0, 0.0
    while len(merges) < n_merges:
        t0 = time.perf_counter()
        best = heap.pop()
        t1 = time.perf_counter()
        pick_seconds += t1 - t0
        if best is None:
            break  # no pair left: the caller says so
        heap.update(rows.apply(best))
        apply_seconds += time.perf_counter() - t1
        merges.append((symbols[best >> SHIFT], symbols[best & LOW]))
        if progress:
            progress(1)
    return merges, pick_seconds, apply_seconds
