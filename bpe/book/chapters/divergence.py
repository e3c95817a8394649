"""Where merges diverge: five trainers' rules in this book's code, and why two part.

Given the same text and vocabulary size, byte-level BPE trainers can learn different
merges. Each trainer below is written as a ``Rule``: where its text is cut into
pre-tokens, how it picks among pairs of equal count, and when it stops. ``learn``
trains with any rule (a naive recount per merge, the core's ``merge``), so all of
this runs in the page's Python: the core and the standard library only.

``explain`` takes two merge lists and finds where they first differ, and why, by
computing it: it replays the shared merges and counts every pair again in four
ways (with or without the pre-tokenizer, counting overlapping occurrences or not).
When both picks are at the top of one count, the two trainers broke a tie
differently; when each pick is the top only with or only without pre-tokens, a
pre-token boundary parted them; when it takes overlapping occurrences counted
one way and not the other, the counting did. A pair made of a multi-byte
character no merge built means one trainer counts characters, not bytes.

``hf_merges`` and ``rustbpe_merges`` run the real trainers (not in the page).

One limit: the rules work on bytes, so two merges that build the same bytes make
one token, as in this book and HF tokenizers. rustbpe, minbpe and the lesson work on
ids and would keep two; the tests check the rules against the real trainers on
text where this does not arise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bpe.book.chapters import charts
from bpe.book.chapters.display import Refusal, show_merge
from bpe.book.chapters.table import Table
from bpe.files import token_to_text
from bpe.pretokenizer import PAT, pretokens, to_bytes
from bpe.trainer import Pair, merge

Rows = list[tuple[tuple[bytes, ...], int]]  # (pre-token as tokens, count), in order
Counts = dict[Pair, int]  # a pair's count, keys in order of first appearance
Pick = Callable[[Counts, dict[bytes, int]], Pair]
LIMIT = 4_000  # the most characters the page trains on
BYTE_IDS = {bytes([b]): b for b in range(256)}  # a byte's id is its value


def rows_of(texts: Iterable[str], pattern: str | None = PAT) -> Rows:
    """Each distinct pre-token (each whole text if pattern is None), as one-byte
    tokens with its count, in order of first appearance.

    >>> rows_of(["low low"])
    [((b'l', b'o', b'w'), 1), ((b' ', b'l', b'o', b'w'), 1)]
    >>> rows_of(["ab", "ab"], None)
    [((b'a', b'b'), 2)]
    """
    counts: dict[str, int] = {}
    for text in texts:
        for piece in pretokens(text, pattern):
            counts[piece] = counts.get(piece, 0) + 1
    return [(to_bytes(piece), n) for piece, n in counts.items()]


def pair_counts(rows: Rows, overlapping: bool = True) -> Counts:
    """Each adjacent pair's count over the rows, in order of first appearance.

    With ``overlapping=False`` a pair is counted as a merge replaces it: a a a
    holds the pair a a once, not twice.

    >>> pair_counts([((b"a", b"a", b"a"), 2)])
    {(b'a', b'a'): 4}
    >>> pair_counts([((b"a", b"a", b"a"), 2)], overlapping=False)
    {(b'a', b'a'): 2}
    """
    counts: Counts = {}
    for toks, n in rows:
        taken = -2  # where the last counted occurrence began
        for i in range(len(toks) - 1):
            pair = (toks[i], toks[i + 1])
            if not overlapping and taken == i - 1 and pair == (toks[i - 1], toks[i]):
                continue  # it shares its first token with the one just counted
            counts[pair] = counts.get(pair, 0) + n
            taken = i
    return counts


def greater_pair(counts: Counts, ids: dict[bytes, int]) -> Pair:
    """This book's pick: the most frequent pair; of equal counts, the greater bytes.

    >>> greater_pair({(b"e", b"s"): 2, (b"s", b"t"): 2}, BYTE_IDS)
    (b's', b't')
    """
    return max(counts, key=lambda p: (counts[p], p))


def first_counted(counts: Counts, ids: dict[bytes, int]) -> Pair:
    """minbpe's pick: the most frequent pair; of equal counts, the one counted first.

    >>> first_counted({(b"s", b"t"): 2, (b"e", b"s"): 2}, BYTE_IDS)
    (b's', b't')
    """
    return max(counts, key=counts.__getitem__)  # max keeps the first of equal keys


def smaller_ids(counts: Counts, ids: dict[bytes, int]) -> Pair:
    """The pick of rustbpe, HF tokenizers and the lesson: of equal counts, the pair of
    smaller ids (the left one first).

    >>> smaller_ids({(b"s", b"t"): 2, (b"e", b"s"): 2}, BYTE_IDS)
    (b'e', b's')
    """
    return max(counts, key=lambda p: (counts[p], -ids[p[0]], -ids[p[1]]))


def hf_byte_ids() -> dict[bytes, int]:
    """Each byte's rank in HF tokenizers' byte-level alphabet: its trainer sorts the
    alphabet by character, and GPT-2's table spells a space as Ġ (U+0120).

    >>> ids = hf_byte_ids()
    >>> ids[b"a"] < ids[b" "], ids[b"a"] < ids[b"b"]
    (True, True)
    """
    order = sorted(range(256), key=lambda b: token_to_text(bytes([b])))
    return {bytes([b]): rank for rank, b in enumerate(order)}


@dataclass(frozen=True)
class Rule:
    """One trainer's rules: pre-tokens, the pick among pairs, the ids, when to stop."""

    name: str
    pattern: str | None  # None: no pre-tokenizer, each text is one sequence
    pick: Pick
    ids: dict[bytes, int]  # the 256 bytes' ids; new tokens follow, in order
    least: int = 1  # stop once the best pair occurs fewer times than this
    source: str = ""  # where the real trainer's rule can be read


