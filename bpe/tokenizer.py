"""Encoding and decoding with a trained vocabulary: ``encode_word`` and ``Tokenizer``.

Training (``train.py``) chooses merges by count; encoding has no counts, only the
ordered merge list, so it applies the earliest-learned merge first. ``Tokenizer``
adds what a real tokenizer needs around that rule: special tokens, decoding, and
tiktoken's method names. Its speed comes from ``scale/piece.py``, which gives
``encode_word``'s answer on integer ids; its file format lives in ``files.py``.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, count, repeat

from . import files
from .interop import huggingface, ranks
from .pretokenize import PAT, check_specials, check_text, finder, special_splitter
from .scale import batch, stream
from .scale.piece import PieceCache, PieceEncoder
from .train import Pair, merge


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
        candidates = [p for p in zip(tok, tok[1:]) if p in rank]
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

    Method names follow tiktoken's where it has them. Encoded pre-tokens are kept
    in a cache of up to ``cache_size`` entries (0 turns it off), so that common
    words are merged only once.
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
        self.token_id = dict(zip(map(self.vocab.__getitem__, ids), ids))
        self.special_id = {s: self.token_id[s.encode("utf-8")] for s in self.specials}
        # encode_word's answer, computed on ids (scale/piece.py), and a cache of it
        self.encode_piece = PieceEncoder(self.merges, self.token_id)
        self.cache = PieceCache(cache_size)
        self.find_pieces = finder(pattern)
        self._workers = None  # encode_batch's processes, forked when first needed

    @functools.cached_property
    def rank(self) -> dict[Pair, int]:
        """Each merge's rank, its position in the list: what ``encode_word`` needs."""
        return dict(zip(self.merges, count()))

    def __reduce__(self):
        # Pickled as what defines it: the copy rebuilds its tables and its pattern,
        # and starts with an empty cache and no worker processes.
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

    def encode_ordinary(self, text: str) -> list[int]:
        """Text -> ids, treating any spelling of a special token as ordinary text."""
        return self.encode_chunks([check_text(text)], set())

    def ids_of(self, pieces: list[str]) -> dict[str, tuple[int, ...]]:
        """A dict holding each pre-token's ids: the cache, once the new ones are added.

        The new pieces are encoded all together (``scale/piece.py``).
        """
        return self.cache.table(pieces, self.encode_piece.all)

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
        return self.encode_chunks(splitter.split(text) if splitter else [text], allowed)

    def encode_chunks(self, chunks: list[str], allowed: set[str]) -> list[int]:
        """Ids for text already split around its allowed special tokens."""
        pieces = [
            None if chunk in allowed else self.find_pieces(chunk) for chunk in chunks
        ]
        try:  # the usual case: every piece was seen before
            return self.join(chunks, pieces, self.cache.__getitem__)
        except KeyError:  # new pieces: encode them all together, then join
            new = list(chain.from_iterable(p for p in pieces if p is not None))
            return self.join(chunks, pieces, self.ids_of(new).__getitem__)

    def join(self, chunks: list[str], pieces: list, ids_of_piece) -> list[int]:
        """The ids of each chunk in turn: a special token's own, or its pieces' ids."""
        ids = []
        for chunk, found in zip(chunks, pieces):
            if found is None:
                ids.append(self.special_id[chunk])
            else:
                ids.extend(chain.from_iterable(map(ids_of_piece, found)))
        return ids

    def encode_batch(
        self, texts: Iterable[str], workers: int | None = None, **options
    ) -> list[list[int]]:
        """encode() on each text, by ``workers`` processes, this one included.

        The work is shared by ``scale/batch.py``; the worker processes are kept for
        later calls until ``close()``.
        """
        return batch.encode_batch(self, texts, workers, **options)

    @property
    def kept_workers(self):
        """The worker processes encode_batch keeps for this tokenizer, or None."""
        return self._workers

    def keep_workers(self, pool) -> None:
        """Keep pool for later encode_batch calls, in place of any other.

        Its processes stop on close(), or when this tokenizer is garbage collected.
        """
        self.close()
        self._workers = pool
        weakref.finalize(self, pool.close)

    def close(self) -> None:
        """Stop the worker processes encode_batch keeps; a later call forks new ones."""
        if self._workers is not None:
            self._workers.close()
            self._workers = None

    def encode_iterable(self, pieces: Iterable[str]) -> Iterator[int]:
        """Ids for a text given in pieces (say, a file's lines), produced lazily."""
        return stream.encode_iterable(self, pieces)

    def decode_stream(self, ids: Iterable[int]) -> Iterator[str]:
        """Text for an iterable of ids, produced lazily, never splitting a character."""
        return stream.decode_stream(self, ids)

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

    id_to_token = decode_single_token_bytes

    def decode_with_offsets(self, ids: Iterable[int]) -> tuple[str, list[int]]:
        """The text, and the index in it where each token starts, as tiktoken defines it.

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
            f"Tokenizer({len(self.vocab)} tokens, {len(self.merges)} merges, "
            f"specials={list(self.specials)})"
        )

    def save(self, directory) -> tuple:
        """Write vocab.json and merges.txt (GPT-2's format), and special_tokens.json
        if there are specials, into directory. Returns the paths written."""
        return files.save_files(self, directory)

    @classmethod
    def load(cls, directory, pattern: str | None = PAT) -> Tokenizer:
        """Load a tokenizer that save() wrote, special tokens included."""
        vocab, merges, specials = files.load_directory(directory)
        return cls(vocab, merges, specials, pattern)

    @classmethod
    def from_files(
        cls,
        vocab_path,
        merges_path,
        specials: Iterable[str] = (),
        pattern: str | None = PAT,
    ) -> Tokenizer:
        """Load a tokenizer from GPT-2-format vocab.json and merges.txt."""
        specials = check_specials(specials)
        vocab, merges = files.load_files(vocab_path, merges_path, specials)
        return cls(vocab, merges, specials, pattern)

    def to_tiktoken(self, name: str = "bpe-book"):
        """A tiktoken.Encoding with this vocabulary's ranks, pattern and specials."""
        return ranks.to_tiktoken(self, name)

    @classmethod
    def from_tiktoken(cls, encoding) -> Tokenizer:
        """A Tokenizer that encodes like a tiktoken.Encoding (merges from its ranks)."""
        return cls(*ranks.from_tiktoken(encoding))

    def to_huggingface(self, path=None):
        """A Hugging Face tokenizers.Tokenizer doing the same; saved too if path."""
        return huggingface.to_huggingface(self, path)

    @classmethod
    def from_huggingface(cls, path) -> Tokenizer:
        """Load a byte-level BPE tokenizer.json (as written by to_huggingface)."""
        return cls(*huggingface.from_huggingface(path))
