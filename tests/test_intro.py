"""The intro names every page of the table of contents: each part's chapters come
from ``_toc.yml`` itself (``{part-chapters}``), the other pages by a link."""

import re
from pathlib import Path

import pytest

from bpe.book.site.contents import part_chapters, read_toc

ROOT = Path(__file__).resolve().parents[1]
INTRO = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")


def listed(intro: str, toc: dict) -> set[str]:
    """The toc files the intro shows: its parts' chapters, and what it links."""
    shown = set()
    for caption in re.findall(r"^```\{part-chapters\} (.+)$", intro, re.MULTILINE):
        shown |= set(part_chapters(toc, caption.strip()))
    for target in re.findall(r"\{doc\}`(?:[^<`]*<)?([^>`]+)>?`", intro):
        shown.add(str(Path("book", target).resolve().relative_to(ROOT.resolve())))
    return shown


def every_page(toc: dict) -> set[str]:
    pages = {entry["file"] for part in toc["parts"] for entry in part["chapters"]}
    return pages - {toc["root"]}


def test_the_intro_lists_every_page_of_the_toc(monkeypatch):
    monkeypatch.chdir(ROOT)
    toc = read_toc(ROOT)
    assert every_page(toc) - listed(INTRO, toc) == set()


def test_a_page_left_out_of_the_intro_is_caught(monkeypatch):
    monkeypatch.chdir(ROOT)
    toc = read_toc(ROOT)
    cut = INTRO.replace("```{part-chapters} Beyond the article", "")
    missing = every_page(toc) - listed(cut, toc)
    assert "notebooks/20_where_merges_diverge" in missing


def test_a_part_that_is_not_in_the_toc_is_refused():
    with pytest.raises(ValueError, match="no part 'Nowhere'"):
        part_chapters(read_toc(ROOT), "Nowhere")
