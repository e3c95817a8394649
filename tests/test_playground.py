"""The token playground's JavaScript gives exactly the Python ids, for every vocabulary.

The book's TinyStories vocabulary is checked against bpe.Tokenizer, GPT-2,
cl100k_base and o200k_base against tiktoken: ordinary text (encode_ordinary) and,
with the special-token switch on, encode(allowed_special="all"). The files are the
ones `make book` ships (bpe.book.playground), loaded into one Node process.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from js_strings import strings

from bpe.book import corpora, playground
from bpe.interop.ranks import split_by_ranks
from bpe.interop.unicode import DIFFERENCES

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


def test_the_unicode_view_is_the_packages(node):
    assert [tuple(row) for row in node("newer")] == DIFFERENCES


def test_code_points_tiktoken_classes_as_older_unicode_did(loaded, encoders):
    """Letters, marks and digits of new Unicode versions, which Node's tables know and
    tiktoken's regex does not (or classes as another case): ids as tiktoken's."""
    texts = []
    for first, last, _ in DIFFERENCES:
        for c in sorted({chr(first), chr((first + last) // 2), chr(last)}):
            texts.append(f"x{c}y {c}{c}a A{c}b 1{c} {c}'s")
    check(loaded, encoders, texts)


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
