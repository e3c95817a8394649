"""One number for one chapter: the number in its file name.

A chapter's title starts with its file's number (``04_counting_and_merging`` is
"# 4. Counting and merging"), the back matter (98, 99) has no number, and every
"chapter N" a reader sees (in the chapters' prose and outputs, the book's pages, the
widgets' and the page's Python's messages) is a link to chapter N's page. Plain text
(a printed line, a hint) cannot link: there N only has to be a chapter's number, as
the reader sees it, without a leading zero.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CHAPTER = re.compile(r"\b[Cc]hapter\s+(\d+)\b")

# The three ways a page links another: Markdown, MyST's {doc} role, HTML.
LINKS = (
    re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)[^)]*\)"),
    re.compile(r"\{doc\}`(?P<text>[^`<]*)<(?P<target>[^>`]+)>`"),
    re.compile(
        r"<a\b[^>]*\bhref=[\"'](?P<target>[^\"']*)[\"'][^>]*>(?P<text>.*?)</a>", re.S
    ),
)


def pages() -> list[Path]:
    """Every chapter and back-matter page in notebooks/, in file order."""
    return sorted(
        p for p in NOTEBOOKS.glob("[0-9][0-9]_*") if p.suffix in (".ipynb", ".md")
    )


CHAPTERS = {int(p.name[:2]): p for p in pages() if int(p.name[:2]) < 98}


def markdown_of(page: Path) -> list[str]:
    """A page's Markdown: the file, or a notebook's Markdown cells in order."""
    if page.suffix == ".md":
        return [page.read_text(encoding="utf-8")]
    cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def title(page: Path) -> str:
    """The page's first level-1 heading."""
    for text in markdown_of(page):
        for line in text.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    raise AssertionError(f"{page.name} has no title")


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_title_carries_the_file_number(page):
    number = int(page.name[:2])
    heading = title(page)
    if number >= 98:
        assert not re.match(r"\d", heading), f"back matter is not numbered: {heading!r}"
    else:
        assert heading.startswith(f"{number}. "), (
            f"{page.name}'s title {heading!r} should start with {number}. "
        )


def link_problem(text: str, match: re.Match) -> str | None:
    """Why the "chapter N" at match is not a link to chapter N, or None if it is."""
    digits = match.group(1)
    number = int(digits)
    if digits != str(number):
        return f"{match.group()!r}: a chapter's number has no leading zero"
    if number not in CHAPTERS:
        return f"{match.group()!r}: no chapter has that number"
    for pattern in LINKS:
        for link in pattern.finditer(text):
            if link.start("text") <= match.start() and match.end() <= link.end("text"):
                target = link.group("target").split("#")[0].rsplit("/", 1)[-1]
                stem = target.rsplit(".", 1)[0] if "." in target else target
                wanted = CHAPTERS[number].stem
                if stem == wanted:
                    return None
                return f"{match.group()!r} links to {target!r}, not {wanted}"
    return f"{match.group()!r} is not a link to {CHAPTERS[number].stem}"


def problems(text: str, where: str) -> list[str]:
    """Each "chapter N" in text that is not a link to chapter N."""
    found = []
    for match in CHAPTER.finditer(text):
        problem = link_problem(text, match)
        if problem:
            found.append(f"{where}: {problem}")
    return found


def notebook_texts(page: Path) -> list[tuple[str, str, bool]]:
    """(where, text, can link) for a page: Markdown, HTML outputs, printed outputs."""
    if page.suffix == ".md":
        return [(page.name, page.read_text(encoding="utf-8"), True)]
    texts = []
    cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
    for n, cell in enumerate(cells):
        where = f"{page.name} cell {n}"
        if cell["cell_type"] == "markdown":
            texts.append((where, "".join(cell["source"]), True))
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:  # what the page shows; its scripts are code
                shown = re.sub(
                    r"<script\b.*?</script>", "", "".join(data["text/html"]), flags=re.S
                )
                texts.append((where + " output", shown, True))
            else:
                printed = "".join(output.get("text", data.get("text/plain", "")))
                texts.append((where + " output", printed, False))
    return texts


