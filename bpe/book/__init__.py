"""What only the book needs; training, encoding and saving never import it.

``data`` and ``corpora`` (the pinned data and the texts built from it),
``analysis``, ``article`` and ``ledger`` (the data chapters' figures beside the
article's), ``display`` and ``show`` (tables, traces and source code for the
reader), ``timing`` (speed on a noisy machine), ``toy`` (the lesson's tokenizer)
and ``widget`` with ``explorer.js`` (the merge explorer in the page).
"""
