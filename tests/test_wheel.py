"""The wheel holds the whole package: every file under bpe/ that git tracks.

Besides its modules the package reads, at run time, the merge explorer's JavaScript
(bpe.js and explorer.js), which a notebook's output inlines, and the site's build
reads the site's browser files (bpe/book/site/static) and Node tools
(bpe/book/site/node): a wheel built from pyproject.toml must ship them all, and no
module reads a file outside the package. The wheel is built offline, from a copy of
the tracked files, with the installed setuptools (``--no-build-isolation``).
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bpe.book.chapters import explorer as widget

ROOT = Path(__file__).resolve().parents[1]


def tracked(folder):
    """The files git tracks under ROOT/folder, as paths relative to ROOT."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", folder],
        cwd=ROOT,
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return sorted(name for name in listed.split("\0") if name)


def test_the_wheel_holds_every_file_of_the_package(tmp_path):
    files = tracked("bpe")
    assert "bpe/book/chapters/bpe.js" in files and "bpe/trainer.py" in files
    source = tmp_path / "source"
    for name in [*files, "pyproject.toml", "README.md"]:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        + ["--no-index", "--quiet", "--wheel-dir", str(tmp_path / "wheel"), "."],
        cwd=source,
        check=True,
    )
    (wheel,) = (tmp_path / "wheel").glob("bpe-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert [name for name in files if name not in shipped] == []


def test_the_package_holds_python_and_the_files_it_reads():
    data = [name for name in tracked("bpe") if not name.endswith(".py")]
    inlined = sorted(str(p.relative_to(ROOT)) for p in (widget.CORE, widget.SCRIPT))
    site = [
        name
        for name in data
        if name.startswith(("bpe/book/site/static/", "bpe/book/site/node/"))
    ]
    assert sorted(inlined + site) == data
    # pyproject.toml's package data names exactly those files, and nothing more
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    named = sorted(
        str(found.relative_to(ROOT))
        for package, patterns in listed.items()
        for pattern in patterns
        for found in (ROOT / package.replace(".", "/")).glob(pattern)
        if found.is_file()
    )
    assert named == data
