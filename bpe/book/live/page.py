"""The page's Python session: set up once in the worker, then one namespace per page.

``worker.js`` unpacks the site's archive (``archive.py``) and calls ``start``, which
puts the book where the chapters expect it (they read ``../data/toy_corpus.txt``
from ``notebooks/``), makes the absent modules importable (``absent.py``) and
imports ``bpe`` so that the first cell does not wait for it. Each Run is ``run``;
the console's session begins with ``CONSOLE_SETUP``, shown to the reader as it runs.
"""

from __future__ import annotations

import codeop
import os
import sys
import unicodedata

from . import absent
from .cells import Outcome, Write, run_cell

CONSOLE_SETUP = """\
from pathlib import Path

import bpe

corpus = Path("../data/toy_corpus.txt").read_text(encoding="utf-8")
print(f"bpe is imported; corpus holds the toy corpus ({len(corpus)} characters)")"""

namespace: dict = {}


def fresh_namespace() -> dict:
    """A namespace as a new notebook kernel's: nothing but __name__ and builtins."""
    return {"__name__": "__main__", "__builtins__": __builtins__}


def start(root: str) -> dict:
    """Set the session up in root (the unpacked archive); facts for the status line."""
    absent.install()
    os.makedirs(os.path.join(root, "notebooks"), exist_ok=True)
    os.chdir(os.path.join(root, "notebooks"))
    import bpe  # noqa: F401  (imported now, so that the first Run does not wait)

    reset()
    return {
        "python": sys.version.split()[0],
        "unicode": unicodedata.unidata_version,
    }


def reset() -> None:
    """Forget every variable: the next cells run as in a new kernel."""
    namespace.clear()
    namespace.update(fresh_namespace())


def run(source: str, filename: str, write: Write | None = None) -> dict:
    """Run one cell in the page's namespace; its outcome as a plain dict."""
    outcome: Outcome = run_cell(source, namespace, filename, write)
    return outcome.to_dict()


def is_complete(source: str) -> bool:
    """Whether the console's input is a whole statement (else Enter adds a line)."""
    try:
        return codeop.compile_command(source, "<console>", "single") is not None
    except (SyntaxError, ValueError, OverflowError):
        return True  # complete, and wrong: running it shows the error
