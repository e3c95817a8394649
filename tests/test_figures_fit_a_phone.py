"""Every chart a chapter stores is drawn narrow enough to read on a phone.

A figure is scaled down to the text column: at 390 px wide, about 358 px. The book
draws its charts ``charts.WIDTH`` inches wide (about 560 px as saved, a little more
with the layout's margins) with text in ``charts.FONT`` points, which then reads at
about 11 px. A figure drawn wider is scaled down further and its text shrinks with
it: the 8.6- and 9-inch two-panel charts of chapters 15, 16 and 18 came out at
850-903 px, their labels about 5 px on a phone. The widths are read from the PNG
files the notebooks store (the width is in the file's first chunk).
"""

import base64
import json
import struct
from pathlib import Path

import pytest

from bpe.book.chapters import charts

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DPI = 100  # matplotlib's default, which the chapters keep
WIDEST = round(charts.WIDTH * DPI * 1.08)  # the layout may add a few margins


def png_width(data: bytes) -> int:
    """A PNG's width in pixels, from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">I", data[16:20])[0]


def stored_figures(path: Path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                yield index, png_width(base64.b64decode("".join(png)))


def test_the_chapters_store_figures():
    assert sum(1 for path in NOTEBOOKS for _ in stored_figures(path)) >= 10


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_figure_is_drawn_for_a_phone(path):
    wide = [(i, width) for i, width in stored_figures(path) if width > WIDEST]
    assert not wide, (
        f"{path.name}: figures wider than {WIDEST} px (cell, width): {wide}; draw "
        "them charts.WIDTH inches wide, in charts.STYLE (bpe/book/chapters/charts.py)"
    )
