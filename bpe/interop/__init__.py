"""Other tools' formats: ``ranks`` (tiktoken), ``huggingface`` (``tokenizers``'
tokenizer.json), ``openai``, OpenAI's released encodings loaded offline, and
``unicode``, pre-tokenizing with tiktoken's Unicode tables so ids match theirs.
"""
