"""Every function and class of the core appears, as its current source, in some chapter.

The chapters display source with ``bpe.book.show``; its plain-text form is stored in
the executed notebooks (and re-checked against a fresh run by nbval), so finding a
definition's current source there means a chapter shows it, and shows it as it is.
"""

import functools
import importlib
import inspect
import json
from pathlib import Path

import pytest

from bpe.book.show import definition, source

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CORE = ["bpe.pretokenize", "bpe.train", "bpe.tokenizer", "bpe.files"]


def shown_text():
    """All text/plain outputs of all chapters, joined."""
    texts = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def core_definitions():
    """(name, object) for each function and class the core defines, and each member."""
    found = []
    for module_name in CORE:
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            obj_def = inspect.unwrap(obj) if callable(obj) else obj
            if not (inspect.isfunction(obj_def) or inspect.isclass(obj_def)):
                continue
            if obj_def.__module__ != module_name:
                continue  # imported, not defined here
            found.append((f"{module_name}.{name}", obj))
            if inspect.isclass(obj_def):
                for member, value in vars(obj_def).items():
                    if inspect.isfunction(value) or isinstance(
                        value,
                        (
                            property,
                            classmethod,
                            staticmethod,
                            functools.cached_property,
                        ),
                    ):
                        found.append(
                            (
                                f"{module_name}.{name}.{member}",
                                getattr(value, "__func__", value),
                            )
                        )
    return found


SHOWN = shown_text()


def test_the_core_is_found():
    names = {name for name, _ in core_definitions()}
    assert {
        "bpe.train.train",
        "bpe.tokenizer.Tokenizer.encode",
        "bpe.files.save_files",
    } <= names


@pytest.mark.parametrize(
    "name,obj", [pytest.param(name, obj, id=name) for name, obj in core_definitions()]
)
def test_shown_in_a_chapter(name, obj):
    if inspect.isclass(definition(obj)):
        # A class counts as shown when each of its members is (each checked on its own).
        members = [v for v in vars(obj).values() if inspect.isfunction(v)]
        assert members or source(obj) in SHOWN, f"{name} is shown in no chapter"
        return
    assert source(obj) in SHOWN, f"no chapter shows the current source of {name}"
