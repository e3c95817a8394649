"""The built site, served on localhost, and Debian's headless Chromium (Playwright)."""

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

SITE = Path(__file__).resolve().parents[2] / "_build" / "html"
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


@pytest.fixture()
def page(browser, site_url):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    # The site must work with no network at all: refuse every request beyond localhost.
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(site_url)
            else route.abort()
        ),
    )
    page = context.new_page()
    yield page
    context.close()
