from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.pretokenizer import pretokens


def test_toy_table_has_eight_rows_and_nineteen_occurrences(toy_corpus):
    table = bpe.pretokenize(toy_corpus)
    assert len(table) == 8
    assert sum(table.values()) == 19
    assert table[bpe.to_bytes(" newest")] == 5
    assert table[bpe.to_bytes("low")] == 1 and table[bpe.to_bytes(" low")] == 4


def test_space_attaches_to_the_following_word():
    assert pretokens("low low") == ["low", " low"]
    assert pretokens("it's 12 apples!!  ok\n") == [
        "it",
        "'s",
        " 12",
        " apples",
        "!!",
        " ",
        " ok",
        "\n",
    ]


def test_pattern_none_keeps_the_chunk_whole():
    assert bpe.pretokenize("ab ab", pattern=None) == Counter({bpe.to_bytes("ab ab"): 1})
    assert bpe.pretokenize("", pattern=None) == Counter()


def test_specials_are_dropped_and_split_words():
    table = bpe.pretokenize("ab<|e|>ab", specials=["<|e|>"])
    assert table == Counter({(b"a", b"b"): 2})


def test_split_special_prefers_the_longest_token():
    specials = ["<|e|>", "<|e|><|e|>"]
    assert bpe.split_special("x<|e|><|e|>y", specials) == ["x", "<|e|><|e|>", "y"]


def test_split_special_escapes_regex_characters():
    assert bpe.split_special("a|b<|e|>c", ["<|e|>"]) == ["a|b", "<|e|>", "c"]
    assert bpe.split_special("a.b", ["."]) == ["a", ".", "b"]


def test_split_special_without_specials_is_a_no_op():
    assert bpe.split_special("abc", []) == ["abc"]


@pytest.mark.parametrize("bad", [[""], [None], [b"<|e|>"], ["a", "a"]])
def test_bad_specials_raise(bad):
    with pytest.raises(ValueError):
        bpe.split_special("text", bad)


def test_a_bare_string_is_not_a_list_of_specials():
    with pytest.raises(TypeError, match="list of strings"):
        bpe.pretokenize("text", specials="<|e|>")


def test_non_string_text_raises():
    with pytest.raises(TypeError, match="str"):
        bpe.pretokenize(b"bytes")


@given(st.text())
def test_pretokens_cover_the_text_exactly(text):
    assert "".join(pretokens(text)) == text


@given(st.text(), st.lists(st.text(min_size=1, max_size=4), max_size=3, unique=True))
def test_split_special_loses_nothing(text, specials):
    chunks = bpe.split_special(text, specials)
    assert "".join(chunks) == text
    assert all(
        chunk in specials for chunk in chunks[1::2]
    )  # specials sit at odd positions
    assert not any(
        s in chunk for chunk in chunks[::2] for s in specials
    )  # and nowhere else


def test_pat_is_the_grouped_gpt2_pattern():
    original = (
        r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+"""
        r"""|\s+(?!\S)|\s+"""
    )
    text = "I'm sure they'll've said 123 things...  \n\tok"
    assert regex.findall(bpe.PAT, text) == regex.findall(original, text)


def openai_patterns():
    from bpe.interop.openai import NAMES, get_encoding

    return [bpe.PAT] + [get_encoding(name)._pat_str for name in NAMES]


PATTERNS = openai_patterns()


@settings(max_examples=1000)
@given(
    st.sampled_from(PATTERNS),
    st.text(alphabet=st.characters(max_codepoint=127), max_size=40),
)
def test_ascii_fast_path_finds_exactly_the_patterns_pieces(pattern, text):
    from bpe.scale.ascii_pattern import ascii_pattern

    assert ascii_pattern(pattern).findall(text) == regex.findall(pattern, text)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_ascii_fast_path_on_every_pair_and_on_contractions(pattern):
    from bpe.scale.ascii_pattern import ascii_pattern

    fast = ascii_pattern(pattern)
    texts = [chr(a) + chr(b) for a in range(128) for b in range(128)]
    texts += [
        "it's",
        "I'LL",
        "YOU'RE",
        " 'll  \t\n x",
        "a  \n\n b",
        "x\x1c y\x1f",
        "   ",
        "\r\n\r\n",
        "12345678",
        "a/b/c\r\n",
        "ABCdef GHi's",
    ]
    for text in texts:
        assert fast.findall(text) == regex.findall(pattern, text), repr(text)


def test_patterns_re_cannot_run_get_no_fast_path():
    from bpe.scale.ascii_pattern import ascii_pattern

    assert ascii_pattern(r"\X+") is None  # a grapheme cluster: regex only
    assert ascii_pattern(r"[\p{M}]|a").findall("ab") == [
        "a"
    ]  # no ASCII mark: an empty class


@given(st.text())
def test_the_fast_finder_gives_the_plain_patterns_pieces_where_it_must(text):
    from bpe.interop.unicode import NEWER, find_as_tiktoken
    from bpe.scale.ascii_pattern import fast_finder

    assert fast_finder(bpe.PAT)(text) == pretokens(text)  # the core's view, always
    tiktokens = find_as_tiktoken(regex.compile(bpe.PAT), text)
    assert fast_finder(bpe.PAT, "tiktoken")(text) == tiktokens
    if NEWER.isdisjoint(text):  # nothing Unicode changed since tiktoken's tables
        assert tiktokens == pretokens(text)


lines_of = st.lists(
    st.sampled_from(
        [
            "plain line.",
            "café 🙃",
            "  ",
            "\n",
            "\n\n",
            "\r\n",
            "x\n",
            "ünï\n",
            "'s",
            "12 34",
            " \t",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=300)
@given(lines_of)
def test_mixed_text_is_cut_into_lines_only_where_pat_never_joins(text):
    assert pretokens(text) == regex.findall(bpe.PAT, text)
