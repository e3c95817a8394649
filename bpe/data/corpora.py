"""The texts the chapters read, built from the registered files in ``registry.py``.

TinyStories arrives as GPT-2 token ids (two files of little-endian uint16, id
50256 after each story). Decoding them with the real GPT-2 encoding gives the
stories back byte for byte, which is itself a demonstration that BPE loses
nothing. The last 200 stories are held out; the rest are the training text.
"""

from __future__ import annotations

import array
import hashlib
import sys
from pathlib import Path

from bpe.data import registry as data
from bpe.disk.atomic import write_atomically
from bpe.files import PathLike
from bpe.interop import openai
from bpe.pretokenizer import ENDOFTEXT as EOT

HELDOUT = 200
TINYSTORIES = [
    "tinystories/czhou578-train-gpt2/val.bin",
    "tinystories/czhou578-train-gpt2/test.bin",
]
# sha256 of each file above decoded with GPT-2 (recorded with the files' origin in
# shared/data/SOURCES.md)
DECODED_SHA256 = {
    TINYSTORIES[0]: "6749f841e58f6ac9d65e7b76fae713e8adeb76e6418e62fb36d2e0252e981147",
    TINYSTORIES[1]: "56376126bef78b076ebc6fd899a885d02c39e7993152a4a0be76c249cd647ee5",
}
# sha256 of the two files tinystories_files() builds, so that a damaged cache is
# rebuilt, not trusted
DERIVED_SHA256 = {
    "tinystories_train.txt": (
        "3cf62eca321223aa54eb7e41a4d07585183a6df6532726c76581f44e8e30a887"
    ),
    "tinystories_heldout.txt": (
        "2bc27d672e7ac004cfe2a446153245dce293878332916d87850872bd98b58a27"
    ),
}
EN_VI = {
    "ntrex128": (
        "en-vi/ntrex128/newstest2019-src.eng.txt",
        "en-vi/ntrex128/newstest2019-ref.vie.txt",
    ),
    "tatoeba": (
        "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.eng",
        "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.vie",
    ),
}
NTREX_DOCUMENTS = "en-vi/ntrex128/DOCUMENT_IDS.tsv"  # the news story of each pair


def read_ids(file: PathLike) -> list[int]:
    """The uint16 little-endian token ids stored in a .bin file."""
    ids = array.array("H")
    with open(file, "rb") as f:
        ids.frombytes(f.read())
    if sys.byteorder == "big":
        ids.byteswap()
    return ids.tolist()


def decode_tinystories(name: str) -> str:
    """One registered .bin file decoded with GPT-2, checked against its known sha256."""
    text = openai.get_encoding("gpt2").decode_bytes(read_ids(data.path(name)))
    if hashlib.sha256(text).hexdigest() != DECODED_SHA256[name]:
        raise data.DataError(
            f"{name} did not decode to the recorded text"
            f" (sha256 {DECODED_SHA256[name]})"
        )
    return text.decode("utf-8")


def stories() -> list[str]:
    """All 6,235 stories, in file order, without their <|endoftext|> markers."""
    text = "".join(decode_tinystories(name) for name in TINYSTORIES)
    pieces = text.split(EOT)
    assert pieces[-1] == "", "each story is followed by a marker"
    return pieces[:-1]


def tinystories_files() -> tuple[Path, Path]:
    """(training file, held-out file): each story followed by <|endoftext|>.

    The last 200 stories are the held-out file's. Built once into the data cache;
    later calls reuse the files. The first call prints where the stories come from.
    """
    data.announce(TINYSTORIES)
    folder = data.cache_dir() / "derived"
    train, heldout = (
        folder / "tinystories_train.txt",
        folder / "tinystories_heldout.txt",
    )
    if not all(
        f.is_file() and data.sha256_of(f) == DERIVED_SHA256[f.name]
        for f in (train, heldout)
    ):
        all_stories = stories()
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(heldout, "".join(s + EOT for s in all_stories[-HELDOUT:]))
        write_atomically(train, "".join(s + EOT for s in all_stories[:-HELDOUT]))
    return train, heldout


def heldout_stories() -> list[str]:
    """The 200 held-out stories, as a list of strings without markers."""
    text = tinystories_files()[1].read_text(encoding="utf-8")
    return text.split(EOT)[:-1]


def lines(file: Path) -> list[str]:
    """A text file's lines, without their CRLF or LF endings.

    Other separators (a lone CR, U+2028, ...) stay inside the line.
    """
    text = file.read_text(encoding="utf-8").replace("\r\n", "\n")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def en_vi_pairs(corpus: str = "ntrex128") -> list[tuple[str, str]]:
    """Aligned (English, Vietnamese) sentence pairs from one corpus.

    corpus is "ntrex128" (news) or "tatoeba" (everyday sentences).
    """
    if corpus not in EN_VI:
        raise ValueError(f"unknown corpus {corpus!r}; choose one of {', '.join(EN_VI)}")
    data.announce(list(EN_VI[corpus]))
    en, vi = (lines(data.path(name)) for name in EN_VI[corpus])
    if len(en) != len(vi):
        raise data.DataError(
            f"{corpus}: {len(en)} English lines but {len(vi)} Vietnamese lines"
        )
    return list(zip(en, vi, strict=True))


def ntrex_split(every: int = 5) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(training pairs, held-out pairs) of NTREX-128, holding out whole news stories.

    The stories are taken in file order and every ``every``-th one (the 5th, the
    10th, ...) is held out, so that no held-out sentence shares a story, and its
    names and topic, with the training text.
    """
    pairs, stories = en_vi_pairs("ntrex128"), lines(data.path(NTREX_DOCUMENTS))
    if len(stories) != len(pairs):
        raise data.DataError(
            f"{NTREX_DOCUMENTS}: {len(stories)} lines for {len(pairs)} pairs"
        )
    held = set(list(dict.fromkeys(stories))[every - 1 :: every])
    train = [
        pair for pair, story in zip(pairs, stories, strict=True) if story not in held
    ]
    heldout = [
        pair for pair, story in zip(pairs, stories, strict=True) if story in held
    ]
    return train, heldout
