"""The hot modules, compiled from the very source the book shows, or run as Python.

``HOT`` lists the modules where training and encoding spend their time. Cython
compiles each one from its own ``.py`` file, as written: plain Python with type
annotations (and Cython's pure-Python mode where C types pay, ``_cython.py``
standing in where Cython is absent), no second copy in C or ``.pyx``. The extension
lands beside its source (``compact.cpython-311-x86_64-linux-gnu.so`` next to
``compact.py``), so ``import bpe.scale.compact`` takes it, and every name, pickle
and test is the same either way. ``build.py`` compiles them (``make book`` and
``make test`` run it first, and ``setup.py`` when the package is installed); without
a C compiler or Cython (as in the page's Python) nothing is built and the
pure-Python modules run: the same answers, slower.
The finder installed by ``bpe.scale`` runs a module's source instead of its
extension when ``BPE_PURE_PYTHON=1`` is set, and, with a one-line warning, when the
extension was built from another version of the source (``compiled.json`` keeps each
source's hash). An extension built for another Python is never loaded by Python
itself; a warning says the pure path runs.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

HOT = (
    "bpe.scale.compact",  # the merge loop of train_file and bpe.train
    "bpe.scale.gpt2_scan",  # GPT-2's pieces of ASCII text, for encoding and counting
    "bpe.scale.indexed",  # chapter 08's indexed trainer, whose bookkeeping it shares
    "bpe.scale.piece",  # the encoder's merge-by-rank and piece cache
    "bpe.scale.word_counts",  # counting pre-tokens word by word
)
PURE = "BPE_PURE_PYTHON"  # set to 1: run every hot module as Python
HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "compiled.json"  # each source's sha256, and how it was built
# this Python's extension suffix, such as .cpython-311-x86_64-linux-gnu.so
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


class CompiledSkipped(UserWarning):
    """A compiled module was left out: its Python source runs instead."""


def source_of(module: str) -> Path:
    """The .py file of a hot module."""
    return HERE / (module.rsplit(".", 1)[1] + ".py")


def extension_of(module: str) -> Path:
    """Where a hot module's extension for this Python lies: beside its source."""
    source = source_of(module)
    return source.with_name(source.stem + SUFFIX)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest() -> dict[str, Any]:
    try:
        return json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def why_pure(module: str) -> str | None:
    """Why module runs as Python (None: its compiled extension runs)."""
    if os.environ.get(PURE, "") not in ("", "0"):
        return f"{PURE} is set"
    return why_stale(module)


def why_stale(module: str) -> str | None:
    """Why module's extension is missing or must not run (None: it is up to date)."""
    source = source_of(module)
    if not extension_of(module).is_file():
        others = sorted(p.name for p in HERE.glob(source.stem + ".*.so"))
        return f"{others[0]} was built for another Python" if others else "not built"
    if manifest().get("sources", {}).get(module) != digest(source):
        return f"{source.name} changed after it was compiled"
    return None


class SourceWhenStale(importlib.abc.MetaPathFinder):
    """Send the import of a hot module to its source when its extension must not run."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in HOT:
            return None
        reason = why_pure(name)
        if reason is None:
            return None  # Python's own finder takes the extension, ahead of the .py
        if reason not in ("not built", f"{PURE} is set"):
            warnings.warn(
                f"bpe: {name} runs as Python: {reason} (make compiled rebuilds it)",
                CompiledSkipped,
                stacklevel=2,
            )
        return importlib.util.spec_from_file_location(name, source_of(name))


def install() -> None:
    """Put the finder first, once (bpe.scale does it before importing a hot module)."""
    if not any(isinstance(f, SourceWhenStale) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceWhenStale())


def is_compiled(module: Any) -> bool:
    """Whether an imported module is an extension (compiled), not Python source."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


def status() -> dict[str, bool]:
    """{hot module: True if it runs compiled}, importing each.

    >>> sorted(status()) == sorted(HOT)
    True
    """
    return {name: is_compiled(importlib.import_module(name)) for name in HOT}


def pure_twin(module: str) -> Any:
    """The hot module run from its source as ``<module>_pure`` (for comparisons).

    Its own name keeps it apart from the module that runs, for doctest and inspect.
    """
    name = module + "_pure"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, source_of(module))
        twin = importlib.util.module_from_spec(spec)
        sys.modules[name] = twin
        spec.loader.exec_module(twin)
    return sys.modules[name]
