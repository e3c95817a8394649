"""bpe: byte-level byte-pair encoding, small enough to read, exact enough to trust.

>>> import bpe
>>> vocab, merges = bpe.train("low low lower", 260, specials=[bpe.ENDOFTEXT])
>>> tok = bpe.Tokenizer(vocab, merges, specials=[bpe.ENDOFTEXT])
>>> tok.decode(tok.encode("lowest<|endoftext|>"))
'lowest<|endoftext|>'

The package comes in layers; imports only ever point down this list.

* **The core**, these top-level modules, is what the book teaches, readable top to
  bottom: ``utf8`` (text as bytes), ``pretokenize`` (the regex and special tokens),
  ``train`` (count pairs, merge, repeat), ``tokenizer`` (encode by rank, decode,
  the ``Tokenizer``) and ``files`` (GPT-2's vocab.json / merges.txt).
* ``bpe.scale``: the same results on large inputs, fast: the indexed trainer,
  parallel counting of a file and ``train_file``, the fast word encoder and its
  cache, streaming, ``encode_batch``'s worker processes, and the ``bpe`` command.
* ``bpe.interop``: tiktoken and Hugging Face formats, and OpenAI's encodings offline.
* ``bpe.book``: what only the book needs: its data, measurements, tables, figures
  and the in-page explorer. Nothing outside it imports it.

``import bpe`` gives the core's names; the layers are imported by name.
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
