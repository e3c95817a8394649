"""Safe cuts for every pattern the package ships, proved on every code point.

``cuts.CUTS`` gives each known pattern its safe places: a place between a character
Y and the next, X, where cutting changes no piece. The proof has two steps.

1. A pattern sees a character only through the classes and letters it names (its
   atoms: ``\\p{L}``, ``\\s``, ``[\\r\\n]``, ``'``, ``(?i:s)``...). Two characters in
   the same atoms are the same to the pattern, in every text. The test walks every
   code point and sorts it by its atoms (its signature): a few dozen kinds. A
   tokenizer with tiktoken's view runs the pattern on text whose newer characters
   are swapped for stand-ins, which are code points too, and no rule looks at a
   swapped character (they are not whitespace, "\\n", "/" or ASCII), so this covers
   both views.
2. None of these patterns looks behind, so after a piece that ends at the cut the
   rest is cut as it would be alone; and the pieces before the cut can depend on
   what follows only through a match that reaches the cut. A match reads at most
   two characters before its runs (an optional space or prefix character, then a
   punctuation run's ``[\\r\\n]*``, or a contraction's apostrophe and letter), and a
   run's length past two changes nothing at its end (``\\p{N}{1,3}`` counts, but no
   digit run goes on into a cut's X). So every way a match can stand at the cut is
   met by some text of at most three characters before Y, and a look-ahead there
   sees only X. The test cuts every such text: up to three characters of every
   kind, then every kind of Y and every kind of X the rule allows, then nothing
   or (after up to two characters) a character of every kind, and checks that the
   pieces of the whole are the pieces of the two parts.

Then, as plain evidence on real code points, every code point is put on each side
of each rule's cuts in one long text, and the places ``cuts.places`` finds are
checked there, in both views.
"""

import functools
import itertools
import sys
import warnings

import numpy as np
import pytest
import regex

import bpe
from bpe.interop.openai import get_encoding
from bpe.interop.unicode import SWAP, find_as_tiktoken
from bpe.pretokenizer import PAT
from bpe.scale import cuts
from bpe.scale.pipeline import pretokenize_file, train_file, train_files
from bpe.scale.stream import encode_iterable

EVERY = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
SHIPPED = {
    "PAT": PAT,
    "gpt2": cuts.GPT2_TIKTOKEN,
    "cl100k_base": cuts.CL100K,
    "o200k_base": cuts.O200K,
}
# A bracketed class, \p{..}, a shorthand class, an escaped \r or \n, or a literal.
ATOM = regex.compile(
    r"\[(?:\\.|[^\]\\])*\]|\\[pP]\{[^}]*\}|\\[sSdDwW]|\\[rn]|[^|()?*+{}\\\[\]$:,0-9]"
)


def test_the_shipped_patterns_are_tiktokens():
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        assert get_encoding(name)._pat_str == SHIPPED[name]
    assert set(cuts.CUTS) == set(SHIPPED.values())


def atoms(pattern):
    """Every class and literal the pattern names (case-insensitively inside a
    ``(?i:...)`` group), and the line feed, which ``$`` looks for."""
    found = {r"\n"}
    for part in regex.findall(r"\(\?i:([^()]*)\)", pattern):
        found.update(f"(?i:{a})" for a in ATOM.findall(part))
    outside = regex.sub(r"\(\?i:[^()]*\)|\(\?[!=:]?", "", pattern)
    found.update(ATOM.findall(outside))
    return sorted(found)


@functools.cache
def points():
    """EVERY as an array of code points."""
    return np.frombuffer(EVERY.encode("utf-32-le"), dtype=np.uint32)


@functools.cache
def member(atom):
    """For each code point of EVERY, whether it is in the atom (an atom several
    patterns name is walked once)."""
    # each member becomes NUL (an atom is one character: the places stay)
    marked = regex.sub(atom, "\x00", EVERY).encode("utf-32-le")
    found = np.frombuffer(marked, dtype=np.uint32) == 0
    found[0] = bool(regex.fullmatch(atom, "\x00"))  # NUL itself, checked alone
    return found


@functools.cache
def kinds(pattern):
    """{signature: the code points with it}, over every code point.

    A signature has a bit for each atom: whether the code point is in it."""
    signature = np.zeros(len(EVERY), dtype=np.uint64)
    found = atoms(pattern)
    assert len(found) <= 64
    for bit, atom in enumerate(found):
        signature |= member(atom).astype(np.uint64) << np.uint64(bit)
    order = np.argsort(signature, kind="stable")
    keys, starts = np.unique(signature[order], return_index=True)
    groups = np.split(points()[order], starts[1:])
    return {int(k): "".join(map(chr, g)) for k, g in zip(keys, groups, strict=True)}


