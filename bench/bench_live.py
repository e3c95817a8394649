"""make bench (the page's Python): a Run in headless Chromium, against CPython.

On the built site (``make book``), served on localhost with every other request
refused, chapter 04's training cell (``marks.training_cell``) is clicked in fresh
browser contexts, each with an empty cache:

1. from the first click to the first output, and to the end of the run: Python's
   download (from localhost), start and the cells above, then the cell;
2. the same in a new page of the same context: the files now come from the cache;
3. a second run of the cell in the same page, against the same code in this CPython
   (medians; the ratio is the price of WebAssembly);
4. how much the site grows: Pyodide's files, the book's archive, the scripts, the
   console page, and what the pages' own additions weigh.

Results also go to _build/bench/live.json.
"""

import functools
import gzip
import http.server
import json
import os
import re
import shutil
import statistics
import sys
import threading
from pathlib import Path

from bpe.book.live import cells, marks

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "bench"
CHAPTER = "04_counting_and_merging"
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic"]


def serve(folder):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


CLICK = """async (index) => {
    const cell = document.getElementById(`cell-${index}`);
    const box = cell.querySelector("[data-live-output]");
    const status = cell.querySelector(".bpe-live-status");
    const began = performance.now();
    let first = null;
    const seen = new MutationObserver(() => {
        if (first === null && box.textContent) first = performance.now() - began;
    });
    seen.observe(box, { childList: true, subtree: true, characterData: true });
    cell.querySelector(".bpe-live-run").click();
    while (!/^In \\[\\d+\\]/.test(status.textContent)) {
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
    seen.disconnect();
    return { first: first ?? performance.now() - began, done: performance.now() - began,
             status: status.textContent };
}"""


def click(page, index, phases=None):
    timing = page.evaluate(CLICK, index)
    if "ran in" not in timing["status"]:
        raise RuntimeError(f"the cell did not run: {timing['status']}")
    if phases is not None:
        phases.append(page.evaluate("() => window.bpeLive.python.phases"))
    return timing["first"] / 1000, timing["done"] / 1000


def cpython_seconds(notebook, index):
    """The cell's run time in this CPython, after the cells above (as in the page)."""
    namespace, here = {"__name__": "__main__"}, os.getcwd()
    os.chdir(ROOT / "notebooks")
    try:
        for i, source, _ in marks.live_cells(notebook):
            cells.run_cell(source, namespace)
            if i == index:
                return statistics.median(
                    cells.run_cell(source, namespace).seconds for _ in range(REPEATS)
                )
    finally:
        os.chdir(here)
    raise ValueError(f"cell {index} is not live")


def site_growth():
    """Bytes the page's Python adds to the site, by part, and the site's total."""
    static = SITE / "_static"
    parts = {
        "pyodide": sum(f.stat().st_size for f in (static / "pyodide").iterdir()),
        "archive and scripts": sum(
            f.stat().st_size for f in (static / "live").iterdir()
        ),
        "console page": (SITE / "book" / "console.html").stat().st_size,
    }
    data = re.compile(rb'<script id="bpe-live-data"[^>]*>.*?</script>', re.S)
    parts["pages' cell data"] = sum(
        sum(len(m) for m in data.findall(p.read_bytes())) for p in SITE.rglob("*.html")
    )
    download = (
        sum(
            (static / "pyodide" / name).stat().st_size
            for name in marks.archive.PYODIDE_FILES
        )
        + (static / "live" / marks.archive.ARCHIVE).stat().st_size
    )
    compressed = sum(
        len(gzip.compress((static / "pyodide" / name).read_bytes(), 6))
        for name in marks.archive.PYODIDE_FILES
    )
    total = sum(f.stat().st_size for f in SITE.rglob("*") if f.is_file())
    return parts, download, compressed, total


def clicks(index: int) -> tuple[list, list, list, list]:
    """Timings of clicking Run on cell index, REPEATS times: with an empty cache,
    again on the same page, and on a new page whose files come from the cache."""
    from playwright.sync_api import sync_playwright

    server, url = serve(SITE)
    cold, warm, second, phases = [], [], [], []
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS)
        for _ in range(REPEATS):
            context = browser.new_context()  # an empty cache
            context.route(
                "**/*",
                lambda r: r.continue_() if r.request.url.startswith(url) else r.abort(),
            )
            page = context.new_page()
            page.goto(f"{url}/notebooks/{CHAPTER}.html", wait_until="load")
            cold.append(click(page, index, phases))
            second.append(click(page, index)[1])
            page.close()
            page = context.new_page()  # a new worker; the files come from the cache
            page.goto(f"{url}/notebooks/{CHAPTER}.html", wait_until="load")
            warm.append(click(page, index))
            context.close()
        browser.close()
    server.shutdown()
    return cold, warm, second, phases


def report(result: dict) -> None:
    """The measurements, as sentences."""
    native, parts = result["cpython_s"], result["site_growth_bytes"]
    download, total = result["first_run_download_bytes"], result["site_total_bytes"]
    compressed = result["pyodide_gzip_bytes"]
    print(f"The page's Python, {result['cell']} (medians of {REPEATS}):")
    print(
        f"  first click to first output: {result['cold_first_output_s']:.2f} s "
        f"(done {result['cold_done_s']:.2f} s) with an empty cache; "
        f"{result['cached_first_output_s']:.2f} s "
        f"(done {result['cached_done_s']:.2f} s) from the cache"
    )
    print(
        "  of which Python's start: "
        + ", ".join(f"{k} {v:.2f} s" for k, v in result["start_phases_s"].items())
    )
    print(
        f"  a second run: {1000 * result['second_run_s']:.0f} ms, against "
        f"{1000 * native:.1f} ms in CPython ({result['second_run_over_cpython']:.0f}x; "
        "the page's time includes the messages to and from its worker)"
    )
    grown = sum(parts.values())
    print(
        f"  the site grows by {grown / 1e6:.1f} MB "
        + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in parts.items())
        + f"; now {total / 1e6:.1f} MB in all. The first Run downloads "
        f"{download / 1e6:.1f} MB ({compressed / 1e6:.1f} MB of Pyodide's if the "
        "server compresses it)"
    )


def main():
    if not (SITE / "notebooks" / f"{CHAPTER}.html").is_file():
        sys.exit(f"no built site in {SITE}: run `make book` first")
    notebook = json.loads((ROOT / "notebooks" / f"{CHAPTER}.ipynb").read_text("utf-8"))
    found = marks.training_cell(notebook)
    if found is None:
        sys.exit(f"{CHAPTER} has no cell with a Run button that trains on the corpus")
    index = found[0]
    cold, warm, second, phases = clicks(index)
    native = cpython_seconds(notebook, index)
    parts, download, compressed, total = site_growth()
    median = statistics.median
    result = {
        "cell": f"{CHAPTER}, cell {index}",
        "repeats": REPEATS,
        "cold_first_output_s": median(c[0] for c in cold),
        "cold_done_s": median(c[1] for c in cold),
        "cached_first_output_s": median(w[0] for w in warm),
        "cached_done_s": median(w[1] for w in warm),
        "start_phases_s": {k: median(p[k] for p in phases) for k in phases[0]},
        "second_run_s": median(second),
        "cpython_s": native,
        "second_run_over_cpython": median(second) / native,
        "site_growth_bytes": parts,
        "first_run_download_bytes": download,
        "pyodide_gzip_bytes": compressed,
        "site_total_bytes": total,
    }
    report(result)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "live.json").write_text(
        json.dumps(result, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
