"""The token playground's files, generated from the package when the site is built.

    # writes OUT/playground/*.js, lists their sizes
    python -m bpe.book.site.playground OUT

The page (book/playground.md) loads them with plain <script> tags, so it works
offline and even opened from disk: ``bpe.js`` (the JavaScript BPE shared with the
merge explorer), ``explorer.js`` (its trainer, for "train on your text"), both
copied from the package, where the notebooks' explorer inlines them, and
``catalogue.js`` (which vocabularies exist, and how large each file is). The page's
own script, ``playground.js``, is the site's (bpe/book/site/static/playground/),
served as it is (``SITE_SCRIPT``). Each vocabulary is a file of its own, which the page
loads only when the reader picks it: its tokens by id (which is also rank order),
each token's bytes written as a string of the characters U+0000 to U+00FF, its
special tokens, its pre-tokenizer pattern rewritten for JavaScript and how it
reads Unicode (as ``regex`` does, or, for OpenAI's, as tiktoken does); for the
page's Python, which builds OpenAI's encodings from these same files, also the
pattern as Python writes it and each token's merge (``splits``). The OpenAI
vocabularies come from the files shipped on PyPI (``bpe.interop.openai``), never
from the network.
"""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import bpe
from bpe.book.chapters import explorer
from bpe.book.page.vocabularies import SPLIT_BASE
from bpe.book.site import STATIC
from bpe.book.site.jspattern import js_pattern
from bpe.data.corpora import tinystories_files
from bpe.disk.atomic import write_atomically
from bpe.files import PathLike
from bpe.interop.openai import get_encoding
from bpe.interop.ranks import split_by_ranks

ENDOFTEXT = bpe.ENDOFTEXT

HERE = Path(explorer.__file__).resolve().parent  # bpe.js and explorer.js
SCRIPTS = ("bpe.js", "explorer.js")  # the package's, shared with the notebooks
# served from bpe/book/site/static as it is (html_static_path), so never copied here
SITE_SCRIPT = STATIC / "playground" / "playground.js"
CATALOGUE = "catalogue.js"
BOM = "\ufeff"  # so that a browser reads the files as UTF-8 whatever the server says


@dataclass(frozen=True)
class Vocabulary:
    """One vocabulary the page offers: its name (and file name) and label."""

    name: str
    label: str
    shown: bool  # chosen when the page opens

    @property
    def file(self) -> str:
        return f"{self.name}.js"


VOCABULARIES = (
    Vocabulary("tinystories", "this book's TinyStories", True),
    Vocabulary("gpt2", "GPT-2", True),
    Vocabulary("cl100k_base", "cl100k_base (GPT-4)", False),
    Vocabulary("o200k_base", "o200k_base (GPT-4o)", False),
)


@functools.cache  # trained once per process; callers copy before changing anything
def stories_vocabulary() -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """(vocab, merges): the book's 10,000 tokens, trained on its TinyStories stories."""
    text = tinystories_files()[0].read_text(encoding="utf-8")
    return bpe.train(text, 10_000, specials=[ENDOFTEXT])


def stories_tokenizer() -> bpe.Tokenizer:
    """The book's 10,000-token vocabulary as a Tokenizer."""
    return bpe.Tokenizer(*stories_vocabulary(), [ENDOFTEXT])


def encoders() -> dict:
    """{name: the Python encoder whose ids the page must give}, one per vocabulary."""
    found = {"tinystories": stories_tokenizer()}  # regex's view, as bpe.js reads it
    found.update({v.name: get_encoding(v.name) for v in VOCABULARIES[1:]})
    return found


def stories_ranks() -> tuple[dict[bytes, int], dict[str, int]]:
    """The book's vocabulary as tiktoken holds one: (ordinary token ranks, specials)."""
    vocab, _ = stories_vocabulary()
    special = ENDOFTEXT.encode("utf-8")
    ranks = {}
    for i in sorted(vocab, reverse=True):  # a token listed twice keeps its lower id
        ranks[vocab[i]] = i
    return {t: i for t, i in ranks.items() if t != special}, {ENDOFTEXT: ranks[special]}


