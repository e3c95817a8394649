"""The browser's stand-in for ``regex`` against the real one, here under CPython.

The stand-in (``bpe/book/page/regex_standin.py``) reads its classes from
``unicodedata``, whose Unicode version is Python's; ``regex`` carries its own,
newer tables. So the two may differ only on code points that the older version
leaves unassigned, or classes differently; on every other code point they must cut
text into the same pieces, and the book's tokenizers must give the same ids.
"""

import functools
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.book.page import regex_standin as standin

STANDIN_FILE = Path(standin.__file__)
# The classes the book's patterns use (GPT-2's, cl100k's, o200k's, the word counter's).
CLASSES = ("L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "N", "White_Space")
# Unicode's count of characters (graphic, format and private-use excluded: what the
# standard's own tables count, Cc included here as 65 more), by version.
ASSIGNED = {
    "14.0": 144_762,
    "15.0": 149_251,
    "15.1": 149_878,
    "16.0": 155_063,
    "17.0": 159_866,
    "18.0": 172_873,
}
POINTS = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
EVERY = "".join(map(chr, POINTS))


def escape_of(cls):
    return r"\s" if cls == "White_Space" else rf"\p{{{cls}}}"


def members(engine, cls):
    return {ord(c) for c in engine.findall(escape_of(cls), EVERY)}


@pytest.fixture(scope="module")
def classes():
    """{class: (regex's members, the stand-in's members)}, over every code point."""
    return {cls: (members(regex, cls), members(standin, cls)) for cls in CLASSES}


@pytest.fixture(scope="module")
def disagreeing(classes):
    """The code points whose classes differ between regex and the stand-in."""
    return set().union(*(ours ^ theirs for theirs, ours in classes.values()))


def regex_unicode_version():
    """regex does not say which Unicode it follows; its count of characters does."""
    assigned = len(regex.findall(r"[^\p{Cn}\p{Cs}\p{Co}]", EVERY))
    return {n: v for v, n in ASSIGNED.items()}[assigned]


def test_the_counts_identify_pythons_unicode_version():
    assigned = sum(unicodedata.category(c) not in ("Cn", "Cs", "Co") for c in EVERY)
    assert ASSIGNED[unicodedata.unidata_version.rsplit(".", 1)[0]] == assigned


def test_every_difference_is_a_code_point_unicode_changed(classes, disagreeing):
    """A difference is a code point the older tables leave unassigned, or reclassed."""
    older = regex_unicode_version() > unicodedata.unidata_version
    assert older or not disagreeing
    for c in sorted(disagreeing):
        ours = {cls for cls, (_, mine) in classes.items() if c in mine}
        category = unicodedata.category(chr(c))
        # unassigned here; or a letter in both, only its kind of letter changed
        assert category == "Cn" or {"L"} <= ours, (hex(c), category, ours)
    assert set(standin.ranges("White_Space")) == set(standin.WHITE_SPACE)
    white = classes["White_Space"]
    assert white[0] == white[1] and len(white[0]) == 25


def context_text(points):
    """Each code point beside a letter, a digit, a space, punctuation and itself."""
    return "".join(f"{c}{c}a {c}1{c}.\n" for c in map(chr, points))


@pytest.mark.slow
def test_the_same_pieces_on_every_code_point_both_versions_know(disagreeing):
    """Every agreed code point, in several contexts, under GPT-2's pattern."""
    agreed = [c for c in POINTS if c not in disagreeing]
    text = context_text(agreed)
    assert standin.findall(bpe.PAT, text) == regex.findall(bpe.PAT, text)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_the_same_pieces_under_openais_patterns(disagreeing, name):
    """The same under the patterns with more classes, on every assigned code point.

    (Unassigned and private-use code points above U+FFFF, nearly a million of them,
    are one class to every pattern; GPT-2's pattern has them all, above.)
    """
    from bpe.interop.openai import get_encoding

    pattern = get_encoding(name)._pat_str
    agreed = [
        c
        for c in POINTS
        if c not in disagreeing
        and (c <= 0xFFFF or unicodedata.category(chr(c)) not in ("Cn", "Co"))
    ]
    text = context_text(agreed)
    assert standin.findall(pattern, text) == regex.findall(pattern, text)


def test_disagreeing_code_points_do_cut_differently(disagreeing):
    """The differences are real: a new letter between two others joins them, or not."""
    text = "".join(f"a{chr(c)}b " for c in sorted(disagreeing))
    assert standin.findall(bpe.PAT, text) != regex.findall(bpe.PAT, text)


def test_special_token_split_and_escape():
    specials = ["<|endoftext|>", "<|end|>", "a.b*"]
    text = "x<|end|>y<|endoftext|>za.b*a.bb"
    pattern = "(" + "|".join(standin.escape(s) for s in specials) + ")"
    assert standin.compile(pattern).split(text) == regex.compile(pattern).split(text)


@pytest.mark.parametrize(
    "pattern",
    [
        r"\p{L}+",
        r"\P{L}+",
        r"\p{^N}+",
        r"\pL\pN",
        r"[\p{Letter}\p{Nd}-]+",
        r"[^\S\n]+",
        r"[\p{L}-z]+",
        r"[\]\p{N}]+",
        r"[-\p{Zs}]",
        r"\p{White_Space}+",
        r"\p{gc=Lu}+",
    ],
)
def test_class_spellings(pattern):
    text = "Xin chào -- thế giới\t12٣ ]x\u2003 ABC-z 牛🙃\n\u00a0"
    assert standin.findall(pattern, text) == regex.findall(pattern, text)


def test_unknown_properties_are_refused():
    with pytest.raises(standin.error, match="does not know"):
        standin.compile(r"\p{Han}")


def test_other_escapes_stay_as_they_are():
    assert standin.translate(r"a\.b\\p{L}\x41") == r"a\.b\\p{L}\x41"


@functools.lru_cache(maxsize=1)
def disagreeing_points():
    """The same set as the fixture's, for Hypothesis's alphabet (computed once)."""
    found = set()
    for cls in CLASSES:
        found |= members(regex, cls) ^ members(standin, cls)
    return frozenset(found)


AGREED_CHARACTERS = st.characters(exclude_categories=("Cs",)).filter(
    lambda c: ord(c) not in disagreeing_points()
)
texts = st.text(alphabet=AGREED_CHARACTERS, max_size=60)


@settings(max_examples=500)
@given(texts)
def test_the_same_pieces_on_hypothesis_strings(text):
    assert standin.findall(bpe.PAT, text) == regex.findall(bpe.PAT, text)


# A Python where the stand-in *is* regex, as in the page: it loads a tokenizer, then
# answers one JSON line per request (ids from the fast and the core tokenizer, and
# merges when asked to train).
STANDIN_PYTHON = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("regex", sys.argv[1])
standin = importlib.util.module_from_spec(spec)
sys.modules["regex"] = standin
spec.loader.exec_module(standin)
import bpe
from bpe.tokenizer import Tokenizer as CoreTokenizer
assert sys.modules["bpe.pretokenizer"].regex is standin
fast = bpe.Tokenizer.load(sys.argv[2])
core = CoreTokenizer.load(sys.argv[2])
for line in sys.stdin:
    job = json.loads(line)
    answer = {
        "fast": [fast.encode(t) for t in job["texts"]],
        "core": [core.encode(t) for t in job["texts"]],
    }
    if "train" in job:
        merges = bpe.train(job["train"], job["vocab_size"], specials=[bpe.ENDOFTEXT])[1]
        answer["merges"] = [[a.hex(), b.hex()] for a, b in merges]
    print(json.dumps(answer), flush=True)
"""


@pytest.fixture(scope="module")
def stories_tok(tmp_path_factory):
    from bpe.book.site.playground import stories_tokenizer

    tok = stories_tokenizer()
    folder = tmp_path_factory.mktemp("stories_tokenizer")
    tok.save(folder)
    return tok, folder


@pytest.fixture(scope="module")
def standin_python(stories_tok):
    """ask(job) -> the answer of a Python that runs the package on the stand-in."""
    process = subprocess.Popen(
        [sys.executable, "-c", STANDIN_PYTHON, str(STANDIN_FILE), str(stories_tok[1])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def ask(job):
        process.stdin.write(json.dumps(job) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"the stand-in's Python stopped (exit code {process.poll()})")
        return json.loads(line)

    yield ask
    process.stdin.close()
    process.wait(timeout=60)


@pytest.mark.slow
def test_the_same_ids_and_merges_on_the_held_out_stories(stories_tok, standin_python):
    from bpe.data.corpora import heldout_stories

    tok = stories_tok[0]
    stories = heldout_stories()
    train = bpe.ENDOFTEXT.join(stories[:100])
    got = standin_python({"texts": stories, "train": train, "vocab_size": 600})
    expected = [tok.encode(t) for t in stories]
    assert got["fast"] == expected
    assert got["core"] == expected
    merges = bpe.train(train, 600, specials=[bpe.ENDOFTEXT])[1]
    assert got["merges"] == [[a.hex(), b.hex()] for a, b in merges]


@settings(max_examples=200)
@given(st.lists(texts, min_size=1, max_size=8))
def test_the_same_ids_on_hypothesis_strings(stories_tok, standin_python, batch):
    tok = stories_tok[0]
    got = standin_python({"texts": batch})
    expected = [tok.encode(t) for t in batch]
    assert got["fast"] == expected
    assert got["core"] == expected
