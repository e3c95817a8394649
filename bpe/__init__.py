"""bpe: byte-level byte-pair encoding, small enough to read, exact enough to trust.

>>> import bpe
>>> vocab, merges = bpe.train("low low lower", 260, specials=[bpe.ENDOFTEXT])
>>> tok = bpe.Tokenizer(vocab, merges, specials=[bpe.ENDOFTEXT])
>>> tok.decode(tok.encode("lowest<|endoftext|>"))
'lowest<|endoftext|>'

The core, these top-level modules, is what the book teaches: ``pretokenize`` (the
regex and special tokens), ``train`` (count pairs, merge, repeat), ``tokenizer``
(encode by rank, decode) and ``files`` (GPT-2's vocab.json and merges.txt). It
imports no other part of the package. Around it, in subpackages: ``scale`` (the
same results, fast, on large inputs, and the ``bpe`` command), ``interop``
(tiktoken, Hugging Face, OpenAI's encodings), ``disk`` (atomic writes) and
``book`` (what only the book needs).

``bpe.train`` and ``bpe.Tokenizer`` are the core's, with the faster parts plugged
in (``scale/training.py``, ``scale/tokenizer.py``): the same merges and ids, fast
on large inputs. The core's own are ``bpe.train.train`` and
``bpe.tokenizer.Tokenizer``, importable as ``from bpe.train import train``.
"""

from .files import bytes_to_unicode
from .pretokenize import ENDOFTEXT, PAT, pretokenize, pretokens, split_special, to_bytes
from .scale.tokenizer import Tokenizer
from .scale.training import train
from .tokenizer import encode_word
from .train import count_pairs, greater_pair, lowest_ids, merge

__all__ = [
    "ENDOFTEXT",
    "PAT",
    "Tokenizer",
    "bytes_to_unicode",
    "count_pairs",
    "encode_word",
    "greater_pair",
    "lowest_ids",
    "merge",
    "pretokenize",
    "pretokens",
    "split_special",
    "to_bytes",
    "train",
]
