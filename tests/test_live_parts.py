"""The page's Python, part by part, under CPython: cells, marks, absent modules.

tests/test_live.py runs them in Pyodide itself, tests/browser/test_live.py in a page.
"""

import io
import json
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from bpe.book.page import absent, cells, regex_standin
from bpe.book.page import session as page
from bpe.book.site import (
    STATIC,
    archive,
    classify,
    marks,
    playground,
    source_archive,
    sphinx_extension,
)
from bpe.book.site import config as site


def run(source, namespace=None):
    return cells.run_cell(source, {} if namespace is None else namespace, "<In [1]>")


def test_a_cell_shows_its_last_expression_as_jupyter_does():
    namespace = {}
    outcome = run("x = 6\nprint('x is', x)\nx * 7", namespace)
    assert (outcome.stdout, outcome.result, outcome.error) == ("x is 6\n", "42", None)
    assert namespace["_"] == 42
    assert run("None").result is None  # None is not shown
    assert run("x = 1").result is None  # nor is an assignment
    assert run("print(1); 2 if False else None").result is None


def test_output_arrives_in_order_and_in_batches():
    events = []
    cells.run_cell(
        "import sys\nprint('a')\nprint('b', file=sys.stderr)\nprint('c')\n'd'",
        {},
        "<In [1]>",
        lambda kind, text: events.append((kind, text)),
    )
    assert events == [
        ("stdout", "a\n"),
        ("stderr", "b\n"),
        ("stdout", "c\n"),
        ("result", "'d'"),
    ]


def test_a_flood_of_prints_is_sent_in_few_messages(monkeypatch):
    """However fast the machine: here the clock stands still, as if in one burst."""
    monkeypatch.setattr(cells.time, "perf_counter", lambda: 0.0)
    events = []
    outcome = cells.run_cell(
        "for i in range(100_000):\n    print(i)",
        {},
        "<In [1]>",
        lambda kind, text: events.append((kind, text)),
    )
    assert "".join(text for _, text in events) == outcome.stdout
    assert outcome.stdout == "".join(f"{i}\n" for i in range(100_000))
    batches = -(-(len(outcome.stdout) - 20 * 6) // cells.Sender.HOLD_CHARS)
    assert len(events) <= cells.Sender.BURST + batches + 1


def test_warnings_go_to_stderr(monkeypatch):
    def show(message, category, filename, lineno, file=None, line=None):
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno))

    monkeypatch.setattr(warnings, "showwarning", show)  # as outside pytest's catcher
    outcome = run("import warnings\nwarnings.warn('careful')")
    assert "UserWarning: careful" in outcome.stderr and outcome.error is None


def test_a_traceback_starts_at_the_cell_and_quotes_its_lines():
    outcome = run("def f(x):\n    return 1 / x\n\nf(0)")
    assert outcome.error_type == "ZeroDivisionError"
    assert outcome.error.startswith("Traceback (most recent call last):\n")
    assert 'File "<In [1]>", line 4, in <module>\n    f(0)' in outcome.error
    assert "    return 1 / x" in outcome.error
    assert Path(cells.__file__).name not in outcome.error


def test_errors_say_what_was_missing():
    assert run("undefined_name + 1").missing_name == "undefined_name"
    missing = run("import no_such_module_anywhere.sub")
    assert missing.missing_module == "no_such_module_anywhere"
    syntax = run("for x in")
    assert syntax.error_type == "SyntaxError" and "Traceback" not in syntax.error
    assert run("raise SystemExit(3)").error_type == "SystemExit"  # the page survives


def test_the_cells_streams_are_put_back():
    stdout, stderr = sys.stdout, sys.stderr
    run("print('x')\n1/0")
    assert (sys.stdout, sys.stderr) == (stdout, stderr)


@pytest.fixture()
def absent_module(monkeypatch):
    """A name no environment has, made one of the ABSENT modules."""
    monkeypatch.setitem(absent.ABSENT, "bpe_test_absent", ("bpe-test-absent", "tests"))
    finder = absent.AbsentFinder()
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, finder])
    yield "bpe_test_absent"
    for name in [n for n in sys.modules if n.startswith("bpe_test_absent")]:
        del sys.modules[name]


