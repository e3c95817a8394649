"""Chapter 07's exercises, GPT-2's file format, and the track's last step.

The last step checks no new function: the reader's ``train`` must learn the
article's eight merges from the toy corpus, and the reader's ``encode``, given
GPT-2's own vocab.json and merges.txt, must give tiktoken's gpt2 ids on text it
never saw. The reference encoder is loaded only when that check runs, and can be
passed in (the page gets it its own way).
"""

from __future__ import annotations

import functools
import os
import random
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bpe.book.practice.codec import ENCODE
from bpe.book.practice.inputs import gpt2_files, random_merges, random_text, toy_corpus
from bpe.book.practice.runner import Exercise, Wrong
from bpe.book.practice.training import TRAIN, train
from bpe.files import MERGES_HEADER, bytes_to_unicode, file_texts, parse_merges
from bpe.trainer import Pair, vocab_from_merges

# Tokens for the file-format cases: a space and a newline (which the table moves),
# a byte that is not printable, and a two-byte character.
FILE_TOKENS = (b"a", b" ", b"\n", b"\x00", "é".encode())
HELD_OUT = (
    "Hello, world! It's 2024.",
    "naïve café 🙂\n\n    indented   text",
    "牛肉面 and 🙃🙃<|endoftext|>The end.",
    "I'll pay $12.50 for 3 apples!!  OK?",
)


def write_merges(merges: list[Pair]) -> str:
    """The text of merges.txt for these merges: "#version" line, one merge a line."""
    tokenizer = SimpleNamespace(
        vocab=vocab_from_merges(merges, ()), merges=merges, specials=()
    )
    return file_texts(tokenizer)["merges.txt"]


@functools.lru_cache(maxsize=1)
def scratch_folder() -> tempfile.TemporaryDirectory:
    """A temporary folder for read_merges' reference, removed when Python exits.

    In memory where the machine offers it (/dev/shm): a disk write per case would
    cost more than the rest of the check.
    """
    memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    return tempfile.TemporaryDirectory(prefix="bpe-exercises-", dir=memory)


def scratch() -> Path:
    """The file read_merges' reference writes and reads."""
    return Path(scratch_folder().name) / "merges.txt"


def read_merges(text: str) -> list[Pair]:
    """merges.txt's text -> [(left, right)], through GPT-2's byte table."""
    scratch().write_text(text, encoding="utf-8", newline="")
    return parse_merges(scratch())


def no_shift() -> dict[int, str]:
    """Wrong: every byte kept as the character of the same number."""
    return {b: chr(b) for b in range(256)}


def shifted_by_value() -> dict[int, str]:
    """Wrong: an unprintable byte b moved to 256 + b, not to the next free place."""
    table = bytes_to_unicode()
    return {b: chr(256 + b) if ord(c) != b else c for b, c in table.items()}


def printable_table(printable: set[int]) -> dict[int, str]:
    """The table with these bytes kept and the others moved to 256 on, in order."""
    moved = [b for b in range(256) if b not in printable]
    table = {b: chr(b) for b in printable}
    table.update({b: chr(256 + n) for n, b in enumerate(moved)})
    return dict(sorted(table.items()))


def ranges_end_early() -> dict[int, str]:
    """Wrong: range(ord(first), ord(last)), which leaves out '~', '¬' and 'ÿ'."""
    ends = (("!", "~"), ("¡", "¬"), ("®", "ÿ"))
    return printable_table({b for a, z in ends for b in range(ord(a), ord(z))})


def soft_hyphen_kept() -> dict[int, str]:
    """Wrong: '¡' to 'ÿ' as one range, so the soft hyphen (0xAD) stays itself."""
    return printable_table({*range(ord("!"), ord("~") + 1), *range(0xA1, 0x100)})


def raw_lines(merges: list[Pair]) -> str:
    """Wrong: tokens written as their raw characters, not through the table."""
    lines = [f"{a.decode('latin-1')} {b.decode('latin-1')}" for a, b in merges]
    return "\n".join([MERGES_HEADER, *lines]) + "\n"


def version_as_merge(text: str) -> list[Pair]:
    """Wrong: the "#version" line read as one more merge."""
    table = {c: b for b, c in bytes_to_unicode().items()}
    merges = []
    for line in text.splitlines():
        if line:
            left, right = line.split(" ", 1)
            merges.append((bytes(map(table.get, left)), bytes(map(table.get, right))))
    return merges


def random_file_merges(rng: random.Random) -> tuple[list[Pair]]:
    """Merges over FILE_TOKENS, as training could have learned them."""
    return (random_merges(rng, 5, FILE_TOKENS),)


def held_out(rng: random.Random) -> str:
    """Twelve random lines: one call checks them all, shrinking drops whole lines."""
    return "\n".join(random_text(rng, 8) for _ in range(12))


def gpt2_reference(text: str, vocab: Any, merges: Any, specials: Any = ()) -> list[int]:
    """tiktoken's gpt2 ids for text (the other arguments are the reader's inputs)."""
    from bpe.interop.openai import get_encoding

    return get_encoding("gpt2").encode(text, allowed_special="all")


