"""Every function and class of the core appears, as its current source, in the book.

The chapters display source with ``bpe.book.show``; its plain-text form is stored in
the executed notebooks (and re-checked against a fresh run by nbval), so finding a
definition's current source there means a chapter shows it, and shows it as it is.
The appendix shows each core module in full; the chapters show what each teaches,
the core's own ``Tokenizer`` among it.
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


APPENDIX = "98_the_core.ipynb"


def shown_text(skip=()):
    """All text/plain outputs of all chapters (but those in skip), joined."""
    texts = []
    for path in sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p.name not in skip):
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
IN_CHAPTERS = shown_text(skip=(APPENDIX,))


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
def test_shown_in_the_book(name, obj):
    module = importlib.import_module(name.split(".")[0] + "." + name.split(".")[1])
    if source(module) in SHOWN:
        return  # the appendix shows the whole file, as it is
    if inspect.isclass(definition(obj)):
        # A class counts as shown when each of its members is (each checked on its own).
        members = [v for v in vars(obj).values() if inspect.isfunction(v)]
        assert members or source(obj) in SHOWN, f"{name} is shown in no chapter"
        return
    assert source(obj) in SHOWN, f"no chapter shows the current source of {name}"


def test_the_appendix_shows_every_core_module_in_full():
    for module_name in CORE:
        module = importlib.import_module(module_name)
        assert source(module) in SHOWN, f"{module_name} is not shown in full"


@pytest.mark.parametrize(
    "name",
    [
        "bpe.train.naive_merges",
        "bpe.train.train",
        "bpe.tokenizer.encode_word",
        "bpe.tokenizer.Tokenizer.__init__",
        "bpe.tokenizer.Tokenizer.encode_piece",
        "bpe.tokenizer.Tokenizer.encode_chunks",
        "bpe.tokenizer.Tokenizer.encode",
        "bpe.tokenizer.Tokenizer.decode",
        "bpe.files.bytes_to_unicode",
    ],
)
def test_the_chapters_teach_with_the_code_that_runs(name):
    """Not only the appendix: the chapters show the core that runs, Tokenizer too."""
    obj = dict(core_definitions())[name]
    assert source(obj) in IN_CHAPTERS, f"no chapter shows {name}"
