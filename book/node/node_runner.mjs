// The page's Python under Node: Pyodide from the site's own files, set up as worker.js
// sets it up in the browser, then Python scripts run in it, one per request.
//
// stdin, one JSON document per line: first {pyodide, archive, site} (the folder of
// Pyodide's files, vendor/pyodide, the site's bpe-book.zip, and optionally a folder laid
// out like the site's _static/ with the files a cell reads from the site, which is
// mounted where Python reads it: the vocabularies, the data), then any number of {script,
// input}: Python code whose last expression is a JSON string, and any JSON, given to
// the script as the string `job_input`. stdout: one line per line read, first
// {"python", "unicode", "seconds"} (the start), then each script's JSON, or
// {"error": traceback} if it raised. Python's own prints go to stderr.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const ROOT = "/home/pyodide/book"; // as in worker.js
const SITE = "/home/pyodide/site"; // where the site's files are mounted
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function start({ pyodide: folder, archive, site }) {
  const began = performance.now();
  const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
  const log = (text) => process.stderr.write(`${text}\n`);
  const pyodide = await loadPyodide({ indexURL: `${folder}/`, stdout: log, stderr: log });
  pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: ROOT });
  pyodide.runPython(`import sys\nsys.path.insert(0, "${ROOT}/lib")`);
  if (site) {
    pyodide.FS.mkdirTree(SITE);
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, SITE);
  }
  const page = pyodide.pyimport("bpe.book.live.page");
  const facts = page.start(ROOT, site ? SITE : null).toJs({ dict_converter: Object.fromEntries });
  say({ ...facts, seconds: (performance.now() - began) / 1000 });
  return pyodide;
}

// An error is told as its message and stack only (Node would quote the minified line
// it came from, a megabyte long).
try {
  let pyodide = null;
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    if (pyodide === null) {
      pyodide = await start(request);
      continue;
    }
    try {
      pyodide.globals.set("job_input", JSON.stringify(request.input ?? null));
      process.stdout.write(`${pyodide.runPython(request.script)}\n`);
    } catch (error) {
      say({ error: String(error.message ?? error) });
    }
  }
} catch (error) {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
}
