"""What only the book needs; training, encoding and saving never import it.

Five parts, each named for what it serves (each ``__init__`` says more):

- ``chapters``: what the chapters call: tokens, counts, merges and traces shown,
  tables, the package's own source shown, the merge explorer, the small models a
  chapter builds (the lesson's toy, the other subword algorithms, five trainers'
  rules);
- ``figures``: the article's figures, quoted, recomputed on any data, and set
  beside the book's in the reproducibility ledger;
- ``practice``: the exercises' checks (examples, random cases, the wrong answers
  each rejects and the hint for each) and the quiz's display; the words a reader
  reads, titles, starters and questions, are the chapters';
- ``page``: the page's Python, which runs in the reader's browser (Pyodide);
- ``site``: what runs when the site is built, with the site's browser files.

Each part imports only parts listed before it (``tests/test_layers.py``). The data the
chapters read and the measures of speed are not the book's alone: ``bpe.data`` and
``bpe.measure``, which ``bench/`` reads too.
"""