def test_an_absent_module_imports_and_raises_when_used(absent_module):
    outcome = run(
        "import bpe_test_absent as t\nimport bpe_test_absent.sub.deeper\n"
        "from bpe_test_absent import thing"
    )
    assert outcome.error_type == "ModuleNotFoundError"
    assert outcome.missing_module == "bpe_test_absent"
    assert "No module named 'bpe_test_absent' in the page's Python" in outcome.error
    assert "bpe-test-absent is for tests" in outcome.error
    imported = run("import bpe_test_absent.sub\nbpe_test_absent.sub.__name__")
    assert imported.result == "'bpe_test_absent.sub'"


def test_an_installed_module_is_found_before_the_absent_finder():
    absent.install()
    try:
        assert sys.meta_path[-1].__class__ is absent.AbsentFinder
        import json as found

        assert found.dumps([1]) == "[1]"  # the real module, never a stand-in
    finally:
        sys.meta_path[:] = [
            f for f in sys.meta_path if not isinstance(f, absent.AbsentFinder)
        ]


def test_names_a_cell_binds_and_reads():
    source = (
        "import os.path\nfrom a import b as c\nx, (y, z) = 1, (2, 3)\n"
        "for i in range(3):\n    w = i\ndef f(q):\n    inner = q\n"
        "class K: pass\nwith open('f') as fh: pass\n[j for j in x]\nprint(v)"
    )
    assert classify.bound_names(source) == {
        "os",
        "c",
        "x",
        "y",
        "z",
        "i",
        "w",
        "f",
        "K",
        "fh",
    }
    assert classify.loaded_names(source) >= {"x", "i", "q", "v", "j"}
    assert "print" not in classify.loaded_names(source)
    assert classify.bound_names("not python (") == set()


def stream(text):
    return {"output_type": "stream", "name": "stdout", "text": text}


def result(text):
    return {"output_type": "execute_result", "data": {"text/plain": text}}


def code(index, source, outputs=(), tags=()):
    return {
        "index": index,
        "source": source,
        "tags": list(tags),
        "outputs": list(outputs),
    }


def test_stored_output_joins_streams_and_keeps_the_last_value():
    outputs = [stream(["a\n", "b\n"]), stream("c"), result(["4", "2"])]
    outputs.append({"output_type": "stream", "name": "stderr", "text": "warn"})
    assert classify.stored_output(outputs) == ("a\nb\nc", "42")


def toy_chapter(live=()):
    """Cells of each kind classify() tells apart; live: the indices tagged live."""
    cells = [
        code(0, "x = 41", tags=["remove-input"]),  # hidden, and needed below
        code(1, "print(x + 1)", [stream("42\n")]),
        code(2, "y = undefined_name"),
        code(3, "print(y)", [stream("7\n")]),
        code(4, "print('other')", [stream("what the book printed\n")]),
        code(
            5,
            "import time\ntime.sleep(0)\nprint('fast')",
            [stream("x")],
            ["nbval-ignore-output"],
        ),
        code(6, "import json\nunused = 1", tags=["remove-cell"]),  # needed by none
        code(7, "x", [result("41")]),
    ]
    for cell in cells:
        if cell["index"] in live:
            cell["tags"].append(classify.LIVE_TAG)
    return cells


def test_classify_finds_what_runs_here_and_why_the_rest_does_not():
    verdicts = {v["index"]: v for v in classify.classify(toy_chapter())}
    assert [i for i, v in verdicts.items() if v["live"]] == [1, 5, 7]
    assert [i for i, v in verdicts.items() if v["context"]] == [0]
    assert verdicts[2]["reason"].startswith("here it raises NameError")
    assert (
        verdicts[3]["reason"] == "it uses y, from a cell above that does not run here"
    )
    assert verdicts[4]["reason"] == (
        "its output here differs from the book's, first at “other”"
    )
    assert verdicts[6]["reason"] is None  # hidden cells need no reason
    # in place of a cell that does not run, its imports
    assert verdicts[6]["imports"] == "import json"


