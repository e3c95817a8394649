"""Every figure the article and the lesson print, as quotations, for the ledger.

Each entry is ``key: Figure(what, value, data, kind)``: the article's value as it
prints it, the data it was computed on, and its kind. ``count`` figures are
deterministic and can match exactly; ``timing`` figures (seconds, memory) depend on
the machine; ``cited`` figures come from a source the article quotes. ``only``
marks figures about the 2.2 GB file itself, which no substitute reproduces: the
book sets its nearest figure beside them. The keys'
prefixes name the article's sections, in order (``SECTIONS``). Nothing the book
computes is typed here.
"""

from __future__ import annotations

from typing import NamedTuple

# the data the article's figures come from
TOY, UNICODE, LESSON = "toy corpus", "Unicode", "lesson's toy text"
TS_VALID, TS_TRAIN = "TinyStoriesV2 valid, 22.5 MB", "TinyStoriesV2 train, 2.2 GB"
TS_1M = "TinyStoriesV2, first 1M characters"
OPUS = "OPUS-100 en-vi test, 2,000 pairs"
GPT2 = "OpenAI's encodings"
SOURCE = "a cited source"


class Figure(NamedTuple):
    what: str
    value: object
    data: str
    kind: str = "count"  # count, timing or cited
    only: bool = False  # only the article's data gives it; the book shows its nearest


SECTIONS = {
    "lesson": "The lesson's toy tokenizer",
    "utf8": "Start from bytes, not characters",
    "pretok": "Step 1: pre-tokenization",
    "pairs": "Step 2: count adjacent pairs",
    "merge": "Step 3: the merge loop",
    "encode": "Encoding",
    "decode": "Decoding and special tokens",
    "files": "Writing it to disk",
    "fast": "Making it fast, and where the time goes",
    "stories": "What 2.2 GB of stories teaches",
    "lang": "What a tokenizer costs Vietnamese",
    "where": "Where this leads",
    "practice": "The lesson: why this matters in practice",
}

