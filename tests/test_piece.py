"""PieceEncoder (ids, in rounds) against encode_word (bytes): the same tokens for every
piece."""

from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.pretokenizer import pretokens
from bpe.scale.piece import LONGEST_CACHED, PieceCache, PieceEncoder


def plain(tok, piece):
    """The ids encode_word gives: the reference the fast encoder must match."""
    return tuple(
        tok.token_id[t] for t in bpe.encode_word(bpe.to_bytes(piece), tok.rank)
    )


def test_runs_merge_left_to_right_without_overlap():
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"aa", 257: b"aaaa"}
    tok = bpe.Tokenizer(vocab, [(b"a", b"a"), (b"aa", b"aa")])
    for n in range(12):
        assert tok.encode_piece("a" * n) == plain(tok, "a" * n)
    assert tok.encode_piece("aaaaaaa") == (257, 256, 97)


def test_toy_pieces(toy):
    for piece in [" newest", "lowest", "newer", "zzqq", "", "🙃", " widest"]:
        assert toy.encode_piece(piece) == plain(toy, piece)
    assert toy.encode_piece(" newest") == (263,)
    pieces = [" newest", "", "lowest", "lowest", "zz"]
    assert toy.encode_pieces.all(pieces) == [plain(toy, p) for p in pieces]


words = st.text(alphabet="ab c", max_size=12)


@given(st.lists(words, min_size=1, max_size=8), words)
def test_same_as_encode_word_on_trained_vocabularies(corpus, piece):
    tok = bpe.Tokenizer(*bpe.train(" ".join(corpus), 300))
    assert tok.encode_piece(piece) == plain(tok, piece)


def any_merge_order(pairs):
    """A Tokenizer whose merges join single letters in any order Hypothesis picks."""
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for left, right in pairs:
        merges.append((left.encode(), right.encode()))
        if (left + right).encode() not in vocab.values():
            vocab[len(vocab)] = (left + right).encode()
    return bpe.Tokenizer(vocab, merges)


letters = st.sampled_from("abc")
tables = st.lists(st.tuples(letters, letters), max_size=6)


@given(tables, words)
def test_same_as_encode_word_in_any_merge_order(pairs, piece):
    """Merges out of training order (hand-made, repeated pairs): still the same ids."""
    tok = any_merge_order(pairs)
    assert tok.encode_piece(piece) == plain(tok, piece)


def deep_table(text):
    """Merges trained on text, then shuffled ranks: merges of merges, in any order."""
    return bpe.Tokenizer(*bpe.train(text, 290, pattern=None))


@settings(max_examples=80)
@given(
    st.text(alphabet="ab", min_size=1, max_size=40),
    st.integers(1, 400),
    st.lists(st.text(alphabet="abc ", max_size=30), max_size=5),
)
def test_long_runs_and_many_pieces_at_once(seed, run, others):
    """Long runs of one or two letters, encoded among other pieces, on deep merges."""
    tok = deep_table(seed * 3)
    pieces = ["a" * run, (seed * run)[:500], *others, "b" * (run // 3)]
    assert tok.encode_pieces.all(pieces) == [plain(tok, p) for p in pieces]


@settings(max_examples=60)
@given(tables, st.integers(0, 300), st.sampled_from(["a", "ab", "abc", "aab"]))
def test_long_pieces_in_any_merge_order(pairs, n, unit):
    tok = any_merge_order(pairs)
    piece = (unit * n)[:n]
    assert tok.encode_piece(piece) == plain(tok, piece)


def test_same_as_encode_word_on_the_stories(tinystories_train_text):
    vocab, merges = bpe.train(tinystories_train_text[:200_000], 1_000)
    tok = bpe.Tokenizer(vocab, merges)
    pieces = sorted(set(pretokens(tinystories_train_text[:200_000])))
    encoder = PieceEncoder(tok.merges, tok.token_id)
    assert encoder.all(pieces) == [plain(tok, p) for p in pieces]


def test_the_cache_stays_bounded_and_skips_long_pieces(toy):
    cache = PieceCache(3)
    encode = toy.encode_pieces.all
    table = cache.table(["a", "b", "a"], encode)
    assert table is cache and set(cache) == {"a", "b"}
    table = cache.table(
        ["c", "d", "a"], encode
    )  # too many: this text's pieces replace it
    assert set(table) == {"a", "c", "d"} and len(cache) == 3
    long = "x" * (LONGEST_CACHED + 1)
    table = cache.table([long], encode)
    assert table[long] == plain(toy, long) and long not in cache
    assert PieceCache(0).table(["a"], encode) == {"a": (97,)}


def test_a_long_piece_leaves_a_cache_with_room_as_it_was(toy):
    """A piece too long to keep is encoded, not kept, and empties nothing."""
    cache = PieceCache(10)
    encode = toy.encode_pieces.all
    cache.table(["a", "b"], encode)
    long = "y" * (LONGEST_CACHED + 1)
    table = cache.table([long, "c", "a"], encode)
    assert table[long] == plain(toy, long) and long not in cache
    assert {p: table[p] for p in "ac"} == {p: plain(toy, p) for p in "ac"}
    assert set(cache) == {"a", "b", "c"}  # b was kept: there was room
