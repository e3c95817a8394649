import pytest
from hypothesis import given
from hypothesis import strategies as st

import bpe
from bpe.book.chapters.display import show_tokens

EOT = "<|endoftext|>"


def test_encode_word_follows_rank_not_position(toy):
    steps = []
    result = bpe.encode_word(
        bpe.to_bytes("lowest"), toy.rank, on_step=lambda t, c, p: steps.append(p)
    )
    assert result == (b"low", b"est")
    assert steps == [(b"s", b"t"), (b"e", b"st"), (b"o", b"w"), (b"l", b"ow")]


def test_toy_encodings_match_the_article(toy):
    assert toy.encode(" newest") == [263]
    assert toy.encode("newer") == [261, 119, 101, 114]
    assert toy.encode("zzqq") == [122, 122, 113, 113]
    text = "the lowest widest fox<|endoftext|>newest lower"
    ids = toy.encode(text)
    assert len(ids) == 21 and ids[15] == 264
    assert toy.decode(ids) == text


def test_specials_map_straight_to_their_id(toy):
    assert toy.encode(EOT) == [264]
    assert toy.encode(EOT + EOT) == [264, 264]


def test_decode_replaces_broken_utf8(toy):
    assert toy.decode([240, 159, 153, 131]) == "🙃"
    assert toy.decode([240, 159]) == "\ufffd"
    assert toy.decode_bytes([240, 159]) == b"\xf0\x9f"


@pytest.mark.parametrize("ids", [[265], [-1], [1.5], ["a"]])
def test_decode_unknown_id_raises(toy, ids):
    with pytest.raises(ValueError, match="not in the vocabulary"):
        toy.decode(ids)


def test_encode_refuses_non_strings(toy):
    with pytest.raises(TypeError):
        toy.encode(b"bytes")


def test_vocab_must_hold_every_byte():
    with pytest.raises(ValueError, match="single bytes"):
        bpe.Tokenizer({i: bytes([i]) for i in range(255)}, [])


def test_merge_parts_must_be_in_vocab():
    vocab = {i: bytes([i]) for i in range(256)}
    with pytest.raises(ValueError, match="not in vocab"):
        bpe.Tokenizer(vocab, [(b"a", b"b")])


def test_special_must_be_in_vocab():
    vocab = {i: bytes([i]) for i in range(256)}
    with pytest.raises(ValueError, match="special token"):
        bpe.Tokenizer(vocab, [], specials=[EOT])


def test_tokenizer_equality(toy, toy_corpus):
    again = bpe.Tokenizer(*bpe.train(toy_corpus, 265, specials=[EOT]), specials=[EOT])
    assert again == toy
    assert bpe.Tokenizer(*bpe.train(toy_corpus, 264)) != toy
    assert "9 merges" not in repr(toy) and "8 merges" in repr(toy)


@given(st.text())
def test_round_trip_on_any_text(text):
    tok = bpe.Tokenizer(*bpe.train("low lower newest widest 123 !!", 280))
    assert tok.decode(tok.encode(text)) == text


@given(st.lists(st.one_of(st.text(max_size=20), st.just(EOT))))
def test_round_trip_with_specials(pieces):
    text = "".join(pieces)
    tok = bpe.Tokenizer(
        *bpe.train("low lower" + EOT + "newest", 270, specials=[EOT]), specials=[EOT]
    )
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    assert ids.count(tok.special_id[EOT]) == text.count(EOT)


@given(st.text(min_size=1, max_size=80))
def test_encoding_the_training_text_never_grows_it(text):
    tok = bpe.Tokenizer(*bpe.train(text, 300))
    assert len(tok.encode(text)) <= len(text.encode("utf-8"))


def test_show_tokens_marks_spaces_and_raw_bytes():
    assert show_tokens([b"the", b" th", b"\xe1", b"\n"]) == "the | ␣th | <E1> | ⏎"


@pytest.mark.parametrize("listed", [["<|e|>", "<|e|><|e|>"], ["<|e|><|e|>", "<|e|>"]])
def test_the_longest_special_wins_in_encode_and_train(listed):
    """Where two specials start at one place, the longer is the token, whatever the
    order they were given in (encode sorts them its own way before splitting)."""
    from bpe.tokenizer import Tokenizer as CoreTokenizer
    from bpe.trainer import train as core_train

    text = "ab<|e|><|e|>ab<|e|>ab"
    assert bpe.split_special(text, listed) == [
        *("ab", "<|e|><|e|>", "ab", "<|e|>", "ab"),
    ]
    for train, Tokenizer in [(core_train, CoreTokenizer), (bpe.train, bpe.Tokenizer)]:
        vocab, merges = train(text + " ab<|e|", 259, listed)
        assert merges[0] == (b"a", b"b")  # no special's bytes were counted as text
        tok = Tokenizer(vocab, merges, listed)
        double, single = tok.special_id["<|e|><|e|>"], tok.special_id["<|e|>"]
        assert tok.encode(text) == [256, double, 256, single, 256]
