// Byte-level BPE in the browser: the one JavaScript implementation the book's pages share.
//
// The merge explorer (explorer.js) trains with it and the token playground
// (playground.js) encodes with it. It follows bpe/pretokenize.py and bpe/tokenizer.py:
// a pre-tokenizer pattern (GPT-2's by default; each shipped vocabulary brings its own,
// rewritten for JavaScript by bpe/book/jspattern.py), pieces as UTF-8 bytes, and
// encoding by rank. A token is a "byte string": a JS string whose characters are the
// byte values 0-255, so that `<` compares tokens byte by byte as Python compares
// bytes. tests/test_explorer.py and tests/test_playground.py run it under Node
// against the package and tiktoken.
var BPE = (typeof BPE !== "undefined" && BPE) || (() => {
  // GPT-2's pattern, as bpe/pretokenize.py writes it (\p{White_Space} is what Python's
  // `regex` and Rust mean by \s; JavaScript's \s also takes U+FEFF).
  const GPT2_PATTERN = "'(?:[sdmt]|ll|ve|re)| ?\\p{L}+| ?\\p{N}+| ?[^\\p{White_Space}\\p{L}\\p{N}]+" +
    "|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+";
  const PAT = new RegExp(GPT2_PATTERN, "gu");

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

  // tiktoken's view of Unicode (bpe/interop/unicode.py, where the Python package
  // does the same): the code points that this engine's newer tables class as letters,
  // marks or digits (or as another case) while tiktoken's regex does not, as
  // [first, last, stand-in]. Before matching, each is swapped for its stand-in, which
  // every engine classes as tiktoken classes the original; the pieces are then cut
  // from the original text at the same places. tests/test_playground.py checks this
  // copy against bpe.interop.unicode.DIFFERENCES.
  const NEWER = [
    [0x0295, 0x0295, 0x0250], [0x0558, 0x0558, 0x0378], [0x058B, 0x058C, 0x0378],
    [0x05C8, 0x05C9, 0x0378], [0x088F, 0x088F, 0x0378], [0x0B53, 0x0B54, 0x0378],
    [0x0C5C, 0x0C5C, 0x0378], [0x0CDC, 0x0CDC, 0x0378], [0x1ACF, 0x1AF0, 0x0378],
    [0x208F, 0x208F, 0x0378], [0x209D, 0x209F, 0x0378], [0xA7CE, 0xA7CF, 0x0378],
    [0xA7D2, 0xA7D2, 0x0378], [0xA7D4, 0xA7D4, 0x0378], [0xA7DD, 0xA7DD, 0x0378],
    [0xA7E2, 0xA7E2, 0x0378], [0xA7F1, 0xA7F1, 0x0378], [0xAB6C, 0xAB6D, 0x0378],
    [0x107BB, 0x107BF, 0x0378], [0x10940, 0x10959, 0x0378], [0x10EC5, 0x10EC7, 0x0378],
    [0x10ECB, 0x10ECF, 0x0378], [0x10ED9, 0x10EEE, 0x0378], [0x10EF0, 0x10EFB, 0x0378],
    [0x11B0A, 0x11B0A, 0x0378], [0x11B60, 0x11B67, 0x0378], [0x11DB0, 0x11DDB, 0x0378],
    [0x11DE0, 0x11DE9, 0x0378], [0x11DF0, 0x11DF1, 0x0378], [0x1246F, 0x1246F, 0x0378],
    [0x12475, 0x1247F, 0x0378], [0x12550, 0x12686, 0x0378], [0x16EA0, 0x16EB8, 0x0378],
    [0x16EBB, 0x16ED3, 0x0378], [0x16FF2, 0x16FF6, 0x0378], [0x187F8, 0x187FF, 0x0378],
    [0x18CD6, 0x18CDA, 0x0378], [0x18D09, 0x18D20, 0x0378], [0x18D80, 0x18DF2, 0x0378],
    [0x18E00, 0x19191, 0x0378], [0x191A0, 0x191D2, 0x0378], [0x1B123, 0x1B128, 0x0378],
    [0x1B168, 0x1B168, 0x0378], [0x1D127, 0x1D128, 0x0378], [0x1D250, 0x1D252, 0x0378],
    [0x1D25B, 0x1D25C, 0x0378], [0x1D25F, 0x1D25F, 0x0378], [0x1D280, 0x1D281, 0x0378],
    [0x1D6A6, 0x1D6A6, 0x0378], [0x1DF1F, 0x1DF24, 0x0378], [0x1DF2B, 0x1DF81, 0x0378],
    [0x1DF90, 0x1DF96, 0x0378], [0x1DFCD, 0x1DFFF, 0x0378], [0x1E6C0, 0x1E6DE, 0x0378],
    [0x1E6E0, 0x1E6F5, 0x0378], [0x1E6FE, 0x1E6FF, 0x0378], [0x2B73A, 0x2B73F, 0x0378],
    [0x2B81E, 0x2B81E, 0x0378], [0x2CEA2, 0x2CEAD, 0x0378], [0x323B0, 0x33479, 0x0378],
    [0x3D000, 0x3FC3F, 0x0378],
  ];
  const UNASSIGNED = 0x0378, ASTRAL_UNASSIGNED = 0x1fffe; // both Cn in every version
  const NEWER_CLASS = "[" + NEWER.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join("") + "]";
  const HAS_NEWER = new RegExp(NEWER_CLASS, "u"), EVERY_NEWER = new RegExp(NEWER_CLASS, "gu");

  function standIn(c) { // one character for one, of the same length in UTF-16
    const code = c.codePointAt(0);
    const [, , by] = NEWER.find(([a, b]) => a <= code && code <= b);
    return String.fromCodePoint(by === UNASSIGNED && code > 0xffff ? ASTRAL_UNASSIGNED : by);
  }

  // The pre-token strings of text under a pattern (a RegExp with flags "gu"), as
  // tiktoken's regex would cut it.
  function split(text, pattern) {
    if (!HAS_NEWER.test(text)) return Array.from(text.matchAll(pattern), (m) => m[0]);
    const seen = text.replace(EVERY_NEWER, standIn);
    return Array.from(seen.matchAll(pattern), (m) => text.slice(m.index, m.index + m[0].length));
  }

  // The pre-tokens of text, in order, as byte strings; with pattern null, the whole
  // text is one piece (bpe.train's pattern=None).
  function pieces(text, pattern = PAT) {
    if (pattern === null) return text ? [toByteString(text)] : [];
    return split(text, pattern).map(toByteString);
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

  // One pre-token (a byte string) to its tokens (byte strings).
  function encodePiece(piece, vocabulary) {
    const everyPlace = vocabulary.rule === "merges";
    if (!everyPlace && vocabulary.rank.has(piece)) return [piece];
    if (piece.length <= SHORT) return mergeByScan(Array.from(piece), vocabulary.rankOf, everyPlace);
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
  // its last place, as bpe.Tokenizer does).
  function makeVocabulary({ name, label, tokens, specials = {}, pattern = GPT2_PATTERN, merges = null }) {
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
      name, label, tokens, rank, rankOf, rule, specials, merges,
      pattern: pattern === null ? null : new RegExp(pattern, "gu"),
      splitter: specialSplitter(specials),
      cache: new Map(), // piece -> its tokens, for pieces that come back
    };
  }

  // A vocabulary shipped with the site ({name, label, pattern, specials, tokens}: each
  // token's bytes as a string of characters U+0000-U+00FF, by id).
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
    for (const piece of split(text, vocabulary.pattern)) {
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
    GPT2_PATTERN, PAT, NEWER, toByteString, pieces, show, mergeByScan, mergeByHeap, encodePiece,
    tracePiece, buildTrace, specialSplitter, makeVocabulary, loadVocabulary, encode, element,
  };
})();

if (typeof module !== "undefined") module.exports = BPE;
