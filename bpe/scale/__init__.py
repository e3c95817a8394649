"""The core's results, fast, on large inputs: ``bpe.train`` and ``bpe.Tokenizer``.

Training (the core's own trainer is ``bpe.trainer``, the reference for these):

- ``training`` is ``bpe.train``, on a text in memory: pre-tokens counted word by
  word (``word_counts``), merges learned by the indexed trainer (``indexed``),
  written compactly with a heap (``compact``), or going on from an existing
  vocabulary (``extend``);
- ``pipeline`` trains on files, shards, iterators and Dask: it counts parts
  (``sources``) cut at safe places (``cuts``) in parallel, then learns as
  ``training`` does.

Encoding: ``tokenizer`` is ``bpe.Tokenizer``, with the ASCII fast path
(``ascii_pattern``; for GPT-2's pattern, compiled, ``gpt2_scan``), pieces encoded
on integer ids (``piece``), ``encode_batch`` over helper processes (``batch``) and
streams (``stream``).

Both: ``build`` compiles the hot modules above (``compact``, ``indexed``,
``piece``, ``word_counts``, ``gpt2_scan``) from their own source with Cython when
a C compiler is present, and ``compiled`` decides, at import, whether each runs
compiled or as Python (``_cython`` stands in for Cython's types where it is not
installed); ``pool`` is the one way work is shared between processes; ``cli`` is the
``bpe`` command; ``pattern_atoms`` cuts a pre-tokenizer pattern into atoms for the
rewriters that translate it (the ASCII fast path here, the JavaScript pattern in
``bpe.book.site.jspattern``, the regex stand-in of ``bpe.book.page``).
"""

from .compiled import install

install()  # before any hot module is imported: it may have to run as Python
