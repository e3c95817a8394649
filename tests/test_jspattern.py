"""Pre-tokenizer patterns rewritten for JavaScript (bpe/book/site/jspattern.py).

The ids the rewritten patterns give are checked under Node in test_playground.py;
here, the rewriting itself, and the case folds it assumes, measured on tiktoken.
"""

import pytest
import tiktoken

import bpe
from bpe.book.site.jspattern import CASE_FOLDS, cases, js_pattern
from bpe.interop.openai import get_encoding


def test_the_three_rewrites():
    assert js_pattern(r"\s+(?!\S)") == r"\p{White_Space}+(?!\P{White_Space})"
    assert js_pattern(r"[^\s\p{L}]++") == r"[^\p{White_Space}\p{L}]+"
    assert js_pattern(r"\p{N}{1,3}+x?+") == r"\p{N}{1,3}x?"
    assert js_pattern("(?i:[sd]|ll)") == "(?:[sSſdD]|[lL][lL])"


def test_what_needs_no_rewrite_is_kept():
    gpt2_words = bpe.PAT.split("| ?[^")[0]  # the contractions, letters and digits
    assert js_pattern(gpt2_words) == gpt2_words
    assert js_pattern(r"a(?:b|c)*d+?[\r\n/]") == r"a(?:b|c)*d+?[\r\n/]"


@pytest.mark.parametrize(
    "pattern", [r"(?P<x>a)", r"\bword", r"(?s:.)", "(a", "a)", "[ab", "a\\"]
)
def test_unknown_constructs_are_refused(pattern):
    with pytest.raises(ValueError):
        js_pattern(pattern)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_the_shipped_patterns_are_plain_javascript(name):
    rewritten = js_pattern(get_encoding(name)._pat_str)
    for construct in (r"\s", r"\S", "++", "?+", "3}+", "*+", "(?i"):
        assert construct not in rewritten


def test_case_folds_are_tiktokens():
    """Which characters tiktoken's (?i:x) matches besides x and X, for every letter.

    A probe encoding joins "x" to the next character only when the pattern's first
    alternative matched both; every other code point of the Basic Multilingual Plane
    and beyond is tried after "x".
    """
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({bytes([0x78, b]): 256 + b for b in range(256)})  # "x" + any byte
    others = [
        chr(c)
        for c in range(0x80, 0x110000)
        if not 0xD800 <= c < 0xE000 and chr(c).lower() != chr(c).upper()
    ]
    for letter in "abcdefghijklmnopqrstuvwxyz":
        probe = tiktoken.Encoding(
            f"probe-{letter}",
            pat_str=rf"x(?i:{letter})|[\s\S]",
            mergeable_ranks=ranks,
            special_tokens={},
        )
        found = "".join(c for c in others if probe.encode_ordinary("x" + c)[0] >= 256)
        assert letter + letter.upper() + found == cases(letter), letter
    assert set(CASE_FOLDS) == {"s", "k"}
