"""The lesson's toy tokenizer, run in chapter 00: ids, no pre-tokenizer, one class.

It follows the lesson's rules rather than the article's, so that its figures can be
set beside the lesson's: the whole text is one sequence of byte values (nothing
stops a merge from joining two words); among equally frequent pairs, the pair
with the smaller ids wins; and training stops early once the best pair occurs
only once. ``bpe.train`` differs on each point, as the chapter shows.
"""

from __future__ import annotations

from collections import Counter


def pair_counts(ids: list[int]) -> Counter[tuple[int, int]]:
    """How often each pair of neighbouring ids occurs.

    >>> pair_counts([1, 2, 1, 2])
    Counter({(1, 2): 2, (2, 1): 1})
    """
    return Counter(zip(ids, ids[1:], strict=False))


def replace_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """ids with each occurrence of pair, read left to right, replaced by new_id.

    >>> replace_pair([7, 7, 7], (7, 7), 300)
    [300, 7]
    """
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class ToyBPE:
    """Train, encode, decode on ids; ``merges`` maps each learned pair to its new id."""

    def __init__(self):
        self.merges: dict[tuple[int, int], int] = {}
        self.vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}

    def train(self, text: str, vocab_size: int) -> list[int]:
        """Learn merges until the vocabulary has vocab_size entries; return the ids."""
        ids = list(text.encode("utf-8"))
        while len(self.vocab) < vocab_size:
            counts = pair_counts(ids)
            if not counts:
                break
            pair = self.best_pair(counts)
            if counts[pair] < 2:
                break  # a pair seen once: a new token for it would save nothing
            new_id = len(self.vocab)
            ids = replace_pair(ids, pair, new_id)
            self.merges[pair] = new_id
            self.vocab[new_id] = self.vocab[pair[0]] + self.vocab[pair[1]]
        return ids

    def best_pair(self, counts: Counter[tuple[int, int]]) -> tuple[int, int]:
        """The pair to merge next: the most frequent, and of those the smaller ids."""
        return min(counts, key=lambda p: (-counts[p], p))

    def encode(self, text: str) -> list[int]:
        """Text -> ids: start from the bytes, apply learned merges, earliest first."""
        # The rule of the core's encode_word, written on ids rather than bytes: the
        # lesson's tokens are ids, and two of them may stand for the same bytes.
        ids = list(text.encode("utf-8"))
        while True:
            known = [p for p in zip(ids, ids[1:], strict=False) if p in self.merges]
            if not known:
                return ids
            pair = min(known, key=self.merges.__getitem__)
            ids = replace_pair(ids, pair, self.merges[pair])

    def decode(self, ids: list[int]) -> str:
        """Ids -> text, with U+FFFD for bytes that are not valid UTF-8."""
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
