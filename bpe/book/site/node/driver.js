// The Node side of the book's JSON-lines tools, in one home: tests/bpe_node.js (the
// JavaScript BPE for the tests), bench/js_encode.js (for the benchmark) and
// node_runner.mjs (the page's Python, for the marks and the tests). Python starts one
// Node process and asks it by lines, so that the big files load once.
const fs = require("fs");
const readline = require("readline");
const vm = require("vm");

// Read requests, one JSON document a line, from stdin, and write each one's answer,
// in turn, as one line on stdout: encode(await answer(request)).
async function serveLines(answer, { encode = JSON.stringify } = {}) {
  for await (const line of readline.createInterface({ input: process.stdin, terminal: false })) {
    if (!line.trim()) continue;
    process.stdout.write(`${encode(await answer(JSON.parse(line)))}\n`);
  }
}

// Run the playground's vocabulary scripts (bpe.book.site.playground writes them), as a page
// would, and load each into `into` ({name: vocabulary}); the names of those loaded.
function loadVocabularies(files, into) {
  const BPE = require("../../chapters/bpe.js");
  globalThis.window = globalThis;
  window.BPE_VOCABULARIES = [];
  for (const file of files) vm.runInThisContext(fs.readFileSync(file, "utf8"));
  for (const shipped of window.BPE_VOCABULARIES) into[shipped.name] = BPE.loadVocabulary(shipped);
  return window.BPE_VOCABULARIES.map((v) => v.name);
}

module.exports = { serveLines, loadVocabularies };
