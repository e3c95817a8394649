"""Pre-tokenization: cut text into the pieces that no merge may cross.

Training (``trainer.py``) and encoding (``tokenizer.py``) both start here, so the
two always agree on where one pre-token ends and the next begins. Special
tokens are split out first: they are boundaries, never text.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable

import regex

ENDOFTEXT = "<|endoftext|>"  # GPT-2's end-of-document marker, the book's special token

# GPT-2's pattern with the contractions grouped into one alternative
# (the form tiktoken uses since its pull request 234).
PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

BYTE_TOKENS = tuple(bytes([b]) for b in range(256))  # token i is byte i: the base


def to_bytes(s: str) -> tuple[bytes, ...]:
    """A string as a tuple of one-byte tokens, the form training works on.

    >>> to_bytes("hé")
    (b'h', b'\\xc3', b'\\xa9')
    """
    return tuple(BYTE_TOKENS[b] for b in s.encode("utf-8"))


LONE_SURROGATE = regex.compile("[\ud800-\udfff]")  # half a UTF-16 pair: not encodable


def check_text(text: str) -> str:
    """Refuse anything but a str, or a str UTF-8 cannot encode (a lone surrogate)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if not text.isascii() and (found := LONE_SURROGATE.search(text)):
        raise ValueError(
            f"text holds a lone surrogate {found.group()!r} at index "
            f"{found.start()}, which UTF-8 cannot encode"
        )
    return text


def check_specials(specials: Iterable[str]) -> tuple[str, ...]:
    """Validate special tokens and return them as a tuple.

    >>> check_specials(["<|a|>", "<|b|>"])
    ('<|a|>', '<|b|>')
    """
    if isinstance(specials, str):
        raise TypeError(
            f"specials must be a list of strings, not the string {specials!r}"
        )
    specials = tuple(specials)
    for s in specials:
        if not isinstance(s, str) or not s:
            raise ValueError(f"special tokens must be non-empty strings, got {s!r}")
    if len(set(specials)) != len(specials):
        raise ValueError(f"special tokens must be distinct, got {list(specials)}")
    return specials


@functools.lru_cache(maxsize=64)
def special_splitter(specials: tuple[str, ...]) -> regex.Pattern:
    """The compiled pattern that finds any of the special tokens, longest first."""
    # Longest first: alternation takes the first alternative that matches, so a
    # special that is a prefix of another must come after it.
    longest_first = sorted(specials, key=len, reverse=True)
    return regex.compile("(" + "|".join(regex.escape(s) for s in longest_first) + ")")


def split_special(text: str, specials: Iterable[str]) -> list[str]:
    """Split text around special tokens, keeping each as its own chunk.

    >>> split_special("a<|e|>b", ["<|e|>"])
    ['a', '<|e|>', 'b']
    """
    specials = check_specials(specials)
    if not specials:  # an empty alternation would cut between every character
        return [text]
    return special_splitter(specials).split(text)


@functools.lru_cache(maxsize=64)
def finder(pattern: str | None) -> Callable[[str], list[str]]:
    """A function chunk -> its pre-token strings, compiled once per pattern.

    With ``pattern=None`` there is no pre-tokenizer: the whole chunk is one piece.
    """
    if pattern is None:
        return whole
    return regex.compile(pattern).findall


def whole(chunk: str) -> list[str]:
    """No pre-tokenizer: the chunk is one piece (none if empty)."""
    return [chunk] if chunk else []


def pretokens(chunk: str, pattern: str | None = PAT) -> list[str]:
    """The pre-tokens of one chunk of text, in order.

    >>> pretokens("low low")
    ['low', ' low']
    """
    return finder(pattern)(chunk)


def count_strings(
    text: str,
    specials: tuple[str, ...],
    pattern: str | None = PAT,
    find: Callable[[str], list[str]] | None = None,
) -> Counter[str]:
    """How often each pre-token string occurs in text; special tokens are left out.

    The arguments are taken as already checked (``pretokenize`` checks them).
    ``find``, if given, cuts as ``finder(pattern)`` does, only faster (``bpe.scale``
    passes its own).
    """
    counts, find = Counter(), find or finder(pattern)
    chunks = special_splitter(specials).split(text) if specials else [text]
    for chunk in chunks:
        if chunk not in specials:
            counts.update(find(chunk))
    return counts


def pretokenize(
    text: str, specials: Iterable[str] = (), pattern: str | None = PAT
) -> Counter[tuple[bytes, ...]]:
    """Count the pre-tokens of a text: {each as a tuple of one-byte tokens: count}.

    >>> pretokenize("low low low")
    Counter({(b' ', b'l', b'o', b'w'): 2, (b'l', b'o', b'w'): 1})

    Special tokens are dropped: they take no part in training.
    """
    strings = count_strings(check_text(text), check_specials(specials), pattern)
    return byte_table(strings)


def byte_table(strings: dict[str, int]) -> Counter[tuple[bytes, ...]]:
    """{pre-token string: count} -> {pre-token as a tuple of one-byte tokens: count}.

    Strings are counted first and each distinct one converted once: the conversion
    is the slow part, and a corpus repeats the same words over and over.
    """
    return Counter({to_bytes(s): n for s, n in strings.items()})
