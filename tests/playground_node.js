// Encode texts with the playground's JavaScript: reads {"vocabularies": [file, ...],
// "texts": [...]} on stdin, prints {name: [[ids of text 1], ...]} for each vocabulary.
const fs = require("fs");
const vm = require("vm");
const BPE = require("../bpe/book/bpe.js");
global.window = global;
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { vocabularies, texts } = JSON.parse(input);
  for (const file of vocabularies) vm.runInThisContext(fs.readFileSync(file, "utf8"));
  const out = {};
  for (const shipped of window.BPE_VOCABULARIES) {
    const vocabulary = BPE.loadVocabulary(shipped);
    out[shipped.name] = texts.map((t) => BPE.encode(t, vocabulary).map((token) => token.id));
  }
  console.log(JSON.stringify(out));
});
