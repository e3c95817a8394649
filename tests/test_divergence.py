"""Chapter 20's module: the five rules learn what the real trainers learn, and each
reason ``explain`` gives is computed, and can fail.

Each reason has a constructed case: two merge lists that part for that reason and
no other, on a text made for it.
"""

from __future__ import annotations

import re

import pytest

import bpe
from bpe.book.chapters import divergence as d
from bpe.book.chapters.display import Refusal
from bpe.book.chapters.toy import ToyBPE, replace_pair

TOY = "low low low lower lowest newer newest wider widest wide\n" * 3
STORYLIKE = (
    "Once upon a time, a little girl named Lily saw a big red ball. "
    'She said, "Mom, can I play?" Her mom said yes. Lily was happy!\n'
    "Tom and Sue went to the park. They saw a dog. The dog was sad, aaa.\n"
) * 4


@pytest.mark.parametrize("text", [TOY, STORYLIKE])
def test_the_book_rule_is_bpe_train(text):
    assert d.learn(d.RULES["this book"], [text], 300) == bpe.train(text, 300)[1]


@pytest.mark.parametrize("text", [TOY, STORYLIKE])
def test_the_hf_rule_is_hf_tokenizers(text):
    pytest.importorskip("tokenizers")
    assert d.learn(d.RULES["HF tokenizers"], [text], 300) == d.hf_merges([text], 300)


@pytest.mark.parametrize("text", [TOY, STORYLIKE])
def test_the_rustbpe_rule_is_rustbpe(text):
    pytest.importorskip("rustbpe")
    assert d.learn(d.RULES["rustbpe"], [text], 300) == d.rustbpe_merges([text], 300)


@pytest.mark.parametrize("text", [TOY, STORYLIKE])
def test_the_lesson_rule_is_the_lessons_toy(text):
    toy = ToyBPE()
    toy.train(text, 300)
    merges = [(toy.vocab[x], toy.vocab[y]) for x, y in toy.merges]
    assert d.learn(d.RULES["the lesson"], [text], 300) == merges


def minbpe_as_written(text: str, vocab_size: int) -> list[tuple[bytes, bytes]]:
    """minbpe's loop without the de-duplication: every chunk of the text, in order,
    recounted into a fresh dict each round, the first of equal counts kept."""
    chunks = [list(piece.encode()) for piece in bpe.pretokenizer.pretokens(text)]
    vocab, merges = {i: bytes([i]) for i in range(256)}, []
    for new in range(256, vocab_size):
        stats: dict = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:], strict=False):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break  # (minbpe itself would raise here)
        best = max(stats, key=stats.get)
        chunks = [replace_pair(ids, best, new) for ids in chunks]
        vocab[new] = vocab[best[0]] + vocab[best[1]]
        merges.append((vocab[best[0]], vocab[best[1]]))
    return merges


@pytest.mark.parametrize("text", [TOY, STORYLIKE])
def test_the_minbpe_rule_counts_as_minbpe_does(text):
    assert d.learn(d.RULES["minbpe"], [text], 300) == minbpe_as_written(text, 300)


# One constructed case per reason: (texts, a's merges, b's merges, reason, counts).
OW, LO = (b"o", b"w"), (b"l", b"o")
CASES = {
    "tie": (["low low"], [OW], [LO], d.TIE, (2, 2)),
    # pre-tokens a . a . a .: ␣a twice; the whole text holds a. three times
    "boundary": (["a. a. a."], [(b" ", b"a")], [(b"a", b".")], d.BOUNDARY, (2, 3)),
    # the whole text ties a b with b . (twice each); only b . spans a boundary
    "boundary in a tie": (
        ["ab. ab."],
        [(b"a", b"b")],
        [(b"b", b".")],
        d.BOUNDARY,
        (2, 2),
    ),
    # aaaaa holds a a four times overlapping, twice not; b c three times either way
    "overlap": (
        ["aaaaa bc bc bc"],
        [(b"a", b"a")],
        [(b"b", b"c")],
        d.OVERLAP,
        (4, 3),
    ),
    # a trainer that starts from characters merges é whole
    "characters": (
        ["é é é"],
        [(b"\xc3", b"\xa9")],
        [(b" ", "é".encode())],
        d.CHARACTERS,
        (None, None),
    ),
    "stopped": (["low low"], [OW], [], d.STOPPED, (None, None)),
    "same": (["low low"], [OW], [OW], d.SAME, (None, None)),
}


@pytest.mark.parametrize("case", CASES)
def test_each_reason_is_found(case):
    texts, a, b, reason, counts = CASES[case]
    found = d.explain(texts, a, b)
    assert found.reason == reason
    assert (found.count_a, found.count_b) == counts
    swapped = d.explain(texts, b, a)
    assert swapped.reason == reason
    assert (swapped.count_a, swapped.count_b) == counts[::-1]


def test_the_divergence_step_is_a_merge_number():
    shared = [OW, (b"l", b"ow")]
    found = d.explain(
        ["low low lo lo"], [*shared, (b" ", b"l")], [*shared, (b" ", b"low")]
    )
    assert found.step == 3


def test_a_character_pick_of_ascii_against_a_split_character():
    # the byte trainer joins é's two bytes; the other picks an ASCII pair
    found = d.explain(["ééé ab"], [(b"\xc3", b"\xa9")], [(b"a", b"b")])
    assert found.reason == d.CHARACTERS


def test_pair_counts_overlapping_or_not():
    rows = d.rows_of(["aaaa abab"])
    assert d.pair_counts(rows)[b"a", b"a"] == 3
    assert d.pair_counts(rows, overlapping=False)[b"a", b"a"] == 2
    assert d.pair_counts(rows, overlapping=False)[b"a", b"b"] == 2


def test_hf_orders_the_bytes_by_their_gpt2_characters():
    ids = d.hf_byte_ids()
    assert sorted(ids.values()) == list(range(256))
    assert ids[b"!"] == 0 and ids[b"a"] < ids[b" "] and ids[b"\xff"] < ids[b" "]


@pytest.mark.parametrize(
    "text, vocab_size, says",
    [
        ("", 300, "The corpus is empty: type a few sentences"),
        (" \n ", 300, "The corpus is only whitespace: type a few words"),
        (b"low", 300, "The corpus is a bytes: give it as a string."),
        ("low low", 255, "below 256, the byte tokens alone: ask for 257 to 261."),
        ("low low", 10, "vocab_size=10 is below 256"),
        ("low low", 256, "leaves room for no merge: ask for 257 to 261."),
        ("low low", 257.0, "vocab_size=257.0 is not a whole number: ask for 257"),
        ("low low", True, "vocab_size=True is not a whole number"),
        ("low low", "270", "vocab_size='270' is not a whole number"),
        ("low low", 262, "more than this corpus can reach: ask for 257 to 261."),
        ("x" * (d.LIMIT + 1), 300, "the page trains on 4,000 at most"),
    ],
)
def test_the_page_refuses_what_it_should_not_train_on(text, vocab_size, says):
    """In one sentence that says what is allowed, returned rather than raised."""
    refused = d.where_they_part(text, vocab_size)
    assert isinstance(refused, Refusal) and says in repr(refused)
    assert "\n" not in repr(refused) and repr(refused).endswith(".")
    with pytest.raises(ValueError, match=re.escape(says)):
        d.check_corpus(text, vocab_size)


def test_the_page_table_has_a_row_per_two_trainers():
    table = d.where_they_part(TOY, 270)
    assert len(table) == 10
    assert set(table["why"]) <= {d.TIE, d.BOUNDARY, d.OVERLAP, d.STOPPED, d.SAME}
