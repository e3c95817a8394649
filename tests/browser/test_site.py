"""The site's interactive parts in a real browser, checked against the package (the
merge explorer against bpe.train, the playground against the tokenizers), offline math,
fonts, figures on a phone, and the launch buttons. The layout of every page:
test_pages.py."""

import re
import warnings

from playwright.sync_api import expect

import bpe

from .conftest import SHOTS, SITE, book_pages, errors_on


def test_math_renders_offline(page, site_url):
    page.goto(f"{site_url}/notebooks/04_counting_and_merging.html", wait_until="load")
    page.wait_for_selector("mjx-container", timeout=60_000)
    assert page.locator("mjx-container").count() > 0


def show(token):
    """A token as the explorer prints it: a space as ␣, a newline as ⏎."""
    return token.decode("utf-8").replace(" ", "␣").replace("\n", "⏎")


def test_merge_explorer_matches_bpe_train(page, site_url):
    corpus = "the cat sat on the mat; the cat ate the rat. Xin chào thế giới 🙃🙃"
    errors = errors_on(page)
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
    assert errors == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    explorer.screenshot(path=str(SHOTS / "merge_explorer.png"))


def test_explorer_draws_combining_marks_on_a_dotted_circle(page, site_url):
    """A token that starts with a combining mark (decomposed Vietnamese) gets a base to
    sit on."""
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
    """牛, 🙃 and Vietnamese letters must be drawn from a real font, not as the
    missing-glyph box."""
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


def fonts_drawing(page, selector, text):
    """The fonts Chromium drew the first element matching selector and holding text
    with: {family: number of glyphs}."""
    page.locator(selector).filter(has_text=text).first.evaluate(
        "(el) => el.setAttribute('data-fonts-probe', '')"
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send(
        "DOM.querySelector", {"nodeId": root, "selector": "[data-fonts-probe]"}
    )
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    cdp.detach()
    return {font["familyName"]: font["glyphCount"] for font in fonts}


def test_emoji_are_drawn_in_colour_in_prose_tables_and_code(page, site_url):
    """🙃 comes from the colour emoji font, not from a text font's black-and-white
    copy (DejaVu Sans has one), wherever chapter 02 shows it."""
    page.goto(f"{site_url}/notebooks/02_bytes.html", wait_until="load")
    in_table = fonts_drawing(page, "div.cell_output th", "🙃")
    in_code = fonts_drawing(page, "div.cell_input pre span", "🙃")
    assert in_table == {"Noto Color Emoji": 1}, in_table
    assert in_code.get("Noto Color Emoji") == 1, in_code


def first_page_with(selector, text):
    """The first chapter whose built page has an element matching selector holding
    text, or None."""
    from bs4 import BeautifulSoup

    for path in book_pages():
        soup = BeautifulSoup((SITE / path).read_text(encoding="utf-8"), "html.parser")
        if any(text in el.get_text() for el in soup.select(selector)):
            return path
    return None


def test_the_visible_space_is_drawn_as_an_open_box_in_code(page, site_url):
    """␣ in inline code comes from a font that draws it as a box (DejaVu Sans Mono), not
    from the CJK font whose small low glyph reads as an underscore."""
    path = first_page_with("article p code", "␣")
    assert path is not None, "no page shows ␣ in inline code"  # chapters 09-11 do
    page.goto(f"{site_url}/{path}", wait_until="load")
    fonts = fonts_drawing(page, "article p code", "␣")
    assert fonts.get("DejaVu Sans Mono", 0) >= 1, fonts
    assert "Noto Sans Mono CJK SC" not in fonts, fonts


def test_figures_fit_a_phone_screen(browser, site_url):
    """At phone width (390 px) every figure is scaled to fit, and stays large enough to
    read."""
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


def test_launch_buttons_use_the_configured_repository_or_are_absent():
    """The header's launch and repository links point at repository.url, and only
    there."""
    from bs4 import BeautifulSoup

    from bpe.book.site import config as site

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
    """Typing into the playground shows the package's token count and first token, for
    both."""
    from bpe.book.site.playground import stories_tokenizer
    from bpe.interop.openai import get_encoding

    errors = errors_on(page)
    page.goto(f"{site_url}/book/playground.html", wait_until="load")
    text = "Xin chào thế giới! Once upon a time, 12345 boats."
    page.locator(".bpe-playground-text").fill(text)
    encoders = {"tinystories": stories_tokenizer(), "gpt2": get_encoding("gpt2")}
    for name, encoder in encoders.items():
        ids = encoder.encode_ordinary(text)
        column = page.locator(f'.bpe-playground-column[data-vocabulary="{name}"]')
        size = f"{len(text.encode())} bytes · {len(text)} characters"
        said = f"{len(ids)} tokens · {size}"
        # the columns update after the typing, when their vocabulary has loaded: wait
        # for the text (60 s: a hang guard, not a speed check), then compare it
        counts = column.locator(".bpe-playground-counts")
        expect(counts).to_have_text(re.compile("^" + re.escape(said)), timeout=60_000)
        first = column.locator(".bpe-playground-token").first
        expect(first).to_have_attribute("data-id", str(ids[0]), timeout=60_000)
        assert first.inner_text() == show(encoder.decode_single_token_bytes(ids[0]))
    assert errors == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".bpe-playground").screenshot(path=str(SHOTS / "token_playground.png"))
