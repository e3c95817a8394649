"""Building the package compiles its hot modules where it can: ``pip install .``.

pyproject.toml says everything else; this adds the extensions. With Cython and a C
compiler here, the hot modules (``bpe.scale.compiled.HOT``) are compiled from their
own ``.py`` files, with the directives ``make compiled`` uses (``bpe/scale/build.py``),
and the wheel carries each extension beside its source together with the manifest
that lets it run. Without Cython or a compiler, or when compiling fails, one line
says so and the package installs as pure Python, which gives the same answers.
"""

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

SCALE = Path(__file__).resolve().parent / "bpe" / "scale"


def load(name: str):
    """One module of bpe.scale by its path: importing the package itself would need
    its dependencies (regex, tiktoken...), which a build does not install."""
    path = SCALE / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bpe.scale.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


compiled = load("compiled")
build = load("build")


class BuildHot(build_ext):
    """build_ext that falls back to pure Python instead of failing the install."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:  # one C compiler per core: the modules are independent
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a compiler error stops nothing: Python runs
            for module in self.extensions:
                Path(self.get_ext_fullpath(module.name)).unlink(missing_ok=True)
            why = type(error).__name__
            print(f"bpe: compiling failed ({why}): the pure-Python path runs")
            return
        manifest = Path(self.build_lib) / "bpe" / "scale" / compiled.MANIFEST.name
        if self.inplace:
            manifest = compiled.MANIFEST
        build.write_manifest(manifest)
        print(f"bpe: compiled {len(self.extensions)} modules with Cython")


def hot_extensions() -> list:
    missing = build.missing_tool()
    if missing:
        print(f"bpe: {missing}: the pure-Python path runs")
        return []
    return build.extensions()


setup(ext_modules=hot_extensions(), cmdclass={"build_ext": BuildHot})
