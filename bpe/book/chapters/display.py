"""Showing tokens, tables and traces to a reader.

Nothing here changes a result: these helpers only turn the package's bytes,
counters and hooks into text and tables (``table.Table``, no pandas needed) for the
book's chapters.
A space is shown as ␣, a newline as ⏎, and a byte that is not valid UTF-8
on its own as <E1>.
"""

from __future__ import annotations

import codecs
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from bpe.book.chapters.table import Table
from bpe.pretokenizer import to_bytes
from bpe.tokenizer import Tokenizer, encode_word
from bpe.trainer import Pair, train

K = TypeVar("K")  # by_count's keys: anything sortable


def _hex_bytes(error):
    return (
        "".join(f"<{b:02X}>" for b in error.object[error.start : error.end]),
        error.end,
    )


codecs.register_error("bpe.show", _hex_bytes)


def show_token(tok: bytes | str) -> str:
    r"""One token for reading: a space as ␣, a newline as ⏎, a non-text byte as <E1>.

    >>> show_token(b" a\n"), show_token(b"\xe1")
    ('␣a⏎', '<E1>')
    """
    text = tok.decode("utf-8", errors="bpe.show") if isinstance(tok, bytes) else tok
    return text.replace(" ", "␣").replace("\n", "⏎")


def show_tokens(tokens: Iterable[bytes | str], sep: str = " | ") -> str:
    """Tokens side by side.

    >>> show_tokens([b"low", b"est"])
    'low | est'
    """
    return sep.join(show_token(t) for t in tokens)


def show_tuple(tok: Iterable[bytes | str]) -> str:
    """A pre-token or a pair.

    >>> show_tuple((b" ", b"lo"))
    '(␣, lo)'
    """
    return "(" + ", ".join(show_token(t) for t in tok) + ")"


def show_merge(pair: Pair) -> str:
    """A merge as a sum.

    >>> show_merge((b"s", b"t"))
    's + t'
    """
    return f"{show_token(pair[0])} + {show_token(pair[1])}"


def by_count(counter: Mapping[K, int]) -> list[tuple[K, int]]:
    """Items by descending count, ties in ascending key order (deterministic)."""
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def count_table(counter: Mapping[tuple[bytes, ...], int], column: str) -> Table:
    """A Counter of tuples as a table, most frequent first.

    >>> count_table({(b"l", b"o"): 7, (b"e", b"s"): 9}, "pair")
    pair    count
    (e, s)      9
    (l, o)      7
    """
    rows = [(show_tuple(key), n) for key, n in by_count(counter)]
    return Table(rows, [column, "count"])


# "tied at the top": the pairs that share the round's highest count
MERGE_COLUMNS = ["#", "id", "tied at the top", "merge", "new token", "count"]


def merge_table(
    text: str, vocab_size: int, **train_options: Any
) -> tuple[dict[int, bytes], list[Pair], Table]:
    """Train and return (vocab, merges, table): a row per merge, with the tied pairs.

    >>> _, _, log = merge_table("low low lower", 258)
    >>> log
    #   id  tied at the top  merge   new token  count
    1  256  (l, o) (o, w)    o + w   ow             3
    2  257  (l, ow)          l + ow  low            3
    >>> sum(log["count"])
    6
    """
    rows = []

    def record(pairs: Counter[Pair], best: Pair) -> None:
        top = max(pairs.values())
        tied = " ".join(
            map(show_tuple, sorted(p for p, n in pairs.items() if n == top))
        )
        n = len(rows)
        rows.append(
            (n + 1, 256 + n, tied, show_merge(best), show_token(best[0] + best[1]), top)
        )

    vocab, merges = train(text, vocab_size, on_merge=record, **train_options)
    return vocab, merges, Table(rows, MERGE_COLUMNS, index="#")


def trace_encode(word: str, tokenizer: Tokenizer) -> str:
    """The steps encode_word takes on one pre-token, as lines of text."""
    rank = tokenizer.rank
    tok = to_bytes(word)
    lines = [f"encode {show_token(word)!r}", f"  start:  {show_tuple(tok)}"]

    def step(tok: tuple[bytes, ...], candidates: list[Pair], best: Pair) -> None:
        shown = " ".join(f"{show_tuple(p)}#{rank[p]}" for p in candidates)
        lines.append(
            f"  iter {len(lines) - 1}: {shown:<32}"
            f" -> apply rank {rank[best]} {show_tuple(best)}"
        )

    result = encode_word(tok, rank, on_step=step)
    ids = [tokenizer.token_id[t] for t in result]
    lines.append(f"  result: {show_tuple(result)}  ids {ids}")
    return "\n".join(lines)


# Whole was a class wrapping a DataFrame; the name stays, capitalised, for the chapters.
def Whole(frame: Any, code: Iterable[str] = ()) -> Table:
    """A pandas DataFrame as a Table, every cell in full (needs pandas for the frame).

    Kept for chapters that compute a table with pandas before showing it; a table
    built only to be shown is a ``Table`` from the start.

    >>> import pandas as pd
    >>> "…" in repr(Whole(pd.DataFrame({"a": ["x" * 80]})))
    False
    >>> table = Whole(pd.DataFrame({"p": ["a<b"]}), code=["p"])._repr_html_()
    >>> "<code>a&lt;b</code>" in table
    True
    """
    return Table.from_pandas(frame, code)


class Refusal:
    """Bad input, refused in one sentence that says what was wrong and what is allowed.

    A function that a cell for the reader's own input calls returns one instead of
    raising, so that Jupyter and the page both show the sentence, never a traceback.

    >>> Refusal("vocab_size=10 is below 256.")
    vocab_size=10 is below 256.
    """

    def __init__(self, sentence: str):
        self.sentence = sentence

    def __repr__(self) -> str:
        return self.sentence

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and other.sentence == self.sentence

    __hash__ = None  # type: ignore[assignment]
