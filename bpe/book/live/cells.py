"""Running one notebook cell as Jupyter runs it, and telling what it shows.

The page's worker (``worker.js``) and the marks (``classify.py``, under Node) run
cells through ``run_cell``, and so do the tests under CPython. As in IPython, a
cell whose last statement is an expression shows that expression's value; printed
text and warnings arrive through ``write`` as they happen; an exception ends the
cell and comes back as its traceback, from the cell's own frames down.
"""

from __future__ import annotations

import ast
import contextlib
import io
import linecache
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

# write(kind, text), kind being "stdout", "stderr", "result" or "error"
Write = Callable[[str, str], None]


class Stream(io.TextIOBase):
    """sys.stdout or sys.stderr for a cell: each write goes straight to write()."""

    def __init__(self, kind: str, write: Write):
        self.kind, self.send = kind, write

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self.send(self.kind, text)
        return len(text)


@dataclass
class Outcome:
    """What a cell did: its printed output, its value's repr, or its error."""

    stdout: str = ""
    stderr: str = ""
    result: str | None = None  # repr of the last expression, when not None
    error: str | None = None  # the traceback, as Python prints it
    error_type: str | None = None
    missing_module: str | None = None  # for ModuleNotFoundError: which module
    missing_name: str | None = None  # for NameError: which name
    seconds: float = 0.0
    events: list = field(default_factory=list)  # (kind, text) in the order shown

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "events"}


def split_last_expression(
    tree: ast.Module,
) -> tuple[ast.Module, ast.Expression | None]:
    """The cell less its last statement if that is an expression; the expression."""
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
        return tree, last
    return tree, None


def own_frames(error: BaseException):
    """The traceback from the cell's first frame on (this module's frames dropped)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def run_cell(
    source: str,
    namespace: dict,
    filename: str = "<cell>",
    write: Write | None = None,
) -> Outcome:
    """Run source in namespace as a notebook cell; what it printed, showed or raised."""
    outcome = Outcome()

    def send(kind: str, text: str) -> None:
        if kind in ("stdout", "stderr"):
            setattr(outcome, kind, getattr(outcome, kind) + text)
        outcome.events.append((kind, text))
        if write is not None:
            write(kind, text)

    # Tracebacks quote the cell's lines, as they quote a file's.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    start = time.perf_counter()
    out, err = Stream("stdout", send), Stream("stderr", send)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            body, last = split_last_expression(ast.parse(source, filename, "exec"))
            exec(compile(body, filename, "exec"), namespace)
            if last is not None:
                value = eval(compile(last, filename, "eval"), namespace)
                if value is not None:
                    namespace["_"] = value
                    outcome.result = repr(value)
                    send("result", outcome.result)
        except BaseException as error:  # a cell may raise anything, SystemExit too
            if isinstance(error, SyntaxError):  # no frames of its own to show
                lines = traceback.format_exception_only(type(error), error)
            else:
                lines = traceback.format_exception(
                    type(error), error, own_frames(error)
                )
            outcome.error = "".join(lines)
            outcome.error_type = type(error).__name__
            if isinstance(error, ModuleNotFoundError):
                outcome.missing_module = (error.name or "").split(".")[0] or None
            if isinstance(error, NameError):
                outcome.missing_name = getattr(error, "name", None)
            send("error", outcome.error)
    outcome.seconds = time.perf_counter() - start
    return outcome
