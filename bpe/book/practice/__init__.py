"""Learn by doing: build your own tokenizer, chapter by chapter, and check it.

Each exercise asks for one of the book's functions, with the book's signature,
and is checked against the book's own: first on the chapter's examples, then on
seeded random cases (the same every run). A failing case is shrunk to a small
one and shown with what was expected, what your function gave, and a hint.

>>> from bpe.trainer import merge
>>> check("merge", merge)
✓ merge: right on the chapter's 2 example(s) and 200 random cases
>>> def my_merge(tok, pair, new):
...     out = []
...     for i, t in enumerate(tok):
...         if tok[i : i + 2] == pair:
...             out.append(new)
...         elif i == 0 or tok[i - 1 : i + 1] != pair:
...             out.append(t)
...     return tuple(out)
>>> check("merge", my_merge)
✗ merge: wrong on a chapter example:
    tok  = (b'a', b'a', b'a')
    pair = (b'a', b'a')
    new  = b'aa'
  expected: (b'aa', b'a')
  got:      (b'aa', b'aa')
  hint: Overlap: in a a a the two a a pairs share the middle a, which can go
        into one token only: the answer is aa a.

``verdict`` gives the same as a dict (for the page), ``check_code`` runs the code of
an exercise's cell and checks it (the page's Check), ``exercises`` lists them in
book order. The words a reader reads, each exercise's title and its starter code,
are the chapter's, written there once; the modules here hold what computes: the
examples, the random cases, the plausible wrong answers and the hint for each.

The checks, by chapter: ``lesson`` (00, the lesson's toy tokenizer), ``training``
(02-04: bytes, counting, merging), ``codec`` (05-06: encoding, decoding, special
tokens), ``fileformat`` (07, and the track's last step) and ``diverging`` (18);
``runner`` runs a check (examples, random cases, shrinking, the hint), on the
inputs ``inputs`` makes. The quiz (``quiz``) is graded on the page from its HTML;
its questions are the chapters' too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bpe.book.practice.codec import DECODING, ENCODING
from bpe.book.practice.diverging import DIVERGING
from bpe.book.practice.fileformat import FILE_FORMAT, LAST_STEP
from bpe.book.practice.lesson import LESSON
from bpe.book.practice.runner import Exercise, Wrong
from bpe.book.practice.runner import verdict as run
from bpe.book.practice.training import BYTES, COUNTING, MERGING

EXERCISES = (*LESSON, *BYTES, *COUNTING, *MERGING, *ENCODING, *DECODING, *FILE_FORMAT,
             *LAST_STEP, *DIVERGING)  # fmt: skip
BY_NAME = {ex.name: ex for ex in EXERCISES}
# The plausible wrong answers each check is proved to reject (tests/test_exercises.py).
WRONG: dict[str, tuple[Wrong, ...]] = {ex.name: ex.wrong for ex in EXERCISES}

__all__ = [
    "EXERCISES",
    "WRONG",
    "check",
    "check_code",
    "exercise",
    "exercises",
    "function_name",
    "verdict",
]


def exercise(name: str) -> Exercise:
    """The exercise called name; an unknown name lists the known ones."""
    if name not in BY_NAME:
        raise ValueError(f"no exercise {name!r}; there are: {', '.join(BY_NAME)}")
    return BY_NAME[name]


def function_name(name: str) -> str:
    """The function the reader writes: the one the starter defines.

    Mostly the exercise's name; the last step's checks take chapter 4's ``train``
    and chapter 6's ``encode`` again:

    >>> function_name("merge"), function_name("eight_merges")
    ('merge', 'train')
    """
    return exercise(name).function or name


def exercises() -> list[dict[str, str]]:
    """Every exercise in book order: name, chapter, signature, function.

    >>> [e["signature"] for e in exercises() if e["chapter"] == "04"]
    ['count_pairs(table)', 'merge(tok, pair, new)', 'train(text, vocab_size, specials)']
    """
    return [
        dict(
            name=ex.name,
            chapter=ex.chapter,
            signature=ex.signature,
            function=function_name(ex.name),
        )
        for ex in EXERCISES
    ]


def verdict(name: str, fn: Callable, reference: Any = None) -> dict:
    """Check fn for exercise name; the result as a dict (see runner.verdict).

    ``reference`` replaces the book's function: a function of the same
    signature, or, for ``gpt2_ids``, an encoder with tiktoken's ``encode``.
    """
    if reference is not None and not callable(reference):
        encoder = reference

        def reference(text: str, *_: Any) -> list[int]:
            return encoder.encode(text, allowed_special="all")

    return run(exercise(name), fn, reference)


def check(name: str, fn: Callable, reference: Any = None) -> None:
    """Check fn for exercise name and print the verdict.

    It returns nothing, so that the notebook shows the verdict alone, not a ``False``
    under it; ``verdict`` gives the same as data.
    """
    print(verdict(name, fn, reference)["message"])


def check_code(name: str, code: str, namespace: dict | None = None) -> dict:
    """Run the reader's code (in namespace, else a fresh one), then check the function
    it defines; the verdict as ``verdict`` gives it. The page's Check calls this.

    Code that raises, or defines no such function, is a failed verdict whose message
    says so (``error`` holds the error's last line).

    >>> check_code("merge", "def merge(tok, pair, new):\\n    return tok")["passed"]
    False
    >>> print(check_code("merge", "1/0")["message"])
    ✗ merge: your code raised ZeroDivisionError: division by zero
    """
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    function = function_name(name)
    try:
        exec(compile(code, f"<exercise {name}>", "exec"), namespace)
    except Exception as error:  # the reader's mistake is a verdict, not a crash
        said = f"{type(error).__name__}: {error}"
        return failed(name, f"✗ {name}: your code raised {said}", said)
    if not callable(namespace.get(function)):
        return failed(name, f"✗ {name}: your code defines no function {function}()")
    return verdict(name, namespace[function])


def failed(name: str, message: str, error: str = "") -> dict:
    """A verdict for code that could not be checked at all."""
    return dict(name=name, passed=False, error=error, message=message)
