"""The Sphinx extension that puts the page's Python on the site's pages.

Listed in ``_config.yml`` (``sphinx.extra_extensions``). It gives every notebook
cell on the page the id ``cell-N`` (N: its index in the notebook), and adds to each
chapter, to the console page and to the intro ``live.js`` and ``live.css`` (the
site's own files, in bpe/book/site/static/live/, served as ``_static/live`` beside the
archive that ``make book`` writes there: ``SCRIPTS``, ``STYLES``) and a small JSON
document that ``live.js`` reads: which cells have a Run button (the tag ``live``),
the source of the hidden cells they need, and for every other visible code cell the
reason, from its metadata, that the page shows under it, and the imports of it that
the page runs in its place (``marks.py`` writes them).
Python itself loads only when a Run or Check button comes into view or is
pointed at, or on the first Run (``startSoon`` in live.js): never on a page
without such a button.

For the exercises and quizzes (``practice.js``, ``practice.css``): a cell with the
metadata ``"exercise": NAME`` (its tag is ``exercise``) is listed with its name and
its code, the starter that Reset puts back; every chapter's JSON also lists the
exercises (name, chapter) and each chapter's address, for the progress line, which
the intro (``PROGRESS_PAGES``) shows too. A quiz needs nothing here: its stored
HTML (``bpe.book.practice.quiz.Quiz``) carries it all.

It also makes every figure on a chapter's page a link to its own image
(``link_figures``): on a phone a chart is drawn narrower than it was made, its
text too small to read, and a tap opens it full size.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from bpe.book.page.session import CONSOLE_SETUP
from bpe.book.site.archive import ARCHIVE, PYODIDE, PYODIDE_FILES, ROOT, SNAPSHOT
from bpe.book.site.classify import IMPORTS_KEY, LIVE_TAG, REASON_KEY, hidden
from bpe.book.site.numbers import CHAPTER_FILE

if TYPE_CHECKING:
    from sphinx.application import Sphinx

CONSOLE = "book/console"
# Prose pages with no cells that show the exercises' progress line (and load no Python).
PROGRESS_PAGES = ("book/intro",)
GENERATED = ROOT / "_build" / "generated" / "live"
EXERCISE_KEY = "exercise"  # a cell's metadata: the exercise its code starts
# The page's scripts and style sheets: the site's own files, in
# bpe/book/site/static/live/, served as _static/live/ (live.js before practice.js,
# which uses it).
SCRIPTS = ("live/live.js", "live/practice.js")
STYLES = ("live/live.css", "live/practice.css")


def mark_cells(app: Sphinx, doctree: nodes.document) -> None:
    """Give each notebook cell's container the id cell-N."""
    for node in doctree.findall(nodes.container):
        if node.get("nb_element") == "cell_code" and node.get("cell_index") is not None:
            node["ids"].append(f"cell-{node['cell_index']}")


def download_bytes() -> int:
    """What Python's start downloads: Pyodide's files, the book's archive and the
    memory snapshot Python starts from."""
    files = [PYODIDE / name for name in PYODIDE_FILES]
    files += [GENERATED / ARCHIVE, GENERATED / SNAPSHOT]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(
            f"the page's Python needs {', '.join(missing)}: run `make book`"
        )
    return sum(f.stat().st_size for f in files)


def cells_of(path: Path) -> list[dict]:
    """What live.js needs to know of each code cell of a notebook."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        metadata = cell.get("metadata", {})
        tags = metadata.get("tags", [])
        entry = {"index": index, "live": LIVE_TAG in tags, "hidden": hidden(tags)}
        if entry["live"] and entry["hidden"]:
            entry["source"] = "".join(cell["source"])  # not on the page: carried here
        if metadata.get(EXERCISE_KEY):  # an exercise: practice.js makes it editable
            entry["exercise"] = metadata[EXERCISE_KEY]
            entry["source"] = "".join(cell["source"])  # the starter, for Reset
        if not entry["live"] and not entry["hidden"]:
            entry["reason"] = metadata.get(REASON_KEY)
        if not entry["live"] and metadata.get(IMPORTS_KEY):
            entry["imports"] = metadata[IMPORTS_KEY]
        found.append(entry)
    return found


def page_data(app: Sphinx, pagename: str, context: dict) -> dict | None:
    """The JSON for live.js on one page, or None for a page that has neither Python
    nor the progress line."""
    is_console = pagename == CONSOLE
    is_chapter = pagename.startswith("notebooks/")
    progress_only = pagename in PROGRESS_PAGES
    if not (is_console or is_chapter or progress_only):
        return None
    data = {
        "page": pagename,
        "static": context["pathto"]("_static/", 1),
        "console": context["pathto"](CONSOLE),
        "megabytes": round(download_bytes() / 1e6, 1),
        "cells": [],
    }
    if is_console:
        data["console_setup"] = CONSOLE_SETUP
    if is_chapter or progress_only:
        data.update(progress_data(app, context), progress_only=progress_only)
        path = Path(app.env.doc2path(pagename))
        if path.suffix == ".ipynb":
            data["cells"] = cells_of(path)
            metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
            data["reason"] = metadata.get(REASON_KEY)
    return data


def progress_data(app: Sphinx, context: dict) -> dict:
    """The exercises (name, chapter) and each chapter's address: the progress line."""
    from bpe.book.practice import exercises

    found = [dict(name=e["name"], chapter=e["chapter"]) for e in exercises()]
    chapters = {}
    for docname in sorted(app.env.found_docs):
        found_number = CHAPTER_FILE.search(docname)  # its file number
        if found_number:
            chapters[found_number.group(1)] = context["pathto"](docname)
    return {"exercises": found, "chapters": chapters}


# An image Sphinx copied into _images/ (a cell's figure), with its source address.
FIGURE = re.compile(r'<img\b[^>]*\bsrc="([^"]*_images/[^"]+)"[^>]*>')
FIGURE_LINK = '<a class="bpe-figure" href="{src}" title="Open the figure full size">'


def link_figures(body: str) -> str:
    """The page's HTML, each figure not already inside a link wrapped in one to it."""

    def wrap(found: re.Match) -> str:
        before = body[: found.start()]
        if before.rfind("<a ") > before.rfind("</a>"):  # inside a link already
            return found.group()
        return FIGURE_LINK.format(src=found.group(1)) + found.group() + "</a>"

    return FIGURE.sub(wrap, body)


def add_live(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict,
    doctree: nodes.document | None,
) -> None:
    if pagename.startswith("notebooks/") and "body" in context:
        context["body"] = link_figures(context["body"])
    data = page_data(app, pagename, context)
    if data is None:
        return
    body = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    app.add_js_file(None, body=body, type="application/json", id="bpe-live-data")
    for script in SCRIPTS:
        app.add_js_file(script, loading_method="defer")
    for style in STYLES:
        app.add_css_file(style)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", mark_cells)
    app.connect("html-page-context", add_live)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
