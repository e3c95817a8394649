"""Every built page in a real browser: no error output, no errors from the book's code,
a screenshot of each, and the merge explorer checked against bpe.train."""

import re
import warnings

import pytest

import bpe

from .conftest import SHOTS, SITE


def book_pages():
    """The site's chapters and prose pages (not Sphinx's search and index pages)."""
    pages = sorted(
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if "_static" not in p.parts and "_sources" not in p.parts
    )
    return [p for p in pages if p not in ("genindex.html", "search.html")]


ERROR_OUTPUT = ", ".join(
    f".cell_output .output.{kind}" for kind in ("traceback", "error", "stderr")
)


# The book's own scripts: explorer.js and playground.js name themselves (//# sourceURL),
# the first inline in the page; the playground's files come from _static/playground/.
OWN_CODE = ("bpe-explorer.js", "bpe-playground.js", "/_static/playground/")


def errors_from_own_code(page):
    """Collect, as they happen, errors thrown or logged by the book's own JavaScript.

    The theme's scripts are not the book's code, and their messages are left alone.
    """
    found = []
    page.on(
        "pageerror",
        lambda error: (
            any(own in (error.stack or "") for own in OWN_CODE)
            and found.append(error.stack)
        ),
    )
    page.on(
        "console",
        lambda msg: (
            msg.type == "error"
            and any(own in msg.location.get("url", "") for own in OWN_CODE)
            and found.append(msg.text)
        ),
    )
    return found


@pytest.mark.parametrize("path", book_pages())
def test_page_has_no_errors(page, site_url, path):
    own = errors_from_own_code(page)
    page.goto(f"{site_url}/{path}", wait_until="load")
    page.wait_for_timeout(300)
    text = page.inner_text("body")
    assert "Traceback (most recent call last)" not in text
    assert page.locator(ERROR_OUTPUT).count() == 0, "a cell shows error output"
    assert not own, own
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(
        path=str(SHOTS / (path.replace("/", "__").replace(".html", ".png"))),
        full_page=True,
    )


def test_math_renders_offline(page, site_url):
    page.goto(f"{site_url}/notebooks/04_counting_and_merging.html", wait_until="load")
    page.wait_for_selector("mjx-container", timeout=15000)
    assert page.locator("mjx-container").count() > 0


def show(token):
    """A token as the explorer prints it: a space as ␣, a newline as ⏎."""
    return token.decode("utf-8").replace(" ", "␣").replace("\n", "⏎")


def test_merge_explorer_matches_bpe_train(page, site_url):
    corpus = "the cat sat on the mat; the cat ate the rat. Xin chào thế giới 🙃🙃"
    own = errors_from_own_code(page)
    page.goto(f"{site_url}/notebooks/04_counting_and_merging.html", wait_until="load")
    explorer = page.locator(".bpe-explorer").first
    explorer.locator(".bpe-corpus").fill(corpus)
    explorer.locator(".bpe-reset").click()  # at once, not after the typing pause
    for _ in range(3):
        explorer.locator(".bpe-next").click()
    shown = explorer.locator(".bpe-merges li").all_inner_texts()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = bpe.train(corpus, 256 + 3)[1]
    assert shown == [f"{show(a)} + {show(b)}" for a, b in expected]
    assert "3 merges" in explorer.locator(".bpe-step").inner_text()
    ratio = explorer.locator(".bpe-ratio").inner_text()
    n_tokens = len(bpe.Tokenizer(*bpe.train(corpus, 256 + 3)).encode(corpus))
    assert re.match(rf"{n_tokens} tokens for {len(corpus.encode())} bytes", ratio)
    assert (
        "259 entries (256 bytes + 3 merges)"
        in explorer.locator(".bpe-vocab").inner_text()
    )
    steps = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bpe.train(
            corpus,
            256 + 4,
            on_merge=lambda pairs, best: steps.append((dict(pairs), best)),
        )
    pairs, best = steps[3]  # what the fourth merge is chosen from
    top = max(pairs.values())
    winner = explorer.locator(".bpe-pairs tr.bpe-winner").inner_text().split("\t")
    assert winner[:2] == [f"{show(best[0])} {show(best[1])}", str(top)]
    tied = sum(n == top for n in pairs.values())
    assert explorer.locator(".bpe-pairs tr.bpe-tie").count() == tied - 1
    assert (
        f"{len(pairs)} distinct pairs; {tied} share the top count"
        in explorer.locator(".bpe-ties").inner_text()
    )
    explorer.locator(".bpe-slider").fill(
        "5"
    )  # a range input: fill sets its value and fires "input"
    assert explorer.locator(".bpe-merges li").count() == 5
    explorer.locator(".bpe-reset").click()
    assert explorer.locator(".bpe-merges li").count() == 0
    assert not own, own
    SHOTS.mkdir(parents=True, exist_ok=True)
    explorer.screenshot(path=str(SHOTS / "merge_explorer.png"))


