// The page's Python under Node: Pyodide from the site's own files, set up as worker.js
// sets it up in the browser (python_home.mjs), then Python scripts run in it, one per
// request. bpe.book.site.marks starts it; it is a tool of the checkout, not served.
//
// stdin, one JSON document per line: first {pyodide, archive, snapshot, site} (the folder
// of Pyodide's files, vendor/pyodide, the site's bpe-book.zip and optionally its memory
// snapshot, python-snapshot.gz, which it then starts from, and optionally a folder laid
// out like the site's _static/ with the files a cell reads from the site, which is
// mounted where Python reads it: the vocabularies, the data), then any number of {script,
// input}: Python code whose last expression is a JSON string, and any JSON, given to
// the script as the string `job_input`. stdout: one line per line read, first
// {"python", "unicode", "start", "seconds"} (the start), then each script's JSON, or
// {"error": traceback} if it raised. Python's own prints go to stderr.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { serveLines } from "./driver.js";
import { gunzipSync } from "node:zlib";
import { loadPython, startPage } from "../static/live/python_home.mjs";

const SITE = "/home/pyodide/site"; // where the site's files are mounted

async function start({ pyodide: folder, archive, site, snapshot }) {
  const began = performance.now();
  const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
  const log = (text) => process.stderr.write(`${text}\n`);
  const options = { indexURL: `${folder}/`, stdout: log, stderr: log };
  const zip = new Uint8Array(readFileSync(archive));
  const memory = snapshot ? { bytes: new Uint8Array(gunzipSync(readFileSync(snapshot))) } : null;
  const { pyodide, start: how } = await loadPython(loadPyodide, options, zip, memory);
  if (site) {
    pyodide.FS.mkdirTree(SITE);
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, SITE);
  }
  const { facts } = startPage(pyodide, site ? SITE : null);
  const seconds = (performance.now() - began) / 1000;
  return { pyodide, facts: { ...facts, start: how, seconds } };
}

// Each answer is a line of JSON already: a script's own, or one made here.
let pyodide = null;
async function answer(request) {
  if (pyodide === null) {
    const started = await start(request);
    pyodide = started.pyodide;
    return JSON.stringify(started.facts);
  }
  try {
    pyodide.globals.set("job_input", JSON.stringify(request.input ?? null));
    return pyodide.runPython(request.script);
  } catch (error) {
    return JSON.stringify({ error: String(error.message ?? error) });
  }
}

// An error is told as its message and stack only (Node would quote the minified line
// it came from, a megabyte long).
try {
  await serveLines(answer, { encode: (line) => line });
} catch (error) {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
}
