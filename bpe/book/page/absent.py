"""The book's other third-party modules, absent in the page: importable, unusable.

A chapter often imports pandas or matplotlib in the same cell as ``bpe`` and its
data. The page's Python has neither, so without this the whole cell would fail, and
every cell after it. Here ``import pandas as pd`` gives a module that raises
``ModuleNotFoundError``, saying why, as soon as anything in it is used: the cell's
other lines run, and a cell that really needs pandas fails with that message (the
book gives such cells no Run button: ``classify.py`` finds them). A module that is
installed is always found first: the finder comes last in ``sys.meta_path``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types

# The book's third-party dependencies (pyproject.toml) that the page lacks, by import
# name: the package to install, and what the book uses it for.
ABSENT = {
    "pandas": ("pandas", "data frames"),
    "matplotlib": ("matplotlib", "plots"),
    "numpy": ("numpy", "arrays"),
    "tiktoken": (
        "tiktoken",
        "its Encoding class; bpe.interop.openai's get_encoding works here",
    ),
    "tiktoken_ext": (
        "tiktoken",
        "its Encoding class; bpe.interop.openai's get_encoding works here",
    ),
    "tokenizers": ("tokenizers", "Hugging Face's tokenizers"),
    "pyarrow": ("pyarrow", "Parquet files"),
    "dask": ("dask", "Dask"),
    "distributed": ("dask", "Dask"),
    "IPython": ("ipython", "notebook displays"),
    "yaml": ("pyyaml", "YAML files"),
    "fsspec": ("fsspec", "remote files"),
    "tqdm": ("tqdm", "progress bars"),
    "datasets": ("datasets", "Hugging Face datasets"),
    "huggingface_hub": ("huggingface_hub", "the Hugging Face hub"),
    "rustbpe": ("rustbpe", "rustbpe"),
}


def message(name: str, attribute: str = "") -> str:
    package, use = ABSENT[name.split(".")[0]]
    used = f" ({name}.{attribute} was used)" if attribute else ""
    return (
        f"No module named {name!r} in the page's Python{used}, which has the "
        f"standard library and bpe only ({package} is for {use}): run this chapter in "
        "Jupyter for it (see the book's README)"
    )


class AbsentModule(types.ModuleType):
    """A module that is there to be imported, and raises when anything in it is used."""

    def __getattr__(self, attribute: str):
        if attribute.startswith("__") and attribute.endswith("__"):
            raise AttributeError(attribute)  # the import machinery's own questions
        raise ModuleNotFoundError(message(self.__name__, attribute), name=self.__name__)


class AbsentFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the ABSENT modules (and any submodule of one) when nothing else does."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] not in ABSENT:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = AbsentModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def install() -> None:
    """Put the finder last in sys.meta_path (once)."""
    if not any(isinstance(f, AbsentFinder) for f in sys.meta_path):
        sys.meta_path.append(AbsentFinder())
