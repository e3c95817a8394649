// The book's JavaScript BPE (bpe/book/chapters/bpe.js, explorer.js) under Node, for the tests.
//
// One request per line on stdin, one JSON answer per line on stdout (bpe/book/site/node/driver.js),
// so that a test session starts Node (and loads the big vocabularies) once. Byte strings travel as
// arrays of byte values. Requests:
//   {op: "load", files}: run the shipped vocabulary scripts; answers their names.
//   {op: "encode", texts, allowSpecial, names?}: {name: [[ids of text 1], ...]}.
//   {op: "build", name, ids}: for each id, how the token is built (bpe.js buildTrace):
//       {steps: number of merges, last: [left, right] or null, parts: final parts}.
//   {op: "scanVersusHeap", name, texts}: the pieces where mergeByScan and mergeByHeap
//       disagree (an empty list when they agree), and how many pieces were compared.
//   {op: "train", text, merges, options}: the explorer's first `merges` merges.
//   {op: "trained", text, merges, options, texts, allowSpecial}: ids of texts under
//       the vocabulary those merges make (the playground's "train on my text").
//   {op: "trace", text, merges, options, word}: the explorer's trace of word.
//   {op: "constants"}: bpe.js's ENDOFTEXT and GPT2_PATTERN, explorer.js's MAX_CHARACTERS.
//   {op: "changed"}: bpe.js's swaps for Unicode (CHANGED, STAND_INS: bpe.interop.unicode).
//   {op: "classes", classes, unicode}: {class: [[first, last], ...]}, the code points
//       that this engine's \p{class} takes once bpe.js has swapped them (seenAs).
//   {op: "pieces", texts, unicode}: for each text, its pre-tokens' lengths in code
//       points, as bpe.js cuts it with its pattern (GPT-2's) and the Unicode view.
const BPE = require("../bpe/book/chapters/bpe.js");
const EXPLORER = require("../bpe/book/chapters/explorer.js");
const { serveLines, loadVocabularies } = require("../bpe/book/site/node/driver.js");

const bytes = (s) => Array.from(s, (c) => c.charCodeAt(0));
const vocabularies = {};

const ops = {
  load({ files }) {
    return loadVocabularies(files, vocabularies);
  },
  encode({ texts, allowSpecial = false, names = Object.keys(vocabularies) }) {
    return Object.fromEntries(names.map((name) =>
      [name, texts.map((t) => BPE.encode(t, vocabularies[name], allowSpecial).map((token) => token.id))]));
  },
  build({ name, ids }) {
    const vocabulary = vocabularies[name];
    return ids.map((id) => {
      const { steps, parts } = BPE.buildTrace(vocabulary.tokens[id], vocabulary);
      const last = steps.length ? steps[steps.length - 1] : null;
      return { steps: steps.length, parts: parts.map(bytes),
               last: last && last.parts.slice(last.best[0], last.best[0] + 2).map(bytes) };
    });
  },
  scanVersusHeap({ name, texts }) {
    const vocabulary = vocabularies[name];
    const everyPlace = vocabulary.rule === "merges";
    let compared = 0;
    const differ = [];
    for (const text of texts) {
      for (const piece of BPE.pieces(text, vocabulary.pattern, vocabulary.unicode)) {
        compared += 1;
        const scan = BPE.mergeByScan(Array.from(piece), vocabulary.rankOf, everyPlace);
        const heap = BPE.mergeByHeap(piece, vocabulary.rankOf, everyPlace);
        if (scan.join("\u0100") !== heap.join("\u0100")) differ.push(bytes(piece));
      }
    }
    return { compared, differ };
  },
  train({ text, merges, options = {} }) {
    return EXPLORER.train(text, merges, options).map(([a, b]) => [bytes(a), bytes(b)]);
  },
  trained({ text, merges, options = {}, texts, allowSpecial = false }) {
    const vocabulary = EXPLORER.vocabularyOf(EXPLORER.train(text, merges, options), options);
    return texts.map((t) => BPE.encode(t, vocabulary, allowSpecial).map((token) => token.id));
  },
  constants() { // what must equal the package's (tests/test_playground.py)
    return { ENDOFTEXT: BPE.ENDOFTEXT, GPT2_PATTERN: BPE.GPT2_PATTERN, MAX_CHARACTERS: EXPLORER.MAX_CHARACTERS };
  },
  changed() {
    return { changed: BPE.CHANGED, standIns: BPE.STAND_INS };
  },
  classes({ classes, unicode }) {
    const tests = classes.map((name) => new RegExp(`^\\p{${name}}$`, "u"));
    const found = Object.fromEntries(classes.map((name) => [name, []]));
    for (let c = 0; c < 0x110000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue;
      const seen = BPE.seenAs(String.fromCodePoint(c), unicode);
      tests.forEach((test, i) => {
        if (!test.test(seen)) return;
        const ranges = found[classes[i]], last = ranges[ranges.length - 1];
        if (last && last[1] === c - 1) last[1] = c;
        else ranges.push([c, c]);
      });
    }
    return found;
  },
  pieces({ texts, unicode }) {
    const decode = (piece) => Array.from(new TextDecoder().decode(Uint8Array.from(bytes(piece)))).length;
    return texts.map((t) => BPE.pieces(t, BPE.PAT, unicode).map(decode));
  },
  trace({ text, merges, options = {}, word }) {
    const vocabulary = EXPLORER.vocabularyOf(EXPLORER.train(text, merges, options), options);
    return EXPLORER.traceWord(word, vocabulary);
  },
};

serveLines((request) => {
  try {
    return { ok: ops[request.op](request) };
  } catch (error) {
    return { error: String(error.stack || error) };
  }
});
