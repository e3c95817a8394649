"""The book's source as one zip file, served by the site: "Get the code".

    python -m bpe.book.source_archive [OUT]  # OUT/bpe-book-source.zip; OUT by default:
                                             # _build/generated

``make book`` and ``make preview`` write it into ``_build/generated``, which the site
serves as ``_static/``: a reader downloads ``_static/bpe-book-source.zip``, unpacks
it and runs the README's two commands in ``bpe-book/``. It holds what ``git archive``
would give of the files the book needs to build and test itself: the tracked files
and the new ones git does not ignore, as they stand in the working tree (so an edit
not yet committed is in it), never ``data/cache`` nor the data beside the clone.
Outside a git checkout (in an unpacked archive) the same folders are walked instead.
The same files give the same bytes: names in sorted order, one fixed timestamp.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "bpe-book-source.zip"
TOP = "bpe-book"  # the folder the archive unpacks into
STAMP = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: the same bytes on every build

# What the archive holds: files at the top, and folders (ending in "/").
INCLUDE = (
    ".gitattributes",
    ".gitignore",
    "Makefile",
    "README.md",
    "requirements.txt",
    "requirements-lab.txt",
    "runtime.txt",
    "pyproject.toml",
    "_config.yml",
    "_toc.yml",
    ".ci/",
    "bpe/",
    "notebooks/",
    "book/",
    "data/",
    "tests/",
    "bench/",
)
# Never in it: downloaded data, and what tools leave behind (for the walk without git).
EXCLUDE_DIRS = {
    "cache",
    "__pycache__",
    ".ipynb_checkpoints",
    ".pytest_cache",
    ".hypothesis",
}


def included(name: str) -> bool:
    """Whether a repository path belongs in the archive.

    >>> [included(n) for n in ("bpe/trainer.py", "data/cache/x.txt", "vendor/a.js",
    ...                         "Makefile", "bpe/__pycache__/t.pyc")]
    [True, False, False, True, False]
    """
    if name.startswith("data/cache/") or any(
        part in EXCLUDE_DIRS - {"cache"} for part in name.split("/")[:-1]
    ):
        return False
    return any(
        name == entry or (entry.endswith("/") and name.startswith(entry))
        for entry in INCLUDE
    )


def git_files(root: Path) -> list[str] | None:
    """Tracked and new unignored files under root (None if root is not a git tree)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [name for name in listed.decode("utf-8").split("\0") if name]


def walked_files(root: Path) -> list[str]:
    """The INCLUDE paths found on disk, without the folders tools leave behind."""
    names = []
    for entry in INCLUDE:
        path = root / entry
        if path.is_file():
            names.append(entry)
        elif path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if d not in EXCLUDE_DIRS]
                dirs[:] = [d for d in dirs if not d.endswith(".egg-info")]
                for file in files:
                    names.append((Path(folder) / file).relative_to(root).as_posix())
    return names


def source_files(root: Path = ROOT) -> list[str]:
    """The archive's files: sorted repository paths, each a file in the working tree."""
    names = git_files(root)
    if names is None:
        names = walked_files(root)
    return sorted(
        {n for n in names if included(n) and (root / n).is_file()},
    )


def archive_bytes(root: Path = ROOT) -> bytes:
    """The zip file: each source file under TOP/, deflated, the same bytes each time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in source_files(root):
            path = root / name
            info = zipfile.ZipInfo(f"{TOP}/{name}", STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = (
                0o755 if os.access(path, os.X_OK) else 0o644
            )  # .ci/run stays runnable
            info.external_attr = (0o100000 | mode) << 16
            info.create_system = 3  # Unix, so that unzip applies the mode
            z.writestr(info, path.read_bytes())
    return buffer.getvalue()


def write(out: str | os.PathLike, root: Path = ROOT) -> Path:
    """Write OUT/bpe-book-source.zip, replacing it in one step; return its path."""
    target = Path(out) / NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(archive_bytes(root))
    partial.replace(target)
    return target


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    target = write(argv[0] if argv else ROOT / "_build" / "generated")
    size = target.stat().st_size
    print(f"wrote {target} ({size / 1e6:.1f} MB), served as _static/{NAME}")


if __name__ == "__main__":
    main()
