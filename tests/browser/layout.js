() => {
  // What a reader would see go wrong on a page, measured in the browser after layout.
  // tests/browser/test_pages.py evaluates this once per page and width; it returns plain data.
  //
  // A word (or number) is split when the line boxes its characters sit on do not all share one
  // line; a code line wraps when the same holds for one line of a <pre>. Both are read from
  // Range.getClientRects(), which gives one rectangle per line fragment of a range of text.
  const ROOM = 88; // columns a code line may have (tests/test_notebook_lines.py)
  const visible = (el) => el.getClientRects().length > 0;
  const short = (text) => text.replace(/\s+/g, " ").trim().slice(0, 70);

  // The rectangles of node.data[start:end] that have ink (collapsed ones carry no text).
  const rects = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return Array.from(range.getClientRects()).filter((r) => r.width > 0);
  };
  // True when the rectangles lie on more than one line: some rectangle starts at or below
  // the bottom of another (fragments on one line always overlap vertically).
  const onSeveralLines = (boxes) => {
    if (boxes.length < 2) return false;
    const lowestTop = Math.max(...boxes.map((r) => r.top));
    const highestBottom = Math.min(...boxes.map((r) => r.bottom));
    return lowestTop >= highestBottom - 1;
  };
  const textNodes = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    return nodes;
  };

  // 1. Words and numbers split inside a table cell. A word may break after a hyphen inside
  // it ("pre-" / "tokenization", "GPT-" / "2"), where the browser allows a break and no
  // style can forbid it; the parts on either side are checked one by one.
  const splitWordsIn = (article) => {
    const splitWords = [];
    for (const cell of article.querySelectorAll("td, th")) {
      if (!visible(cell)) continue;
      for (const node of textNodes(cell)) {
        for (const word of node.data.matchAll(/\S+?(?:(?<=\S-)(?=\S)|(?=\s)|$)/gu)) {
          const end = word.index + word[0].length;
          if (onSeveralLines(rects(node, word.index, end))) splitWords.push(word[0]);
        }
      }
    }
    return splitWords;
  };

  // 2. Code lines that wrap: each line of a <pre> must sit on one line box.
  const wrappedLinesIn = (article) => {
    const wrappedLines = [];
    for (const pre of article.querySelectorAll("pre")) {
      if (!visible(pre)) continue;
      const lines = new Map(); // line number -> rectangles of its text
      let line = 0;
      for (const node of textNodes(pre)) {
        let start = 0;
        for (let i = 0; i <= node.data.length; i++) {
          if (i < node.data.length && node.data[i] !== "\n") continue;
          if (i > start) {
            if (!lines.has(line)) lines.set(line, []);
            lines.get(line).push(...rects(node, start, i));
          }
          if (i < node.data.length) line += 1;
          start = i + 1;
        }
      }
      const text = pre.textContent.split("\n");
      for (const [number, boxes] of lines) {
        if (onSeveralLines(boxes)) wrappedLines.push(short(text[number]));
      }
    }
    return wrappedLines;
  };

  // 3. Boxes whose content is cut off: wider than the box and not scrollable there.
  const cutOffIn = (article) => {
    const cutOff = [];
    for (const el of article.querySelectorAll("pre, div.cell_output div.output, table")) {
      if (!visible(el) || el.scrollWidth <= el.clientWidth + 1) continue;
      const overflow = getComputedStyle(el).overflowX;
      if (el.tagName !== "TABLE" && overflow !== "auto" && overflow !== "scroll") {
        cutOff.push(`${el.tagName}: ${short(el.innerText.split("\n")[0])}`);
      }
    }
    // A table may be wider than the column only inside a box of its own that scrolls.
    const column = article.getBoundingClientRect();
    for (const table of article.querySelectorAll("table")) {
      if (!visible(table)) continue;
      const box = table.getBoundingClientRect();
      if (box.right <= column.right + 1 && box.left >= column.left - 1) continue;
      let scrolls = false;
      for (let el = table.parentElement; el && el !== article; el = el.parentElement) {
        const overflow = getComputedStyle(el).overflowX;
        if (overflow === "auto" || overflow === "scroll") scrolls = true;
      }
      if (!scrolls) cutOff.push(`TABLE wider than the column: ${short(table.innerText)}`);
    }
    return cutOff;
  };

  // 4. Code cells that scroll sideways (allowed, but the 1280 px test wants none), and
  // whether a line of 88 characters fits a code cell at this width.
  const scrollingCodeIn = (article) => {
    const scrollingCode = [];
    for (const el of article.querySelectorAll("div.cell_input pre")) {
      if (visible(el) && el.scrollWidth > el.clientWidth + 1) {
        scrollingCode.push(short(el.innerText.split("\n")[0]));
      }
    }
    return scrollingCode;
  };
  const roomIn = (article) => {
    let room = null;
    const pre = article.querySelector("div.cell_input pre");
    if (pre && visible(pre)) {
      const probe = document.createElement("span");
      probe.textContent = "x".repeat(ROOM);
      pre.appendChild(probe);
      const style = getComputedStyle(pre);
      const inner = pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      room = probe.getBoundingClientRect().width <= inner + 0.5;
      probe.remove();
    }
    return room;
  };

  const article = document.querySelector("article") || document.body;
  const page = document.scrollingElement;
  return {
    splitWords: splitWordsIn(article),
    wrappedLines: wrappedLinesIn(article),
    cutOff: cutOffIn(article),
    pageScrollsSideways: page.scrollWidth > page.clientWidth + 1,
    scrollingCode: scrollingCodeIn(article),
    room: roomIn(article),
    traceback: document.body.innerText.includes("Traceback (most recent call last)"),
    errorOutputs: article.querySelectorAll(
      ".cell_output .output.traceback, .cell_output .output.error, .cell_output .output.stderr",
    ).length,
  };
}
