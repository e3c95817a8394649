"""One Unicode view: the fast layer cuts, counts, trains and encodes as the core does,
on every code point UTF-8 can encode, for every pattern the package ships.

The core's pattern runs on ``regex``, whose Unicode tables are newer than Python's
``unicodedata`` and than tiktoken's; ``bpe.train`` and ``bpe.Tokenizer`` must read
them the same way (``scale/ascii_pattern.py``: ``re`` on ASCII, ``regex`` on the
rest). The walk puts each code point beside itself, a letter of each case, a digit,
a space and punctuation, 48 code points to a text, and compares for every text:
the pre-tokens and their counts (what training learns from), and the ids. Training
itself is run on every text holding a code point whose category ``regex`` and
Python disagree on (they hold tiktoken's differences too), and on every 64th of the
others.
"""

import functools
import sys
import unicodedata
import warnings
from collections import Counter

import pytest
import regex

import bpe
from bpe.interop.openai import get_encoding
from bpe.interop.unicode import NEWER
from bpe.pretokenize import PAT, count_strings, finder
from bpe.scale.ascii_pattern import fast_finder
from bpe.scale.word_counts import count_by_words
from bpe.tokenizer import Tokenizer as CoreTokenizer
from bpe.train import train as core_train

GROUP = 48  # code points to a text
EVERY_POINT = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
CATEGORIES = "Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So "
CATEGORIES += "Zs Zl Zp Cc Cf Co Cn"


@functools.cache
def patterns():
    """Every pattern the package ships: the core's GPT-2 pattern, and tiktoken's
    GPT-2 (also r50k_base's and p50k_base's), cl100k_base and o200k_base patterns."""
    names = ("gpt2", "cl100k_base", "o200k_base")
    return {"PAT": PAT} | {n: get_encoding(n)._pat_str for n in names}


def around(c):
    """A code point beside itself, letters of both cases, a digit, a space, "!'"."""
    return f"{c}{c}a{c}1{c} {c}A{c}!{c}'"


@functools.cache
def texts():
    """Every code point, in context, 48 to a text; a newline ends each text."""
    chars = list(map(chr, EVERY_POINT))
    return [
        "".join(map(around, chars[i : i + GROUP])) + "\n"
        for i in range(0, len(chars), GROUP)
    ]


@functools.cache
def regex_categories_differ():
    """The code points whose general category regex's tables and Python's differ on."""
    every = "".join(map(chr, EVERY_POINT))
    category = ["Cn"] * len(every)
    for name in CATEGORIES.split():
        for found in regex.finditer(rf"\p{{{name}}}", every):
            category[found.start()] = name
    pythons = map(unicodedata.category, every)
    return frozenset(
        c for c, a, b in zip(every, category, pythons, strict=True) if a != b
    )


def test_the_walk_holds_every_code_point_and_the_differences():
    walked = "".join(texts())
    assert len(EVERY_POINT) == 1_112_064
    assert set(walked) == set(map(chr, EVERY_POINT))
    differ = regex_categories_differ()
    assert len(differ) > 25_000 and NEWER <= differ  # tiktoken's among them


@pytest.mark.slow
@pytest.mark.parametrize("name", ["PAT", "gpt2", "cl100k_base", "o200k_base"])
def test_pieces_and_counts_on_every_code_point(name):
    """The fast finder's pieces and the fast counts are the core's, text by text."""
    pattern = patterns()[name]
    core, fast = finder(pattern), fast_finder(pattern)
    for text in texts():
        assert fast(text) == core(text), repr(text)
    # counted in runs of texts (each a document of its own), as training counts
    for i in range(0, len(texts()), 512):
        run, expected = texts()[i : i + 512], Counter()
        for text in run:
            expected.update(count_strings(text, (), pattern))
        assert count_by_words(run, (), pattern) == expected


def boundary_merges():
    """A merge for every pair of bytes that can meet where one character ends and the
    next begins (an ASCII or continuation byte, then an ASCII or leading byte).

    Ranked first, these join every two characters of a pre-token that are not both
    ASCII, so that two texts' ids differ wherever their pieces do."""
    ends = list(range(0x00, 0xC0))
    starts = list(range(0x00, 0x80)) + list(range(0xC2, 0xF5))
    merges = [(bytes([a]), bytes([b])) for a in ends for b in starts]
    vocab = {i: bytes([i]) for i in range(256)}
    vocab.update({256 + i: a + b for i, (a, b) in enumerate(merges)})
    return vocab, merges


@pytest.mark.slow
@pytest.mark.parametrize("name", ["PAT", "cl100k_base", "o200k_base"])
def test_encode_on_every_code_point(name):
    pattern = patterns()[name]
    vocab, merges = boundary_merges()
    core = CoreTokenizer(vocab, merges, pattern=pattern)
    fast = bpe.Tokenizer(vocab, merges, pattern=pattern)
    for text in texts():
        assert fast.encode(text) == core.encode(text), repr(text)


def test_the_boundary_merges_see_a_piece_split():
    """The check above can fail: tiktoken's view splits this text; its ids differ."""
    vocab, merges = boundary_merges()
    text = "\U0003eb08\u8733"
    core = CoreTokenizer(vocab, merges)
    tiktoken_view = bpe.Tokenizer(vocab, merges, unicode="tiktoken")
    assert len(tiktoken_view.encode(text)) == len(core.encode(text)) + 1


def groups_to_train_on():
    """Each text with a code point whose category the tables disagree on, and every
    64th of the others."""
    differ = regex_categories_differ()
    chosen = []
    for n, text in enumerate(texts()):
        if n % 64 == 0 or not differ.isdisjoint(text):
            chosen.append(text)
    return chosen


@pytest.mark.slow
@pytest.mark.parametrize("name", ["PAT", "cl100k_base", "o200k_base"])
def test_train_on_the_texts_where_the_tables_differ(name):
    pattern = patterns()[name]
    chosen = groups_to_train_on()
    assert len(chosen) > 900
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a short text may run out of pairs
        for text in chosen:
            assert bpe.train(text, 280, pattern=pattern) == core_train(
                text, 280, pattern=pattern
            ), repr(text)
