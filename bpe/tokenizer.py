"""Encoding and decoding with a trained vocabulary.

Training (``train.py``) chooses merges by count; encoding has no counts, only the
ordered merge list, so it applies the earliest-learned merge first. The file
format that stores a tokenizer lives in ``files.py``.
"""
from .pretokenize import PAT, check_specials, check_text, pretokens, split_special, to_bytes
from .train import merge


def encode_word(tok, rank, on_step=None):
    """Apply learned merges to one pre-token, lowest rank first, until none applies.

    encode_word((b"o", b"w"), {(b"o", b"w"): 0}) == (b"ow",)
    Position in the word does not matter, only rank. ``on_step(tok, candidates, pair)``
    is called before each merge, for traces.
    """
    while True:
        candidates = [p for p in zip(tok, tok[1:]) if p in rank]
        if not candidates:
            return tok
        best = min(candidates, key=rank.__getitem__)
        if on_step:
            on_step(tok, candidates, best)
        tok = merge(tok, best, best[0] + best[1])


def check_vocab(vocab, merges, specials):
    """Refuse a vocabulary that cannot encode every byte or that lacks a merge's tokens."""
    values = set(vocab.values())
    for i, tok in vocab.items():
        if not isinstance(i, int) or i < 0 or not isinstance(tok, bytes):
            raise ValueError(f"vocab must map non-negative int ids to bytes, got {i!r}: {tok!r}")
    missing = [b for b in range(256) if bytes([b]) not in values]
    if missing:
        raise ValueError(f"vocab lacks {len(missing)} of the 256 single bytes, e.g. byte {missing[0]}")
    for n, (left, right) in enumerate(merges):
        for part in (left, right, left + right):
            if part not in values:
                raise ValueError(f"merge {n} ({left!r}, {right!r}) needs {part!r}, which is not in vocab")
    for s in specials:
        if s.encode("utf-8") not in values:
            raise ValueError(f"special token {s!r} is not in the vocabulary")


class Tokenizer:
    """A byte-level BPE tokenizer: ``vocab`` (id -> bytes), ordered ``merges``, ``specials``.

    Tokenizer(*train(text, 300)).encode("low") -> a list of ids
    """

    def __init__(self, vocab, merges, specials=(), pattern=PAT):
        self.specials = check_specials(specials)
        self.vocab = dict(vocab)
        self.merges = [tuple(m) for m in merges]
        self.pattern = pattern
        check_vocab(self.vocab, self.merges, self.specials)
        self.rank = {pair: r for r, pair in enumerate(self.merges)}
        self.token_id = {}
        for i in sorted(self.vocab):  # a token listed twice encodes to its smaller id
            self.token_id.setdefault(self.vocab[i], i)
        self.special_id = {s: self.token_id[s.encode("utf-8")] for s in self.specials}

    def encode_chunk(self, chunk):
        """Ids of a text chunk that holds no special token."""
        ids = []
        for piece in pretokens(chunk, self.pattern):
            ids.extend(self.token_id[t] for t in encode_word(to_bytes(piece), self.rank))
        return ids

    def encode(self, text):
        """Text -> ids; each special token maps straight to its own id."""
        check_text(text)
        ids = []
        for chunk in split_special(text, self.specials):
            if chunk in self.special_id:
                ids.append(self.special_id[chunk])
            else:
                ids.extend(self.encode_chunk(chunk))
        return ids

    def decode_bytes(self, ids):
        """Ids -> the bytes they stand for; an unknown id raises ValueError."""
        ids = list(ids)
        try:
            return b"".join(self.vocab[i] for i in ids)
        except (KeyError, TypeError):
            bad = next(i for i in ids if not isinstance(i, int) or i not in self.vocab)
            raise ValueError(f"token id {bad!r} is not in the vocabulary ({len(self.vocab)} entries)") from None

    def decode(self, ids):
        """Ids -> text; bytes that are not valid UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def __eq__(self, other):
        if not isinstance(other, Tokenizer):
            return NotImplemented
        return (self.vocab, self.merges, self.specials, self.pattern) == (
            other.vocab, other.merges, other.specials, other.pattern)

    def __repr__(self):
        return f"Tokenizer({len(self.vocab)} tokens, {len(self.merges)} merges, specials={list(self.specials)})"

    def save(self, directory):
        """Write vocab.json and merges.txt (GPT-2's format), and special_tokens.json if there are
        specials, into directory; each file is written atomically. Returns the paths written."""
        from .files import save_files
        return save_files(self, directory)

    @classmethod
    def load(cls, directory, pattern=PAT):
        """Load a tokenizer that save() wrote, special tokens included."""
        from .files import load_directory
        vocab, merges, specials = load_directory(directory)
        return cls(vocab, merges, specials, pattern)

    @classmethod
    def from_files(cls, vocab_path, merges_path, specials=(), pattern=PAT):
        """Load a tokenizer from GPT-2-format vocab.json and merges.txt."""
        from .files import load_files
        vocab, merges = load_files(vocab_path, merges_path, check_specials(specials))
        return cls(vocab, merges, specials, pattern)
