"""Every built page at laptop (1280 px) and phone (390 px) width, as a reader sees it.

Each page is loaded once per width, in a fresh offline browser context, and measured by
layout.js; the tests below each read one part of that measurement:

- no error of any script, the book's or anyone else's, in the console or uncaught;
- no word or number split across lines inside a table cell (a cell wraps between words;
  a table too wide for the column scrolls in a box of its own);
- no line of code or output wrapped (code scrolls sideways instead), nothing cut off,
  and the page itself never scrolls sideways;
- at 1280 px, a line of 88 characters fits a code cell, and no error output on the page;
- every figure in a chapter has alt text that says what it shows.
"""

import re

import pytest

from .conftest import SITE, book_pages

WIDTHS = (1280, 390)
PAGES = [(path, width) for path in book_pages() for width in WIDTHS]
LAPTOP = [(path, width) for path, width in PAGES if width == 1280]


def ids(case):
    path, width = case
    return f"{path.removesuffix('.html')}@{width}"


def some(found):
    """found, for a failure message: how many, and the first few (each once)."""
    distinct = list(dict.fromkeys(found))
    return f"{len(found)}: {distinct[:12]}"


@pytest.mark.parametrize(("path", "width"), PAGES, ids=map(ids, PAGES))
def test_no_console_errors(rendered, path, width):
    assert rendered(path, width)["errors"] == []


@pytest.mark.parametrize(("path", "width"), PAGES, ids=map(ids, PAGES))
def test_no_word_is_split_in_a_table_cell(rendered, path, width):
    split = rendered(path, width)["splitWords"]
    assert not split, f"words split across lines in table cells, {some(split)}"


@pytest.mark.parametrize(("path", "width"), PAGES, ids=map(ids, PAGES))
def test_code_lines_never_wrap(rendered, path, width):
    wrapped = rendered(path, width)["wrappedLines"]
    assert not wrapped, f"lines of code or output that wrap, {some(wrapped)}"


@pytest.mark.parametrize(("path", "width"), PAGES, ids=map(ids, PAGES))
def test_nothing_is_cut_off(rendered, path, width):
    found = rendered(path, width)
    assert found["cutOff"] == []
    assert not found["pageScrollsSideways"], "the page itself scrolls sideways"


@pytest.mark.parametrize(("path", "width"), LAPTOP, ids=map(ids, LAPTOP))
def test_a_page_shows_no_error_output(rendered, path, width):
    found = rendered(path, width)
    assert not found["traceback"], "a traceback on the page"
    assert found["errorOutputs"] == 0, "a cell shows error output"


@pytest.mark.parametrize(("path", "width"), LAPTOP, ids=map(ids, LAPTOP))
def test_88_columns_fit_a_code_cell_at_laptop_width(rendered, path, width):
    """At 1280 px a code cell's longest line (88 columns) needs no scrolling.

    (An output line longer than that scrolls in its box, as on a phone.)"""
    found = rendered(path, width)
    assert found["room"] in (True, None), "88 columns do not fit a code cell"
    assert found["scrollingCode"] == [], "code cells that scroll at 1280 px"


# Alt text that is not a sentence: empty, a file name, or a hash (myst-nb's default).
NOT_A_SENTENCE = re.compile(r"[0-9a-f]{16}|\.(png|jpe?g|svg|gif)\b|_images/", re.I)


def figures(path):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((SITE / path).read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup
    return [img.get("alt", "") for img in article.select("img")]


CHAPTERS = [p for p in book_pages() if p.startswith("notebooks/") and figures(p)]


@pytest.mark.parametrize("path", CHAPTERS)
def test_every_figure_has_alt_text_that_says_what_it_shows(path):
    """Set by the cell's metadata {"mystnb": {"image": {"alt": "..."}}}."""
    bad = [
        alt
        for alt in figures(path)
        if NOT_A_SENTENCE.search(alt) or len(re.findall(r"[^\W\d_]{2,}", alt)) < 4
    ]
    assert bad == [], f"alt text that says nothing: {bad}"


PHONE = [(path, width) for path, width in PAGES if width == 390]


@pytest.mark.parametrize(("path", "width"), PHONE, ids=map(ids, PHONE))
def test_on_a_phone_the_lesson_comes_first(rendered, path, width):
    """The first paragraph comes right under the title (the page's notices after
    it), and the playground's text box on the first screen (844 px high)."""
    found = rendered(path, width)["lesson_start"]
    if found["first"] is not None:
        assert found["first"] - found["title"] < 60, found
    if found["textBox"] is not None:
        assert found["textBox"] < 844, found
