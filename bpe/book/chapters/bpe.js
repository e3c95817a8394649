// Byte-level BPE in the browser: the one JavaScript implementation the book's pages share.
//
// The merge explorer (explorer.js) trains with it and the token playground
// (playground.js) encodes with it. It follows bpe/pretokenizer.py and bpe/tokenizer.py:
// a pre-tokenizer pattern (GPT-2's by default; each shipped vocabulary brings its own,
// rewritten for JavaScript by bpe/book/site/jspattern.py), pieces as UTF-8 bytes, and
// encoding by rank. A token is a "byte string": a JS string whose characters are the
// byte values 0-255, so that `<` compares tokens byte by byte as Python compares
// bytes. tests/test_explorer.py and tests/test_playground.py run it under Node
// against the package and tiktoken.
var BPE = (typeof BPE !== "undefined" && BPE) || (() => {
  // GPT-2's pattern, as bpe/pretokenizer.py writes it (\p{White_Space} is what Python's
  // `regex` and Rust mean by \s; JavaScript's \s also takes U+FEFF).
  const GPT2_PATTERN = "'(?:[sdmt]|ll|ve|re)| ?\\p{L}+| ?\\p{N}+| ?[^\\p{White_Space}\\p{L}\\p{N}]+" +
    "|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+";
  const PAT = new RegExp(GPT2_PATTERN, "gu");
  // The end-of-text token that the pages' own vocabularies reserve (bpe.ENDOFTEXT;
  // tests/test_playground.py holds the two equal, and GPT2_PATTERN to bpe.PAT).
  const ENDOFTEXT = "<|endoftext|>";

  const ASCII = /^[\x00-\x7f]*$/;

  // Text as its UTF-8 bytes (a lone surrogate as U+FFFD, as TextEncoder writes it).
  function toByteString(text) {
    if (ASCII.test(text)) return text; // ASCII is its own UTF-8
    let out = "";
    for (const ch of text) {
      let c = ch.codePointAt(0);
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      if (c < 0x80) out += ch;
      else if (c < 0x800) out += String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) {
        out += String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      } else {
        out += String.fromCharCode(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63),
                                   0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
    }
    return out;
  }

  // Unicode as the package reads it. A JavaScript engine's \p{...} follows its own
  // Unicode tables, which vary from one browser to the next, so before matching, every
  // code point whose classes may differ between engines is swapped for an old
  // stand-in, and the pieces are cut from the original text at the same places.
  // CHANGED lists those code points (bpe.interop.unicode.engine_differences): the ones
  // whose classes under Python's `regex` differ from their classes in Unicode 14.0,
  // which every current engine knows, that is, those assigned since and the few whose
  // class changed since. Each entry is "first[-last]" in hex, then the key of the
  // classes `regex` gives it and the key of those tiktoken gives it. A vocabulary
  // reads Unicode as the package does (vocabulary.unicode "regex": the book's own and
  // the explorer's) or, for OpenAI's, as tiktoken does ("tiktoken",
  // bpe/interop/unicode.py). So the pieces are Python's in every engine whose tables
  // are from Unicode 14.0 up to `regex`'s (a newer engine may know letters that
  // `regex` does not yet). tests/test_playground.py checks this copy, and Node's
  // classes after the swap on every code point.
  const CHANGED = [
    "295ol 558m_ 58b-58cm_ 5c8-5c9M_ 88fo_ 897MM b53-b54M_ c5co_ cdco_ cf3MM eceMM",
    "1acf-1af0M_ 1c89uu 1c8all 208fm_ 209d-209fm_ a7cb-a7ccuu a7cdll a7ceu_ a7cfl_",
    "a7d2u_ a7d4u_ a7dauu a7dbll a7dcuu a7ddu_ a7e2u_ a7f1m_ ab6c-ab6du_",
    "105c0-105f3oo 107bb-107bfm_ 10940-10959o_ 10d40-10d49NN 10d4a-10d4doo 10d4emm",
    "10d4foo 10d50-10d65uu 10d69-10d6dMM 10d6fmm 10d70-10d85ll 10ec2-10ec4oo 10ec5m_",
    "10ec6-10ec7o_ 10ecb-10ecfM_ 10ed9-10eeeo_ 10ef0-10efbM_ 10efc-10effMM",
    "1123f-11240oo 11241MM 11380-11389oo 1138boo 1138eoo 11390-113b5oo 113b7oo",
    "113b8-113c0MM 113c2MM 113c5MM 113c7-113caMM 113cc-113d0MM 113d1oo 113d2MM",
    "113d3oo 113e1-113e2MM 116d0-116e3NN 11b0ao_ 11b60-11b67M_ 11bc0-11be0oo",
    "11bf0-11bf9NN 11db0-11dd8o_ 11dd9m_ 11dda-11ddbo_ 11de0-11de9N_ 11df0M_ 11df1o_",
    "11f00-11f01MM 11f02oo 11f03MM 11f04-11f10oo 11f12-11f33oo 11f34-11f3aMM",
    "11f3e-11f42MM 11f50-11f59NN 11f5aMM 1246fN_ 12475-1247fN_ 12550-12686N_ 1342foo",
    "13440MM 13441-13446oo 13447-13455MM 13460-143faoo 16100-1611doo 1611e-1612fMM",
    "16130-16139NN 16d40-16d42mm 16d43-16d6aoo 16d6b-16d6cmm 16d70-16d79NN",
    "16ea0-16eb8u_ 16ebb-16ed3l_ 16ff2-16ff3m_ 16ff4-16ff6N_ 187f8-187ffo_",
    "18cd6-18cdao_ 18cffoo 18d09-18d20o_ 18d80-18df2o_ 18e00-19191o_ 191a0-191d2o_",
    "1b123-1b128o_ 1b132oo 1b155oo 1b168o_ 1ccf0-1ccf9NN 1d127-1d128M_ 1d250-1d252M_",
    "1d25b-1d25cM_ 1d25fM_ 1d280-1d281M_ 1d2c0-1d2d3NN 1d6a6l_ 1df1f-1df24l_",
    "1df25-1df2all 1df2b-1df3fl_ 1df40u_ 1df41-1df47l_ 1df48u_ 1df49l_ 1df4au_",
    "1df4b-1df4cl_ 1df4du_ 1df4e-1df50l_ 1df51u_ 1df52-1df67l_ 1df68u_ 1df69l_",
    "1df6au_ 1df6bl_ 1df6cu_ 1df6dl_ 1df6eu_ 1df6f-1df71l_ 1df72u_ 1df73l_ 1df74u_",
    "1df75l_ 1df76u_ 1df77l_ 1df78u_ 1df79l_ 1df7au_ 1df7bl_ 1df7cu_ 1df7dl_ 1df7eu_",
    "1df7fl_ 1df80-1df81o_ 1df90-1df96l_ 1dfcd-1dfffm_ 1e030-1e06dmm 1e08fMM",
    "1e4d0-1e4eaoo 1e4ebmm 1e4ec-1e4efMM 1e4f0-1e4f9NN 1e5d0-1e5edoo 1e5ee-1e5efMM",
    "1e5f0oo 1e5f1-1e5faNN 1e6c0-1e6deo_ 1e6e0-1e6e2o_ 1e6e3M_ 1e6e4-1e6e5o_ 1e6e6M_",
    "1e6e7-1e6edo_ 1e6ee-1e6efM_ 1e6f0-1e6f4o_ 1e6f5M_ 1e6feo_ 1e6ffm_ 2b739oo",
    "2b73a-2b73fo_ 2b81eo_ 2cea2-2ceado_ 2ebf0-2ee5doo 31350-323afoo 323b0-33479o_",
    "3d000-3fc3fo_",
  ].join(" ");
  // The stand-ins by key (bpe.interop.unicode.CLASS_KEYS): [in the BMP, beyond it],
  // so that a swap keeps the UTF-16 length; all assigned (or, for "_", unassigned) by
  // Unicode 6.1 and classed alike by Unicode 14.0 and `regex`.
  const STAND_INS = {
    _: [0x0378, 0x1fffe], u: [0x00c0, 0x10400], l: [0x0250, 0x10428], m: [0x02b0, 0x16f93],
    o: [0x05d0, 0x10000], M: [0x0300, 0x101fd], N: [0x00b2, 0x10107],
  };
  const VIEWS = { regex: 0, tiktoken: 1 }; // which of a row's two keys each reads
  const ROWS = Array.from(CHANGED.matchAll(/([0-9a-f]+)(?:-([0-9a-f]+))?(.)(.)/g),
    (m) => [parseInt(m[1], 16), parseInt(m[2] || m[1], 16), m[3], m[4]]);
  const CHANGED_CLASS = "[" + ROWS.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join("") + "]";
  const HAS_CHANGED = new RegExp(CHANGED_CLASS, "u"), EVERY_CHANGED = new RegExp(CHANGED_CLASS, "gu");

  const SWAPS = [new Map(), new Map()]; // by view: each character met, and its stand-in

  function standIn(c, view) { // one character for one, of the same length in UTF-16
    if (!SWAPS[view].has(c)) {
      const code = c.codePointAt(0);
      const row = ROWS.find(([a, b]) => a <= code && code <= b);
      SWAPS[view].set(c, String.fromCodePoint(STAND_INS[row[2 + view]][code > 0xffff ? 1 : 0]));
    }
    return SWAPS[view].get(c);
  }

  // Text as a pattern sees it, with Unicode read as `regex` ("regex") or tiktoken
  // ("tiktoken") reads it: each code point of CHANGED swapped for its stand-in.
  function seenAs(text, unicode = "regex") {
    const view = VIEWS[unicode];
    return text.replace(EVERY_CHANGED, (c) => standIn(c, view));
  }

  // The pre-token strings of text under a pattern (a RegExp with flags "gu").
  function split(text, pattern, unicode = "regex") {
    if (!HAS_CHANGED.test(text)) return Array.from(text.matchAll(pattern), (m) => m[0]);
    const seen = seenAs(text, unicode);
    return Array.from(seen.matchAll(pattern), (m) => text.slice(m.index, m.index + m[0].length));
  }

  // The pre-tokens of text, in order, as byte strings; with pattern null, the whole
  // text is one piece (bpe.train's pattern=None).
  function pieces(text, pattern = PAT, unicode = "regex") {
    if (pattern === null) return text ? [toByteString(text)] : [];
    return split(text, pattern, unicode).map(toByteString);
  }

  const WHITESPACE = { " ": "␣", "\n": "⏎", "\t": "⇥", "\r": "␍" };

  // A token for the reader: bytes that are not whole characters as <E1>, a dotted
  // circle before a combining mark that starts the token (so that the mark has
  // something to sit on instead of the box's border) and, unless asked not to,
  // spaces, newlines, tabs and carriage returns as ␣ ⏎ ⇥ ␍.
  function show(byteString, whitespace = true) {
    const bytes = Uint8Array.from(byteString, (c) => c.charCodeAt(0));
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      text = Array.from(bytes, (b) => "<" + b.toString(16).toUpperCase().padStart(2, "0") + ">").join("");
    }
    text = text.replace(/^\p{M}/u, "\u25CC$&");
    return whitespace ? text.replace(/[ \n\t\r]/g, (c) => WHITESPACE[c]) : text;
  }

  // ---- merging one pre-token -------------------------------------------------
  //
  // Two rules pick the next merge inside a piece, and a vocabulary says which it
  // follows (vocabulary.rule):
  //   "ranks"  (tiktoken): the neighbouring pair whose joined bytes have the lowest
  //            rank, the leftmost of equals, one place at a time; a piece that is
  //            itself a token is that token.
  //   "merges" (bpe.Tokenizer): the pair that is the earliest learned merge, merged
  //            at every place that holds it, left to right, in one round.
  // vocabulary.rankOf(left, right) gives the rank of a pair, or undefined.

  // The readable version, which also reports each step: scan every pair, pick, merge.
  // onStep(parts, candidates, best) is called before each merge, where candidates are
  // the [index, rank] of every neighbouring pair that has a rank. Quadratic in the
  // piece's length: used for short pieces, and for the pages' traces.
  function mergeByScan(parts, rankOf, everyPlace, onStep) {
    parts = [...parts];
    for (;;) {
      const candidates = [];
      for (let i = 0; i + 1 < parts.length; i++) {
        const r = rankOf(parts[i], parts[i + 1]);
        if (r !== undefined) candidates.push([i, r]);
      }
      if (!candidates.length) return parts;
      let best = candidates[0];
      for (const c of candidates) if (c[1] < best[1]) best = c; // the first of equals
      if (onStep) onStep(parts, candidates, best);
      const [left, right] = [parts[best[0]], parts[best[0] + 1]];
      if (!everyPlace) { // a new array: onStep may keep the old one
        parts = [...parts.slice(0, best[0]), left + right, ...parts.slice(best[0] + 2)];
        continue;
      }
      const out = [];
      for (let i = 0; i < parts.length; i++) {
        if (i + 1 < parts.length && parts[i] === left && parts[i + 1] === right) {
          out.push(left + right);
          i++; // both halves: matches never overlap
        } else {
          out.push(parts[i]);
        }
      }
      parts = out;
    }
  }

  // A binary min-heap of numbers (rank * PLACES + place), so that the lowest rank,
  // then the leftmost place, comes out first.
  const PLACES = 2 ** 26; // places per rank: pieces up to 64 MiB
  class Heap {
    constructor() { this.items = []; }
    get size() { return this.items.length; }
    peek() { return this.items[0]; }
    push(x) {
      const a = this.items;
      let i = a.push(x) - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (a[parent] <= x) break;
        a[i] = a[parent];
        i = parent;
      }
      a[i] = x;
    }
    pop() {
      const a = this.items, top = a[0], last = a.pop();
      if (a.length) {
        let i = 0;
        for (;;) {
          let child = 2 * i + 1;
          if (child >= a.length) break;
          if (child + 1 < a.length && a[child + 1] < a[child]) child++;
          if (a[child] >= last) break;
          a[i] = a[child];
          i = child;
        }
        a[i] = last;
      }
      return top;
    }
  }

  // The same answers as mergeByScan, in about n log n steps however long the piece
  // (10,000 repeated characters are one pre-token): the parts are a linked list of
  // places in the piece, and a heap holds every neighbouring pair that has a rank.
  // An entry is checked when it comes out: if its pair has changed since (a
  // neighbour was merged), the rank differs, and the entry is dropped.
  function mergeByHeap(piece, rankOf, everyPlace) {
    const n = piece.length;
    const next = new Int32Array(n), prev = new Int32Array(n);
    for (let i = 0; i < n; i++) { next[i] = i + 1; prev[i] = i - 1; }
    const alive = new Uint8Array(n).fill(1);
    const part = (i) => piece.slice(i, next[i]);
    const heap = new Heap();
    const offer = (i) => { // the pair that starts at place i, if it has a rank
      if (i < 0 || next[i] >= n) return;
      const r = rankOf(part(i), part(next[i]));
      if (r !== undefined) heap.push(r * PLACES + i);
    };
    const holds = (i, r) => alive[i] && next[i] < n && rankOf(part(i), part(next[i])) === r;
    const join = (i) => { // merge the part at i with the one after it
      const j = next[i];
      alive[j] = 0;
      next[i] = next[j];
      if (next[j] < n) prev[next[j]] = i;
    };
    for (let i = 0; i + 1 < n; i++) offer(i);
    while (heap.size) {
      const key = heap.pop(), r = Math.floor(key / PLACES), i = key - r * PLACES;
      if (!everyPlace) {
        if (!holds(i, r)) continue;
        join(i);
        offer(prev[i]);
        offer(i);
        continue;
      }
      // One round: every place that holds rank r's pair, left to right; the pairs
      // the round makes are offered only after it, as the round-by-round rule says.
      const places = [i];
      while (heap.size && Math.floor(heap.peek() / PLACES) === r) places.push(heap.pop() - r * PLACES);
      const joined = [];
      for (const p of places) {
        if (holds(p, r)) { join(p); joined.push(p); }
      }
      for (const p of joined) {
        if (!alive[p]) continue;
        offer(prev[p]);
        offer(p);
      }
    }
    const out = [];
    for (let i = 0; i < n; i = next[i]) out.push(part(i));
    return out;
  }

  const SHORT = 32; // bytes: shorter pieces are quicker to scan than to heap

  // One pre-token (a byte string) to its tokens (byte strings). Pieces up to `short`
  // bytes are scanned, longer ones heaped (the benchmark scans all: Infinity).
  function encodePiece(piece, vocabulary, short = SHORT) {
    const everyPlace = vocabulary.rule === "merges";
    if (!everyPlace && vocabulary.rank.has(piece)) return [piece];
    if (piece.length <= short) return mergeByScan(Array.from(piece), vocabulary.rankOf, everyPlace);
    return mergeByHeap(piece, vocabulary.rankOf, everyPlace);
  }

  // The steps by which a piece becomes tokens, for the pages' traces:
  // [{parts, candidates, best}] and the final parts.
  function tracePiece(piece, vocabulary, rankOf = vocabulary.rankOf) {
    const steps = [];
    const parts = mergeByScan(Array.from(piece), rankOf, vocabulary.rule === "merges",
      (parts, candidates, best) => steps.push({ parts, candidates, best }));
    return { steps, parts };
  }

  // How a token was built, merge by merge, from its bytes: the trace of merging its
  // bytes with only the ranks below its own, then the last merge that makes it.
  // A byte is built from nothing: no steps. A token that its earlier ranks cannot
  // bring down to two parts is left as they leave it.
  function buildTrace(token, vocabulary) {
    const id = vocabulary.rank.get(token);
    // The rank that made the token: its id, or, where ranks are merges, its merge.
    const own = vocabulary.rule === "merges" ? id - 256 : id;
    const rankOf = (a, b) => {
      const r = vocabulary.rankOf(a, b);
      return r !== undefined && r < own ? r : undefined;
    };
    const trace = tracePiece(token, vocabulary, rankOf);
    const last = trace.parts.length === 2 ? vocabulary.rankOf(...trace.parts) : undefined;
    if (last !== undefined) {
      trace.steps.push({ parts: trace.parts, candidates: [[0, last]], best: [0, last] });
      trace.parts = [token];
    }
    return trace;
  }

  function specialSplitter(specials) {
    const names = Object.keys(specials).sort((a, b) => b.length - a.length); // longest first
    if (!names.length) return null;
    const escaped = names.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp("(" + escaped.join("|") + ")", "u");
  }

  // A vocabulary from its parts. tokens: byte strings by rank (id); specials:
  // {text: id}; pattern: a JavaScript regex source, or null for none; merges:
  // [left, right] byte strings in rank order, for a vocabulary that follows the
  // "merges" rule (rank of a pair = its place in that list; a repeated merge keeps
  // its last place, as bpe.Tokenizer does); unicode: how it reads Unicode (see split).
  function makeVocabulary({ name, label, tokens, specials = {}, pattern = GPT2_PATTERN, merges = null,
                            unicode = "regex" }) {
    if (!(unicode in VIEWS)) throw new Error(`unknown Unicode view ${unicode}`);
    const rank = new Map();
    tokens.forEach((t, id) => { if (!rank.has(t)) rank.set(t, id); }); // a repeat: its lower id
    let rankOf, rule = "ranks";
    if (merges) {
      rule = "merges";
      const pairRank = new Map();
      merges.forEach(([a, b], r) => pairRank.set(a + "\u0100" + b, r)); // \u0100: above every byte
      rankOf = (a, b) => pairRank.get(a + "\u0100" + b);
    } else {
      rankOf = (a, b) => rank.get(a + b);
    }
    return {
      name, label, tokens, rank, rankOf, rule, specials, merges, unicode,
      pattern: pattern === null ? null : new RegExp(pattern, "gu"),
      splitter: specialSplitter(specials),
      cache: new Map(), // piece -> its tokens, for pieces that come back
    };
  }

  // A vocabulary shipped with the site ({name, label, pattern, unicode, specials,
  // tokens}: each token's bytes as a string of characters U+0000-U+00FF, by id).
  function loadVocabulary(shipped) {
    return makeVocabulary(shipped);
  }

  const CACHED = 256; // characters: longer pieces are rare enough to encode afresh

  // The tokens of one piece of text, as {id, bytes, special} objects. They are kept
  // by the piece's text (a word that comes back costs one look-up) and shared by
  // every occurrence: nobody changes them.
  function encodeText(piece, vocabulary) {
    let tokens = vocabulary.cache.get(piece);
    if (!tokens) {
      tokens = encodePiece(toByteString(piece), vocabulary)
        .map((bytes) => ({ id: vocabulary.rank.get(bytes), bytes, special: false }));
      if (piece.length <= CACHED) {
        if (vocabulary.cache.size >= 100000) vocabulary.cache.clear(); // a page, not a server
        vocabulary.cache.set(piece, tokens);
      }
    }
    return tokens;
  }

  function encodeOrdinary(text, vocabulary, out) {
    if (vocabulary.pattern === null) {
      if (text) out.push(...encodeText(text, vocabulary));
      return out;
    }
    for (const piece of split(text, vocabulary.pattern, vocabulary.unicode)) {
      for (const token of encodeText(piece, vocabulary)) out.push(token);
    }
    return out;
  }

  // Text to [{id, bytes, special}], one per token. With allowSpecial, each special
  // token's text is that token (tiktoken's encode with allowed_special="all");
  // otherwise it is ordinary text (encode_ordinary).
  function encode(text, vocabulary, allowSpecial = false) {
    const out = [];
    if (!allowSpecial || !vocabulary.splitter) return encodeOrdinary(text, vocabulary, out);
    text.split(vocabulary.splitter).forEach((chunk, i) => {
      if (i % 2) out.push({ id: vocabulary.specials[chunk], bytes: toByteString(chunk), special: true });
      else if (chunk) encodeOrdinary(chunk, vocabulary, out);
    });
    return out;
  }

  // A DOM element with attributes and text, for the pages that show all this.
  function element(tag, attributes = {}, text = "") {
    const node = document.createElement(tag);
    Object.assign(node, attributes);
    if (text) node.textContent = text;
    return node;
  }

  return {
    GPT2_PATTERN, PAT, ENDOFTEXT, CHANGED, STAND_INS, seenAs, toByteString, pieces, show, mergeByScan, mergeByHeap, encodePiece,
    tracePiece, buildTrace, specialSplitter, makeVocabulary, loadVocabulary, encode, element,
  };
})();

if (typeof module !== "undefined") module.exports = BPE;
