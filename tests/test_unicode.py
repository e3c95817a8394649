"""A tokenizer from tiktoken sees every code point as tiktoken does: tiktoken's ids.

The core, and ``bpe.Tokenizer`` by default, follow the regex module's newer tables
(test_one_view.py); ``from_tiktoken`` chooses tiktoken's view (``unicode="tiktoken"``).
"""

import pytest
import regex

import bpe
from bpe.interop import unicode
from bpe.interop.openai import COMPARED, get_encoding
from bpe.scale.ascii_pattern import fast_finder


@pytest.mark.slow
def test_differences_are_what_the_two_engines_say_today():
    """Each class of tiktoken's patterns, tested on every code point in both engines."""
    assert unicode.probe() == unicode.DIFFERENCES


def test_the_example_that_used_to_differ(from_tiktoken):
    text = "\U0003eb08\u8733"  # a new CJK letter, then an old one
    assert regex.findall(bpe.PAT, text) == [text]  # one piece for today's regex
    assert bpe.pretokens(text) == [text]  # the core follows it
    assert fast_finder(bpe.PAT)(text) == [text]  # the fast layer too, by default
    assert fast_finder(bpe.PAT, "tiktoken")(text) == ["\U0003eb08", "\u8733"]
    gpt2 = get_encoding("gpt2")
    assert from_tiktoken("gpt2").unicode == "tiktoken"
    assert from_tiktoken("gpt2").encode(text) == gpt2.encode(text)
    assert len(gpt2.encode(text)) > len(
        bpe.Tokenizer(*from_tiktoken_args(gpt2)).encode(text)
    )


def from_tiktoken_args(encoding):
    from bpe.interop.ranks import from_tiktoken

    return from_tiktoken(encoding)


def test_the_view_survives_pickling_and_counts_in_equality(from_tiktoken):
    import pickle

    gpt2 = from_tiktoken("gpt2")
    copy = pickle.loads(pickle.dumps(gpt2))
    assert copy.unicode == "tiktoken" and copy == gpt2
    assert copy.encode("\U0003eb08\u8733") == gpt2.encode("\U0003eb08\u8733")
    assert bpe.Tokenizer(*from_tiktoken_args(get_encoding("gpt2"))) != gpt2
    with pytest.raises(ValueError, match="unicode must be one of"):
        bpe.Tokenizer(gpt2.vocab, gpt2.merges, unicode="rust")


def every_code_point():
    """Each code point UTF-8 can encode, in contexts that join it to its neighbours."""
    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    for start in range(0, len(points), 50_000):
        block = points[start : start + 50_000]
        yield "".join(f"a{c}'{c}1{c} {c}{c}\u8733{c}A\n" for c in block)


@pytest.mark.slow
@pytest.mark.parametrize("name", COMPARED)
def test_every_code_point_gives_tiktokens_ids(name, from_tiktoken):
    """1,112,064 code points (all but the 2,048 surrogates, which UTF-8 cannot
    encode: tiktoken replaces them with U+FFFD, this package refuses them) in several
    contexts."""
    encoding, tokenizer = get_encoding(name), from_tiktoken(name)
    for text in every_code_point():
        assert tokenizer.encode_ordinary(text) == encoding.encode_ordinary(text)
