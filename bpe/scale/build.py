"""Compile the hot modules (``compiled.HOT``) in place, from their own source.

    python -m bpe.scale.build            # compile, if Cython and a C compiler are here
    python -m bpe.scale.build --status   # which path each hot module runs
    python -m bpe.scale.build --remove   # delete the extensions: pure Python runs
    python -m bpe.scale.build --sources  # the hot modules' .py files, for make

It prints one line. A missing tool or a failing compiler is no error: the
pure-Python modules then run, and the line says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .compiled import (
    HERE,
    HOT,
    MANIFEST,
    SUFFIX,
    digest,
    extension_of,
    manifest,
    source_of,
    status,
    why_stale,
)

BUILD = HERE.parents[1] / "_build" / "cython"  # generated C, objects, the log
# Cython takes the annotations at their word (a list is a list: its items are read
# without a method call) and infers C types for the locals it can prove, such as
# loop counters. So a parameter annotated dict or list must be exactly that, not a
# subclass such as Counter: where one may come, the source says Mapping. Bounds and
# negative indices stay checked, as in Python. No __test__ dict: doctest finds the
# docstrings on the functions themselves, as in the .py, and would run them twice.
DIRECTIVES = {
    "language_level": 3,
    "infer_types": True,
    "annotation_typing": True,
    "autotestdict": False,
}


def compiler() -> str | None:
    """The C compiler setuptools would call (CC, else cc), if it exists."""
    return shutil.which(os.environ.get("CC", "cc").split()[0])


def missing_tool() -> str | None:
    """Why nothing can be compiled here (None: Cython and a C compiler are present)."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "Cython is not installed"
    if compiler() is None:
        return "no C compiler found"
    return None


def build() -> str:
    """Compile HOT in place; one line saying what happened.

    A missing tool or a failing compiler is no error: the pure-Python path runs.
    The compiler's own output goes to _build/cython/build.log.
    """
    missing = missing_tool()
    if missing:
        return f"bpe: {missing}: the pure-Python path runs"
    if manifest().get("how") == how() and not any(map(why_stale, HOT)):
        return f"bpe: the {len(HOT)} compiled modules are up to date"
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / "build.log", "w") as log:
        done = subprocess.run(
            [sys.executable, "-m", "bpe.scale.build", "--compile-here"],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=HERE.parents[1],
        )
    if done.returncode:
        remove()
        return f"bpe: compiling failed (see {BUILD / 'build.log'}): pure Python runs"
    write_manifest(MANIFEST)
    return f"bpe: compiled {len(HOT)} modules with Cython for {SUFFIX}"


def how() -> dict:
    """What the extensions are built with: a change to it rebuilds them."""
    import Cython

    return {"cython": Cython.__version__, "directives": DIRECTIVES}


def write_manifest(path: Path) -> None:
    """Record, at path, each hot source's hash: the finder loads only what matches."""
    sources = {m: digest(source_of(m)) for m in HOT}
    made = {"python": SUFFIX, "how": how(), "sources": sources}
    path.write_text(json.dumps(made, indent=1))


def extensions() -> list:
    """HOT as setuptools extensions, translated to C by Cython (in BUILD)."""
    from Cython.Build import cythonize
    from setuptools import Extension

    modules = [Extension(m, [str(source_of(m))]) for m in HOT]
    return cythonize(
        modules, build_dir=str(BUILD), compiler_directives=DIRECTIVES, force=True
    )


def compile_here() -> None:
    """Cython, then the C compiler, on each hot module; extensions beside the .py."""
    from setuptools import Distribution

    dist = Distribution({"ext_modules": extensions()})
    command = dist.get_command_obj("build_ext")
    command.inplace, command.build_temp = True, str(BUILD / "temp")
    command.build_lib = str(BUILD / "lib")  # not ./build: everything under _build
    command.parallel = os.cpu_count() or 1  # the modules compile side by side
    dist.run_command("build_ext")


def remove() -> None:
    """Delete the compiled modules and their manifest: the pure path runs."""
    for module in HOT:
        extension_of(module).unlink(missing_ok=True)
    MANIFEST.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--status" in args:
        for name, compiled in status().items():
            print(f"{name}: {'compiled' if compiled else 'Python'}")
        return 0
    if "--compile-here" in args:
        compile_here()
        return 0
    if "--sources" in args:
        print(" ".join(str(source_of(m).relative_to(HERE.parents[1])) for m in HOT))
        return 0
    if "--remove" in args:
        remove()
        return 0
    print(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
