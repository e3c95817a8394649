"""OpenAI's encodings and the data registry's files in the page, from the site's files.

The page's Python has no tiktoken and no network beyond the site. ``plug_in``
(which ``session.start`` calls, and nothing else) puts this module's ``get_encoding``
and ``shipped_path`` in place of ``bpe.interop.openai``'s, and makes the data
registry fetch a file it lacks from the site (``fetch``). So a cell that calls
``get_encoding("gpt2")`` gets gpt2, cl100k_base or o200k_base as the package's own
``bpe.Tokenizer`` with tiktoken's method names and defaults (``PageEncoding``), built
from the vocabulary files the site serves to the token playground
(``bpe.book.site.playground`` writes them from tiktoken's tables). Every file is read
through ``read_served``: from the site's address in a browser, from a folder under
Node (``BPE_SITE``). Nothing is fetched before a cell asks for it.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from bpe.data import registry
from bpe.interop import openai
from bpe.pretokenizer import ENDOFTEXT
from bpe.scale.tokenizer import Tokenizer

SITE_SETTING = "BPE_SITE"  # the site's _static/ address, or a folder laid out like it
SERVED_OPENAI = "live/openai"  # GPT-2's encoder.json and vocab.bpe, as shipped
SERVED_FILES = ("encoder.json", "vocab.bpe")
# A served token's merge is written chr(SPLIT_BASE + length of its left part), "0"
# for none (bpe.book.site.playground.splits writes them).
SPLIT_BASE = 0x30


def plug_in(site: str | None) -> None:
    """Read OpenAI's encodings and the registry's files from the site at ``site``."""
    if site:
        os.environ[SITE_SETTING] = site
    openai.get_encoding = get_encoding
    openai.shipped_path = shipped_path
    registry.fetch = fetch


def read_served(relative: str) -> bytes:
    """A file the site serves (relative to its _static/ folder), read in the page.

    In a browser's Web Worker a synchronous request fetches it; under Node, where
    ``BPE_SITE`` is a folder (``node_runner.mjs`` mounts one), it is read from disk.
    """
    base = os.environ.get(SITE_SETTING, "")
    if not base:
        raise FileNotFoundError(
            f"{relative}: {SITE_SETTING} is not set: only the page's Python reads "
            "the site's files"
        )
    if "://" not in base:
        return (Path(base) / relative).read_bytes()
    from js import XMLHttpRequest  # Pyodide's bridge to the worker's JavaScript

    request = XMLHttpRequest.new()
    request.open("GET", base + relative, False)  # synchronous: allowed in a worker
    request.responseType = "arraybuffer"
    request.send(None)
    if request.status != 200:
        raise FileNotFoundError(f"{base}{relative}: HTTP {request.status}")
    return bytes(request.response.to_py())


def served_copy(relative: str) -> Path:
    """A served file copied once into the page's own file system; its path there."""
    local = Path.home() / ".cache" / "bpe-book" / "site" / relative
    if not local.is_file():
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(read_served(relative))
    return local


def shipped_path(filename: str) -> Path:
    """GPT-2's encoder.json or vocab.bpe, as the site serves them."""
    return served_copy(f"{SERVED_OPENAI}/{filename}")


def fetch(name: str, cached: Path) -> None:
    """A registered data file, as the site serves it, written to ``cached``."""
    try:
        data = read_served(f"{registry.SERVED}/{name}")
    except OSError as error:
        raise registry.DataError(
            f"{name} is not served by this site ({error}); it is copied from "
            f"{registry.MIRROR_SETTING} when the site is built"
        ) from None
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)


def served_vocabulary(name: str) -> dict:
    """The playground's file of an encoding: tokens by id (latin-1), specials, regex."""
    text = read_served(f"playground/{name}.js").decode("utf-8")
    return json.loads(text[text.index("push(") + 5 : text.rindex(");")])


@functools.cache
def get_encoding(name: str) -> PageEncoding:
    """The encoding ``name`` in the page: a PageEncoding on the served vocabulary."""
    if name not in openai.COMPARED:
        raise ValueError(
            f"the page serves the encodings {', '.join(openai.COMPARED)}, not "
            f"{name!r}: run this in Jupyter for it"
        )
    data = served_vocabulary(name)
    tokens = [token.encode("latin-1") for token in data["tokens"]]
    # each token's merge, by the length of its left part (playground.splits)
    lefts = [ord(c) - SPLIT_BASE for c in data["splits"]]
    merges = [(t[:k], t[k:]) for t, k in zip(tokens, lefts, strict=True) if k]
    ranks = {token: i for i, token in enumerate(tokens)}
    return PageEncoding(name, data["pat_str"], ranks, data["specials"], merges)


class PageEncoding(Tokenizer):
    """bpe.Tokenizer with tiktoken.Encoding's attributes and defaults.

    As in tiktoken, ``encode`` allows no special token unless told to, and raises on
    one in the text.
    """

    def __init__(
        self,
        name: str,
        pat_str: str,
        mergeable_ranks: dict[bytes, int],
        special_tokens: dict[str, int],
        merges: list[tuple[bytes, bytes]],
    ):
        vocab = {rank: token for token, rank in mergeable_ranks.items()}
        vocab.update({i: s.encode("utf-8") for s, i in special_tokens.items()})
        specials = sorted(special_tokens, key=special_tokens.get)
        super().__init__(vocab, merges, specials, pat_str)
        self.name, self._pat_str = name, pat_str
        self._mergeable_ranks = mergeable_ranks
        self._special_tokens = dict(special_tokens)

    def encode(
        self,
        text: str,
        allowed_special: Any = frozenset(),
        disallowed_special: Any = "all",
    ) -> list[int]:
        return super().encode(text, allowed_special, disallowed_special)

    @property
    def max_token_value(self) -> int:
        return self.n_vocab - 1

    @property
    def eot_token(self) -> int:
        return self._special_tokens[ENDOFTEXT]

    @property
    def special_tokens_set(self) -> set[str]:
        return set(self._special_tokens)

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"
