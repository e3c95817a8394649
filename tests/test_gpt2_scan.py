"""gpt2_scan.scan_ascii against GPT-2's pattern run by regex: the same pieces on every
ASCII text tried, compiled and as Python (make test runs this file in both passes)."""

import itertools

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.pretokenizer import PAT
from bpe.scale import compiled, gpt2_scan
from bpe.scale.ascii_pattern import ascii_findall, ascii_pattern, gpt2_classes

FIND = regex.compile(PAT).findall
KINDS = gpt2_classes()
# The letters of every contraction and one that is in none (upper case: the pattern's
# contractions are lower case only), a digit, a space, whitespace of three other
# kinds, a character Python calls a space but the pattern does not (U+001C), the
# apostrophe and two other marks.
ALPHABET = "'stremvldxS1 \n\t\x0b\x1c.,"


def scan(text: str) -> list[str]:
    return gpt2_scan.scan_ascii(KINDS, text)


def test_every_text_of_up_to_five_characters_over_the_alphabet():
    texts = (
        "".join(chars)
        for size in range(6)
        for chars in itertools.product(ALPHABET, repeat=size)
    )
    wrong = next((t for t in texts if scan(t) != FIND(t)), None)
    assert wrong is None, f"{wrong!r}: {scan(wrong)} != {FIND(wrong)}"


@pytest.mark.parametrize("shape", ["{}{}", " {}{}", "{} {}", "'{}{}", "{}{}  x"])
def test_every_two_ascii_characters_in_each_context(shape):
    """Every ASCII character beside every other: their classes are the pattern's."""
    chars = list(map(chr, range(128)))
    texts = (shape.format(a, b) for a in chars for b in chars)
    wrong = next((t for t in texts if scan(t) != FIND(t)), None)
    assert wrong is None, f"{wrong!r}: {scan(wrong)} != {FIND(wrong)}"


@settings(max_examples=500)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=200))
def test_any_ascii_text(text):
    assert scan(text) == FIND(text)


def test_text_beyond_ascii_is_refused():
    with pytest.raises(ValueError, match="ASCII text only"):
        scan("café")


def test_the_fast_finder_scans_only_when_compiled():
    """As Python the scan is slower than re: the ASCII pattern runs in its place."""
    findall = ascii_findall(PAT)
    if compiled.is_compiled(gpt2_scan):
        assert findall.func is gpt2_scan.scan_ascii
    else:
        assert findall == ascii_pattern(PAT).findall
    assert findall("it's 42  cats") == FIND("it's 42  cats")
