// Where the page's Python keeps the book, and how it starts there: one home for every
// place that sets it up, worker.js in the browser and, under Node,
// bpe/book/site/node/node_runner.mjs (the marks and the tests) and snapshot.mjs (the
// build), so that they set Python up alike.
export const ROOT = "/home/pyodide/book"; // the book's archive (bpe-book.zip), unpacked
// What a memory snapshot holds besides CPython itself: these modules, imported.
const FIRST_IMPORTS = "import bpe, bpe.book.page.session, bpe.book.page.vocabularies";

// Unpack the book's archive (its bytes) into ROOT and put its package on sys.path.
export function unpackBook(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: ROOT });
  const lib = `${ROOT}/lib`;
  pyodide.runPython(`import sys\nif "${lib}" not in sys.path: sys.path.insert(0, "${lib}")`);
}

// The archive's SHA-256, in hex: a snapshot is used only with the archive it was made from.
export async function digest(zip) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", zip));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// CPython with the book unpacked, its first modules imported and then `modules` (the
// names the chapters' Run cells import: session.preload), as a memory snapshot
// (bytes): what snapshot.mjs writes at build time, so that the page skips those steps.
export async function makeSnapshot(loadPyodide, options, zip, modules = []) {
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  unpackBook(pyodide, zip);
  pyodide.runPython(`${FIRST_IMPORTS}\nbpe.book.page.session.made_from = "${await digest(zip)}"`);
  // (Module names are plain identifiers: their JSON list is a Python list too. No
  // proxy of a Python object may be alive when the snapshot is made.)
  pyodide.runPython(`bpe.book.page.session.preload(${JSON.stringify(modules)})`);
  return pyodide.makeMemorySnapshot();
}

// Pyodide started from the snapshot when there is one made from this archive, else
// from scratch; the book unpacked either way (a snapshot keeps memory, not files).
// zip may be a promise; snapshot is a promise of null (there is none) or of {bytes},
// where bytes may be a promise too, so that Pyodide's own files download meanwhile.
// Returns {pyodide, start}: how it started, "snapshot" or "plain (why)".
export async function loadPython(loadPyodide, options, zip, snapshot) {
  const found = await snapshot;
  let start = found ? "snapshot" : "plain (no snapshot)";
  let pyodide = null;
  if (found) {
    try {
      const fsInit = roomFor(found.bytes);
      pyodide = await loadPyodide({ ...options, fsInit, _loadSnapshot: found.bytes });
      const made = pyodide.runPython("bpe.book.page.session.made_from");
      if (made !== (await digest(await zip))) start = "plain (the snapshot is stale)";
    } catch (error) {
      start = `plain (${error.message ?? error})`;
    }
  }
  if (start !== "snapshot") pyodide = await loadPyodide(options);
  unpackBook(pyodide, await zip);
  return { pyodide, start };
}

// Room for a snapshot's memory. Pyodide copies the snapshot into the memory CPython
// starts with (30 MiB) without growing it, so the snapshot of a larger heap would not
// fit ("offset is out of bounds"). As Pyodide sets up its file system, before that
// copy, mapping a file makes the memory grow (mmap allocates there) until it holds
// the snapshot's bytes; the copy then overwrites all it holds.
function roomFor(bytes) {
  const PAGE = 65536;
  return async (FS) => {
    const size = (await bytes).length;
    const room = FS.open("/tmp/room-for-the-snapshot", "w+");
    try {
      const { ptr } = FS.mmap(room, PAGE, 0, 1, 2); // (read, private): where the heap ends
      if (ptr + PAGE < size) FS.mmap(room, size - ptr, 0, 1, 2);
    } finally {
      FS.close(room);
      FS.unlink(room.path);
    }
  };
}

// Start the page's session (bpe.book.page.session.start), with the site's files at
// `site`: its module, and what started (versions), as plain JavaScript.
export function startPage(pyodide, site) {
  const page = pyodide.pyimport("bpe.book.page.session");
  const facts = page.start(ROOT, site).toJs({ dict_converter: Object.fromEntries });
  return { page, facts };
}
