"""The token playground's JavaScript gives exactly the Python ids, for every vocabulary.

The book's TinyStories vocabulary is checked against bpe.Tokenizer (which reads
Unicode as `regex` does), GPT-2, cl100k_base and o200k_base against tiktoken (and
its older Unicode tables): ordinary text (encode_ordinary) and, with the
special-token switch on, encode(allowed_special="all"). The files are the
ones `make book` ships (bpe.book.site.playground), loaded into one Node process.
"""

import json
import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from js_strings import strings

import bpe
from bpe.book.site import playground
from bpe.book.site.jspattern import js_changed, js_pattern
from bpe.data import corpora
from bpe.interop import unicode
from bpe.interop.ranks import split_by_ranks

NAMES = [v.name for v in playground.VOCABULARIES]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The generated files, written once: {file name: path}."""
    folder = tmp_path_factory.mktemp("site")
    return {path.name: path for path in playground.write(folder)}


@pytest.fixture(scope="module")
def loaded(node, shipped):
    files = [str(shipped[v.file]) for v in playground.VOCABULARIES]
    assert node("load", files=files) == NAMES
    return node


@pytest.fixture(scope="module")
def encoders():
    return playground.encoders()


def check(node, encoders, texts, allow_special=False):
    """Every vocabulary's JavaScript ids for texts equal the Python ids."""
    assert texts, "nothing to compare"
    got = node("encode", texts=texts, allowSpecial=allow_special, names=NAMES)
    assert sorted(got) == sorted(encoders) == sorted(NAMES)  # every vocabulary answered
    for name, encoder in encoders.items():
        for text, ids in zip(texts, got[name], strict=True):
            expected = (
                encoder.encode(text, allowed_special="all")
                if allow_special
                else encoder.encode_ordinary(text)
            )
            assert ids == expected, (name, text[:80])
    return sum(len(ids) for ids in got[NAMES[0]])


def vietnamese():
    return [vi for corpus in corpora.EN_VI for _, vi in corpora.en_vi_pairs(corpus)]


def test_held_out_stories(loaded, encoders):
    assert check(loaded, encoders, corpora.heldout_stories()) > 0


def test_vietnamese_sentences(loaded, encoders):
    assert check(loaded, encoders, vietnamese()) > 0


def test_stories_with_their_end_markers_as_special_tokens(loaded, encoders):
    stories = corpora.heldout_stories()[:50]
    joined = [playground.ENDOFTEXT.join(stories[i : i + 5]) for i in range(0, 50, 5)]
    check(loaded, encoders, joined, allow_special=True)
    check(loaded, encoders, joined, allow_special=False)


@settings(max_examples=30)
@given(st.lists(strings(max_size=60), min_size=40, max_size=40))
def test_generated_strings(loaded, encoders, texts):
    check(loaded, encoders, texts)
    check(loaded, encoders, texts, allow_special=True)


@settings(max_examples=10)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "ab", " ", "é", "牛", "🙃", "ờ", "1"]),
            st.integers(1, 100),
        ).map(lambda p: p[0] * p[1]),
        min_size=1,
        max_size=6,
    ).map("".join)
)
def test_long_repeated_pieces(loaded, encoders, text):
    """Long pieces take the heap; it must agree with the scan and with Python."""
    check(loaded, encoders, [text, text * 7])
    for name in NAMES:
        compared = loaded("scanVersusHeap", name=name, texts=[text])
        assert compared["differ"] == [], name


def test_the_javascript_constants_are_the_packages(node):
    """bpe.js's end-of-text token and GPT-2 pattern are the package's (one home each:
    the package's, which this holds the JavaScript to)."""
    constants = node("constants")
    assert constants["ENDOFTEXT"] == bpe.ENDOFTEXT
    assert constants["GPT2_PATTERN"] == js_pattern(bpe.PAT)


def changed_rows(node) -> list[tuple[int, int, str, str]]:
    """bpe.js's CHANGED, read back: (first, last, regex's key, tiktoken's key)."""
    text = node("changed")["changed"]
    rows = re.findall(r"([0-9a-f]+)(?:-([0-9a-f]+))?(\S)(\S)", text)
    assert " ".join(f"{a}{'-' + b if b else ''}{k}{t}" for a, b, k, t in rows) == text
    return [(int(a, 16), int(b or a, 16), k, t) for a, b, k, t in rows]


@pytest.mark.skipif(
    unicodedata.unidata_version != unicode.ENGINE_BASELINE,
    reason="the table is measured against Unicode 14.0, Python 3.11's unicodedata",
)
def test_the_javascripts_unicode_table_is_measured(node):
    """CHANGED in bpe.js is what engine_differences measures, row for row."""
    rows = unicode.engine_differences()
    assert node("changed")["changed"] == " ".join(js_changed(rows))
    assert changed_rows(node) == rows


def test_each_row_gives_each_view_its_classes(node):
    """Every code point of CHANGED: its regex key names its classes under `regex`,
    its tiktoken key the classes tiktoken gives it (DIFFERENCES); and every code
    point of DIFFERENCES is in CHANGED."""
    classes = unicode.regex_classes()
    named = {key: cls for cls, key in unicode.CLASS_KEYS.items()}
    walked = set()
    for first, last, regex_key, tiktoken_key in changed_rows(node):
        assert (first > 0xFFFF) == (last > 0xFFFF)  # one stand-in width per row
        for c in range(first, last + 1):
            tiktokens = unicode.SWAP.get(c, c)  # `regex` classes it as tiktoken does c
            assert classes.get(c, ()) == named[regex_key], hex(c)
            assert classes.get(tiktokens, ()) == named[tiktoken_key], hex(c)
            walked.add(c)
    assert set(map(ord, unicode.NEWER)) <= walked
    assert len(walked) == 27_045


