"""Encoding and decoding with a trained vocabulary: ``encode_word`` and ``Tokenizer``.

Training (``trainer.py``) chooses merges by count; encoding has no counts, only the
ordered merge list, so it applies the earliest-learned merge first
(``encode_word``). ``Tokenizer`` puts around that rule what a real tokenizer
needs: special tokens, a cache of encoded words, decoding, the files of
``files.py``, and tiktoken's method names. ``bpe.Tokenizer`` is this class with
faster parts plugged in (``scale/tokenizer.py``), and gives the same ids.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from itertools import chain, count, repeat
from pathlib import Path

from . import files
from .files import PathLike
from .pretokenizer import (
    PAT,
    check_specials,
    check_text,
    finder,
    special_splitter,
    to_bytes,
)
from .trainer import Pair, merge


def encode_word(
    tok: tuple[bytes, ...], rank: dict[Pair, int], on_step: Callable | None = None
) -> tuple[bytes, ...]:
    """Apply learned merges to one pre-token, lowest rank first, until none applies.

    >>> encode_word((b"l", b"o", b"w"), {(b"o", b"w"): 0, (b"l", b"ow"): 1})
    (b'low',)

    Position in the word does not matter, only rank. ``on_step(tok, candidates,
    pair)`` is called before each merge, for traces.
    """
    while True:
        candidates = [p for p in zip(tok, tok[1:], strict=False) if p in rank]
        if not candidates:
            return tok
        best = min(candidates, key=rank.__getitem__)
        if on_step:
            on_step(tok, candidates, best)
        tok = merge(tok, best, best[0] + best[1])


def check_vocab(
    vocab: dict[int, bytes], merges: list[Pair], specials: tuple[str, ...]
) -> None:
    """Refuse a vocabulary that cannot encode every byte or lacks a merge's tokens."""
    values = set(vocab.values())
    if not (
        all(map(isinstance, vocab, repeat(int)))
        and min(vocab, default=0) >= 0
        and all(map(isinstance, values, repeat(bytes)))
    ):
        i, tok = next(
            (i, t)
            for i, t in vocab.items()
            if not isinstance(i, int) or i < 0 or not isinstance(t, bytes)
        )
        raise ValueError(
            f"vocab must map non-negative int ids to bytes, got {i!r}: {tok!r}"
        )
    missing = [b for b in range(256) if bytes([b]) not in values]
    if missing:
        raise ValueError(
            f"vocab lacks {len(missing)} of the 256 single bytes, "
            f"e.g. byte {missing[0]}"
        )
    # Checked all at once, with C loops; the slow loop only finds what to report.
    if not (
        values.issuperset(chain.from_iterable(merges))
        and values.issuperset(map(b"".join, merges))
    ):
        for n, (left, right) in enumerate(merges):
            for part in (left, right, left + right):
                if part not in values:
                    raise ValueError(
                        f"merge {n} ({left!r}, {right!r}) needs {part!r}, "
                        "which is not in vocab"
                    )
    for s in specials:
        if s.encode("utf-8") not in values:
            raise ValueError(f"special token {s!r} is not in the vocabulary")


