"""Outputs a reader can read, and one number per chapter, on the built site.

- At 1280 px no output of chapters 00-12 is cut off: no output box scrolls
  sideways (its scrollWidth beyond its clientWidth), and no table is wider than
  its box. The failure names the page and the output's first characters.
- At 390 px a table wider than its box scrolls as a whole inside it, and its first
  column stays in view when the box is scrolled to its right end.
- At 390 px every chart can be read: a figure drawn narrower than its image is a
  link that opens that image full size (bpe/book/live/sphinx_extension.py), so its
  text is drawn at the size it was made at.
- A chapter's title starts with its file's number ("4." on 04_*.html), the other
  pages' titles with none, and each link "chapter N" lands on chapter N's page.
"""

import re

import pytest

from .conftest import book_pages, offline_context

PAGES = book_pages()
CHAPTER_FILE = re.compile(r"notebooks/(\d\d)_\w+\.html$")


def number(path):
    found = CHAPTER_FILE.fullmatch(path)
    return int(found.group(1)) if found else None


EARLY = [p for p in PAGES if number(p) is not None and number(p) <= 12]

CUT_OFF = """() => {
  const article = document.querySelector("article") || document.body;
  const short = (text) => text.replace(/\\s+/g, " ").trim().slice(0, 60);
  const cut = [];
  const boxes = ["pre", "div.output", "table"].map((s) => `div.cell_output ${s}`);
  for (const box of article.querySelectorAll(boxes.join(", "))) {
    if (!box.getClientRects().length) continue;
    if (box.tagName === "TABLE") {
      const room = (box.closest("div.output") || box.parentElement).clientWidth;
      const width = box.getBoundingClientRect().width;
      if (width > room + 1) cut.push(short(box.textContent));
    } else if (box.scrollWidth > box.clientWidth + 1) {
      cut.push(short(box.textContent));
    }
  }
  return [...new Set(cut)];
}"""

STICKY = """() => {
  const article = document.querySelector("article") || document.body;
  const short = (text) => text.replace(/\\s+/g, " ").trim().slice(0, 60);
  const scroller = (el) => {
    for (let box = el.parentElement; box && box !== article; box = box.parentElement) {
      if (["auto", "scroll"].includes(getComputedStyle(box).overflowX)) return box;
    }
    return null;
  };
  const wrong = [];
  let wide = 0;
  for (const table of article.querySelectorAll("table")) {
    const box = scroller(table);
    const width = table.getBoundingClientRect().width;
    if (!table.getClientRects().length) continue;
    if (!box) {
      const room = table.parentElement.clientWidth;
      if (width > room + 1) wrong.push(`cut off: ${short(table.textContent)}`);
      continue;
    }
    if (box.scrollWidth <= box.clientWidth + 1) continue; // it fits
    wide += 1;
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect();
    for (const row of Array.from(table.rows).slice(0, 5)) {
      const first = row.cells[0];
      if (!first) continue;
      const r = first.getBoundingClientRect();
      if (r.left < edge.left - 1 || r.right > edge.right + 1) {
        wrong.push(`first column scrolls away: ${short(table.textContent)}`);
        break;
      }
    }
    box.scrollLeft = 0;
  }
  return { wrong: [...new Set(wrong)], wide };
}"""

FIGURES = """async () => {
  const article = document.querySelector("article") || document.body;
  const wrong = [];
  for (const img of article.querySelectorAll("img")) {
    if (!img.getClientRects().length || !img.naturalWidth) continue;
    if (img.naturalWidth <= img.clientWidth + 1) continue; // drawn at full size
    const link = img.closest("a[href]");
    const name = img.alt.slice(0, 50) || img.currentSrc;
    if (!link || link.href !== img.currentSrc) {
      const size = `${img.clientWidth} of ${img.naturalWidth} px`;
      wrong.push(`shrunk to ${size}, and no link to its image: ${name}`);
      continue;
    }
    const response = await fetch(link.href);
    if (!response.ok) wrong.push(`its link fails (${response.status}): ${name}`);
  }
  return wrong;
}"""

CHAPTER_LINKS = """() => {
  const article = document.querySelector("article") || document.body;
  const title = (article.querySelector("h1")?.textContent ?? "").trim();
  const links = [];
  for (const a of article.querySelectorAll("a[href]")) {
    const said = a.textContent.match(/\\bchapter (\\d+)\\b/i);
    if (said) links.push([said[0], Number(said[1]), new URL(a.href).pathname]);
  }
  // "chapter N" in the prose that is not a link (code and outputs are left out)
  const unlinked = [];
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!/\\bchapter \\d+\\b/i.test(node.data)) continue;
    const outside = "a, pre, code, script, style, .cell_output";
    if (node.parentElement.closest(outside)) continue;
    unlinked.push(node.data.trim().slice(0, 70));
  }
  return { title, links, unlinked };
}"""


@pytest.fixture(scope="module")
def visit(browser, site_url):
    """visit(path, width, script): the script's answer on the loaded page."""

    def run(path, width, script):
        context = offline_context(browser, site_url, width)
        page = context.new_page()
        page.goto(f"{site_url}/{path}", wait_until="load")
        page.wait_for_timeout(300)
        try:
            return page.evaluate(script)
        finally:
            context.close()

    return run


@pytest.mark.parametrize("path", EARLY)
def test_no_output_is_cut_off_at_1280_px(visit, path):
    cut = visit(path, 1280, CUT_OFF)
    assert cut == [], f"{path}: {len(cut)} outputs cut off, beginning {cut[:8]}"


@pytest.mark.parametrize("path", PAGES)
def test_a_wide_table_scrolls_with_its_first_column_in_view_at_390_px(visit, path):
    found = visit(path, 390, STICKY)
    assert found["wrong"] == [], f"{path}: {found['wrong'][:8]}"


def test_the_phone_check_sees_wide_tables(visit):
    """The check above is not empty: at 390 px some chapter has a table to scroll."""
    assert any(visit(path, 390, STICKY)["wide"] for path in EARLY[:6])


@pytest.mark.parametrize("path", EARLY)
def test_every_chart_opens_full_size_at_390_px(visit, path):
    wrong = visit(path, 390, FIGURES)
    assert wrong == [], f"{path}: {wrong[:8]}"


@pytest.mark.parametrize("path", PAGES)
def test_chapter_numbers_are_the_file_numbers(visit, path):
    found = visit(path, 1280, CHAPTER_LINKS)
    title_number = re.match(r"(\d+)\.\s", found["title"])
    expected = number(path)
    if expected is None or expected >= 98:
        assert title_number is None, (
            f"{path}: unnumbered page titled {found['title']!r}"
        )
    else:
        assert title_number and int(title_number.group(1)) == expected, (
            f"{path}: titled {found['title']!r}, its file is number {expected}"
        )
    wrong = [
        f"{said!r} -> {target}"
        for said, n, target in found["links"]
        if not re.search(rf"/notebooks/{n:02d}_\w+\.html$", target)
    ]
    assert wrong == [], f"{path}: links that land elsewhere: {wrong}"
    assert found["unlinked"] == [], f"{path}: 'chapter N' without a link"
