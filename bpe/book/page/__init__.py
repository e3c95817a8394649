"""The page's Python: what runs in the reader's browser, in Pyodide, in a Web Worker.

A reader clicks Run and the cell runs in their browser, with no server and no
network beyond the site itself: the core and the standard library.

- ``session``: the session's set-up (``start``), one namespace per page, ``run`` for
  each Run, the console, and where the site's files are (``BPE_SITE``);
- ``cells``: running a cell as Jupyter would and collecting its output (a table as
  HTML);
- ``absent``: the book's third-party modules the page lacks (importing one works,
  using it says so);
- ``regex_standin``: the few ``regex`` calls the core makes, built on ``re``;
- ``vocabularies``: OpenAI's encodings (gpt2, cl100k_base, o200k_base) read from the
  files the site serves, and the data registry's files fetched from the site.

It starts in JavaScript: ``live.js`` (the page) starts ``worker.js`` (Pyodide),
which unpacks the book's archive where ``python_home.mjs`` says and calls
``session.start``; those scripts are the site's (``bpe/book/site/static/live/``).
"""
