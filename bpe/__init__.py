"""bpe: byte-level byte-pair encoding, small enough to read, exact enough to trust.

>>> import bpe
>>> vocab, merges = bpe.train("low low lower", 260, specials=[bpe.ENDOFTEXT])
>>> tok = bpe.Tokenizer(vocab, merges, specials=[bpe.ENDOFTEXT])
>>> tok.decode(tok.encode("lowest<|endoftext|>"))
'lowest<|endoftext|>'

The core, these top-level modules, is what the book teaches:

- ``pretokenizer``: the regex that cuts text into pre-tokens, and special tokens;
- ``trainer``: count pairs, merge the most frequent, repeat (the naive loop);
- ``tokenizer``: encode by rank, decode;
- ``files``: GPT-2's vocab.json and merges.txt;
- ``__main__``: ``python -m bpe``, the ``bpe`` command of ``scale.cli``.

The core imports no other part of the package. Around it: ``scale`` (the same
results, fast, and the ``bpe`` command), ``interop`` (tiktoken, Hugging Face,
OpenAI's encodings), ``disk`` (atomic writes), ``data`` (the pinned data files),
``measure`` (speed beside the peers) and ``book`` (what only the book needs).

Training has three homes (``bpe.trainer`` says which does what): the core's
``from bpe.trainer import train``, which the book teaches; ``bpe.train``
(``bpe.scale.training``), the same merges with faster parts plugged in; and
``bpe.scale.pipeline`` on files, shards and streams (``train_file``,
``train_files``, ``train_iterator``). Likewise ``bpe.Tokenizer`` is
``bpe.scale.tokenizer``'s, the core's ``bpe.tokenizer.Tokenizer`` with a faster
encoder: the same ids. Functions are named for what they do (``bpe.train``), the
core's modules for what they are (``bpe.trainer``), so that no name hides the other.
"""

from .files import bytes_to_unicode
from .pretokenizer import (
    ENDOFTEXT,
    PAT,
    pretokenize,
    pretokens,
    split_special,
    to_bytes,
)
from .scale.compiled import status as compiled
from .scale.tokenizer import Tokenizer
from .scale.training import train
from .tokenizer import encode_word
from .trainer import count_pairs, greater_pair, lowest_ids, merge

__all__ = [
    "ENDOFTEXT",
    "PAT",
    "Tokenizer",
    "bytes_to_unicode",
    "compiled",
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
