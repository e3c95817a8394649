"""GPT-2's file format: vocab.json and merges.txt, bytes as printable characters.

A token is bytes, but JSON and a line of text can only hold characters, so
GPT-2 maps each byte value to a printable character (space -> "Ġ"). The table
belongs to the files only: ``tokenizer.py`` never sees those characters.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PathLike = str | os.PathLike  # a file or folder: a str or a Path (one alias for all)

MERGES_HEADER = "#version: 0.2"  # GPT-2's first line; tiktoken's loader skips it
NAMES = ("vocab.json", "merges.txt", "special_tokens.json")  # what save() writes


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table from the 256 byte values to printable characters.

    >>> table = bytes_to_unicode()
    >>> table[ord("a")], table[32], table[10]
    ('a', 'Ġ', 'Ċ')
    """
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    table, moved = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)  # already a visible character: keep it
        else:
            table[b] = chr(256 + moved)  # the rest move past Latin-1, in byte order
            moved += 1
    return table


BYTE_TO_CHAR = bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}


def token_to_text(tok: bytes) -> str:
    """A token's bytes spelled with the table.

    >>> token_to_text(b" newest")
    'Ġnewest'
    """
    return "".join(BYTE_TO_CHAR[b] for b in tok)


def text_to_token(text: str, where: object) -> bytes:
    """Undo token_to_text; a character outside the table is an error naming where."""
    try:
        return bytes(CHAR_TO_BYTE[c] for c in text)
    except KeyError as e:
        raise ValueError(
            f"{where}: {text!r} holds {e.args[0]!r}, which is not in GPT-2's byte table"
        ) from None


def decode_utf8(data: bytes, where: object, offset: int = 0) -> str:
    r"""Strict UTF-8; an error names ``where`` and the offset of the first bad byte.

    >>> try:
    ...     decode_utf8(b"ok \xff", "input.txt", offset=100)
    ... except ValueError as error:
    ...     print(error)
    input.txt: not UTF-8 (byte 0xff at offset 103)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(
            f"{where}: not UTF-8 (byte {data[e.start]:#04x} at offset "
            f"{offset + e.start})"
        ) from None


def read_utf8(path: PathLike) -> str:
    """A file's text, decoded strictly (see decode_utf8)."""
    return decode_utf8(Path(path).read_bytes(), path)


def read_json(path: PathLike) -> object:
    """A JSON file's value; an error names the file, the line and the column."""
    try:
        return json.loads(read_utf8(path), object_pairs_hook=no_duplicate_keys(path))
    except json.JSONDecodeError as e:
        raise ValueError(
            f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None


def no_duplicate_keys(path: PathLike) -> Callable[[list], dict]:
    """A json object_pairs_hook refusing a key listed twice (json keeps the last)."""

    def build(pairs: list) -> dict:
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise ValueError(f"{path}: token {key!r} is listed twice")
            seen[key] = value
        return seen

    return build


def parse_vocab(path: PathLike, specials: set[str]) -> dict[int, bytes]:
    """vocab.json -> {id: bytes}; specials are stored as is, not via the table."""
    raw = read_json(path)
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a JSON object mapping tokens to ids")
    vocab = {}
    for text, i in raw.items():
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise ValueError(
                f"{path}: token {text!r} has id {i!r}, not a non-negative integer"
            )
        if i in vocab:
            raise ValueError(f"{path}: id {i} is used twice")
        special = text in specials
        vocab[i] = text.encode("utf-8") if special else text_to_token(text, path)
    return vocab


def parse_merges(path: PathLike) -> list[tuple[bytes, bytes]]:
    """merges.txt -> [(left, right)]; Tokenizer checks them against the vocabulary."""
    merges = []
    for n, line in enumerate(read_utf8(path).split("\n"), start=1):
        line = line.rstrip("\r")
        if (n == 1 and line.startswith("#version")) or not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(
                f"{path} line {n}: expected two tokens separated by one "
                f"space, got {line!r}"
            )
        left, right = (text_to_token(p, f"{path} line {n}") for p in parts)
        merges.append((left, right))
    return merges


def load_files(
    vocab_path: PathLike, merges_path: PathLike, specials: Iterable[str] = ()
) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """Read GPT-2-format files into (vocab, merges)."""
    return parse_vocab(vocab_path, set(specials)), parse_merges(merges_path)


def load_directory(
    directory: PathLike,
) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]], list[str]]:
    """(vocab, merges, specials) from a folder that Tokenizer.save wrote."""
    directory = Path(directory)
    for name in NAMES[:2]:
        if not (directory / name).is_file():
            raise FileNotFoundError(
                f"{directory} holds no {name}; is it a folder "
                "written by Tokenizer.save?"
            )
    specials = []
    if (directory / NAMES[2]).is_file():
        specials = read_json(directory / NAMES[2])
        if not isinstance(specials, list):
            raise ValueError(f"{directory / NAMES[2]}: expected a JSON list of strings")
    vocab, merges = load_files(directory / NAMES[0], directory / NAMES[1], specials)
    return vocab, merges, specials


def save_files(tokenizer: Any, directory: PathLike) -> tuple[Path, ...]:
    """Write vocab.json, merges.txt and (with specials) special_tokens.json.

    The files are written one after the other. ``bpe.Tokenizer.save`` replaces the
    whole folder in one step instead (``disk/atomic.py``), so that a crash in the
    middle cannot leave a folder that will not load.
    """
    directory = Path(directory)
    texts = file_texts(tokenizer)  # built before the disk is touched
    directory.mkdir(parents=True, exist_ok=True)
    (directory / NAMES[2]).unlink(missing_ok=True)  # an earlier save's specials
    for name, text in texts.items():
        (directory / name).write_text(text, encoding="utf-8", newline="\n")
    return tuple(directory / name for name in texts)


def file_texts(tokenizer: Any) -> dict[str, str]:
    """{file name: its text} for vocab.json, merges.txt and special_tokens.json."""
    specials = {s.encode("utf-8"): s for s in tokenizer.specials}
    vocab = {
        specials.get(tok) or token_to_text(tok): i
        for i, tok in sorted(tokenizer.vocab.items())
    }
    if len(vocab) != len(tokenizer.vocab):
        raise ValueError("two ids share one token; vocab.json cannot hold that")
    merges = [f"{token_to_text(a)} {token_to_text(b)}" for a, b in tokenizer.merges]
    texts = {
        NAMES[0]: json.dumps(vocab, ensure_ascii=False, indent=1) + "\n",
        NAMES[1]: "\n".join([MERGES_HEADER, *merges]) + "\n",
    }
    if tokenizer.specials:
        specials_json = json.dumps(list(tokenizer.specials), ensure_ascii=False)
        texts[NAMES[2]] = specials_json + "\n"
    return texts
