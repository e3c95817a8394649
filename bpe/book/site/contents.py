"""The intro's lists of chapters, read from ``_toc.yml`` when the site is built.

A Sphinx extension (listed in ``_config.yml``). In a page, the directive

    ```{part-chapters} Building a tokenizer
    ```

becomes the list of that part's chapters (its ``notebooks/`` entries), in the
table of contents' order, each a link showing the chapter's own title. So a
chapter added to ``_toc.yml`` is listed in the intro with no second edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx

CHAPTERS = "notebooks/"  # a toc entry under this folder is a chapter


def part_chapters(toc: dict, caption: str) -> list[str]:
    """The chapter files of the part with this caption, in order.

    >>> toc = {"parts": [{"caption": "A", "chapters": [{"file": "notebooks/00_x"},
    ...                                                {"file": "book/y"}]}]}
    >>> part_chapters(toc, "A")
    ['notebooks/00_x']
    """
    captions = [part.get("caption") for part in toc.get("parts", [])]
    if caption not in captions:
        raise ValueError(f"_toc.yml has no part {caption!r}; it has {captions}")
    part = toc["parts"][captions.index(caption)]
    files = [entry.get("file", "") for entry in part.get("chapters", [])]
    return [f for f in files if f.startswith(CHAPTERS)]


def read_toc(folder: Path) -> dict:
    import yaml

    return yaml.safe_load((folder / "_toc.yml").read_text(encoding="utf-8"))


class PartChapters(SphinxDirective):
    """``{part-chapters} CAPTION``: a bullet list linking that part's chapters."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        toc = read_toc(Path(self.env.srcdir))
        self.env.note_dependency(str(Path(self.env.srcdir) / "_toc.yml"))
        listed = nodes.bullet_list()
        for file in part_chapters(toc, self.arguments[0]):
            link = addnodes.pending_xref(
                "",
                refdomain="std",
                reftype="doc",
                reftarget=f"/{file}",
                refexplicit=False,  # the link shows the chapter's title
                refwarn=True,
                refdoc=self.env.docname,
            )
            link += nodes.inline("", file)
            listed += nodes.list_item("", nodes.paragraph("", "", link))
        return [listed]


def setup(app: Sphinx) -> dict:
    app.add_directive("part-chapters", PartChapters)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
