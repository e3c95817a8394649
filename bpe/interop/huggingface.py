"""Converting a Tokenizer to and from a Hugging Face ``tokenizers`` byte-level BPE.

Hugging Face keeps merges, as this package does, and spells bytes with GPT-2's
table in ``tokenizer.json`` (``files.py``); ``ranks.py`` is the tiktoken twin.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import PathLike, text_to_token, token_to_text
from .ranks import ranks_of

if TYPE_CHECKING:
    from ..tokenizer import Tokenizer
    from ..trainer import Pair


def to_huggingface(tokenizer: Tokenizer, path: PathLike | None = None) -> Any:
    """A tokenizers.Tokenizer: the same regex split, alphabet, merges and specials."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        pre_tokenizers,
    )

    if tokenizer.pattern is None:
        raise ValueError(
            "a Hugging Face byte-level tokenizer needs a pre-tokenizer pattern"
        )
    vocab = {token_to_text(tok): i for tok, i in ranks_of(tokenizer).items()}
    # A special token found in the model's vocabulary keeps its id there; one that is
    # not would take the next id after the largest (not where an extension has it).
    vocab.update(tokenizer.special_id)
    merges = [(token_to_text(a), token_to_text(b)) for a, b in tokenizer.merges]
    hf = Tokenizer(models.BPE(vocab=vocab, merges=merges, ignore_merges=False))
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(tokenizer.pattern), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    hf.decoder = decoders.ByteLevel()
    hf.add_special_tokens(
        [AddedToken(s, special=True, normalized=False) for s in tokenizer.specials]
    )
    if path is not None:
        hf.save(str(path))
    return hf


def from_huggingface(
    path: PathLike,
) -> tuple[dict[int, bytes], list[Pair], list[str], str]:
    """(vocab, merges, specials, pattern) from a byte-level BPE tokenizer.json."""
    try:
        config = json.loads(Path(path).read_text(encoding="utf-8"))
        model = config["model"]
        if model.get("type") != "BPE":
            raise ValueError(
                f"{path}: model type {model.get('type')!r}, expected 'BPE'"
            )
        splits = [
            p for p in config["pre_tokenizer"]["pretokenizers"] if p["type"] == "Split"
        ]
        pattern = splits[0]["pattern"]["Regex"]
        vocab = {
            i: text_to_token(t, f"{path} vocab") for t, i in model["vocab"].items()
        }
        merges = [
            tuple(
                text_to_token(p, f"{path} merge {n}")
                for p in (m.split(" ") if isinstance(m, str) else m)
            )
            for n, m in enumerate(model["merges"])
        ]
        added = [t for t in config.get("added_tokens", []) if t.get("special")]
    except (
        KeyError,
        IndexError,
        TypeError,
        json.JSONDecodeError,
        UnicodeDecodeError,
    ) as error:
        raise ValueError(
            f"{path}: not a byte-level BPE tokenizer.json this package can read "
            f"({error!r})"
        ) from None
    for token in added:
        vocab[token["id"]] = token["content"].encode("utf-8")
    return vocab, merges, [t["content"] for t in added], pattern
