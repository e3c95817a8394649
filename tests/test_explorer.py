"""The merge explorer's JavaScript must learn exactly bpe.train's merges.

Both tie-break rules (the article's greater pair, the lesson's smaller ids), with
GPT-2's pre-tokenizer and with none; and its "encode a word" trace must be chapter
05's, line for line.
"""

import warnings
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from js_strings import strings

import bpe
from bpe.book.chapters.display import trace_encode
from bpe.book.chapters.explorer import explorer_html
from bpe.interop.unicode import DIFFERENCES, find_as_tiktoken
from bpe.pretokenizer import finder

CORPORA = {
    "toy": (Path(__file__).resolve().parents[1] / "data" / "toy_corpus.txt").read_text(
        encoding="utf-8"
    ),
    "english": (
        "Once upon a time, there was a little boat. The boat liked to sail on the big "
        "blue sea. One day, it's windy: the boat's sails flapped, and the boat went "
        "faster and faster!\n\n"
    )
    * 3,
    "vietnamese": "Xin chào thế giới! Hôm nay trời đẹp quá. Tôi đi học ở trường, "
    "còn bạn đi làm ở đâu? " * 4,
    "emoji": "🙃🙂 emoji 🙃 again 🦊🦊🦊 fox 🙂🙃 " * 5,
    "digits": "12345678 1234 99 2026-11-30 3.14159 1,000,000 007 " * 6,
    "whitespace": "a  b\t\tc \n\n d\u00a0e\u2028f   \n" * 5,
    "long": "word " * 1500,  # more than 4,000 characters: only the first 4,000 count
    # letters of new Unicode versions, which tiktoken does not know; bpe.train (and so
    # the explorer) reads them as `regex` does
    "newer": "".join(
        f"a{chr(first)}b {chr(last)}{chr(last)}c " for first, last, _ in DIFFERENCES
    )
    * 3,
}
TIE_BREAKS = {"greater": bpe.greater_pair, "lowest": bpe.lowest_ids}
PRETOKENIZERS = {"gpt2": bpe.PAT, "none": None}


def python_merges(text, n, tie_break="greater", pretokenizer="gpt2", specials=()):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a short text runs out of pairs: fine here
        return bpe.train(
            text,
            256 + len(specials) + n,
            specials=list(specials),
            pattern=PRETOKENIZERS[pretokenizer],
            tie_break=TIE_BREAKS[tie_break],
        )[1]


def javascript_merges(node, text, n, **options):
    return [
        (bytes(a), bytes(b))
        for a, b in node("train", text=text, merges=n, options=options)
    ]


@pytest.mark.parametrize("pretokenizer", sorted(PRETOKENIZERS))
@pytest.mark.parametrize("tie_break", sorted(TIE_BREAKS))
@pytest.mark.parametrize("name", sorted(CORPORA))
def test_javascript_learns_the_same_merges(node, name, tie_break, pretokenizer):
    most = node("constants")["MAX_CHARACTERS"]  # explorer.js reads only this much
    text = "".join(list(CORPORA[name])[:most])
    options = {"tieBreak": tie_break, "pretokenizer": pretokenizer}
    got = javascript_merges(node, CORPORA[name], 60, **options)
    assert got == python_merges(text, 60, tie_break, pretokenizer)


@settings(max_examples=40)
@given(
    text=strings(max_size=200),
    tie_break=st.sampled_from(sorted(TIE_BREAKS)),
    pretokenizer=st.sampled_from(sorted(PRETOKENIZERS)),
)
def test_generated_texts(node, text, tie_break, pretokenizer):
    options = {"tieBreak": tie_break, "pretokenizer": pretokenizer}
    got = javascript_merges(node, text, 30, **options)
    assert got == python_merges(text, 30, tie_break, pretokenizer)


def changed_code_points(node) -> list[str]:
    """Every code point bpe.js swaps before matching (its CHANGED, bpe.interop.unicode):
    the ones engines' Unicode tables may class differently."""
    rows = node("changed")["changed"].split()
    found = []
    for row in rows:
        first, _, last = row[:-2].partition("-")
        found += map(chr, range(int(first, 16), int(last or first, 16) + 1))
    return found


