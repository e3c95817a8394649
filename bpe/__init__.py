"""bpe: byte-level byte-pair encoding, small enough to read, exact enough to trust.

>>> import bpe
>>> vocab, merges = bpe.train("low low lower", 260, specials=[bpe.ENDOFTEXT])
>>> tok = bpe.Tokenizer(vocab, merges, specials=[bpe.ENDOFTEXT])
>>> tok.decode(tok.encode("lowest<|endoftext|>"))
'lowest<|endoftext|>'

The core, these top-level modules, is what the book teaches: ``pretokenize`` (the
regex and special tokens), ``train`` (count pairs, merge, repeat), ``tokenizer``
(encode by rank, decode) and ``files`` (GPT-2's vocab.json and merges.txt). Around
it, in subpackages: ``scale`` (the same results, fast, on large inputs, and the
``bpe`` command), ``interop`` (tiktoken, Hugging Face, OpenAI's encodings),
``disk`` (atomic writes) and ``book`` (what only the book needs). ``import bpe``
gives the core's names.
"""

from .files import bytes_to_unicode
from .pretokenize import ENDOFTEXT, PAT, pretokenize, pretokens, split_special, to_bytes
from .tokenizer import Tokenizer, encode_word
from .train import count_pairs, greater_pair, lowest_ids, merge, train

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
