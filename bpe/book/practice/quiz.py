"""A chapter's quiz: its questions are the chapter's, written in its quiz cell.

A quiz cell reads, in the chapter itself::

    Quiz("04", '''
    - id: 04-overlap
      question: Merge the pair (a, a) in the tokens a a a. What comes out?
      options:
      - text: aa a
        why: "Right: read from the left, ..."
        correct: true
      - text: aa aa
        why: "The middle a would be used twice: matches may not overlap."
    ''')

Each question has its options, exactly one of them ``correct``, and a short
explanation (``why``) for every option, so that a wrong choice is told why it is
wrong; ``lesson: true`` marks one of the lesson's own questions. This module holds
no question: it reads them (``parse``) and shows them. ``Quiz`` shows them as HTML
in a notebook's output (the page makes the options clickable and grades a choice
from the HTML alone: ``bpe/book/site/static/live/practice.js``) and as plain text;
without the page's script, a drop-down under each question gives the answer.

>>> quiz = Quiz("04", '''
... - id: 04-x
...   question: What is 1 + 1?
...   options:
...   - {text: '2', why: 'Right: one and one.', correct: true}
...   - {text: '3', why: One too many.}
... ''')
>>> print(repr(quiz))
Quiz, chapter 4: 1 questions (the right option starred)
Q1. What is 1 + 1?
  * a) 2
    b) 3
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Question:
    """One multiple-choice question; ``why`` explains each option, in order."""

    id: str
    chapter: str
    question: str
    options: tuple[str, ...]
    answer: int  # index of the right option
    why: tuple[str, ...]
    lesson: bool = False  # one of the lesson's own four questions


def parse(chapter: str, text: str) -> list[Question]:
    """The questions of a quiz cell's text (YAML: a list of questions)."""
    import yaml  # PyYAML: the book's, not the core's

    items = yaml.safe_load(text)
    if not isinstance(items, list) or not items:
        raise ValueError(f"chapter {chapter}'s quiz is not a list of questions")
    return [question(chapter, item) for item in items]


def question(chapter: str, item: Any) -> Question:
    """One question of a quiz cell, checked: every option explained, one right."""
    try:
        options = item["options"]
        right = [i for i, o in enumerate(options) if o.get("correct")]
        q = Question(
            id=str(item["id"]),
            chapter=chapter,
            question=str(item["question"]),
            options=tuple(str(o["text"]) for o in options),
            answer=right[0] if len(right) == 1 else -1,
            why=tuple(str(o["why"]) for o in options),
            lesson=bool(item.get("lesson", False)),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(
            f"a question of chapter {chapter}'s quiz lacks {error}: each has an id, "
            "a question and options, each option a text and a why"
        ) from None
    if q.answer < 0:
        raise ValueError(f"{q.id}: mark exactly one option correct, not {len(right)}")
    return q


LETTERS = "abcdefgh"
WIDTH = 88  # the book's line width: no printed line is cut off


def question_html(number: int, q: Question) -> str:
    """One question: its options as buttons, an explanation (hidden) under each."""
    e = html.escape
    options = "".join(
        f'<li><button type="button" class="bpe-quiz-option" data-option="{i}">'
        f"{e(option)}</button>"
        f'<p class="bpe-quiz-why" data-why="{i}" hidden>{e(q.why[i])}</p></li>'
        for i, option in enumerate(q.options)
    )
    key = f"({LETTERS[q.answer]}) {q.options[q.answer]}. {q.why[q.answer]}"
    attributes = f'data-quiz="{e(q.id)}" data-answer="{q.answer}"'
    return (
        f'<div class="bpe-quiz-question" {attributes}>'
        f'<p class="bpe-quiz-text"><strong>Q{number}.</strong> {e(q.question)}</p>'
        f'<ol class="bpe-quiz-options" type="a">{options}</ol>'
        f'<details class="bpe-quiz-key"><summary>Answer</summary><p>{e(key)}</p>'
        "</details></div>"
    )


def question_text(number: int, q: Question) -> str:
    """One question as plain text, the right option starred."""
    lines = textwrap.wrap(f"Q{number}. {q.question}", WIDTH, subsequent_indent="    ")
    for i, option in enumerate(q.options):
        mark = "*" if i == q.answer else " "
        lines += textwrap.wrap(
            f"  {mark} {LETTERS[i]}) {option}", WIDTH, subsequent_indent="       "
        )
    return "\n".join(lines)


class Quiz:
    """A chapter's questions (``parse``'s text), shown in a notebook's output."""

    def __init__(self, chapter: str, text: str):
        self.chapter = chapter
        self.questions = parse(chapter, text)

    def _repr_html_(self) -> str:
        shown = "".join(question_html(n, q) for n, q in enumerate(self.questions, 1))
        return f'<div class="bpe-quiz" data-quiz-chapter="{self.chapter}">{shown}</div>'

    def __repr__(self) -> str:
        n = len(self.questions)
        number = int(self.chapter)  # chapter 4, not 04 (file 04_...)
        head = f"Quiz, chapter {number}: {n} questions (the right option starred)"
        body = [question_text(n, q) for n, q in enumerate(self.questions, 1)]
        return "\n".join([head, *body])
