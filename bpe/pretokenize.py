"""Pre-tokenization: cut text into the pieces that no merge may cross.

Training (``train.py``) and encoding (``tokenizer.py``) both start here, so the
two always agree on where one pre-token ends and the next begins. Special
tokens are split out first; they are boundaries, never text.
"""
import functools
import re
from collections import Counter

import regex

# GPT-2's pattern with the contractions grouped into one alternative
# (the form tiktoken uses since its pull request 234).
PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


@functools.lru_cache(maxsize=64)
def compiled(pattern):
    """A compiled regex, built once per pattern: compiled(PAT).findall("a b") == ["a", " b"]."""
    return regex.compile(pattern) if isinstance(pattern, str) else pattern


def ascii_members(cls):
    """The ASCII characters a ``regex`` class matches, as an ``re`` class body: ascii_members(r"\\p{N}") == "0123456789"."""
    return "".join(re.escape(chr(c)) for c in range(128) if regex.fullmatch(cls, chr(c)))


@functools.lru_cache(maxsize=1)
def ascii_pat():
    """PAT for pure-ASCII text, for the standard ``re`` module, which runs it about twice as fast.

    Its classes are read off ``regex``'s own \\p{L}, \\p{N} and \\s on the 128 ASCII characters,
    so on ASCII text it finds exactly PAT's pieces (the tests check this).
    """
    letters, digits, space = ascii_members(r"\p{L}"), ascii_members(r"\p{N}"), ascii_members(r"\s")
    return re.compile(rf"""'(?:[sdmt]|ll|ve|re)| ?[{letters}]+| ?[{digits}]+| ?[^{space}{letters}{digits}]+"""
                      rf"""|[{space}]+(?![^{space}])|[{space}]+""")


def finder(pattern):
    """A function chunk -> list of pre-token strings; for PAT, ASCII chunks take the fast path."""
    slow = compiled(pattern).findall
    if pattern != PAT:
        return slow
    fast = ascii_pat().findall
    return lambda chunk: fast(chunk) if chunk.isascii() else slow(chunk)


def to_bytes(s):
    """A string as a tuple of one-byte tokens: to_bytes("hé") == (b"h", b"\\xc3", b"\\xa9")."""
    return tuple(bytes([b]) for b in s.encode("utf-8"))


def check_text(text):
    """Refuse anything that is not a str: check_text(b"x") raises TypeError."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    return text


def check_specials(specials):
    """Validate special tokens and return them as a tuple: check_specials(["<|x|>"]) == ("<|x|>",)."""
    if isinstance(specials, str):
        raise TypeError(f"specials must be a list of strings, not the string {specials!r}")
    specials = tuple(specials)
    for s in specials:
        if not isinstance(s, str) or not s:
            raise ValueError(f"special tokens must be non-empty strings, got {s!r}")
    if len(set(specials)) != len(specials):
        raise ValueError(f"special tokens must be distinct, got {list(specials)}")
    return specials


def split_special(text, specials):
    """Split text around special tokens, keeping each as its own chunk.

    split_special("a<|e|>b", ["<|e|>"]) == ["a", "<|e|>", "b"]
    """
    specials = check_specials(specials)
    if not specials:  # an empty alternation would cut between every character
        return [text]
    return special_splitter(specials).split(text)


@functools.lru_cache(maxsize=64)
def special_splitter(specials):
    """The compiled pattern that split_special uses for one tuple of special tokens."""
    # Longest first: alternation takes the first alternative that matches, so a
    # special that is a prefix of another must come after it.
    longest_first = sorted(specials, key=len, reverse=True)
    return regex.compile("(" + "|".join(regex.escape(s) for s in longest_first) + ")")


def pretokens(chunk, pattern=PAT):
    """The pre-tokens of one chunk, in order: pretokens("low low") == ["low", " low"].

    With ``pattern=None`` there is no pre-tokenizer: the whole chunk is one piece.
    """
    if pattern is None:
        return [chunk] if chunk else []
    return finder(pattern)(chunk)


def pretokenize(text, specials=(), pattern=PAT):
    """The corpus as a table {pre-token as a tuple of one-byte tokens: count}.

    pretokenize("low low low") == Counter({(b"l", b"o", b"w"): 1, (b" ", b"l", b"o", b"w"): 2})
    Special tokens are dropped: they take no part in training.
    """
    check_text(text)
    specials = check_specials(specials)
    strings = Counter()
    for chunk in split_special(text, specials):
        if chunk not in specials:
            strings.update(pretokens(chunk, pattern))
    # Count strings first and convert each distinct one once: the conversion is
    # the slow part, and a corpus repeats the same words over and over.
    return Counter({to_bytes(s): n for s, n in strings.items()})
