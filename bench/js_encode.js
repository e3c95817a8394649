// make bench (JavaScript): the playground's encoder (bpe/book/chapters/bpe.js) timed inside Node.
//
// bench_js.py starts this once and asks by line (bpe/book/site/node/driver.js), so that each JavaScript run can be
// paired with a Python run in the same moment. Requests (JSON, one per line):
//   {op: "load", files}: run the vocabulary scripts; answers their names.
//   {op: "time", name, text | texts, how: "heap" | "scan", cold}: milliseconds to encode
//       (texts: each in turn), measured here, so that passing text between the two
//       processes is not counted; cold empties the vocabulary's piece cache first.
//       "scan" merges each piece with the readable quadratic rule instead of the heap.
//   {op: "ids", name, text}: the ids, to check them against Python's before timing.
const BPE = require("../bpe/book/chapters/bpe.js");
const { serveLines, loadVocabularies } = require("../bpe/book/site/node/driver.js");
const vocabularies = {};

function encodeByScan(text, vocabulary) { // the old playground encoder's cost
  const out = [];
  for (const piece of BPE.pieces(text, vocabulary.pattern, vocabulary.unicode)) {
    // every piece scanned, however long (bpe.js scans only the short ones), uncached
    for (const part of BPE.encodePiece(piece, vocabulary, Infinity)) out.push(vocabulary.rank.get(part));
  }
  return out;
}

const ops = {
  load({ files }) {
    return loadVocabularies(files, vocabularies);
  },
  time({ name, text, texts = [text], how = "heap", cold = false }) {
    const vocabulary = vocabularies[name];
    if (cold) vocabulary.cache.clear();
    const start = performance.now();
    for (const t of texts) how === "scan" ? encodeByScan(t, vocabulary) : BPE.encode(t, vocabulary);
    return performance.now() - start;
  },
  ids({ name, text }) {
    return BPE.encode(text, vocabularies[name]).map((t) => t.id);
  },
};

serveLines((request) => ops[request.op](request));