def one_of_each(pattern, allowed=lambda c: True):
    """A code point of each kind, among those allowed (kinds with none left out)."""
    found = []
    for members in kinds(pattern).values():
        found += itertools.islice(filter(allowed, members), 1)
    return sorted(found)


def rules(pattern):
    """(Y allowed, X allowed) for each kind of cut the pattern's rule makes."""
    spaces = {cuts.PAT: cuts.WHITE_SPACE, cuts.GPT2_TIKTOKEN: cuts.WHITE_SPACE}
    spaces = spaces.get(pattern, cuts.NOT_NEWLINES)
    found = [(lambda c: c not in cuts.NOT_BEFORE_A_CUT, lambda c: c in spaces)]
    if pattern in (cuts.PAT, cuts.GPT2_TIKTOKEN):  # cuts.ASCII_KINDS
        letter = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        digit = frozenset("0123456789")
        other = frozenset(map(chr, range(0x21, 0x7F))) - letter - digit - {"'"}
        for y, x in ((letter, digit | other | {"'"}), (digit, letter | other | {"'"})):
            found.append((y.__contains__, x.__contains__))
        found.append((other.__contains__, (letter | digit).__contains__))
    if pattern in (cuts.CL100K, cuts.O200K):
        after = "/" if pattern == cuts.O200K else ""
        no_space = cuts.WHITE_SPACE + after
        found.append((lambda c: c == "\n", lambda c: c not in no_space))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_kinds_of_code_points(name):
    """Step 1: every code point has its kind; the walk covers all 1,112,064."""
    sorted_out = kinds(SHIPPED[name])
    assert sum(map(len, sorted_out.values())) == len(EVERY) == 1_112_064
    assert 10 < len(sorted_out) < 80
    stand_ins = {chr(s) for s in SWAP.values()}
    assert all(any(c in m for m in sorted_out.values()) for c in stand_ins)


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_the_rule_holds_in_every_context(name):
    """Step 2: up to three characters of every kind, Y, X, then one more (or none)."""
    pattern = SHIPPED[name]
    find = regex.compile(pattern).findall
    each = one_of_each(pattern)
    short = [""] + each + list(map("".join, itertools.product(each, repeat=2)))
    long = list(map("".join, itertools.product(each, repeat=3)))
    checked = 0
    for y_ok, x_ok in rules(pattern):
        ys, xs = one_of_each(pattern, y_ok), one_of_each(pattern, x_ok)
        assert ys and xs
        for befores, afters in ((short, [""] + each), (long, [""])):
            rights = {x + z: find(x + z) for x in xs for z in afters}
            for before in befores:
                for y in ys:
                    left = before + y
                    pieces = find(left)
                    for right, its_pieces in rights.items():
                        assert find(left + right) == pieces + its_pieces, (
                            left,
                            right,
                        )
                    checked += len(rights)
    assert checked > 100_000


@functools.cache
def walk_texts(pattern):
    """Every code point as each rule's Y, and as its X, in a few contexts."""
    texts = []
    for y_ok, x_ok in rules(pattern):
        ys = [c for c in EVERY if y_ok(c)]
        xs = [c for c in EVERY if x_ok(c)]
        texts.append("".join(y + xs[i % len(xs)] + "a" for i, y in enumerate(ys)))
        texts.append("".join(ys[i % len(ys)] + x + "!" for i, x in enumerate(xs)))
    return texts


@functools.cache
def walk_places(pattern):
    """Each walk text with the places cuts.places finds in it (both views use them)."""
    return [
        (text, cuts.places(text, 0, len(text), [], pattern))
        for text in walk_texts(pattern)
    ]


def parts(text, at):
    return [text[a:b] for a, b in zip([0, *at], [*at, len(text)], strict=True)]


def byte_offsets(text):
    """Where each character of text ends in its UTF-8 bytes."""
    code = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    width = 1 + (code >= 0x80) + (code >= 0x800) + (code >= 0x10000)
    return np.cumsum(width, dtype=np.int64)


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_every_code_point_has_its_places_in_text_and_in_bytes(name):
    """Many places in each walk text, and the same places in its UTF-8 bytes."""
    pattern = SHIPPED[name]
    for text, at in walk_places(pattern):
        assert len(at) > len(text) // 4
        data = text.encode("utf-8")
        in_bytes = cuts.places(data, 0, len(data), [], pattern)
        assert in_bytes == byte_offsets(text)[np.array(at, dtype=np.int64) - 1].tolist()


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("view", ["regex", "tiktoken"])
def test_every_code_point_either_side_of_a_cut(name, view):
    """Cut at those places, the parts' pieces are the whole text's, in each view."""
    pattern = SHIPPED[name]
    compiled = regex.compile(pattern)
    find = (
        compiled.findall
        if view == "regex"
        else (functools.partial(find_as_tiktoken, compiled))
    )
    for text, at in walk_places(pattern):
        assert [p for part in parts(text, at) for p in find(part)] == find(text)


