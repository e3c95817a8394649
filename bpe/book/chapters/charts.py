"""Bar charts that stay readable on a phone.

A chapter's figure is drawn at its own size and scaled down to the column: a 7.5-inch
chart with matplotlib's 10-point labels came out with labels under 7 px at 390 px
(chapter 10). These charts are narrower (``WIDTH`` inches, about 560 px as the
book saves them, about 360 px on a phone) and set their text in ``FONT`` points
(18 px as saved): labels about 11.5 px at 390 px. The bars lie sideways, so each
row's name is written once, on the left, in full, and each bar carries its value,
which leaves the value axis only a few ticks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WIDTH = 5.6  # inches
FONT = 13  # points: the ticks, the names, the bars' values
TITLE = 14  # points


def paired_bars(
    ax: Any,
    names: Sequence[str],
    series: Mapping[str, Sequence[float]],
    value_format: str = "{:g}",
) -> None:
    """One group of bars per name, one bar per series, names down the left side.

    The first name is at the top, as in the tables beside the charts; a name's
    " (this book)" goes on a line of its own, so that the left margin stays narrow.
    """
    from matplotlib.ticker import MaxNLocator

    height = 0.8 / len(series)
    rows = range(len(names))
    for k, (label, values) in enumerate(series.items()):
        at = [i - 0.4 + height * (k + 0.5) for i in rows]
        bars = ax.barh(at, values, height, label=label)
        labels = [value_format.format(v) for v in values]
        ax.bar_label(bars, labels, padding=3, fontsize=FONT)
    ax.set_yticks(
        list(rows), [n.replace(" (this book)", "\n(this book)") for n in names]
    )
    ax.invert_yaxis()  # the first name on top
    ax.xaxis.set_major_locator(MaxNLocator(4))
    ax.tick_params(labelsize=FONT)
    ax.margins(x=0.2)  # room for the value at the end of the longest bar
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def legend_below(fig: Any, ax: Any) -> None:
    """One legend for the whole figure, in a row of its own under the axes, clear of
    every bar; the figure needs layout="constrained", which makes the room."""
    fig.legend(
        *ax.get_legend_handles_labels(),
        loc="outside lower center",
        ncol=2,
        frameon=False,
        fontsize=FONT,
    )
