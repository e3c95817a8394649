"""The page's Python session: set up once in the worker, then one namespace per page.

``worker.js`` unpacks the site's archive (``archive.py``) and calls ``start``, which
puts the book where the chapters expect it (they read ``../data/toy_corpus.txt``
from ``notebooks/``), makes the absent modules importable (``absent.py``) and
imports ``bpe`` so that the first cell does not wait for it. (On the site, Python
usually starts from a memory snapshot taken after those imports: ``made_from``.)
It also says where the site's other files are (``BPE_SITE``: the address of its
``_static/`` folder, or under Node a folder laid out like it), which
``vocabularies`` reads when a cell loads OpenAI's encodings or the data files.
Each Run is ``run``; the console's session begins with ``CONSOLE_SETUP``, shown to
the reader as it runs.
"""

from __future__ import annotations

import codeop
import itertools
import os
import shutil
import sys
import unicodedata
from pathlib import Path

import bpe.trainer
from bpe.book.page import absent
from bpe.book.page.cells import Outcome, Write, run_cell

CONSOLE_SETUP = """\
from pathlib import Path

import bpe

corpus = Path("../data/toy_corpus.txt").read_text(encoding="utf-8")
print(f"bpe is imported; corpus holds the toy corpus ({len(corpus)} characters)")"""

namespace: dict = {}
root: Path | None = None  # the unpacked archive, once started
# In a memory snapshot of this Python (python_home.mjs): the SHA-256 of the archive
# it was made from, so that it starts only the book it holds.
made_from: str | None = None
runs = itertools.count(1)


def fresh_namespace() -> dict:
    """A namespace as a new notebook kernel's: nothing but __name__ and builtins."""
    return {"__name__": "__main__", "__builtins__": __builtins__}


def start(root_folder: str, site: str | None = None) -> dict:
    """Set the session up in root_folder (the unpacked archive); facts for the status.

    site is where the site's served files are (see ``vocabularies.read_served``).
    """
    from bpe.book.page import vocabularies

    global root
    if "random" in sys.modules:  # a snapshot's readers must not all draw the same
        sys.modules["random"].seed()
    vocabularies.plug_in(site)
    root = Path(root_folder)
    absent.install()
    os.makedirs(os.path.join(root_folder, "notebooks"), exist_ok=True)
    os.chdir(os.path.join(root_folder, "notebooks"))
    import bpe  # noqa: F401  (imported now, so that the first Run does not wait)

    reset()
    return {
        "python": sys.version.split()[0],
        "unicode": unicodedata.unidata_version,
    }


def preload(modules: list[str]) -> list[str]:
    """Import the modules that the chapters' Run cells import; those that failed.

    The memory snapshot is made after this (``archive.cell_imports`` lists them), so
    a first Run finds them imported instead of compiling their source, which in
    WebAssembly, before the browser has tuned its code, takes a good part of a
    second. They are imported as ``start`` leaves the session: with the absent
    modules' stand-ins and the page's vocabularies in place (``start`` puts them in
    place again, the same).
    """
    import importlib

    from bpe.book.page import vocabularies

    vocabularies.plug_in(None)
    absent.install()
    failed = []
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # the cell that imports it says why, when it runs
            failed.append(name)
    return failed


def warm_up() -> None:
    """A slice of the book's kind of work, for worker.js to run while it waits for a
    Run: started from a snapshot, the browser has compiled none of Python's hot paths
    to fast code yet, and the first cells would run at half speed."""
    text = Path(bpe.trainer.__file__).read_text(encoding="utf-8")
    compile(text, "<warm-up>", "exec")  # a Run compiles its cell first
    bpe.trainer.train(text[:3000], 256 + 30)


def reset() -> None:
    """Forget every variable: the next cells run as in a new kernel."""
    namespace.clear()
    namespace.update(fresh_namespace())
    data = sys.modules.get("bpe.data.registry")
    if data is not None:  # a new kernel credits the data where it first loads it
        data.forget_credits()


def fresh_folder() -> None:
    """Work from now on in a new, empty notebooks/ folder beside the book's data/.

    As a newly opened page does: what an earlier run of a chapter saved is not
    there. ``classify.py`` starts each of its runs so. (Only once started.)
    """
    if root is None:
        return
    run = root / "runs" / str(next(runs))
    (run / "notebooks").mkdir(parents=True)
    (run / "data").symlink_to(root / "data")
    os.chdir(run / "notebooks")
    for earlier in (root / "runs").iterdir():  # (the file system is in memory)
        if earlier != run:
            shutil.rmtree(earlier, ignore_errors=True)


def run(source: str, filename: str, write: Write | None = None) -> dict:
    """Run one cell in the page's namespace; its outcome as a plain dict."""
    outcome: Outcome = run_cell(source, namespace, filename, write)
    return outcome.to_dict()


def check(name: str, code: str) -> dict:
    """An exercise's Check: the reader's code run in the page's namespace (as a
    notebook cell would be), then the exercise's checks on the function it defines."""
    from bpe.book.practice import check_code

    return check_code(name, code, namespace)


def is_complete(source: str) -> bool:
    """Whether the console's input is a whole statement (else Enter adds a line)."""
    try:
        return codeop.compile_command(source, "<console>", "single") is not None
    except (SyntaxError, ValueError, OverflowError):
        return True  # complete, and wrong: running it shows the error
