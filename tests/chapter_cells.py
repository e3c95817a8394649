"""What the chapters write for the reader, read from the notebooks: each quiz's
questions and each exercise's starter. They are written once, in the chapter; the
tests read them there."""

from __future__ import annotations

import ast
import json
from functools import cache
from pathlib import Path

from bpe.book.practice.quiz import Question, parse

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def chapter_cells(chapter: str) -> list[dict]:
    (path,) = NOTEBOOKS.glob(f"{chapter}_*.ipynb")
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def quiz_call(cell: dict) -> tuple[str, str] | None:
    """(chapter, text) of a cell ending in Quiz("NN", text), else None."""
    if cell["cell_type"] != "code" or "Quiz(" not in source(cell):
        return None
    last = ast.parse(source(cell)).body[-1]
    call = getattr(last, "value", None)
    if not (isinstance(call, ast.Call) and getattr(call.func, "id", "") == "Quiz"):
        return None
    chapter, text = (ast.literal_eval(arg) for arg in call.args)
    return chapter, text


@cache
def quiz_questions() -> tuple[Question, ...]:
    """Every chapter's quiz questions, in book order."""
    found = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for call in filter(None, map(quiz_call, cells)):
            found += parse(*call)
    return tuple(found)


@cache
def starters() -> dict[str, str]:
    """{exercise name: the code of its starter cell} from every chapter."""
    found = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            name = cell.get("metadata", {}).get("exercise")
            if cell["cell_type"] == "code" and name:
                assert name not in found, f"two starter cells for {name}"
                found[name] = source(cell)
    return found


def starter(name: str) -> str:
    return starters()[name]
