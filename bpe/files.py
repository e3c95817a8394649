"""GPT-2's file format: vocab.json and merges.txt, with bytes spelled as printable characters.

A token is bytes, but JSON and a line of text can only hold characters, so
GPT-2 maps each byte value to a printable character (space -> "Ġ"). The table
belongs to the files only: ``tokenizer.py`` never sees those characters.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

MERGES_HEADER = "#version: 0.2"  # GPT-2's first line; tiktoken's loader skips it unread


def bytes_to_unicode():
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


def token_to_text(tok):
    """A token's bytes spelled with the table.

    >>> token_to_text(b" newest")
    'Ġnewest'
    """
    return "".join(BYTE_TO_CHAR[b] for b in tok)


def text_to_token(text, where):
    """Undo token_to_text; a character outside the table is an error that names ``where``."""
    try:
        return bytes(CHAR_TO_BYTE[c] for c in text)
    except KeyError as e:
        raise ValueError(
            f"{where}: {text!r} holds {e.args[0]!r}, which is not in GPT-2's byte table"
        ) from None


def decode_utf8(data: bytes, where: object, offset: int = 0) -> str:
    r"""Strict UTF-8; an error names ``where`` the bytes came from and the offset of the first bad byte.

    >>> decode_utf8(b"ok \xff", "input.txt", offset=100)
    Traceback (most recent call last):
    ...
    ValueError: input.txt: not UTF-8 (byte 0xff at offset 103)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(
            f"{where}: not UTF-8 (byte {data[e.start]:#04x} at offset {offset + e.start})"
        ) from None


def read_utf8(path) -> str:
    """A file's text, decoded strictly (see decode_utf8)."""
    return decode_utf8(Path(path).read_bytes(), path)


def parse_vocab(path, specials):
    """vocab.json -> {id: bytes}; specials are stored as themselves, not through the table."""

    def no_duplicates(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise ValueError(f"{path}: token {key!r} is listed twice")
            seen[key] = value
        return seen

    try:
        raw = json.loads(read_utf8(path), object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as e:
        raise ValueError(
            f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
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
        vocab[i] = (
            text.encode("utf-8") if text in specials else text_to_token(text, path)
        )
    return vocab


def parse_merges(path, known):
    """merges.txt -> [(left, right)], checking each line against the set of ``known`` tokens."""
    merges = []
    for n, line in enumerate(read_utf8(path).split("\n"), start=1):
        line = line.rstrip("\r")
        if (n == 1 and line.startswith("#version")) or not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(
                f"{path} line {n}: expected two tokens separated by one space, got {line!r}"
            )
        left, right = (text_to_token(p, f"{path} line {n}") for p in parts)
        for tok in (left, right, left + right):
            if tok not in known:
                raise ValueError(
                    f"{path} line {n}: {token_to_text(tok)!r} is not in the vocabulary"
                )
        merges.append((left, right))
    return merges


def load_files(vocab_path, merges_path, specials=()):
    """Read GPT-2-format files into (vocab, merges)."""
    vocab = parse_vocab(vocab_path, set(specials))
    return vocab, parse_merges(merges_path, set(vocab.values()))


def load_directory(directory):
    """(vocab, merges, specials) from a folder that Tokenizer.save wrote."""
    directory = Path(directory)
    for name in ("vocab.json", "merges.txt"):
        if not (directory / name).is_file():
            raise FileNotFoundError(
                f"{directory} holds no {name}; is it a folder written by Tokenizer.save?"
            )
    specials = ()
    if (directory / "special_tokens.json").is_file():
        specials = json.loads(read_utf8(directory / "special_tokens.json"))
        if not isinstance(specials, list):
            raise ValueError(
                f"{directory / 'special_tokens.json'}: expected a JSON list of strings"
            )
    vocab, merges = load_files(
        directory / "vocab.json", directory / "merges.txt", specials
    )
    return vocab, merges, specials


@contextlib.contextmanager
def replacing(path: Path, mode: str = "w"):
    """Open a temporary file beside path; when the block ends it replaces path, or vanishes on error.

    So a reader of path sees the old file or the complete new one, never half of one.
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(
            fd, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": "\n"})
        ) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_atomically(path: Path, text: str) -> None:
    """Write text to path through ``replacing``."""
    with replacing(path) as f:
        f.write(text)


def save_files(tokenizer, directory):
    """Write vocab.json, merges.txt and (with specials) special_tokens.json; return their paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    specials = {s.encode("utf-8"): s for s in tokenizer.specials}
    vocab = {
        specials.get(tok) or token_to_text(tok): i
        for i, tok in sorted(tokenizer.vocab.items())
    }
    if len(vocab) != len(tokenizer.vocab):
        raise ValueError("two ids share one token; vocab.json cannot hold that")
    lines = [MERGES_HEADER] + [
        f"{token_to_text(a)} {token_to_text(b)}" for a, b in tokenizer.merges
    ]
    # Both texts are built before either file is touched, so a failure leaves old files intact.
    texts = {
        "vocab.json": json.dumps(vocab, ensure_ascii=False, indent=1) + "\n",
        "merges.txt": "\n".join(lines) + "\n",
    }
    if tokenizer.specials:
        texts["special_tokens.json"] = (
            json.dumps(list(tokenizer.specials), ensure_ascii=False) + "\n"
        )
    paths = []
    for name, text in texts.items():
        write_atomically(directory / name, text)
        paths.append(directory / name)
    return tuple(paths)
