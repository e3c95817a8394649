"""The core's results, fast, on large inputs: ``bpe.train`` and ``bpe.Tokenizer``.

``training`` is ``bpe.train``: pre-tokens counted word by word (``word_counts``)
and merges learned by the indexed trainer with a heap (``indexed``). ``tokenizer``
is ``bpe.Tokenizer``: the ASCII fast path (``ascii_pattern``), pieces encoded on
integer ids (``piece``), ``encode_batch`` over helper processes (``batch``),
streams (``stream``). ``pipeline`` trains on files, shards, iterators and Dask,
from parts (``sources``) cut at safe places (``cuts``); ``pool`` is the one way
work is shared between processes; ``cli`` is the ``bpe`` command.
"""