BYTES_TO_UNICODE = Exercise(
    name="bytes_to_unicode",
    chapter="07",
    reference=bytes_to_unicode,
    examples=lambda: [()],
    hint="Printable bytes ('!' to '~', '¡' to '¬', '®' to 'ÿ') stay themselves; "
    "the others, in byte order, take the characters from 256 on.",
    wrong=(
        Wrong(
            "no shift for unprintable bytes",
            no_shift,
            "Space, newline and the control bytes must not stay themselves: they "
            "would be invisible (or split a merges.txt line). Move them past 255.",
        ),
        Wrong(
            "shifted by the byte's value",
            shifted_by_value,
            "The moved bytes take the next free character from 256 on, one after "
            "the other, not 256 plus their own value.",
        ),
        Wrong(
            "ranges end one early",
            ranges_end_early,
            "range(a, b) stops before b: the printable ranges include their last "
            "characters ('~', '¬', 'ÿ'), so end each at ord(last) + 1.",
        ),
        Wrong(
            "the soft hyphen kept",
            soft_hyphen_kept,
            "'¡' to 'ÿ' is two ranges, not one: the soft hyphen (0xAD, between '¬' "
            "and '®') is invisible, so it is moved past 255 too.",
        ),
    ),
)

WRITE_MERGES = Exercise(
    name="write_merges",
    chapter="07",
    reference=write_merges,
    examples=lambda: [([(b" ", b"n"), (b"e", b"w")],), (train(toy_corpus(), 264)[1],)],
    generate=random_file_merges,
    cases=80,  # each case writes a whole vocab.json too (the book's file_texts)
    hint="First the '#version: 0.2' line; then, for each merge, its two tokens "
    "spelled with bytes_to_unicode and one space between; a newline after each line.",
    wrong=(
        Wrong(
            "no version line",
            lambda merges: "".join(write_merges(merges).splitlines(True)[1:]),
            "GPT-2's merges.txt starts with a '#version: 0.2' line.",
        ),
        Wrong(
            "bytes written raw",
            raw_lines,
            "Spell each byte with bytes_to_unicode: a raw space would look like the "
            "separator, and a raw newline would end the line.",
        ),
        Wrong(
            "no final newline",
            lambda merges: write_merges(merges)[:-1],
            "Every line, the last included, ends with a newline.",
        ),
    ),
)

READ_MERGES = Exercise(
    name="read_merges",
    chapter="07",
    reference=read_merges,
    examples=lambda: [("#version: 0.2\nĠ n\ne w\n",)],
    generate=lambda rng: (write_merges(random_file_merges(rng)[0]),),
    cases=80,  # each case is written to a file and read back
    # A merges file always opens with its version line: a case shrunk past it would
    # fault every answer that skips the first line, the right ones included.
    valid=lambda args, expected: args[0].startswith("#version"),
    hint="Skip the '#version' first line and empty lines; split each line at its "
    "space and turn each side back into bytes with the inverse of bytes_to_unicode.",
    wrong=(
        Wrong(
            "version line read as a merge",
            version_as_merge,
            "The first line, '#version: 0.2', is a header, not a merge.",
        ),
        Wrong(
            "characters encoded, not mapped back",
            lambda text: [
                tuple(side.encode("utf-8") for side in line.split(" "))
                for line in text.splitlines()[1:]
                if line
            ],
            "'Ġ' stands for the space byte: map each character back through the "
            "inverse of bytes_to_unicode instead of encoding it as UTF-8.",
        ),
    ),
)

EIGHT_MERGES = Exercise(
    name="eight_merges",
    chapter="07",
    function="train",  # the reader writes train(), as in its chapter
    reference=train,
    examples=lambda: [(toy_corpus(), 264), (toy_corpus(), 265, ["<|endoftext|>"])],
    shrink=(),  # the point is the toy corpus itself
    same=TRAIN.same,
    hint="Check chapter 4's train first; these are its two toy examples.",
    # Only the mistakes that show on the toy corpus: it has no special token in its
    # text, and no pre-token where a pair overlaps.
    wrong=tuple(TRAIN.wrong[i] for i in (0, 1, 3)),
)

GPT2_IDS = Exercise(
    name="gpt2_ids",
    chapter="07",
    function="encode",  # the reader writes encode(), as in its chapter
    reference=gpt2_reference,
    examples=lambda: [(text, *gpt2_files()) for text in HELD_OUT],
    generate=lambda rng: (held_out(rng), *gpt2_files()),
    cases=3,
    shrink_tries=60,  # each try encodes with all of GPT-2's 50,000 merges
    hint="Check chapter 6's encode first; GPT-2's ids for the 256 bytes are not "
    "the byte values, so look every token up in the vocabulary.",
    wrong=ENCODE.wrong,
)

FILE_FORMAT = (BYTES_TO_UNICODE, WRITE_MERGES, READ_MERGES)
LAST_STEP = (EIGHT_MERGES, GPT2_IDS)
