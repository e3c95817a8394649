"""The exercises' checks in the page's Python (Pyodide under Node, marks.PagePython):
the same verdict as CPython, fast enough for a Check button.

The page's Check runs ``check_code`` on the reader's code in the page's namespace;
here it runs on plausible wrong answers, the starters and the book's own functions,
and each verdict must equal, key for key, what CPython gives for the same code.
"""

from __future__ import annotations

import os
import shutil

import pytest
from chapter_cells import starter

from bpe.book.practice import EXERCISES, check_code

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("CI"),
    reason="Node.js is not installed",
)

CHECK = """
import json, time
from bpe.book.page import session as page
job = json.loads(job_input)
if job.get("fresh"):
    page.reset()  # a new page: nothing defined yet
began = time.perf_counter()
from bpe.book.practice import check_code
result = check_code(job["name"], job["code"], page.namespace)
result["seconds"] = time.perf_counter() - began
json.dumps(result)
"""
BOOKS = "from bpe.trainer import merge\n"
QUICK = [ex.name for ex in EXERCISES if ex.name != "gpt2_ids"]  # gpt2_ids loads GPT-2


def in_page(page_python, name: str, code: str, fresh=False) -> tuple[dict, float]:
    result = page_python.ask(CHECK, {"name": name, "code": code, "fresh": fresh})
    return result, result.pop("seconds")


def test_a_wrong_then_a_right_merge_as_in_cpython(page_python, overlapping_merge):
    first, first_seconds = in_page(page_python, "merge", overlapping_merge)
    assert first == check_code("merge", overlapping_merge)
    assert not first["passed"] and first["case"]["tok"] == "(b'a', b'a', b'a')"
    again, again_seconds = in_page(page_python, "merge", overlapping_merge)
    assert again == first
    right, _ = in_page(page_python, "merge", BOOKS)
    assert right["passed"] and right == check_code("merge", BOOKS)
    # How long they took is printed, never judged: a busy machine decides no verdict.
    print(f"Check in Pyodide: first {first_seconds:.3f} s, then {again_seconds:.3f} s")


@pytest.mark.parametrize("name", QUICK)
def test_every_starter_fails_in_the_page_as_in_cpython(page_python, name):
    result, _ = in_page(page_python, name, starter(name))
    assert result == check_code(name, starter(name))
    assert not result["passed"]


def test_code_that_raises_or_defines_nothing_is_a_verdict(page_python):
    raised, _ = in_page(page_python, "merge", "def merge(:")
    assert not raised["passed"] and "SyntaxError" in raised["message"]
    nothing, _ = in_page(page_python, "eight_merges", "x = 1", fresh=True)
    assert nothing == check_code("eight_merges", "x = 1")
