"""PieceEncoder (ids) against encode_word (bytes): the same tokens for every pre-token."""
from hypothesis import given, strategies as st

import bpe
from bpe.scale.piece import PieceEncoder, merge_at
from bpe.pretokenize import pretokens


def plain(tok, piece):
    """The ids encode_word gives: the reference the fast encoder must match."""
    return tuple(tok.token_id[t] for t in bpe.encode_word(bpe.to_bytes(piece), tok.rank))


def test_merge_at_goes_left_to_right_without_overlap():
    ids = [7, 7, 7, 7, 7]
    merge_at(ids, [0, 0, 0, 0], 0, 9)
    assert ids == [9, 9, 7]
    ids = [1, 2, 3, 1, 2]
    merge_at(ids, [5, 8, 9, 5], 5, 4)
    assert ids == [4, 3, 4]


def test_toy_pieces(toy):
    for piece in [" newest", "lowest", "newer", "zzqq", "", "🙃", " widest"]:
        assert toy.encode_piece(piece) == plain(toy, piece)
    assert toy.encode_piece(" newest") == (263,)


words = st.text(alphabet="ab c", max_size=12)


@given(st.lists(words, min_size=1, max_size=8), words)
def test_same_as_encode_word_on_trained_vocabularies(corpus, piece):
    tok = bpe.Tokenizer(*bpe.train(" ".join(corpus), 300))
    assert tok.encode_piece(piece) == plain(tok, piece)


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc")), max_size=6), words)
def test_same_as_encode_word_in_any_merge_order(pairs, piece):
    """Merge lists need not be in training order (hand-made, repeated pairs): still the same."""
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for left, right in pairs:  # merges of single letters, in whatever order Hypothesis picks
        merges.append((left.encode(), right.encode()))
        if (left + right).encode() not in vocab.values():
            vocab[len(vocab)] = (left + right).encode()
    tok = bpe.Tokenizer(vocab, merges)
    assert tok.encode_piece(piece) == plain(tok, piece)


def test_same_as_encode_word_on_the_stories(tinystories_train_text):
    vocab, merges = bpe.train(tinystories_train_text[:200_000], 1_000)
    tok = bpe.Tokenizer(vocab, merges)
    pieces = sorted(set(pretokens(tinystories_train_text[:200_000])))
    encoder = PieceEncoder(tok.rank, tok.token_id)
    assert [encoder(p) for p in pieces] == [plain(tok, p) for p in pieces]