MINBPE = "https://github.com/karpathy/minbpe/blob/master/minbpe/regex.py"
HF = (
    "https://github.com/huggingface/tokenizers/blob/main/"
    "tokenizers/src/models/bpe/trainer.rs"
)
RUST = "https://github.com/karpathy/rustbpe/blob/master/src/lib.rs"
RULES = {
    "this book": Rule("this book", PAT, greater_pair, BYTE_IDS),
    "minbpe": Rule("minbpe", PAT, first_counted, BYTE_IDS, source=MINBPE),
    "HF tokenizers": Rule("HF tokenizers", PAT, smaller_ids, hf_byte_ids(), source=HF),
    "rustbpe": Rule("rustbpe", PAT, smaller_ids, BYTE_IDS, source=RUST),
    "the lesson": Rule("the lesson", None, smaller_ids, BYTE_IDS, least=2),
}


def learn(rule: Rule, texts: Iterable[str], vocab_size: int) -> list[Pair]:
    """The merges rule learns from texts, up to vocab_size entries (256 bytes first).

    >>> learn(RULES["this book"], ["low low low"], 258)
    [(b'o', b'w'), (b'l', b'ow')]
    """
    rows, ids, merges = rows_of(texts, rule.pattern), dict(rule.ids), []
    while 256 + len(merges) < vocab_size:
        counts = pair_counts(rows)
        if not counts:
            break
        best = rule.pick(counts, ids)
        if counts[best] < rule.least:
            break
        new = best[0] + best[1]
        rows = [(merge(toks, best, new), n) for toks, n in rows]
        ids.setdefault(new, 256 + len(merges))
        merges.append(best)
    return merges


def first_difference(a: list[Pair], b: list[Pair]) -> int | None:
    """The index of the first merge where a and b differ (where the shorter ends, if
    one is the other's start); None if they are the same.

    >>> first_difference([(b"a", b"b"), (b"c", b"d")], [(b"a", b"b"), (b"d", b"c")])
    1
    """
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def characters(merges: list[Pair]) -> set[bytes]:
    """The multi-byte parts no earlier merge made: a trainer that starts from
    characters, not bytes, has them.

    >>> sorted(characters([("é".encode(), b"s"), (b"a", b"b"), (b"ab", b"c")]))
    [b'\\xc3\\xa9']
    """
    made: set[bytes] = set()
    found: set[bytes] = set()
    for left, right in merges:
        found |= {part for part in (left, right) if len(part) > 1 and part not in made}
        made.add(left + right)
    return found


def splits_a_character(pair: Pair) -> bool:
    """Whether a part of pair is not whole UTF-8 characters.

    >>> splits_a_character((b"\\xc3", b"\\xa9")), splits_a_character((b"a", b"b"))
    (True, False)
    """
    try:
        for part in pair:
            part.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


