"""The reproducibility ledger: every figure the article prints, beside the book's own.

Each chapter records the figures it computed with ``record(chapter, {key: value})``,
which writes ``<results>/<chapter>.json``. The ledger chapter reads them all back
and sets them beside ``ARTICLE``, the article's printed figures, each labelled
with the data it came from. Nothing the book reports is typed in here: only the
article's numbers are, as quotations.
"""

import json
import os
from pathlib import Path

from ..disk.atomic import write_atomically

TOY, UNICODE, LESSON = "toy corpus", "Unicode", "lesson's toy text"
TS_VALID, TS_TRAIN = "TinyStoriesV2 valid (22.5 MB)", "TinyStoriesV2 train (2.2 GB)"
TS_1M, OPUS = (
    "TinyStoriesV2, first 1,000,000 characters",
    "OPUS-100 en-vi test (2,000 pairs)",
)
GPT2 = "OpenAI's released encodings"

# key: (what, the article's value, the data it was computed on)
ARTICLE = {
    "lesson.bytes": ("lesson: bytes of training text", 1120, LESSON),
    "lesson.tokens": ("lesson: tokens after training", 82, LESSON),
    "lesson.merges": ("lesson: merges learned", 24, LESSON),
    "lesson.lowest_widest": ("lesson: tokens for 'lowest widest'", 4, LESSON),
    "lesson.naive_cafe": ("lesson: tokens for 'naïve café 🙂'", 17, LESSON),
    "lesson.first8": (
        "lesson: first eight new tokens",
        "lo low ␣low ␣w de ide st ␣wide",
        LESSON,
    ),
    "utf8.bytes": ("UTF-8 bytes of s é à 牛 🙃", "1 2 2 3 4", UNICODE),
    "utf8.hello": ("'héllo': characters, bytes", "5, 6", UNICODE),
    "utf8.xin_chao": ("'Xin chào': characters, bytes", "8, 9", UNICODE),
    "utf8.census": (
        "code points by UTF-8 length 1/2/3/4",
        "128 / 1,920 / 61,440 / 1,048,576",
        UNICODE,
    ),
    "utf8.total": ("encodable code points", 1112064, UNICODE),
    "utf8.ascii_inside": ("bytes < 0x80 inside a multi-byte character", 0, UNICODE),
    "pretok.distinct": ("toy: distinct pre-tokens", 8, TOY),
    "pretok.occurrences": ("toy: pre-token occurrences", 19, TOY),
    "pretok.accomplishment": (
        "gpt2: tokens for 'accomplishment' / ' accomplishment'",
        "3 / 1",
        GPT2,
    ),
    "pretok.no_regex": (
        "first 20 merges without a pre-tokenizer",
        "e␣ d␣ th ␣a .␣ t␣ y␣ s␣ nd␣ to er ed␣ the␣ ,␣ wa in he␣ to␣ ␣and␣ ou",
        TS_1M,
    ),
    "pretok.with_regex": (
        "first 20 merges with GPT-2's regex",
        "he ␣t ␣a ␣s ␣w ␣the nd ed ␣b ␣to ␣and ␣h ␣T ␣f ␣wa in it re ou ␣l",
        TS_1M,
    ),
    "pairs.distinct": ("toy: distinct adjacent pairs", 14, TOY),
    "merge.tokens": (
        "toy: the eight merges",
        "st est ow low west ne newest ␣newest",
        TOY,
    ),
    "merge.counts": ("toy: winning counts", "9 9 7 7 6 6 6 5", TOY),
    "merge.eot_id": ("toy: id of <|endoftext|>", 264, TOY),
    "encode.newest": ("toy: ids for '␣newest'", "[263]", TOY),
    "encode.lowest": ("toy: ids for 'lowest'", "[259, 257]", TOY),
    "encode.newer": ("toy: ids for 'newer'", "[261, 119, 101, 114]", TOY),
    "encode.whole": ("toy: whole string, bytes -> tokens", "46 -> 21", TOY),
    "encode.bpt": ("toy: bytes per token", "2.19", TOY),
    "encode.gpt2": ("gpt2: tokens for 'the lowest widest fox newest lower'", 6, GPT2),
    "decode.partial": ("first two bytes of 🙃 decode to", "'�'", UNICODE),
    "files.kept": ("byte table: kept / moved", "188 / 68", UNICODE),
    "fast.distinct": ("distinct pre-tokens in the corpus", 13111, TS_VALID),
    "fast.merges": ("merges for a 10,000-token vocabulary", 9743, TS_VALID),
    "fast.eot_id": ("id of <|endoftext|> at 10,000 tokens", 9999, TS_VALID),
    "fast.checks": (
        "indexed == naive, heap == naive, tables equal across workers, heap == scan",
        "True True True True",
        TS_VALID,
    ),
    "stories.heldout_bytes": ("200 held-out stories: bytes", 156695, TS_VALID),
    "stories.tokens": ("held out: tokens, this tokenizer", 38337, TS_TRAIN),
    "stories.bpt": ("held out: bytes per token, this tokenizer", "4.09", TS_TRAIN),
    "stories.gpt2_tokens": ("held out: tokens, GPT-2", 38775, TS_VALID),
    "stories.gpt2_bpt": ("held out: bytes per token, GPT-2", "4.04", TS_VALID),
    "stories.round_trip": ("held out: exact round trips", "200 of 200", TS_VALID),
    "stories.first12": (
        "first 12 merges",
        "␣t he ␣a ␣s ␣w nd ␣the ed ␣b ␣to ␣and ␣h",
        TS_TRAIN,
    ),
    "stories.longest": (
        "ten longest tokens",
        "␣accomplishment ␣disappointment ␣responsibility ␣Unfortunately "
        "␣compassionate ␣congratulated ␣determination ␣encouragement ␣extraordinary "
        "␣granddaughter",
        TS_TRAIN,
    ),
    "stories.space": (
        "learned tokens starting with a space",
        "7,277 of 9,743 (75%)",
        TS_TRAIN,
    ),
    "stories.lengths": (
        "learned tokens by length 2..15",
        "360 912 1450 1835 1666 1264 1030 602 328 178 78 26 11 3",
        TS_TRAIN,
    ),
    "stories.example": (
        "tokens for the example sentence, this tokenizer / GPT-2",
        "11 / 11",
        TS_TRAIN,
    ),
    "stories.small_shared": (
        "vocabulary shared with the small-data tokenizer",
        "8,825 of 10,000",
        TS_TRAIN,
    ),
    "stories.small_first_diff": (
        "first differing merge, full vs small data",
        6,
        TS_TRAIN,
    ),
    "lang.en_stats": (
        "English characters / bytes / words",
        "80,240 / 80,282 / 15,183",
        OPUS,
    ),
    "lang.vi_stats": (
        "Vietnamese characters / bytes / words",
        "77,721 / 100,460 / 17,437",
        OPUS,
    ),
    "lang.gpt2": ("gpt2: en tokens, vi tokens, vi/en", "22,689 66,891 2.95x", OPUS),
    "lang.cl100k_base": (
        "cl100k_base: en tokens, vi tokens, vi/en",
        "20,756 39,686 1.91x",
        OPUS,
    ),
    "lang.o200k_base": (
        "o200k_base: en tokens, vi tokens, vi/en",
        "19,947 25,470 1.28x",
        OPUS,
    ),
    "lang.tinystories": (
        "TinyStories tokenizer: en tokens, vi tokens, vi/en",
        "25,938 76,892 2.96x",
        OPUS,
    ),
    "lang.xin_chao": (
        "'Xin chào thế giới': tokens gpt2 / cl100k / o200k",
        "15 / 9 / 5",
        GPT2,
    ),
    "lang.xin_chao_size": ("'Xin chào thế giới': characters, bytes", "17, 22", UNICODE),
    "digits.gpt2": ("gpt2 splits 12345678", "123|45|678", GPT2),
    "digits.cl100k": ("cl100k_base splits 12345678", "123|456|78", GPT2),
}


