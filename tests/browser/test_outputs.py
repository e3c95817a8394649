"""Outputs a reader can read, and one number per chapter, on the built site.

- At 1280 px no output of chapters 00-12 is cut off: no output box scrolls
  sideways (its scrollWidth beyond its clientWidth), and no table is wider than
  its box. The failure names the page and the output's first characters.
- At 390 px a table wider than its box scrolls as a whole inside it, and its first
  column stays in view when the box is scrolled to its right end.
- At 390 px every chart can be read: a figure drawn narrower than its image is a
  link that opens that image full size (bpe/book/site/sphinx_extension.py), so its
  text is drawn at the size it was made at.
- A chapter's title starts with its file's number ("4." on 04_*.html), the other
  pages' titles with none, and each link "chapter N" lands on chapter N's page.
"""

import re

import pytest

from .conftest import book_pages

PAGES = book_pages()
CHAPTER_FILE = re.compile(r"notebooks/(\d\d)_\w+\.html$")


def number(path):
    found = CHAPTER_FILE.fullmatch(path)
    return int(found.group(1)) if found else None


EARLY = [p for p in PAGES if number(p) is not None and number(p) <= 12]


@pytest.mark.parametrize("path", EARLY)
def test_no_output_is_cut_off_at_1280_px(rendered, path):
    cut = rendered(path, 1280)["cut"]
    assert cut == [], f"{path}: {len(cut)} outputs cut off, beginning {cut[:8]}"


@pytest.mark.parametrize("path", PAGES)
def test_a_wide_table_scrolls_with_its_first_column_in_view_at_390_px(rendered, path):
    found = rendered(path, 390)["sticky"]
    assert found["wrong"] == [], f"{path}: {found['wrong'][:8]}"


def test_the_phone_check_sees_wide_tables(rendered):
    """The check above is not empty: at 390 px some chapter has a table to scroll."""
    assert any(rendered(path, 390)["sticky"]["wide"] for path in EARLY[:6])


@pytest.mark.parametrize("path", EARLY)
def test_every_chart_opens_full_size_at_390_px(rendered, path):
    wrong = rendered(path, 390)["figures"]
    assert wrong == [], f"{path}: {wrong[:8]}"


@pytest.mark.parametrize("path", PAGES)
def test_chapter_numbers_are_the_file_numbers(rendered, path):
    found = rendered(path, 1280)["chapter_links"]
    title_number = re.match(r"(\d+)\.\s", found["title"])
    expected = number(path)
    if expected is None or expected >= 98:
        assert title_number is None, (
            f"{path}: unnumbered page titled {found['title']!r}"
        )
    else:
        assert title_number and int(title_number.group(1)) == expected, (
            f"{path}: titled {found['title']!r}, its file is number {expected}"
        )
    wrong = [
        f"{said!r} -> {target}"
        for said, n, target in found["links"]
        if not re.search(rf"/notebooks/{n:02d}_\w+\.html$", target)
    ]
    assert wrong == [], f"{path}: links that land elsewhere: {wrong}"
    assert found["unlinked"] == [], f"{path}: 'chapter N' without a link"
