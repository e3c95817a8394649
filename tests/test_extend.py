"""Training that goes on from a start (``start=``, ``bpe train --from``).

The proof is differential: k + m merges learned from scratch equal k merges, then m
more learned from the first k, on the naive and the heap trainers, with and without
special tokens, and through every training route. Then the ids: a start keeps its
own, the new tokens come after them, and the result saves, loads and exports to
tiktoken and Hugging Face with the same ids.
"""

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.data.corpora import en_vi_pairs
from bpe.interop.openai import get_encoding
from bpe.scale.cli import main
from bpe.scale.pipeline import train_file, train_files, train_iterator
from bpe.tokenizer import Tokenizer as CoreTokenizer
from bpe.trainer import OutOfPairs, lowest_ids

EOT = "<|endoftext|>"
words = st.sampled_from(
    ["low", " lower", " newest", "widest", " café", "牛", "🙃", "'s", " 12", "!!", "\n"]
)
texts = st.lists(
    st.one_of(words, st.text("abc ", max_size=8), st.text(max_size=4), st.just(EOT)),
    max_size=40,
).map("".join)


def quietly(run, *args, **options):
    """run(*args, **options), without the warning that a text ran out of pairs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OutOfPairs)
        return run(*args, **options)


def base(specials):
    return 256 + len(specials)


@pytest.fixture(scope="module")
def gpt2():
    return bpe.Tokenizer.from_tiktoken(get_encoding("gpt2"))


@pytest.fixture(scope="module")
def vietnamese():
    """A few hundred Vietnamese sentences to learn from, and others to encode."""
    pairs = en_vi_pairs("tatoeba")
    return "\n".join(vi for _, vi in pairs[:600]), pairs[2000:]


@settings(max_examples=60)
@given(
    texts,
    st.integers(0, 25),
    st.integers(1, 25),
    st.booleans(),
    st.sampled_from(["naive", "heap"]),
)
def test_k_then_m_more_equals_k_plus_m(text, k, m, with_specials, method):
    specials = [EOT] if with_specials else []
    vocab, merges = quietly(
        bpe.train, text, base(specials) + k + m, specials, method=method
    )
    first = quietly(bpe.train, text, base(specials) + k, specials, method=method)
    start = bpe.Tokenizer(*first, specials)
    more = quietly(
        bpe.train, text, len(start.vocab) + m, specials, method=method, start=start
    )
    assert more[1] == merges
    # From a merge list, the vocabulary too is the one trained from scratch.
    again = quietly(
        bpe.train, text, base(specials) + k + m, specials, method=method, start=first[1]
    )
    assert again == (vocab, merges)


@settings(max_examples=40)
@given(texts, st.integers(0, 20), st.integers(1, 20), st.booleans())
def test_the_lessons_tie_break_goes_on_with_the_ids_it_had(text, k, m, with_specials):
    specials = [EOT] if with_specials else []
    size = base(specials)
    merges = quietly(bpe.train, text, size + k + m, specials, tie_break=lowest_ids)[1]
    first = quietly(bpe.train, text, size + k, specials, tie_break=lowest_ids)
    start = bpe.Tokenizer(*first, specials)
    more = quietly(
        bpe.train,
        text,
        len(start.vocab) + m,
        specials,
        tie_break=lowest_ids,
        start=start,
    )
    assert more[1] == merges


@settings(max_examples=25)
@given(
    texts.filter(bool),  # an empty file is refused, with or without a start
    st.integers(0, 20),
    st.integers(1, 20),
    st.booleans(),
    st.sampled_from([1, 2]),
)
def test_files_go_on_as_they_began(
    tmp_path_factory, text, k, m, with_specials, workers
):
    specials = [EOT] if with_specials else []
    folder = tmp_path_factory.mktemp("extend")
    path = folder / "corpus.txt"
    path.write_text(text, encoding="utf-8", newline="")
    halves = [folder / "a.txt", folder / "b.txt"]
    middle = len(text) // 2
    for half, part in zip(halves, [text[:middle], text[middle:]], strict=True):
        half.write_text(part, encoding="utf-8", newline="")
    for train, source in [(train_file, path), (train_files, halves)]:
        full = quietly(train, source, base(specials) + k + m, specials, workers)
        first = quietly(train, source, base(specials) + k, specials, workers)
        start = bpe.Tokenizer(*first[:2], specials)
        more = quietly(
            train, source, len(start.vocab) + m, specials, workers, start=start
        )
        assert more[1] == full[1]
        assert more[2].start_merges == len(first[1])
        assert more[2].merges == len(full[1]) - len(first[1])


@settings(max_examples=40)
@given(texts, st.integers(1, 30), st.randoms(use_true_random=False))
def test_naive_and_heap_agree_from_a_start_with_other_ids(text, m, rng):
    # tiktoken's vocabularies do not put the bytes at ids 0..255: shuffle them
    first = quietly(bpe.train, text, 270)
    ids = list(range(len(first[0])))
    rng.shuffle(ids)
    start = bpe.Tokenizer(dict(zip(ids, first[0].values(), strict=True)), first[1])
    naive = quietly(bpe.train, text, len(start.vocab) + m, method="naive", start=start)
    heap = quietly(bpe.train, text, len(start.vocab) + m, method="heap", start=start)
    assert naive == heap


def test_ids_stay_and_new_ones_follow_the_largest(gpt2, vietnamese):
    text, _ = vietnamese
    vocab, merges = bpe.train(text, len(gpt2.vocab) + 300, start=gpt2)
    assert merges[: len(gpt2.merges)] == gpt2.merges and len(merges) == 50_300
    assert {i: vocab[i] for i in gpt2.vocab} == gpt2.vocab  # <|endoftext|> included
    assert sorted(set(vocab) - set(gpt2.vocab)) == list(range(50_257, 50_557))
    assert [vocab[50_257 + n] for n in range(300)] == [
        a + b for a, b in merges[50_000:]
    ]
    assert bpe.train(text, len(gpt2.vocab) + 40, method="naive", start=gpt2) == (
        {i: t for i, t in vocab.items() if i < 50_297},
        merges[:50_040],
    )


def test_an_extension_encodes_as_its_start_where_no_new_merge_applies(gpt2):
    vocab, merges = bpe.train("xin chào " * 50, len(gpt2.vocab) + 3, start=gpt2)
    extended = bpe.Tokenizer(vocab, merges, gpt2.specials, gpt2.pattern)
    english = "The quick brown fox jumps over the lazy dog.<|endoftext|>"
    assert extended.encode(english) == gpt2.encode(english)
    assert len(extended.encode(" xin chào")) < len(gpt2.encode(" xin chào"))


def test_extensions_save_load_and_export_with_the_same_ids(tmp_path, gpt2, vietnamese):
    text, pairs = vietnamese
    book = bpe.Tokenizer(*bpe.train(text[:3000], 400, [EOT]), [EOT])
    held_out = [s for pair in pairs for s in pair] + ["xin chào<|endoftext|>thế giới"]
    for start in (gpt2, book):
        vocab, merges = bpe.train(text, len(start.vocab) + 500, start=start)
        extended = bpe.Tokenizer(vocab, merges, start.specials, start.pattern)
        extended.save(tmp_path / "saved")
        loaded = bpe.Tokenizer.load(tmp_path / "saved", start.pattern)
        assert (
            loaded == extended and CoreTokenizer.load(tmp_path / "saved").vocab == vocab
        )
        as_tiktoken = extended.to_tiktoken()
        as_hf = extended.to_huggingface(tmp_path / "tokenizer.json")
        reloaded = bpe.Tokenizer.from_huggingface(tmp_path / "tokenizer.json")
        assert reloaded.vocab == vocab and reloaded.merges == merges
        assert as_tiktoken.n_vocab == extended.n_vocab
        for sentence in held_out:
            ids = extended.encode(sentence)
            assert loaded.encode(sentence) == ids
            assert as_tiktoken.encode(sentence, allowed_special="all") == ids
            assert as_hf.encode(sentence).ids == ids
            assert extended.decode(ids) == sentence


def test_train_iterator_goes_on_too(vietnamese, gpt2):
    text, _ = vietnamese
    size = len(gpt2.vocab) + 100
    vocab, merges, report = train_iterator([text], size, workers=1, start=gpt2)
    assert (vocab, merges) == bpe.train(text, size, start=gpt2)
    assert "100 merges after the start's 50,000; vocabulary 50,357" in str(report)


def one_line_error(error):
    message = str(error.value)
    assert "\n" not in message
    return message


def test_what_cannot_be_extended_is_refused_in_one_line(gpt2):
    book = bpe.Tokenizer(*bpe.train("low lower lowest " * 9, 262, [EOT]), [EOT])
    with pytest.raises(ValueError) as error:
        bpe.train("low", 262, start=book)
    assert "vocab_size=262 is not above the start's 262 entries" in one_line_error(
        error
    )
    with pytest.raises(ValueError) as error:
        train_iterator(["xin chào"], 50_000, start=gpt2)
    assert "not above the start's 50,257 entries" in one_line_error(error)
    with pytest.raises(ValueError) as error:
        bpe.train("low", 300, pattern=r"\S+|\s+", start=book)
    assert "differs from the start's" in one_line_error(error)
    with pytest.raises(ValueError) as error:
        bpe.train("low", 300, ["<|im_end|>"], start=book)
    assert "special tokens ['<|im_end|>'] differ from the start's" in one_line_error(
        error
    )
    with pytest.raises(TypeError) as error:
        bpe.train("low", 300, start=get_encoding("gpt2"))
    assert "from_tiktoken" in one_line_error(error)
    with pytest.raises(TypeError) as error:
        bpe.train("low", 300, start=[(b"l", "o")])
    assert "start merge 0" in one_line_error(error)
    with pytest.raises(ValueError) as error:
        bpe.train("low", 300, start=[(b"l", b"ow")])
    assert "not in vocab" in one_line_error(error)


def test_the_starts_specials_and_pattern_need_not_be_repeated(gpt2):
    assert bpe.train("xin chào", 50_260, [EOT], gpt2.pattern, start=gpt2) == bpe.train(
        "xin chào", 50_260, start=gpt2
    )


def test_bpe_train_from_a_folder(tmp_path, capsys, vietnamese):
    text, _ = vietnamese
    corpus = tmp_path / "vi.txt"
    corpus.write_text(text, encoding="utf-8")
    start = bpe.Tokenizer(*bpe.train(text[:2000], 300, [EOT]), [EOT])
    start.save(tmp_path / "start")

    def train(start_folder, vocab_size):
        return main(
            [
                "train",
                str(corpus),
                "--from",
                str(start_folder),
                "--quiet",
                "--vocab-size",
                str(vocab_size),
                "--out",
                str(tmp_path / "out"),
            ]
        )

    assert train(tmp_path / "start", 450) == 0
    assert "150 merges after the start's 43" in capsys.readouterr().out
    extended = bpe.Tokenizer.load(tmp_path / "out")
    assert extended.specials == (EOT,) and extended.vocab[299] == EOT.encode()
    assert (extended.vocab, extended.merges) == bpe.train(text, 450, start=start)
    assert train(tmp_path / "start", 300) == 1
    assert "not above the start's 300 entries" in capsys.readouterr().err
    assert train(tmp_path, 450) == 1
    assert "holds no vocab.json" in capsys.readouterr().err


def test_the_first_n_new_merges_are_what_asking_for_n_learns(gpt2, vietnamese):
    from bpe.book.chapters.analysis import first_merges

    text, _ = vietnamese
    vocab, merges = bpe.train(text, len(gpt2.vocab) + 400, start=gpt2)
    extended = bpe.Tokenizer(vocab, merges, gpt2.specials, gpt2.pattern)
    fewer = bpe.train(text, len(gpt2.vocab) + 150, start=gpt2)
    assert first_merges(extended, gpt2, 150) == bpe.Tokenizer(
        *fewer, gpt2.specials, gpt2.pattern, unicode=gpt2.unicode
    )
    assert first_merges(extended, gpt2, 0) == gpt2  # its Unicode view included
