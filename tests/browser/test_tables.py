"""At 390 × 844 px a table wider than its box says that it scrolls (book.css, in
bpe/book/site/static/), and at 1280 px so does a code box with a line wider than it.

The cue is a shadow along the box's right edge, painted as the box's background, under
the rows: a row's stripe, if opaque, hides it (so the first try did). The test
therefore looks at the pixels, as a reader would (``missing_cues`` in measures.py), on
a screenshot of the box's last 1rem of width (the shadow's): some column of that
strip, by its median pixel, must stand out from the page's colour while columns lie
beyond the edge (the box scrolled to its start), and none once the last column is in
view (scrolled to its end), where the cue would say there is more when there is none.
Every table on every page; the failure names the page and the table's first
characters. A box that hides less than ``SLIVER`` px is left out: its shadow shows
only as wide as what it hides."""

import pytest

from .conftest import book_pages

PAGES = book_pages()


@pytest.mark.parametrize("path", PAGES)
def test_a_wide_table_shows_that_it_scrolls_at_390_px(rendered, path):
    wrong = rendered(path, 390)["cues"]["wrong"]
    assert wrong == [], f"{path}: {wrong[:6]}"


def test_the_cue_check_sees_wide_tables(rendered):
    """The check above is not empty: chapter 10's ratio table is wide at 390 px."""
    wide = rendered("notebooks/10_languages.html", 390)["cues"]["wide"]
    assert any("Vietnamese / English" in box["text"] for box in wide), wide


@pytest.mark.parametrize("path", PAGES)
def test_a_long_line_shows_that_it_goes_on_at_1280_px(rendered, path):
    """A printed line (or a line of code) longer than its box: the box's right edge
    has the same cue, against the code's own colour, so that what a line ends with
    (often its verdict) is not taken for missing."""
    wrong = rendered(path, 1280)["cues"]["wrong"]
    assert wrong == [], f"{path}: {wrong[:6]}"
