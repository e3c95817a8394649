"""No chapter shows a code line over 88 characters, so that none is clipped on the site.

The site's styles make 88 characters fit the text column at laptop width, and let longer
output lines wrap; the browser test checks both on the built pages.
"""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
WIDTH = 88


def shown_code_lines(path):
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and "remove-input" not in tags:
            for line in "".join(cell["source"]).split("\n"):
                yield index, line


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_lines_fit(path):
    long = [
        (i, len(line), line) for i, line in shown_code_lines(path) if len(line) > WIDTH
    ]
    assert not long, (
        f"{path.name}: lines over {WIDTH} characters (cell, length, line): {long}"
    )
