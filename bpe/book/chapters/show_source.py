"""The package's own source, shown in a chapter: what the reader reads is what runs.

``show(bpe.merge)`` displays ``inspect.getsource(bpe.merge)`` under a comment
naming its file. Jupyter and the book's pages render it as highlighted Markdown;
its plain-text form is the bare source, which nbval compares with the stored
chapter, so a chapter that shows an old version of a function fails the tests.
A function of a compiled module (``bpe.scale.compiled``) is shown from the
``.py`` file it was compiled from, which the module's checksum ties it to.
"""

from __future__ import annotations

import functools
import inspect
import sys
import textwrap
from pathlib import Path
from typing import Any

from bpe.data import CHECKOUT
from bpe.scale.compiled import HOT, is_compiled, pure_twin

ROOT = CHECKOUT  # the folder that holds the bpe package


def definition(obj: Any) -> Any:
    """What defines obj in the source: a property's getter, a cached function's own.

    A module stands for its whole file.
    """
    if isinstance(obj, (property, functools.cached_property)):
        obj = obj.fget if isinstance(obj, property) else obj.func
    return from_source(inspect.unwrap(obj))


def from_source(obj: Any) -> Any:
    """obj itself, or, if a compiled module holds it, the same name in its source."""
    module = obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", "")
    if module not in HOT or not is_compiled(sys.modules[module]):
        return obj
    twin = pure_twin(module)
    if inspect.ismodule(obj):
        return twin
    for name in obj.__qualname__.split("."):
        twin = getattr(twin, name)
    return inspect.unwrap(twin)


def where(obj: Any) -> str:
    """The file that defines obj, as a path from the repository's top; obj's name."""
    obj = definition(obj)
    path = Path(inspect.getsourcefile(obj)).resolve().relative_to(ROOT).as_posix()
    if inspect.ismodule(obj):
        return f"{path}, in full"
    return f"{path}: {obj.__qualname__}"


def source(obj: Any) -> str:
    """obj's source code, dedented (a method's too), decorators included."""
    return textwrap.dedent(inspect.getsource(definition(obj)))


class Source:
    """One or more definitions, ready to display; see ``show``."""

    def __init__(self, *objects: Any):
        self.parts = [(where(obj), source(obj)) for obj in objects]

    def __repr__(self) -> str:
        return "\n".join(f"# {place}\n{code}" for place, code in self.parts)

    def _repr_markdown_(self) -> str:
        return "```python\n" + repr(self) + "```\n"


def show(*objects: Any) -> Source:
    """Display the source of functions, classes or methods, in this order, in a chapter.

    >>> from bpe.trainer import merge
    >>> print(repr(show(merge)).splitlines()[0])
    # bpe/trainer.py: merge
    """
    return Source(*objects)
