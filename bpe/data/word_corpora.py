"""Corpora whose distinct pre-tokens grow with their size (make bench, chapter 16).

Repeating a text adds no new pre-tokens, so it hides the merge phase's cost. Here:

- ``zipf_corpus(mb)``: made-up words drawn with Zipf frequencies from a seeded
  lexicon, in documents ended by <|endoftext|>; the longer the text, the more of
  the lexicon's rare words it meets (75,899, 237,795 and 503,491 distinct
  pre-tokens at 10, 40 and 100 MB).
  ``zipf_corpus(mb, exponent)`` draws with another exponent (at s = 1.0, closer to
  running text, rare words weigh more);
- ``mixed_corpus()``: real text of several kinds, the TinyStories training text
  with NTREX-128's and Tatoeba's English and Vietnamese sentences;
- ``source_corpus(mb)``: real Python source, this Python's standard library and
  site-packages, each file a document, in sorted order, until about mb MB: on every
  machine, many distinct words, and nearly every line indented.

Each is written once into the data cache (git-ignored) and reused.
"""

from __future__ import annotations

import itertools
import random
import sysconfig
from pathlib import Path

from bpe.data import registry as data
from bpe.data.corpora import EN_VI, lines, tinystories_files
from bpe.pretokenizer import ENDOFTEXT

EOT = ENDOFTEXT
SEED = 31  # issue 31
# made-up words to draw from, per MB of text: a larger text draws from a larger
# lexicon, so its distinct words keep growing (most of a lexicon's words are never met)
LEXICON_PER_MB = 25_000
EXPONENT = 1.2  # Zipf's s: word of rank r is drawn with weight 1 / r**s
LETTERS = "etaoinshrdlcumwfgypbvkjxqz"
LETTER_WEIGHTS = [12, 9, 8, 8, 7, 7, 6, 6, 6, 4, 4, 3, 3]
LETTER_WEIGHTS += [2] * 6 + [1] * 7
WORDS_PER_DOCUMENT = 300


def folder() -> Path:
    path = data.cache_dir() / "bench"
    path.mkdir(parents=True, exist_ok=True)
    return path


def lexicon(rng: random.Random, size: int) -> list[str]:
    """size made-up words of 1 to 12 letters, every seventh capitalised."""
    weights = [3, 6, 9, 10, 10, 9, 8, 6, 4, 3, 2, 1]
    lengths = rng.choices(range(1, 13), weights, k=size)
    letters = iter(rng.choices(LETTERS, LETTER_WEIGHTS, k=sum(lengths)))
    words = ["".join(itertools.islice(letters, n)) for n in lengths]
    return [w.capitalize() if i % 7 == 0 else w for i, w in enumerate(words)]


def zipf_corpus(mb: int, exponent: float = EXPONENT) -> Path:
    """A file of about mb MB of Zipf-distributed made-up words (written once): the
    word of rank r weighs 1 / r**exponent, so a smaller exponent draws more rare
    words, more distinct pre-tokens and a longer merge phase."""
    shape = "" if exponent == EXPONENT else f"_s{exponent:g}"
    path = folder() / f"zipf_{mb}mb{shape}_seed{SEED}.txt"
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


def mixed_corpus() -> Path:
    """Stories, news and everyday sentences in English and Vietnamese (written once)."""
    path = folder() / "mixed_stories_ntrex_tatoeba.txt"
    if path.is_file():
        return path
    parts = [tinystories_files()[0].read_text(encoding="utf-8")]
    for names in EN_VI.values():
        for name in names:  # each sentence a document of its own
            parts.append("".join(line + EOT for line in lines(data.path(name))))
    tmp = path.with_suffix(".part")
    tmp.write_text("".join(parts), encoding="utf-8")
    tmp.replace(path)
    return path


if __name__ == "__main__":
    import sys

    from bpe.scale.pipeline import pretokenize_file

    for arg in sys.argv[1:]:
        p = mixed_corpus() if arg == "mixed" else zipf_corpus(int(arg))
        table = pretokenize_file(p, [EOT], workers=2)
        print(p.name, p.stat().st_size, f"{len(table):,} distinct pre-tokens")


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
