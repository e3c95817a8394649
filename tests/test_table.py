"""The book's tables draw the same text and HTML with pandas and without it."""

import json
import subprocess
import sys

import pytest

from bpe.book.chapters.table import Table

# Builds the book's tables and prints their text and HTML, as JSON.
BUILD = """
import json, sys
if sys.argv[1] == "without":
    sys.modules["pandas"] = None  # import pandas now fails, as in the page's Python
else:
    import pandas  # loaded, in case a table drew itself differently beside it
from bpe.book.figures import ledger
from bpe.book.chapters.display import count_table, merge_table
from bpe.pretokenizer import pretokenize
from bpe.trainer import count_pairs

text = open("data/toy_corpus.txt", encoding="utf-8").read()
tables = [
    count_table(count_pairs(pretokenize(text)), "pair"),
    merge_table(text, 265, specials=["<|endoftext|>"])[2],
    ledger.shown(({"merge.vocab_size": 265}, ledger.TOY)),
]
print(json.dumps([[repr(t), t._repr_html_()] for t in tables]))
"""


def drawn(pandas: str) -> list:
    out = subprocess.run(
        [sys.executable, "-c", BUILD, pandas],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def test_same_with_and_without_pandas():
    pytest.importorskip("pandas")
    assert drawn("with") == drawn("without")


def test_every_cell_in_full_and_escaped():
    long = "<x>" + "y" * 200
    table = Table([(long, 1)], ["text", "n"], code=["text"])
    assert repr(table).splitlines()[1].startswith(long)
    assert f"<code>&lt;x&gt;{'y' * 200}</code>" in table._repr_html_()
    assert "<x>" not in table._repr_html_()


def test_round_trip_through_pandas():
    pd = pytest.importorskip("pandas")
    table = Table([(1, "a", 2.5), (2, "b", None)], ["#", "s", "f"], index="#")
    frame = table.to_pandas()
    assert list(frame.index) == [1, 2] and list(frame.columns) == ["s", "f"]
    again = Table.from_pandas(frame)
    assert again.columns == ["#", "s", "f"] and again.index == "#"
    assert repr(Table.from_pandas(pd.DataFrame({"a": [1, 2]}))) == "a\n1\n2"


def test_wide_characters_line_up():
    lines = repr(Table([("牛", 1), ("ab", 22)], ["t", "n"])).splitlines()
    assert lines == ["t    n", "牛   1", "ab  22"]
