"""Converting a Tokenizer to and from tiktoken, whose files hold ranks, not merges.

``files.py`` speaks GPT-2's vocab.json / merges.txt. tiktoken stores no merges,
only a rank for every token's bytes, and merges the adjacent pair whose joined
bytes have the lowest rank; this package ranks the merges themselves. For a
vocabulary trained by BPE the two agree (the book's tests check it), so a
Tokenizer exports as ranks, and a tiktoken encoding's merges can be recovered by
asking, for each token, which split its own earlier ranks would produce.
"""

from __future__ import annotations

import base64
import binascii
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..files import PathLike

if TYPE_CHECKING:
    from ..tokenizer import Tokenizer
    from ..trainer import Pair


def ranks_of(tokenizer: Tokenizer) -> dict[bytes, int]:
    """{token bytes: id} of the ordinary tokens; a repeated token keeps its lower id."""
    specials = {s.encode("utf-8") for s in tokenizer.specials}
    return {tok: i for tok, i in tokenizer.token_id.items() if tok not in specials}


def to_tiktoken(tokenizer: Tokenizer, name: str) -> Any:
    """A tiktoken.Encoding with the tokenizer's ranks, regex and special tokens."""
    import tiktoken

    if tokenizer.pattern is None:
        raise ValueError(
            "tiktoken needs a pre-tokenizer pattern; this tokenizer has none"
        )
    return tiktoken.Encoding(
        name,
        pat_str=tokenizer.pattern,
        mergeable_ranks=ranks_of(tokenizer),
        special_tokens=dict(tokenizer.special_id),
    )


def split_by_ranks(
    token: bytes, ranks: dict[bytes, int], max_rank: int
) -> tuple[bytes, bytes]:
    """The two parts byte-pair merging makes of token using only ranks below max_rank.

    >>> split_by_ranks(b"abc", {b"a": 0, b"b": 1, b"c": 2, b"bc": 3}, 4)
    (b'a', b'bc')
    """
    parts = [bytes([b]) for b in token]
    # joined[i]: the rank of parts[i] + parts[i + 1]. A merge changes only its two
    # neighbours' ranks, so a token of n bytes costs n lookups, not n squared.
    joined = [ranks.get(a + b, max_rank) for a, b in pairwise(parts)]
    while len(parts) > 2:
        lowest = min(joined)
        if lowest >= max_rank:
            break
        i = joined.index(lowest)  # the leftmost, as tiktoken takes it
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        del joined[i]
        if i > 0:
            joined[i - 1] = ranks.get(parts[i - 1] + parts[i], max_rank)
        if i < len(joined):
            joined[i] = ranks.get(parts[i] + parts[i + 1], max_rank)
    if len(parts) != 2:
        raise ValueError(
            f"token {token!r} (rank {max_rank}) cannot be built from two earlier tokens"
        )
    return tuple(parts)


def from_tiktoken(encoding: Any) -> tuple[dict[int, bytes], list[Pair], list[str], str]:
    """(vocab, merges, specials, pattern) recovered from a tiktoken.Encoding."""
    ranks = encoding._mergeable_ranks
    vocab = {rank: tok for tok, rank in ranks.items()}
    merges = [
        split_by_ranks(tok, ranks, rank)
        for rank, tok in sorted(vocab.items())
        if len(tok) > 1
    ]
    specials = sorted(encoding._special_tokens, key=encoding._special_tokens.get)
    vocab.update({i: s.encode("utf-8") for s, i in encoding._special_tokens.items()})
    return vocab, merges, specials, encoding._pat_str


def parse_tiktoken(data: bytes, path: PathLike) -> dict[bytes, int]:
    """{token bytes: rank} from a .tiktoken file's bytes; path names it in errors."""
    ranks, seen = {}, set()
    for n, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            token, rank = base64.b64decode(parts[0], validate=True), int(parts[1])
            if len(parts) != 2 or rank < 0:
                raise ValueError
        except (IndexError, ValueError, binascii.Error):
            raise ValueError(
                f"{path} line {n}: expected a base64 token and a rank, "
                f"got {line[:60]!r}"
            ) from None
        if token in ranks or rank in seen:
            raise ValueError(
                f"{path} line {n}: token {token!r} or rank {rank} appears twice"
            )
        ranks[token] = rank
        seen.add(rank)
    return ranks
