"""Each "Runs in Jupyter only" reason is what stops the cell in the page.

For every chapter, the cells run in the page's Python under Node (Pyodide,
``marks.PagePython``) as the page runs them: the cells that run there in order,
and in place of each other cell the imports the page runs for it. Each visible
cell that carries a reason is tried where it stands (and rolled back), and its
failure must be the one its reason names: read here from the reason's words
(``proves``), not from the reason ``classify.py`` wrote. The run is the one
tests/test_live.py checks the marks against (``page_verdicts`` in conftest.py,
the verdicts' "tried" outcomes): when that test passes, the page runs the cells
the notebook marks, so this run is the page's. A chapter where nothing runs has
one reason, its first visible cell's, tried with nothing above it.
``test_a_wrong_reason_is_caught`` shows the check failing on reasons that name
something else."""

import json
import os
import re
import shutil

import pytest

from bpe.book.page.absent import ABSENT
from bpe.book.site import classify, marks
from bpe.book.site.config import is_bootstrap

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("CI"),
    reason="Node.js is not installed",
)

PROCESSES = ("resource", "_multiprocessing")  # what "worker processes" means here


def page_cells(notebook: dict) -> list[dict]:
    """The code cells as the page treats them, from the notebook's marks."""
    found = []
    for i, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or is_bootstrap(cell):
            continue
        metadata = cell.get("metadata", {})
        tags = metadata.get("tags", [])
        found.append(
            {
                "index": i,
                "source": "".join(cell["source"]),
                "live": classify.LIVE_TAG in tags,
                "hidden": classify.hidden(tags),
                "reason": metadata.get(classify.REASON_KEY),
                "imports": metadata.get(classify.IMPORTS_KEY),
            }
        )
    whole = notebook.get("metadata", {}).get(classify.REASON_KEY)
    if whole:  # nothing runs: the first visible cell carries the chapter's reason
        first = next(c for c in found if not c["hidden"])
        first["reason"] = whole
    return found


def frame_in(error: str, function: str, module: str) -> bool:
    """Whether the traceback passes through function in module (a dotted name)."""
    path = re.escape(module.replace(".", "/"))
    frame = rf'File "[^"]*/{path}(\.py|/__init__\.py)", line \d+, in {function}\n'
    return re.search(frame, error) is not None


def needs_proved(what: str, outcome: dict) -> str | None:
    """None if the failure shows that the cell needs what; else what it shows."""
    error, module = outcome["error"] or "", outcome["missing_module"]
    if what in {package for package, _ in ABSENT.values()}:
        if module in ABSENT and ABSENT[module][0] == what:
            return None
    elif what == classify.PROCESSES:
        if module in PROCESSES or classify.NO_PROCESSES in error:
            return None
    elif found := re.fullmatch(classify.os_lacks(r"(\w+)"), what):
        if f"module 'os' has no attribute '{found.group(1)}'" in error:
            return None
    elif what.startswith("a data file"):
        if outcome["error_type"] == "DataError":
            return None
    elif found := re.fullmatch(r"a package the page's Python lacks \((.*)\)", what):
        said = found.group(1).removesuffix(" …")
        if outcome["error_type"] == "ModuleNotFoundError" and said in error:
            return None
    return f"it failed with {last_line(error) or 'no error'}"


def last_line(error: str | None) -> str:
    return error.strip().splitlines()[-1] if error else ""