@pytest.mark.parametrize(
    "marked, remade",
    [
        ((0, 1, 5, 7), False),
        ((0, 1, 2, 3, 4, 5, 6, 7), False),
        ((), True),
        ((1, 7), True),
        ((0, 2, 5), True),
    ],
    ids=["right", "all", "none", "without-context", "wrong"],
)
def test_classify_from_the_marks_finds_what_a_run_of_every_cell_finds(
    marked, remade, monkeypatch
):
    """From any marks, right or wrong, the same verdicts. Remade: by a run of every
    cell, when cells 1 and 7 fail for want of cell 0's x, hidden and not run."""
    from_scratch = classify.classify(toy_chapter(marked))
    runs_of_every_cell = []
    run_all = classify.run_all

    def counted(cells, chosen=None):
        runs_of_every_cell.append(chosen is None)
        return run_all(cells, chosen)

    monkeypatch.setattr(classify, "run_all", counted)
    from_marks = classify.classify(toy_chapter(marked), from_marks=True)
    assert list(map(untimed, from_marks)) == list(map(untimed, from_scratch))
    assert any(runs_of_every_cell) == remade


def untimed(verdict: dict) -> dict:
    """A verdict less its outcome (a hidden cell's comes from the run of every cell)
    and the time its cell took where the page has it."""
    tried = verdict["tried"] and {**verdict["tried"], "seconds": None}
    return {**verdict, "outcome": None, "tried": tried}


def test_a_cell_that_fails_leaves_nothing_behind():
    notebook = [
        code(0, "a = 1\nb = 2\n1 / 0"),
        code(1, "print(a)", [stream("1\n")]),
    ]
    verdicts = classify.classify(notebook)
    assert not verdicts[1]["live"]
    assert (
        verdicts[1]["reason"] == "it uses a, from a cell above that does not run here"
    )


def test_reasons_name_what_is_missing():
    def reason(**outcome):
        full = {"error": None, "seconds": 0.1, "stdout": "", "result": None}
        return classify.reason({}, {**full, **outcome}, {"log": 3})

    assert reason(missing_module="pandas", error="x") == "it needs pandas"
    in_the_cell = traceback(["<cell 3>", "/x/lib/bpe/book/page/absent.py"])
    used = in_the_cell + "ModuleNotFoundError: ... (pandas.DataFrame was used), ..."
    assert reason(missing_module="pandas", error=used) == (
        "it uses pandas.DataFrame, and the page's Python has no pandas"
    )
    deep = traceback(
        ["<cell 3>", "/x/lib/bpe/data/corpora.py", "/x/lib/bpe/interop/openai.py"]
    )
    assert reason(missing_module="tiktoken", error=deep + "ModuleNotFoundError") == (
        "it calls f (bpe.data.corpora), which needs tiktoken"
    )
    assert reason(error=deep + "ValueError: no") == (
        "here f (bpe.data.corpora) raises ValueError: no"
    )
    lacks = deep + "AttributeError: module 'os' has no attribute 'link'. Did you mean"
    assert reason(error=lacks, error_type="AttributeError") == (
        "it calls f (bpe.data.corpora), which needs os.link, which the page's Python"
        " lacks"
    )
    assert reason(missing_module="resource", error="x").startswith(
        "it needs worker processes"
    )
    assert reason(missing_name="log", error="x") == (
        "it uses log, from a cell above that does not run here"
    )
    assert reason(seconds=42.0) == "it takes more than 10 s here"
    shipped = (
        "ModuleNotFoundError: encoder.json comes from the PyPI package x==1, which is"
        " not installed: pip install 'x==1'"
    )
    assert reason(error=shipped, error_type="ModuleNotFoundError") == (
        "it needs a package the page's Python lacks (encoder.json comes from the PyPI"
        " package x==1, which is not installed)"
    )
    assert reason(error="DataError: x", error_type="DataError") == (
        "it needs a data file that this page does not serve"
    )
    long = "ValueError: " + "word " * 40
    assert len(reason(error=long)) < 130 and reason(error=long).endswith("…")


