"""Streaming: encode_iterable gives encode's ids, in bounded memory; decode_stream."""

import subprocess
import sys
import textwrap

from hypothesis import given
from hypothesis import strategies as st

import bpe
from bpe.scale.cuts import last_cut

EOT = "<|endoftext|>"
lines = st.lists(
    st.sampled_from(
        [
            "low ",
            "lower\n",
            "\n",
            "  \n",
            "newest\n\n",
            EOT,
            "a\nb",
            " \t",
            "é",
            "🙃\n",
            "x",
        ]
    ),
    max_size=40,
)


@given(lines)
def test_encode_iterable_equals_encode(toy, pieces):
    assert list(toy.encode_iterable(pieces)) == toy.encode("".join(pieces))


@given(st.lists(st.text(max_size=8), max_size=20))
def test_encode_iterable_on_any_pieces(toy, pieces):
    assert list(toy.encode_iterable(pieces)) == toy.encode("".join(pieces))


@given(
    st.lists(
        st.sampled_from(["<|a|>", "Q<|a|>", "Q", "<|", "a|>", " x", "\r\n", "y'", "s"]),
        max_size=30,
    )
)
def test_overlapping_specials_and_cuts_in_a_stream(pieces):
    specials = ["<|a|>", "Q<|a|>"]
    tok = bpe.Tokenizer(*bpe.train("x y Q " * 3, 262, specials), specials)
    assert list(tok.encode_iterable(pieces)) == tok.encode("".join(pieces))


def test_a_special_split_between_pieces_is_not_cut_inside(toy):
    pieces = ["low <|endo", "ftext|>newest"]
    assert list(toy.encode_iterable(pieces)) == toy.encode("".join(pieces))


def test_nested_specials_are_never_cut_inside():
    vocab, merges = bpe.train(
        "ab" + "<|e|>" + "<|e|><|e|>", 260, ["<|e|>", "<|e|><|e|>"]
    )
    tok = bpe.Tokenizer(vocab, merges, ["<|e|>", "<|e|><|e|>"])
    pieces = ["x<|e|>", "<|e|>y"]
    assert list(tok.encode_iterable(pieces)) == tok.encode("".join(pieces))
    # before the longer one, never inside it
    assert last_cut("x<|e|><|e|>", tok.specials, tok.pattern) == 1


@given(st.text(max_size=30))
def test_decode_stream_never_splits_a_character(toy, text):
    ids = toy.encode(text)
    pieces = list(toy.decode_stream(ids))
    assert "".join(pieces) == text
    assert all("\ufffd" not in p for p in pieces) or "\ufffd" in text


def test_decode_stream_flushes_a_broken_tail(toy):
    assert list(toy.decode_stream([240, 159])) == ["\ufffd"]


def test_encode_iterable_memory_stays_bounded(tmp_path):
    """Encode 80x the held-out stories (13 MB) under an address-space limit of 24 MB
    above what the process already uses: the whole text alone would not fit, the stream
    does."""
    script = textwrap.dedent("""
        import contextlib, hashlib, io, resource, sys
        import bpe
        from bpe.data.corpora import tinystories_files
        from bpe.scale.pipeline import train_file

        with contextlib.redirect_stdout(io.StringIO()):  # the stories' credit line
            train, heldout = tinystories_files()
        vocab, merges, _ = train_file(train, 2000, ["<|endoftext|>"], workers=1)
        tok = bpe.Tokenizer(vocab, merges, ["<|endoftext|>"])
        lines = heldout.read_text(encoding="utf-8").splitlines(keepends=True)
        expected = hashlib.sha256(str(tok.encode("".join(lines))).encode()).hexdigest()
        tok.encode("".join(lines[:50]))  # warm the caches before the limit
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        limit = pages * resource.getpagesize() + 24 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        def many():
            for _ in range(80):
                yield from lines

        digest, count, first = hashlib.sha256(), 0, []
        for i in tok.encode_iterable(many()):
            count += 1
            if len(first) < 200000:
                first.append(i)
            elif len(first) == 200000:
                digest.update(str(first).encode()); first.append(None)
        try:
            "x" * (40 * 2**20)
            print("limit not effective")
        except MemoryError:
            print("limit effective")
        per_copy = count // 80
        print(count % 80 == 0, per_copy)
        print(hashlib.sha256(str(first[:per_copy]).encode()).hexdigest() == expected)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout.split("\n")
    assert out[0] == "limit effective"
    assert out[1].startswith("True") and out[2] == "True"
