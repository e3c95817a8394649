"""The article's figures: quoted, recomputed on any data, and set side by side.

- ``quoted``: every figure the article and the lesson print, quoted with its source;
- ``article``: the data chapters' figures (9 and 10), computed on any data, the
  article's own too (``make article``);
- ``ledger``: the reproducibility ledger (chapter 99), each chapter's figures beside
  the article's.
"""
