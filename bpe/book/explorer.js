// The merge explorer: the book's BPE trainer, in the browser, one merge at a time.
//
// The shared core (bpe.js: the pattern, byte strings, how a token is shown) comes
// first in the page; this file adds training by the rules of bpe/train.py: counts
// over the pre-token table, ties to the lexicographically greater pair of byte
// strings, and left-to-right merging without overlap. tests/test_explorer.py runs
// `train` under Node and checks it against bpe.train.
const { pieces, show, element } = typeof module !== "undefined" ? require("./bpe.js") : BPE;
const MAX_CHARACTERS = 4000;
const PAIRS_SHOWN = 12; // rows of the pair table

function firstCharacters(text, n = MAX_CHARACTERS) {
  return Array.from(text).slice(0, n).join(""); // code points, not UTF-16 units
}

// The pre-token table: [{token: [byte strings], count, first}], in order of first appearance.
function pretokenize(text) {
  const rows = new Map();
  for (const key of pieces(text)) {
    if (!rows.has(key)) rows.set(key, { tokens: Array.from(key), count: 0, first: rows.size });
    rows.get(key).count += 1;
  }
  return [...rows.values()];
}

const SEP = "\u0100"; // above every byte, so "a" + SEP + "b" is an unambiguous pair key

function countPairs(rows) {
  const pairs = new Map();
  for (const row of rows) {
    for (let i = 0; i + 1 < row.tokens.length; i++) {
      const key = row.tokens[i] + SEP + row.tokens[i + 1];
      pairs.set(key, (pairs.get(key) || 0) + row.count);
    }
  }
  return pairs;
}