VIEWS = {  # the four ways of counting explain tries: (pre-tokens?, overlapping?)
    "pre-tokens, overlaps counted": (True, True),
    "pre-tokens, overlaps not counted": (True, False),
    "whole text, overlaps counted": (False, True),
    "whole text, overlaps not counted": (False, False),
}


def counts_after(
    texts: list[str], done: list[Pair], pattern: str | None
) -> dict[str, Counts]:
    """Every pair's count after the merges done, in each of the four VIEWS."""
    out = {}
    for name, (cut, overlapping) in VIEWS.items():
        rows = replay(rows_of(texts, pattern if cut else None), done)
        out[name] = pair_counts(rows, overlapping)
    return out


def tops(counts: dict[str, Counts], pair: Pair) -> list[str]:
    """The views in which pair has the highest count."""
    return [
        name
        for name, c in counts.items()
        if c and pair in c and c[pair] == max(c.values())
    ]


@dataclass(frozen=True)
class Divergence:
    """Where two merge lists first differ, each side's pick and count, and why."""

    step: int | None  # the merge number (1 is the first); None: the same merges
    a: Pair | None
    b: Pair | None
    count_a: int | None  # a's pick, counted as the view that makes it the top
    count_b: int | None
    reason: str
    view_a: str = ""
    view_b: str = ""


SAME = "the same merges"
TIE = "a tie broken differently"
BOUNDARY = "a pre-token boundary"
OVERLAP = "overlapping occurrences counted"
CHARACTERS = "bytes vs characters"
STOPPED = "one stopped early"
UNEXPLAINED = "not explained"
SHORT = {SAME: "same", TIE: "tie", BOUNDARY: "boundary", OVERLAP: "overlaps",
         CHARACTERS: "characters", STOPPED: "stopped", UNEXPLAINED: "?"}  # fmt: skip


def crosses(pair: Pair, pattern: str | None = PAT) -> bool:
    """Whether pair's token spans a pre-token boundary: the pattern cuts it in two.

    >>> crosses((b"e", b" ")), crosses((b" ", b"t"))
    (True, False)
    """
    try:
        token = (pair[0] + pair[1]).decode("utf-8")
    except UnicodeDecodeError:
        return False  # part of a character: the pattern cannot be asked
    return pattern is not None and len(pretokens(token, pattern)) > 1


def own_view(counts: dict[str, Counts], pair: Pair, cut: bool) -> str:
    """The first view with (or without) pre-tokens that puts pair at the top; else
    the one that counts overlaps."""
    mine = [v for v in tops(counts, pair) if VIEWS[v][0] == cut]
    return mine[0] if mine else next(v for v in VIEWS if VIEWS[v] == (cut, True))


def compare(counts: dict[str, Counts], a: Pair, b: Pair, pattern: str | None) -> tuple:
    """(count of a, count of b, reason, a's view, b's view) from the two picks.

    A pick that spans a pre-token boundary when the other does not: a boundary.
    Else a tie if one view puts both at the top, else the one setting in which the
    views that put each at the top differ.
    """
    if crosses(a, pattern) != crosses(b, pattern):
        view_a = own_view(counts, a, not crosses(a, pattern))
        view_b = own_view(counts, b, not crosses(b, pattern))
        return (
            counts[view_a].get(a, 0),
            counts[view_b].get(b, 0),
            BOUNDARY,
            view_a,
            view_b,
        )
    top_a, top_b = tops(counts, a), tops(counts, b)
    for view in top_a:
        if view in top_b:
            return counts[view][a], counts[view][b], TIE, view, view
    for reason, setting in ((BOUNDARY, 0), (OVERLAP, 1)):
        for view_a in top_a:
            for view_b in top_b:
                differ = [VIEWS[view_a][k] != VIEWS[view_b][k] for k in (0, 1)]
                if differ[setting] and not differ[1 - setting]:
                    return counts[view_a][a], counts[view_b][b], reason, view_a, view_b
    first = counts[next(iter(VIEWS))]
    reason = (
        CHARACTERS if splits_a_character(a) != splits_a_character(b) else UNEXPLAINED
    )
    return first.get(a, 0), first.get(b, 0), reason, "", ""