LINES = [
    "Once upon a time, Lily's cat didn't want to play.  It's 12345 days old!\n",
    "Xin chào thế giới! Tôi là một học sinh.\r\n",
    "小猫在花园里玩。它很开心。\n",
    "path/to/file\n/usr/bin\tand\u3000more\u00a0text\n",
    "\n\n  indented line\n\t\ttabs\n",
    "WHAT'S UP? We'LL see... ÉCOLE, naïve café 🙃🙃\n",
    "\U0003eb08\u8733 new and old letters\u0295\n",
]


def corpus(repeats=40):
    """A small text with many safe places of every kind, and special tokens."""
    return "".join(
        LINES[(i * 3) % len(LINES)] + (EOT if i % 9 == 8 else "")
        for i in range(repeats * len(LINES))
    )


EOT = "<|endoftext|>"


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("name", SHIPPED)
def test_train_file_learns_bpe_trains_merges(tmp_path, monkeypatch, name, workers):
    """Files cut into many parts (each a few hundred bytes) at each pattern's places."""
    from bpe.scale import sources

    pattern, text = SHIPPED[name], corpus()
    path = tmp_path / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    monkeypatch.setattr(sources, "PART_BYTES", 512)
    parts, _ = sources.plan([str(path)], workers, (EOT,), pattern)
    assert len(parts) > len(text.encode("utf-8")) // 1024
    expected = bpe.train(text, 400, [EOT], pattern=pattern)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cuts.ReadWhole)
        vocab, merges, _ = train_file(path, 400, [EOT], workers, pattern=pattern)
        two = train_files([path, path], 400, [EOT], workers, pattern=pattern)
    assert (vocab, merges) == expected
    assert two[:2] == bpe.train(text + text, 400, [EOT], pattern=pattern)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_file_is_read_in_blocks_of_the_size_asked(tmp_path, name):
    from bpe.pretokenizer import count_strings
    from bpe.scale.sources import count_range

    pattern, text = SHIPPED[name], corpus(10).replace(EOT, "")
    path = tmp_path / "corpus.txt"
    path.write_bytes(data := text.encode("utf-8"))
    read = list(cuts.blocks(path, 0, len(data), [], pattern, block_size=200))
    assert len(read) > len(data) // 200 and max(n for _, n, _ in read) <= 200
    counted = count_range(path, 0, len(data), (), pattern, block_size=200)
    assert counted == count_strings(text, (), pattern)
    assert pretokenize_file(path, [], pattern, workers=3) == bpe.pretokenize(
        text, [], pattern
    )


@pytest.mark.parametrize("name", SHIPPED)
def test_encode_iterable_holds_only_a_line_or_so(name):
    pattern, text = SHIPPED[name], corpus(4)
    tok = bpe.Tokenizer(*bpe.train(text, 330, [EOT], pattern=pattern), [EOT], pattern)
    pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
    assert list(encode_iterable(tok, pieces)) == tok.encode(text)
    longest = max(len(line) for line in LINES)
    for i in range(len(LINES)):  # after any whole line, little is left over
        held = "".join(LINES[i:] + LINES[:i]) * 2
        assert len(held) - cuts.last_cut(held, [EOT], pattern) <= longest


SLOW = pytest.mark.slow  # recovering 100,000 or 200,000 merges from ranks


@pytest.mark.parametrize(
    "name",
    [
        "gpt2",
        pytest.param("cl100k_base", marks=SLOW),
        pytest.param("o200k_base", marks=SLOW),
    ],
)
def test_tiktokens_own_ids_from_a_stream(name, from_tiktoken):
    encoding, tok = get_encoding(name), from_tiktoken(name)
    text = corpus(2).replace(EOT, "")
    pieces = [text[i : i + 5] for i in range(0, len(text), 5)]
    assert list(tok.encode_iterable(pieces)) == encoding.encode_ordinary(text)


def test_a_pattern_with_no_known_cut_warns_and_still_works(tmp_path):
    pattern, text = r"\w+|[^\w\s]+|\s+", corpus(3)
    path = tmp_path / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    expected = bpe.train(text, 300, [EOT], pattern=pattern)
    with pytest.warns(cuts.ReadWhole, match="read whole") as caught:
        _, merges, _ = train_file(path, 300, [EOT], 2, pattern=pattern)
    assert repr(pattern) in str(caught[0].message) and merges == expected[1]
    tok = bpe.Tokenizer(*expected, [EOT], pattern)
    with pytest.warns(cuts.ReadWhole, match="the stream is read whole"):
        ids = list(tok.encode_iterable([text[:100], text[100:]]))
    assert ids == tok.encode(text)
