"""Training that goes on from an existing vocabulary: the ``start=`` of every trainer.

BPE's merges are a greedy, ordered list, so learning k + m merges gives what
learning k and then m more on the same text gives. To go on from a start, each
distinct pre-token of the new text is encoded with the start's merges, as a
tokenizer would encode it (``piece.PieceEncoder``, on all of them together, not
one pass over the table per merge: gpt2 has 50,000 merges), and the trainer goes
on from that table with the same tie-break.

A start is a Tokenizer or a merge list. A Tokenizer keeps every id it has, its
special tokens' included: the new tokens take the ids after its largest one, and
the text is cut with its pattern. A merge list goes on as if training had never
stopped: the vocabulary is the one training all the merges from scratch would
give, the specials after the last merge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..pretokenizer import PAT
from ..tokenizer import Tokenizer
from ..trainer import Pair, Table, check_vocab_size, vocab_from_merges
from .piece import PieceEncoder

REPLAY_BATCH = 1 << 16  # pre-tokens encoded together when the start is replayed


@dataclass(frozen=True)
class Start:
    """What training goes on from: a tokenizer's vocabulary, merges and token ids."""

    tokenizer: Tokenizer
    specials: tuple[str, ...]  # the start's own special tokens, already in its vocab

    def replay(self, table: Table) -> Table:
        """The table with each pre-token encoded by the start's merges."""
        tok, keys = self.tokenizer, list(table)
        encoder = PieceEncoder(tok.merges, tok.token_id)
        replayed = Counter()
        for lo in range(0, len(keys), REPLAY_BATCH):  # memory stays bounded
            batch = keys[lo : lo + REPLAY_BATCH]
            for key, ids in zip(
                batch, encoder.long(list(map(b"".join, batch))), strict=True
            ):
                replayed[tuple(map(tok.vocab.__getitem__, ids))] += table[key]
        return replayed

    def size(self, specials: tuple[str, ...]) -> int:
        """Entries of the vocabulary before the first new merge, with specials."""
        return len(self.tokenizer.vocab) + len(set(specials) - set(self.specials))


def check_start(
    start: Any, vocab_size: int, specials: tuple[str, ...], pattern: str | None
) -> tuple[Start | None, tuple[str, ...], int, str | None]:
    """(start, specials, new merges wanted, pattern), start checked against the rest.

    A Tokenizer start brings its specials (``specials`` may name them again, or be
    empty) and its pattern (``pattern`` may be the same, or left at ``PAT``).

    >>> check_start([(b"o", b"w")], 260, ("<|endoftext|>",), PAT)[1:3]
    (('<|endoftext|>',), 2)
    """
    if start is None:
        return None, specials, check_vocab_size(vocab_size, specials), pattern
    if isinstance(start, Tokenizer):
        if pattern != start.pattern and pattern != PAT:
            raise ValueError(
                f"pattern {pattern!r} differs from the start's {start.pattern!r}: "
                "an extension must cut text as its start does"
            )
        if specials and set(specials) != set(start.specials):
            raise ValueError(
                f"special tokens {list(specials)} differ from the start's "
                f"{list(start.specials)}: an extension keeps its start's specials "
                "(pass the same, or none)"
            )
        begun, specials, pattern = (
            Start(start, start.specials),
            start.specials,
            start.pattern,
        )
    else:
        merges = check_merge_list(start)
        begun = Start(Tokenizer(vocab_from_merges(merges, ()), merges, (), None), ())
    check_vocab_size(vocab_size, specials)  # an int, with room for the bytes
    size = begun.size(specials)
    if vocab_size <= size:
        raise ValueError(
            f"vocab_size={vocab_size:,} is not above the start's {size:,} entries: "
            "there is no merge left to learn"
        )
    return begun, specials, vocab_size - size, pattern


def check_merge_list(start: Any) -> list[Pair]:
    """A start that is not a Tokenizer must be a list of (bytes, bytes) merges."""
    if not isinstance(start, (list, tuple)):
        raise TypeError(
            f"start must be a Tokenizer or a list of merges, not {type(start).__name__}"
            " (a tiktoken encoding converts with bpe.Tokenizer.from_tiktoken)"
        )
    for n, pair in enumerate(start):
        if not (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and all(isinstance(part, bytes) and part for part in pair)
        ):
            raise TypeError(
                f"start merge {n} is {pair!r}, not a pair of non-empty bytes"
            )
    return [tuple(pair) for pair in start]


def extended(
    start: Start | None, merges: list[Pair], specials: Iterable[str]
) -> tuple[dict[int, bytes], list[Pair]]:
    """(vocab, merges) of the start and the new merges: the ids after its largest.

    >>> extended(None, [(b"o", b"w")], ())[0][256]
    b'ow'
    """
    if start is None:
        return vocab_from_merges(merges, tuple(specials)), merges
    vocab = dict(start.tokenizer.vocab)
    added = [a + b for a, b in merges]
    added += [s.encode("utf-8") for s in specials if s not in start.specials]
    vocab.update(
        zip(range(max(vocab) + 1, max(vocab) + 1 + len(added)), added, strict=True)
    )
    return vocab, [*start.tokenizer.merges, *merges]
