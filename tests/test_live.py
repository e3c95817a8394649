"""The page's Python, under Node: Pyodide from the site's files runs the book's core.

One Node process with Pyodide serves each pytest worker (``page_python`` in
conftest.py, ``marks.PagePython``). It
runs the chapters' cells as the page does, and the tests check that the marks in
the notebooks are what that run finds, that chapters 04 to 06 print there exactly
what the book prints, that the core trains, encodes and saves the toy corpus as
CPython does, and that the regex stand-in's tables are Unicode's.
"""

import hashlib
import json
import os
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
import regex

import bpe
from bpe.book.site import archive, classify, marks, source_archive
from bpe.tokenizer import Tokenizer as CoreTokenizer
from bpe.trainer import train as core_train

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"), reason="Node.js is not installed"
)
EOT = bpe.ENDOFTEXT
SAMPLES = [
    "the lowest widest fox<|endoftext|>newest lower",
    "Xin chào thế giới 🙃 牛 naïve café\u00a0\u2003 12345!!\n\n  ok",
    "newer newest widest lowest",
]
CLASSES = ("L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "N", "White_Space")


def test_the_page_runs_python_3_14(page_python):
    assert page_python.started["python"].startswith("3.14.")
    assert page_python.started["unicode"] >= "16.0.0"
    # from its memory snapshot, as the page starts (archive.write_snapshot)
    assert page_python.started["start"] == "snapshot"


def test_the_snapshot_holds_what_the_chapters_cells_import(page_python):
    """A first Run imports nothing the chapters' Run cells name: the snapshot has
    imported them all (session.preload), and every one of them could be imported."""
    wanted = archive.cell_imports()
    assert "bpe.book.chapters.explorer" in wanted  # the list is the chapters'
    not_imported = "sorted(set(json.loads(job_input)) - set(sys.modules))"
    found = page_python.ask(f"import sys, json\njson.dumps({not_imported})", wanted)
    assert found == []


def test_a_snapshot_of_another_archive_is_not_started_from(tmp_path):
    """The snapshot holds the SHA-256 of the archive it was made from: with any other
    archive, Python starts from scratch (and so runs the archive's code, not the
    snapshot's)."""
    made = tmp_path / archive.ARCHIVE
    made.write_bytes(archive.archive_bytes())
    snapshot = archive.write_snapshot(made)
    other = tmp_path / "other.zip"
    members = {**archive.members(), "lib/extra.py": Path(classify.__file__)}
    other.write_bytes(source_archive.zip_bytes(members))
    request = {"pyodide": str(archive.PYODIDE), "archive": str(other)}
    ran = subprocess.run(
        [NODE, str(marks.RUNNER)],
        input=json.dumps({**request, "snapshot": str(snapshot)}) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(ran.stdout)["start"] == "plain (the snapshot is stale)"


@pytest.mark.slow  # each chapter runs in the page's Python here
@pytest.mark.parametrize("path", marks.chapters(), ids=lambda p: p.stem)
def test_the_marks_are_what_running_the_cells_finds(page_verdicts, path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    expected = marks.marked(notebook, page_verdicts(path))
    stale = [
        f"cell {i}: marked {marks_of(cell)}, should be {marks_of(expected['cells'][i])}"
        for i, cell in enumerate(notebook["cells"])
        if marks_of(cell) != marks_of(expected["cells"][i])
    ]
    ours, theirs = (
        n.get("metadata", {}).get(classify.REASON_KEY) for n in (notebook, expected)
    )
    if ours != theirs:
        stale.append(f"the notebook: marked {ours!r}, should be {theirs!r}")
    assert not stale, "run `make live-marks`:\n" + "\n".join(stale)


def marks_of(cell):
    metadata = cell.get("metadata", {})
    return (
        classify.LIVE_TAG in metadata.get("tags", []),
        metadata.get(classify.REASON_KEY),
    )


CORE_CHAPTERS = [p for p in marks.chapters() if p.name[:2] in ("04", "05", "06")]


@pytest.mark.parametrize("path", CORE_CHAPTERS, ids=lambda p: p.stem)
def test_the_core_prints_in_the_page_what_the_book_prints(page_verdicts, path):
    """Each cell with a Run button gives its stored output; some train or encode."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    live = [v for v in page_verdicts(path) if v["live"]]
    assert live, f"{path.name}: no cell runs in the page"
    for verdict in live:
        cell = notebook["cells"][verdict["index"]]
        outcome = verdict["outcome"]
        assert outcome["error"] is None, outcome["error"]
        if classify.IGNORE_OUTPUT_TAG not in cell["metadata"].get("tags", []):
            stored = classify.stored_output(cell["outputs"])
            assert (outcome["stdout"], outcome["result"]) == stored
    sources = "".join("".join(notebook["cells"][v["index"]]["source"]) for v in live)
    assert marks.TRAINS.search(sources) or ".encode(" in sources


TOY = """
import json, os
import bpe
from bpe.tokenizer import Tokenizer as CoreTokenizer
from bpe.trainer import train as core_train
job = json.loads(job_input)
corpus = open("../data/toy_corpus.txt", encoding="utf-8").read()
vocab, merges = bpe.train(corpus, 265, specials=[bpe.ENDOFTEXT])
core_vocab, core_merges = core_train(corpus, 265, specials=[bpe.ENDOFTEXT])
tok = bpe.Tokenizer(vocab, merges, specials=[bpe.ENDOFTEXT])
core = CoreTokenizer(core_vocab, core_merges, specials=[bpe.ENDOFTEXT])
written = tok.save("saved_toy")
json.dumps({
    "merges": [[a.hex(), b.hex()] for a, b in merges],
    "core_merges": [[a.hex(), b.hex()] for a, b in core_merges],
    "ids": [tok.encode(t) for t in job["samples"]],
    "core_ids": [core.encode(t) for t in job["samples"]],
    "decoded": [tok.decode(tok.encode(t)) for t in job["samples"]],
    "files": {p.name: p.read_text(encoding="utf-8") for p in written},
    "loaded": bpe.Tokenizer.load("saved_toy") == tok,
    "where": os.path.abspath("saved_toy"),
})
"""


def test_the_core_trains_encodes_and_saves_the_toy_corpus_as_cpython_does(
    page_python, toy_corpus, tmp_path
):
    got = page_python.ask(TOY, {"samples": SAMPLES})
    vocab, merges = bpe.train(toy_corpus, 265, specials=[EOT])
    hexed = [[a.hex(), b.hex()] for a, b in merges]
    assert got["merges"] == got["core_merges"] == hexed
    assert core_train(toy_corpus, 265, specials=[EOT])[1] == merges
    tok = bpe.Tokenizer(vocab, merges, specials=[EOT])
    core = CoreTokenizer(vocab, merges, specials=[EOT])
    assert got["ids"] == got["core_ids"] == [tok.encode(t) for t in SAMPLES]
    assert [core.encode(t) for t in SAMPLES] == got["ids"]
    assert got["decoded"] == SAMPLES
    written = tok.save(tmp_path)  # GPT-2's files, byte for byte
    assert got["files"] == {p.name: p.read_text(encoding="utf-8") for p in written}
    assert got["loaded"] is True
    assert got["where"] == "/home/pyodide/book/notebooks/saved_toy"  # in memory


RUN = """
import json
from bpe.book.page import session as page
json.dumps([page.run(source, f"<In [{i}]>") for i, source in
            enumerate(json.loads(job_input), 1)])
"""


def test_a_cell_that_raises_shows_its_traceback(page_python):
    source = "def f(x):\n    return 1 / x\n\nprint('before')\nf(0)"
    (outcome,) = page_python.ask(RUN, [source])
    assert outcome["stdout"] == "before\n"
    assert outcome["error_type"] == "ZeroDivisionError"
    error = outcome["error"]
    assert error.startswith("Traceback (most recent call last):\n")
    assert 'File "<In [1]>", line 5, in <module>' in error
    assert 'File "<In [1]>", line 2, in f\n    return 1 / x' in error
    assert error.rstrip().endswith("ZeroDivisionError: division by zero")
    assert "cells.py" not in error  # the runner's own frames are left out


def test_absent_modules_import_and_say_why_when_used(page_python):
    first, second, third = page_python.ask(
        RUN,
        [
            "import pandas as pd\nimport matplotlib.pyplot as plt\nimport bpe",
            "pd.DataFrame({'a': [1]})",
            "import regex\nregex.__name__, regex.UNICODE_VERSION",
        ],
    )
    assert first["error"] is None
    assert second["error_type"] == "ModuleNotFoundError"
    assert second["missing_module"] == "pandas"
    assert "No module named 'pandas' in the page's Python" in second["error"]
    assert third["result"] == repr(("regex", page_python.started["unicode"]))


def test_the_books_table_is_drawn_in_the_page_as_in_cpython(page_python):
    """bpe.book.chapters.table ships in the archive, no absent module stands in for it,
    and a cell ending in a Table shows its HTML (what the stored output shows)."""
    from bpe.book.chapters.table import Table

    source = (
        "import pandas as pd\nfrom bpe.book.chapters.table import Table\n"
        "Table([('low', 5), ('lower', 2), ('<b>', 1)], ['word', 'count'], "
        "index='word', code=['word'])"
    )
    where = "import bpe.book.chapters.table\nbpe.book.chapters.table.__file__"
    first, second = page_python.ask(RUN, [source, where])
    table = Table(
        [("low", 5), ("lower", 2), ("<b>", 1)], ["word", "count"], "word", ["word"]
    )
    assert first["error"] is None
    assert first["result"] == repr(table)
    assert first["html"] == table._repr_html_() and "&lt;b&gt;" in first["html"]
    assert second["result"] == repr("/home/pyodide/book/lib/bpe/book/chapters/table.py")


def test_the_merge_explorer_is_shown_in_the_page_as_in_jupyter(page_python):
    """Its value's HTML (the script it inlines is in the archive) and its text."""
    from bpe.book.chapters.explorer import explorer

    source = (
        "from bpe.book.chapters.explorer import explorer\nexplorer('low lower lowest')"
    )
    (outcome,) = page_python.ask(RUN, [source])
    shown = explorer("low lower lowest")
    assert outcome["error"] is None, outcome["error"]
    assert (outcome["result"], outcome["html"]) == (repr(shown), shown._repr_html_())


def test_the_console_knows_a_whole_statement(page_python):
    script = """
import json
from bpe.book.page import session as page
json.dumps([page.is_complete(s) for s in json.loads(job_input)])
"""
    sources = ["x = 1", "for i in x:", "for i in x:\n    print(i)\n", "(1,"]
    assert page_python.ask(script, sources) == [True, False, True, False]


TABLES = """
import json, unicodedata
import regex
json.dumps({"unicode": unicodedata.unidata_version,
            "ranges": {c: regex.ranges(c) for c in json.loads(job_input)}})
"""


@pytest.fixture(scope="module")
def pyodide_tables(page_python):
    return page_python.ask(TABLES, list(CLASSES))


EVERY = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)


def spans_to_set(spans):
    return {c for first, last in spans for c in range(first, last + 1)}


@pytest.fixture(scope="module")
def pyodide_disagreeing(pyodide_tables):
    """Code points whose classes differ between the page's stand-in and regex."""
    found = set()
    for cls in CLASSES:
        escape = r"\s" if cls == "White_Space" else rf"\p{{{cls}}}"
        theirs = {ord(c) for c in regex.findall(escape, EVERY)}
        ours = spans_to_set(pyodide_tables["ranges"][cls])
        found |= (theirs ^ ours) - set(range(0xD800, 0xE000))
    return found


def test_the_stand_ins_tables_in_the_page_differ_only_where_unicode_changed(
    page_python, pyodide_tables, pyodide_disagreeing
):
    """Pyodide's Unicode is older than regex's: only code points it leaves unassigned
    (or, for one, classes as another kind of letter) may differ."""
    script = """
import json, unicodedata
json.dumps([unicodedata.category(chr(c)) for c in json.loads(job_input)])
"""
    points = sorted(pyodide_disagreeing)
    categories = page_python.ask(script, points)
    letters = spans_to_set(pyodide_tables["ranges"]["L"])
    regex_letters = {ord(c) for c in regex.findall(r"\p{L}", EVERY)}
    for point, category in zip(points, categories, strict=True):
        assert category == "Cn" or (point in letters and point in regex_letters), (
            hex(point),
            category,
        )
    white = spans_to_set(pyodide_tables["ranges"]["White_Space"])
    assert len(white) == 25 and white == {ord(c) for c in regex.findall(r"\s", EVERY)}
    if pyodide_tables["unicode"] == unicodedata.unidata_version:
        return  # the same tables as CPython's: tests/test_regex_standin.py checks them
    assert len(points) < 20_000  # Unicode 16.0 to 18.0, not 14.0 to 18.0


PIECES = """
import hashlib, json
import bpe, regex
job = json.loads(job_input)
skip, astral = set(job["skip"]), set(job["astral"])
points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and c not in skip
          and (c <= 0xFFFF or c in astral)]
text = "".join(f"{c}{c}a {c}1{c}.\\n" for c in map(chr, points))
pieces = regex.findall(bpe.PAT, text)
digest = hashlib.sha256("\\x00".join(pieces).encode("utf-8", "surrogatepass"))
json.dumps({"count": len(pieces), "sha256": digest.hexdigest()})
"""


def test_the_stand_in_cuts_text_in_the_page_as_regex_does(
    page_python, pyodide_disagreeing
):
    """Every agreed code point of the BMP, and every assigned one above it, in context.

    (The nearly one million unassigned and private-use ones above U+FFFF are one
    class to every pattern; tests/test_regex_standin.py has them, under CPython.)
    """
    above = "".join(map(chr, range(0x10000, 0x110000)))
    astral = [ord(c) for c in regex.findall(r"[^\p{Cn}\p{Co}]", above)]
    got = page_python.ask(
        PIECES, {"skip": sorted(pyodide_disagreeing), "astral": astral}
    )
    keep = set(astral)
    points = [
        c
        for c in range(0x110000)
        if not 0xD800 <= c < 0xE000
        and c not in pyodide_disagreeing
        and (c <= 0xFFFF or c in keep)
    ]
    text = "".join(f"{c}{c}a {c}1{c}.\n" for c in map(chr, points))
    pieces = regex.findall(bpe.PAT, text)
    digest = hashlib.sha256("\x00".join(pieces).encode("utf-8", "surrogatepass"))
    assert got == {"count": len(pieces), "sha256": digest.hexdigest()}
