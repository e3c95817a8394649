"""Speed and memory, measured: what chapters 16 and 18 show and ``make bench`` prints.

- ``timing``: best-of-n seconds and paired ratios, on a machine whose speed drifts;
- ``peers``: this package's training beside rustbpe's and Hugging Face's, each run in
  a fresh process;
- ``scaling``: training at growing sizes.

(The charts of these measurements are the book's: ``bpe.book.chapters.charts``.)

No test's verdict depends on what these measure.
"""
