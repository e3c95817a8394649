"""count_by_words (split at spaces, each distinct word pre-tokenized once) against
count_strings (the pattern over all the text): the same counts, whatever the text."""

from collections import Counter

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
