"""Running one notebook cell as Jupyter runs it, and telling what it shows.

The page's worker (``worker.js``) and the marks (``classify.py``, under Node) run
cells through ``run_cell``, and so do the tests under CPython. As in IPython, a
cell whose last statement is an expression shows that expression's value (as HTML
when it has ``_repr_html_``, as the book's tables do); printed
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
import types
from collections.abc import Callable
from dataclasses import dataclass

# write(kind, text), kind being "stdout", "stderr", "result", "html" or "error"
Write = Callable[[str, str], None]


class Stream(io.TextIOBase):
    """sys.stdout or sys.stderr for a cell: what is written goes to the Sender."""

    def __init__(self, kind: str, send: Sender):
        self.kind, self.send = kind, send

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        self.send.flush()

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
    html: str | None = None  # the last expression's _repr_html_(), if it has one
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return dict(self.__dict__)


class Sender:
    """What a cell shows, kept whole in the outcome and passed on to write().

    Each line goes to the page as it is printed, up to ``BURST`` lines per 50 ms;
    beyond that (a loop printing a million lines) lines are held and sent together
    (8,192 characters at a time, or with the next line after the burst), so that
    the page gets a few hundred messages rather than a million. A partial line waits
    for its end, for flush() (``print(..., flush=True)``) or for the cell's end.
    """

    BURST, WINDOW, HOLD_CHARS = 20, 0.05, 8192

    def __init__(self, outcome: Outcome, write: Write | None):
        self.outcome, self.write = outcome, write
        self.printed = {"stdout": [], "stderr": []}  # joined once, at the end
        self.kind, self.held, self.size = None, [], 0
        self.window, self.sent = time.perf_counter(), 0

    def __call__(self, kind: str, text: str) -> None:
        if kind in self.printed:
            self.printed[kind].append(text)
        if self.write is None:
            return
        if kind != self.kind:
            self.flush()
            self.kind = kind
        self.held.append(text)
        self.size += len(text)
        if kind not in self.printed or self.size >= self.HOLD_CHARS:
            self.flush()
        elif text.endswith("\n"):
            if self.sent >= self.BURST:  # (the clock is read only in a burst)
                now = time.perf_counter()
                if now - self.window >= self.WINDOW:
                    self.window, self.sent = now, 0
            if self.sent < self.BURST:
                self.flush()

    def flush(self) -> None:
        if self.held and self.write is not None:
            self.write(self.kind, "".join(self.held))
            self.sent += 1
        self.held, self.size = [], 0

    def finish(self) -> None:
        """Send what is held, and put the printed text in the outcome."""
        self.flush()
        for kind, parts in self.printed.items():
            setattr(self.outcome, kind, "".join(parts))


def split_last_expression(
    tree: ast.Module,
) -> tuple[ast.Module, ast.Expression | None]:
    """The cell less its last statement if that is an expression; the expression."""
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
        return tree, last
    return tree, None


def html_of(value: object) -> str | None:
    """What Jupyter would show of value as HTML (its ``_repr_html_``), or None."""
    method = getattr(type(value), "_repr_html_", None)
    if method is None:
        return None
    html = method(value)
    return html if isinstance(html, str) else None


def own_frames(error: BaseException) -> types.TracebackType | None:
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
    send = Sender(outcome, write)

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
                    outcome.html = html_of(value)
                    if outcome.html is None:
                        send("result", outcome.result)
                    else:  # a table (bpe.book.chapters.table.Table), as the book has it
                        send("html", outcome.html)
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
        finally:
            send.finish()
    outcome.seconds = time.perf_counter() - start
    return outcome
