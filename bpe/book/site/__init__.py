"""What runs when the site is built (``make book``), and the site's own browser files.

- ``config``: where the book lives (``repository.url`` in ``_config.yml``), the
  chapters' bootstrap cell, and where the chapters' outputs come from;
- ``sphinx_extension``: each page's Run buttons, notes and exercises, written as the
  site is built; ``numbers``: exercise and figure numbers from a chapter's file name;
  ``contents``: the intro's lists of each part's chapters, from ``_toc.yml``;
- ``archive``: the page's Python as one zip (the package and the toy corpus), the
  files a cell may read from the site, and Pyodide's files;
- ``source_archive``: the book's source as one zip, "Get the code";
- ``playground``: the token playground's files; ``jspattern``: pre-tokenizer patterns
  rewritten for JavaScript's ``RegExp``;
- ``classify`` and ``marks``: which cells run in the page (found by running them
  there, under Node) and why the others do not (``make live-marks``).

Every file the browser loads that is not generated lives here: ``static/`` (served
as ``_static/``: ``book.css``; ``live/``, the Run buttons, exercises and console;
``playground/``, the token playground) and ``node/``, the same start of the page's
Python under Node, for the marks and the tests. The one exception is the merge
explorer's pair of scripts, which a chapter's output inlines: they are
``bpe.book.chapters``' (``bpe.js``, ``explorer.js``).
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"  # served as _static/ (html_static_path in _config.yml)
NODE = HERE / "node"  # run by Node, never served
