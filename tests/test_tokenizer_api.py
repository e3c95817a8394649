"""tiktoken-style API: special-token rules, ordinary encoding, lookups, bad input."""

import pytest

import bpe

EOT = "<|endoftext|>"


def test_specials_are_allowed_by_default(toy):
    assert toy.encode("fox" + EOT) == toy.encode("fox") + [264]


def test_disallowed_special_raises_and_names_it(toy):
    with pytest.raises(ValueError, match=r"'<\|endoftext\|>' at index 3"):
        toy.encode("fox" + EOT, allowed_special=set())


def test_disallowed_special_can_be_encoded_as_text(toy):
    ids = toy.encode("fox" + EOT, allowed_special=set(), disallowed_special=())
    assert 264 not in ids and toy.decode(ids) == "fox" + EOT
    assert ids == toy.encode_ordinary("fox" + EOT)


def test_allowed_special_must_belong_to_the_tokenizer(toy):
    with pytest.raises(ValueError, match="not special tokens"):
        toy.encode("x", allowed_special={"<|pad|>"})


def test_lookups(toy):
    assert toy.n_vocab == 265
    assert toy.decode_single_token_bytes(263) == b" newest"
    assert toy.token_to_id(b" newest") == 263 and toy.token_to_id(EOT) == 264
    with pytest.raises(ValueError, match="not a token"):
        toy.token_to_id(b"zzz")
    with pytest.raises(ValueError, match="not in the vocabulary"):
        toy.decode_single_token_bytes(265)


def test_lone_surrogates_are_refused_with_their_position(toy):
    # UTF-8 cannot encode U+D800 on its own; tiktoken would silently put U+FFFD there
    with pytest.raises(ValueError, match=r"lone surrogate '\\ud800' at index 2"):
        toy.encode("ab\ud800cd")


@pytest.mark.parametrize("bad", [None, b"bytes", 12, ["list"]])
def test_non_string_text(toy, bad):
    with pytest.raises(TypeError):
        toy.encode(bad)


def test_cache_does_not_change_results(toy_corpus):
    vocab, merges = bpe.train(toy_corpus, 265, [EOT])
    cached, uncached = (
        bpe.Tokenizer(vocab, merges, [EOT]),
        bpe.Tokenizer(vocab, merges, [EOT], cache_size=0),
    )
    text = toy_corpus * 3 + "the lowest widest fox"
    assert cached.encode(text) == uncached.encode(text) == cached.encode(text)
    assert len(cached.cache) > 0 and len(uncached.cache) == 0


def test_cache_is_bounded(toy):
    tok = bpe.Tokenizer(toy.vocab, toy.merges, toy.specials, cache_size=4)
    text = " ".join(f"w{i}" for i in range(100))
    assert (
        tok.encode(text) == toy.encode(text) == tok.encode(text)
    )  # still right after it starts afresh
    assert 0 < len(tok.cache) <= 4


@pytest.mark.parametrize("size", [-1, 1.5, "big"])
def test_cache_size_must_be_a_count(toy, size):
    with pytest.raises(ValueError, match="cache_size"):
        bpe.Tokenizer(toy.vocab, toy.merges, toy.specials, cache_size=size)


def test_decode_with_offsets_is_tiktokens():
    from bpe.interop.openai import get_encoding

    gpt2 = get_encoding("gpt2")
    tok = bpe.Tokenizer.from_tiktoken(gpt2)
    for text in ["hello world", "Xin chào thế giới 🙃 ok", "牛肉面", "", "a🙃🙃b"]:
        ids = gpt2.encode(text)
        assert tok.decode_with_offsets(ids) == gpt2.decode_with_offsets(ids), text
    with pytest.raises(UnicodeDecodeError):
        tok.decode_with_offsets(gpt2.encode("🙃")[:1])
