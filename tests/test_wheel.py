"""The wheel holds the whole package: every file under bpe/ that git tracks.

Besides its modules the package reads, at run time, the merge explorer's JavaScript
(bpe.js and explorer.js), which a notebook's output inlines, and the site's build
reads the site's browser files (bpe/book/site/static) and Node tools
(bpe/book/site/node): a wheel built from pyproject.toml must ship them all, and no
module reads a file outside the package. The wheel is built offline, from a copy of
the tracked files, with the installed setuptools and Cython (``--no-build-isolation``).

Building it compiles the hot modules (``setup.py``): installed alone, in a fresh venv,
the wheel runs them compiled, with no warning; built without a C compiler it is pure
Python, says so, and runs them as Python.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import bpe
from bpe.book.chapters import explorer as widget
from bpe.scale import build
from bpe.scale.compiled import HOT

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


def build_wheel(folder: Path, **env: str) -> tuple[Path, str]:
    """The wheel pip builds from a copy of the tracked files, and what pip printed."""
    source = folder / "source"
    for name in [*tracked("bpe"), "pyproject.toml", "README.md", "setup.py"]:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        + ["--no-index", "--verbose", "--wheel-dir", str(folder / "wheel"), "."],
        cwd=source,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=True,
    )
    (wheel,) = (folder / "wheel").glob("bpe-*.whl")
    return wheel, built.stdout


def install_alone(wheel: Path, folder: Path) -> Path:
    """A fresh venv holding the wheel; its dependencies are read from this venv's
    site-packages, placed after its own (so bpe comes from the wheel). Its Python."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", wheel],
        check=True,
    )
    (site,) = (folder / "lib").glob("python*/site-packages")
    (site / "project-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


# Run from the venv's own folder, far from the checkout, with every warning an error:
# a stale or missing manifest would make a compiled module run as Python, warning.
TEXT = "a banana band bans a bandana"
REPORT = f"""
import json, bpe
tokenizer = bpe.Tokenizer(*bpe.train({TEXT!r}, 262))
print(json.dumps({{"file": bpe.__file__, "compiled": bpe.compiled(),
                  "tokens": tokenizer.encode("bandana bans")}}))
"""


def installed_report(python: Path) -> dict:
    ran = subprocess.run(
        [python, "-W", "error", "-c", REPORT],
        cwd=python.parents[1],
        env={k: v for k, v in os.environ.items() if k != "BPE_PURE_PYTHON"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(ran.stdout)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    missing = build.missing_tool()
    if missing:
        pytest.skip(f"the compiled wheel needs Cython and a C compiler: {missing}")
    return build_wheel(tmp_path_factory.mktemp("compiled"))


@pytest.mark.slow  # it builds the wheel
def test_the_wheel_holds_every_file_of_the_package(wheel):
    files = tracked("bpe")
    assert "bpe/book/chapters/bpe.js" in files and "bpe/trainer.py" in files
    shipped = set(zipfile.ZipFile(wheel[0]).namelist())
    assert [name for name in files if name not in shipped] == []


@pytest.mark.slow
def test_an_installed_wheel_runs_the_hot_modules_compiled(wheel, tmp_path):
    built, printed = wheel
    assert f"bpe: compiled {len(HOT)} modules with Cython" in printed
    shipped = set(zipfile.ZipFile(built).namelist())
    assert "bpe/scale/compiled.json" in shipped
    report = installed_report(install_alone(built, tmp_path / "venv"))
    assert report["file"].startswith(str(tmp_path / "venv"))
    assert report["compiled"] == dict.fromkeys(HOT, True)
    here = bpe.Tokenizer(*bpe.train(TEXT, 262))
    assert report["tokens"] == here.encode("bandana bans")


@pytest.mark.slow
def test_without_a_compiler_the_wheel_is_pure_python_and_says_so(tmp_path):
    built, printed = build_wheel(tmp_path, CC=str(tmp_path / "no-such-cc"))
    assert built.name.endswith("-py3-none-any.whl")
    assert "bpe: no C compiler found: the pure-Python path runs" in printed
    report = installed_report(install_alone(built, tmp_path / "venv"))
    assert report["compiled"] == dict.fromkeys(HOT, False)


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
