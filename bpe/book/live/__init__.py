"""The book's Python in the page: the core and the standard library, run by Pyodide.

A reader of the site clicks Run on a cell and the cell runs in their browser, in a
Web Worker, with no server and no network. The pieces:

``regex_standin`` (the few ``regex`` calls the core makes, built on ``re``; it is
``regex`` in the browser), ``absent`` (the book's other third-party modules, which
the page lacks: importing one works, using it says so), ``cells`` (running a cell as
Jupyter would and collecting its output), ``archive`` (the package as one zip file,
built by ``make book``), ``marks`` (which cells run in the page, found by running
them under Pyodide in Node), and ``sphinx`` (the pages' run buttons and notes).
The JavaScript: ``live.js`` (the page), ``worker.js`` (Pyodide in a Web Worker) and
``node_runner.mjs`` (the same, under Node, for the marks and the tests).
"""