class Tokenizer:
    """A byte-level BPE tokenizer: ``vocab`` (id -> bytes), ``merges``, ``specials``.

    Method names follow tiktoken's where it has them. Each pre-token's ids are kept
    in a cache of up to ``cache_size`` entries (0 turns it off), so that a common
    word is merged only once; a full cache starts afresh.
    """

    def __init__(
        self,
        vocab: dict[int, bytes],
        merges: Iterable[Pair],
        specials: Iterable[str] = (),
        pattern: str | None = PAT,
        cache_size: int = 65536,
    ):
        if not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(
                f"cache_size must be a non-negative integer, got {cache_size!r}"
            )
        self.specials = check_specials(specials)
        self.vocab = dict(vocab)
        self.merges = list(map(tuple, merges))
        self.pattern, self.cache_size = pattern, cache_size
        check_vocab(self.vocab, self.merges, self.specials)
        ids = sorted(self.vocab, reverse=True)  # a token listed twice: its smaller id
        self.token_id = dict(zip(map(self.vocab.__getitem__, ids), ids, strict=True))
        self.special_id = {s: self.token_id[s.encode("utf-8")] for s in self.specials}
        self.find_pieces = finder(pattern)
        self.cache = {}  # pre-token -> its ids

    @functools.cached_property
    def rank(self) -> dict[Pair, int]:
        """Each merge's rank, its position in the list: what ``encode_word`` needs."""
        return dict(zip(self.merges, count()))

    def __reduce__(self):
        # Pickled as what defines it: the copy rebuilds its tables and its pattern,
        # and starts with an empty cache.
        return type(self), (
            self.vocab,
            self.merges,
            self.specials,
            self.pattern,
            self.cache_size,
        )

    @property
    def n_vocab(self) -> int:
        """One more than the largest id, as in tiktoken."""
        return max(self.vocab) + 1

    def encode_piece(self, piece: str) -> tuple[int, ...]:
        """One pre-token's ids: ``encode_word`` on its bytes, then each token's id."""
        ids = self.cache.get(piece)
        if ids is None:
            tokens = encode_word(to_bytes(piece), self.rank)
            ids = tuple(map(self.token_id.__getitem__, tokens))
            if len(self.cache) >= self.cache_size:
                self.cache.clear()  # memory stays bounded, whatever the text
            if self.cache_size:
                self.cache[piece] = ids
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Text -> ids, treating any spelling of a special token as ordinary text."""
        return self.encode_chunks([check_text(text)], set())

    def encode(
        self,
        text: str,
        allowed_special: str | Iterable[str] = "all",
        disallowed_special: str | Iterable[str] = "all",
    ) -> list[int]:
        """Text -> ids; each allowed special token maps straight to its own id.

        As in tiktoken, a disallowed special token in the text raises ValueError,
        and ``disallowed_special=()`` encodes it as ordinary text. Unlike tiktoken's
        default, all of this tokenizer's specials are allowed unless you say
        otherwise.
        """
        check_text(text)
        specials = set(self.specials)
        allowed = specials if allowed_special == "all" else set(allowed_special)
        if allowed - specials:
            raise ValueError(
                f"not special tokens of this tokenizer: {sorted(allowed - specials)}"
            )
        disallowed = (
            specials - allowed
            if disallowed_special == "all"
            else set(disallowed_special)
        )
        if disallowed:
            found = special_splitter(tuple(sorted(disallowed))).search(text)
            if found:
                raise ValueError(
                    f"text contains the special token {found.group()!r} at index "
                    f"{found.start()}; pass allowed_special to encode it as a special "
                    "token, or disallowed_special=() to encode it as ordinary text"
                )
        splitter = special_splitter(tuple(sorted(allowed))) if allowed else None
        chunks = splitter.split(text) if splitter else [text]
        return self.encode_chunks(chunks, allowed)

    def encode_chunks(self, chunks: list[str], allowed: set[str]) -> list[int]:
        """Ids for text already split around its allowed special tokens."""
        ids = []
        for chunk in chunks:
            if chunk in allowed:
                ids.append(self.special_id[chunk])
            else:
                for piece in self.find_pieces(chunk):
                    ids.extend(self.encode_piece(piece))
        return ids

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """Ids -> the bytes they stand for; an unknown id raises ValueError."""
        ids = list(ids)
        try:
            return b"".join(self.vocab[i] for i in ids)
        except (KeyError, TypeError):
            bad = next(i for i in ids if not isinstance(i, int) or i not in self.vocab)
            raise ValueError(
                f"token id {bad!r} is not in the vocabulary ({len(self.vocab)} entries)"
            ) from None

    def decode(self, ids: Iterable[int]) -> str:
        """Ids -> text; bytes that are not valid UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def decode_single_token_bytes(self, token_id: int) -> bytes:
        """One id's bytes, as in tiktoken."""
        return self.decode_bytes([token_id])

    def decode_with_offsets(self, ids: Iterable[int]) -> tuple[str, list[int]]:
        """The text, and the index where each token starts in it, as in tiktoken.

        A token that begins in the middle of a character is given the index of that
        character. As in tiktoken, ids that do not decode to valid UTF-8 raise.
        """
        tokens = [self.decode_bytes([i]) for i in ids]
        offsets, characters = [], 0
        for token in tokens:
            inside = 0x80 <= token[0] < 0xC0 if token else False  # a continuation byte
            offsets.append(max(0, characters - inside))
            characters += sum(not 0x80 <= b < 0xC0 for b in token)  # characters begun
        return b"".join(tokens).decode("utf-8"), offsets

    def token_to_id(self, token: bytes | str) -> int:
        """The id of a token given as bytes (or as text, for a special token)."""
        key = token.encode("utf-8") if isinstance(token, str) else token
        if key not in self.token_id:
            raise ValueError(f"{token!r} is not a token of this vocabulary")
        return self.token_id[key]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tokenizer):
            return NotImplemented
        return (self.vocab, self.merges, self.specials, self.pattern) == (
            other.vocab,
            other.merges,
            other.specials,
            other.pattern,
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({len(self.vocab)} tokens, {len(self.merges)} "
            f"merges, specials={list(self.specials)})"
        )

    def save(self, directory: PathLike) -> tuple[Path, ...]:
        """Write vocab.json and merges.txt (GPT-2's format), and special_tokens.json
        if there are specials, into directory. Returns the paths written."""
        return files.save_files(self, directory)

    @classmethod
    def load(cls, directory: PathLike, pattern: str | None = PAT) -> Tokenizer:
        """Load a tokenizer that save() wrote, special tokens included."""
        vocab, merges, specials = files.load_directory(directory)
        try:
            return cls(vocab, merges, specials, pattern)
        except ValueError as error:  # the files disagree: say which
            raise ValueError(f"{directory}: {error}") from None

    @classmethod
    def from_files(
        cls,
        vocab_path: PathLike,
        merges_path: PathLike,
        specials: Iterable[str] = (),
        pattern: str | None = PAT,
    ) -> Tokenizer:
        """Load a tokenizer from GPT-2-format vocab.json and merges.txt."""
        specials = check_specials(specials)
        vocab, merges = files.load_files(vocab_path, merges_path, specials)
        try:
            return cls(vocab, merges, specials, pattern)
        except ValueError as error:  # the files disagree: say which
            raise ValueError(f"{vocab_path} and {merges_path}: {error}") from None