def shipped(
    vocabulary: Vocabulary,
    ranks: dict[bytes, int],
    specials: dict[str, int],
    pattern: str,
    unicode: str,
) -> dict:
    """What the page needs of a vocabulary, as JSON-ready data; unicode is how it
    reads Unicode: "regex" (the package's view) or "tiktoken"
    (bpe/book/chapters/bpe.js)."""
    by_id = sorted(ranks, key=ranks.get)
    if [ranks[t] for t in by_id] != list(range(len(by_id))):
        raise ValueError(f"{vocabulary.name}: the ids are not 0..n-1 in rank order")
    return {
        "name": vocabulary.name,
        "label": vocabulary.label,
        "pattern": js_pattern(pattern),
        "unicode": unicode,
        "pat_str": pattern,  # as Python writes it: for get_encoding in the page
        "splits": splits(ranks, by_id),
        "specials": specials,
        # latin-1 maps each byte to the character of the same number: a token is a
        # JSON string of its bytes, shorter than base64 for everything but non-ASCII.
        "tokens": [t.decode("latin-1") for t in by_id],
    }


def splits(ranks: dict[bytes, int], by_id: list[bytes]) -> str:
    """Each token's merge, by id, as the length of its left part: one character each.

    The page's Python (``bpe.book.page.vocabularies.get_encoding``) rebuilds the merges
    from it; finding them there (``ranks.from_tiktoken``) would take it half a
    minute for o200k_base. A single byte has none ("0").
    """
    return "".join(
        chr(SPLIT_BASE + (len(split_by_ranks(t, ranks, i)[0]) if len(t) > 1 else 0))
        for i, t in enumerate(by_id)
    )


def script(data: dict) -> str:
    """A vocabulary as a script that adds itself to window.BPE_VOCABULARIES."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    push = "(window.BPE_VOCABULARIES = window.BPE_VOCABULARIES || []).push"
    return f"{BOM}{push}({text});\n"


def vocabulary_data() -> dict[str, dict]:
    """{name: shipped data} for every vocabulary the playground offers, in order."""
    ranks, specials = stories_ranks()
    stories = shipped(VOCABULARIES[0], ranks, specials, bpe.PAT, "regex")
    found = {"tinystories": stories}
    found.update(openai_data())
    return found


def openai_data() -> dict[str, dict]:
    """{name: shipped data} for OpenAI's vocabularies (what the page's Python reads)."""
    found = {}
    for vocabulary in VOCABULARIES[1:]:
        encoding = get_encoding(vocabulary.name)  # tiktoken's own tables
        found[vocabulary.name] = shipped(
            vocabulary,
            encoding._mergeable_ranks,
            encoding._special_tokens,
            encoding._pat_str,
            "tiktoken",
        )
    return found


def openai_scripts() -> dict[str, str]:
    """{file name: script} of OpenAI's vocabularies only (no training needed)."""
    return {f"{name}.js": script(data) for name, data in openai_data().items()}


def vocabularies() -> dict[str, str]:
    """{file name: script} for every vocabulary the playground offers."""
    return {f"{name}.js": script(data) for name, data in vocabulary_data().items()}


def catalogue(scripts: dict[str, str]) -> str:
    """The list the page shows before any vocabulary loads: names, sizes, files."""
    entries = []
    for vocabulary in VOCABULARIES:
        text = scripts[vocabulary.file]
        data = json.loads(text[text.index("push(") + 5 : text.rindex(");")])
        entries.append(
            {
                "name": vocabulary.name,
                "label": vocabulary.label,
                "shown": vocabulary.shown,
                "file": vocabulary.file,
                "bytes": len(text.encode("utf-8")),
                # one more than the largest id, as tiktoken's n_vocab
                "size": max(len(data["tokens"]) - 1, *data["specials"].values()) + 1,
            }
        )
    text = json.dumps(entries, ensure_ascii=False, indent=1)
    return f"{BOM}window.BPE_CATALOGUE = {text};\n"


def write(out: PathLike) -> list[Path]:
    """Write the page's scripts into out/playground; return the files written."""
    folder = Path(out) / "playground"
    folder.mkdir(parents=True, exist_ok=True)
    files = {name: (HERE / name).read_text(encoding="utf-8") for name in SCRIPTS}
    scripts = vocabularies()
    files.update(scripts)
    files[CATALOGUE] = catalogue(scripts)
    written = []
    for name, text in files.items():
        write_atomically(folder / name, text)
        written.append(folder / name)
    return written


if __name__ == "__main__":
    for path in write(sys.argv[1] if len(sys.argv) > 1 else "_build/generated"):
        print(f"{path}: {path.stat().st_size:,} bytes")
