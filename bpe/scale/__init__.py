"""The same results on large inputs, fast: what the chapter "Making it fast" explains.

``indexed`` learns the naive trainer's merges without recounting; ``cuts`` and
``parallel`` count a large file's pre-tokens over processes in bounded memory;
``pipeline`` turns that into ``train_file``. For encoding, ``piece`` gives
``encode_word``'s answer on integer ids, with a cache; ``stream`` encodes and
decodes in pieces; ``batch`` and ``workers`` share ``encode_batch`` over processes
a tokenizer keeps. ``cli`` is the ``bpe`` command.

Everywhere in this package, ``workers=N`` means N processes doing the work at
once, the calling process included.
"""