def test_the_stand_ins_are_old_and_stable(node):
    """Each stand-in is classed alike by Unicode 14.0 and `regex`, as its key says,
    and has the UTF-16 length of the code points it stands for."""
    stand_ins = node("changed")["standIns"]
    assert set(stand_ins) == set(unicode.CLASS_KEYS.values())
    classes = unicode.regex_classes()
    for cls, key in unicode.CLASS_KEYS.items():
        bmp, astral = stand_ins[key]
        assert bmp <= 0xFFFF < astral
        for c in (bmp, astral):
            assert classes.get(c, ()) == cls, hex(c)
            if unicodedata.unidata_version == unicode.ENGINE_BASELINE:
                assert unicode.baseline_classes(c, False) == cls, hex(c)


def ranges(points) -> list[list[int]]:
    found = []
    for c in sorted(points):
        if found and found[-1][1] == c - 1:
            found[-1][1] = c
        else:
            found.append([c, c])
    return found


@pytest.mark.parametrize("view", ["regex", "tiktoken"])
def test_every_code_point_is_classed_as_in_python(node, view):
    """All 1,112,064 code points: once bpe.js has swapped them, this engine's \\p{...}
    classes each as `regex` does (view "regex") or as tiktoken does ("tiktoken"), for
    every class the patterns use. So the table misses nothing this Node needs (it
    holds more: what older engines need, back to Unicode 14.0)."""
    classes = unicode.regex_classes()
    if view == "tiktoken":
        classes = {c: classes.get(unicode.SWAP.get(c, c), ()) for c in range(0x110000)}
    got = node("classes", classes=list(unicode.CLASSES), unicode=view)
    for name in unicode.CLASSES:
        expected = ranges(c for c, found in classes.items() if name in found)
        assert got[name] == expected, name
    assert len(got["L"]) > 600  # letters of many scripts


def every_changed_code_point(node) -> list[str]:
    """Each code point of CHANGED, which holds those of DIFFERENCES, in small texts
    that show each class the patterns use: letters of each case, digits, marks."""
    texts = []
    for first, last, _, _ in changed_rows(node):
        for c in map(chr, range(first, last + 1)):
            texts.append(f"x{c}y {c}{c}a A{c}b 1{c} {c}'s \u0300{c}{c}\u0300 {c}")
    return texts


def test_every_changed_code_point_encodes_as_python(loaded, encoders, node):
    """Exhaustively, not a sample: the book's vocabulary as bpe.Tokenizer (regex's
    view), OpenAI's as tiktoken, on each of the 27,045 code points of CHANGED."""
    texts = every_changed_code_point(node)
    assert len(texts) == 27_045
    check(loaded, encoders, texts)


def test_each_vocabulary_reads_unicode_as_its_python_twin(shipped, encoders):
    """The book's vocabulary as the package does (the default bpe.Tokenizer), OpenAI's
    as tiktoken does."""
    assert encoders["tinystories"].unicode == "regex"
    for name in NAMES:
        text = shipped[f"{name}.js"].read_text(encoding="utf-8-sig")
        data = json.loads(text[text.index("push(") + 5 : text.rindex(");")])
        assert data["unicode"] == ("regex" if name == "tinystories" else "tiktoken")


def test_twenty_thousand_repeated_letters(loaded, encoders):
    check(loaded, encoders, ["a" * 20_000, "ab" * 10_000, " " * 20_000])


@pytest.mark.parametrize("name", NAMES)
def test_each_token_replays_to_itself(loaded, shipped, name):
    """Clicking a token replays its merges: they end in the token, and its last merge
    is the split that tiktoken's ranks give (bpe.interop.ranks.split_by_ranks)."""
    text = shipped[f"{name}.js"].read_text(encoding="utf-8-sig")
    data = json.loads(text[text.index("push(") + 5 : text.rindex(");")])
    by_id = [t.encode("latin-1") for t in data["tokens"]]
    ranks = {t: i for i, t in enumerate(by_id)}
    ids = [i for i in range(256, len(by_id), max(1, len(by_id) // 2000))]
    assert len(ids) > 1000, len(ids)
    built = loaded("build", name=name, ids=ids)
    for i, answer in zip(ids, built, strict=True):
        token = by_id[i]
        assert [bytes(p) for p in answer["parts"]] == [token], (name, token)
        assert tuple(bytes(p) for p in answer["last"]) == split_by_ranks(
            token, ranks, i
        ), (name, token)
        assert 1 <= answer["steps"] < len(token)


def test_a_byte_replays_in_no_steps(loaded, encoders):
    a = encoders["gpt2"].encode_single_token(b"a")  # GPT-2's byte ids are not bytes
    (answer,) = loaded("build", name="gpt2", ids=[a])
    assert answer == {"steps": 0, "parts": [[ord("a")]], "last": None}


def test_the_catalogue_gives_each_file_and_its_size(shipped):
    text = shipped["catalogue.js"].read_text(encoding="utf-8-sig")
    entries = json.loads(text[text.index("[") : text.rindex("]") + 1])
    assert [e["name"] for e in entries] == NAMES
    for entry in entries:
        assert entry["bytes"] == shipped[entry["file"]].stat().st_size
    assert [e["size"] for e in entries] == [10_000, 50_257, 100_277, 200_019]
    assert [e["name"] for e in entries if e["shown"]] == ["tinystories", "gpt2"]


def test_the_scripts_are_copied_as_they_are(shipped):
    for name in playground.SCRIPTS:
        assert shipped[name].read_text(encoding="utf-8") == (
            playground.HERE / name
        ).read_text(encoding="utf-8")
    # the page's own script is served from bpe/book/site/static, never copied
    assert playground.SITE_SCRIPT.is_file()
    assert playground.SITE_SCRIPT.name not in shipped
