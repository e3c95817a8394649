"""Where the book lives: one setting, ``repository.url`` in ``_config.yml``.

The site's launch buttons (Binder, Colab) and repository button, and the bootstrap
cell that opens every chapter, are all built from that URL. While it is empty there
is no repository to point at, so the site shows none of those buttons, and the
bootstrap cell says, in one line, where to get the package instead of fetching it:
the book's source, which the site serves as _static/bpe-book-source.zip
(bpe.book.site.source_archive), and `make lab` in it.

    python -m bpe.book.site.config _config.yml _build/site_config.yml  # the config
    python -m bpe.book.site.config _config.yml OUT --stored-outputs  # running no cell
    python -m bpe.book.site.config _config.yml OUT --cache  # ... only what changed
    python -m bpe.book.site.config --sync-notebooks  # update the bootstrap cells
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from bpe.book.site.source_archive import NAME as ARCHIVE_NAME
from bpe.data import CHECKOUT
from bpe.files import PathLike

ROOT = CHECKOUT
BOOTSTRAP_TAG = "remove-cell"  # run in Jupyter and Colab, never shown on the site
BOOTSTRAP_ID = "bootstrap"  # the cell's id, in every chapter
# The book's source as the site serves it (bpe.book.site.source_archive), from its root
ARCHIVE_URL = f"_static/{ARCHIVE_NAME}"

BOOTSTRAP = """\
# Colab, Binder or any machine without the bpe package: fetch the book and install it.
# Where bpe is installed (make book, make lab), this cell does nothing.
import importlib.util

REPOSITORY = {url!r}
if importlib.util.find_spec("bpe") is None and not REPOSITORY:
    # A downloaded chapter, and no repository to fetch the package from: say where.
    print("This chapter needs the bpe package: download {archive}"
          " from the book's site, unpack it and run `make lab`"
          " (or `pip install -e .`) in bpe-book/.")
elif importlib.util.find_spec("bpe") is None:
    import os, subprocess, sys

    subprocess.run(["git", "clone", "--depth=1", REPOSITORY, "bpe-book"], check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "./bpe-book[book]"],
                   check=True)
    os.chdir("bpe-book/notebooks")  # the chapters read ../data
    importlib.invalidate_caches()"""


def repository_url(config: dict[str, Any]) -> str:
    """The one setting: the book's repository URL, or "" when it has none."""
    return ((config.get("repository") or {}).get("url") or "").strip()


def site_config(config: dict[str, Any]) -> dict[str, Any]:
    """config with the launch and repository buttons only if there is a repository."""
    config = json.loads(json.dumps(config))  # a deep copy
    if not repository_url(config):
        config.pop("repository", None)
        config.pop("launch_buttons", None)
        html = config.setdefault("html", {})
        for button in (
            "use_repository_button",
            "use_issues_button",
            "use_edit_page_button",
        ):
            html[button] = False
    return config


def is_bootstrap(cell: dict) -> bool:
    """Whether a notebook cell is the bootstrap cell (by its id, or by its first line).

    >>> is_bootstrap({"id": "x1", "source": [bootstrap_source("").splitlines()[0]]})
    True
    """
    first_line = BOOTSTRAP.split("\n", 1)[0]
    return cell.get("id") == BOOTSTRAP_ID or "".join(cell.get("source", "")).startswith(
        first_line
    )


def bootstrap_source(url: str) -> str:
    """The first cell of every chapter, for the repository at url ("" for none).

    >>> "REPOSITORY = ''" in bootstrap_source("")
    True
    """
    return BOOTSTRAP.format(url=url, archive=ARCHIVE_URL)


# What a chapter's outputs depend on besides its own code cells: the package, the data
# files it reads, and the pinned requirements. jupyter-cache keys each notebook on its
# code cells only, so the cache folder is keyed on these: a change to any of them
# starts an empty cache, and every chapter runs again.
OUTPUT_INPUTS = ("bpe", "data", "requirements.txt")
CACHES = Path("_build") / "jupyter_cache"  # one folder per key, under the book's root


def source_key(root: PathLike = ROOT, inputs: tuple[str, ...] = OUTPUT_INPUTS) -> str:
    """A hash of every file under inputs (names and bytes, in sorted order).

    >>> len(source_key())
    16
    """
    digest = hashlib.sha256()
    for name in inputs:
        top = Path(root) / name
        files = sorted(top.rglob("*")) if top.is_dir() else [top]
        for path in files:
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_folder(root: PathLike = ROOT) -> Path:
    """The jupyter-cache folder for the package as it is now; older ones are removed."""
    caches = Path(root) / CACHES
    folder = caches / source_key(root)
    for old in caches.glob("*"):
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    return folder


def load_config(path: PathLike) -> dict[str, Any]:
    import yaml

    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def sync_notebooks(url: str, folder: PathLike = ROOT / "notebooks") -> list[str]:
    """Make each chapter's first cell the bootstrap cell for url.

    Returns the names of the files it changed.
    """
    changed = []
    for path in sorted(Path(folder).glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = notebook["cells"]
        cell = {
            "cell_type": "code",
            "execution_count": None,
            "id": BOOTSTRAP_ID,
            "metadata": {"tags": [BOOTSTRAP_TAG]},
            "outputs": [],
            "source": bootstrap_source(url).splitlines(keepends=True),
        }
        if cells and cells[0].get("id") == BOOTSTRAP_ID:
            if cells[0] == cell:
                continue
            cells[0] = cell
        else:
            cells.insert(0, cell)
        path.write_text(
            json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        changed.append(path.name)
    return changed


def main(argv: list[str] | None = None) -> None:
    import yaml

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config", nargs="?", default=str(ROOT / "_config.yml"))
    parser.add_argument(
        "out", nargs="?", help="where to write the config to build with"
    )
    parser.add_argument(
        "--stored-outputs",
        action="store_true",
        help="build from the outputs stored in the notebooks, without running them",
    )
    parser.add_argument(
        "--sync-notebooks",
        action="store_true",
        help="rewrite every chapter's bootstrap cell for the URL",
    )
    parser.add_argument(
        "--cache",
        action="store_true",
        help="run only the chapters whose code, or whose package, changed",
    )
    args = parser.parse_args(argv)
    config = load_config(args.config)
    execute = config.setdefault("execute", {})
    if args.stored_outputs:
        execute["execute_notebooks"] = "off"
    elif args.cache:
        execute["execute_notebooks"] = "cache"
        execute["cache"] = str(cache_folder())
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(
            yaml.safe_dump(site_config(config), sort_keys=False, allow_unicode=True),
            encoding="utf-8",
        )
    if args.sync_notebooks:
        for name in sync_notebooks(repository_url(config)):
            print("updated", name)


if __name__ == "__main__":
    main()
