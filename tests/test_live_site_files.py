"""What the page's Python reads from the site: OpenAI's encodings and the data files.

``bpe.interop.openai.get_encoding`` in the page is the package's own tokenizer on
the token playground's vocabulary files; ``bpe.data.registry`` reads the registered
files that ``bpe.book.site.archive`` copies into the site. Under CPython the
page's path is checked against tiktoken's own tables, token by token; under Node
(Pyodide, ``marks.PagePython``, with the same files as the site) the page gives
tiktoken's ids and the texts CPython reads, and says which file it lacks.
"""

import hashlib
import json
import os
import shutil

import pytest

from bpe.book.page import vocabularies
from bpe.book.site import archive, marks
from bpe.data import corpora
from bpe.data import registry as data
from bpe.interop import openai
from bpe.interop.ranks import from_tiktoken

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"), reason="Node.js is not installed"
)
SAMPLES = [
    "It's 2026: naïve café owners say 'Xin chào thế giới' 🙃",
    "   12345  \n\n hello world's\r\n\t<|endoftext|> ok",
    "牛肉 phở 123456789 ABCDef'LL you'RE",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A folder laid out as the site's _static/ for what the page's Python reads."""
    return marks.site_folder(tmp_path_factory.mktemp("page"))


@pytest.mark.parametrize("name", openai.COMPARED)
def test_the_page_encoding_is_tiktokens_token_by_token(site, name, monkeypatch):
    """Every token, merge, special token and the pattern: the served file is exact."""
    monkeypatch.setenv(vocabularies.SITE_SETTING, str(site))
    page = vocabularies.get_encoding.__wrapped__(name)
    real = openai.get_encoding(name)  # tiktoken's, under CPython
    vocab, merges, specials, pattern = from_tiktoken(real)
    assert (page.vocab, page.merges, list(page.specials), page.pattern) == (
        vocab,
        merges,
        specials,
        pattern,
    )
    assert page._mergeable_ranks == real._mergeable_ranks
    assert page._special_tokens == real._special_tokens
    assert (page.name, page.n_vocab, page.eot_token) == (
        real.name,
        real.n_vocab,
        real.eot_token,
    )
    for text in SAMPLES:
        assert page.encode(text, allowed_special="all") == real.encode(
            text, allowed_special="all"
        )
        assert page.encode_ordinary(text) == real.encode_ordinary(text)
    with pytest.raises(ValueError):  # tiktoken's default: no special token allowed
        page.encode("a<|endoftext|>")
    with pytest.raises(ValueError):
        real.encode("a<|endoftext|>")


def test_the_page_serves_only_the_compared_encodings(site, monkeypatch):
    monkeypatch.setenv(vocabularies.SITE_SETTING, str(site))
    with pytest.raises(ValueError, match="serves the encodings gpt2"):
        vocabularies.get_encoding("p50k_base")


def test_every_registered_file_and_gpt2s_files_are_served(site):
    names = {f"{data.SERVED}/{name}" for name in data.REGISTRY}
    names |= {
        f"{vocabularies.SERVED_OPENAI}/{name}" for name in vocabularies.SERVED_FILES
    }
    assert set(archive.served()) == names
    for name, entry in data.REGISTRY.items():
        copy = site / data.SERVED / name
        assert copy.stat().st_size == entry.size
        assert data.sha256_of(copy) == entry.sha256
    for name in vocabularies.SERVED_FILES:
        copy = site / vocabularies.SERVED_OPENAI / name
        assert copy.read_bytes() == openai.shipped_path(name).read_bytes()


def test_every_registered_file_has_a_credit_line():
    for name in data.REGISTRY:
        line = data.credit(name)
        entry = data.REGISTRY[name]
        assert f"github.com/{entry.repo}" in line and entry.licence in line
        assert len(line) <= 88  # an output line within the column (issue 27)
    both = data.credits(corpora.EN_VI["ntrex128"] + corpora.EN_VI["tatoeba"])
    assert both.splitlines() == [
        "NTREX-128: github.com/MicrosoftTranslator/NTREX, CC BY-SA 4.0",
        "Tatoeba: github.com/Helsinki-NLP/OPUS-MT-testsets, "
        "Tatoeba sentences, CC BY 2.0 FR",
    ]


IN_THE_PAGE = """
import hashlib, json
from bpe.data import corpora
from bpe.data import registry as data
from bpe.interop.openai import get_encoding, shipped_path

def digest(value):
    return hashlib.sha256(json.dumps(value).encode("utf-8")).hexdigest()

samples = json.loads(job_input)
found = {"ids": {}, "n_vocab": {}}
for name in ("gpt2", "cl100k_base", "o200k_base"):
    encoding = get_encoding(name)
    found["ids"][name] = [encoding.encode(s, allowed_special="all") for s in samples]
    found["n_vocab"][name] = encoding.n_vocab
train, heldout = corpora.tinystories_files()
found["stories"] = [data.sha256_of(train), data.sha256_of(heldout)]
found["pairs"] = {c: digest(corpora.en_vi_pairs(c)) for c in corpora.EN_VI}
found["split"] = digest(corpora.ntrex_split())
found["encoder.json"] = data.sha256_of(shipped_path("encoder.json"))
try:
    data.fetch("nowhere/nothing", data.cache_dir() / "nothing")
except data.DataError as error:
    found["missing"] = str(error)
json.dumps(found)
"""


def digest(value):
    return hashlib.sha256(json.dumps(value).encode("utf-8")).hexdigest()


@needs_node
def test_the_page_reads_the_encodings_and_the_data_as_cpython_does(page_python):
    found = page_python.ask(IN_THE_PAGE, SAMPLES)
    for name in openai.COMPARED:
        real = openai.get_encoding(name)
        expected = [real.encode(s, allowed_special="all") for s in SAMPLES]
        assert found["ids"][name] == expected, name
        assert found["n_vocab"][name] == real.n_vocab
    assert found["stories"] == [data.sha256_of(f) for f in corpora.tinystories_files()]
    assert found["pairs"] == {c: digest(corpora.en_vi_pairs(c)) for c in corpora.EN_VI}
    assert found["split"] == digest(corpora.ntrex_split())
    encoder = openai.shipped_path("encoder.json")
    assert found["encoder.json"] == data.sha256_of(encoder)
    assert "nowhere/nothing is not served by this site" in found["missing"]


def test_the_playground_files_carry_what_the_page_needs(site):
    for name in openai.COMPARED:
        text = (site / "playground" / f"{name}.js").read_text(encoding="utf-8")
        served = json.loads(text[text.index("push(") + 5 : text.rindex(");")])
        assert len(served["splits"]) == len(served["tokens"])
        assert served["pat_str"] == openai.get_encoding(name)._pat_str
