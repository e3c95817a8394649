"""The built site, served on localhost, and a headless Chromium (Debian's) driven by
Playwright."""

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

SITE = Path(__file__).resolve().parents[2] / "_build" / "html"
PHONE_HEIGHT = 844  # px: the window of a 390 x 844 phone
SHOTS = Path(__file__).resolve().parents[2] / "_build" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def site_url():
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no built site at {SITE}: run `make book` first")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # the tests report what matters; no request log
            pass

    handler = functools.partial(Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def book_pages():
    """The site's chapters and prose pages (not Sphinx's search and index pages, nor
    index.html, which only redirects to book/intro.html)."""
    pages = sorted(
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if "_static" not in p.parts and "_sources" not in p.parts
    )
    return [p for p in pages if p not in ("genindex.html", "search.html", "index.html")]


def offline_context(browser, site_url, width=1200, height=900, **options):
    """A fresh browser context (no stored state) that refuses every request leaving the
    site: the site must work with no network at all."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, **options
    )
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(site_url)
            else route.abort()
        ),
    )
    return context


def errors_on(page):
    """Collect, as they happen, every error the page throws or logs to the console,
    whoever's script it comes from (the book's, the theme's, an extension's)."""
    found = []
    page.on("pageerror", lambda error: found.append(f"uncaught: {error}"))
    page.on(
        "console",
        lambda msg: (
            msg.type == "error"
            and found.append(f"console: {msg.text} ({msg.location.get('url', '')})")
        ),
    )
    return found


@pytest.fixture(scope="session")
def rendered(browser, site_url):
    """rendered(path, width): the page's measurements (measures.py), taken on first use
    and kept, so that each page is loaded once per width (the window 844 px high, a
    phone's). For screenshots to look at, ../shared/tools/shoot.py."""
    from .measures import AFTER_LAYOUT, LAYOUT, cues

    taken = {}

    def measure(path, width):
        if (path, width) not in taken:
            context = offline_context(browser, site_url, width, PHONE_HEIGHT)
            page = context.new_page()
            errors = errors_on(page)
            page.goto(f"{site_url}/{path}", wait_until="load")
            page.wait_for_timeout(300)  # scripts that run after load (async ones)
            found = page.evaluate(LAYOUT)
            for name, script in AFTER_LAYOUT.items():
                found[name] = page.evaluate(script)
            found["cues"] = cues(page, width)  # last: it scrolls the wide boxes
            found["errors"] = list(errors)
            context.close()
            taken[path, width] = found
        return taken[path, width]

    return measure


@pytest.fixture()
def page(browser, site_url):
    context = offline_context(browser, site_url)
    page = context.new_page()
    yield page
    context.close()
