"""Writing to disk so that nothing is ever half-written: ``atomic``.

Used by ``bpe.Tokenizer.save`` and by the book's data cache and ledger.
"""
