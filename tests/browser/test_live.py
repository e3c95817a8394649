"""The chapters' Run buttons and the console, in a real browser, with no network.

Python (Pyodide) starts in a Web Worker, from the site's own files, when a Run button
comes near the view (or on the first Run);
the page's context refuses every request that leaves localhost (conftest.py), so
a test passes only if nothing else was needed.
"""

import json
import os
import re
from pathlib import Path

import pytest

import bpe
from bpe.book.page import cells
from bpe.book.site import archive, classify, marks

from .conftest import SHOTS, offline_context

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHAPTER = "04_counting_and_merging"
STARTS = 120_000  # ms: Python's first start, from a cold cache on a busy machine
PYTHON_FILES = ("/_static/pyodide/", "/_static/live/worker.js", "bpe-book.zip")
STARTERS = ".bpe-live-run, .bpe-exercise-check"  # buttons that run the page's Python
# How far below the view's top the nearest of them is, in screens.
NEAREST = f"""() => Math.min(...[...document.querySelectorAll("{STARTERS}")].map(
    (node) => node.getBoundingClientRect().top)) / window.innerHeight"""
FAR = "09_tinystories"  # a chapter whose first Run button is below its first screen


def notebook(name):
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))


def live_cells(name):
    """(index, source) of each cell the page runs, in order (hidden ones included)."""
    return [(i, source) for i, source, _ in marks.live_cells(notebook(name))]


def training_cell(name):
    """The first visible live cell that trains on the toy corpus: (index, source)."""
    found = marks.training_cell(notebook(name))
    if found is None:
        pytest.fail(f"{name} has no cell with a Run button that trains on the corpus")
    return found


def expected_output(name, index, source=None):
    """What CPython prints for cell index (its source replaced by source, if given)
    after the page's live cells above it: (printed text, shown value)."""
    namespace, here = {"__name__": "__main__"}, os.getcwd()
    os.chdir(NOTEBOOKS)
    try:
        for i, code in live_cells(name):
            if i > index:
                break
            outcome = cells.run_cell(
                source if i == index and source else code, namespace
            )
            assert outcome.error is None or i == index, outcome.error
    finally:
        os.chdir(here)
    return outcome.stdout, outcome.result


def blocked_requests(page, site_url):
    seen = []
    page.on(
        "request",
        lambda r: None if r.url.startswith(site_url) else seen.append(r.url),
    )
    return seen


def run_and_wait(page, cell):
    """Click the cell's Run and wait until it has run (or raised)."""
    cell.locator(".bpe-live-run").click()
    status = cell.locator(".bpe-live-status")
    page.wait_for_function(
        "(node) => /^In \\[\\d+\\]/.test(node.textContent)",
        arg=status.element_handle(),
        timeout=STARTS,
    )
    return status.inner_text()


def shown(cell, kind):
    return "".join(
        cell.locator(f"[data-live-output] pre.bpe-live-{kind}").all_text_contents()
    )


def set_code(cell, code):
    """Replace the cell's code as a reader would: select it all and type."""
    pre = cell.locator(".cell_input pre")
    pre.click()
    pre.press("Control+a")
    pre.press("Delete")
    pre.type(code)


def python_requests(page):
    """The page's requests for its Python (the worker, Pyodide, the book's archive),
    collected as they happen."""
    urls = []
    page.on(
        "request",
        lambda r: any(p in r.url for p in PYTHON_FILES) and urls.append(r.url),
    )
    return urls


@pytest.mark.parametrize(
    "path", ["book/intro.html", "notebooks/99_reproducibility_ledger.html"]
)
def test_a_page_without_run_buttons_loads_no_python(page, site_url, path):
    loaded = python_requests(page)
    page.goto(f"{site_url}/{path}", wait_until="load")
    assert page.locator(STARTERS).count() == 0
    page.mouse.wheel(0, 100_000)  # read to the end
    page.wait_for_timeout(1000)
    assert loaded == []


def test_python_starts_with_a_run_button_in_view_and_not_before(browser, site_url):
    """Above every Run button nothing loads; with one in view, Python starts, before
    any click."""
    context = offline_context(browser, site_url, width=1280)
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 500})  # (a short screen)
    loaded = python_requests(page)
    page.goto(f"{site_url}/notebooks/{FAR}.html", wait_until="load")
    page.wait_for_timeout(1000)
    assert page.evaluate(NEAREST) > 1.2, "a Run button in view at once: pick FAR anew"
    assert loaded == []
    page.locator(STARTERS).first.scroll_into_view_if_needed()
    page.wait_for_function("() => window.bpeLive.python !== null", timeout=STARTS)
    assert any("pyodide.asm.wasm" in u for u in loaded)
    context.close()


