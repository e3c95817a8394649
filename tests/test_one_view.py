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
import hashlib
import sys
import unicodedata
import warnings
from array import array
from collections import Counter

import core_answers
import pytest
import regex

import bpe
from bpe.interop.openai import get_encoding
from bpe.interop.unicode import NEWER
from bpe.pretokenizer import PAT, count_strings, finder
from bpe.scale.ascii_pattern import fast_finder
from bpe.scale.word_counts import count_by_words
from bpe.tokenizer import Tokenizer as CoreTokenizer
from bpe.trainer import train as core_train

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
    parts = sorted(text for part in range(PARTS) for run in runs(part) for text in run)
    assert parts == sorted(texts())  # the parts of the walk take every text


RUN = 512  # texts counted together (each a document of its own), as training counts
PARTS = 8  # the walk in parts, each a test of its own (pytest -n spreads them)
ENCODED = ("PAT", "cl100k_base", "o200k_base")  # the patterns whose ids are compared


def runs(part):
    """This part's runs of texts: every PARTS-th run, so the parts take every text."""
    every_run = [texts()[i : i + RUN] for i in range(0, len(texts()), RUN)]
    return every_run[part::PARTS]


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


def core_ids():
    """A piece's ids as the core gives them (they do not depend on the pattern), kept
    in the core tokenizer's own cache, so that a piece is encoded once for all the
    patterns. The core's encode is the ids of its pieces, in order (checked below)."""
    return CoreTokenizer(*boundary_merges()).encode_piece


def fingerprint(pieces, ids=None):
    """A digest of a text's pieces (their lengths and characters) and, if given, ids:
    equal digests mean equal answers, and a run's answers fit in a few bytes."""
    digest = hashlib.blake2b(array("q", map(len, pieces)).tobytes(), digest_size=16)
    digest.update("".join(pieces).encode("utf-8"))
    if ids is not None:
        digest.update(array("q", ids).tobytes())
    return digest.digest()


def core_answer(name, text, ids_of, find=None):
    """The core's pieces of text under the pattern name, and its ids (ENCODED only)."""
    pieces = (find or finder(patterns()[name]))(text)
    ids = [i for p in pieces for i in ids_of(p)] if name in ENCODED else None
    return pieces, ids


def core_fingerprints(part):
    """{name: [the fingerprint of each text of each run of the part]}, the core's.

    Kept for the pure-Python run of make test-package (tests/core_answers.py): the
    core is the same Python in both runs, and asking it is most of the walk's time."""
    ids_of, finds = core_ids(), {n: finder(p) for n, p in patterns().items()}
    found = {name: [] for name in patterns()}
    for text in (text for run in runs(part) for text in run):
        for name, find in finds.items():  # text by text: the core's cache of a
            # piece's ids is bounded, and the patterns share most pieces of a text
            found[name].append(fingerprint(*core_answer(name, text, ids_of, find)))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_pieces_counts_and_ids_on_every_code_point(part):
    """For every pattern, text by text: the fast finder's pieces are the core's, and
    for PAT, cl100k_base and o200k_base the fast tokenizer's ids are the core's; run
    by run, the fast counts are the core's (those of the pieces just checked)."""
    fast = {name: fast_finder(pattern) for name, pattern in patterns().items()}
    vocab, merges = boundary_merges()
    encode = {n: bpe.Tokenizer(vocab, merges, pattern=patterns()[n]) for n in ENCODED}
    for tokenizer in encode.values():
        # one cache of the fast ids of pieces for the three: they do not depend on
        # the pattern (scale/piece.py sees merges and ids only), so each distinct
        # piece is encoded by the fast layer once, and checked in every text with it
        tokenizer.cache = encode["PAT"].cache
    core = core_answers.kept(f"one_view_walk_{part}", lambda: core_fingerprints(part))
    n = 0
    for run in runs(part):
        counts = {name: Counter() for name in patterns()}
        for text in run:
            for name in patterns():
                pieces = fast[name](text)
                ids = encode[name].encode(text) if name in ENCODED else None
                if fingerprint(pieces, ids) != core[name][n]:
                    expected = core_answer(name, text, core_ids())
                    assert (pieces, ids) == expected, (name, text)
                counts[name].update(pieces)
            n += 1
        for name, pattern in patterns().items():
            assert count_by_words(run, (), pattern) == counts[name], name


@pytest.mark.parametrize("name", ["PAT", "gpt2", "cl100k_base", "o200k_base"])
def test_the_walk_asks_the_core(name):
    """What the walk above expects is the core's own: count_strings' counts, and the
    ids of a core tokenizer with the pattern, on every 256th text."""
    pattern, ids_of = patterns()[name], core_ids()
    core = CoreTokenizer(*boundary_merges(), pattern=pattern)
    for text in texts()[::256]:
        pieces = finder(pattern)(text)
        assert count_strings(text, (), pattern) == Counter(pieces)
        assert core.encode(text) == [i for piece in pieces for i in ids_of(piece)]


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
        learned = core_answers.kept(
            f"one_view_train_{name}",
            lambda: [core_train(text, 280, pattern=pattern) for text in chosen],
        )
        for text, merges in zip(chosen, learned, strict=True):
            assert bpe.train(text, 280, pattern=pattern) == merges, repr(text)
