// The page's Python: Pyodide in a Web Worker, so that the page stays responsive while
// it starts and while a cell runs. live.js sends {type: "start", pyodide, archive}
// once (before the first Run if it can: see startSoon there), then {type: "run", id,
// code, filename}, {type: "complete", id, code} or {type: "reset"}; the worker answers
// with "status" ({step, of, what}: the step of the start it has reached), "ready" or
// "failed", then "stream" events ({id, kind, text}: stdout, stderr, result, error) as a
// cell runs and "done" ({id, outcome}) when it ends, or "fatal" ({id, error}) if Python
// broke. Everything comes from the site: Pyodide's files (pyodide/) and the book's
// package and data (live/bpe-book.zip, archive.py), and the files a cell reads when it
// asks for them (OpenAI's vocabularies, the data).
// bpe/book/site/node/node_runner.mjs sets Python up the same way under Node (python_home.mjs).
import { loadPython, startPage } from "./python_home.mjs";

let ready = null; // resolves to bpe.book.page.session once Python is set up

// The steps of the start, as live.js shows them on the cell's status line.
const STEPS = ["CPython and the book's package", "the session"];
const step = (index) => postMessage({ type: "status", step: index + 1, of: STEPS.length, what: STEPS[index] });

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}

// The memory snapshot (snapshot.mjs made it, gzipped) as {bytes}, a promise of them,
// as soon as the site has answered; null if it has none: Python then starts from
// scratch, a second or two slower.
async function fetchSnapshot(url) {
  const response = await fetch(url).catch(() => null);
  if (!response?.ok) return null;
  return { bytes: response.arrayBuffer().then(unzip) };
}

async function unzip(buffer) {
  const bytes = new Uint8Array(buffer);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes; // the server unzipped it
  const unzipped = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(unzipped).arrayBuffer());
}

async function start({ pyodide: indexURL, archive, snapshot }) {
  const began = performance.now();
  const phases = {}; // seconds each step took, for the benchmark
  const lap = (name, since) => {
    phases[name] = (performance.now() - since) / 1000;
    return performance.now();
  };
  step(0);
  // The book's archive and CPython's memory snapshot download while Pyodide's files do.
  const book = fetchBytes(archive);
  book.catch(() => {}); // (a failure is told below, when it is awaited)
  const memory = snapshot ? fetchSnapshot(snapshot) : Promise.resolve(null);
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const quiet = () => {}; // a cell's output is caught by cells.py, not here
  const options = { indexURL, stdout: quiet, stderr: quiet };
  const zip = book.then((bytes) => new Uint8Array(bytes));
  const { pyodide, start: how } = await loadPython(loadPyodide, options, zip, memory);
  let since = lap("pyodide", began);
  step(1);
  // The files a cell may read from the site (vocabularies, data) are under _static/,
  // the archive's parent's parent: Python fetches them itself (vocabularies.read_served).
  const site = new URL("../", new URL(archive, self.location.href)).href;
  const { page, facts } = startPage(pyodide, site);
  lap("session", since);
  const seconds = (performance.now() - began) / 1000;
  postMessage({ type: "ready", ...facts, start: how, phases, seconds });
  return page;
}

// Started from a snapshot, the browser's WebAssembly engine has yet to compile
// Python's hot paths to fast code: it does so as they run. So, until the first request
// or for WARM_MS at most, the worker runs slices of the book's kind of work
// (session.warm_up), giving way between slices; the first Run then runs at full speed.
const WARM_MS = 3000;
let warming = false;
async function warmUp(page) {
  warming = true;
  const until = performance.now() + WARM_MS;
  while (warming && performance.now() < until) {
    page.warm_up();
    await new Promise((resolve) => setTimeout(resolve, 0)); // a request may come in
  }
  warming = false;
}

function plain(proxy) {
  const value = proxy.toJs({ dict_converter: Object.fromEntries });
  proxy.destroy();
  return value;
}

self.onmessage = async ({ data }) => {
  if (data.type === "start") {
    ready = start(data);
    ready.then(warmUp, (error) => postMessage({ type: "failed", error: String(error.stack ?? error) }));
    return;
  }
  warming = false;
  const page = await ready;
  if (data.type === "run") {
    const write = (kind, text) => postMessage({ type: "stream", id: data.id, kind, text });
    try {
      const outcome = plain(page.run(data.code, data.filename, write));
      postMessage({ type: "done", id: data.id, outcome });
    } catch (error) {
      // Not a Python exception (those come back in the outcome) but Python itself
      // failing, out of memory say: this worker is done for, and live.js replaces it.
      postMessage({ type: "fatal", id: data.id, error: String(error.message ?? error) });
    }
  } else if (data.type === "check") {
    // An exercise's Check: the reader's code, then bpe.book.practice' checks on it.
    try {
      postMessage({ type: "done", id: data.id, outcome: plain(page.check(data.name, data.code)) });
    } catch (error) {
      postMessage({ type: "fatal", id: data.id, error: String(error.message ?? error) });
    }
  } else if (data.type === "complete") {
    postMessage({ type: "complete", id: data.id, complete: page.is_complete(data.code) });
  } else if (data.type === "reset") {
    page.reset();
  }
};
