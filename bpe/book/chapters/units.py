"""Words, characters, bytes or tokens: what a vocabulary could be made of.

The chapter "The problem: a finite vocabulary" compares four ways to cut text into
units, on the book's stories: how many distinct units training text needs, how
many held-out units training never saw, and how long the held-out text becomes.
``analysis.py`` measures trained tokenizers; this module measures the units
themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import regex

from bpe.book.chapters.table import Table

if TYPE_CHECKING:
    from bpe.tokenizer import Tokenizer

# A word-level tokenizer's units: words (letters or digits, apostrophes inside) and
# single marks of punctuation; whitespace only separates them.
WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]")


def words(text: str) -> list[str]:
    """The word-level units of text, case kept.

    >>> words("Tom's dog ran. It ran!")
    ["Tom's", 'dog', 'ran', '.', 'It', 'ran', '!']
    """
    return WORD.findall(text)


def splitters(tokenizer: Tokenizer) -> dict[str, Callable[[str], list[Any]]]:
    """Four ways to cut a text into units, each a function text -> list of units."""
    return {
        "words": words,
        "characters": list,
        "bytes": lambda text: list(text.encode("utf-8")),
        "BPE tokens": tokenizer.encode,
    }


def unit_table(
    train_texts: list[str], heldout_texts: list[str], tokenizer: Tokenizer
) -> dict[str, dict[str, float]]:
    """Per unit: distinct units in training, held-out units never seen, held-out length.

    The BPE tokenizer's vocabulary is all it can emit, so its distinct units are
    its vocabulary size; bytes likewise can only be the 256 values.
    """
    heldout_bytes = sum(len(t.encode("utf-8")) for t in heldout_texts)
    rows = {}
    for name, split in splitters(tokenizer).items():
        seen = (
            Counter()
            if name == "BPE tokens"
            else Counter(unit for text in train_texts for unit in split(text))
        )
        held = [unit for text in heldout_texts for unit in split(text)]
        unseen = (
            0 if name in ("bytes", "BPE tokens") else sum(u not in seen for u in held)
        )
        rows[name] = {
            "units in the vocabulary": {
                "bytes": 256,
                "BPE tokens": len(tokenizer.vocab),
            }.get(name, len(seen)),
            "held-out units never seen in training": unseen,
            "share never seen": unseen / len(held),
            "held-out length (units)": len(held),
            "bytes per unit": heldout_bytes / len(held),
        }
    return rows


# decimals shown per measure; the counts are whole numbers already
DIGITS = {"share never seen": 4, "bytes per unit": 2}


def units_shown(
    rows: dict[str, dict[str, float]],
    columns: list[str] | None = None,
    digits: dict[str, int] | None = None,
) -> Table:
    """unit_table's rows as a Table, a row per unit, measures rounded for reading.

    >>> units_shown({"bytes": {"share never seen": 0.0, "bytes per unit": 1.0},
    ...              "words": {"share never seen": 1 / 3, "bytes per unit": 4.56789}})
    unit   share never seen  bytes per unit
    bytes               0.0             1.0
    words            0.3333            4.57
    """
    digits = DIGITS if digits is None else digits
    names = columns or list(next(iter(rows.values())))
    records = [
        {
            "unit": unit,
            **{c: round(row[c], digits[c]) if c in digits else row[c] for c in names},
        }
        for unit, row in rows.items()
    ]
    return Table.from_dicts(records, index="unit")


def unseen_share(
    train_texts: list[str],
    heldout_texts: list[str],
    split: Callable[[str], list[Any]] = words,
) -> float:
    """The share of held-out units (words, by default) that training never saw."""
    seen = {unit for text in train_texts for unit in split(text)}
    held = [unit for text in heldout_texts for unit in split(text)]
    return sum(unit not in seen for unit in held) / len(held)