def explain(
    texts: Iterable[str], a: list[Pair], b: list[Pair], pattern: str | None = PAT
) -> Divergence:
    """Where merge lists a and b, learned from texts, first differ, and why.

    >>> explain(["low low"], [(b"o", b"w")], [(b"l", b"o")]).reason
    'a tie broken differently'
    """
    i = first_difference(a, b)
    if i is None:
        return Divergence(None, None, None, None, None, SAME)
    pick_a, pick_b = (a[i] if i < len(a) else None), (b[i] if i < len(b) else None)
    if pick_a is None or pick_b is None:
        return Divergence(i + 1, pick_a, pick_b, None, None, STOPPED)
    if characters(a[: i + 1]) != characters(b[: i + 1]):
        return Divergence(i + 1, pick_a, pick_b, None, None, CHARACTERS)
    counts = counts_after(list(texts), a[:i], pattern)
    return Divergence(i + 1, pick_a, pick_b, *compare(counts, pick_a, pick_b, pattern))


def reach(text: str, pattern: str | None = PAT) -> int:
    """The largest vocabulary text can give a trainer with pre-tokens: each merge
    shortens some distinct pre-token by at least one token.

    >>> reach("low low")
    261
    """
    return 256 + sum(len(toks) - 1 for toks, _ in rows_of([text], pattern))


def check_corpus(text: str, vocab_size: int) -> None:
    """Refuse, in one sentence, what the page should not train on.

    >>> check_corpus("low low", 300)
    Traceback (most recent call last):
    ...
    ValueError: vocab_size=300 is more than this corpus can reach: ask for 257 to 261.
    """
    if not isinstance(text, str):
        raise ValueError(f"The corpus is a {type(text).__name__}: give it as a string.")
    if not text:
        raise ValueError("The corpus is empty: type a few sentences to train on.")
    if not text.strip():
        raise ValueError("The corpus is only whitespace: type a few words to train on.")
    if len(text) > LIMIT:
        raise ValueError(
            f"The corpus has {len(text):,} characters; the page trains on "
            f"{LIMIT:,} at most."
        )
    check_vocab_size(vocab_size, reach(text))


def check_vocab_size(vocab_size: Any, most: int) -> None:
    """Refuse a vocabulary size that is not a whole number from 257 to most."""
    allowed = f"ask for 257 to {most}" if most > 256 else "no size gives it a merge"
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise ValueError(f"vocab_size={vocab_size!r} is not a whole number: {allowed}.")
    if vocab_size < 256:
        raise ValueError(
            f"vocab_size={vocab_size} is below 256, the byte tokens alone: {allowed}."
        )
    if vocab_size == 256:
        raise ValueError(f"vocab_size=256 leaves room for no merge: {allowed}.")
    if vocab_size > most:
        raise ValueError(
            f"vocab_size={vocab_size} is more than this corpus can reach: {allowed}."
        )


def learn_all(texts: list[str], vocab_size: int) -> dict[str, list[Pair]]:
    """Every rule's merges on the same texts: {trainer: merges}."""
    return {name: learn(rule, texts, vocab_size) for name, rule in RULES.items()}


def picked(pair: Pair | None, count: int | None) -> str:
    """A pick for the table: the merge, with its count when there is one.

    >>> picked((b" ", b"t"), 9), picked(None, None)
    ('␣ + t (9)', 'none: it stopped')
    """
    if pair is None:
        return "none: it stopped"
    return show_merge(pair) + ("" if count is None else f" ({count:,})")


def divergence_table(
    texts: list[str], merges: dict[str, list[Pair]], pattern: str | None = PAT
) -> Table:
    """For each two trainers: the merge where they first differ, each one's pick
    with its count, and the reason ``explain`` computed."""
    names, rows = list(merges), []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            d = explain(texts, merges[first], merges[second], pattern)
            rows.append((first, second, d.step, picked(d.a, d.count_a),
                         picked(d.b, d.count_b), d.reason))  # fmt: skip
    columns = ["trainer", "and", "merge", "the first picks", "the other", "why"]
    return Table(rows, columns)


def where_they_part(text: str, vocab_size: int) -> Table | Refusal:
    """The page's cell: train the five rules on text and show where they part.

    Input it cannot train on is refused in one sentence (a ``Refusal``):

    >>> where_they_part("low low", 256)
    vocab_size=256 leaves room for no merge: ask for 257 to 261.
    """
    try:
        check_corpus(text, vocab_size)
    except ValueError as refused:
        return Refusal(str(refused))
    return divergence_table([text], learn_all([text], vocab_size))


