"""The Stanford CS336 reference run: BPE on corpus.en with a 500-entry vocabulary."""

import json

import pytest

import bpe
from bpe.data import registry as data
from bpe.files import text_to_token

FIXTURES = "fixtures/cs336-assignment1-basics/"


@pytest.fixture(scope="module")
def reference():
    merges_text = data.path(FIXTURES + "train-bpe-reference-merges.txt").read_text(
        encoding="utf-8"
    )
    merges = [
        tuple(text_to_token(p, "reference") for p in line.split(" "))
        for line in merges_text.split("\n")
        if line
    ]
    vocab = json.loads(
        data.path(FIXTURES + "train-bpe-reference-vocab.json").read_text(
            encoding="utf-8"
        )
    )
    tokens = {
        t.encode() if t == "<|endoftext|>" else text_to_token(t, "reference")
        for t in vocab
    }
    return merges, tokens


@pytest.mark.parametrize("method", ["naive", "scan", "heap"])
def test_merges_and_vocab_equal_the_reference(reference, method):
    text = data.path(FIXTURES + "corpus.en").read_text(encoding="utf-8")
    vocab, merges = bpe.train(text, 500, ["<|endoftext|>"], method=method)
    assert merges == reference[0]
    assert set(vocab.values()) == reference[1]


def test_train_file_equals_the_reference(reference):
    from bpe.scale.pipeline import train_file

    vocab, merges, report = train_file(
        data.path(FIXTURES + "corpus.en"), 500, ["<|endoftext|>"], workers=2
    )
    assert merges == reference[0]
    assert report.merges == 243 and not report.stopped_early
