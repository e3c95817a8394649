"""The data the chapters and the bench read: pinned files, and texts built from them.

- ``registry``: the data files the book relies on, each pinned by its checksum, read
  from a mirror (``BPE_DATA_MIRROR``), a cache, or their origin;
- ``corpora``: the texts the chapters read (stories, languages), built from those files;
- ``word_corpora``: made-up words whose distinct pre-tokens grow with the text, for
  the speed chapters and ``make bench``.

``bench/`` reads these as the chapters do, so they are not the book's alone.
"""

import os
from pathlib import Path

# The folder that holds the package. In a checkout it also holds data/ (the pinned
# files that are small enough to commit, and the download cache) and _build/.
CHECKOUT = Path(__file__).resolve().parents[2]


def results_dir() -> Path:
    """The folder chapters write their figures to, which the ledger reads.

    $BPE_RESULTS if set, else _build/results in the checkout.
    """
    value = os.environ.get("BPE_RESULTS", "")
    return Path(value) if value else CHECKOUT / "_build" / "results"