def traceback(files):
    """A traceback through these files, each frame in a function f."""
    frames = "".join(f'  File "{name}", line 1, in f\n    f()\n' for name in files)
    return "Traceback (most recent call last):\n" + frames


def test_the_called_function_is_read_from_the_traceback():
    stdlib = "/lib/python3.14/json/decoder.py"
    assert classify.called(traceback(["<cell 1>", stdlib])) == "f (json.decoder)"
    package = "/home/pyodide/book/lib/bpe/scale/__init__.py"
    assert classify.called(traceback(["<cell 1>", package])) == "f (bpe.scale)"
    assert classify.called(traceback(["<cell 1>"])) is None  # the cell itself
    callback = ["<cell 1>", package, "<cell 1>", stdlib]  # the cell's own lambda
    assert classify.called(traceback(callback)) == "f (json.decoder)"
    chained = traceback([stdlib]) + "\nDuring handling...\n\n" + traceback(["<c>"])
    assert classify.called(chained) is None  # the last exception's frames count


def notebook_of(*cells_):
    return {
        "cells": [
            {"cell_type": "code", "metadata": {"tags": t}, "source": s, "outputs": []}
            for s, t in cells_
        ]
        + [{"cell_type": "markdown", "metadata": {}, "source": "text"}],
        "metadata": {},
    }


def test_marks_set_the_tag_and_the_reason_and_nothing_else():
    notebook = notebook_of(("a = 1", ["remove-input"]), ("b", []), ("c", ["live"]))
    verdicts = [
        {"index": 0, "live": False, "context": True, "reason": None},
        {"index": 1, "live": True, "context": False, "reason": None},
        {"index": 2, "live": False, "context": False, "reason": "it needs pandas"},
    ]
    new = marks.marked(notebook, verdicts)
    assert [c["metadata"] for c in new["cells"]] == [
        {"tags": ["remove-input", "live"]},
        {"tags": ["live"]},
        {classify.REASON_KEY: "it needs pandas"},
        {},
    ]
    assert marks.marked(new, verdicts) == new  # marking twice changes nothing
    assert notebook["cells"][2]["metadata"] == {"tags": ["live"]}  # not changed


def test_a_chapter_where_nothing_runs_gets_one_reason_for_all():
    notebook = notebook_of(("import resource", ["live"]), ("print(1)", []))
    notebook["cells"][1]["metadata"][classify.REASON_KEY] = "old"
    verdicts = [
        {"index": 0, "live": False, "context": False, "reason": "it needs processes"},
        {"index": 1, "live": False, "context": False, "reason": "it uses resource"},
    ]
    new = marks.marked(notebook, verdicts)
    assert [c["metadata"] for c in new["cells"]] == [{}, {}, {}]
    assert new["metadata"] == {classify.REASON_KEY: "it needs processes"}
    assert classify.REASON_KEY not in marks.marked(new, [])["metadata"]


def test_the_pages_data_carries_hidden_sources_and_reasons(tmp_path):
    notebook = notebook_of(
        ("x = 1", ["remove-input", "live"]),
        ("print(x)", ["live"]),
        ("import pandas", []),
        ("y = 2", ["remove-cell"]),
    )
    notebook["cells"][2]["metadata"][classify.REASON_KEY] = "it needs pandas"
    path = tmp_path / "00_x.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert sphinx_extension.cells_of(path) == [
        {"index": 0, "live": True, "hidden": True, "source": "x = 1"},
        {"index": 1, "live": True, "hidden": False},
        {"index": 2, "live": False, "hidden": False, "reason": "it needs pandas"},
        {"index": 3, "live": False, "hidden": True},
    ]


