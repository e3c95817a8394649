"""Running a check: the chapter's examples, then seeded random cases, then shrinking.

One definition serves Jupyter and the page: ``verdict`` returns a plain dict (the
page shows it), ``check`` prints the same verdict for a notebook. A failing case
is made smaller while it still fails, so the reader sees the simplest input that
shows the mistake; its hint is that of the known wrong answer that answers as the
reader's does on the most cases (``diagnose``), else the exercise's general hint.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import io
import random
import textwrap
import warnings
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bpe.book.practice.inputs import smaller

SEED = 2024  # one seed for every check: the same cases every run, everywhere
SHRINK_TRIES = 300  # candidate inputs tried while shrinking, at most
LONG = 8  # a dict or list longer than this is shown by its first difference


@dataclass(frozen=True)
class Wrong:
    """A plausible wrong answer: what it gets wrong, the code, the hint it earns."""

    label: str
    function: Callable
    hint: str


@dataclass(frozen=True)
class Exercise:
    """One exercise: the book's function, its examples, random cases and hints."""

    name: str
    chapter: str  # its title and starter are written there, in the chapter only
    reference: Callable
    examples: Callable[[], list[tuple]]  # argument tuples, built on first use
    generate: Callable[[random.Random], tuple] | None = None
    cases: int = 200
    shrink: tuple[int, ...] = (0,)  # which arguments may be made smaller
    shrink_tries: int = SHRINK_TRIES
    valid: Callable[[tuple, Any], bool] = lambda args, expected: True  # a fair case?
    same: Callable[[Any, Any], bool] = lambda expected, actual: expected == actual
    hint: str = ""
    wrong: tuple[Wrong, ...] = field(default=())
    function: str = ""  # the function the reader writes, where it is not ``name``

    @property
    def params(self) -> list[str]:
        """The argument names, as the book's function has them."""
        return list(inspect.signature(self.reference).parameters)

    @property
    def signature(self) -> str:
        """The function the reader writes, e.g. ``merge(tok, pair, new)``."""
        return f"{self.function or self.name}({', '.join(self.params)})"


class Raised:
    """What a call raised, shown as its type and message, never as a traceback."""

    def __init__(self, error: BaseException):
        self.error = error

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Raised) and repr(other.error) == repr(self.error)

    def __repr__(self) -> str:
        return f"raised {type(self.error).__name__}: {self.error}"


def call(function: Callable, args: tuple) -> Any:
    """function(*args) on fresh containers (a function may change its input).

    Shallow copies: the items are bytes, str, ints and tuples, which cannot be
    changed, and a deep copy of GPT-2's vocabulary would take longer than the check.
    """
    fresh = [copy.copy(a) if isinstance(a, (dict, list, set)) else a for a in args]
    try:
        # Warnings (e.g. OutOfPairs) and prints would repeat for every case: muted.
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            return function(*fresh)
    except Exception as error:  # the reader's mistake is a result, not a crash
        return Raised(error)


def agrees(ex: Exercise, expected: Any, actual: Any) -> bool:
    """Whether actual counts as right (an exception never does)."""
    if isinstance(actual, Raised):
        return False
    try:
        return bool(ex.same(expected, actual))
    except Exception:  # an answer of the wrong shape is a wrong answer
        return False


def same_kind(one: tuple, other: tuple) -> bool:
    """Two failures of the same kind: both wrong values, or the same exception."""
    return type(getattr(one[1], "error", None)) is type(
        getattr(other[1], "error", None)
    )


def fails(ex: Exercise, fn: Callable, ref: Callable, args: tuple) -> tuple | None:
    """(expected, actual) if fn disagrees with ref on args, else None."""
    expected = call(ref, args)
    if isinstance(expected, Raised):
        return None  # not a case the exercise asks about
    if not ex.valid(args, expected):
        return None
    actual = call(fn, args)
    return None if agrees(ex, expected, actual) else (expected, actual)


def variants(ex: Exercise, args: tuple) -> Iterator[tuple]:
    """args with one of the shrinkable arguments made simpler."""
    for i in ex.shrink:
        if i >= len(args):
            continue  # an argument left to its default
        for simpler in smaller(args[i]):
            yield args[:i] + (simpler,) + args[i + 1 :]


def shrink(
    ex: Exercise, fn: Callable, ref: Callable, args: tuple, failure: tuple
) -> tuple[tuple, tuple]:
    """A simpler case on which fn still fails, with its (expected, actual).

    Greedy, a bounded number of tries; a smaller case must fail the same way (a
    wrong value stays a wrong value, not an exception). The failure is kept from
    the call that found it: a function with a memory may not fail twice.
    """
    tries, improved = 0, True
    while improved and tries < ex.shrink_tries:
        improved = False
        for candidate in variants(ex, args):
            tries += 1
            found = fails(ex, fn, ref, candidate)
            if found and same_kind(found, failure):
                args, failure, improved = candidate, found, True
                break
            if tries >= ex.shrink_tries:
                break
    return args, failure


def all_cases(ex: Exercise) -> Iterator[tuple[bool, tuple]]:
    """(is it one of the chapter's examples, args): examples first, then random."""
    for args in ex.examples():
        yield True, args
    if ex.generate:
        rng = random.Random(SEED + zlib.crc32(ex.name.encode()))
        for _ in range(ex.cases):
            yield False, ex.generate(rng)


def alike(ex: Exercise, actual: Any, theirs: Any) -> bool:
    """Whether two answers are the same answer (the same error, for a raise)."""
    return (
        theirs == actual if isinstance(actual, Raised) else agrees(ex, actual, theirs)
    )


