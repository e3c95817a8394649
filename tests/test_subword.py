"""The other tokenizers of "Where this leads"; the units of "A finite vocabulary"."""

import bpe
from bpe.book.chapters.analysis import compression, exact_round_trips
from bpe.book.chapters.subword import (
    Bytes,
    settled,
    train_unigram,
    train_wordpiece,
    wordpiece_scores,
)
from bpe.book.chapters.units import unit_table, unseen_share, words

EOT = "<|endoftext|>"


def test_trained_vocabularies_never_differ_between_runs(tinystories_train_text):
    stories = tinystories_train_text.split(EOT)[:300]
    for train in (train_wordpiece, train_unigram):
        first, second = train(stories, 600), train(stories, 600)
        assert first.tokenizer.get_vocab() == second.tokenizer.get_vocab(), first.name
        assert first.tokenizer.to_str() == second.tokenizer.to_str(), first.name


def test_unigram_round_trips_what_it_knows(tinystories_train_text):
    stories = tinystories_train_text.split(EOT)[:300]
    unigram = train_unigram(stories, 600)
    assert exact_round_trips(unigram, stories[:50]) == 50
    assert compression(Bytes(), ["héllo"]) == {
        "bytes": 6,
        "tokens": 6,
        "bytes per token": 1.0,
    }
    assert Bytes().decode(Bytes().encode("🙃 ok")) == "🙃 ok"


def test_settled_sorts_the_appended_characters():
    hf_order = [
        ["▁the", -3.0],
        ["Q", -9.0],
        ["B", -9.0001],
        ["Z", -9.0002],
        ["x", -9.0003],
    ]
    shuffled = [
        ["▁the", -3.0],
        ["Z", -9.0],
        ["x", -9.0001],
        ["B", -9.0002],
        ["Q", -9.0003],
    ]
    assert settled(hf_order) == settled(shuffled)
    assert [p for p, _ in settled(hf_order)] == ["▁the", "B", "Q", "Z", "x"]


def test_wordpiece_scores_divide_by_the_parts():
    table = bpe.pretokenize("low low lower")
    scores = wordpiece_scores(table)
    counts = bpe.count_pairs(table)
    assert scores[(b"l", b"o")] == counts[(b"l", b"o")] / (3 * 3)


def test_units(tinystories_train_text):
    assert words("Tom's cat, 42 naïve!") == ["Tom's", "cat", ",", "42", "naïve", "!"]
    stories = tinystories_train_text.split(EOT)[:200]
    tok = bpe.Tokenizer(*bpe.train("".join(stories[:50]), 300))
    rows = unit_table(stories[:100], stories[100:150], tok)
    assert rows["bytes"]["units in the vocabulary"] == 256
    assert rows["BPE tokens"]["held-out units never seen in training"] == 0
    assert rows["characters"]["held-out length (units)"] == sum(
        map(len, stories[100:150])
    )
    assert 0 < unseen_share(stories[:10], stories[100:150]) < 1
