"""The code from the site itself: the book's source archive, unpacked anywhere, works.

The archive is built into one temporary folder and unpacked in another; there its
README's two commands name real Makefile targets, and a chapter runs under nbval
with the unpacked ``bpe`` package, not this checkout's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bpe.book.site import config as site
from bpe.book.site import source_archive

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "notebooks/06_decoding_and_special_tokens.ipynb"  # short, and data-free


def unpack(archive: Path, into: Path) -> Path:
    """Unpack the zip into a folder, keeping each file's mode; return bpe-book/."""
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            path = Path(z.extract(info, into))
            path.chmod(info.external_attr >> 16 & 0o777)
    return into / source_archive.TOP


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    built = source_archive.write(tmp_path_factory.mktemp("built"))
    return unpack(built, tmp_path_factory.mktemp("unpacked"))


def test_the_same_files_give_the_same_bytes():
    assert source_archive.archive_bytes() == source_archive.archive_bytes()


def test_it_holds_the_working_tree_and_nothing_else(unpacked):
    names = sorted(
        p.relative_to(unpacked).as_posix() for p in unpacked.rglob("*") if p.is_file()
    )
    assert names == source_archive.source_files()
    for must in (
        "Makefile",
        "README.md",
        "pyproject.toml",
        "requirements.txt",
        "bpe/__init__.py",
        CHAPTER,
        "data/toy_corpus.txt",
        "tests/conftest.py",
        "book/intro.md",
        "_toc.yml",
        "_config.yml",
        ".ci/run",
        "bench/bench_words.py",
    ):
        assert must in names, must
    assert not [n for n in names if n.startswith(("data/cache/", "_build/", "vendor/"))]
    assert not [n for n in names if "__pycache__" in n or n.startswith(".venv")]
    for name in names:  # as the working tree holds them, edits not yet committed too
        assert (unpacked / name).read_bytes() == (ROOT / name).read_bytes(), name
    assert os.access(unpacked / ".ci/run", os.X_OK)


def test_the_readme_commands_are_make_targets(unpacked):
    readme = (unpacked / "README.md").read_text(encoding="utf-8")
    block = readme.split("## The two commands", 1)[1].split("```sh", 1)[1]
    commands = re.findall(r"^make (\w[\w-]*)", block.split("```", 1)[0], re.M)
    assert commands == ["book", "test"]
    # make -n reads the Makefile and every rule the two need, running none of them
    dry = subprocess.run(
        ["make", "-n", *commands], cwd=unpacked, capture_output=True, text=True
    )
    assert dry.returncode == 0, dry.stderr
    assert (
        "bpe.book.site.source_archive" in dry.stdout
    )  # the unpacked book packs itself too


def test_without_git_it_walks_the_same_files(unpacked):
    """An unpacked archive is no git checkout: `make book` there packs the same."""
    assert source_archive.git_files(unpacked) is None
    assert source_archive.source_files(unpacked) == source_archive.source_files()


def test_the_site_and_the_chapters_point_at_it():
    config = site.load_config(ROOT / "_config.yml")
    served = config["sphinx"]["config"]["html_static_path"]
    assert "_build/generated" in served  # what the Makefile writes it into
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    steps = makefile.split("\ndefine build-site", 1)[1].split("\nendef", 1)[0]
    assert "-m bpe.book.site.source_archive _build/generated" in steps
    for target in ("book", "preview"):
        recipe = makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
        assert "$(call build-site," in recipe, target
    assert site.ARCHIVE_URL == f"_static/{source_archive.NAME}"
    assert site.ARCHIVE_URL in site.bootstrap_source("")
    for page in ("book/intro.md", "book/console.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert f'href="../{site.ARCHIVE_URL}"' in text, page
    assert source_archive.NAME in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_chapter_runs_in_the_unpacked_tree(unpacked):
    env = {
        **os.environ,
        "PYTHONPATH": str(unpacked),
        "PYTHONHASHSEED": "0",
        "BPE_DATA_MIRROR": os.environ.get("BPE_DATA_MIRROR", ""),
        "BPE_RESULTS": str(unpacked / "_build" / "results"),
    }
    where = subprocess.run(
        [sys.executable, "-c", "import bpe; print(bpe.__file__)"],
        cwd=unpacked / "notebooks",
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(unpacked)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            "--nbval-current-env",
            "-p",
            "no:cacheprovider",
            "-q",
            CHAPTER,
        ],
        cwd=unpacked,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def test_the_readme_starts_with_the_reader_and_names_nothing_outside_the_book():
    """The zip's README: how to open the chapters first, then the maintainers' part;
    no path beside the checkout (the zip holds the book alone)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = "\n".join(readme.splitlines()[:40])
    assert "## Reading and running the chapters" in first_screen
    assert "make lab" in first_screen and "pip install -e" in first_screen
    assert readme.index("## Reading") < readme.index("## The two commands")
    assert "../" not in readme and "shared/" not in readme