def test_a_run_after_python_started_early_prints_the_books_output(page, site_url):
    index, _ = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="load")
    cell = page.locator(f"#cell-{index}")
    cell.locator(".bpe-live-run").scroll_into_view_if_needed()
    page.wait_for_function("() => window.bpeLive.python !== null", timeout=STARTS)
    assert cell.locator(".bpe-live-status").inner_text() == ""  # nothing said yet
    assert "ran in" in run_and_wait(page, cell)
    stored = classify.stored_output(notebook(CHAPTER)["cells"][index]["outputs"])
    assert (shown(cell, "stdout"), shown(cell, "result") or None) == stored


@pytest.mark.parametrize("served", (True, False), ids=("snapshot", "without"))
def test_python_starts_from_its_snapshot_and_without_one(browser, site_url, served):
    """The site's memory snapshot starts Python (archive.SNAPSHOT); refused, Python
    starts from scratch, and the cell prints the book's output either way."""
    context = offline_context(browser, site_url, width=1280)
    if not served:
        context.route(f"**/{archive.SNAPSHOT}", lambda route: route.abort())
    page = context.new_page()
    index, _ = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="load")
    cell = page.locator(f"#cell-{index}")
    assert "ran in" in run_and_wait(page, cell)
    stored = classify.stored_output(notebook(CHAPTER)["cells"][index]["outputs"])
    assert (shown(cell, "stdout"), shown(cell, "result") or None) == stored
    start = page.evaluate("() => window.bpeLive.python.start")
    assert start == ("snapshot" if served else "plain (no snapshot)")
    context.close()


# Every text the status line shows, kept in window.seenStatus as it changes.
WATCH_STATUS = """(node) => {
    window.seenStatus = [];
    new MutationObserver(() => window.seenStatus.push(node.textContent))
        .observe(node, { childList: true, characterData: true, subtree: true });
}"""
STEP = re.compile(r"starting Python (\d)/(\d): ")


@pytest.mark.parametrize("width", (1280, 390))
def test_a_run_during_the_start_says_which_step_it_is_at(browser, site_url, width):
    """Clicked as the page opens: the status line names each step of the start, the
    first with the download's size, readable (not cut off) at laptop and phone width,
    then the cell's output, the book's."""
    context = offline_context(browser, site_url, width=width)
    page = context.new_page()
    index, _ = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="domcontentloaded")
    cell = page.locator(f"#cell-{index}")
    status = cell.locator(".bpe-live-status")
    page.evaluate(WATCH_STATUS, status.element_handle())
    cell.locator(".bpe-live-run").click()
    page.wait_for_function(
        "(node) => /starting Python/.test(node.textContent)",
        arg=status.element_handle(),
    )
    box, bar = status.bounding_box(), cell.locator(".bpe-live-bar").bounding_box()
    assert (
        box["x"] >= bar["x"]
        and box["x"] + box["width"] <= min(width, bar["x"] + bar["width"]) + 1
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    cell.locator(".bpe-live-bar").screenshot(
        path=str(SHOTS / f"live__starting@{width}.png")
    )
    assert "ran in" in run_and_wait(page, cell)
    steps = [
        m.groups() for t in page.evaluate("window.seenStatus") if (m := STEP.search(t))
    ]
    assert steps and steps[-1][0] == steps[-1][1], page.evaluate("window.seenStatus")
    first = next(t for t in page.evaluate("window.seenStatus") if "starting" in t)
    assert "MB the first time" in first
    stored = classify.stored_output(notebook(CHAPTER)["cells"][index]["outputs"])
    assert (shown(cell, "stdout"), shown(cell, "result") or None) == stored
    context.close()


def test_the_training_cell_runs_in_the_page_and_prints_the_books_output(page, site_url):
    blocked = blocked_requests(page, site_url)
    index, source = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="load")
    cell = page.locator(f"#cell-{index}")
    status = run_and_wait(page, cell)
    assert "ran in" in status, status
    stored = classify.stored_output(notebook(CHAPTER)["cells"][index]["outputs"])
    assert (shown(cell, "stdout"), shown(cell, "result") or None) == stored
    assert cell.locator(".cell_output").is_hidden()  # the live output replaces it
    SHOTS.mkdir(parents=True, exist_ok=True)
    cell.screenshot(path=str(SHOTS / "live__training_cell.png"))

    # A smaller vocabulary: fewer merges, as CPython finds for the same code.
    size = int(re.search(r"\b(2[5-9]\d)\b", source).group(1))
    edited = source.replace(str(size), str(size - 3), 1)
    set_code(cell, edited)
    assert "ran in" in run_and_wait(page, cell), shown(cell, "error")
    expected = expected_output(CHAPTER, index, edited)
    assert (shown(cell, "stdout"), shown(cell, "result") or None) == expected
    assert expected != stored
    cell.locator(".bpe-live-reset").click()
    assert cell.locator(".cell_input pre").inner_text().rstrip("\n") == source
    assert cell.locator(".cell_output").is_visible()
    assert blocked == []


