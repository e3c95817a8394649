"""A tokenizer pickles for any pattern and specials, leaving its workers behind."""

import multiprocessing
import pickle

import pytest

import bpe
from bpe.interop.openai import get_encoding

TEXTS = [
    "the lowest widest fox<|endoftext|>newest",
    "naïve café 🙃 Xin chào",
    "12345 ok\n\n",
]


def tokenizers(toy):
    gpt2 = bpe.Tokenizer.from_tiktoken(get_encoding("gpt2"))
    no_pattern = bpe.Tokenizer(*bpe.train("abc abc", 260, pattern=None), pattern=None)
    other = bpe.Tokenizer(
        *bpe.train("x y z " * 5, 262, ["<|a|>", "<|b|>"], pattern=r"\S+|\s+"),
        ["<|a|>", "<|b|>"],
        pattern=r"\S+|\s+",
        cache_size=10,
    )
    return [toy, gpt2, no_pattern, other]


def test_round_trip_gives_the_same_tokenizer_and_ids(toy):
    for tok in tokenizers(toy):
        tok.encode_batch(TEXTS)  # fill the cache first
        copy = pickle.loads(pickle.dumps(tok))
        assert copy == tok and copy.cache_size == tok.cache_size
        assert [copy.encode(t, disallowed_special=()) for t in TEXTS] == [
            tok.encode(t, disallowed_special=()) for t in TEXTS
        ]


def test_worker_processes_stay_behind(toy, monkeypatch):
    import bpe.scale.batch as batch

    monkeypatch.setattr(batch, "CHARS_TO_FORK", 1)
    toy.encode_batch(TEXTS * 4, workers=2)
    assert toy._helpers is not None
    data = pickle.dumps(toy)
    assert b"Helpers" not in data and b"Process" not in data
    assert pickle.loads(data)._helpers is None
    toy.close()


def encode_with(tok, text):
    return tok.encode(text, disallowed_special=())


def test_a_spawned_pool_gives_the_same_ids(toy):
    toks = tokenizers(toy)[:2]
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        for tok in toks:
            args = [(tok, t) for t in TEXTS]
            assert pool.starmap(encode_with, args) == [
                encode_with(tok, t) for t in TEXTS
            ]


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_every_protocol(toy, protocol):
    assert pickle.loads(pickle.dumps(toy, protocol=protocol)) == toy
