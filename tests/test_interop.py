"""Interoperability, proven by identical ids: tiktoken and Hugging Face tokenizers."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.interop.openai import get_encoding, shipped_path
from bpe.interop.ranks import parse_tiktoken, split_by_ranks

EOT = "<|endoftext|>"
SAMPLES = [
    "Hello world, it's 2026!",
    "Xin chào thế giới",
    "牛肉面很好吃。",
    "Привет, мир",
    "مرحبا بالعالم",
    "🙃🙂 emoji 12345678",
    "  indented\n\tcode()\n\n\n",
    "naïve café",
    "I'LL BE THERE'S",
]


@pytest.fixture(scope="module")
def stories_tok(tinystories_train_text):
    return bpe.Tokenizer(
        *bpe.train(tinystories_train_text[:400_000], 2000, [EOT], method="heap"), [EOT]
    )


def test_gpt2_files_encode_like_tiktoken_on_the_heldout_stories():
    from bpe.data.corpora import tinystories_files

    text = tinystories_files()[1].read_text(encoding="utf-8")
    tok = bpe.Tokenizer.from_files(
        shipped_path("encoder.json"), shipped_path("vocab.bpe"), [EOT]
    )
    assert tok.encode(text) == get_encoding("gpt2").encode(text, allowed_special="all")


@settings(max_examples=300)
@given(st.text())
def test_gpt2_files_encode_like_tiktoken_on_any_text(text):
    tok = _gpt2_files()
    assert tok.encode_ordinary(text) == get_encoding("gpt2").encode_ordinary(text)


_cache = {}


def _gpt2_files():
    if "gpt2" not in _cache:
        _cache["gpt2"] = bpe.Tokenizer.from_files(
            shipped_path("encoder.json"), shipped_path("vocab.bpe"), [EOT]
        )
    return _cache["gpt2"]


def test_to_tiktoken_is_exact(stories_tok, tinystories_train_text):
    enc = stories_tok.to_tiktoken()
    text = tinystories_train_text[-200_000:]
    assert enc.encode(text, allowed_special="all") == stories_tok.encode(text)


@settings(max_examples=80)
@given(
    st.text(alphabet="abc ", min_size=1, max_size=120),
    st.integers(257, 300),
    st.lists(st.text(alphabet="abcd ", max_size=30), max_size=10),
)
def test_trained_vocabularies_never_disagree_with_tiktoken(corpus, size, probes):
    tok = bpe.Tokenizer(*bpe.train(corpus, size))
    enc = tok.to_tiktoken()
    for text in probes + [corpus]:
        assert enc.encode_ordinary(text) == tok.encode(text)


def test_a_hand_made_merge_list_can_disagree():
    # (b, c) first, then (a, b), then abc built as ab + c: "abc" encodes as a + bc by
    # merges, but tiktoken sees that the bytes "abc" have a rank and joins them.
    vocab = {i: bytes([i]) for i in range(256)}
    vocab.update({256: b"bc", 257: b"ab", 258: b"abc"})
    tok = bpe.Tokenizer(vocab, [(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")])
    assert tok.encode("abc") == [97, 256]
    assert tok.to_tiktoken().encode("abc") == [258]


def test_from_tiktoken_recovers_gpt2s_merges():
    assert (
        bpe.Tokenizer.from_tiktoken(get_encoding("gpt2")).merges == _gpt2_files().merges
    )


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_from_tiktoken_encodes_like_tiktoken(name):
    enc = get_encoding(name)
    tok = bpe.Tokenizer.from_tiktoken(enc)
    for text in SAMPLES:
        assert tok.encode(text) == enc.encode(text, allowed_special="all"), text


def test_split_by_ranks():
    ranks = {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"abc": 4}
    assert split_by_ranks(b"abc", ranks, 4) == (b"a", b"bc")
    with pytest.raises(ValueError, match="cannot be built"):
        split_by_ranks(b"abc", {b"a": 0, b"b": 1, b"c": 2}, 3)


def test_huggingface_round_trip(stories_tok, tmp_path, tinystories_train_text):
    from tokenizers import Tokenizer as HFTokenizer

    path = tmp_path / "tokenizer.json"
    stories_tok.to_huggingface(path)
    hf = HFTokenizer.from_file(str(path))
    text = tinystories_train_text[-100_000:]
    assert hf.encode(text).ids == stories_tok.encode(text)
    assert hf.decode(stories_tok.encode(text), skip_special_tokens=False) == text
    assert bpe.Tokenizer.from_huggingface(path) == stories_tok


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not a byte-level BPE"),
        ('{"model": {"type": "WordPiece"}}', "expected 'BPE'"),
        (
            '{"model": {"type": "BPE", "vocab": {}, "merges": []}}',
            "not a byte-level BPE",
        ),
    ],
)
def test_malformed_tokenizer_json(tmp_path, content, message):
    path = tmp_path / "tokenizer.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        bpe.Tokenizer.from_huggingface(path)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"YQ== 0\nYg== x\n", "line 2"),
        (b"YQ== 0\n!!!! 1\n", "line 2"),
        (b"YQ== 0\nYQ== 1\n", "appears twice"),
        (b"YQ==\n", "line 1"),
    ],
)
def test_malformed_tiktoken_file(tmp_path, content, message):
    path = tmp_path / "x.tiktoken"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        parse_tiktoken(path.read_bytes(), path)


def test_tiktoken_file_round_trip(tmp_path, toy):
    import base64

    lines = [
        base64.b64encode(t) + b" " + str(i).encode()
        for t, i in sorted(toy.token_id.items(), key=lambda x: x[1])
        if t != EOT.encode()
    ]
    path = tmp_path / "toy.tiktoken"
    path.write_bytes(b"\n".join(lines) + b"\n")
    ranks = parse_tiktoken(path.read_bytes(), path)
    assert ranks == toy.to_tiktoken()._mergeable_ranks
