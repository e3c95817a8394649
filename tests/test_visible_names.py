"""What the page shows is what runs: no visible cell uses a name from nowhere.

Read in order, every name a chapter's visible code cell uses must be defined or
imported by a visible code cell at or above it. A hidden cell (tagged remove-cell or
remove-input) may set up the page, never define what visible code uses: pasted into
the console, or run on its own, such a cell would raise NameError. A static reading
(Python's symtable): imports, assignments, defs, loop targets; ``%``/``!`` lines are
skipped. (The same logic as ../shared/tools/names_from_nowhere.py, owned here.)
"""

from __future__ import annotations

import builtins
import json
import symtable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HIDDEN = {"remove-cell", "remove-input"}
# Names Python or Jupyter itself provides in every cell.
KNOWN = set(dir(builtins)) | {"display", "get_ipython", "In", "Out", "_", "__file__"}


def python_lines(source: str) -> str:
    """A cell's source without IPython's % and ! lines."""
    lines = source.splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))


def used_and_defined(code: str) -> tuple[set[str], set[str]]:
    """The global names a cell uses (in any of its scopes) and those it defines."""
    try:
        top = symtable.symtable(code, "<cell>", "exec")
    except SyntaxError:
        return set(), set()
    symbols = top.get_symbols()
    defined = {s.get_name() for s in symbols if s.is_assigned() or s.is_imported()}
    used = {s.get_name() for s in symbols if s.is_referenced()}
    stack = list(top.get_children())
    while stack:  # functions, classes, comprehensions: the globals they read
        table = stack.pop()
        stack.extend(table.get_children())
        used |= {
            s.get_name()
            for s in table.get_symbols()
            if s.is_global() and s.is_referenced() and not s.is_declared_global()
        }
    return used, defined


def visible_sources(notebook: dict) -> list[str]:
    """The visible code cells' sources, in order."""
    return [
        "".join(cell["source"])
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        and not HIDDEN & set(cell.get("metadata", {}).get("tags", []))
    ]


def names_from_nowhere(notebook: dict) -> list[str]:
    """Each name a visible cell uses that no visible cell at or above it defines."""
    have: set[str] = set()
    found: list[str] = []
    for source in visible_sources(notebook):
        used, defined = used_and_defined(python_lines(source))
        have |= defined
        found += [name for name in sorted(used - have - KNOWN) if name not in found]
    return found


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_visible_name_comes_from_a_visible_cell(path):
    names = names_from_nowhere(json.loads(path.read_text(encoding="utf-8")))
    assert not names, f"{len(names)} names from nowhere: {', '.join(names)}"


def cell(source: str, *tags: str) -> dict:
    return {"cell_type": "code", "source": source, "metadata": {"tags": list(tags)}}


def test_the_check_finds_what_hidden_cells_define():
    hidden = cell("import pandas as pd\nfrom bpe import train", "remove-cell")
    shown = cell("table = pd.DataFrame(train('aa', 257))\n%time table")
    assert names_from_nowhere({"cells": [hidden, shown]}) == ["pd", "train"]
    imported = cell("import pandas as pd\nfrom bpe import train")
    assert names_from_nowhere({"cells": [imported, shown]}) == []
    assert names_from_nowhere({"cells": [shown, imported]}) == ["pd", "train"]
    in_function = cell("def f():\n    return helper(1)\nx = [y for y in z]")
    assert names_from_nowhere({"cells": [in_function]}) == ["helper", "z"]
