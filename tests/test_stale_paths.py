"""Every file a docstring or comment names exists: no stale words about the layout.

The words read are the comments and docstrings of the package, the tests, the
benchmarks and the site's scripts (Python, JavaScript and CSS), the Makefile's
comments and the whole README. A
file name counts when it ends in one of ``EXTENSIONS``; it is looked for from the
repository's root, from the mentioning file's folder and the folders above it, and
from every folder of the package, the tests, the benchmarks, the chapters and the
book's pages (so ``cuts.py`` and ``scale/cuts.py`` both find ``bpe/scale/cuts.py``).
Names of files outside this repository are listed in ``ELSEWHERE``, each with why.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTENSIONS = ("py", "js", "mjs", "css", "ipynb", "md", "yml")
# a path-like word ending in a listed extension, not part of an address or a glob
NAME = re.compile(
    r"(?<![\w/.:*-])((?:[\w-]+/)*[\w-]+\.(?:" + "|".join(EXTENSIONS) + r"))(?![\w/*-])"
)
# Names that are not files of this repository, with why each is named.
ELSEWHERE = {
    "Node.js": "the JavaScript runtime's name, not a file",
    "notebooks/NN_name.ipynb": "the README's placeholder for a new chapter's file",
    "shared/data/SOURCES.md": "the data mirror's own list, beside the repository",
    "lib/regex.py": "the regex stand-in's path inside the page's archive (archive.py)",
    "DIFFERENCES.md": "a report the regex stand-in's tests write, not kept in git",
    "catalogue.js": "written by make book into the site, not kept in git",
    "_build/site_config.yml": "written by make book, not kept in git",
    "vendor/a.js": "a made-up path in a doctest of what the source archive leaves out",
    "bpe-explorer.js": "the name a browser's debugger gives an inlined script",
    "bpe-playground.js": "the name a browser's debugger gives an inlined script",
}


def folders(root: Path = ROOT) -> list[Path]:
    """Where a bare or partial name may be rooted, besides the mentioning file's;
    root first."""
    tops = [root / name for name in ("bpe", "tests", "bench", "notebooks", "book")]
    found = [root]
    for top in tops:
        found += [top, *(p for p in sorted(top.rglob("*")) if p.is_dir())]
    return [p for p in found if "__pycache__" not in p.parts]


def python_words(text: str) -> list[tuple[int, str]]:
    """(line, text) of each comment and docstring of a Python source."""
    words = [
        (tok.start[0], tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(text).readline)
        if tok.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                words.append((value.lineno, value.value))
    return words


JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def script_words(text: str) -> list[tuple[int, str]]:
    """(line, text) of each comment of a JavaScript or CSS source (a rough cut:
    a "//" inside a string counts too, which only adds words to check)."""
    return [
        (text.count("\n", 0, m.start()) + 1, m.group())
        for m in JS_COMMENT.finditer(text)
    ]


def makefile_words(text: str) -> list[tuple[int, str]]:
    """(line, text) of each comment of a Makefile."""
    return [
        (n, line[line.index("#") :])
        for n, line in enumerate(text.splitlines(), 1)
        if "#" in line
    ]


def words_of(path: Path) -> list[tuple[int, str]]:
    """The comments and docstrings of one file; all of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return python_words(text)
    if path.suffix in (".js", ".mjs", ".css"):
        return script_words(text)
    if path.name == "Makefile":
        return makefile_words(text)
    return list(enumerate(text.splitlines(), 1))


def sources(root: Path = ROOT) -> list[Path]:
    """The files whose words are read."""
    found = [root / "Makefile", root / "README.md"]
    for top in ("bpe", "tests", "bench", "book"):  # book/: the site's own scripts
        for suffix in (".py", ".js", ".mjs", ".css"):
            found += sorted((root / top).rglob(f"*{suffix}"))
    return [p for p in found if p.exists() and "__pycache__" not in p.parts]


def exists(name: str, mentioned_in: Path, roots: list[Path]) -> bool:
    """Whether name is a file seen from the mentioning file or any of roots."""
    here = mentioned_in.parent
    above = [p for p in here.parents if p.is_relative_to(roots[0])]  # not beyond root
    return any((base / name).is_file() for base in [here, *above, *roots])


def stale_names(root: Path = ROOT) -> list[str]:
    """ "file:line: name" for each named file that is not there."""
    roots = folders(root)
    stale = []
    for path in sources(root):
        for line, text in words_of(path):
            for name in NAME.findall(text):
                if name in ELSEWHERE or exists(name, path, roots):
                    continue
                where = path.relative_to(root)
                stale.append(
                    f"{where}:{line + text.count(chr(10), 0, text.find(name))}: {name}"
                )
    return stale


def test_every_named_file_exists():
    stale = stale_names()
    assert not stale, "files named but not there:\n" + "\n".join(stale)


def test_every_exception_is_still_needed():
    named = {
        name
        for path in sources()
        for _, text in words_of(path)
        for name in NAME.findall(text)
    }
    assert set(ELSEWHERE) <= named, set(ELSEWHERE) - named


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("see bpe/data.py and ``cuts.py``.", ["bpe/data.py", "cuts.py"]),
        ("https://example.org/a/b.py, bpe.train, *.py, test_*.py", []),
        ("(tests/test_x.py) [live/live.css]", ["tests/test_x.py", "live/live.css"]),
    ],
)
def test_what_counts_as_a_file_name(text, names):
    assert NAME.findall(text) == names


PACKAGES = [
    "bpe",
    "bpe.scale",
    "bpe.interop",
    "bpe.disk",
    "bpe.data",
    "bpe.measure",
    "bpe.book",
    "bpe.book.chapters",
    "bpe.book.figures",
    "bpe.book.practice",
    "bpe.book.page",
    "bpe.book.site",
]


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_says_what_each_of_its_modules_does(package):
    """A package's docstring names every module and subpackage in it, as ``name``."""
    folder = ROOT / package.replace(".", "/")
    names = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    text = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8")))
    assert {n for n in names if f"``{n}``" not in text} == set()