def number_problems(text: str, where: str) -> list[str]:
    """For printed text, which cannot link: each "chapter N" names a real chapter N."""
    found = []
    for match in CHAPTER.finditer(text):
        problem = link_problem("", match)
        if problem and "is not a link" not in problem:
            found.append(f"{where}: {problem}")
    return found


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_chapters_link_the_chapters_they_name(page):
    found = []
    for where, text, can_link in notebook_texts(page):
        found += problems(text, where) if can_link else number_problems(text, where)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "page", sorted((ROOT / "book").glob("*.md")), ids=lambda p: p.name
)
def test_book_pages_link_the_chapters_they_name(page):
    found = problems(page.read_text(encoding="utf-8"), page.name)
    assert not found, "\n".join(found)


def python_strings(path: Path) -> list[str]:
    """A module's string constants, docstrings left out (they are not on a page)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        )
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def without_js_comments(source: str) -> str:
    """JavaScript with its comments taken out (a URL's // is kept)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return re.sub(r"(?<![:\"'\\])//.*", "", source)


WIDGETS = sorted(  # the package's book helpers, and the site's own scripts
    p
    for folder in (ROOT / "bpe" / "book",)
    for p in folder.rglob("*")
    if p.suffix in (".py", ".js")
)


HTML = re.compile(r"<[a-zA-Z/]")  # a tag: text a page shows as HTML, where links work


def widget_problems(text: str, where: str) -> list[str]:
    """Every "chapter N" of a string that holds HTML must be a link; a plain message
    (printed, or a hint) only has to name a real chapter N."""
    return problems(text, where) if HTML.search(text) else number_problems(text, where)


@pytest.mark.parametrize("path", WIDGETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_widgets_link_the_chapters_they_name(path):
    name = str(path.relative_to(ROOT))
    if path.suffix == ".py":
        texts = python_strings(path)
        found = [problem for text in texts for problem in widget_problems(text, name)]
    else:
        found = js_problems(without_js_comments(path.read_text(encoding="utf-8")), name)
    assert not found, "\n".join(found)


def js_problems(source: str, where: str) -> list[str]:
    """widget_problems for JavaScript: the match's line says whether it is HTML, and
    the link is looked for in the whole source (an <a> may span a template's lines)."""
    found = []
    for match in CHAPTER.finditer(source):
        start = source.rfind("\n", 0, match.start()) + 1
        end = source.find("\n", match.end())
        html = bool(HTML.search(source[start : end if end >= 0 else len(source)]))
        problem = link_problem(source if html else "", match)
        if problem and (html or "is not a link" not in problem):
            found.append(f"{where}: {problem}")
    return found


def test_the_checks_catch_what_they_are_for():
    assert problems("see [chapter 4](04_counting_and_merging.ipynb)", "x") == []
    assert (
        problems("{doc}`chapter 4 <../notebooks/04_counting_and_merging>`", "x") == []
    )
    assert problems('as in <a href="05_encoding.html#x">chapter 5</a>', "x") == []
    assert problems("see chapter 4", "x")
    assert problems("see [chapter 4](05_encoding.ipynb)", "x")
    assert problems('as in <a href="05_encoding.html">chapter 05</a>', "x")
    assert problems("chapter 40", "x")
    assert widget_problems("<p>as in chapter 5</p>", "x")
    assert widget_problems("Check chapter 4's train first", "x") == []
    assert widget_problems("Check chapter 04's train first", "x")
    assert python_strings(Path(__file__))  # this module's own strings are found
    assert js_problems('x = `<a href="05_encoding.html">\n  chapter 5</a>`', "x") == []
    assert js_problems("x = `<p>as in\n  chapter 5 <b>here</b>`", "x")
    assert js_problems('alert("see chapter 5")', "x") == []
    assert without_js_comments('a("chapter 1"); // chapter 2\n/* chapter 3 */') == (
        'a("chapter 1"); \n'
    )
