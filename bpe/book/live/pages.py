"""The Sphinx extension that puts the page's Python on the site's pages.

Listed in ``_config.yml`` (``sphinx.extra_extensions``). It gives every notebook
cell on the page the id ``cell-N`` (N: its index in the notebook), and adds to each
chapter and to the console page ``live.js`` and ``live.css`` (``make book`` copies
them, with the archive, into ``_static/live``) and a small JSON document that
``live.js`` reads: which cells have a Run button (the tag ``live``), the source of
the hidden cells they need, and for every other visible code cell the reason,
from its metadata, that the page shows under it, and the imports of it that the
page runs in its place (``marks.py`` writes them).
Python itself is loaded only on the first Run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from .archive import ARCHIVE, PYODIDE_FILES, ROOT
from .classify import IMPORTS_KEY, LIVE_TAG, REASON_KEY, hidden
from .page import CONSOLE_SETUP

if TYPE_CHECKING:
    from sphinx.application import Sphinx

PYODIDE = ROOT / "vendor" / "pyodide"
CONSOLE = "book/console"
GENERATED = ROOT / "_build" / "generated" / "live"


def mark_cells(app: Sphinx, doctree: nodes.document) -> None:
    """Give each notebook cell's container the id cell-N."""
    for node in doctree.findall(nodes.container):
        if node.get("nb_element") == "cell_code" and node.get("cell_index") is not None:
            node["ids"].append(f"cell-{node['cell_index']}")


def download_bytes() -> int:
    """What the first Run downloads: Pyodide's files and the book's archive."""
    files = [PYODIDE / name for name in PYODIDE_FILES] + [GENERATED / ARCHIVE]
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
        if not entry["live"] and not entry["hidden"]:
            entry["reason"] = metadata.get(REASON_KEY)
        if not entry["live"] and metadata.get(IMPORTS_KEY):
            entry["imports"] = metadata[IMPORTS_KEY]
        found.append(entry)
    return found


def page_data(app: Sphinx, pagename: str, context: dict) -> dict | None:
    """The JSON for live.js on one page, or None for pages without Python."""
    is_console = pagename == CONSOLE
    is_chapter = pagename.startswith("notebooks/")
    if not (is_console or is_chapter):
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
    if is_chapter:
        path = Path(app.env.doc2path(pagename))
        if path.suffix == ".ipynb":
            data["cells"] = cells_of(path)
            metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
            data["reason"] = metadata.get(REASON_KEY)
    return data


def add_live(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict,
    doctree: nodes.document | None,
) -> None:
    data = page_data(app, pagename, context)
    if data is None:
        return
    body = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    app.add_js_file(None, body=body, type="application/json", id="bpe-live-data")
    app.add_js_file("live/live.js", loading_method="defer")
    app.add_css_file("live/live.css")


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", mark_cells)
    app.connect("html-page-context", add_live)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
