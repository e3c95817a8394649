"""A table for the reader, drawn with the standard library alone.

pandas drew the book's tables, which kept them out of the page's Python (Pyodide has
no pandas) and cut long cells short. ``Table`` draws the same HTML and the same text
whether pandas is installed or not, so a chapter's stored output is what its Run
button shows. Every cell is shown in full, HTML-escaped; the cells of ``code``
columns (a token, a pattern) are set as ``<code>``, which the book's style never
breaks across lines. Only ``to_pandas`` needs pandas, for a reader who wants to
compute on a table.

>>> t = Table([("low", 5), ("lower", 2)], ["word", "count"])
>>> t
word   count
low        5
lower      2
>>> t["count"], len(t)
([5, 2], 2)
"""

from __future__ import annotations

import html
import numbers
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# pandas' own wrapper around a table in Jupyter, so that a Table looks like the
# tables the chapters showed before (Jupyter's and the book's styles match on it).
STYLE = """<style scoped>
    .dataframe tbody tr th:only-of-type {
        vertical-align: middle;
    }

    .dataframe tbody tr th {
        vertical-align: top;
    }

    .dataframe thead th {
        text-align: right;
    }
</style>"""


def cell_text(value: Any) -> str:
    """A cell as text: floats to 6 decimals at most, None as an empty cell.

    >>> [cell_text(v) for v in (3, 0.1 + 0.2, 2.0, None, "a<b", True)]
    ['3', '0.3', '2.0', '', 'a<b', 'True']
    """
    if value is None:
        return ""
    if isinstance(value, float):  # numpy's float64 too
        return repr(float(round(value, 6)))
    return str(value)


def is_number(value: Any) -> bool:
    """Whether a cell is a number (set flush right), not a bool or a text.

    >>> is_number(3), is_number(2.5), is_number(True), is_number("3")
    (True, True, False, False)
    """
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def width(text: str) -> int:
    """Columns the text takes in a terminal: wide characters (牛) take two.

    >>> width("牛a"), width("e\u0301")
    (3, 1)
    """
    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in "WF"
        else 1
        for ch in text
    )


def pad(text: str, size: int, right: bool) -> str:
    """text padded with spaces to size columns, flush right or left."""
    gap = " " * (size - width(text))
    return gap + text if right else text + gap