def likeness(ex: Exercise, fn: Callable, wrong: Wrong) -> int:
    """On how many of the exercise's cases fn answers as this wrong answer does."""
    return sum(
        alike(ex, call(fn, a), call(wrong.function, a)) for _, a in all_cases(ex)
    )


def diagnose(
    ex: Exercise, fn: Callable, args: tuple, expected: Any, actual: Any
) -> str:
    """The hint for this failure: the known wrong answer's that fn is most like, or
    the general one.

    Several wrong answers can give fn's answer on the failing case: the one that
    also answers as fn does on the most other cases is the mistake made.
    """
    matching = [w for w in ex.wrong if alike(ex, actual, call(w.function, args))]
    if len(matching) > 1:
        return max(matching, key=lambda w: likeness(ex, fn, w)).hint  # first of ties
    if matching:
        return matching[0].hint
    if isinstance(actual, Raised):
        return (
            f"Your function raised {type(actual.error).__name__} on this input; "
            "run it on the input above to see where. " + ex.hint
        )
    if not isinstance(actual, type(expected)) and str(actual) == str(expected):
        kind = type(expected).__name__
        return f"The values look right, but the type is not: return a {kind}."
    return ex.hint


class Missing:
    """Where one result has an entry and the other has none."""

    def __repr__(self) -> str:
        return "(missing)"


MISSING = Missing()


def is_long(value: Any) -> bool:
    """A dict, list or tuple too long to show whole."""
    return isinstance(value, (dict, list, tuple)) and len(value) > LONG


def entries(expected: Any, actual: Any) -> list[tuple[str, Any, Any]] | None:
    """(where, expected entry, actual entry) for two dicts or two sequences."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = [*expected, *(k for k in actual if k not in expected)]
        return [(f"[{k!r}]", expected.get(k, MISSING), actual.get(k, MISSING))
                for k in keys]  # fmt: skip
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        n = max(len(expected), len(actual))
        pad = [MISSING] * n
        padded = zip([*expected, *pad][:n], [*actual, *pad][:n], strict=True)
        return [(f"[{i}]", e, a) for i, (e, a) in enumerate(padded)]
    return None


def difference(expected: Any, actual: Any, where: str = "") -> tuple[str, Any, Any]:
    """Where a long result first differs: (where, expected part, actual part).

    A short result is shown whole; a long one (or one holding a long one, as
    train's (vocab, merges) does) is followed down to its first difference.
    """
    for here, e, a in entries(expected, actual) or []:
        if e != a:
            if is_long(expected) or is_long(actual) or is_long(e) or is_long(a):
                return difference(e, a, where + here)
            break
    return where, expected, actual


def brief(value: Any) -> str:
    """repr, with a long dict or list cut to its ends (a vocabulary has 50,257 ids)."""
    if not isinstance(value, (dict, list, tuple)) or len(value) <= LONG:
        return repr(value)
    if isinstance(value, dict):
        shown = [f"{k!r}: {v!r}" for k, v in value.items()]
    else:
        shown = [repr(v) for v in value]
    return f"{', '.join(shown[:2])}, ..., {shown[-1]} ({len(value):,} entries)"


def verdict(ex: Exercise, fn: Callable, reference: Callable | None = None) -> dict:
    """The outcome of checking fn, as plain data for the page (and for ``check``).

    Keys: name, passed, examples and cases (how many were tried), message (the
    text ``check`` prints) and, for a failure: example (one of the chapter's?),
    shrunk (made smaller?), case ({argument: repr}), expected, actual, where (the
    first differing entry of a long result, or "") and hint.
    """
    ref = reference or ex.reference
    tried = {True: 0, False: 0}
    for is_example, args in all_cases(ex):
        tried[is_example] += 1
        if failure := fails(ex, fn, ref, args):
            break
    else:
        result = dict(
            name=ex.name, passed=True, examples=tried[True], cases=tried[False]
        )
        return {**result, "message": message(result)}
    shrunk, (expected, actual) = shrink(ex, fn, ref, args, failure)
    where, e, a = difference(expected, actual)
    result = dict(
        name=ex.name,
        passed=False,
        examples=tried[True],
        cases=tried[False],
        example=is_example,
        shrunk=shrunk != args,
        case={p: brief(v) for p, v in zip(ex.params, shrunk, strict=False)},
        expected=repr(e),
        actual=repr(a),
        where=where,
        hint=diagnose(ex, fn, shrunk, expected, actual),
    )
    return {**result, "message": message(result)}


def message(result: dict) -> str:
    """The verdict as lines of text: a pass line, or the case, the outputs, the hint."""
    name = result["name"]
    if result["passed"]:
        return (
            f"✓ {name}: right on the chapter's {result['examples']} example(s) "
            f"and {result['cases']} random cases"
        )
    origin = "a chapter example" if result["example"] else "a random case"
    origin += ", shrunk" if result["shrunk"] else ""
    width = max(map(len, result["case"]), default=0)
    lines = [f"✗ {name}: wrong on {origin}:"]
    lines += [f"    {p.ljust(width)} = {v}" for p, v in result["case"].items()]
    where = result["where"]
    lines += [
        f"  expected{where}: {result['expected']}",
        f"  got{where}:{' ' * 6}{result['actual']}",
        f"  hint: {result['hint']}",
    ]
    # Within 80 columns: a page cuts off a longer line (and ✗ or � draw wider).
    return "\n".join(
        textwrap.fill(line, 80, subsequent_indent="        ") for line in lines
    )
