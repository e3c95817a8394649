"""Stands in for ``cython`` where Cython is not installed (the page's Pyodide, a plain
install), so that a hot module's typed source runs as the Python it is.

Each hot module starts ``try: import cython`` / ``except ImportError: from . import
_cython as cython``. Compiled, Cython reads the types and decorators; run as Python
with Cython installed, ``cython`` is Cython's own stand-in (``Cython.Shadow``); and
without it, this module: the types are Python's, the decorators give the function
back unchanged. Only the names the hot modules use are here (the pattern of
SQLAlchemy's ``sqlalchemy.util.cython``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

compiled = False  # as cython.compiled: this code runs as Python
# C types, as the Python types that hold their values
int = int
long = int
longlong = int
Py_ssize_t = int
bint = bool
Py_UCS4 = str  # one character


def cfunc(function: F) -> F:
    """A C function, when compiled; here the function itself."""
    return function


def ccall(function: F) -> F:
    """A function C code calls in C and Python as Python, when compiled; here itself."""
    return function


def _keep(function: F) -> F:
    return function


def locals(**types: Any) -> Callable[[F], F]:
    """C types of a function's locals, when compiled; here nothing."""
    return _keep


def boundscheck(check: bool) -> Callable[[F], F]:
    """Whether indexing checks its bounds, when compiled; Python always checks."""
    return _keep


def wraparound(wrap: bool) -> Callable[[F], F]:
    """Whether a negative index counts from the end, when compiled; here it does."""
    return _keep