def test_a_cell_that_raises_shows_its_traceback(page, site_url):
    index, source = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="load")
    cell = page.locator(f"#cell-{index}")
    call = re.search(r"([\w.]*\btrain)\(\s*corpus", source).group(
        1
    )  # as the cell has it
    tiny = f"\n\ndef train_tiny():\n    return {call}(corpus, 10)\n\ntrain_tiny()"
    set_code(cell, source + tiny)
    status = run_and_wait(page, cell)
    assert "raised ValueError" in status
    error = shown(cell, "error")
    assert error.startswith("Traceback (most recent call last):")
    assert "in train_tiny" in error and f"    return {call}(corpus, 10)" in error
    assert "ValueError: vocab_size=10 is too small" in error
    cell.screenshot(path=str(SHOTS / "live__traceback.png"))


def test_a_run_that_takes_too_long_can_be_stopped(page, site_url):
    index, source = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="load")
    cell = page.locator(f"#cell-{index}")
    set_code(cell, "while True:\n    pass")
    cell.locator(".bpe-live-run").click()
    stop = cell.locator(".bpe-live-stop")
    stop.wait_for(state="visible", timeout=STARTS)
    page.wait_for_function(
        "(node) => node.textContent.startsWith('running')",
        arg=cell.locator(".bpe-live-status").element_handle(),
        timeout=STARTS,
    )
    assert page.evaluate("() => 1 + 1") == 2  # the page itself is not blocked
    stop.click()
    assert "stopped" in cell.locator(".bpe-live-status").inner_text()
    cell.locator(".bpe-live-reset").click()
    assert "ran in" in run_and_wait(page, cell)  # a new Python, the cells above rerun
    stored = classify.stored_output(notebook(CHAPTER)["cells"][index]["outputs"])
    assert (shown(cell, "stdout"), shown(cell, "result") or None) == stored
    assert cell.locator(".bpe-live-status").inner_text().startswith("In [")


@pytest.mark.parametrize("path", marks.chapters(NOTEBOOKS), ids=lambda p: p.stem)
def test_every_code_cell_has_a_button_or_says_why_not(rendered, path):
    """In a chapter where cells run, each visible one has a Run button or a note; in
    one where none does, the note at the top says why its first cell cannot."""
    shown = rendered(f"notebooks/{path.stem}.html", 1280)["buttons"]
    book = notebook(path.stem)
    assert shown["intros"] == 1
    assert shown["link"].endswith("book/console.html")
    if classify.REASON_KEY in book["metadata"]:
        assert shown["offered"] == 0
        assert book["metadata"][classify.REASON_KEY] in shown["said"]
        return
    for i, cell in enumerate(book["cells"]):
        metadata = cell.get("metadata", {})
        tags = metadata.get("tags", [])
        if cell["cell_type"] != "code" or classify.hidden(tags):
            continue
        node = shown["cells"][str(i)]
        if "exercise" in metadata:  # an exercise's cell: Check and Reset (practice.js)
            assert node["check"] == 1, i
        elif classify.LIVE_TAG in tags:
            assert node["run"] == 1, i
        else:
            reason = metadata[classify.REASON_KEY]
            end = "" if reason.endswith(("…", ".", "?", "!")) else "."
            assert node["note"] == f"Runs in Jupyter only: {reason}{end}", i


def test_every_chapter_links_to_the_console(rendered, page, site_url):
    """Each chapter's note at the top links to the console; one link is followed."""
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert paths, NOTEBOOKS
    for path in paths:
        shown = rendered(f"notebooks/{path.stem}.html", 1280)["buttons"]
        assert shown["intros"] == 1, path.name
        assert shown["link"] == f"{site_url}/book/console.html", path.name
    page.goto(f"{site_url}/notebooks/{paths[0].stem}.html", wait_until="load")
    page.locator(".bpe-live-intro a").click()
    page.wait_for_url(f"{site_url}/book/console.html")


