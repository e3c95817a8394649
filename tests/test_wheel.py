"""The wheel holds the whole package: every file under bpe/ that git tracks.

The package reads some of its files at run time (the page's scripts, the
explorer's and the playground's JavaScript, the runner of live cells), so a wheel
built from pyproject.toml must ship each one. The wheel is built offline, from a
copy of the tracked files, with the installed setuptools (``--no-build-isolation``).
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

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
    assert "bpe/book/live/node_runner.mjs" in files and "bpe/trainer.py" in files
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
    data = [name for name in files if not name.endswith(".py")]
    assert len(data) >= 7  # the scripts, the page's style sheet, the runner
    assert [name for name in files if name not in shipped] == []
