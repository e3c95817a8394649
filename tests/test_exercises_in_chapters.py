"""Every exercise and every quiz is in its chapter, as the page needs it.

Each exercise of bpe.book.practice has, in its chapter (notebooks 00-07, 20): one
starter cell tagged ``exercise`` with metadata ``"exercise": NAME`` (its code is
the starter, written there only), then a visible cell that calls ``check`` and
stores the starter's failing verdict, and later a solution cell whose stored
output is a pass. Each chapter's quiz is one hidden cell, ``Quiz(chapter, text)``,
whose text holds the questions and whose stored HTML is what that text gives.
"""

from __future__ import annotations

import html
import re

import pytest
from chapter_cells import chapter_cells, quiz_call, quiz_questions, source, starter

from bpe.book.practice import EXERCISES, check_code, function_name, verdict
from bpe.book.practice.quiz import Quiz

QUESTIONS = quiz_questions()
CHAPTERS = sorted({ex.chapter for ex in EXERCISES} | {q.chapter for q in QUESTIONS})


def printed(cell: dict) -> str:
    return "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))


def test_the_chapters_hold_every_exercise_and_question():
    assert CHAPTERS == [*(f"{n:02}" for n in range(8)), "20"]


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.name)
def test_exercise_is_in_its_chapter(ex):
    cells = chapter_cells(ex.chapter)
    starters = [
        i
        for i, c in enumerate(cells)
        if c["cell_type"] == "code" and c["metadata"].get("exercise") == ex.name
    ]
    assert len(starters) == 1, f"{ex.name}: one starter cell in chapter {ex.chapter}"
    here = cells[starters[0]]
    assert "exercise" in here["metadata"].get("tags", [])
    assert f"def {function_name(ex.name)}(" in source(here)
    call = f'check("{ex.name}", {function_name(ex.name)})'
    after = cells[starters[0] + 1]
    assert after["cell_type"] == "code" and source(after).endswith(call)
    # the verdict alone: check() returns nothing for the notebook to show under it
    assert [o["output_type"] for o in after["outputs"]] == ["stream"]
    assert not set(after["metadata"].get("tags", [])) & {"remove-input", "remove-cell"}
    # The stored verdict is the starter's (a starter that passed would teach nothing).
    if ex.name != "gpt2_ids":  # (its verdict loads GPT-2: checked in the notebook run)
        result = check_code(ex.name, starter(ex.name))
        assert not result["passed"]
        assert printed(after) == result["message"] + "\n"
    solutions = [c for c in cells[starters[0] + 2 :] if source(c).endswith(call)]
    assert solutions, f"{ex.name}: no solution cell after the check"
    assert printed(solutions[0]).startswith(f"✓ {ex.name}: right")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_quiz_is_in_its_chapter(chapter):
    shown = [c for c in chapter_cells(chapter) if quiz_call(c)]
    assert len(shown) == 1
    assert quiz_call(shown[0])[0] == chapter
    assert "remove-input" in shown[0]["metadata"].get("tags", [])
    (output,) = shown[0]["outputs"]
    assert (
        "".join(output["data"]["text/html"]) == Quiz(*quiz_call(shown[0]))._repr_html_()
    )


def test_quiz_html_carries_what_the_page_needs():
    for chapter in CHAPTERS:
        (call,) = filter(None, map(quiz_call, chapter_cells(chapter)))
        page = Quiz(*call)._repr_html_()
        for q in QUESTIONS:
            if q.chapter != chapter:
                continue
            block = page.split(f'data-quiz="{q.id}"', 1)[1].split("bpe-quiz-key")[0]
            assert f'data-answer="{q.answer}"' in block
            options = re.findall(r'data-option="(\d+)">([^<]*)<', block)
            assert options == [
                (str(i), html.escape(o)) for i, o in enumerate(q.options)
            ]
            whys = re.findall(r'data-why="(\d+)" hidden>([^<]*)<', block)
            assert whys == [(str(i), html.escape(w)) for i, w in enumerate(q.why)]


def test_check_code():
    assert check_code("merge", starter("merge"))["passed"] is False
    from bpe.trainer import merge

    namespace = {"merge": merge}
    assert check_code("merge", "pass", namespace) == verdict("merge", merge)
    broken = check_code("merge", "def merge(:")
    assert not broken["passed"] and "SyntaxError" in broken["message"]
    nothing = check_code("eight_merges", "x = 1")
    assert nothing["message"] == "✗ eight_merges: your code defines no function train()"
