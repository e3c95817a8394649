"""Atomic writes: a reader, or a crash at any moment, sees the old state or the new one.

``replacing`` writes one file beside its target and renames it into place.
``replace_folder`` does the same for a whole folder: it writes a complete new
folder beside the target, carries over whatever else the target held, and swaps
the two in one step with Linux's ``renameat2(RENAME_EXCHANGE)``. New files and
folders get the user's umask, as if written directly. A save locks the folder it
writes (``claimed``), so that another save removes only what a killed one left.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import shutil
import stat
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import IO, Any

from ..files import PathLike

try:
    import fcntl
except ImportError:  # not POSIX: no leftover can be told stale, so none is removed
    fcntl = None


def write_new(path: Path, data: bytes) -> None:
    """Create path (it must not exist) with data, on disk before this returns."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


@contextlib.contextmanager
def replacing(path: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """A new file beside path; it replaces path when the block ends, or vanishes."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
    text = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
    try:
        with os.fdopen(fd, mode, **text) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_atomically(path: Path, text: str) -> None:
    """Write text to path through ``replacing``."""
    with replacing(path) as f:
        f.write(text)


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux's renameat2); False where it is impossible."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except AttributeError:  # not glibc, or an old one
        return False
    at_cwd, rename_exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), rename_exchange):
        errno = ctypes.get_errno()
        if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: not on this filesystem
            return False
        raise OSError(errno, os.strerror(errno), str(b))
    return True


def interrupted(target: Path) -> Path | None:
    """Where the old folder waits, if a swap was cut short between two renames."""
    if target.exists():
        return None
    return next(iter(sorted(target.parent.glob(f".{target.name}.*.new.old"))), None)


def settle(target: PathLike) -> None:
    """Undo a swap cut short between the fallback's renames: the old folder goes back.

    ``replace_folder`` calls it before every save; call it yourself to recover a
    folder without saving (``Tokenizer.load`` says when that is needed).
    """
    aside = interrupted(Path(target))
    if aside is not None:
        os.rename(aside, target)


def swap_in(new: Path, target: Path) -> None:
    """Put the folder new in target's place; afterwards new holds the old folder."""
    if not target.exists():
        os.rename(new, target)
    elif not exchange(new, target):
        # Without an exchange, two renames leave a moment with no target; settle()
        # puts the old folder back if they are cut short.
        aside = new.with_name(new.name + ".old")
        os.rename(target, aside)
        os.rename(new, target)
        os.rename(aside, new)


def carry(entry: Path, into: Path) -> None:
    """Bring one of the old folder's other files or folders into the new folder."""
    if entry.is_dir() and not entry.is_symlink():
        shutil.copytree(entry, into, symlinks=True, copy_function=link_or_copy)
    else:
        link_or_copy(entry, into)


def link_or_copy(src: PathLike, dst: PathLike) -> None:
    """A hard link where the filesystem allows it (no data copied), else a copy."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


@contextlib.contextmanager
def claimed(target: Path) -> Iterator[Path]:
    """A fresh name beside target for a new folder, locked while the block runs.

    The lock file (``.name.HEX.lock``, held with ``flock``) is created before the
    folder and removed after it. It tells another save that the folder is still
    being written: the system drops the lock of a process that dies, however.
    """
    stem = f".{target.name}.{secrets.token_hex(4)}"
    lock_path = target.with_name(stem + ".lock")
    lock = os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield target.with_name(stem + ".new")
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock_path)
        os.close(lock)


def remove_stale(target: Path) -> None:
    """Remove the folders that killed saves left beside target; never a live one's."""
    if fcntl is None:
        return
    prefix, stems = f".{target.name}.", {}
    for entry in target.parent.iterdir():
        stem, dot, kind = entry.name.removeprefix(prefix).partition(".")
        if entry.name.startswith(prefix) and dot and kind in ("new", "new.old", "lock"):
            stems.setdefault(stem, []).append(entry)
    for entries in stems.values():
        locks = [e for e in entries if e.name.endswith(".lock")]
        with contextlib.ExitStack() as held:
            if locks:  # no lock file: its writer is gone (it removes its folder first)
                try:
                    lock = os.open(locks[0], os.O_RDONLY)
                except FileNotFoundError:
                    continue  # its writer just finished, and removed its folder
                held.callback(os.close, lock)
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a live process is writing this one
            for entry in sorted(entries, key=lambda e: e in locks):  # the lock last
                if entry in locks:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(entry)
                else:
                    shutil.rmtree(entry, ignore_errors=True)


def replace_folder(
    target: Path, files: dict[str, bytes], drop: Collection[str] = ()
) -> None:
    """Make target a folder holding files {name: data}, and whatever else it held.

    Entries named in ``drop`` are not carried over. Folders left beside target by
    a save that was killed are removed first; one that another process is still
    writing is left alone (``claimed``).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    settle(target)
    remove_stale(target)
    with claimed(target) as new:
        write_folder(target, new, files, drop)


def write_folder(
    target: Path, new: Path, files: dict[str, bytes], drop: Collection[str]
) -> None:
    """Write the folder new, with files and target's other entries, and swap it in."""
    os.mkdir(new, 0o777)  # umask applies
    try:
        if target.is_dir():
            os.chmod(new, stat.S_IMODE(target.stat().st_mode))
            for entry in target.iterdir():
                if entry.name not in files and entry.name not in drop:
                    carry(entry, new / entry.name)
        for name, data in files.items():
            write_new(new / name, data)
        swap_in(new, target)
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)  # the swap itself reaches the disk
        finally:
            os.close(fd)
    finally:
        shutil.rmtree(new, ignore_errors=True)  # the old folder now, or a failed one
