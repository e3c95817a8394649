"""Other tools' formats: ``ranks`` (tiktoken), ``huggingface`` (``tokenizers``'
tokenizer.json), and ``openai``, OpenAI's released encodings loaded offline.
"""
