"""Every function and class of the core appears, as its current source, in a chapter.

The chapters display source with ``bpe.book.chapters.show_source``; its plain-text
form is stored in the executed notebooks (and re-checked against a fresh run by nbval),
so finding a definition's current source there means a chapter shows it, as it is.
The appendix (98) shows each core module in full, but it is not a chapter: each
definition must also be shown by a numbered chapter (00-20), where it is taught.
Each definition is its own test case, so a run lists every one that is missing.
"""

import functools
import importlib
import inspect
import json
from pathlib import Path

import pytest

from bpe.book.chapters.show_source import definition, source

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CORE = ["bpe.pretokenizer", "bpe.trainer", "bpe.tokenizer", "bpe.files"]


APPENDIX = "98_the_core.ipynb"
NOT_CHAPTERS = {APPENDIX, "99_reproducibility_ledger.ipynb"}  # appendices


def chapters():
    """The numbered chapters' notebooks, 00 to 20 (the appendices left out)."""
    found = sorted(
        p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb") if p.name not in NOT_CHAPTERS
    )
    assert found, f"no chapter found in {NOTEBOOKS}"
    return found


def shown_text(paths):
    """All text/plain outputs of the notebooks at paths, each ending its line."""
    texts = []
    for path in paths:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "".join(text + "\n" for text in texts)  # a shown file's last line too


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


IN_APPENDIX = shown_text([NOTEBOOKS / APPENDIX])
IN_CHAPTERS = shown_text(chapters())
DEFINITIONS = core_definitions()


def test_the_chapters_are_00_to_20():
    numbers = sorted(int(p.name[:2]) for p in chapters())
    assert numbers[0] == 0 and numbers[-1] == 20, numbers


def test_the_core_is_found():
    names = {name for name, _ in DEFINITIONS}
    assert len(names) == len(DEFINITIONS) >= 50
    assert {
        "bpe.trainer.naive_merges",
        "bpe.trainer.train",
        "bpe.tokenizer.encode_word",
        "bpe.tokenizer.Tokenizer",
        "bpe.tokenizer.Tokenizer.__init__",
        "bpe.tokenizer.Tokenizer.encode_piece",
        "bpe.tokenizer.Tokenizer.encode_chunks",
        "bpe.tokenizer.Tokenizer.encode",
        "bpe.tokenizer.Tokenizer.decode",
        "bpe.files.bytes_to_unicode",
        "bpe.files.save_files",
    } <= names


@pytest.mark.parametrize(
    "name,obj", [pytest.param(name, obj, id=name) for name, obj in DEFINITIONS]
)
def test_shown_in_a_chapter(name, obj):
    # A class with methods is shown when each of them is (each also has its own
    # case); a class without methods, or a function, must be shown whole.
    members = [(m, o) for m, o in DEFINITIONS if m.startswith(name + ".")]
    if inspect.isclass(definition(obj)) and members:
        missing = [m for m, o in members if not shown(o)]
        assert not missing, f"no chapter shows these members of {name}: {missing}"
    else:
        assert shown(obj), f"no chapter shows the current source of {name}"


def shown(obj):
    return source(obj) in IN_CHAPTERS


def test_the_appendix_shows_every_core_module_in_full():
    for module_name in CORE:
        module = importlib.import_module(module_name)
        assert source(module) in IN_APPENDIX, f"{module_name} is not shown in full"
