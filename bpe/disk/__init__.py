"""Writing to disk so that nothing is ever half-written: ``atomic``.

Used by the core's ``Tokenizer.save`` and by the book's data cache and ledger.
"""
