"""What the chapters call: what a reader sees printed, drawn or explored.

- ``display``: tokens, counts, merges and traces as text and tables;
- ``table``: the table ``display`` draws, with the standard library alone;
- ``show_source``: the package's own source, shown in a chapter (what the reader
  reads is what runs);
- ``regex_parts``: a pre-tokenizer pattern taken apart, one alternative a row;
- ``toy``: the lesson's toy tokenizer (chapter 0);
- ``units``: words, characters, bytes or tokens as a vocabulary's units (chapter 1);
- ``utf8``: UTF-8 facts the book relies on, computed (chapter 2);
- ``explorer``: the merge explorer as a notebook output, with its scripts
  ``explorer.js`` and ``bpe.js`` (the JavaScript BPE) inlined (chapter 4);
- ``charts``: the charts' style, readable on a phone (every chapter that draws),
  sideways bars (chapter 10), peers and map-reduce figures (chapters 16 and 18);
- ``analysis``: compression, a vocabulary's shape, how two vocabularies differ;
- ``subword``: the other subword algorithms, trained with ``tokenizers`` (chapter 11);
- ``divergence``: five trainers' rules, and where and why two merge lists part
  (chapter 20).
"""
