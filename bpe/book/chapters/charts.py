"""The book's charts, drawn to stay readable on a phone.

A chapter's figure is drawn at its own size and scaled down to the column: a 7.5-inch
chart with matplotlib's 10-point labels came out with labels under 7 px at 390 px
(chapter 10). The book's charts are narrower (``WIDTH`` inches, about 560 px as the
book saves them, about 360 px on a phone) and set their text in ``FONT`` points
(18 px as saved): labels about 11 px at 390 px. ``STYLE`` makes that matplotlib's
default in a chapter (its set-up cell applies it); two panels stand one above the
other, not side by side. Sideways bars (``paired_bars``) write each row's name
once, on the left, in full, and each bar carries its value, which leaves the value
axis only a few ticks. ``peers_figure`` and ``map_reduce_figure`` are chapters 16
and 18's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bpe.measure.peers import WHO
from bpe.measure.scaling import MIB

WIDTH = 5.6  # inches
FONT = 13  # points: the ticks, the names, the bars' values
TITLE = 14  # points
# matplotlib's defaults for a chapter's charts: plt.rcParams.update(STYLE)
STYLE = {
    "figure.figsize": (WIDTH, 3.8),
    "font.size": FONT,
    "axes.titlesize": TITLE,
    "axes.labelsize": FONT,
    "xtick.labelsize": FONT,
    "ytick.labelsize": FONT,
    "legend.fontsize": FONT - 1,
    "figure.titlesize": TITLE,
}


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


def peers_figure(runs: dict[int, dict[str, dict]]) -> Any:
    """Seconds, then peak memory, against distinct pre-tokens, a line per trainer.

    runs: {MB of text: {a key of WHO: timed_run's result}}; the distinct pre-tokens
    are this package's count for each text (every trainer reads the same).
    """
    import matplotlib.pyplot as plt

    sizes = sorted(runs)
    distinct = [runs[mb]["heap"]["distinct"] for mb in sizes]
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(WIDTH, 7.4), sharex=True, layout="constrained"
    )
    for key, label in WHO.items():
        if key not in runs[sizes[0]]:
            continue
        seconds = [runs[mb][key]["seconds"] for mb in sizes]
        peaks = [runs[mb][key]["parent_peak"] / MIB for mb in sizes]
        top.plot(distinct, seconds, marker="o", label=label)
        bottom.plot(distinct, peaks, marker="o", label=label)
    top.set_ylabel("seconds to train")
    bottom.set_ylabel("peak memory (MiB)")
    bottom.set_xlabel("distinct pre-tokens in the text")
    bottom.xaxis.set_major_formatter(lambda value, _: f"{value / 1000:,.0f}k")
    for ax in (top, bottom):
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    fig.legend(*top.get_legend_handles_labels(), loc="outside lower center", ncol=2)
    return fig


def map_reduce_figure() -> Any:
    """train_files on a cluster, from top to bottom: shards, a counting task each,
    a tree of sums, and the merges learned from the one table at the end."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 6.4))
    ax.set_xlim(0, 5.6)
    ax.set_ylim(0.3, 6.4)
    ax.axis("off")

    def box(x: float, y: float, text: str, colour: str) -> None:
        style = dict(boxstyle="round,pad=0.3", fc=colour, ec="#555555")
        ax.text(x, y, text, ha="center", va="center", bbox=style)

    def arrow(a: tuple[float, float], b: tuple[float, float]) -> None:
        style = dict(arrowstyle="->", color="#555555", lw=1)
        ax.annotate("", xy=b, xytext=a, arrowprops=style)

    columns = [0.7, 2.1, 3.5, 4.9]
    adds = [1.4, 4.2]
    for k, x in enumerate(columns):
        box(x, 5.6, f"shard {k}", "#e8eef7")
        box(x, 4.4, f"count\npart {k}", "#dbe9d8")
        arrow((x, 5.3), (x, 4.85))
        arrow((x, 3.95), (adds[k // 2], 3.35))
    for x in adds:
        box(x, 3.1, "add", "#f6e3cf")
        arrow((x, 2.85), (2.8, 2.25))
    box(2.8, 2.0, "add", "#f6e3cf")
    arrow((2.8, 1.75), (2.8, 1.3))
    box(2.8, 0.8, "learn the merges\nfrom the distinct pre-tokens", "#eadcf0")
    ax.text(0.0, 6.25, "on the cluster's workers, each reading its own part:",
            fontsize=FONT - 1, color="#444444")  # fmt: skip
    ax.text(0.0, 1.45, "on one machine, the client:", fontsize=FONT - 1,
            color="#444444")  # fmt: skip
    ax.set_title("train_files(..., client=client)")
    fig.tight_layout()
    return fig
