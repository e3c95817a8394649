"""The token playground's files, generated from the package when the site is built.

    python -m bpe.book.playground OUT    # writes OUT/playground/*.js

The page (book/playground.md) loads them with plain <script> tags, so it works
offline and even opened from disk: ``bpe.js`` (the JavaScript BPE shared with the
merge explorer), ``playground.js`` (the page), and one file per vocabulary, each
token's bytes in base64, in id order, which is also rank order.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

from ..disk.atomic import write_atomically
from ..interop.openai import get_encoding
from ..interop.ranks import ranks_of
from ..pretokenize import ENDOFTEXT, PAT
from ..scale.pipeline import train_file
from ..tokenizer import Tokenizer
from .corpora import tinystories_files

HERE = Path(__file__).resolve().parent
SCRIPTS = ("bpe.js", "playground.js")


def stories_tokenizer() -> Tokenizer:
    """The book's 10,000-token vocabulary, trained on its TinyStories stories."""
    vocab, merges, _ = train_file(
        tinystories_files()[0], 10_000, [ENDOFTEXT], workers=2
    )
    return Tokenizer(vocab, merges, [ENDOFTEXT])


def shipped(name: str, label: str, ranks: dict[bytes, int]) -> str:
    """A vocabulary as a script that adds itself to BPE_VOCABULARIES."""
    by_id = sorted(ranks, key=ranks.get)
    if [ranks[t] for t in by_id] != list(range(len(by_id))):
        raise ValueError(f"{name}: the ids are not 0..n-1 in rank order")
    tokens = [base64.b64encode(t).decode("ascii") for t in by_id]
    data = json.dumps(
        {"name": name, "label": label, "pattern": PAT, "tokens": tokens},
        separators=(",", ":"),
    )
    return f"(window.BPE_VOCABULARIES = window.BPE_VOCABULARIES || []).push({data});\n"


def vocabularies() -> dict[str, str]:
    """{file name: script} for the two vocabularies the playground sets side by side."""
    # Both split text with GPT-2's pattern (tiktoken writes it with possessive
    # quantifiers; the pieces are the same, and tests/test_playground.py checks the ids).
    gpt2 = get_encoding("gpt2")
    return {
        "tinystories.js": shipped(
            "tinystories",
            "this book's TinyStories (10,000)",
            ranks_of(stories_tokenizer()),
        ),
        "gpt2.js": shipped("gpt2", "GPT-2 (50,257)", gpt2._mergeable_ranks),
    }


def write(out) -> list[Path]:
    folder = Path(out) / "playground"
    folder.mkdir(parents=True, exist_ok=True)
    files = {name: (HERE / name).read_text(encoding="utf-8") for name in SCRIPTS}
    files.update(vocabularies())
    written = []
    for name, text in files.items():
        write_atomically(folder / name, text)
        written.append(folder / name)
    return written


if __name__ == "__main__":
    for path in write(sys.argv[1] if len(sys.argv) > 1 else "_build/generated"):
        print(f"{path}: {path.stat().st_size:,} bytes")
