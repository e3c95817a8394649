// Run the explorer's trainer under Node: reads {"text": ..., "merges": n} on stdin,
// prints the merges as [[left bytes], [right bytes]] arrays of byte values.
const { train } = require("../bpe/book/explorer.js");
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { text, merges } = JSON.parse(input);
  const bytes = (s) => Array.from(s, (c) => c.charCodeAt(0));
  console.log(JSON.stringify(train(text, merges).map(([a, b]) => [bytes(a), bytes(b)])));
});