class Table:
    """Rows under named columns; ``index`` names the column shown as row headers.

    >>> t = Table([[1, "s + t", "st"], [2, "e + st", "est"]],
    ...           ["#", "merge", "new token"], index="#", code=["new token"])
    >>> t[["new token"]]
    #  new token
    1  st
    2  est
    >>> "<th>#</th>" in t._repr_html_(), "<td><code>est</code></td>" in t._repr_html_()
    (True, True)
    >>> Table([("a" * 100,)], ["long"]).__repr__().endswith("a" * 100)
    True
    >>> Table([(1, 2)], ["a"])
    Traceback (most recent call last):
    ...
    ValueError: row 0 has 2 cells for 1 columns
    """

    def __init__(
        self,
        rows: Iterable[Sequence[Any]],
        columns: Sequence[str],
        index: str | None = None,
        code: Iterable[str] = (),
    ) -> None:
        self.columns = [str(c) for c in columns]
        self.rows = [tuple(row) for row in rows]
        self.index, self.code = index, frozenset(code)
        for n, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(
                    f"row {n} has {len(row)} cells for {len(self.columns)} columns"
                )
        unknown = ({index} if index is not None else set()) | self.code
        if unknown - set(self.columns):
            raise ValueError(f"not columns: {sorted(unknown - set(self.columns))}")

    @classmethod
    def from_dicts(
        cls,
        records: Iterable[Mapping[str, Any]],
        index: str | None = None,
        code: Iterable[str] = (),
    ) -> Table:
        """A row per dict; the columns in the order their keys first appear.

        >>> Table.from_dicts([{"a": 1}, {"a": 2, "b": 3}])
        a  b
        1
        2  3
        """
        records = list(records)
        columns = list(dict.fromkeys(key for record in records for key in record))
        rows = [[record.get(c) for c in columns] for record in records]
        return cls(rows, columns, index, code)

    @classmethod
    def from_mapping(
        cls,
        mapping: Mapping[Any, Mapping[str, Any]],
        index: str,
        code: Iterable[str] = (),
    ) -> Table:
        """A row per key, named in the column ``index``: {row: {column: value}}.

        >>> Table.from_mapping({"bytes": {"units": 256}}, index="unit")
        unit   units
        bytes    256
        """
        records = [{index: key, **row} for key, row in mapping.items()]
        return cls.from_dicts(records, index, code)

    @classmethod
    def from_columns(
        cls,
        columns: Mapping[str, Sequence[Any]],
        index: str | None = None,
        code: Iterable[str] = (),
    ) -> Table:
        """A column per key, {column: values}, as pandas.DataFrame({...}) reads it.

        >>> Table.from_columns({"word": ["low", "lower"], "count": [5, 2]}).rows
        [('low', 5), ('lower', 2)]
        """
        return cls(zip(*columns.values(), strict=True), list(columns), index, code)

    @classmethod
    def from_pandas(cls, frame: Any, code: Iterable[str] = ()) -> Table:
        """A pandas DataFrame as a Table; an unnamed 0, 1, 2... index is left out."""
        import pandas as pd

        def name(key: Any) -> str:
            return " / ".join(map(str, key)) if isinstance(key, tuple) else str(key)

        columns = [name(c) for c in frame.columns]
        plain = isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0
        if plain and frame.index.name is None:
            return cls(frame.itertuples(index=False), columns, None, code)
        label = name(frame.index.name) if frame.index.name is not None else ""
        keys = [name(k) if isinstance(k, tuple) else k for k in frame.index]
        rows = [
            (k, *row)
            for k, row in zip(keys, frame.itertuples(index=False), strict=True)
        ]
        return cls(rows, [label, *columns], label, code)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: str | list[str]) -> Any:
        """table["count"]: that column's values; table[["a", "b"]]: a narrower Table."""
        if isinstance(key, str):
            at = self.columns.index(key)
            return [row[at] for row in self.rows]
        keep = [self.index] if self.index is not None and self.index not in key else []
        keep += list(key)
        at = [self.columns.index(c) for c in keep]
        rows = [[row[i] for i in at] for row in self.rows]
        return Table(rows, keep, self.index, self.code & set(keep))

    def head(self, n: int = 5) -> Table:
        """The first n rows.

        >>> len(Table([(i,) for i in range(9)], ["i"]).head(3))
        3
        """
        return Table(self.rows[:n], self.columns, self.index, self.code)

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=self.columns)
        return frame.set_index(self.index) if self.index is not None else frame

    def _order(self) -> list[int]:
        """Column positions as shown: the index column first."""
        order = list(range(len(self.columns)))
        if self.index is not None:
            first = self.columns.index(self.index)
            order.remove(first)
            order.insert(0, first)
        return order

    def _numeric(self, at: int) -> bool:
        """Whether column ``at`` holds numbers only (empty cells aside)."""
        values = [row[at] for row in self.rows if row[at] is not None]
        return bool(values) and all(map(is_number, values))

    def __repr__(self) -> str:
        order = self._order()
        lines = [[self.columns[i] for i in order]]
        lines += [
            [cell_text(row[i]).replace("\n", "⏎") for i in order] for row in self.rows
        ]
        sizes = [max(width(line[k]) for line in lines) for k in range(len(order))]
        right = [
            not (self.index is not None and k == 0) and self._numeric(i)
            for k, i in enumerate(order)
        ]  # row headers read from the left, numbers line up on the right
        text = [
            "  ".join(
                pad(cell, size, r)
                for cell, size, r in zip(line, sizes, right, strict=True)
            )
            for line in lines
        ]
        return "\n".join(line.rstrip() for line in text)

    def _cell_html(self, column: str, value: Any, tag: str) -> str:
        text = html.escape(cell_text(value))
        if column in self.code and text:
            text = f"<code>{text}</code>"
        return f"<{tag}>{text}</{tag}>"

    def _repr_html_(self) -> str:
        order = self._order()
        headed = self.index is not None  # the first shown column is the row header
        head = "".join(
            f"\n      <th>{html.escape(self.columns[i])}</th>" for i in order
        )
        body = []
        for row in self.rows:
            cells = [
                self._cell_html(
                    self.columns[i], row[i], "th" if headed and k == 0 else "td"
                )
                for k, i in enumerate(order)
            ]
            body.append(
                "    <tr>" + "".join(f"\n      {c}" for c in cells) + "\n    </tr>"
            )
        return (
            f'<div>\n{STYLE}\n<table border="1" class="dataframe">\n  <thead>\n'
            f'    <tr style="text-align: right;">{head}\n    </tr>\n  </thead>\n'
            "  <tbody>\n" + "\n".join(body) + "\n  </tbody>\n</table>\n</div>"
        )
