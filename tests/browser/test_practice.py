"""Learn by doing, in a real browser with no network: an exercise checked in the page's
Python (a wrong answer, then a right one), kept across a reload and put back by Reset,
and a quiz question answered, explained and remembered.

Chapter 4's ``merge`` is the exercise: its first wrong answer merges overlapping
pairs, as the chapter warns. The page's Python starts on the first Check.
"""

import time

import pytest
from chapter_cells import starter

from bpe.book.practice import check_code, exercises

from .conftest import SHOTS, errors_on, offline_context

CHAPTER = "notebooks/04_counting_and_merging.html"
STARTS = 120_000  # ms: Python's first start, from a cold cache on a busy machine
STARTER = starter("merge").rstrip("\n")  # as the notebook's cell holds it
RIGHT = '''def merge(tok, pair, new):
    """tok with every non-overlapping pair, scanned from the left, made one token."""
    out, i = [], 0
    while i < len(tok):
        if tok[i : i + 2] == pair:
            out.append(new)
            i += 2
        else:
            out.append(tok[i])
            i += 1
    return tuple(out)
'''


def check_and_wait(page, exercise, code, timeout):
    """Type code into the exercise, press Check, wait for a new verdict: (verdict
    element, seconds from the click, seconds the page says the check took)."""
    exercise.locator("textarea.bpe-exercise-code").fill(code)
    verdict = exercise.locator(".bpe-verdict")
    before = verdict.get_attribute("data-checks") or "0"
    began = time.perf_counter()
    exercise.locator(".bpe-exercise-check").click()
    page.wait_for_function(
        "([node, before]) => (node.dataset.checks ?? '0') !== before",
        arg=[verdict.element_handle(), before],
        timeout=timeout,
    )
    seconds = float(verdict.get_attribute("data-seconds"))
    return verdict, time.perf_counter() - began, seconds


@pytest.mark.parametrize("width", (1280, 390))
def test_an_exercise_fails_then_passes_and_is_kept(
    browser, site_url, width, overlapping_merge
):
    context = offline_context(browser, site_url, width=width)
    page = context.new_page()
    errors = errors_on(page)
    page.goto(f"{site_url}/{CHAPTER}")
    exercise = page.locator('[data-exercise="merge"]')
    code = exercise.locator("textarea.bpe-exercise-code")
    assert code.input_value() == STARTER

    verdict, _, first = check_and_wait(page, exercise, overlapping_merge, STARTS)
    assert verdict.get_attribute("data-verdict") == "fail"
    expected = check_code("merge", overlapping_merge)
    shown = verdict.inner_text()
    for part in (expected["case"]["tok"], expected["expected"], expected["actual"]):
        assert part in shown
    assert expected["hint"].split(":")[0] in shown  # the hint ("Overlap: ...")

    verdict, wall, second = check_and_wait(page, exercise, RIGHT, 30_000)
    assert verdict.get_attribute("data-verdict") == "pass"
    assert "✓ merge" in verdict.inner_text()
    print(
        f"Check at {width} px: first {first:.3f} s, second {second:.3f} s in Python, "
        f"second {wall:.3f} s from the click"
    )

    # The page never scrolls sideways, even with the code box and the verdict.
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    SHOTS.mkdir(parents=True, exist_ok=True)
    exercise.screenshot(path=str(SHOTS / f"exercise-merge@{width}.png"))

    # Kept across a reload (the code, and the progress line counts the pass) ...
    page.reload()
    exercise = page.locator('[data-exercise="merge"]')
    assert exercise.locator("textarea.bpe-exercise-code").input_value() == RIGHT
    progress = page.locator("[data-progress]")
    assert progress.locator('[data-chapter="04"]').inner_text().strip() == "1/3"
    # A later slip shows its verdict but keeps the pass, across a reload too ...
    verdict, _, _ = check_and_wait(page, exercise, "def merge(:", 30_000)
    assert verdict.get_attribute("data-verdict") == "fail"
    assert progress.locator('[data-chapter="04"]').inner_text().strip() == "1/3"
    page.reload()
    exercise = page.locator('[data-exercise="merge"]')
    progress = page.locator("[data-progress]")
    assert progress.locator('[data-chapter="04"]').inner_text().strip() == "1/3"
    # ... until Reset puts the starter back and the exercise starts over.
    exercise.locator(".bpe-exercise-reset").click()
    assert exercise.locator("textarea.bpe-exercise-code").input_value() == STARTER
    assert progress.locator('[data-chapter="04"]').inner_text().strip() == "0/3"
    page.reload()
    code = page.locator('[data-exercise="merge"] textarea.bpe-exercise-code')
    assert code.input_value() == STARTER
    assert not errors, errors
    context.close()


def test_a_quiz_answer_is_explained_and_kept(browser, site_url):
    context = offline_context(browser, site_url, width=1280)
    page = context.new_page()
    errors = errors_on(page)
    page.goto(f"{site_url}/{CHAPTER}")
    question = page.locator('[data-quiz="04-overlap"]')
    right = int(question.get_attribute("data-answer"))  # the chapter's data says
    wrong, other = (right + 1) % 3, (right + 2) % 3
    why = {i: question.locator(f'[data-why="{i}"]') for i in (right, wrong, other)}
    assert not question.locator(".bpe-quiz-key").is_visible()  # (Jupyter's drop-down)
    assert not why[wrong].is_visible()
    question.locator(f'[data-option="{wrong}"]').click()
    assert question.get_attribute("data-correct") == "false"
    assert why[wrong].is_visible()  # why that is wrong
    assert why[right].is_visible()  # and the right answer's why
    assert why[other].is_hidden()
    page.reload()
    question = page.locator('[data-quiz="04-overlap"]')
    assert question.get_attribute("data-chosen") == str(wrong)
    assert question.locator(f'[data-why="{wrong}"]').is_visible()
    question.locator(f'[data-option="{right}"]').click()
    assert question.get_attribute("data-correct") == "true"
    assert question.locator(f'[data-why="{wrong}"]').is_hidden()
    stored = page.evaluate("localStorage.getItem('bpe-book:quiz:04-overlap')")
    assert stored == str(right)
    assert not errors, errors
    context.close()


def test_the_intro_shows_the_exercises_progress(browser, site_url):
    """The progress line is on the intro too, under its title, linking each chapter."""
    context = offline_context(browser, site_url, width=1280)
    page = context.new_page()
    errors = errors_on(page)
    page.goto(f"{site_url}/book/intro.html")
    page.evaluate("localStorage.setItem('bpe-book:verdict:merge', 'pass')")
    page.reload()
    progress = page.locator("[data-progress]")
    assert progress.locator('[data-chapter="04"]').inner_text().strip() == "1/3"
    chapters = {e["chapter"] for e in exercises()}
    assert progress.locator("a").count() == len(chapters)
    title = page.locator("article.bd-article h1")
    assert progress.bounding_box()["y"] > title.bounding_box()["y"]
    assert (
        page.locator(".bpe-live-intro").count() == 0
    )  # no Run buttons here to explain
    progress.locator("a", has_text="chapter 4").click()
    page.wait_for_url(f"{site_url}/{CHAPTER}")
    assert not errors, errors
    context.close()
