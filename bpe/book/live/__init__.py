"""The book's Python in the page: the core and the standard library, run by Pyodide.

A reader of the site clicks Run on a cell and the cell runs in their browser, in a
Web Worker, with no server and no network beyond the site itself. The pieces, in
Python:

``regex_standin`` (the few ``regex`` calls the core makes, built on ``re``; it is
``regex`` in the browser), ``absent`` (the book's other third-party modules, which
the page lacks: importing one works, using it says so), ``cells`` (running a cell as
Jupyter would and collecting its output, a table as HTML), ``page`` (the Python
that runs inside the page, in Pyodide: the session's set-up, one namespace, the
console, and where the site's files are),
``archive`` (the package and the toy corpus as one zip file, and beside it the
files a cell may read from the site: the data registry's files, copied from
``BPE_DATA_MIRROR``, and GPT-2's ``encoder.json`` and ``vocab.bpe``; and Pyodide's
files, for ``make book``), ``classify`` (which cells run in the page and, for the
others, what stops each one, read from its failure where it stands), ``marks``
(running that under Node and writing it into the notebooks: ``make live-marks``)
and ``sphinx_extension`` (what runs when Sphinx builds the site, never in the
page: it writes each page's JSON of Run buttons and notes, and makes each figure
a link to its full-size image).

Two modules outside this package have a path for the page (``sys.platform ==
"emscripten"``), reading what the site serves through
``bpe.interop.openai.read_served`` (a synchronous request in the worker; under
Node, a folder mounted in its place): ``bpe.interop.openai.get_encoding`` gives
gpt2, cl100k_base and o200k_base as the package's own ``bpe.Tokenizer`` with
tiktoken's method names, built from the token playground's vocabulary files, and
``bpe.book.data.path`` fetches a registered file from the site into its cache.
Nothing is fetched before a cell asks for it.

In JavaScript, the site's own files (book/static/live/, served as _static/live/):
``live.js`` (the page), ``worker.js`` (Pyodide in a Web Worker),
``practice.js`` (the exercises' editable cells, Check and Reset, their verdicts and a
progress line, and the quizzes' clickable options, all kept in localStorage under
``bpe-book:``; Check asks ``page.check``, which runs ``bpe.book.exercises.check_code``)
and ``python_home.mjs`` (where the book goes in Pyodide's file system, and how the
page's Python starts there); and, not served, book/node/``node_runner.mjs`` (the same
Python set-up under Node, for the marks and tests, with the site's files in a folder
that ``marks.site_folder`` writes as the build does).
"""
