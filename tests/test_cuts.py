"""Where text may be cut: no place cuts.py allows changes a pre-token, in any script."""

import sys

import regex

import bpe
from bpe.pretokenizer import PAT, pretokens
from bpe.scale import cuts
from bpe.scale.ascii_pattern import fast_finder
from bpe.scale.stream import encode_iterable

EVERY_CHARACTER = [
    chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF
]


def parts(text, at):
    return [text[a:b] for a, b in zip([0, *at], [*at, len(text)], strict=True)]


def test_white_space_is_regexs_backslash_s_and_the_stand_ins():
    from bpe.book.page.regex_standin import WHITE_SPACE as STAND_IN

    spaces = "".join(c for c in EVERY_CHARACTER if regex.match(r"\s", c))
    assert spaces == cuts.WHITE_SPACE
    assert spaces == "".join(chr(c) for a, b in STAND_IN for c in range(a, b + 1))


def test_a_cut_before_whitespace_after_any_character_changes_no_pre_token():
    """Every character, then a whitespace character: a cut between them is safe, for
    the core's pattern and for the fast finder's view of it (tiktoken's)."""
    spaces = cuts.WHITE_SPACE
    text = "".join(c + spaces[i % len(spaces)] for i, c in enumerate(EVERY_CHARACTER))
    text += "x"  # so that the last whitespace has something after it
    at = cuts.places(text, 0, len(text), [], PAT)
    allowed = set(cuts.NOT_BEFORE_A_CUT)
    expected = [
        i
        for i in range(1, len(text))
        if text[i] in spaces and text[i - 1] not in allowed
    ]
    assert set(expected) <= set(at)
    assert len(expected) > 1_100_000
    for find in (pretokens, fast_finder(PAT)):
        assert [p for part in parts(text, at) for p in find(part)] == find(text)


def test_a_files_cuts_are_the_texts_cuts_in_bytes():
    spaces = cuts.WHITE_SPACE
    text = "".join(c + spaces[i % 7] for i, c in enumerate(EVERY_CHARACTER[::97]))
    text += "a1!b 'x" + "".join(spaces) + "牛\u3000🙃\x1c \x85 é\n"
    data = text.encode("utf-8")
    offsets = [
        len(text[:i].encode("utf-8")) for i in cuts.places(text, 0, len(text), [], PAT)
    ]
    assert cuts.places(data, 0, len(data), [], PAT) == offsets


def test_text_without_ascii_punctuation_is_cut_at_its_line_ends(tmp_path):
    """Chinese text, whose full stops are not ASCII: each line end is a safe place, so
    a file splits across processes and a stream is held a line at a time."""
    line = "小猫在花园里玩。它很开心。\n"
    path = tmp_path / "zh.txt"
    path.write_text(line * 4000, encoding="utf-8")
    assert len(cuts.boundaries(path, 4)) == 4
    size = path.stat().st_size
    pieces = list(cuts.blocks(path, 0, size, [], block_size=1000))
    assert len(pieces) > 100 and max(length for _, length, _ in pieces) <= 1000
    assert cuts.last_cut(line * 3, [], PAT) == 2 * len(line) + len(line) - 1

    tok = bpe.Tokenizer(*bpe.train(line * 20 + "小狗 跑了", 300))
    assert list(encode_iterable(tok, [line] * 50)) == tok.encode(line * 50)
