// Byte-level BPE in the browser: the one JavaScript implementation the book's pages share.
//
// The merge explorer (explorer.js) trains with it and the token playground
// (playground.js) encodes with it. It follows bpe/pretokenize.py and bpe/tokenizer.py:
// GPT-2's pattern (with \p{White_Space}, which is what Python's `regex` means by \s),
// pieces as UTF-8 bytes, and encoding by rank. A token is a "byte string": a JS string
// whose characters are the byte values 0-255, so that `<` compares tokens byte by byte
// as Python compares bytes. tests/test_explorer.py and tests/test_playground.py run it
// under Node against the package.
var BPE = (typeof BPE !== "undefined" && BPE) || (() => {
  const PAT = /'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+/gu;

  function toByteString(text) {
    return Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join("");
  }

  // The pre-tokens of text, in order, as byte strings.
  function pieces(text) {
    return Array.from(text.matchAll(PAT), (match) => toByteString(match[0]));
  }

  // A token for the reader: a space as ␣, a newline as ⏎, bytes that are not whole
  // characters as <E1>, and a dotted circle before a combining mark that starts the
  // token, so that the mark has something to sit on instead of the box's border.
  function show(byteString) {
    const bytes = Uint8Array.from(byteString, (c) => c.charCodeAt(0));
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      text = Array.from(bytes, (b) => "<" + b.toString(16).toUpperCase().padStart(2, "0") + ">").join("");
    }
    return text.replace(/^\p{M}/u, "\u25CC$&").replace(/ /g, "␣").replace(/\n/g, "⏎");
  }

  // One pre-token to token byte strings: merge the neighbouring pair whose joined
  // bytes have the lowest rank, until no joined pair is a token (tiktoken's rule,
  // which gives the merge list's answer for a vocabulary trained by BPE).
  function encodePiece(piece, rank) {
    if (rank.has(piece)) return [piece];
    let parts = Array.from(piece);
    while (parts.length > 1) {
      let best = -1, bestRank = Infinity;
      for (let i = 0; i + 1 < parts.length; i++) {
        const r = rank.get(parts[i] + parts[i + 1]);
        if (r !== undefined && r < bestRank) { best = i; bestRank = r; }
      }
      if (best < 0) break;
      parts = [...parts.slice(0, best), parts[best] + parts[best + 1], ...parts.slice(best + 2)];
    }
    return parts;
  }

  // A vocabulary shipped with the site: {name, label, tokens: [base64 of each token, by id]}.
  function loadVocabulary(shipped) {
    const tokens = shipped.tokens.map((b64) => atob(b64));
    return { name: shipped.name, label: shipped.label, tokens,
             rank: new Map(tokens.map((t, id) => [t, id])) };
  }

  // Ordinary text (special tokens are text here) to [{id, bytes}], one per token.
  function encode(text, vocabulary) {
    const out = [];
    for (const piece of pieces(text)) {
      for (const token of encodePiece(piece, vocabulary.rank)) {
        out.push({ id: vocabulary.rank.get(token), bytes: token });
      }
    }
    return out;
  }

  // A DOM element with attributes and text, for the pages that show all this.
  function element(tag, attributes = {}, text = "") {
    const node = document.createElement(tag);
    Object.assign(node, attributes);
    if (text) node.textContent = text;
    return node;
  }

  return { PAT, toByteString, pieces, show, encodePiece, loadVocabulary, encode, element };
})();

if (typeof module !== "undefined") module.exports = BPE;
