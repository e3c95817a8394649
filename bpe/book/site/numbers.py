"""Exercise and figure numbers from a chapter's file name (a Sphinx extension).

A chapter's number is its file's: notebooks/04_counting_and_merging is chapter 4,
and its title says so. Sphinx numbers no chapter (``_toc.yml`` has no ``numbered``),
so on its own it would count exercises across the whole book (Exercise 1, 2, ...,
23). After Sphinx has numbered them, this sets each chapter's exercises (and any
numbered figure or table) to chapter.position: chapter 4's first exercise is 4.1.
The back matter (98, 99) and the pages in book/ keep Sphinx's numbers.
"""

from __future__ import annotations

import re
from typing import Any

CHAPTER_FILE = re.compile(r"(?:^|/)notebooks/(\d\d)_[^/]*$")


def chapter_number(docname: str) -> int | None:
    """The chapter number of a Sphinx document, None if it is not a chapter.

    >>> chapter_number("notebooks/04_counting_and_merging")
    4
    >>> chapter_number("book/intro") is None
    True
    >>> chapter_number("notebooks/99_reproducibility_ledger") is None
    True
    """
    match = CHAPTER_FILE.search(docname)
    return int(match.group(1)) if match and int(match.group(1)) < 98 else None


def by_chapter(
    fignumbers: dict[str, dict[str, dict[str, tuple[int, ...]]]],
) -> dict[str, dict[str, dict[str, tuple[int, ...]]]]:
    """Sphinx's {doc: {figtype: {id: number}}}, chapters' numbers made (chapter, k).

    >>> numbers = by_chapter({"notebooks/04_x": {"exercise": {"b": (9,), "a": (8,)}},
    ...                       "book/intro": {"figure": {"f": (3,)}}})
    >>> numbers["notebooks/04_x"], numbers["book/intro"]
    ({'exercise': {'a': (4, 1), 'b': (4, 2)}}, {'figure': {'f': (3,)}})
    """
    renumbered = {}
    for docname, types in fignumbers.items():
        chapter = chapter_number(docname)
        if chapter is None:
            renumbered[docname] = types
            continue
        renumbered[docname] = {
            figtype: {
                key: (chapter, k)
                for k, key in enumerate(sorted(ids, key=ids.__getitem__), start=1)
            }
            for figtype, ids in types.items()
        }
    return renumbered


def renumber(app: Any, env: Any) -> list[str]:
    """Sphinx's env-get-updated hook, run after Sphinx has assigned its numbers."""
    env.toc_fignumbers = by_chapter(env.toc_fignumbers)
    return []


def setup(app: Any) -> dict[str, Any]:
    # After the toctree collector (priority 500), which assigns toc_fignumbers.
    app.connect("env-get-updated", renumber, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
