"""make bench (the page's Python): a Run in headless Chromium, against CPython.

On the built site (``make book``; or the one in the folder given as the argument,
such as an older build kept for comparison), served on localhost with every other
request refused, chapter 04's training cell (``marks.training_cell``) is clicked in
fresh browser profiles, each with an empty cache. As a reader would, the page loads,
the cell is scrolled into view, and the click comes after a delay: ``READER_S`` (the
time to read a few lines of code before pressing Run) and 0 (a click right at load):

1. from the first click to the first output, and to the end of the run: what is left
   of Python's download (from localhost) and start (live.js starts it before the
   click, when a Run button comes into view), the cells above, then the cell; both
   as the site starts Python (from its memory snapshot, archive.SNAPSHOT) and, side
   by side, with the snapshot refused (from scratch, as before it existed);
2. the same in a new page of the same profile: the files (and V8's compiled code,
   the WebAssembly's too) now come from its cache;
3. a second run of the cell in the same page, against the same code in this CPython
   (medians; the ratio is the price of WebAssembly);
4. how much the site grows: Pyodide's files, the book's archive, the scripts, the
   console page, and what the pages' own additions weigh.

Results also go to _build/bench/live.json.
"""

import functools
import gzip
import http.server
import itertools
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

from bpe.book.page import cells
from bpe.book.site import marks

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "_build" / "html"
OUT = ROOT / "_build" / "bench"
CHAPTER = "04_counting_and_merging"
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
READER_S = 3.0  # a reader's pause between the cell coming into view and the click
DELAYS = (READER_S, 0.0)
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


def visit(page, url, index, delay):
    """Open the chapter, bring the cell into view, wait delay seconds as a reader."""
    page.goto(f"{url}/notebooks/{CHAPTER}.html", wait_until="load")
    page.locator(f"#cell-{index} .bpe-live-run").scroll_into_view_if_needed()
    page.wait_for_timeout(delay * 1000)


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
        + (static / "live" / marks.archive.SNAPSHOT).stat().st_size
    )
    compressed = sum(
        len(gzip.compress((static / "pyodide" / name).read_bytes(), 6))
        for name in marks.archive.PYODIDE_FILES
    )
    total = sum(f.stat().st_size for f in SITE.rglob("*") if f.is_file())
    return parts, download, compressed, total


def clicks(index: int, snapshot: bool = True) -> tuple[dict, dict, list, list]:
    """Timings of clicking Run on cell index, REPEATS times for each delay: in a fresh
    browser profile ({delay: [(first, done)]}), on a new page whose files come from
    that profile's cache (the same), and again on the same page (after the click at
    load). A profile on disk, not a private context, as a reader's browser has: the
    cache of a private one keeps no compiled code (V8's, for the WebAssembly too).
    Without snapshot, the site's memory snapshot is refused: Python starts from
    scratch, as it did before there was one."""
    from playwright.sync_api import sync_playwright

    server, url = serve(SITE)
    cold, warm = {d: [] for d in DELAYS}, {d: [] for d in DELAYS}
    second, phases = [], {"cold": [], "cached": []}  # of the clicks at load
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        for _, delay in itertools.product(range(REPEATS), DELAYS):
            with tempfile.TemporaryDirectory() as profile:
                context = p.chromium.launch_persistent_context(
                    profile, executable_path=executable, args=ARGS
                )
                context.route(
                    "**/*",
                    lambda r: (
                        r.continue_() if r.request.url.startswith(url) else r.abort()
                    ),
                )
                if not snapshot:
                    context.route(f"**/{marks.archive.SNAPSHOT}", lambda r: r.abort())
                page = context.new_page()
                visit(page, url, index, delay)
                cold[delay].append(
                    click(page, index, phases["cold"] if not delay else None)
                )
                if delay == 0:
                    second.append(click(page, index)[1])
                page.close()
                page = context.new_page()  # a new worker; the files from the cache
                visit(page, url, index, delay)
                warm[delay].append(
                    click(page, index, phases["cached"] if not delay else None)
                )
                context.close()
    server.shutdown()
    return cold, warm, second, phases


def medians(index: int, snapshot: bool) -> dict:
    """clicks(index, snapshot), as medians: first output, done, the start's phases."""
    cold, warm, second, phases = clicks(index, snapshot)
    median = statistics.median
    return {
        "first_output_s": {
            "cold": {d: median(c[0] for c in cold[d]) for d in DELAYS},
            "cached": {d: median(w[0] for w in warm[d]) for d in DELAYS},
        },
        "done_s": {
            "cold": {d: median(c[1] for c in cold[d]) for d in DELAYS},
            "cached": {d: median(w[1] for w in warm[d]) for d in DELAYS},
        },
        "start_phases_s": {
            profile: {k: median(p[k] for p in found) for k in found[0]}
            for profile, found in phases.items()
        },
        "second_run_s": median(second),
    }


STARTS = {
    "with_snapshot": "from the site's memory snapshot",
    "without_snapshot": "from scratch (the snapshot refused)",
}


def report_clicks(timings: dict) -> None:
    first, done = timings["first_output_s"], timings["done_s"]
    for delay in DELAYS:
        print(
            f"    clicked {delay:g} s after the cell came into view, first click to "
            f"first output: {first['cold'][delay]:.2f} s (done "
            f"{done['cold'][delay]:.2f} s) in a fresh profile; "
            f"{first['cached'][delay]:.2f} s (done "
            f"{done['cached'][delay]:.2f} s) from the cache"
        )
    for profile, phases in timings["start_phases_s"].items():
        print(
            f"    Python's start ({profile}): "
            + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items())
        )


def report(result: dict) -> None:
    """The measurements, as sentences."""
    native, parts = result["cpython_s"], result["site_growth_bytes"]
    download, total = result["first_run_download_bytes"], result["site_total_bytes"]
    compressed = result["pyodide_gzip_bytes"]
    print(f"The page's Python, {result['cell']} (medians of {REPEATS}):")
    for key, how in STARTS.items():
        print(f"  Python started {how}:")
        report_clicks(result[key])
    second = result["with_snapshot"]["second_run_s"]
    print(
        f"  a second run: {1000 * second:.0f} ms, against "
        f"{1000 * native:.1f} ms in CPython ({second / native:.0f}x; "
        "the page's time includes the messages to and from its worker)"
    )
    grown = sum(parts.values())
    print(
        f"  the site grows by {grown / 1e6:.1f} MB "
        + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in parts.items())
        + f"; now {total / 1e6:.1f} MB in all. The first Run downloads "
        f"{download / 1e6:.1f} MB ({compressed / 1e6:.1f} MB of Pyodide's if the "
        "server compresses it; the snapshot is compressed already)"
    )


def main():
    if not (SITE / "notebooks" / f"{CHAPTER}.html").is_file():
        sys.exit(f"no built site in {SITE}: run `make book` first")
    notebook = json.loads((ROOT / "notebooks" / f"{CHAPTER}.ipynb").read_text("utf-8"))
    found = marks.training_cell(notebook)
    if found is None:
        sys.exit(f"{CHAPTER} has no cell with a Run button that trains on the corpus")
    index = found[0]
    timed = {key: medians(index, key == "with_snapshot") for key in STARTS}
    native = cpython_seconds(notebook, index)
    parts, download, compressed, total = site_growth()
    result = {
        "cell": f"{CHAPTER}, cell {index}",
        "repeats": REPEATS,
        "site": str(SITE),
        "reader_delay_s": READER_S,
        **timed,
        "cpython_s": native,
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
