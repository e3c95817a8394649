// The merge explorer: the book's BPE trainer, in the browser, one merge at a time.
//
// The shared core (bpe.js: the pattern, byte strings, how a token is shown, encoding)
// comes first in the page; this file adds training by the rules of bpe/trainer.py:
// counts over the pre-token table, ties to the lexicographically greater pair of byte
// strings (bpe.greater_pair) or to the pair of smaller ids (bpe.lowest_ids), and
// left-to-right merging without overlap. tests/test_explorer.py runs `train` under
// Node and checks it against bpe.train, with either tie-break and with and without the
// pre-tokenizer. The token playground trains its "your text" vocabulary with it too.
var BPE_EXPLORER = (() => {
  const BPE = typeof module !== "undefined" ? require("./bpe.js") : window.BPE;
  const { pieces, show, element, PAT } = BPE;
  const MAX_CHARACTERS = 4000;
  const MAX_MERGES = 500; // how far the explorer's slider reaches
  const RULES = { greater: "the greater pair", lowest: "the pair of smaller ids" };

  function firstCharacters(text, n = MAX_CHARACTERS) {
    return Array.from(text).slice(0, n).join(""); // code points, not UTF-16 units
  }

  // The pre-token table: [{ids: [token ids], count, first}], in order of first
  // appearance; a token's id is its byte for now. pretokenizer "none" keeps each chunk
  // whole; special tokens are cut out and take no part, as in bpe.pretokenizer.
  function pretokenize(text, { pretokenizer = "gpt2", specials = [] } = {}) {
    const pattern = pretokenizer === "none" ? null : PAT;
    const splitter = BPE.specialSplitter(Object.fromEntries(specials.map((s) => [s, 0])));
    const chunks = splitter ? text.split(splitter).filter((_, i) => i % 2 === 0) : [text];
    const rows = new Map();
    for (const chunk of chunks) {
      for (const key of pieces(chunk, pattern)) {
        if (!rows.has(key)) {
          rows.set(key, { ids: Array.from(key, (c) => c.charCodeAt(0)), count: 0, first: rows.size });
        }
        rows.get(key).count += 1;
      }
    }
    return [...rows.values()];
  }

  // Pairs of ids as one number, so that counting needs no strings: ids stay below 2^21.
  const K = 2 ** 21;
  const leftOf = (key) => Math.floor(key / K), rightOf = (key) => key % K;

  function countPairs(rows) {
    const pairs = new Map();
    for (const { ids, count } of rows) {
      for (let i = 0; i + 1 < ids.length; i++) {
        const key = ids[i] * K + ids[i + 1];
        pairs.set(key, (pairs.get(key) || 0) + count);
      }
    }
    return pairs;
  }

  function compareBytes(a, b) { // as Python compares bytes
    return a === b ? 0 : a < b ? -1 : 1;
  }

  // < 0 when the pair key a (count m) is chosen before the pair key b (count n):
  // the higher count, then the state's tie-break rule.
  function before(state, a, m, b, n) {
    if (m !== n) return n - m;
    if (state.tieBreak === "lowest") { // the smaller left id, then the smaller right id
      return leftOf(a) - leftOf(b) || rightOf(a) - rightOf(b);
    }
    const bytes = state.bytes; // "greater": the greater pair of byte strings wins
    return compareBytes(bytes[leftOf(b)], bytes[leftOf(a)]) ||
      compareBytes(bytes[rightOf(b)], bytes[rightOf(a)]);
  }

  // A trainer's state on text (its first maxCharacters characters). Token ids are
  // bpe.train's: the bytes, then 255 + the number of merges for each new token (a
  // token made a second time keeps its first id), which the lowest-ids rule compares.
  function startTraining(text, { tieBreak = "greater", pretokenizer = "gpt2", specials = [],
                                 maxCharacters = MAX_CHARACTERS } = {}) {
    if (!(tieBreak in RULES)) throw new Error(`unknown tie-break ${tieBreak}`);
    const rows = pretokenize(firstCharacters(text, maxCharacters), { pretokenizer, specials });
    const bytes = Array.from({ length: 256 }, (_, b) => String.fromCharCode(b));
    return { rows, bytes, idOf: new Map(bytes.map((t, i) => [t, i])), tieBreak,
             merges: [], pairs: countPairs(rows) };
  }

  // A copy to come back to (the explorer keeps some, to jump about quickly).
  function copyOf(state) {
    return { ...state, rows: state.rows.map((r) => ({ ...r, ids: [...r.ids] })),
             bytes: [...state.bytes], idOf: new Map(state.idOf), merges: [...state.merges],
             pairs: new Map(state.pairs) };
  }

  function bestPair(state) {
    let best = -1, bestCount = 0;
    for (const [key, count] of state.pairs) {
      if (best < 0 || before(state, key, count, best, bestCount) < 0) {
        best = key;
        bestCount = count;
      }
    }
    return best < 0 ? null : { key: best, count: bestCount };
  }

  function mergeIds(ids, left, right, joined) {
    const out = [];
    for (let i = 0; i < ids.length; i++) {
      if (i + 1 < ids.length && ids[i] === left && ids[i + 1] === right) {
        out.push(joined);
        i++; // skip both halves: matches never overlap
      } else {
        out.push(ids[i]);
      }
    }
    return out;
  }

  const pairOf = (state, key) => [state.bytes[leftOf(key)], state.bytes[rightOf(key)]];

  // One training step: the chosen pair (byte strings), the rows it changed, and the
  // pairs that vanished or appeared; null when no pair is left.
  function step(state) {
    const best = bestPair(state);
    if (!best) return null;
    const [left, right] = [leftOf(best.key), rightOf(best.key)];
    const pair = pairOf(state, best.key), joinedBytes = pair[0] + pair[1];
    state.merges.push(pair);
    if (!state.idOf.has(joinedBytes)) {
      const id = 255 + state.merges.length;
      state.idOf.set(joinedBytes, id);
      state.bytes[id] = joinedBytes;
    }
    const joined = state.idOf.get(joinedBytes);
    const changed = [];
    for (const row of state.rows) {
      const merged = mergeIds(row.ids, left, right, joined);
      if (merged.length !== row.ids.length) {
        changed.push(row.first);
        row.ids = merged;
      }
    }
    const previous = state.pairs;
    state.pairs = countPairs(state.rows);
    const vanished = [...previous.keys()].filter((k) => !state.pairs.has(k)).map((k) => pairOf(state, k));
    const appeared = [...state.pairs.keys()].filter((k) => !previous.has(k)).map((k) => pairOf(state, k));
    return { pair, count: best.count, changed, vanished, appeared };
  }

  // The first n merges on text, as [left, right] byte strings.
  function train(text, n, options = {}) {
    const state = startTraining(text, options);
    while (state.merges.length < n && step(state));
    return state.merges;
  }

  // The pairs of the current table in the order the rule ranks them, with counts.
  function rankedPairs(state) {
    return [...state.pairs].sort(([a, m], [b, n]) => before(state, a, m, b, n))
      .map(([key, count]) => ({ pair: pairOf(state, key), count }));
  }

  // A row's tokens, as byte strings.
  const tokensOf = (state, row) => row.ids.map((id) => state.bytes[id]);

  // Where two merge lists, {greater, lowest}, first part: {at (0-based), greater,
  // lowest} (the pair each has there), or {at: -1, agreed} when they are the same.
  function partOf(merges) {
    const { greater, lowest } = merges;
    const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
    for (let i = 0; i < Math.max(greater.length, lowest.length); i++) {
      if (!same(greater[i], lowest[i])) return { at: i, greater: greater[i], lowest: lowest[i] };
    }
    return { at: -1, agreed: greater.length };
  }

  // Where the two tie-break rules first part on text, trained n merges each.
  function firstDifference(text, n, options = {}) {
    return partOf({ greater: train(text, n, { ...options, tieBreak: "greater" }),
                    lowest: train(text, n, { ...options, tieBreak: "lowest" }) });
  }

  // A vocabulary (bpe.js) from learned merges: the bytes, one token per merge, then
  // the specials; it encodes by bpe.Tokenizer's rule, reading Unicode as `regex` does.
  function vocabularyOf(merges, { name = "trained", label = "", pretokenizer = "gpt2", specials = [] } = {}) {
    const tokens = [...Array.from({ length: 256 }, (_, b) => String.fromCharCode(b)),
                    ...merges.map(([a, b]) => a + b)];
    const ids = Object.fromEntries(specials.map((s, i) => [s, tokens.length + i]));
    return BPE.makeVocabulary({ name, label, tokens, merges, specials: ids,
                                pattern: pretokenizer === "none" ? null : BPE.GPT2_PATTERN });
  }

  // Python's repr of a str, for the strings the explorer shows (no escapes needed).
  function repr(s) {
    return s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/'/g, "\\'")}'`;
  }

  const shownTuple = (parts) => "(" + parts.map((t) => show(t)).join(", ") + ")";

  // Chapter 05's trace (bpe.book.chapters.display.trace_encode) of each pre-token of word.
  function traceWord(word, vocabulary) {
    const lines = [];
    for (const piece of pieces(word, vocabulary.pattern, vocabulary.unicode)) {
      const { steps, parts } = BPE.tracePiece(piece, vocabulary);
      lines.push(`encode ${repr(show(piece))}`, `  start:  ${shownTuple(Array.from(piece))}`);
      steps.forEach(({ parts, candidates, best }, i) => {
        const shown = candidates.map(([at, r]) => `${shownTuple(parts.slice(at, at + 2))}#${r}`).join(" ");
        lines.push(`  iter ${i + 1}: ${shown.padEnd(32)} -> apply rank ${best[1]} ` +
                   shownTuple(parts.slice(best[0], best[0] + 2)));
      });
      const ids = parts.map((t) => vocabulary.rank.get(t));
      lines.push(`  result: ${shownTuple(parts)}  ids [${ids.join(", ")}]`);
    }
    return lines.join("\n");
  }

  // ---- showing it -------------------------------------------------------------

  // One explorer on the page: its elements, and what it shows (the trainer's plan of
  // merges, kept copies of its state, where it stands).
  const EVERY = 25; // merges between the kept copies of the trainer's state

  function explorerOf(root, index) {
    const $ = (name) => root.querySelector(".bpe-" + name);
    const radios = (group) => [...root.querySelectorAll(`input[data-group="${group}"]`)];
    for (const group of ["tie", "pre"]) {
      for (const radio of radios(group)) radio.name = `bpe-${group}-${index}`; // one group per explorer
    }
    return {
      $, radios,
      chosen: (group) => radios(group).find((r) => r.checked).value,
      input: $("corpus"), slider: $("slider"), goto: $("goto"), word: $("word"),
      text: null, options: null, state: null, history: [], occurrences: [],
      plan: [], snapshots: [], difference: null,
    };
  }

  // A new text or new switches: train as far as the slider reaches, keeping a copy
  // of the state every EVERY merges; train with the other tie-break rule too, to say
  // where the two part; then show as many merges as before (if the run allows).
  function reset(x, keep = 0) {
    x.text = x.input.value;
    const options = x.options = { tieBreak: x.chosen("tie"), pretokenizer: x.chosen("pre") };
    const run = startTraining(x.text, options);
    x.plan = [];
    x.snapshots = [copyOf(run)];
    for (let result; x.plan.length < MAX_MERGES && (result = step(run));) {
      x.plan.push(result);
      if (x.plan.length % EVERY === 0) x.snapshots.push(copyOf(run));
    }
    const mine = x.plan.map((r) => r.pair);
    const other = train(x.text, MAX_MERGES, { ...options, tieBreak: options.tieBreak === "greater" ? "lowest" : "greater" });
    const merges = options.tieBreak === "greater" ? { greater: mine, lowest: other } : { greater: other, lowest: mine };
    x.difference = partOf(merges);
    x.slider.max = x.goto.max = x.plan.length;
    x.occurrences = pieces(firstCharacters(x.text), options.pretokenizer === "none" ? null : PAT);
    x.state = null;
    jumpTo(x, Math.min(keep, x.plan.length));
  }

  function jumpTo(x, k) {
    k = Math.max(0, Math.min(x.plan.length, Math.floor(Number(k)) || 0));
    const n = x.state ? x.state.merges.length : -1;
    if (!x.state || k < n || k - n >= EVERY) x.state = copyOf(x.snapshots[Math.floor(k / EVERY)]);
    while (x.state.merges.length < k) step(x.state); // the plan's merges, again
    x.history = x.plan.slice(0, k);
    render(x);
  }

  function render(x) {
    const { $, history } = x;
    const last = history[history.length - 1], n = history.length, possible = x.plan.length;
    x.slider.value = n;
    if (document.activeElement !== x.goto) x.goto.value = n;
    $("step").textContent = `${n} merge${n === 1 ? "" : "s"} of ${possible}`;
    $("vocab").textContent = `vocabulary: ${256 + n} entries ` +
      `(256 bytes + ${n} merge${n === 1 ? "" : "s"})`;
    $("back").disabled = n === 0;
    $("next").disabled = n >= possible;
    renderDifference(x);
    renderPairs(x);
    renderTable(x, last);
    renderLast(x, last);
    renderTokens(x);
    renderTrace(x);
  }

  function renderTable(x, last) { // the pre-tokens as the merges so far cut them
    const header = element("tr");
    header.append(element("th", {}, "pre-token"), element("th", {}, "count"));
    const table = x.$("table");
    table.replaceChildren(header);
    const sorted = [...x.state.rows].sort((a, b) => b.count - a.count || a.first - b.first);
    for (const row of sorted) {
      const tr = element("tr", { className: last && last.changed.includes(row.first) ? "bpe-changed" : "" });
      tr.append(element("td", {}, tokensOf(x.state, row).map((t) => show(t)).join(" ")),
                element("td", {}, String(row.count)));
      table.append(tr);
    }
  }

  function renderLast(x, last) { // the last merge, and the list of all of them
    const pairText = (pairs) => pairs.map((p) => "(" + show(p[0]) + ", " + show(p[1]) + ")").join(" ") || "none";
    x.$("last").textContent = last
      ? `merged ${show(last.pair[0])} + ${show(last.pair[1])} (count ${last.count}); ` +
        `vanished: ${pairText(last.vanished)}; appeared: ${pairText(last.appeared)}`
      : "no merge yet";
    x.$("merges").replaceChildren(...x.history.map((h) => element("li", {}, show(h.pair[0]) + " + " + show(h.pair[1]))));
  }

  function renderTokens(x) { // the text's first characters, as tokens
    const { state, occurrences } = x;
    const rowOf = new Map(state.rows.map((r) => [tokensOf(state, r).join(""), r]));
    const tokens = occurrences.flatMap((key) => tokensOf(state, rowOf.get(key)));
    const nBytes = occurrences.reduce((sum, key) => sum + key.length, 0);
    x.$("tokens").replaceChildren(...tokens.map((p) => element("span", { className: "bpe-token" }, show(p))));
    x.$("ratio").textContent = `${tokens.length} tokens for ${nBytes} bytes: ` +
      `${(nBytes / Math.max(tokens.length, 1)).toFixed(2)} bytes per token`;
  }

  function renderDifference(x) {
    const note = x.$("differ"), difference = x.difference;
    const pair = (p) => p ? `(${show(p[0])}, ${show(p[1])})` : "nothing (no pair left)";
    if (difference.at < 0) {
      note.replaceChildren(`The two tie-break rules learn the same ${difference.agreed} merges on this text.`);
      return;
    }
    const go = element("button", { type: "button", className: "bpe-goto-difference" },
                       `show merge ${difference.at + 1}`);
    go.addEventListener("click", () => jumpTo(x, difference.at + 1));
    const agreed = difference.at === 0 ? "part at the first merge"
      : `agree on the first ${difference.at} merge${difference.at === 1 ? "" : "s"}, then part`;
    note.replaceChildren(
      `The two tie-break rules ${agreed}: merge ${difference.at + 1} is ` +
      `${pair(difference.greater)} by the greater pair and ${pair(difference.lowest)} ` +
      "by the smaller ids. ", go);
  }

  function renderPairs(x) { // the counts the next merge is chosen from: all of them
    const ranked = rankedPairs(x.state);
    const table = x.$("pairs");
    const header = element("tr");
    header.append(element("th", {}, "pair"), element("th", {}, "count"), element("th", {}, ""));
    const rows = ranked.map((entry, i) => {
      const tied = entry.count === ranked[0].count;
      const mark = i === 0 ? "next merge" : tied ? "tied" : "";
      const tr = element("tr", { className: i === 0 ? "bpe-winner" : tied ? "bpe-tie" : "" });
      tr.append(element("td", {}, show(entry.pair[0]) + " " + show(entry.pair[1])),
                element("td", {}, String(entry.count)), element("td", {}, mark));
      return tr;
    });
    table.replaceChildren(header, ...rows);
    const ties = ranked.filter((entry) => entry.count === (ranked[0] || {}).count).length;
    x.$("ties").textContent = ranked.length
      ? `${ranked.length} distinct pairs; ${ties} share the top count` +
        (ties > 1 ? `: ${RULES[x.state.tieBreak]} wins the tie` : "")
      : "no pairs left";
  }

  function renderTrace(x) {
    const merges = x.history.map((h) => h.pair);
    const vocabulary = vocabularyOf(merges, { pretokenizer: x.options.pretokenizer });
    x.$("trace").textContent = x.word.value ? traceWord(x.word.value, vocabulary) : "";
  }

  function listen(x) {
    const { $, slider, goto } = x;
    let typing = null; // update while the reader types, a moment after the last key
    x.input.addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => reset(x, x.history.length), 250);
    });
    $("next").addEventListener("click", () => jumpTo(x, x.history.length + 1));
    $("back").addEventListener("click", () => jumpTo(x, x.history.length - 1));
    $("reset").addEventListener("click", () => reset(x, 0));
    slider.addEventListener("input", () => jumpTo(x, slider.value));
    goto.addEventListener("change", () => jumpTo(x, goto.value));
    goto.addEventListener("keydown", (event) => { if (event.key === "Enter") jumpTo(x, goto.value); });
    x.word.addEventListener("input", () => renderTrace(x));
    for (const radio of [...x.radios("tie"), ...x.radios("pre")]) {
      radio.addEventListener("change", () => reset(x, x.history.length));
    }
  }

  function mount(root, index) {
    const x = explorerOf(root, index);
    listen(x);
    reset(x, 0);
  }

  if (typeof document !== "undefined") {
    document.querySelectorAll(".bpe-explorer:not([data-mounted])").forEach((root) => {
      const index = document.querySelectorAll(".bpe-explorer[data-mounted]").length;
      root.dataset.mounted = String(index + 1);
      mount(root, index);
    });
  }
  return { MAX_CHARACTERS, pretokenize, startTraining, step, train, rankedPairs, tokensOf,
           firstDifference, vocabularyOf, traceWord, firstCharacters };
})();

if (typeof module !== "undefined") module.exports = BPE_EXPLORER;
//# sourceURL=bpe-explorer.js