function comparePairs(a, b) { // tuple order on [left, right] byte strings
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

function bestPair(pairs) {
  let best = null, bestCount = 0;
  for (const [key, count] of pairs) {
    const pair = key.split(SEP);
    if (count > bestCount || (count === bestCount && comparePairs(pair, best) > 0)) {
      best = pair;
      bestCount = count;
    }
  }
  return best && { pair: best, count: bestCount };
}

function mergeTokens(tokens, pair, joined) {
  const out = [];
  for (let i = 0; i < tokens.length; i++) {
    if (i + 1 < tokens.length && tokens[i] === pair[0] && tokens[i + 1] === pair[1]) {
      out.push(joined);
      i++; // skip both halves: matches never overlap
    } else {
      out.push(tokens[i]);
    }
  }
  return out;
}

// One training step: the chosen pair, the rows it changed, and the pairs that vanished or appeared.
function step(rows) {
  const before = countPairs(rows);
  const best = bestPair(before);
  if (!best) return null;
  const joined = best.pair[0] + best.pair[1];
  const changed = [];
  for (const row of rows) {
    const merged = mergeTokens(row.tokens, best.pair, joined);
    if (merged.length !== row.tokens.length) changed.push(row.first);
    row.tokens = merged;
  }
  const after = countPairs(rows);
  const vanished = [...before.keys()].filter((k) => !after.has(k)).map((k) => k.split(SEP));
  const appeared = [...after.keys()].filter((k) => !before.has(k)).map((k) => k.split(SEP));
  return { pair: best.pair, count: best.count, changed, vanished, appeared };
}

// The first n merges on text (its first 4,000 characters), as [left, right] byte strings.
function train(text, n) {
  const rows = pretokenize(firstCharacters(text));
  const merges = [];
  while (merges.length < n) {
    const result = step(rows);
    if (!result) break;
    merges.push(result.pair);
  }
  return merges;
}

// ---- showing it -------------------------------------------------------------

// The pairs of the current table, best first (the order bestPair picks in), with
// their counts, for the table of pair counts.
function rankedPairs(rows) {
  return [...countPairs(rows)].map(([key, count]) => ({ pair: key.split(SEP), count }))
    .sort((a, b) => b.count - a.count || comparePairs(b.pair, a.pair));
}

function mount(root) {
  const input = root.querySelector(".bpe-corpus");
  const slider = root.querySelector(".bpe-slider");
  const out = (name) => root.querySelector(".bpe-" + name);
  let text = null, rows = [], history = [], occurrences = [];

  function restart() { // back to zero merges on the current text
    text = firstCharacters(input.value);
    rows = pretokenize(text);
    occurrences = pieces(text);
    history = [];
  }

  function reset() { // a new text: also find how far the slider can go
    restart();
    const probe = rows.map((r) => ({ ...r, tokens: [...r.tokens] }));
    let possible = 0;
    while (possible < 500 && step(probe)) possible++;
    slider.max = possible;
    render();
  }

  function advance() {
    const result = step(rows);
    if (result) history.push(result);
    return result;
  }

  function mergeNext() {
    if (firstCharacters(input.value) !== text) reset(); // the text was edited since
    advance();
    render();
  }

  function jumpTo(k) {
    if (k < history.length) restart();
    while (history.length < k && advance());
    render();
  }

  function render() {
    const last = history[history.length - 1];
    slider.value = history.length;
    out("step").textContent = history.length + " merge" + (history.length === 1 ? "" : "s");
    out("vocab").textContent = `vocabulary: ${256 + history.length} entries ` +
      `(256 bytes + ${history.length} merge${history.length === 1 ? "" : "s"})`;
    renderPairs();
    const header = element("tr");
    header.append(element("th", {}, "pre-token"), element("th", {}, "count"));
    const table = out("table");
    table.replaceChildren(header);
    const sorted = [...rows].sort((a, b) => b.count - a.count || a.first - b.first);
    for (const row of sorted) {
      const tr = element("tr", { className: last && last.changed.includes(row.first) ? "bpe-changed" : "" });
      tr.append(element("td", {}, row.tokens.map(show).join(" ")), element("td", {}, String(row.count)));
      table.append(tr);
    }
    const pairText = (pairs) => pairs.map((p) => "(" + show(p[0]) + ", " + show(p[1]) + ")").join(" ") || "none";
    out("last").textContent = last
      ? `merged ${show(last.pair[0])} + ${show(last.pair[1])} (count ${last.count}); ` +
        `vanished: ${pairText(last.vanished)}; appeared: ${pairText(last.appeared)}`
      : "no merge yet";
    out("merges").replaceChildren(...history.map((h) => element("li", {}, show(h.pair[0]) + " + " + show(h.pair[1]))));
    const rowOf = new Map(rows.map((r) => [r.tokens.join(""), r]));
    const pieces = occurrences.flatMap((key) => rowOf.get(key).tokens);
    const nBytes = occurrences.reduce((sum, key) => sum + key.length, 0);
    out("tokens").replaceChildren(...pieces.map((p) => element("span", { className: "bpe-token" }, show(p))));
    out("ratio").textContent = `${pieces.length} tokens for ${nBytes} bytes: ` +
      `${(nBytes / Math.max(pieces.length, 1)).toFixed(2)} bytes per token`;
  }

  function renderPairs() { // the counts the next merge is chosen from
    const ranked = rankedPairs(rows);
    const table = out("pairs");
    const header = element("tr");
    header.append(element("th", {}, "pair"), element("th", {}, "count"), element("th", {}, ""));
    table.replaceChildren(header);
    ranked.slice(0, PAIRS_SHOWN).forEach((entry, i) => {
      const tied = entry.count === ranked[0].count;
      const mark = i === 0 ? "next merge" : tied ? "tied" : "";
      const tr = element("tr", { className: i === 0 ? "bpe-winner" : tied ? "bpe-tie" : "" });
      tr.append(element("td", {}, show(entry.pair[0]) + " " + show(entry.pair[1])),
                element("td", {}, String(entry.count)), element("td", {}, mark));
      table.append(tr);
    });
    const ties = ranked.filter((entry) => entry.count === (ranked[0] || {}).count).length;
    out("ties").textContent = ranked.length
      ? `${ranked.length} distinct pairs; ${ties} share the top count` +
        (ties > 1 ? ": the greater pair wins the tie" : "")
      : "no pairs left";
  }

  root.querySelector(".bpe-next").addEventListener("click", mergeNext);
  root.querySelector(".bpe-reset").addEventListener("click", reset);
  slider.addEventListener("input", () => jumpTo(Number(slider.value)));
  input.addEventListener("change", reset);
  reset();
}

if (typeof module !== "undefined") {
  module.exports = { pretokenize, train, step, rankedPairs, firstCharacters };
}
if (typeof document !== "undefined") {
  document.querySelectorAll(".bpe-explorer:not([data-mounted])").forEach((root) => {
    root.dataset.mounted = "1";
    mount(root);
  });
}
//# sourceURL=bpe-explorer.js
