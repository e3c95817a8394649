"""Mark the chapters' cells that run in the page, found by running them there.

    python -m bpe.book.site.marks           # write the marks into the notebooks
    python -m bpe.book.site.marks --check   # only say what would change (exit 1)

``make live-marks`` runs the first form. Every chapter is run under Pyodide in
Node (``node_runner.mjs``, from the same files the site serves) by
``classify.py``; a cell that runs there gets the tag ``live``, and a visible cell
that does not gets, in its metadata, the reason the page shows under it (and those
of its imports that work there, which the page runs in its place). In a
chapter where nothing runs, the cells get no marks: the notebook's metadata holds
one reason, its first cell's (the rest follow from it), which the page shows at
the top. Nothing else in a notebook changes. ``tests/test_live.py`` runs the same,
and fails when a notebook's marks are out of date.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bpe.book.site import NODE, archive
from bpe.book.site.classify import IMPORTS_KEY, LIVE_TAG, REASON_KEY, hidden
from bpe.book.site.config import is_bootstrap

ROOT = archive.ROOT
NOTEBOOKS = ROOT / "notebooks"
PYODIDE = archive.PYODIDE
# A Node tool of the site's, not the package's: it runs from a checkout, as the
# marks do (they need the notebooks and vendor/pyodide too).
RUNNER = NODE / "node_runner.mjs"

TRAINS = re.compile(r"\btrain\(\s*corpus\b")  # a call such as bpe.train(corpus, 265)

CLASSIFY = """
import json
from bpe.book.site import classify
job = json.loads(job_input)
classify.TIMED = job["timed"]
json.dumps({
    name: classify.classify(cells, job["from_marks"])
    for name, cells in job["cells"].items()
})
"""


def chapters(folder: Path = NOTEBOOKS) -> list[Path]:
    return sorted(folder.glob("*.ipynb"))


def live_cells(notebook: dict) -> list[tuple[int, str, bool]]:
    """(index, source, hidden) of each cell the page runs (tagged live), in order."""
    return [
        (i, "".join(cell["source"]), hidden(cell["metadata"].get("tags", [])))
        for i, cell in enumerate(notebook["cells"])
        if LIVE_TAG in cell.get("metadata", {}).get("tags", [])
    ]


def training_cell(notebook: dict) -> tuple[int, str] | None:
    """The first cell with a Run button that trains on the corpus: (index, source).

    The one the browser tests and ``bench/bench_live.py`` click.
    """
    for index, source, is_hidden in live_cells(notebook):
        if not is_hidden and TRAINS.search(source):
            return index, source
    return None


def code_cells(notebook: dict) -> list[dict]:
    """A notebook's code cells as classify() takes them.

    The bootstrap cell is left out: it installs the package where there is none,
    and the page has it (``bpe.book.site.config`` writes that cell; marks there
    would not last).
    """
    return [
        {
            "index": i,
            "source": "".join(cell["source"]),
            "tags": list(cell.get("metadata", {}).get("tags", [])),
            "reason": cell.get("metadata", {}).get(REASON_KEY),  # for classify.MARGIN
            "outputs": cell.get("outputs", []),
        }
        for i, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code" and not is_bootstrap(cell)
    ]


def site_folder(folder: Path) -> Path:
    """folder/site, laid out like the built site's _static/ for what Python reads there.

    The same files ``make book`` serves, written by the same code: OpenAI's
    vocabularies (the playground's files) and ``archive.write_served``'s (the data,
    copied from the mirror, and GPT-2's files).
    """
    from bpe.book.site import playground

    site = folder / "site"
    (site / "playground").mkdir(parents=True)
    for name, text in playground.openai_scripts().items():
        (site / "playground" / name).write_text(text, encoding="utf-8")
    archive.write_served(site)
    return site


class PagePython:
    """The page's Python under Node (``node_runner.mjs``), started once, asked often.

    ``ask(script, input)`` runs a Python script there and returns its JSON answer;
    ``started`` says what started (Python's and Unicode's versions, seconds). The
    site's served files are there too (``site_folder``), as the page has them.
    """

    def __init__(self):
        command = archive.node_command(RUNNER)
        self.folder = tempfile.TemporaryDirectory()
        zip_path = Path(self.folder.name) / archive.ARCHIVE
        zip_path.write_bytes(archive.archive_bytes())
        snapshot = archive.write_snapshot(zip_path)  # started from, as the page does
        site = site_folder(Path(self.folder.name))
        self.log = open(Path(self.folder.name) / "stderr.txt", "w+")  # never fills up
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            encoding="utf-8",
            env=archive.node_env(),
        )
        self.started = self.send(
            {
                "pyodide": str(PYODIDE),
                "archive": str(zip_path),
                "snapshot": str(snapshot),
                "site": str(site),
            }
        )

    def send(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            self.process.wait(timeout=60)
            self.log.seek(0)  # what it said before it stopped (less the minified
            said = [s for s in self.log.read().splitlines() if len(s) < 400]  # code)
            raise RuntimeError("Pyodide under Node stopped:\n" + "\n".join(said[-40:]))
        answer = json.loads(line)
        if isinstance(answer, dict) and set(answer) == {"error"}:
            raise RuntimeError(f"the script failed in Pyodide:\n{answer['error']}")
        return answer

    def ask(self, script: str, job_input: object = None) -> dict:
        return self.send({"script": script, "input": job_input})

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=60)
        self.log.close()
        self.folder.cleanup()

    def __enter__(self) -> PagePython:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def classify_chapters(
    paths: list[Path],
    python: PagePython | None = None,
    timed: bool = True,
    from_marks: bool = False,
) -> dict[str, list[dict]]:
    """{notebook name: classify()'s verdicts}, all chapters in one Pyodide."""
    notebooks = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in paths}
    return classify_notebooks(notebooks, python, timed, from_marks)


def classify_notebooks(
    notebooks: dict[str, dict],
    python: PagePython | None = None,
    timed: bool = True,
    from_marks: bool = False,
) -> dict[str, list[dict]]:
    """{name: classify()'s verdicts} of notebooks given as dicts, in one Pyodide.

    timed: judge a cell too slow by the clock (``classify.TIMED``); the tests pass
    False, so that their verdicts never depend on the machine's load. from_marks:
    start from the cells the notebook tags ``live`` (the tests, which check marks
    already written) rather than from a run of every cell.
    """
    cells = {name: code_cells(notebook) for name, notebook in notebooks.items()}
    job = {"timed": timed, "from_marks": from_marks, "cells": cells}
    if python is not None:
        return python.ask(CLASSIFY, job)
    with PagePython() as python:
        return python.ask(CLASSIFY, job)


def marked(notebook: dict, verdicts: list[dict]) -> dict:
    """The notebook with its marks set from the verdicts (a new dict)."""
    notebook = json.loads(json.dumps(notebook))
    runs = any(v["live"] for v in verdicts)
    judged = {v["index"] for v in verdicts}
    unjudged = {"live": False, "context": False, "reason": None, "imports": None}
    verdicts = verdicts + [  # cells classify() was not given (the bootstrap) get none
        {**unjudged, "index": i}
        for i, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code" and i not in judged
    ]
    for verdict in verdicts:
        metadata = notebook["cells"][verdict["index"]].setdefault("metadata", {})
        tags = [t for t in metadata.get("tags", []) if t != LIVE_TAG]
        if runs and (verdict["live"] or verdict["context"]):
            tags.append(LIVE_TAG)
        if tags:
            metadata["tags"] = tags
        else:
            metadata.pop("tags", None)
        for key, value in (
            (REASON_KEY, verdict["reason"]),
            (IMPORTS_KEY, verdict.get("imports")),
        ):
            if runs and value:
                metadata[key] = value
            else:
                metadata.pop(key, None)
    first = next((v["reason"] for v in verdicts if v["reason"]), None)
    if runs or first is None:
        notebook.get("metadata", {}).pop(REASON_KEY, None)
    else:
        notebook.setdefault("metadata", {})[REASON_KEY] = first
    return notebook


def notebook_text(notebook: dict) -> str:
    """A notebook as the book's tools write them (as in site.sync_notebooks)."""
    return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="change nothing")
    args = parser.parse_args(argv)
    paths = args.notebooks or chapters()
    stale = []
    for name, verdicts in classify_chapters(paths).items():
        path = next(p for p in paths if p.name == name)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        new = marked(notebook, verdicts)
        live = sum(v["live"] for v in verdicts)
        if live:
            context = sum(v["context"] for v in verdicts)
            print(
                f"{name}: {live} cells run in the page ({context} hidden, as context)"
            )
            for v in verdicts:
                if v["reason"]:
                    print(f"  cell {v['index']}: {v['reason']}")
        else:
            print(
                f"{name}: nothing runs in the page: "
                f"{new['metadata'].get(REASON_KEY) or 'it shows no code to run'}"
            )
        if new != notebook:
            stale.append(name)
            if not args.check:
                path.write_text(notebook_text(new), encoding="utf-8")
    if stale:
        print(("out of date: " if args.check else "updated: ") + ", ".join(stale))
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
