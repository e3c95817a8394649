"""What the browser tests measure on a loaded page: each script runs once per page and
width (conftest.rendered), and the tests read its answer.

LAYOUT (layout.js): console-free layout facts (split words, wrapped lines, cut-off
boxes, the room for 88 columns). AFTER_LAYOUT's are for tests/browser/test_outputs.py;
``cues`` (the scroll cues' pixels) for tests/browser/test_tables.py.
"""

import io
import statistics
from pathlib import Path

LAYOUT = Path(__file__).with_name("layout.js").read_text(encoding="utf-8")

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

# Evaluated in this order after LAYOUT (STICKY scrolls tables and puts them back).
# Where the lesson starts: the title's bottom, the top of the first paragraph after
# it (null if a heading or a cell comes first), and the playground's text box's top.
LESSON_START = """() => {
  const title = document.querySelector("article h1");
  let first = null;
  for (let next = title?.nextElementSibling; next; next = next.nextElementSibling) {
    if (next.tagName === "P") { first = next; break; }
    if (/^H[1-6]$/.test(next.tagName) || next.querySelector(".cell")) break;
  }
  const top = (el) => (el ? el.getBoundingClientRect().top + window.scrollY : null);
  const box = document.querySelector(".bpe-playground-text");
  return {
    title: title ? title.getBoundingClientRect().bottom + window.scrollY : null,
    first: top(first),
    textBox: top(box),
  };
}"""

# What each code cell offers (tests/browser/test_live.py): the note at the top, and per
# cell (by its number, the id "cell-N") its Run and Check buttons and its note's text.
BUTTONS = """() => {
  const intros = [...document.querySelectorAll(".bpe-live-intro")];
  const cells = {};
  for (const node of document.querySelectorAll("[id^='cell-']")) {
    if (!/^cell-\\d+$/.test(node.id)) continue;
    cells[node.id.slice(5)] = {
      run: node.querySelectorAll(".bpe-live-run").length,
      check: node.querySelectorAll(".bpe-exercise-check").length,
      note: node.querySelector(".bpe-live-note")?.textContent ?? null,
    };
  }
  return {
    intros: intros.length,
    link: intros[0]?.querySelector("a")?.href ?? null, // resolved: where it lands
    said: intros[0]?.innerText ?? "",
    offered: document.querySelectorAll(".bpe-live-run, .bpe-live-note").length,
    cells,
  };
}"""

AFTER_LAYOUT = {
    "lesson_start": LESSON_START,
    "cut": CUT_OFF,
    "sticky": STICKY,
    "figures": FIGURES,
    "chapter_links": CHAPTER_LINKS,
    "buttons": BUTTONS,
}

# For tests/browser/test_tables.py: the boxes that scroll a table sideways, which the
# test then looks at one by one (SCROLL_EDGE).
WIDE_TABLES = """() => {
  const article = document.querySelector("article") || document.body;
  const boxes = [];
  for (const table of article.querySelectorAll("table")) {
    if (!table.getClientRects().length) continue;
    let box = table.parentElement;
    const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
    while (box !== article && !scrolls(box)) box = box.parentElement;
    if (box === article || boxes.includes(box)) continue;
    if (box.scrollWidth > box.clientWidth + 1) boxes.push(box);
  }
  boxes.forEach((box, n) => box.setAttribute("data-bpe-wide", n));
  const short = (text) => text.replace(/\\s+/g, " ").trim().slice(0, 60);
  return boxes.map((box) => ({
    text: short(box.querySelector("table").textContent),
    hidden: box.scrollWidth - box.clientWidth,
  }));
}"""

# The code boxes (a cell's source or output) whose lines are wider than the box, marked
# as WIDE_TABLES marks its boxes, for SCROLL_EDGE.
WIDE_LINES = """() => {
  const article = document.querySelector("article") || document.body;
  const code = article.querySelectorAll("div.cell_input pre, div.cell_output pre");
  const wide = (box) => box.scrollWidth > box.clientWidth + 1;
  const boxes = [...code].filter((box) => box.getClientRects().length && wide(box));
  boxes.forEach((box, n) => box.setAttribute("data-bpe-wide", n));
  return boxes.map((box) => ({
    text: box.textContent.replace(/\\s+/g, " ").trim().slice(0, 60),
    hidden: box.scrollWidth - box.clientWidth,
  }));
}"""

# Box n scrolled to its start or its end and brought to 120 px below the window's top
# (under the theme's header bar): the strip of its last 1rem of width (the shadow's), as
# a clip for a screenshot, and the page's own colour to compare that strip with.
SCROLL_EDGE = """([n, end]) => {
  const box = document.querySelector(`[data-bpe-wide="${n}"]`);
  box.scrollLeft = end ? box.scrollWidth : 0;
  window.scrollBy(0, box.getBoundingClientRect().top - 120);
  const r = box.getBoundingClientRect();
  const right = r.left + box.clientLeft + box.clientWidth; // inside any scroll bar
  const bottom = Math.min(r.top + box.clientTop + box.clientHeight, window.innerHeight);
  // the box's own colour where it has one (a code box), else the page's (a table's)
  const own = getComputedStyle(box).backgroundColor;
  const clear = /^rgba\\(.*, 0\\)$/.test(own);
  const colour = clear ? getComputedStyle(document.body).backgroundColor : own;
  const page = colour.match(/\\d+/g).map(Number);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return {
    clip: { x: right - rem, y: r.top + 2, width: rem, height: bottom - r.top - 4 },
    page: page.slice(0, 3),
  };
}"""


# How far (the largest of the three channels, 0-255) a column's median pixel is from
# the page's colour: a stripe alone is about 14 from it, a cell's border 26, the
# shadow at its edge about 80.
CUE = 30
SLIVER = 8  # px: about a cell's padding


def edge_contrast(page, n, end):
    """How far the strongest column of box n's right edge is from the page's colour,
    each column by its median pixel (a letter or a border crossing it aside)."""
    from PIL import Image

    found = page.evaluate(SCROLL_EDGE, [n, end])
    shot = Image.open(io.BytesIO(page.screenshot(clip=found["clip"]))).convert("RGB")
    far = [
        statistics.median(
            max(
                abs(a - b)
                for a, b in zip(shot.getpixel((x, y)), found["page"], strict=True)
            )
            for y in range(shot.height)
        )
        for x in range(shot.width)
    ]
    return max(far)


def missing_cues(page, wide: list[dict]) -> list[str]:
    """The wide boxes (marked by WIDE_TABLES or WIDE_LINES) whose edge gives no cue,
    or a cue at their end."""
    wrong = []
    for n, box in enumerate(wide):
        if box["hidden"] < SLIVER:
            continue
        start, end = edge_contrast(page, n, False), edge_contrast(page, n, True)
        if start < CUE:
            wrong.append(f"no cue at its edge ({start} from the page): {box['text']}")
        if end >= CUE:
            wrong.append(f"a cue when scrolled to its end ({end}): {box['text']}")
    return wrong


# Which boxes' edges are looked at, at each width: tables on a phone, code at 1280 px.
CUED = {390: WIDE_TABLES, 1280: WIDE_LINES}


def cues(page, width: int) -> dict:
    """The wide boxes at this width and those whose cue is missing or wrong (this
    scrolls them: it runs after every other measure)."""
    wide = page.evaluate(CUED[width])
    return {"wide": wide, "wrong": missing_cues(page, wide)}
