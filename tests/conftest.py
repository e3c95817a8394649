"""Shared fixtures: the toy corpus, and Hypothesis made deterministic."""

from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run, so a CI failure can be reproduced exactly.
settings.register_profile("bpe", derandomize=True, deadline=None, max_examples=150)
settings.load_profile("bpe")

DATA = Path(__file__).resolve().parents[1] / "data"
EOT = "<|endoftext|>"


@pytest.fixture(scope="session")
def tinystories_train_text():
    """The book's TinyStories training text (needs the data mirror, see bpe/data.py)."""
    from bpe.book.corpora import tinystories_files

    return tinystories_files()[0].read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def toy_corpus():
    return (DATA / "toy_corpus.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def toy(toy_corpus):
    """The article's toy tokenizer: eight merges and one special token."""
    import bpe

    vocab, merges = bpe.train(toy_corpus, 265, specials=[EOT])
    return bpe.Tokenizer(vocab, merges, specials=[EOT])
