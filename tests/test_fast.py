"""Differential tests: the indexed trainers learn exactly the naive trainer's merges."""

import sys
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.pretokenizer import byte_table
from bpe.scale.compact import (
    SHIFT,
    CompactHeap,
    CompactTable,
    compact_merges,
    merge_in_place,
)
from bpe.scale.indexed import descending, merge_counting
from bpe.trainer import count_pairs, merge, naive_merges

EOT = "<|endoftext|>"
METHODS = ["naive", "scan", "heap"]


def all_methods(text, size, specials=()):
    return [bpe.train(text, size, specials, method=m) for m in METHODS]


def assert_same(text, size, specials=()):
    results = all_methods(text, size, specials)
    assert results[0] == results[1] == results[2]
    return results[0]


def test_toy_corpus(toy_corpus):
    vocab, merges = assert_same(toy_corpus, 265, [EOT])
    assert merges[0] == (b"s", b"t")


@pytest.mark.parametrize(
    "text", ["aaa", "aaaa", "aaaaa a aa", "abab abababab", "ab" * 50, "", " ", "\n\n\n"]
)
def test_overlapping_and_degenerate_rows(text):
    assert_same(text, 300)


def test_tokens_spelled_two_ways_share_one_symbol():
    # 'abc' can be built as a + bc or ab + c; the naive trainer works on bytes, and so
    # must the fast one
    text = "abc abc abc xbc xbc xbc xbc abd abd abd abd abd " * 3
    assert_same(text, 280)


words = st.sampled_from(
    [
        "low",
        "lower",
        "newest",
        "widest",
        "aaa",
        "ab",
        "café",
        "牛",
        "🙃",
        "12",
        "!!",
        "  ",
        "\n",
    ]
)


@settings(max_examples=200)
@given(st.lists(words, max_size=40).map(" ".join), st.integers(256, 330))
def test_word_soup(text, size):
    assert_same(text, size)


@settings(max_examples=200)
@given(st.text(max_size=120), st.integers(256, 320))
def test_arbitrary_unicode(text, size):
    assert_same(text, size)


@settings(max_examples=100)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="ab ", max_size=12), st.just(EOT), st.just("<|pad|>")
        )
    ).map("".join),
    st.integers(258, 300),
)
def test_with_specials(text, size):
    assert_same(text, size, [EOT, "<|pad|>"])


@settings(max_examples=100)
@given(
    st.text(alphabet="aab", max_size=30).map(lambda s: s + " " + s),
    st.integers(256, 300),
)
def test_repeated_characters(text, size):
    assert_same(text, size)


def test_real_text(tinystories_train_text):
    sample = tinystories_train_text[:60_000]
    assert_same(sample, 256 + 200, [EOT])


@given(
    st.lists(st.sampled_from([1, 2, 3]), max_size=12),
    st.sampled_from([(1, 2), (2, 1), (1, 1), (2, 2)]),
)
def test_merge_counting_matches_a_full_recount(word, pair):
    delta, created = defaultdict(int), []
    result = merge_counting(word, pair[0], pair[1], 9, 1, delta, created)
    expected = merge(tuple(word), pair, 9)
    if len(expected) == len(word):
        assert result is None
        return
    assert tuple(result) == expected
    before, after = count_pairs({tuple(word): 1}), count_pairs({expected: 1})
    for p in set(before) | set(after):
        assert delta.get(p, 0) == after[p] - before[p]
    assert set(created) == {p for p in after if 9 in p}


@given(
    st.lists(st.sampled_from([1, 2, 3]), max_size=12),
    st.sampled_from([(1, 2), (2, 1), (1, 1), (2, 2)]),
)
def test_merge_in_place_matches_a_full_recount(word, pair):
    merged, delta, where = [1, *word], {}, {}  # a row: its count, then its symbols
    merge_in_place(merged, pair[0], pair[1], 9, delta, where)
    expected = merge(tuple(word), pair, 9)
    assert tuple(merged[1:]) == expected and merged[0] == 1
    before, after = count_pairs({tuple(word): 1}), count_pairs({expected: 1})
    for x, y in set(before) | set(after):
        if (x, y) != pair:  # (a, b) is the caller's to drop whole
            assert delta.get(x << SHIFT | y, 0) == after[x, y] - before[x, y]
    made = {p for p in after if 9 in p}
    assert {(p >> SHIFT, p & ((1 << SHIFT) - 1)) for p in where} == made
    assert all(len(rows) == 1 and rows[0] is merged for rows in where.values())


