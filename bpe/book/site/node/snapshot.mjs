// node snapshot.mjs PYODIDE_FOLDER ARCHIVE OUT [MODULES]: the page's Python, with the
// book's archive unpacked, its first modules imported and then MODULES (a JSON list of
// names: what the chapters' Run cells import), saved as a memory snapshot,
// gzipped, to OUT (python_home.mjs makeSnapshot). worker.js starts from it, skipping
// CPython's own start and those imports: a second or two less before the first Run.
// bpe.book.site.archive runs it at build time; a snapshot is used only with the
// archive it was made from (its SHA-256 is inside).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { makeSnapshot } from "../static/live/python_home.mjs";

const [folder, archive, out, modules = "[]"] = process.argv.slice(2);
try {
  const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
  const quiet = () => {};
  const zip = new Uint8Array(readFileSync(archive));
  const memory = await makeSnapshot(
    loadPyodide, { indexURL: `${folder}/`, stdout: quiet, stderr: quiet }, zip, JSON.parse(modules));
  // Written whole, then renamed: an interrupted build never leaves half a snapshot.
  writeFileSync(`${out}.partial`, gzipSync(memory, { level: 9 }));
  renameSync(`${out}.partial`, out);
} catch (error) {
  process.stderr.write(`${error.message ?? error}\n`);
  process.exit(1);
}
