"""count_by_words (split at spaces, each distinct word pre-tokenized once) against
count_strings (the pattern over all the text): the same counts, whatever the text."""

import itertools
import sys
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.pretokenizer import PAT, count_strings
from bpe.scale import word_counts
from bpe.scale.word_counts import count_by_words

# Spaces and every kind of whitespace next to them, letters, digits, punctuation,
# apostrophes (GPT-2's contractions), accents, CJK, and the special token's characters.
ALPHABET = " \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000ab'sé1.,!<|>e牛🙃"
texts = st.text(alphabet=ALPHABET, max_size=60)
SPECIALS = ("<|e|>",)


def plain(documents, specials):
    counts = Counter()
    for text in documents:
        counts.update(count_strings(text, specials, PAT))
    return counts


@settings(max_examples=400)
@given(
    st.lists(
        st.text(alphabet=ALPHABET, max_size=60)
        | st.sampled_from(
            [
                "a  b",
                "a   b",
                "x\n \ny",
                " lead",
                "trail ",
                "<|e|> x",
                "x <|e|>",
                "a \u3000 b",
            ]
        ),
        max_size=6,
    )
)
def test_same_counts_as_the_pattern_over_all_the_text(documents):
    assert count_by_words(documents, SPECIALS) == plain(documents, SPECIALS)
    assert count_by_words(documents, ()) == plain(documents, ())


@given(st.lists(texts, max_size=8), st.integers(1, 5))
def test_flushing_early_changes_nothing(documents, limit):
    expected = plain(documents, SPECIALS)
    old = word_counts.FLUSH_WORDS
    word_counts.FLUSH_WORDS = limit
    try:
        assert count_by_words(documents, SPECIALS) == expected
    finally:
        word_counts.FLUSH_WORDS = old


def test_other_patterns_take_the_plain_path():
    pattern = r"\S+|\s+"
    text = "a  b \n c"
    assert count_by_words([text], (), pattern) == count_strings(text, (), pattern)


def test_same_counts_on_the_stories(tinystories_train_text):
    text = tinystories_train_text[:1_000_000]
    specials = ("<|endoftext|>",)
    assert count_by_words([text], specials) == count_strings(text, specials, PAT)


# Source code's shape: runs of whitespace of every kind and length (indentation, blank
# lines, trailing spaces) between words, at the start and at the end of a document.
RUN_CHARS = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2000\u2028\u3000"
WORD_CHARS = "ab's1.(:<|>e牛🙃\x1c"
source_like = st.lists(
    st.tuples(
        st.text(alphabet=RUN_CHARS, max_size=6),
        st.text(alphabet=WORD_CHARS, max_size=4),
    ),
    max_size=12,
).map(lambda pairs: "".join(run + word for run, word in pairs))


@settings(max_examples=600)
@given(st.lists(source_like, max_size=4), st.text(alphabet=RUN_CHARS, max_size=4))
def test_same_counts_on_runs_of_whitespace(documents, tail):
    documents = documents + [d + tail for d in documents]  # a run also at the end
    assert count_by_words(documents, SPECIALS) == plain(documents, SPECIALS)
    assert count_by_words(documents, ()) == plain(documents, ())


def test_the_spaces_are_the_patterns_whitespace():
    """SPACE_CHARS is what \\s means to regex, on every code point: not Python's \\s."""
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    assert set(word_counts.SPACE_CHARS) == set(regex.findall(r"\s", every))
    assert len(word_counts.SPACE_CHARS) == 25


def test_untangle_on_every_short_text():
    """Every text of up to six characters over spaces of four kinds (one that is
    whitespace to Python only), a letter and an apostrophe: each one a document."""
    alphabet = " \n\t\x1c\xa0a'"
    every = [
        "".join(chars)
        for n in range(7)
        for chars in itertools.product(alphabet, repeat=n)
    ]
    for i in range(0, len(every), 500):
        run = every[i : i + 500]
        assert count_by_words(run, ()) == plain(run, ()), run


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))  # pytest -n spreads them
def test_every_code_point_in_runs_of_whitespace(part):
    """Each code point inside, before and after runs of whitespace, as indentation,
    blank lines and trailing spaces put it, 48 to a document, the runs counted
    together as training counts them."""
    points = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    chars = list(map(chr, points))

    def around(c):
        return f"{c}  {c}\n    {c} {c}\t\t{c}\n \n{c}{c}  "

    documents = [
        "".join(map(around, chars[i : i + 48])) for i in range(0, len(chars), 48)
    ]
    for i in range(part * 512, len(documents), 4 * 512):
        run = documents[i : i + 512]
        assert count_by_words(run, ()) == plain(run, ()), i