def ids_after(rule: Rule, done: list[Pair]) -> dict[bytes, int]:
    """rule's ids once the merges done are learned: the bytes', then one per merge."""
    ids = dict(rule.ids)
    for n, (left, right) in enumerate(done):
        ids.setdefault(left + right, 256 + n)
    return ids


def tie_at(texts: list[str], done: list[Pair], pattern: str | None = PAT) -> Table:
    """The pairs that share the top count once the merges done are learned (with
    pre-tokens, overlaps counted), what each rule sees in them, and who picks which.
    """
    counts = pair_counts(replay(rows_of(texts, pattern), done))
    top = max(counts.values())
    order = {pair: n for n, pair in enumerate(counts)}  # the order minbpe counts in
    hf, byte = (
        ids_after(RULES["HF tokenizers"], done),
        ids_after(RULES["rustbpe"], done),
    )
    picks = {
        name: rule.pick(counts, ids_after(rule, done))
        for name, rule in RULES.items()
        if rule.pattern == pattern
    }
    rows = [
        (show_merge(pair), top, order[pair], f"{byte[pair[0]]}, {byte[pair[1]]}",
         f"{hf[pair[0]]}, {hf[pair[1]]}",
         ", ".join(name for name, p in picks.items() if p == pair))
        for pair in sorted(p for p, c in counts.items() if c == top)
    ]  # fmt: skip
    columns = ["pair", "count", "counted at", "byte ids", "HF ids", "picked by"]
    return Table(rows, columns)


def replay(rows: Rows, done: list[Pair]) -> Rows:
    """rows with the merges done applied, in order."""
    for pair in done:
        rows = [(merge(toks, pair, pair[0] + pair[1]), n) for toks, n in rows]
    return rows


def steps_figure(table: Table) -> Any:
    """A grid of trainers: the merge at which each two first differ, coloured by it,
    with the reason's first word (from ``divergence_table``'s rows)."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys([*table["trainer"], *table["and"]]))
    grid = [[float("nan")] * len(names) for _ in names]
    fig, ax = plt.subplots(figsize=(charts.WIDTH, 6.4), layout="constrained")
    last = max(table["merge"])
    for first, second, step, *_, why in table.rows:
        i, j = names.index(first), names.index(second)
        grid[i][j] = grid[j][i] = step
        ink = "white" if step > last / 2 else "black"  # dark cells: late steps
        for y, x in ((i, j), (j, i)):
            ax.text(x, y, f"{step}\n{SHORT[why]}", ha="center", va="center",
                    fontsize=charts.FONT - 2, color=ink)  # fmt: skip
    image = ax.imshow(grid, cmap="viridis_r")
    ax.set_xticks(range(len(names)), names, rotation=40, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.tick_params(labelsize=charts.FONT - 1)
    bar = fig.colorbar(image, ax=ax, location="bottom", shrink=0.8)  # wide cells
    bar.set_label("first merge that differs", fontsize=charts.FONT - 1)
    return fig


def hf_merges(texts: list[str], vocab_size: int, pattern: str = PAT) -> list[Pair]:
    """Hugging Face tokenizers' BpeTrainer on texts, byte-level as chapter 16 sets it
    up; its merges read back through the package's bridge (``from_huggingface``).
    """
    import tempfile
    from pathlib import Path

    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    from bpe.interop.huggingface import from_huggingface

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(texts, trainer)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tokenizer.json"
        tok.save(str(path))
        return from_huggingface(path)[1]


def rustbpe_merges(texts: list[str], vocab_size: int, pattern: str = PAT) -> list[Pair]:
    """rustbpe on texts; its ranks turned back into merges (``split_by_ranks``)."""
    import rustbpe

    from bpe.interop.ranks import split_by_ranks

    tokenizer = rustbpe.Tokenizer()
    tokenizer.train_from_iterator(iter(texts), vocab_size=vocab_size, pattern=pattern)
    ranks = dict(tokenizer.get_mergeable_ranks())
    return [
        split_by_ranks(bytes(tok), ranks, rank)
        for tok, rank in sorted(ranks.items(), key=lambda item: item[1])
        if rank >= 256
    ]
