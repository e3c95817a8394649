// Where the page's Python keeps the book, and how it starts there: one home for both
// places that set it up, worker.js in the browser and bpe/book/site/node/node_runner.mjs under
// Node (for the marks and the tests), so that the two set Python up alike.
export const ROOT = "/home/pyodide/book"; // the book's archive (bpe-book.zip), unpacked

// Unpack the book's archive (its bytes) into ROOT and put its package on sys.path.
export function unpackBook(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: ROOT });
  pyodide.runPython(`import sys\nsys.path.insert(0, "${ROOT}/lib")`);
}

// Start the page's session (bpe.book.page.session.start), with the site's files at
// `site`: its module, and what started (versions), as plain JavaScript.
export function startPage(pyodide, site) {
  const page = pyodide.pyimport("bpe.book.page.session");
  const facts = page.start(ROOT, site).toJs({ dict_converter: Object.fromEntries });
  return { page, facts };
}
