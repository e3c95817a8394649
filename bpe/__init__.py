"""bpe: byte-level byte-pair encoding, small enough to read, exact enough to trust.

    import bpe
    vocab, merges = bpe.train(text, vocab_size=300, specials=["<|endoftext|>"])
    tok = bpe.Tokenizer(vocab, merges, specials=["<|endoftext|>"])
    assert tok.decode(tok.encode(text)) == text

Modules, in the order the book introduces them: ``utf8`` (bytes), ``pretokenize``
(regex and special tokens), ``train`` (the naive trainer), ``tokenizer`` (encode
and decode) with ``piece`` (its fast word encoder and cache), ``files`` (GPT-2's
vocab.json / merges.txt), ``openai`` (the real tiktoken encodings, offline),
``stream`` (large inputs), ``batch`` and ``workers`` (many texts over processes), ``interop``
(tiktoken and Hugging Face), ``fast`` (the indexed scan and heap trainers),
``cuts``, ``parallel`` and ``pipeline`` (training on a large file), ``cli`` (the ``bpe``
command), ``data`` and ``corpora`` (the pinned data), ``analysis``, ``article``
and ``ledger`` (the data chapters' figures), ``display`` (tables and traces) and
``timing`` (measuring speed on a noisy machine).
"""
from . import batch, openai
from .files import bytes_to_unicode
from .pretokenize import PAT, pretokenize, split_special, to_bytes
from .tokenizer import Tokenizer, encode_word
from .train import count_pairs, greater_pair, lowest_ids, merge, train

__all__ = [
    "PAT", "Tokenizer", "batch", "bytes_to_unicode", "count_pairs", "encode_word", "greater_pair",
    "lowest_ids", "merge", "openai", "pretokenize", "split_special", "to_bytes", "train",
]