ARTICLE = {
    "lesson.bytes": Figure("bytes of training text", 1120, LESSON),
    "lesson.tokens": Figure("tokens after training", 82, LESSON),
    "lesson.ratio": Figure("bytes per token after training", "13.7", LESSON),
    "lesson.merges": Figure("merges learned", 24, LESSON),
    "lesson.lowest_widest": Figure("tokens for 'lowest widest'", 4, LESSON),
    "lesson.naive_cafe": Figure("tokens for 'naïve café 🙂'", 17, LESSON),
    "lesson.first8": Figure(
        "first eight new tokens", "lo low ␣low ␣w de ide st ␣wide", LESSON
    ),
    "utf8.ord": Figure("ord('s'), ord('牛')", "115, 29,275", UNICODE),
    "utf8.unicode_characters": Figure(
        "characters defined by Unicode 18.0", "172,808", SOURCE, "cited"
    ),
    "utf8.gpt2_base": Figure(
        "code-point base vocabulary (GPT-2 paper, 2019)",
        "over 130,000",
        SOURCE,
        "cited",
    ),
    "utf8.websites": Figure(
        "websites that use UTF-8 (W3Techs, October 2026)", "about 99%", SOURCE, "cited"
    ),
    "utf8.bytes": Figure("UTF-8 bytes of s é à 牛 🙃", "1 2 2 3 4", UNICODE),
    "utf8.hello": Figure("'héllo': characters, bytes", "5, 6", UNICODE),
    "utf8.xin_chao": Figure("'Xin chào': characters, bytes", "8, 9", UNICODE),
    "utf8.census": Figure(
        "code points by UTF-8 length 1/2/3/4",
        "128 / 1,920 / 61,440 / 1,048,576",
        UNICODE,
    ),
    "utf8.total": Figure("encodable code points", 1112064, UNICODE),
    "utf8.range": Figure(
        "code points in Unicode's range / surrogates", "1,114,112 / 2,048", UNICODE
    ),
    "utf8.ascii_inside": Figure(
        "bytes < 0x80 inside a multi-byte character", 0, UNICODE
    ),
    "pretok.words": Figure("toy: words in the corpus", 16, TOY),
    "pretok.distinct": Figure("toy: distinct pre-tokens", 8, TOY),
    "pretok.occurrences": Figure("toy: pre-token occurrences", 19, TOY),
    "pretok.table": Figure(
        "toy: the pre-token table",
        "␣newest 5, ␣low 4, ⏎ 3, ␣widest 3, ␣lower 1, low 1, lower 1, newest 1",
        TOY,
    ),
    "pretok.accomplishment": Figure(
        "gpt2: tokens for 'accomplishment' / ' accomplishment'", "3 / 1", GPT2
    ),
    "pretok.no_regex": Figure(
        "first 20 merges without a pre-tokenizer",
        "e␣ d␣ th ␣a .␣ t␣ y␣ s␣ nd␣ to er ed␣ the␣ ,␣ wa in he␣ to␣ ␣and␣ ou",
        TS_1M,
    ),
    "pretok.no_regex_space": Figure(
        "without a pre-tokenizer: of the first ten merges, those ending in a space",
        7,
        TS_1M,
    ),
    "pretok.with_regex": Figure(
        "first 20 merges with GPT-2's regex",
        "he ␣t ␣a ␣s ␣w ␣the nd ed ␣b ␣to ␣and ␣h ␣T ␣f ␣wa in it re ou ␣l",
        TS_1M,
    ),
    "pairs.distinct": Figure("toy: distinct adjacent pairs", 14, TOY),
    "pairs.table": Figure(
        "toy: pair counts",
        "es 9, st 9, we 8, lo 7, ow 7, ew 6, ne 6, ␣l 5, ␣n 5, ␣w 3, "
        "de 3, id 3, wi 3, er 2",
        TOY,
    ),
    "merge.vocab_size": Figure(
        "toy: vocabulary size (256 + 8 merges + 1 special)", 265, TOY
    ),
    "merge.tokens": Figure(
        "toy: the eight merges", "st est ow low west ne newest ␣newest", TOY
    ),
    "merge.counts": Figure("toy: winning counts", "9 9 7 7 6 6 6 5", TOY),
    "merge.ties": Figure(
        "toy: pairs sharing the top count, merges 1 to 8", "2 1 2 1 3 2 1 2", TOY
    ),
    "merge.eot_id": Figure("toy: id of <|endoftext|>", 264, TOY),
    "encode.newest": Figure("toy: ids for '␣newest'", "[263]", TOY),
    "encode.newest_steps": Figure("toy: merges applied to encode '␣newest'", 6, TOY),
    "encode.lowest": Figure("toy: ids for 'lowest'", "[259, 257]", TOY),
    "encode.lowest_steps": Figure("toy: merges applied to encode 'lowest'", 4, TOY),
    "encode.newer": Figure("toy: ids for 'newer'", "[261, 119, 101, 114]", TOY),
    "encode.zzqq": Figure("toy: ids for 'zzqq'", "[122, 122, 113, 113]", TOY),
    "encode.whole_ids": Figure(
        "toy: ids for the whole string",
        "[116, 104, 101, 32, 259, 257, 32, 119, 105, 100, 257, 32, "
        "102, 111, 120, 264, 262, 32, 259, 101, 114]",
        TOY,
    ),
    "encode.whole": Figure("toy: whole string, bytes -> tokens", "46 -> 21", TOY),
    "encode.bpt": Figure("toy: bytes per token", "2.19", TOY),
    "encode.round_trip": Figure("toy: whole string round trip", "True", TOY),
    "encode.gpt2": Figure(
        "gpt2: tokens for 'the lowest widest fox newest lower'", 6, GPT2
    ),
    "decode.emoji": Figure("ids of '🙃'", "[240, 159, 153, 131]", UNICODE),
    "decode.partial": Figure("first two bytes of 🙃 decode to", "'�'", UNICODE),
    "files.kept": Figure("byte table: kept / moved", "188 / 68", UNICODE),
    "files.moved": Figure("space / newline / byte 0 in the files", "Ġ Ċ Ā", UNICODE),
    "files.round_trip": Figure(
        "toy: load(save(...)) gives the same tokenizer", "True", TOY
    ),
    "fast.checks": Figure(
        "indexed == naive, heap == naive, tables equal across workers, heap == scan",
        "True True True True",
        TS_VALID,
    ),
    "fast.distinct": Figure("distinct pre-tokens in the corpus", 13111, TS_VALID),
    "fast.total": Figure("pre-token occurrences in the corpus", "5,419,001", TS_VALID),
    "fast.merges": Figure("merges for a 10,000-token vocabulary", 9743, TS_VALID),
    "fast.eot_id": Figure("id of <|endoftext|> at 10,000 tokens", 9999, TS_VALID),
    "fast.pretokenize": Figure("pre-tokenize (s)", "0.8", TS_VALID, "timing"),
    "fast.scan": Figure(
        "scan: pick / apply / total (s)", "6.0 / 0.3 / 7.1", TS_VALID, "timing"
    ),
    "fast.heap": Figure(
        "heap: pick / apply / total (s)", "0.1 / 0.3 / 1.3", TS_VALID, "timing"
    ),
    "fast.scan_shares": Figure(
        "scan: pre-tokenize / pick / apply share", "12% / 84% / 4%", TS_VALID, "timing"
    ),
    "fast.heap_shares": Figure(
        "heap: pre-tokenize / pick / apply share", "66% / 10% / 24%", TS_VALID, "timing"
    ),
    "fast.memory": Figure(
        "peak memory: main / largest worker (MiB)", "77 / 58", TS_VALID, "timing"
    ),
    "fast.train_bytes": Figure(
        "training file: bytes", "2,227,753,162", TS_TRAIN, only=True
    ),
    "fast.train_distinct": Figure(
        "training file: distinct pre-tokens", "59,933", TS_TRAIN, only=True
    ),
    "fast.train_total": Figure(
        "training file: pre-token occurrences", "536,592,168", TS_TRAIN, only=True
    ),
    "fast.train_pretokenize": Figure(
        "training file: pre-tokenize (s)", "85.5", TS_TRAIN, "timing", only=True
    ),
    "fast.train_scan": Figure(
        "training file, scan: pick / apply / total (s)",
        "24.7 / 1.3 / 111.5",
        TS_TRAIN,
        "timing",
        only=True,
    ),
    "fast.train_heap": Figure(
        "training file, heap: pick / apply / total (s)",
        "0.5 / 2.2 / 88.2",
        TS_TRAIN,
        "timing",
        only=True,
    ),
    "fast.train_scan_shares": Figure(
        "training file, scan: pre-tokenize / pick / apply",
        "77% / 22% / 1%",
        TS_TRAIN,
        "timing",
        only=True,
    ),
    "fast.train_heap_shares": Figure(
        "training file, heap: pre-tokenize / pick / apply",
        "97% / 1% / 2%",
        TS_TRAIN,
        "timing",
        only=True,
    ),
    "fast.train_memory": Figure(
        "training file: peak memory main / largest worker (MiB)",
        "161 / 769",
        TS_TRAIN,
        "timing",
        only=True,
    ),
    "fast.train_chunk": Figure(
        "training file: bytes per worker (MiB)", "about 266", TS_TRAIN, only=True
    ),
    "fast.handout": Figure(
        "CS336 handout's target for training", "under 2 minutes", SOURCE, "cited"
    ),
    "stories.markers": Figure(
        "<|endoftext|> markers in the training file", "2,717,699", TS_TRAIN, only=True
    ),
    "stories.heldout_bytes": Figure("200 held-out stories: bytes", 156695, TS_VALID),
    "stories.tokens": Figure("held out: tokens, this tokenizer", 38337, TS_TRAIN),
    "stories.bpt": Figure(
        "held out: bytes per token, this tokenizer", "4.09", TS_TRAIN
    ),
    "stories.gpt2_tokens": Figure("held out: tokens, GPT-2", 38775, TS_VALID),
    "stories.gpt2_bpt": Figure("held out: bytes per token, GPT-2", "4.04", TS_VALID),
    "stories.round_trip": Figure("held out: exact round trips", "200 of 200", TS_VALID),
    "stories.first12": Figure(
        "first 12 merges", "␣t he ␣a ␣s ␣w nd ␣the ed ␣b ␣to ␣and ␣h", TS_TRAIN
    ),
    "stories.longest": Figure(
        "ten longest tokens",
        "␣accomplishment ␣disappointment ␣responsibility "
        "␣Unfortunately ␣compassionate ␣congratulated ␣determination "
        "␣encouragement ␣extraordinary ␣granddaughter",
        TS_TRAIN,
    ),
    "stories.space": Figure(
        "learned tokens starting with a space", "7,277 of 9,743 (75%)", TS_TRAIN
    ),
    "stories.lengths": Figure(
        "learned tokens by length 2..15",
        "360 912 1450 1835 1666 1264 1030 602 328 178 78 26 11 3",
        TS_TRAIN,
    ),
    "stories.example": Figure(
        "tokens for the example sentence, this tokenizer / GPT-2", "11 / 11", TS_TRAIN
    ),
    "stories.small_shared": Figure(
        "vocabulary shared with the small-data tokenizer", "8,825 of 10,000", TS_TRAIN
    ),
    "stories.small_first_diff": Figure(
        "first differing merge, full vs small data", 6, TS_TRAIN
    ),
    "stories.small_time": Figure(
        "training time, small data / full data (s)",
        "1.3 / 88",
        TS_TRAIN,
        "timing",
        only=True,
    ),
    "lang.en_stats": Figure(
        "English characters / bytes / words", "80,240 / 80,282 / 15,183", OPUS
    ),
    "lang.vi_stats": Figure(
        "Vietnamese characters / bytes / words", "77,721 / 100,460 / 17,437", OPUS
    ),
    "lang.gpt2": Figure(
        "gpt2: en tokens, vi tokens, vi/en", "22,689 66,891 2.95x", OPUS
    ),
    "lang.cl100k_base": Figure(
        "cl100k_base: en tokens, vi tokens, vi/en", "20,756 39,686 1.91x", OPUS
    ),
    "lang.o200k_base": Figure(
        "o200k_base: en tokens, vi tokens, vi/en", "19,947 25,470 1.28x", OPUS
    ),
    "lang.tinystories": Figure(
        "TinyStories tokenizer: en tokens, vi tokens, vi/en",
        "25,938 76,892 2.96x",
        OPUS,
    ),
    "lang.gpt2_bpt": Figure("gpt2: en / vi bytes per token", "3.54 / 1.50", OPUS),
    "lang.cl100k_base_bpt": Figure(
        "cl100k_base: en / vi bytes per token", "3.87 / 2.53", OPUS
    ),
    "lang.o200k_base_bpt": Figure(
        "o200k_base: en / vi bytes per token", "4.02 / 3.94", OPUS
    ),
    "lang.tinystories_bpt": Figure(
        "TinyStories tokenizer: en / vi bytes per token", "3.10 / 1.31", OPUS
    ),
    "lang.xin_chao_size": Figure(
        "'Xin chào thế giới': characters, bytes", "17, 22", UNICODE
    ),
    "lang.xin_chao": Figure(
        "'Xin chào thế giới': tokens gpt2 / cl100k / o200k", "15 / 9 / 5", GPT2
    ),
    "lang.xin_chao_gpt2": Figure(
        "'Xin chào thế giới' split by gpt2",
        "X | in | ␣ch | à | o | ␣th | <E1> | <BA> | <BF> | ␣g | i | "
        "<E1> | <BB> | <9B> | i",
        GPT2,
    ),
    "lang.xin_chao_cl100k": Figure(
        "'Xin chào thế giới' split by cl100k_base",
        "X | in | ␣ch | à | o | ␣th | ế | ␣gi | ới",
        GPT2,
    ),
    "lang.xin_chao_o200k": Figure(
        "'Xin chào thế giới' split by o200k_base", "Xin | ␣ch | ào | ␣thế | ␣giới", GPT2
    ),
    "where.digits_gpt2": Figure("gpt2 splits 12345678", "123|45|678", GPT2),
    "where.digits_cl100k": Figure("cl100k_base splits 12345678", "123|456|78", GPT2),
    "where.byt5": Figure(
        "ByT5: sequence length against a SentencePiece vocabulary",
        "about 4x",
        SOURCE,
        "cited",
    ),
    "practice.tokens_per_word": Figure(
        "English tokens per word, common tokenizers", "about 1.3", SOURCE, "cited"
    ),
    "practice.embedding": Figure(
        "128k vocabulary x width 4,096: embedding parameters", "524M", LESSON
    ),
}
