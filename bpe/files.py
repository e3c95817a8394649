"""GPT-2's file format: vocab.json and merges.txt, bytes as printable characters.

A token is bytes, but JSON and a line of text can only hold characters, so
GPT-2 maps each byte value to a printable character (space -> "Ġ"). The table
belongs to the files only: ``tokenizer.py`` never sees those characters.
"""

from __future__ import annotations

import json
from pathlib import Path

from .disk.atomic import replace_folder, settle

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


def read_utf8(path) -> str:
    """A file's text, decoded strictly (see decode_utf8)."""
    return decode_utf8(Path(path).read_bytes(), path)


def read_json(path):
    """A JSON file's value; an error names the file, the line and the column."""
    try:
        return json.loads(read_utf8(path), object_pairs_hook=no_duplicate_keys(path))
    except json.JSONDecodeError as e:
        raise ValueError(
            f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None


def no_duplicate_keys(path):
    """A json object_pairs_hook refusing a key listed twice (json keeps the last)."""

    def build(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise ValueError(f"{path}: token {key!r} is listed twice")
            seen[key] = value
        return seen

    return build


def parse_vocab(path, specials: set[str]) -> dict[int, bytes]:
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


def parse_merges(path, known: set[bytes]) -> list[tuple[bytes, bytes]]:
    """merges.txt -> [(left, right)], each line checked against the ``known`` tokens."""
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
        for tok in (left, right, left + right):
            if tok not in known:
                raise ValueError(
                    f"{path} line {n}: {token_to_text(tok)!r} is not in the vocabulary"
                )
        merges.append((left, right))
    return merges


def load_files(vocab_path, merges_path, specials=()) -> tuple[dict, list]:
    """Read GPT-2-format files into (vocab, merges)."""
    vocab = parse_vocab(vocab_path, set(specials))
    return vocab, parse_merges(merges_path, set(vocab.values()))


def load_directory(directory) -> tuple[dict, list, list[str]]:
    """(vocab, merges, specials) from a folder that Tokenizer.save wrote."""
    directory = Path(directory)
    settle(directory)  # in case a save was cut short where renames cannot swap
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


def save_files(tokenizer, directory) -> tuple[Path, ...]:
    """Write vocab.json, merges.txt and (with specials) special_tokens.json.

    The whole folder is replaced in one step (``disk/atomic.py``), so a reader, or
    a crash at any moment, finds the complete old tokenizer or the complete new
    one; any other files the folder held stay.
    """
    directory = Path(directory)
    texts = file_texts(tokenizer)  # built before the disk is touched
    data = {name: text.encode("utf-8") for name, text in texts.items()}
    replace_folder(directory, data, drop=NAMES)  # an old special_tokens.json goes too
    return tuple(directory / name for name in texts)


def file_texts(tokenizer) -> dict[str, str]:
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
