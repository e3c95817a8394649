"""What ``import bpe`` plugs into the core gives the core's answers.

``bpe.train`` and ``bpe.Tokenizer`` (``scale/``) against ``bpe.trainer.train`` and
``bpe.tokenizer.Tokenizer`` (the core): the same merges, the same ids, the same
files, on any text (both read Unicode as ``regex`` does; test_one_view.py walks
every code point). Only lone surrogates are left out: UTF-8 cannot encode them, and
both refuse them.
"""

import warnings

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bpe
from bpe.interop.unicode import NEWER
from bpe.scale.compact import compact_merges
from bpe.scale.indexed import indexed_merges
from bpe.tokenizer import Tokenizer as CoreTokenizer
from bpe.trainer import lowest_ids, naive_merges
from bpe.trainer import train as core_train

EOT = "<|endoftext|>"
words = st.sampled_from(
    ["low", " lower", " newest", "widest", " café", "牛", "🙃", "'s", " 12", "!!", "\n"]
)
# code points whose class regex's tables and Python's (or tiktoken's) disagree on,
# where the two used to differ
changed = st.text(st.sampled_from(sorted(NEWER)), min_size=1, max_size=4)
corpora = st.lists(
    st.one_of(words, st.text(max_size=8), changed, st.just(EOT)), max_size=40
)


def comparable(text):
    return not any("\ud800" <= c <= "\udfff" for c in text)


@settings(max_examples=80)
@given(corpora.map("".join), st.integers(256, 330), st.booleans())
def test_bpe_train_learns_the_cores_merges(text, vocab_size, with_specials):
    assume(comparable(text))
    specials = [EOT] if with_specials else []
    vocab_size = max(vocab_size, 256 + len(specials))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert bpe.train(text, vocab_size, specials) == core_train(
            text, vocab_size, specials
        )
        # a tie-break of the lesson's: the naive loop, on the fast counts
        assert bpe.train(text, vocab_size, specials, tie_break=lowest_ids) == (
            core_train(text, vocab_size, specials, tie_break=lowest_ids)
        )


@settings(max_examples=80)
@given(
    st.dictionaries(
        st.lists(st.sampled_from([b"a", b"b", b"c", b" "]), min_size=1, max_size=8).map(
            tuple
        ),
        st.integers(1, 9),
        max_size=12,
    ),
    st.integers(0, 30),
)
def test_the_heap_trainer_learns_naive_merges(table, n):
    assert indexed_merges(table, n, use_heap=True)[0] == naive_merges(table, n)
    assert indexed_merges(table, n, use_heap=False)[0] == naive_merges(table, n)
    assert compact_merges(table, n)[0] == naive_merges(table, n)


@pytest.fixture(scope="module")
def pair(toy_corpus):
    vocab, merges = core_train(toy_corpus * 3 + " café 牛 🙃 it's 2026", 330, [EOT])
    return bpe.Tokenizer(vocab, merges, [EOT]), CoreTokenizer(vocab, merges, [EOT])


@settings(max_examples=200)
@given(corpora.map("".join))
def test_bpe_tokenizer_gives_the_cores_ids(pair, text):
    assume(comparable(text))
    fast, core = pair
    assert fast.encode(text) == core.encode(text)
    assert fast.encode_ordinary(text) == core.encode_ordinary(text)


def test_long_pieces_and_the_held_out_stories(pair, tinystories_train_text):
    fast, core = pair
    for text in ["a" * 5000, "ab" * 3000 + " " * 700, tinystories_train_text[:200_000]]:
        assert fast.encode(text) == core.encode(text)


def test_both_save_the_same_files_and_load_each_other(tmp_path, pair):
    fast, core = pair
    fast.save(tmp_path / "fast")
    core.save(tmp_path / "core")
    for name in ("vocab.json", "merges.txt", "special_tokens.json"):
        assert (tmp_path / "fast" / name).read_bytes() == (
            tmp_path / "core" / name
        ).read_bytes()
    assert CoreTokenizer.load(tmp_path / "fast") == fast == core
    assert bpe.Tokenizer.load(tmp_path / "core") == core
