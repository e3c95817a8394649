"""At 390 × 844 px a table wider than its box says that it scrolls (book.css, in
bpe/book/site/static/), and at 1280 px so does a code box with a line wider than it.

The cue is a shadow along the box's right edge, painted as the box's background, under
the rows: a row's stripe, if opaque, hides it (so the first try did). The test
therefore looks at the pixels, as a reader would, on a screenshot of the box's last
1rem of width (the shadow's): some column of that strip, by its median pixel, must
stand out from the page's colour while columns lie beyond the edge (the box scrolled
to its start), and none once the last column is in view (scrolled to its end), where
the cue would say there is more when there is none. Every table on every page; the
failure names the page and the table's first characters. A box that hides less than
``SLIVER`` px is left out: its shadow shows only as wide as what it hides.
"""

import io
import statistics

import pytest

from .conftest import book_pages, offline_context
from .measures import SCROLL_EDGE, WIDE_LINES, WIDE_TABLES

PAGES = book_pages()
# How far (the largest of the three channels, 0-255) a column's median pixel is from
# the page's colour: a stripe alone is about 14 from it, a cell's border 26, the
# shadow at its edge about 80.
CUE = 30
SLIVER = 8  # px: about a cell's padding


@pytest.fixture(scope="module")
def phone(browser, site_url):
    context = offline_context(browser, site_url, 390, 844)
    yield context
    context.close()


def edge_contrast(page, n, end):
    """How far the strongest column of box n's right edge is from the page's colour,
    each column by its median pixel (a letter or a border crossing it aside)."""
    from PIL import Image

    found = page.evaluate(SCROLL_EDGE, [n, end])
    shot = Image.open(io.BytesIO(page.screenshot(clip=found["clip"]))).convert("RGB")
    far = [
        statistics.median(
            max(
                abs(a - b)
                for a, b in zip(shot.getpixel((x, y)), found["page"], strict=True)
            )
            for y in range(shot.height)
        )
        for x in range(shot.width)
    ]
    return max(far)


def missing_cues(page, boxes=WIDE_TABLES):
    """The wide boxes on the page (tables, or code boxes: WIDE_LINES) whose edge gives
    no cue, or a cue at their end."""
    wrong = []
    for n, box in enumerate(page.evaluate(boxes)):
        if box["hidden"] < SLIVER:
            continue
        start, end = edge_contrast(page, n, False), edge_contrast(page, n, True)
        if start < CUE:
            wrong.append(f"no cue at its edge ({start} from the page): {box['text']}")
        if end >= CUE:
            wrong.append(f"a cue when scrolled to its end ({end}): {box['text']}")
    return wrong


@pytest.mark.parametrize("path", PAGES)
def test_a_wide_table_shows_that_it_scrolls_at_390_px(phone, site_url, path):
    page = phone.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    try:
        wrong = missing_cues(page)
    finally:
        page.close()
    assert wrong == [], f"{path}: {wrong[:6]}"


def test_the_cue_check_sees_wide_tables(phone, site_url):
    """The check above is not empty: chapter 10's ratio table is wide at 390 px."""
    page = phone.new_page()
    page.goto(f"{site_url}/notebooks/10_languages.html", wait_until="load")
    wide = page.evaluate(WIDE_TABLES)
    page.close()
    assert any("Vietnamese / English" in box["text"] for box in wide), wide


@pytest.mark.parametrize("path", PAGES)
def test_a_long_line_shows_that_it_goes_on_at_1280_px(browser, site_url, path):
    """A printed line (or a line of code) longer than its box: the box's right edge
    has the same cue, against the code's own colour, so that what a line ends with
    (often its verdict) is not taken for missing."""
    context = offline_context(browser, site_url, 1280, 900)
    page = context.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    try:
        wrong = missing_cues(page, WIDE_LINES)
    finally:
        context.close()
    assert wrong == [], f"{path}: {wrong[:6]}"
