"""``bpe.Tokenizer``: the core's ``Tokenizer`` with its faster parts plugged in.

It gives the core's ids (the tests compare the two) and replaces three of its
steps:

* pre-tokens come from ``fast_finder`` (``ascii_pattern.py``): Python's ``re`` on
  ASCII text, ``regex`` on the rest, as in the core (or tiktoken's older Unicode
  tables, for a tokenizer made by ``from_tiktoken`` or with ``unicode="tiktoken"``);
* the new pieces of a text are encoded all together on integer ids
  (``piece.PieceEncoder``) rather than one by one by ``encode_word``;
* the cache is a ``piece.PieceCache``, which a hit leaves untouched.

Around them, what large inputs and other tools need: ``encode_batch`` over
helper processes (``batch.py``), streams (``stream.py``), a save that replaces the
folder in one step (``disk/atomic.py``), and conversions to and from tiktoken and
Hugging Face (``interop/``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any

from .. import tokenizer as core
from ..files import PathLike
from ..pretokenizer import PAT
from ..trainer import Pair
from .ascii_pattern import check_view, fast_finder
from .piece import PieceCache, PieceEncoder

# The methods beyond encoding import their modules when first called, so that
# ``import bpe`` stays light (and runs where there are no processes to fork).


class Tokenizer(core.Tokenizer):
    """A fast byte-level BPE tokenizer: ``vocab`` (id -> bytes), ``merges``, specials.

    The same arguments, ids and files as the core's ``bpe.tokenizer.Tokenizer``.
    ``unicode`` says how the pattern classes characters beyond ASCII: ``"regex"``
    (the core's view, today's Unicode tables) or ``"tiktoken"`` (tiktoken's older
    tables: the view ``from_tiktoken`` chooses, so that tiktoken's ids come out).
    """

    def __init__(
        self,
        vocab: dict[int, bytes],
        merges: Iterable[Pair],
        specials: Iterable[str] = (),
        pattern: str | None = PAT,
        cache_size: int = 65536,
        unicode: str = "regex",
    ):
        super().__init__(vocab, merges, specials, pattern, cache_size)
        self.unicode = check_view(unicode)
        self.find_pieces = fast_finder(pattern, unicode)
        self.encode_pieces = PieceEncoder(self.merges, self.token_id)
        self.cache = PieceCache(cache_size)
        self._helpers = None  # encode_batch's processes, forked when first needed

    def __reduce__(self):
        rebuild, args = super().__reduce__()  # the view only if not the default
        return rebuild, args if self.unicode == "regex" else (*args, self.unicode)

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        if same is not True:
            return same
        return self.unicode == getattr(other, "unicode", "regex")

    def encode_piece(self, piece: str) -> tuple[int, ...]:
        """One pre-token's ids, as the core's ``encode_piece`` gives them."""
        return self.ids_of([piece])[piece]

    def ids_of(self, pieces: list[str]) -> dict[str, tuple[int, ...]]:
        """A dict holding each pre-token's ids: the cache, once the new ones are in.

        The new pieces are encoded all together (``piece.py``).
        """
        return self.cache.table(pieces, self.encode_pieces.all)

    def encode_chunks(self, chunks: list[str], allowed: set[str]) -> list[int]:
        """Ids for text already split around its allowed special tokens."""
        pieces = [None if c in allowed else self.find_pieces(c) for c in chunks]
        try:  # the usual case: every piece was seen before
            return self.join(chunks, pieces, self.cache.__getitem__)
        except KeyError:  # new pieces: encode them all together, then join
            new = list(chain.from_iterable(p for p in pieces if p is not None))
            return self.join(chunks, pieces, self.ids_of(new).__getitem__)

    def join(
        self, chunks: list[str], pieces: list, ids_of_piece: Callable
    ) -> list[int]:
        """The ids of each chunk in turn: a special token's own, or its pieces' ids."""
        ids = []
        for chunk, found in zip(chunks, pieces, strict=True):
            if found is None:
                ids.append(self.special_id[chunk])
            else:
                ids.extend(chain.from_iterable(map(ids_of_piece, found)))
        return ids

    def encode_batch(
        self, texts: Iterable[str], workers: int | None = None, **options: Any
    ) -> list[list[int]]:
        """encode() on each text, by ``workers`` processes, this one included.

        The helper processes are kept for later calls, until ``close()``; a batch too
        small to gain is encoded here alone.
        """
        from . import batch

        return batch.encode_batch(self, texts, workers, **options)

    def kept_helpers(self, size: int) -> Any:
        """The helpers encode_batch keeps for batches of size processes, if usable."""
        helpers = self._helpers
        ok = helpers is not None and helpers.size == size and helpers.usable()
        return helpers if ok else None

    def keep_helpers(self, helpers: Any) -> Any:
        """Keep helpers for later encode_batch calls, in place of any others.

        They stop on close(), or when this tokenizer is garbage collected.
        """
        self.close()
        self._helpers = helpers
        weakref.finalize(self, helpers.close)
        return helpers

    def close(self) -> None:
        """Stop the helper processes encode_batch keeps; a later call forks new ones."""
        if self._helpers is not None:
            self._helpers.close()
            self._helpers = None

    def encode_iterable(self, pieces: Iterable[str]) -> Iterator[int]:
        """Ids for a text given in pieces (say, a file's lines), produced lazily."""
        from . import stream

        return stream.encode_iterable(self, pieces)

    def decode_stream(self, ids: Iterable[int]) -> Iterator[str]:
        """Text for an iterable of ids, produced lazily, never splitting a character."""
        from . import stream

        return stream.decode_stream(self, ids)

    def save(self, directory: PathLike) -> tuple[Path, ...]:
        """Write GPT-2's vocab.json and merges.txt (and special_tokens.json).

        The folder is replaced in one step: a reader, or a crash at any moment,
        finds the complete old tokenizer or the complete new one, and any other
        files the folder held stay. Returns the paths written.
        """
        from ..disk import atomic

        directory = Path(directory)
        texts = core.files.file_texts(self)  # built before the disk is touched
        data = {name: text.encode("utf-8") for name, text in texts.items()}
        atomic.replace_folder(directory, data, drop=core.files.NAMES)
        return tuple(directory / name for name in texts)

    @classmethod
    def load(cls, directory: PathLike, pattern: str | None = PAT) -> Tokenizer:
        """Load a tokenizer that save() wrote, special tokens included.

        It changes nothing on disk. If a save was cut short where the folder could
        not be swapped in one step, the error says where the previous folder is.
        """
        from ..disk import atomic

        aside = atomic.interrupted(Path(directory))
        if aside is not None:
            raise FileNotFoundError(
                f"{directory} is missing: a save was cut short, and the previous "
                f"tokenizer is in {aside}; bpe.disk.atomic.settle({str(directory)!r}) "
                "puts it back"
            )
        return super().load(directory, pattern)

    def to_tiktoken(self, name: str = "bpe-book") -> Any:
        """A tiktoken.Encoding with this vocabulary's ranks, pattern and specials."""
        from ..interop import ranks

        return ranks.to_tiktoken(self, name)

    @classmethod
    def from_tiktoken(cls, encoding: Any) -> Tokenizer:
        """A Tokenizer that encodes like a tiktoken.Encoding (merges from its ranks).

        It reads Unicode as tiktoken does (``unicode="tiktoken"``), so that its ids
        are tiktoken's on every code point.
        """
        from ..interop import ranks

        return cls(*ranks.from_tiktoken(encoding), unicode="tiktoken")

    def to_huggingface(self, path: PathLike | None = None) -> Any:
        """A Hugging Face tokenizers.Tokenizer doing the same; saved too if path."""
        from ..interop import huggingface

        return huggingface.to_huggingface(self, path)

    @classmethod
    def from_huggingface(cls, path: PathLike) -> Tokenizer:
        """Load a byte-level BPE tokenizer.json (as written by to_huggingface)."""
        from ..interop import huggingface

        return cls(*huggingface.from_huggingface(path))
