"""The wheel holds the whole package: every file under bpe/ that git tracks.

The package reads two of its files at run time: the merge explorer's JavaScript
(bpe.js and explorer.js), which a notebook's output inlines, so a wheel built from
pyproject.toml must ship them. The site's own scripts and style sheets are not the
package's: they live in book/static, and its Node tools in book/node. The wheel is
built offline, from a copy of the tracked files, with the installed setuptools
(``--no-build-isolation``).
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bpe.book import widget

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
    assert "bpe/book/bpe.js" in files and "bpe/trainer.py" in files
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


def test_the_package_holds_python_and_the_scripts_a_notebook_inlines():
    data = [name for name in tracked("bpe") if not name.endswith(".py")]
    inlined = sorted(str(p.relative_to(ROOT)) for p in (widget.CORE, widget.SCRIPT))
    assert data == inlined
    # pyproject.toml's package data names exactly those files, and nothing more
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    named = sorted(
        f"{package.replace('.', '/')}/{name}"
        for package, names in listed.items()
        for name in names
    )
    assert named == data
