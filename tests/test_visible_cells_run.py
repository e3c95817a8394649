"""The visible cells of chapters 00-07 run alone, in order, in a fresh interpreter.

A reader who copies what a page shows (or presses Run on each cell) gets only the
visible cells: no hidden setup cell runs before them. Here each chapter's visible
code cells, ``%`` and ``!`` lines left out, are written one after another into one
script, which a new Python process runs from notebooks/ (as Jupyter would) with the
data mirror, a fixed hash seed and a drawing-only matplotlib backend. Any exception
fails the test, with the script's traceback. Jupyter's ``display`` is the one name
the script gets for free, as every notebook cell does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
HIDDEN = {"remove-cell", "remove-input"}
CHAPTERS = sorted(p for p in NOTEBOOKS.glob("0[0-7]_*.ipynb"))

PRELUDE = """\
try:  # what Jupyter gives every cell
    from IPython.display import display
except ImportError:
    display = print
"""


def visible_script(notebook: dict) -> str:
    """The visible code cells, without % and ! lines, as one script, cell by cell."""
    parts = [PRELUDE]
    for n, cell in enumerate(notebook["cells"]):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] != "code" or tags & HIDDEN:
            continue
        lines = "".join(cell["source"]).splitlines()
        kept = [line for line in lines if not line.lstrip().startswith(("%", "!"))]
        parts.append(f"# ---- cell {n} ----\n" + "\n".join(kept) + "\n")
    return "\n".join(parts)


def run_script(script: str, folder: Path) -> subprocess.CompletedProcess:
    """Run the script in a fresh interpreter from notebooks/; return the process."""
    path = folder / "visible_cells.py"
    path.write_text(script, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "MPLBACKEND": "Agg",
        "BPE_DATA_MIRROR": os.environ.get("BPE_DATA_MIRROR", ""),
        "BPE_RESULTS": str(folder / "results"),
    }
    return subprocess.run(
        [sys.executable, str(path)],
        cwd=NOTEBOOKS,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_visible_cells_run_alone(path, tmp_path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    run = run_script(visible_script(notebook), tmp_path)
    assert run.returncode == 0, (
        f"{path.name}, visible cells alone:\n{run.stderr[-4000:]}"
    )


def test_a_name_from_a_hidden_cell_fails(tmp_path):
    def cell(source: str, *tags: str) -> dict:
        return {"cell_type": "code", "source": [source], "metadata": {"tags": tags}}

    hidden = cell("from bpe import train", "remove-cell")
    shown = cell("%time x = 1\nprint(train('aa', 257)[1])")
    failed = run_script(visible_script({"cells": [hidden, shown]}), tmp_path)
    assert failed.returncode != 0 and "NameError: name 'train'" in failed.stderr
    visible = cell("from bpe import train")
    ran = run_script(visible_script({"cells": [visible, shown]}), tmp_path)
    assert ran.returncode == 0 and "[(b'a', b'a')]" in ran.stdout, ran.stderr
