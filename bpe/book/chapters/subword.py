"""The other subword algorithms, trained with Hugging Face ``tokenizers`` to compare.

The chapter "Where this leads" sets this package's byte-level BPE beside WordPiece
(BERT's algorithm), the Unigram model (SentencePiece's) and raw bytes (ByT5's
input), all on the same stories. Each is wrapped as a ``Pieces`` with ``encode``
and ``decode``, so ``analysis.compression`` and ``analysis.exact_round_trips``
measure them like any tokenizer. ``wordpiece_scores`` shows, on a pre-token table,
the score WordPiece ranks pairs by, beside BPE's raw count.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from bpe.trainer import count_pairs


class Pieces:
    """A trained ``tokenizers.Tokenizer``, seen as ids and as its pieces' strings."""

    def __init__(self, name: str, tokenizer: Any):
        self.name, self.tokenizer = name, tokenizer

    def encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text).ids

    def decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=False)

    def pieces(self, text: str) -> list[str]:
        return self.tokenizer.encode(text).tokens


class Bytes:
    """No tokenizer at all, as ByT5 reads text: one token per UTF-8 byte."""

    name = "bytes (ByT5)"

    def encode(self, text: str) -> list[int]:
        return list(text.encode("utf-8"))

    def decode(self, ids: list[int]) -> str:
        return bytes(ids).decode("utf-8", errors="replace")

    def pieces(self, text: str) -> list[str]:
        return [f"<{b:02X}>" if b > 127 else chr(b) for b in text.encode("utf-8")]


def continuation_symbols(texts: list[str]) -> list[str]:
    """ "##" + every character that can continue a word, sorted.

    The WordPiece trainer numbers these as it first meets them, in hash-map order,
    and breaks ties between pairs by those numbers; declaring them all up front, in
    sorted order, makes training give the same vocabulary on every run.
    """
    chars = sorted({ch for text in texts for ch in text if not ch.isspace()})
    return ["##" + ch for ch in chars]


def train_wordpiece(texts: list[str], vocab_size: int) -> Pieces:
    """WordPiece as BERT uses it: words split at spaces and punctuation, "##" inside."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    symbols = ["[UNK]"] + continuation_symbols(texts)
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=symbols, show_progress=False
    )
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.train_from_iterator(texts, trainer)
    # the "##" symbols served training only: rebuild without them as special tokens
    clean = Tokenizer(models.WordPiece(vocab=tokenizer.get_vocab(), unk_token="[UNK]"))
    clean.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    clean.decoder = decoders.WordPiece()
    return Pieces("WordPiece", clean)


def train_unigram(texts: list[str], vocab_size: int) -> Pieces:
    """The Unigram model as SentencePiece uses it: spaces kept as "▁" inside pieces."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size,
        special_tokens=["<unk>"],
        unk_token="<unk>",
        show_progress=False,
    )
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.train_from_iterator(texts, trainer)
    unk, *scored = json.loads(tokenizer.to_str())["model"]["vocab"]  # <unk> comes first
    clean = Tokenizer(models.Unigram([tuple(unk)] + settled(scored), unk_id=0))
    clean.pre_tokenizer = pre_tokenizers.Metaspace()
    clean.decoder = decoders.Metaspace()
    return Pieces("Unigram", clean)


LADDER = 0.05  # log-probability: the appended characters sit within this of the lowest


def settled(scored: list) -> list[tuple[str, float]]:
    """A Unigram vocabulary [(piece, log-probability)] made the same on every run.

    The trainer adds up scores in a varying order, so they differ in their last
    digits from run to run: round them. And it gives the characters it must keep but
    did not learn the lowest score, a little more for each, in hash-set order: so
    the single characters at the bottom of the list take those scores in sorted order.

    >>> settled([["ab", -1.0000000000001], ["z", -9.0], ["y", -9.0001], ["x", -9.0002]])
    [('ab', -1.0), ('x', -9.0), ('y', -9.0001), ('z', -9.0002)]
    """
    scored = [(piece, round(score, 9)) for piece, score in scored]
    low = min(score for _, score in scored)
    bottom = [
        i
        for i, (piece, score) in enumerate(scored)
        if len(piece) == 1 and score < low + LADDER
    ]
    chars = sorted(scored[i][0] for i in bottom)
    scores = sorted((scored[i][1] for i in bottom), reverse=True)
    kept = [entry for i, entry in enumerate(scored) if i not in set(bottom)]
    return sorted(
        kept + list(zip(chars, scores, strict=True)), key=lambda e: (-e[1], e[0])
    )


def wordpiece_scores(table: dict) -> dict[tuple[bytes, bytes], float]:
    """WordPiece's score for each pair of a pre-token table: its count divided by the
    product of its two parts' counts, so pairs of rare parts rank high.

    >>> scores = wordpiece_scores({(b"a", b"b"): 4, (b"c", b"d"): 1})
    >>> scores[(b"a", b"b")], scores[(b"c", b"d")]
    (0.25, 1.0)
    """
    parts = Counter()
    for token, count in table.items():
        for part in token:
            parts[part] += count
    return {
        (a, b): n / (parts[a] * parts[b]) for (a, b), n in count_pairs(table).items()
    }
