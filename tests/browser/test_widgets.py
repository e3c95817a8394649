"""The merge explorer and the token playground, steered as a reader would, in Chromium.

Every switch must change what it should, and what the page then shows must equal
what the package computes; pasting 20,000 letters must leave the page responsive;
a copied link must restore the view; and both widgets must fit a phone (390 px).
"""

import json
import re
import warnings
from urllib.parse import parse_qs, urlsplit

import pytest

import bpe
from bpe.book.chapters.display import trace_encode
from bpe.book.site.playground import encoders as playground_encoders

from .conftest import SHOTS, SITE, errors_on
from .test_site import show

CHAPTER = "notebooks/04_counting_and_merging.html"
PLAYGROUND = "book/playground.html"
TOY = (SITE.parents[1] / "data" / "toy_corpus.txt").read_text(encoding="utf-8")
EOT = bpe.ENDOFTEXT
# No task of the page may hold the main thread this long (the old encoder took 3.9 s
# on 10,000 letters); what it takes is measured in `make bench`, not here.
LONGEST_TASK_MS = 1000


def train(text, merges, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bpe.train(text, 256 + merges, **options)


def shown_merges(explorer):
    return explorer.locator(".bpe-merges li").all_inner_texts()


def as_shown(merges):
    return [f"{show(a)} + {show(b)}" for a, b in merges]


@pytest.fixture(scope="module")
def encoders():
    return playground_encoders()


@pytest.fixture()
def explorer(page, site_url):
    own = errors_on(page)
    page.goto(f"{site_url}/{CHAPTER}", wait_until="load")
    yield page.locator(".bpe-explorer").first
    assert not own, own


def restart_with(explorer, corpus):
    explorer.locator(".bpe-corpus").fill(corpus)
    explorer.locator(".bpe-reset").click()


# ---- the merge explorer -------------------------------------------------------


def test_every_pair_is_in_the_table(explorer):
    """All 14 pairs of the toy corpus, (␣, w) 3 and (e, r) 2 among them."""
    pairs = bpe.count_pairs(bpe.pretokenize(TOY))
    rows = explorer.locator(".bpe-pairs tr").all_inner_texts()[1:]  # after the header
    cells = [row.split("\t")[:2] for row in rows]
    assert len(cells) == len(pairs) == 14
    assert ["␣ w", "3"] in cells and ["e r", "2"] in cells
    assert f"{len(pairs)} distinct pairs" in explorer.locator(".bpe-ties").inner_text()


def test_it_updates_while_the_reader_types(explorer):
    box = explorer.locator(".bpe-corpus")
    box.fill("")
    box.press_sequentially("hug hug hug pug", delay=20)  # no change event, no blur
    expected = bpe.count_pairs(bpe.pretokenize("hug hug hug pug"))
    explorer.page.wait_for_function(
        """(n) => document.querySelectorAll(".bpe-explorer .bpe-pairs tr").length
                 === n + 1""",
        arg=len(expected),
        timeout=60_000,
    )
    assert explorer.locator(".bpe-corpus").evaluate(
        "(e) => e === document.activeElement"
    )
    top = explorer.locator(".bpe-pairs tr.bpe-winner").inner_text().split("\t")
    assert top[:2] == ["u g", "4"]


def test_step_back_and_go_to_a_merge(explorer):
    restart_with(explorer, TOY)
    for _ in range(3):
        explorer.locator(".bpe-next").click()
    explorer.locator(".bpe-back").click()
    assert shown_merges(explorer) == as_shown(train(TOY, 2)[1])
    explorer.locator(".bpe-goto").fill("7")
    explorer.locator(".bpe-goto").press("Enter")
    assert shown_merges(explorer) == as_shown(train(TOY, 7)[1])
    assert explorer.locator(".bpe-slider").input_value() == "7"
    explorer.locator(".bpe-goto").fill("0")
    explorer.locator(".bpe-goto").press("Enter")
    assert shown_merges(explorer) == []
    assert explorer.locator(".bpe-back").is_disabled()


@pytest.mark.parametrize("rule", ["greater", "lowest"])
def test_the_tie_break_switch(explorer, rule):
    tie_break = {"greater": bpe.greater_pair, "lowest": bpe.lowest_ids}[rule]
    restart_with(explorer, TOY)
    explorer.locator(f'input[data-group="tie"][value="{rule}"]').check()
    explorer.locator(".bpe-goto").fill("8")
    explorer.locator(".bpe-goto").press("Enter")
    assert shown_merges(explorer) == as_shown(train(TOY, 8, tie_break=tie_break)[1])
    # Where the two rules part: on the toy corpus, at once, (s, t) against (e, s).
    differ = explorer.locator(".bpe-differ").inner_text()
    assert (
        "merge 1 is (s, t) by the greater pair and (e, s) by the smaller ids" in differ
    )
    explorer.locator(".bpe-goto-difference").click()
    assert len(shown_merges(explorer)) == 1


def test_where_the_rules_part_on_a_longer_text(explorer):
    text = "the cat sat on the mat; the cat ate the rat. " * 3 + "a bird, a dog, a cow."
    restart_with(explorer, text)
    greater = train(text, 100, tie_break=bpe.greater_pair)[1]
    lowest = train(text, 100, tie_break=bpe.lowest_ids)[1]
    at = next(
        i for i, (a, b) in enumerate(zip(greater, lowest, strict=False)) if a != b
    )
    differ = explorer.locator(".bpe-differ").inner_text()
    g, lo = greater[at], lowest[at]
    assert (
        f"merge {at + 1} is ({show(g[0])}, {show(g[1])}) by the greater pair and "
        f"({show(lo[0])}, {show(lo[1])}) by the smaller ids"
    ) in differ


def test_the_pretokenizer_switch(explorer, tinystories_text):
    """Without a pre-tokenizer, merges glue words' ends to the next space (ch. 03)."""
    text = tinystories_text[:4000]
    restart_with(explorer, text)
    explorer.locator('input[data-group="pre"][value="none"]').check()
    explorer.locator(".bpe-goto").fill("10")
    explorer.locator(".bpe-goto").press("Enter")
    expected = train(text, 10, pattern=None)[1]
    assert shown_merges(explorer) == as_shown(expected)
    assert any(a + b != b" " and (a + b).endswith(b" ") for a, b in expected)
    assert explorer.locator(".bpe-table tr").count() == 2  # the header and one piece
    explorer.locator('input[data-group="pre"][value="gpt2"]').check()
    with_regex = train(text, 10)[1]
    assert shown_merges(explorer) == as_shown(with_regex)
    assert not any(len(a + b) > 1 and (a + b).endswith(b" ") for a, b in with_regex)


@pytest.mark.parametrize("word", ["lowest", " newest"])
def test_encode_a_word_shows_chapter_05s_trace(explorer, word):
    restart_with(explorer, TOY)
    explorer.locator(".bpe-goto").fill("8")
    explorer.locator(".bpe-goto").press("Enter")
    explorer.locator(".bpe-word").fill(word)
    vocab, merges = train(TOY, 8)
    expected = trace_encode(word, bpe.Tokenizer(vocab, merges))
    assert explorer.locator(".bpe-trace").inner_text() == expected


@pytest.fixture(scope="module")
def tinystories_text():
    from bpe.data.corpora import heldout_stories

    return "".join(heldout_stories()[:20])


# ---- the token playground -----------------------------------------------------


def open_playground(page, url, query=""):
    page.goto(f"{url}/{PLAYGROUND}{query}", wait_until="load")
    page.wait_for_selector(".bpe-playground[data-drawn]")


def drawn(page):
    return page.get_attribute(".bpe-playground", "data-drawn")


def redraw(page, action):
    """Do action, then wait until the page has drawn the view it asked for."""
    before = drawn(page)
    action()
    page.wait_for_function(
        "(n) => document.querySelector('.bpe-playground').dataset.drawn !== n",
        arg=before,
        timeout=30000,
    )


def column(page, name):
    return page.locator(f'.bpe-playground-column[data-vocabulary="{name}"]')


def ids_of(page, name):
    text = column(page, name).locator(".bpe-playground-ids p").text_content()
    return [int(i) for i in text.split(", ")] if text else []


def choose(page, name, on=True):
    box = page.locator(f'.bpe-playground-choice[data-vocabulary="{name}"] input')
    if box.is_checked() != on:
        redraw(page, box.click)
    if on:
        column(page, name).wait_for(timeout=30000)


def type_text(page, text):
    redraw(page, lambda: page.locator("textarea.bpe-playground-text").fill(text))


@pytest.fixture()
def playground(page, site_url):
    own = errors_on(page)
    requested = []
    page.on("request", lambda r: requested.append(r.url.rsplit("/", 1)[-1]))
    open_playground(page, site_url)
    page.requested = requested
    yield page
    assert not own, own


def test_vocabularies_load_only_when_chosen(playground, encoders):
    catalogue = json.loads(
        re.search(
            r"=\s*(\[.*\])",
            (SITE / "_static/playground/catalogue.js").read_text(encoding="utf-8-sig"),
            re.S,
        ).group(1)
    )
    files = {e["file"] for e in catalogue}
    assert sorted(files & set(playground.requested)) == ["gpt2.js", "tinystories.js"]
    for entry in catalogue:  # each choice says how large its file is
        label = playground.locator(
            f'.bpe-playground-choice[data-vocabulary="{entry["name"]}"]'
        ).inner_text()
        size = entry["bytes"]
        shown = f"{round(size / 1e3)} kB" if size < 1e6 else f"{size / 1e6:.1f} MB"
        assert f"{entry['size']:,} tokens, file {shown}" in label
        assert (SITE / "_static/playground" / entry["file"]).stat().st_size == size
    choose(playground, "cl100k_base")
    assert "cl100k_base.js" in playground.requested
    assert "o200k_base.js" not in playground.requested
    choose(playground, "o200k_base")
    text = "Xin chào thế giới! 12345 tokens, cl100k and o200k."
    type_text(playground, text)
    for name, encoder in encoders.items():
        assert ids_of(playground, name) == encoder.encode_ordinary(text), name


def test_pasting_twenty_thousand_letters_leaves_the_page_responsive(
    playground, encoders
):
    for name in ("cl100k_base", "o200k_base"):
        choose(playground, name)
    playground.evaluate(
        """() => {
        window.longTasks = [];
        new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
                window.longTasks.push(entry.duration);
            }
        }).observe({ type: "longtask" });
    }"""
    )
    text = "a" * 20_000
    type_text(playground, text)
    # While it draws, and after, the page answers at once.
    assert playground.evaluate("() => 1 + 1") == 2
    playground.wait_for_timeout(1000)  # the drawing of later slices, if any
    longest = max(playground.evaluate("() => window.longTasks"), default=0)
    assert longest < LONGEST_TASK_MS, f"a task held the page for {longest} ms"
    for name, encoder in encoders.items():
        assert ids_of(playground, name) == encoder.encode_ordinary(text), name
    SHOTS.mkdir(parents=True, exist_ok=True)
    playground.screenshot(path=str(SHOTS / "playground_20000_a.png"))


def test_long_outputs_are_drawn_a_slice_at_a_time(playground, encoders):
    text = "🙃 " * 3000
    type_text(playground, text)
    tokens = column(playground, "tinystories").locator(".bpe-playground-token")
    n = len(encoders["tinystories"].encode_ordinary(text))
    assert 0 < tokens.count() < n
    shown = tokens.count()
    box = column(playground, "tinystories").locator(".bpe-playground-tokens")
    box.evaluate("(box) => { box.scrollTop = box.scrollHeight; }")  # scrolled to: more
    playground.wait_for_function(
        "([box, n]) => box.querySelectorAll('.bpe-playground-token').length > n",
        arg=[box.element_handle(), shown],
    )
    more = '.bpe-playground-column[data-vocabulary="tinystories"] .bpe-playground-more'
    click = (
        "(more) => { const b = document.querySelector(more); b?.click(); return !!b; }"
    )
    while playground.evaluate(click, more):  # or asked for, with the button
        pass
    assert tokens.count() == n


def test_the_show_switch(playground, encoders):
    text = "Once upon a time"
    type_text(playground, text)
    ids = encoders["gpt2"].encode_ordinary(text)
    tokens = column(playground, "gpt2").locator(".bpe-playground-token")
    texts = [show(encoders["gpt2"].decode_single_token_bytes(i)) for i in ids]
    assert tokens.all_inner_texts() == texts
    redraw(playground, lambda: playground.locator('input[value="ids"]').check())
    assert tokens.all_inner_texts() == [str(i) for i in ids]
    redraw(playground, lambda: playground.locator('input[value="both"]').check())
    both = [t.split("\n") for t in tokens.all_inner_texts()]
    assert both == [[t, str(i)] for t, i in zip(texts, ids, strict=True)]


def test_the_whitespace_switch(playground):
    type_text(playground, "a b\tc\nd")
    tokens = column(playground, "gpt2").locator(".bpe-playground-token")
    marked = "".join(tokens.all_text_contents())
    assert marked == "a␣b⇥c⏎d"
    redraw(
        playground, lambda: playground.locator(".bpe-playground-whitespace").uncheck()
    )
    assert "".join(tokens.all_text_contents()) == "a b\tc\nd"


def test_the_special_token_switch(playground, encoders):
    text = f"The end.{EOT}Once upon a time"
    type_text(playground, text)
    for name in ("tinystories", "gpt2"):
        encoder = encoders[name]
        ordinary = encoder.encode_ordinary(text)
        assert ids_of(playground, name) == ordinary
        note = column(playground, name).locator(".bpe-playground-specials").inner_text()
        allowed = encoder.encode(text, allowed_special="all")
        assert f"{len(allowed):,} tokens in all" in note
    redraw(
        playground,
        lambda: playground.locator(
            'input[data-switch="special"][value="allowed"]'
        ).check(),
    )
    for name in ("tinystories", "gpt2"):
        encoder = encoders[name]
        allowed = encoder.encode(text, allowed_special="all")
        assert ids_of(playground, name) == allowed
        special = column(playground, name).locator(".bpe-playground-special")
        assert special.count() == 1
        assert special.get_attribute("data-id") == str(
            encoder.encode(EOT, allowed_special="all")[0]
        )
        note = column(playground, name).locator(".bpe-playground-specials").inner_text()
        assert f"takes {len(encoder.encode_ordinary(text)):,} tokens" in note


def replayed(encoder, token):
    """The merges tiktoken's ranks make of a token's bytes, ranks below its own."""
    ranks = encoder._mergeable_ranks
    own, parts, made = ranks[token], [bytes([b]) for b in token], []
    while len(parts) > 1:
        found = [
            (ranks[a + b], i)
            for i, (a, b) in enumerate(zip(parts, parts[1:], strict=False))
            if ranks.get(a + b, own + 1) <= own
        ]
        if not found:
            break
        rank, i = min(found)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        made.append((parts[i], rank))
    return made


def test_clicking_a_token_replays_how_it_was_built(playground, encoders):
    type_text(playground, "the lowest widest fox")
    for name in ("gpt2", "o200k_base"):
        choose(playground, name)
        encoder = encoders[name]
        token = column(playground, name).locator(".bpe-playground-token").nth(1)
        token.click()
        replay = column(playground, name).locator(".bpe-playground-replay")
        steps = replay.locator(".bpe-playground-steps li").all_inner_texts()
        made = replayed(encoder, b" lowest")
        start = replay.locator(".bpe-playground-start .bpe-playground-part")
        assert start.all_inner_texts() == ["␣", "l", "o", "w", "e", "s", "t"]
        result = replay.locator(".bpe-playground-result .bpe-playground-part")
        assert result.all_inner_texts() == ["␣lowest"]
        assert len(steps) == len(made)
        for line, (joined, rank) in zip(steps, made, strict=True):
            assert line.endswith(f"→ {show(joined)} (rank {rank})"), line
        title = replay.locator(".bpe-playground-replay-title").inner_text()
        assert f"(id {encoder.encode_single_token(b' lowest')})" in title
        assert f"{len(made)} merges from 7 bytes" in title


def test_train_on_your_text(playground):
    training = (
        "the quick brown fox jumps over the lazy dog; " * 10
        + "pack my box with five dozen liquor jugs"
    )
    text = "the hug in the mug<|endoftext|>a pug"
    type_text(playground, text)
    playground.locator(".bpe-playground-train-text").fill(training)
    playground.locator(".bpe-playground-train-merges").fill("30")
    playground.locator(".bpe-playground-train").click()
    column(playground, "mine").wait_for(timeout=30000)
    vocab, merges = train(training, 31, specials=[EOT])
    tokenizer = bpe.Tokenizer(vocab, merges, [EOT])
    assert ids_of(playground, "mine") == tokenizer.encode_ordinary(text)
    status = playground.locator(".bpe-playground-train-status").inner_text()
    assert status == "learned 30 of 30 merges"
    redraw(
        playground,
        lambda: playground.locator(
            'input[data-switch="special"][value="allowed"]'
        ).check(),
    )
    assert ids_of(playground, "mine") == tokenizer.encode(text, allowed_special="all")


def test_a_link_restores_the_view(playground, browser, site_url, encoders):
    text = "Xin chào <|endoftext|> 世界 & ?=#% done"
    type_text(playground, text)
    choose(playground, "cl100k_base")
    choose(playground, "tinystories", on=False)
    redraw(playground, lambda: playground.locator('input[value="both"]').check())
    redraw(
        playground, lambda: playground.locator(".bpe-playground-whitespace").uncheck()
    )
    redraw(
        playground,
        lambda: playground.locator(
            'input[data-switch="special"][value="allowed"]'
        ).check(),
    )
    playground.locator(".bpe-playground-train-merges").fill("12")
    playground.locator(".bpe-playground-train").click()
    column(playground, "mine").wait_for(timeout=30000)
    link = playground.locator(".bpe-playground-link").get_attribute("href")
    assert urlsplit(playground.url).query == urlsplit(link).query  # the address too
    query = parse_qs(urlsplit(link).query)
    assert query["text"] == [text] and query["v"] == ["gpt2,cl100k_base,mine"]
    before = {
        name: ids_of(playground, name) for name in ("gpt2", "cl100k_base", "mine")
    }
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    fresh = context.new_page()
    fresh.goto(f"{site_url}{link}", wait_until="load")
    fresh.wait_for_selector('.bpe-playground-column[data-vocabulary="mine"]')
    assert fresh.locator("textarea.bpe-playground-text").input_value() == text
    shown = fresh.locator(".bpe-playground-column").evaluate_all(
        "(columns) => columns.map((c) => c.dataset.vocabulary)"
    )
    assert shown == ["gpt2", "cl100k_base", "mine"]
    assert fresh.locator('input[value="both"]').is_checked()
    assert not fresh.locator(".bpe-playground-whitespace").is_checked()
    assert fresh.locator('input[data-switch="special"][value="allowed"]').is_checked()
    for name, ids in before.items():
        assert ids_of(fresh, name) == ids, name
    assert ids_of(fresh, "cl100k_base") == encoders["cl100k_base"].encode(
        text, allowed_special="all"
    )
    context.close()


# What of the widget reaches past the right edge of a 390 px screen, leaving out what
# sits inside a box that scrolls or clips (that is seen by scrolling the box).
WIDEST = """() => {
    const inBox = (e, widget) => {
        for (let a = e.parentElement; a && a !== widget; a = a.parentElement) {
            if (getComputedStyle(a).overflowX !== "visible") return true;
        }
        return false;
    };
    const out = [];
    for (const widget of document.querySelectorAll(".bpe-playground, .bpe-explorer")) {
        for (const e of [widget, ...widget.querySelectorAll("*")]) {
            const right = e.getClientRects().length && e.getBoundingClientRect().right;
            if (right > 391 && !inBox(e, widget)) {
                out.push(e.tagName + "." + e.className + " " + Math.round(right));
            }
        }
    }
    return out.slice(0, 10);
}"""


@pytest.mark.parametrize("path", [PLAYGROUND, CHAPTER])
def test_the_widgets_fit_a_phone(browser, site_url, path):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    widget = page.locator(".bpe-playground, .bpe-explorer").first
    widget.wait_for()
    if path == PLAYGROUND:
        page.wait_for_selector(".bpe-playground[data-drawn]")
        type_text(page, "Xin chào thế giới! " * 20)
        page.locator(".bpe-playground-token").nth(3).tap()  # no mouse: a tap
        page.wait_for_selector(".bpe-playground-replay-title")
    assert page.evaluate(WIDEST) == [], "something sticks out of the screen"
    box = widget.bounding_box()
    assert box["width"] <= 390
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.screenshot(
        path=str(SHOTS / f"phone__{path.rsplit('/', 1)[-1].replace('.html', '')}.png")
    )
    context.close()