def console_run(page, code):
    """Type code into the console, press Enter, and wait until it has run."""
    box = page.locator(".bpe-console-input")
    box.fill(code)
    box.press("Enter")
    page.wait_for_function(
        """(code) => {
            const last = document.querySelector(".bpe-console-log").lastElementChild;
            return last && "done" in last.dataset
                && last.querySelector(".bpe-console-code").textContent === code;
        }""",
        arg=code,
        timeout=STARTS,
    )
    entry = page.locator(".bpe-console-entry").last
    return {
        kind: "".join(entry.locator(f"pre.bpe-live-{kind}").all_text_contents())
        for kind in ("stdout", "result", "error")
    }


def test_the_console_has_bpe_and_the_toy_corpus(page, site_url, toy_corpus):
    blocked = blocked_requests(page, site_url)
    page.goto(f"{site_url}/book/console.html", wait_until="load")
    assert "Python" in page.locator(".bpe-console-form").inner_text()
    console_run(
        page, 'vocab, merges = bpe.train(corpus, 265, specials=["<|endoftext|>"])'
    )
    setup = page.locator(".bpe-console-entry").first.inner_text()
    assert f"corpus holds the toy corpus ({len(toy_corpus)} characters)" in setup
    merges = bpe.train(toy_corpus, 265, specials=["<|endoftext|>"])[1]
    assert console_run(page, "len(merges), merges[-1]")["result"] == repr(
        (len(merges), merges[-1])
    )
    box = page.locator(".bpe-console-input")
    box.fill("def ids(text):")
    box.press("Enter")  # an unfinished statement: a new, indented line
    page.wait_for_function(
        "() => document.querySelector('.bpe-console-input').value.includes('\\n')"
    )
    assert box.input_value() == "def ids(text):\n    "
    box.type("return bpe.Tokenizer(vocab, merges).encode(text)")
    box.press("Enter")
    box.press("Enter")  # a blank line ends it, as at Python's prompt
    page.wait_for_function(
        "() => document.querySelector('.bpe-console-input').value === ''"
    )
    tok = bpe.Tokenizer(*bpe.train(toy_corpus, 265, specials=["<|endoftext|>"]))
    assert console_run(page, 'ids("lowest newest")')["result"] == repr(
        tok.encode("lowest newest")
    )
    failed = console_run(page, "ids(42)")
    assert failed["error"].startswith("Traceback (most recent call last):")
    assert "TypeError: text must be a str, not int" in failed["error"]
    assert blocked == []
    page.locator(".bpe-console").screenshot(path=str(SHOTS / "live__console.png"))


def test_the_console_at_phone_width(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{site_url}/book/console.html", wait_until="load")
    console_run(page, "bpe.pretokens('Xin chào thế giới, 12345 boats!')")
    width = page.evaluate("() => document.querySelector('.bpe-console').scrollWidth")
    page.screenshot(path=str(SHOTS / "phone__live_console.png"), full_page=True)
    context.close()
    assert width <= 390


SITE_FILES = """from bpe.interop.openai import get_encoding
from bpe.data import corpora
ids = get_encoding("o200k_base").encode("Xin chào thế giới 🙃")
pairs = corpora.en_vi_pairs("tatoeba")
print(ids, len(pairs), pairs[0][1])"""


def test_a_cell_reads_openais_encodings_and_the_data_from_the_site(page, site_url):
    """get_encoding and the data registry in the page: fetched from the site only
    (bpe.book.page.vocabularies.read_served, a synchronous request in the worker)."""
    from bpe.data import corpora
    from bpe.data import registry as data
    from bpe.interop.openai import get_encoding

    blocked = blocked_requests(page, site_url)
    files = []
    page.on("request", lambda r: files.append(r.url))
    index, _ = training_cell(CHAPTER)
    page.goto(f"{site_url}/notebooks/{CHAPTER}.html", wait_until="load")
    cell = page.locator(f"#cell-{index}")
    set_code(cell, SITE_FILES)
    status = run_and_wait(page, cell)
    assert "ran in" in status, status
    pairs = corpora.en_vi_pairs("tatoeba")
    ids = get_encoding("o200k_base").encode("Xin chào thế giới 🙃")
    credit = data.credits(list(corpora.EN_VI["tatoeba"]))  # where the page loads it
    assert shown(cell, "stdout") == f"{credit}\n{ids} {len(pairs)} {pairs[0][1]}\n"
    assert blocked == []
    assert any(u.endswith("/_static/playground/o200k_base.js") for u in files)
    assert any("/_static/live/data/en-vi/tatoeba" in u for u in files)