def proves(reason: str, outcome: dict, cell: dict) -> str | None:
    """None if the outcome is the failure the reason names; else what it was."""
    error = outcome["error"] or ""
    if found := re.fullmatch(r"it uses (\S+), from (a|a hidden) cell .*", reason):
        if outcome["missing_name"] == found.group(1):
            return None
        return f"it failed with {last_line(error) or 'no error'}"
    if found := re.fullmatch(
        r"it uses (\S+), and the page's Python has no (\S+)", reason
    ):
        used, package = found.groups()
        module = outcome["missing_module"]
        if module in ABSENT and ABSENT[module][0] == package:
            if f"({used} was used)" in error:
                return None
        return f"it failed with {last_line(error) or 'no error'}"
    if found := re.fullmatch(r"it calls (\S+) \((\S+)\), which needs (.+)", reason):
        function, module, what = found.groups()
        if not frame_in(error, function, module):
            return f"its failure does not pass through {module}.{function}"
        return needs_proved(what, outcome)
    if found := re.fullmatch(r"it needs (.+)", reason):
        return needs_proved(found.group(1), outcome)
    if found := re.fullmatch(r"here (?:(\S+) \((\S+)\)|it) raises (.+)", reason):
        function, module, said = found.groups()
        if function and not frame_in(error, function, module):
            return f"its failure does not pass through {module}.{function}"
        if error and last_line(error).startswith(said.removesuffix(" …")):
            return None
        return f"it failed with {last_line(error) or 'no error'}"
    if reason == classify.SLOW_REASON:
        # Time depends on the machine, so no verdict here rests on it: the cell must
        # run and give the book's output, so that only its time can have stopped it.
        printed = (outcome["stdout"], outcome["result"])
        if not error and printed == classify.stored_output(cell["outputs"]):
            return None
        return f"it took {outcome['seconds']:.1f} s, {last_line(error) or 'no error'}"
    if found := re.fullmatch(
        r"its output here differs from the book's(?:, first at “(.*)”)?", reason
    ):
        printed = (outcome["stdout"], outcome["result"])
        stored = classify.stored_output(cell["outputs"])
        if error or printed == stored:
            return f"it printed the book's output, {last_line(error) or 'no error'}"
        if found.group(1) is None:
            return None
        said = found.group(1).removesuffix(" …")
        lines = (outcome["stdout"] + (outcome["result"] or "")).splitlines()
        if any(" ".join(line.split()).startswith(said) for line in lines):
            return None
        return f"no line of its output begins {said!r}"
    return "no check knows this reason"


def wrong_reasons(notebook: dict, verdicts: list[dict]) -> list[str]:
    """Each reason in the notebook that its cell's failure in the page disproves
    (verdicts: classify()'s of the notebook, with each cell's outcome there)."""
    tried = {v["index"]: v["tried"] for v in verdicts}
    problems = []
    for cell in page_cells(notebook):
        if not cell["reason"]:
            continue
        outcome = tried[cell["index"]]
        if outcome is None:
            problems.append(f"cell {cell['index']}: {cell['reason']!r}, but it runs")
            continue
        outputs = notebook["cells"][cell["index"]].get("outputs", [])
        wrong = proves(cell["reason"], outcome, {**cell, "outputs": outputs})
        if wrong:
            problems.append(f"cell {cell['index']}: {cell['reason']!r}, but {wrong}")
    return problems


@pytest.mark.parametrize("path", marks.chapters(), ids=lambda p: p.stem)
def test_each_reason_is_what_stops_the_cell_in_the_page(page_verdicts, path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    problems = wrong_reasons(notebook, page_verdicts(path))
    assert not problems, "run `make live-marks`, or fix:\n" + "\n".join(problems)


def synthetic(*cells):
    """A notebook of (source, tags, reason, outputs) code cells."""
    return {
        "cells": [
            {
                "cell_type": "code",
                "source": source,
                "metadata": {"tags": tags, classify.REASON_KEY: reason},
                "outputs": outputs,
            }
            for source, tags, reason, outputs in cells
        ],
        "metadata": {},
    }


SAID = {"output_type": "stream", "name": "stdout", "text": "3\n"}


def reasons_notebook(pandas: str, hidden: str, data: str, differs: str) -> dict:
    return synthetic(
        ("import pandas as pd\nx = 1", ["live"], None, []),
        ("y = 2", ["remove-input"], None, []),
        ("pd.DataFrame({'a': [x]})", [], pandas, []),
        ("print(y)", [], hidden, []),
        (
            "from bpe.data import registry as data\ndata.path('nowhere/nothing')",
            [],
            data,
            [],
        ),
        ("print(x + 1)", [], differs, [SAID]),
    )


def test_a_wrong_reason_is_caught(page_python):
    right = reasons_notebook(
        "it uses pandas.DataFrame, and the page's Python has no pandas",
        "it uses y, from a hidden cell that does not run here",
        "here path (bpe.data.registry) raises KeyError: "
        "\"'nowhere/nothing' is not in …",
        "its output here differs from the book's, first at “2”",
    )
    verdicts = marks.classify_notebooks({"right": right}, page_python, timed=False)
    verdicts = verdicts["right"]
    assert wrong_reasons(right, verdicts) == []
    wrong = reasons_notebook(
        "it needs numpy",
        "it uses z, from a cell above that does not run here",
        "it calls tinystories_files (bpe.data.corpora), which needs tiktoken",
        classify.SLOW_REASON,
    )
    problems = wrong_reasons(wrong, verdicts)  # the same cells, run the same way
    assert [p.split(":")[0] for p in problems] == [
        "cell 2",
        "cell 3",
        "cell 4",
        "cell 5",
    ]