def test_the_archive_holds_the_package_the_stand_in_and_the_toy_corpus():
    data = archive.archive_bytes()
    assert data == archive.archive_bytes()  # the same bytes every time
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        standin = z.read("lib/regex.py")
        corpus = z.read("data/toy_corpus.txt")
        dates = {info.date_time for info in z.infolist()}
    assert names == sorted(names)
    assert {
        "lib/bpe/__init__.py",
        "lib/bpe/pretokenizer.py",
        "lib/bpe/book/page/session.py",
    } <= set(names)
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert standin == Path(regex_standin.__file__).read_bytes()
    assert corpus == (archive.ROOT / "data" / "toy_corpus.txt").read_bytes()
    assert dates == {source_archive.STAMP}


def test_the_pages_scripts_are_the_sites_files_served_once(tmp_path, monkeypatch):
    """live.js and the rest live in bpe/book/site/static, which the site serves as
    _static/; the build writes only what it generates beside them, never a second
    copy."""
    static = STATIC
    config = site.load_config(archive.ROOT / "_config.yml")
    assert "bpe/book/site/static" in config["sphinx"]["config"]["html_static_path"]
    worker = ("live/worker.js", "live/python_home.mjs")  # what live.js's worker loads
    for name in (*sphinx_extension.SCRIPTS, *sphinx_extension.STYLES, *worker):
        assert (static / name).is_file(), name
    monkeypatch.setattr(archive, "served", dict)  # the data files: not this test's
    written = {p.relative_to(tmp_path).as_posix() for p in archive.write(tmp_path)}
    assert written == {f"live/{archive.ARCHIVE}", f"live/{archive.SNAPSHOT}"}
    own = {p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file()}
    copied = {f"playground/{name}" for name in playground.SCRIPTS}
    assert "playground/playground.js" in own
    assert own & (copied | written) == set()


def test_the_console_setup_is_shown_and_runs(toy_corpus, monkeypatch):
    monkeypatch.chdir(archive.ROOT / "notebooks")
    outcome = run(page.CONSOLE_SETUP)
    assert outcome.error is None
    assert f"({len(toy_corpus)} characters)" in outcome.stdout


def test_every_figure_links_its_own_image_once():
    from bpe.book.site.sphinx_extension import link_figures

    body = (
        '<p>x</p><img alt="a" src="../_images/a.png" />'
        '<a class="reference" href="q"><img src="../_images/b.png"/></a>'
        '<img src="../_static/logo.png">'
    )
    linked = link_figures(body)
    assert linked.count('<a class="bpe-figure" href="../_images/a.png"') == 1
    assert '<a class="reference" href="q"><img src="../_images/b.png"/></a>' in linked
    assert linked.endswith('<img src="../_static/logo.png">')  # not a cell's figure
    assert link_figures(linked) == linked  # a linked figure is left as it is


def test_a_mark_changes_only_when_the_time_is_clearly_on_the_other_side():
    """A busy machine slows a cell by a factor of two or more: marks must not flap."""
    slow = classify.SLOW

    def too_slow(seconds, **cell):
        return classify.too_slow(cell, {"seconds": seconds})

    assert too_slow(slow * 1.5) and not too_slow(slow * 0.9)  # an unmarked cell
    assert not too_slow(slow * 1.5, tags=[classify.LIVE_TAG])  # keeps its Run button
    assert too_slow(slow * classify.MARGIN * 1.1, tags=[classify.LIVE_TAG])
    assert too_slow(slow * 0.5, reason=classify.SLOW_REASON)  # stays without one
    assert not too_slow(slow / classify.MARGIN * 0.9, reason=classify.SLOW_REASON)


def test_untimed_the_stored_slowness_mark_is_the_verdict(monkeypatch):
    """The tests classify untimed: a busy machine can change no verdict of theirs."""
    monkeypatch.setattr(classify, "TIMED", False)

    def too_slow(seconds, **cell):
        return classify.too_slow(cell, {"seconds": seconds})

    assert not too_slow(classify.SLOW * 100)  # however long an unmarked cell takes
    assert not too_slow(classify.SLOW * 100, tags=[classify.LIVE_TAG])
    assert too_slow(0.0, reason=classify.SLOW_REASON)  # however quick a marked one
