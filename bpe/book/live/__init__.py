"""The book's Python in the page: the core and the standard library, run by Pyodide.

A reader of the site clicks Run on a cell and the cell runs in their browser, in a
Web Worker, with no server and no network. The pieces, in Python:

``regex_standin`` (the few ``regex`` calls the core makes, built on ``re``; it is
``regex`` in the browser), ``absent`` (the book's other third-party modules, which
the page lacks: importing one works, using it says so), ``cells`` (running a cell as
Jupyter would and collecting its output), ``page`` (the page's session: set-up, one
namespace, the console), ``archive`` (the package and the toy corpus as one zip
file, and Pyodide's files, for ``make book``), ``classify`` (which cells run in the
page and why the others do not, found by running them there), ``marks`` (running
that under Node and writing it into the notebooks: ``make live-marks``) and
``pages`` (the Sphinx extension that puts the Run buttons and notes on the pages).
In JavaScript: ``live.js`` (the page), ``worker.js`` (Pyodide in a Web Worker) and
``node_runner.mjs`` (the same Python set-up under Node, for the marks and tests).
"""