def beside(figures, data):
    """Rows setting figures {key: value} computed on ``data`` beside the article's, for a chapter's table."""
    return [
        {
            "figure": ARTICLE[key][0],
            "article": ARTICLE[key][1],
            "article's data": ARTICLE[key][2],
            "book": value,
            "book's data": data,
        }
        for key, value in figures.items()
    ]


def results_dir():
    """Where chapters write their figures: $BPE_RESULTS, or _build/results in the repository."""
    value = os.environ.get("BPE_RESULTS", "")
    return (
        Path(value)
        if value
        else Path(__file__).resolve().parents[2] / "_build" / "results"
    )


def record(chapter, figures, data):
    """Write a chapter's figures {key: value} as computed on ``data`` (a label) to <results>/<chapter>.json."""
    unknown = sorted(set(figures) - set(ARTICLE))
    if unknown:
        raise KeyError(f"not figures the article prints: {unknown}")
    folder = results_dir()
    folder.mkdir(parents=True, exist_ok=True)
    entries = {key: {"value": value, "data": data} for key, value in figures.items()}
    write_atomically(
        folder / f"{chapter}.json", json.dumps(entries, ensure_ascii=False, indent=1)
    )
    return len(entries)


def collect():
    """Every recorded figure, {key: {"value", "data", "chapter"}}, from all chapters' files."""
    found = {}
    for file in sorted(results_dir().glob("*.json")):
        for key, entry in json.loads(file.read_text(encoding="utf-8")).items():
            found[key] = {**entry, "chapter": file.stem}
    return found


def status(article_value, article_data, book):
    """exact / differs / different data / needs the article edition."""
    if book is None:
        return "needs the article edition"
    same = str(book["value"]) == str(article_value)
    if book["data"] == article_data:
        return "exact" if same else "DIFFERS on the same data"
    return ("same value, " if same else "") + f"different data: {book['data']}"


def rows():
    """One row per article figure: what, article value and data, book value and data, status."""
    found = collect()
    table = []
    for key, (what, value, data) in ARTICLE.items():
        book = found.get(key)
        table.append(
            {
                "figure": what,
                "article": value,
                "article's data": data,
                "book": None if book is None else book["value"],
                "book's data": None if book is None else book["data"],
                "status": status(value, data, book),
            }
        )
    return table