def test_explorer_draws_combining_marks_on_a_dotted_circle(page, site_url):
    """A token that starts with a combining mark (decomposed Vietnamese) gets a base."""
    page.goto(f"{site_url}/notebooks/04_counting_and_merging.html", wait_until="load")
    explorer = page.locator(".bpe-explorer").first
    explorer.locator(".bpe-corpus").fill(
        "the\u0302\u0301 the\u0302\u0301 the\u0302\u0301"
    )
    explorer.locator(".bpe-reset").click()
    explorer.locator(".bpe-next").click()  # the first merge joins U+0302's two bytes
    tokens = explorer.locator(".bpe-token").all_inner_texts()
    assert "\u25cc\u0302" in tokens, tokens


def test_unicode_renders_with_real_fonts(page, site_url):
    """牛, 🙃 and Vietnamese letters come from a real font, not the missing box."""
    page.goto(f"{site_url}/notebooks/02_bytes.html", wait_until="load")
    drawn = page.evaluate(
        """(chars) => {
        const draw = (ch) => {
            const canvas = document.createElement("canvas");
            canvas.width = 64; canvas.height = 64;
            const context = canvas.getContext("2d");
            context.font = "40px sans-serif";
            context.fillText(ch, 4, 48);
            return canvas.toDataURL();
        };
        const missing = draw("\\u{10FFFD}");  // a private-use code point no font covers
        return chars.map((ch) => draw(ch) !== missing);
    }""",
        ["牛", "🙃", "ế", "ờ"],
    )
    assert drawn == [True, True, True, True]


def test_figures_fit_a_phone_screen(browser, site_url):
    """At phone width (390 px) every figure is scaled to fit, and stays large enough."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2
    )
    page = context.new_page()
    page.goto(f"{site_url}/notebooks/10_languages.html", wait_until="load")
    widths = page.evaluate(
        """() => Array.from(document.querySelectorAll(".cell_output img"),
                            (img) => img.getBoundingClientRect().width)"""
    )
    page.screenshot(path=str(SHOTS / "phone__10_languages.png"), full_page=False)
    context.close()
    assert widths and all(300 <= w <= 390 for w in widths), widths


CLIPPED = """() => {
    const clipped = [];
    const over = (el) => el.scrollWidth > el.clientWidth + 1;
    for (const el of document.querySelectorAll(
            "div.cell_input pre, div.cell_output pre, div.cell_output div.output")) {
        if (el.getClientRects().length && over(el)) {
            clipped.push(el.tagName + ": " + el.innerText.split("\\n")[0].slice(0, 60));
        }
    }
    let room = null;  // does a line of 88 characters fit in a code cell?
    const pre = document.querySelector("div.cell_input pre");
    if (pre) {
        const probe = document.createElement("span");
        probe.textContent = "x".repeat(88);
        pre.appendChild(probe);
        room = probe.getBoundingClientRect().width <= pre.clientWidth;
        probe.remove();
    }
    return {clipped, room};
}"""


@pytest.mark.parametrize(
    "path", [p for p in book_pages() if p.startswith("notebooks/")]
)
def test_no_line_is_clipped_at_laptop_width(browser, site_url, path):
    """At 1280 px, 88 characters fit a code cell; no code, output or table scrolls."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    found = page.evaluate(CLIPPED)
    context.close()
    assert found["clipped"] == [], found["clipped"]
    assert found["room"] in (True, None)


def test_launch_buttons_use_the_configured_repository_or_are_absent():
    """The header's launch and repository links go to repository.url, and only there."""
    from bs4 import BeautifulSoup

    from bpe.book import site

    url = site.repository_url(site.load_config(SITE.parents[1] / "_config.yml"))
    links = []
    for path in book_pages():
        soup = BeautifulSoup((SITE / path).read_text(encoding="utf-8"), "html.parser")
        for header in soup.select(".article-header-buttons"):
            links += [a.get("href", "") for a in header.select("a")]
    assert links, "no header buttons found: has the theme changed?"
    outside = [h for h in links if h.startswith("http")]
    launch = [
        h for h in outside if "mybinder.org" in h or "colab.research.google.com" in h
    ]
    if not url:
        assert outside == [], outside
    else:
        repo = url.rstrip("/").split("github.com/")[-1]
        assert launch and all(repo in h for h in launch), launch


def test_playground_counts_what_the_package_counts(page, site_url):
    """Typing into the playground shows the package's token count and first token."""
    from bpe.book.playground import stories_tokenizer
    from bpe.interop.openai import get_encoding

    own = errors_from_own_code(page)
    page.goto(f"{site_url}/book/playground.html", wait_until="load")
    text = "Xin chào thế giới! Once upon a time, 12345 boats."
    page.locator(".bpe-playground-text").fill(text)
    encoders = {"tinystories": stories_tokenizer(), "gpt2": get_encoding("gpt2")}
    for name, encoder in encoders.items():
        ids = encoder.encode_ordinary(text)
        column = page.locator(f'.bpe-playground-column[data-vocabulary="{name}"]')
        counts = column.locator(".bpe-playground-counts").inner_text()
        assert counts.startswith(
            f"{len(ids)} tokens · {len(text.encode())} bytes · {len(text)} characters"
        ), counts
        first = column.locator(".bpe-playground-token").first
        assert first.get_attribute("data-id") == str(ids[0])
        assert first.inner_text() == show(encoder.decode_single_token_bytes(ids[0]))
    assert not own, own
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".bpe-playground").screenshot(path=str(SHOTS / "token_playground.png"))