@settings(max_examples=60)
@given(
    st.dictionaries(
        st.text(st.sampled_from("ab é牛🙃"), min_size=1, max_size=6),
        st.integers(1, 9),
        max_size=10,
    ),
    st.integers(0, 30),
)
def test_compact_trainer_reads_strings_as_their_bytes(strings, n):
    # a one-character string can be several bytes, hence a row with pairs
    expected = naive_merges(byte_table(strings), n)
    assert compact_merges(dict(strings), n)[0] == expected
    taken = dict(strings)
    assert compact_merges(taken, n, taken=True)[0] == expected
    assert taken == {}


def test_the_heap_files_only_the_pairs_above_its_floor():
    """A sixteenth of the top count: (c, d) and (e, f) wait until (a, b) is gone."""
    heap = CompactHeap(CompactTable({"ab": 1600, "cd": 3, "ef": 2}))
    assert heap.floor == 100 and len(heap.heap) == 1
    assert heap.pop() == ord("a") << SHIFT | ord("b")
    del heap.table.pairs[ord("a") << SHIFT | ord("b")]  # as a merge would
    assert heap.pop() == ord("c") << SHIFT | ord("d")
    assert heap.floor == 0 and len(heap.heap) == 1  # filled again, (e, f) in it


def test_a_row_is_filed_under_each_of_its_pairs_as_itself_once():
    """The row list itself, [count, symbols...], once per pair, however often the
    pair comes in it: a merge goes straight to its rows."""
    table = CompactTable({"299x": 4, "aaaa": 5})
    filed = [rows for p, rows in table.where.items() if rows[-1][0] == 4]
    assert len(filed) == 3 and all(len(rows) == 1 for rows in filed)
    assert filed[0][0] is filed[1][0] is filed[2][0] == [4, *b"299x"]
    assert table.where[ord("a") << SHIFT | ord("a")] == [[5, *b"aaaa"]]


def test_a_taken_table_gives_its_memory_back_and_rows_keep_no_spare_room():
    """Memory at the peak, the end of the merges: 31 MiB on 40 MB of Zipf words."""
    strings = {f"w{n}é": 1 for n in range(1000)}  # rows of bytes
    tuples = {(b"x", b"yz", b"%d" % n): 2 for n in range(1000)}  # rows of symbols
    filed = []
    for table in strings, tuples:
        rows = CompactTable(table, taken=True)
        assert table == {} and sys.getsizeof(table) == sys.getsizeof({})
        filed += [row for of_pair in rows.where.values() for row in of_pair]
    assert len(filed) > 2000
    assert all(sys.getsizeof(row) == sys.getsizeof([0] * len(row)) for row in filed)


@settings(max_examples=80)
@given(
    st.dictionaries(
        st.text(st.sampled_from("abcd "), min_size=2, max_size=8),
        # counts over six orders of magnitude: the heap's floor drops again and again
        st.integers(1, 10**6),
        max_size=12,
    ),
)
def test_a_dropping_floor_picks_what_the_naive_trainer_picks(strings):
    expected = naive_merges(byte_table(strings), 60)
    assert compact_merges(dict(strings), 60)[0] == expected


@given(st.binary(max_size=5), st.binary(max_size=5))
def test_descending_reverses_byte_order(x, y):
    assert (descending(x) < descending(y)) == (x > y)


def test_unknown_method():
    with pytest.raises(ValueError, match="method"):
        bpe.train("abc", 300, method="fastest")


def test_fast_methods_refuse_options_they_cannot_honour():
    with pytest.raises(ValueError, match="tie_break"):
        bpe.train("abc", 300, method="heap", tie_break=bpe.lowest_ids)


def test_running_out_of_pairs_warns_and_stops(recwarn):
    from bpe.trainer import OutOfPairs

    for method in METHODS:
        with pytest.warns(OutOfPairs, match="after 1 of"):
            vocab, merges = bpe.train("ab", 300, [EOT], method=method)
        assert merges == [(b"a", b"b")] and vocab[257] == EOT.encode()