def test_every_changed_code_point_is_cut_as_bpe_train_cuts(node):
    """Exhaustively: each of the 27,045 code points, in a text that shows its
    classes, is pre-tokenized by the explorer (bpe.js's GPT-2 pattern, `regex`'s
    view) as by bpe.train; by tiktoken's view, as by find_as_tiktoken."""
    points = changed_code_points(node)
    assert len(points) == 27_045
    texts = [f"x{c}y {c}{c}a 1{c} {c}'s \u0300{c} {c}" for c in points]
    ours = node("pieces", texts=texts, unicode="regex")
    assert ours == [[len(p) for p in finder(bpe.PAT)(t)] for t in texts]
    search = regex.compile(bpe.PAT)
    theirs = node("pieces", texts=texts, unicode="tiktoken")
    assert theirs == [[len(p) for p in find_as_tiktoken(search, t)] for t in texts]
    assert sum(a != b for a, b in zip(ours, theirs, strict=True)) > 17_000  # they part


def test_the_rules_part_where_the_chapter_says(node, toy_corpus):
    """On the toy corpus the article takes (s, t) first and the lesson (e, s)."""
    greater = javascript_merges(node, toy_corpus, 1, tieBreak="greater")
    lowest = javascript_merges(node, toy_corpus, 1, tieBreak="lowest")
    assert greater == [(b"s", b"t")] and lowest == [(b"e", b"s")]


@pytest.mark.parametrize("word", ["lowest", " newest", "newer", "zzqq", " widest"])
@pytest.mark.parametrize("merges", [0, 3, 8])
def test_encode_a_word_traces_like_chapter_05(node, toy_corpus, word, merges):
    vocab, learned = bpe.train(toy_corpus, 256 + merges)
    expected = trace_encode(word, bpe.Tokenizer(vocab, learned))
    got = node("trace", text=toy_corpus, merges=merges, word=word)
    assert got == expected


@pytest.mark.parametrize("tie_break", sorted(TIE_BREAKS))
def test_a_trained_vocabulary_encodes_as_the_tokenizer_does(node, tie_break):
    """What the playground's "train on my text" builds: the explorer's merges, with
    <|endoftext|>, encoding other text exactly as bpe.Tokenizer would."""
    text = CORPORA["english"] + bpe.ENDOFTEXT + CORPORA["vietnamese"]
    options = {"tieBreak": tie_break, "specials": [bpe.ENDOFTEXT]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vocab, merges = bpe.train(
            text, 256 + 150 + 1, [bpe.ENDOFTEXT], tie_break=TIE_BREAKS[tie_break]
        )
    tokenizer = bpe.Tokenizer(vocab, merges, [bpe.ENDOFTEXT])
    texts = [
        "the boat sailed on<|endoftext|>Xin chào!",
        CORPORA["emoji"],
        CORPORA["digits"] + "<|endoftext|>",
        "a" * 5000,
    ]
    for allow in (False, True):
        got = node(
            "trained",
            text=text,
            merges=150,
            options=options,
            texts=texts,
            allowSpecial=allow,
        )
        encode = (
            (lambda t: tokenizer.encode(t, allowed_special="all"))
            if allow
            else tokenizer.encode_ordinary
        )
        assert got == [encode(t) for t in texts]


@settings(max_examples=30)
@given(
    text=strings(max_size=120).map(lambda s: s * 3),
    others=st.lists(strings(max_size=80).map(lambda s: s * 5), min_size=5, max_size=5),
    tie_break=st.sampled_from(sorted(TIE_BREAKS)),
    pretokenizer=st.sampled_from(sorted(PRETOKENIZERS)),
)
def test_generated_trained_vocabularies(node, text, others, tie_break, pretokenizer):
    options = {"tieBreak": tie_break, "pretokenizer": pretokenizer}
    merges = python_merges(text, 40, tie_break, pretokenizer)
    vocab = {i: bytes([i]) for i in range(256)}
    vocab.update({256 + i: a + b for i, (a, b) in enumerate(merges)})
    tokenizer = bpe.Tokenizer(vocab, merges, pattern=PRETOKENIZERS[pretokenizer])
    got = node("trained", text=text, merges=40, options=options, texts=others)
    assert got == [tokenizer.encode_ordinary(t) for t in others]


def test_html_embeds_the_script_and_escapes_the_corpus():
    page = explorer_html("a < b & c")
    assert "a &lt; b &amp; c" in page
    assert "function train(text, n" in page and "function encodePiece" in page
    assert page.count("<script>") == 2  # the shared core, then the explorer
    for control in (
        "bpe-back",
        "bpe-goto",
        'data-group="tie"',
        'data-group="pre"',
        "bpe-word",
    ):
        assert control in page
