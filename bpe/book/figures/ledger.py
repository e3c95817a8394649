"""The reproducibility ledger: every figure the article prints, beside the book's own.

Each chapter records the figures it computed with ``record(chapter, {key: value},
data)``, which writes ``<results>/<chapter>.json``. The ledger chapter reads them
all back and sets them beside ``article_figures.ARTICLE``, the article's printed
figures, each labelled with the data it came from, and gives each a status. Nothing
the book reports is typed in: only the article's numbers are, as quotations.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bpe.book.chapters.table import Table

# ARTICLE, SECTIONS and Figure serve this module; the data labels are re-exported
# (hence the noqa): the chapters write ledger.TOY, ledger.TS_VALID, ...
from bpe.book.figures.quoted import (  # noqa: F401
    ARTICLE,
    GPT2,
    LESSON,
    OPUS,
    SECTIONS,
    SOURCE,
    TOY,
    TS_1M,
    TS_TRAIN,
    TS_VALID,
    UNICODE,
    Figure,
)
from bpe.data import results_dir
from bpe.disk.atomic import write_atomically

# the data the book computes on, where it is not the article's
BOOK_STORIES = "book's stories, 4.9 MB"
BOOK_1M = "book's stories, first 1M characters"
BOOK_SCALED = "book's stories x64, 313 MB"
NTREX = "NTREX-128 en-vi, 1,997 pairs"
NEWS_AND_STORIES = "NTREX-128 English and the book's held-out stories"


def beside(figures: dict[str, object], data: str) -> list[dict[str, object]]:
    """Rows setting figures {key: value} computed on ``data`` beside the article's."""
    return [
        {
            "figure": ARTICLE[key].what,
            "article": ARTICLE[key].value,
            "article's data": ARTICLE[key].data,
            "book": value,
            "book's data": data,
        }
        for key, value in figures.items()
    ]


def shown(*groups: tuple[dict[str, object], str]) -> Table:
    """beside() for each (figures, data) pair, as one table shown in full.

    >>> shown(({"fast.heap": "0.1 / 0.3 / 1.3"}, "here")).columns[:3]
    ['figure', 'article', "article's data"]
    """
    rows = [row for figures, data in groups for row in beside(figures, data)]
    return Table.from_dicts(rows, index="figure")


def quoted_numbers(key: str) -> list[float]:
    """The article's figure for key as numbers: "6.0 / 0.3 / 7.1" -> [6.0, 0.3, 7.1].

    >>> quoted_numbers("fast.heap")
    [0.1, 0.3, 1.3]
    """
    return [float(part.rstrip("%")) for part in str(ARTICLE[key].value).split(" / ")]


def slashed(values: Iterable[float], spec: str = ".1f") -> str:
    """Numbers as the article prints a group of them: "0.1 / 0.3 / 1.3".

    >>> slashed([0.25, 1 / 3], ".0%")
    '25% / 33%'
    """
    return " / ".join(format(v, spec) for v in values)


def record(chapter: str, figures: dict[str, object], data: str) -> int:
    """Write a chapter's figures {key: value}, computed on ``data`` (a label).

    They go to <results>/<chapter>.json; the number of figures is returned.
    """
    unknown = sorted(set(figures) - set(ARTICLE))
    if unknown:
        raise KeyError(f"not figures the article prints: {unknown}")
    folder = results_dir()
    folder.mkdir(parents=True, exist_ok=True)
    entries = {key: {"value": value, "data": data} for key, value in figures.items()}
    write_atomically(
        folder / f"{chapter}.json", json.dumps(entries, ensure_ascii=False, indent=1)
    )
    return len(entries)


def collect() -> dict[str, dict[str, Any]]:
    """Every recorded figure, {key: {"value", "data", "chapter"}}, from all chapters."""
    found = {}
    for file in sorted(results_dir().glob("*.json")):
        for key, entry in json.loads(file.read_text(encoding="utf-8")).items():
            found[key] = {**entry, "chapter": file.stem}
    return found


STATUSES = {
    "exact": "the same data, the same value",
    "DIFFERS on the same data": "a failure to reproduce",
    "different data": "computed on a substitute for the article's data",
    "same value, different data": "a substitute, and the value agrees anyway",
    "timing, this machine": "seconds or memory, measured here on the book's data",
    "article only (make article)": "needs the article's own files; the book's nearest "
    "figure is beside it where it has one",
    "cited": "quoted by the article from a source; the book's nearest figure beside it "
    "where it has one",
}


# What stands in the book's columns, (book, book's data), for a figure the book has not
# computed: a cited figure has nothing to compute, the others need the article's files.
NOT_COMPUTED = {
    "cited": ("—", "nothing to compute: the article cites it"),
    "article only (make article)": ("not computed", "needs the article's data"),
}


def status(figure: Figure, book: dict[str, Any] | None) -> str:
    """One of STATUSES for an article figure and the book's entry (or None)."""
    if figure.kind == "cited":
        return "cited"
    if book is None or figure.only and book["data"] != figure.data:
        return "article only (make article)"
    if figure.kind == "timing":
        return "timing, this machine"
    same = str(book["value"]) == str(figure.value)
    if book["data"] == figure.data:
        return "exact" if same else "DIFFERS on the same data"
    return "same value, different data" if same else "different data"


def rows() -> list[dict[str, object]]:
    """A row per article figure: section, what, the article's and the book's, status."""
    found = collect()
    table = []
    for key, figure in ARTICLE.items():
        book = found.get(key)
        state = status(figure, book)
        if book is None:
            value, data = NOT_COMPUTED[state]
        else:
            value, data = book["value"], book["data"]
        table.append(
            {
                "section": SECTIONS[key.split(".")[0]],
                "kind": figure.kind,
                "figure": figure.what,
                "article": figure.value,
                "article's data": figure.data,
                "book": value,
                "book's data": data,
                "status": state,
            }
        )
    return table
