"""Corpora for make bench that grow what costs: real source code, and Zipf s=1.0.

- ``source_corpus(mb)``: Python source read from this Python's own standard library
  and site-packages, each file a document (ended by <|endoftext|>), files in sorted
  order of their path under their root, until about mb MB. Nearly every line starts
  with indentation, the shape ``word_counts.untangle`` cuts (issue 40).
- ``zipf_corpus(mb, exponent)``: ``bpe.book.word_corpora``'s made-up words with any
  Zipf exponent (there s is fixed at 1.2): at s=1.0 rare words weigh more, so more
  distinct pre-tokens, and a longer merge phase.

Both are written once into the data cache's bench folder and reused. (These belong
with ``word_corpora`` once it has moved; they live here until then.)
"""

from __future__ import annotations

import itertools
import random
import sysconfig
from pathlib import Path

from bpe.book.word_corpora import (
    EOT,
    LEXICON_PER_MB,
    SEED,
    WORDS_PER_DOCUMENT,
    folder,
    lexicon,
)


def source_files() -> list[Path]:
    """Every .py file under the standard library, then under site-packages, each
    root's files sorted by their path under it (the same order on every run)."""
    roots = [Path(sysconfig.get_paths()[key]) for key in ("stdlib", "purelib")]
    files: list[Path] = []
    for root in dict.fromkeys(roots):  # once each, in order, should two be one
        found = (p for p in root.rglob("*.py") if p.is_file())
        files += sorted(found, key=lambda p: p.relative_to(root).as_posix())
    return files


def source_corpus(mb: int = 30) -> Path:
    """About mb MB of Python source, files as documents (written once)."""
    path = folder() / f"python_source_{mb}mb.txt"
    if path.is_file():
        return path
    target, size = mb * 1_000_000, 0
    tmp = path.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8") as f:
        for file in source_files():
            try:
                text = file.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue  # not UTF-8 (a test file of odd encodings), or unreadable
            if EOT in text or not text.strip():
                continue  # a file that names the marker would cut itself in two
            f.write(text + EOT)
            size += len(text.encode("utf-8")) + len(EOT)
            if size >= target:
                break
    tmp.replace(path)
    return path


def zipf_corpus(mb: int, exponent: float) -> Path:
    """About mb MB of made-up words, the word of rank r weighing 1 / r**exponent."""
    path = folder() / f"zipf_{mb}mb_s{exponent:g}_seed{SEED}.txt"
    if path.is_file():
        return path
    rng = random.Random(SEED)
    words = lexicon(rng, LEXICON_PER_MB * mb)
    ranks = range(1, len(words) + 1)
    cum = list(itertools.accumulate(1 / r**exponent for r in ranks))
    target, size = mb * 1_000_000, 0
    tmp = path.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8") as f:
        while size < target:
            drawn = rng.choices(words, cum_weights=cum, k=WORDS_PER_DOCUMENT)
            document = " ".join(drawn) + ".\n" + EOT
            f.write(document)
            size += len(document.encode("utf-8"))
    tmp.replace(path)
    return path
