"""What only the book needs; training, encoding and saving never import it.

The chapters' data and figures:

- ``data``: the registry of pinned data files, read from a mirror, a cache or online;
- ``corpora``: the texts the chapters read, built from those files;
- ``analysis``: compression, a vocabulary's shape, how two vocabularies differ;
- ``article``: the data chapters' figures, on any data, the article's too;
- ``article_figures``: every figure the article and the lesson print, quoted;
- ``ledger``: the reproducibility ledger, the article's figures beside the book's;
- ``scaling``: training at growing sizes, for "Faster still";
- ``word_corpora``: made-up words whose distinct pre-tokens grow with the text;
- ``peers``: this package's training beside rustbpe's and Hugging Face's, each run
  in a fresh process (chapter 16 and ``make bench``);
- ``subword``: the other subword algorithms, trained with ``tokenizers``;
- ``divergence``: five trainers' rules, and where and why two merge lists part
  (chapter 18);
- ``units``: words, characters, bytes or tokens as a vocabulary's units;
- ``utf8``: UTF-8 facts the book relies on, computed;
- ``timing``: speed measured on a machine whose speed drifts.

What the reader sees:

- ``display``: tokens, counts, merges and traces as text and tables (it formats
  the package's results; it never shows code);
- ``show_source``: the package's own source, shown in a chapter (what the reader
  reads is what runs);
- ``table``: the table both draw, with the standard library alone;
- ``regex_parts``: a pre-tokenizer pattern taken apart, one alternative a row;
- ``toy``: the lesson's toy tokenizer of chapter 00;
- ``quiz``: the quizzes of part 1;
- ``exercises``: the exercises' checks (a subpackage);
- ``widget``: the merge explorer as a notebook output, with ``explorer.js`` and
  ``bpe.js`` inlined.

The site:

- ``site``: where the book lives (``repository.url`` in ``_config.yml``);
- ``numbers``: exercise and figure numbers from a chapter's file name (a Sphinx
  extension);
- ``source_archive``: the book's source as one zip file, "Get the code";
- ``playground``: the token playground's files, built from the package;
- ``jspattern``: pre-tokenizer patterns rewritten for JavaScript's ``RegExp``;
- ``live``: the chapters' cells run in the reader's browser (a subpackage).
"""
