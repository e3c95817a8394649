from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bpe
from bpe.trainer import count_pairs, merge

EOT = "<|endoftext|>"


def test_count_pairs_keeps_duplicates():
    assert count_pairs({(b"l", b"o", b"w", b"l", b"o", b"w"): 2})[(b"l", b"o")] == 4
    assert count_pairs({(b"a", b"a", b"a"): 1}) == Counter({(b"a", b"a"): 2})


def test_toy_pair_table(toy_corpus):
    pairs = count_pairs(bpe.pretokenize(toy_corpus))
    assert len(pairs) == 14
    assert pairs[(b"e", b"s")] == pairs[(b"s", b"t")] == 9
    assert pairs[(b"e", b"r")] == 2


def test_merge_is_left_to_right_without_overlap():
    assert merge((b"a", b"a", b"a"), (b"a", b"a"), b"aa") == (b"aa", b"a")
    assert merge((b"a",) * 4, (b"a", b"a"), b"aa") == (b"aa", b"aa")
    assert merge((b"x", b"y"), (b"a", b"b"), b"ab") == (b"x", b"y")
    assert merge((), (b"a", b"b"), b"ab") == ()


def test_toy_merges_match_the_article(toy_corpus):
    vocab, merges = bpe.train(toy_corpus, 265, specials=[EOT])
    assert [a + b for a, b in merges] == [
        b"st",
        b"est",
        b"ow",
        b"low",
        b"west",
        b"ne",
        b"newest",
        b" newest",
    ]
    assert vocab[264] == EOT.encode()
    assert len(vocab) == 265


def test_tie_break_decides_between_equal_counts():
    # (a, b), (space, c) and (c, d) each occur once
    assert bpe.train("ab cd", 257)[1] == [(b"c", b"d")]  # the greater pair
    assert bpe.train("ab cd", 257, tie_break=bpe.lowest_ids)[1] == [
        (b" ", b"c")
    ]  # the smallest ids


def test_lowest_ids_rule_reproduces_the_lesson():
    text = "low lower lowest low low newer newest wider widest wide " * 20
    vocab, merges = bpe.train(text, 280, pattern=None, tie_break=bpe.lowest_ids)
    assert [vocab[i] for i in range(256, 264)] == [
        b"lo",
        b"low",
        b" low",
        b" w",
        b"de",
        b"ide",
        b"st",
        b" wide",
    ]


def test_on_merge_sees_the_counts_and_the_choice(toy_corpus):
    seen = []
    bpe.train(
        toy_corpus, 258, on_merge=lambda pairs, best: seen.append((pairs[best], best))
    )
    assert seen == [(9, (b"s", b"t")), (9, (b"e", b"st"))]


def test_training_stops_when_no_pair_is_left():
    vocab, merges = bpe.train("ab", 1000, specials=[EOT])
    assert merges == [(b"a", b"b")]
    assert vocab[257] == EOT.encode() and len(vocab) == 258


@pytest.mark.parametrize("size", [0, 255, 256])
def test_vocab_size_too_small_raises(size):
    with pytest.raises(ValueError, match="too small"):
        bpe.train("text", size, specials=[EOT])


def test_vocab_size_must_be_an_int():
    with pytest.raises(TypeError):
        bpe.train("text", 300.0)


def test_bad_specials_and_text_raise():
    with pytest.raises(ValueError, match="non-empty"):
        bpe.train("text", 300, specials=[""])
    with pytest.raises(TypeError):
        bpe.train(None, 300)


@given(st.text(max_size=60), st.integers(257, 300))
def test_vocab_is_bytes_plus_merges_plus_specials(text, size):
    vocab, merges = bpe.train(text, size, specials=[EOT])
    assert len(vocab) == 256 + len(merges) + 1 <= size
    assert [vocab[256 + i] for i in range(len(merges))] == [a + b for a, b in merges]


@given(st.text(alphabet="ab ", max_size=40))
def test_each_merge_takes_a_most_frequent_pair(text):
    counts = []
    bpe.train(
        text,
        270,
        on_merge=lambda pairs, best: counts.append(pairs[best] == max(pairs.values())),
    )
    assert all(counts)
