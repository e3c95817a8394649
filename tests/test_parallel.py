"""Parallel, streaming pre-tokenization: the counts never depend on workers or block
size."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.pretokenizer import byte_table
from bpe.scale import cuts, sources
from bpe.scale.pipeline import pretokenize_file, train_file

EOT = "<|endoftext|>"


def count_file(path, specials, pattern, parts, block_size=cuts.BLOCK):
    """A file's pre-token table, counted over parts ranges in blocks of block_size."""
    counts = Counter()
    for start, end in cuts.boundaries(path, parts, specials, pattern):
        counts.update(
            sources.count_range(path, start, end, specials, pattern, block_size)
        )
    return byte_table(counts)


def write(tmp_path, text, name="corpus.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def story_file(tmp_path, n=300, seed=0):
    rng = random.Random(seed)
    words = [
        "low",
        "lower",
        "newest",
        "widest",
        "café",
        "牛",
        "🙃",
        "it's",
        "12",
        "!!",
        "\n",
        "  ",
    ]
    stories = [
        " ".join(rng.choice(words) for _ in range(rng.randint(0, 40))) for _ in range(n)
    ]
    text = EOT.join(stories)
    return write(tmp_path, text), text


@pytest.mark.parametrize("workers", [1, 2, 4, 8])
def test_tables_equal_the_in_memory_count(tmp_path, workers):
    path, text = story_file(tmp_path)
    assert pretokenize_file(path, [EOT], workers=workers) == bpe.pretokenize(
        text, [EOT]
    )


def test_tiny_blocks_and_reads_give_the_same_table(tmp_path, monkeypatch):
    path, text = story_file(tmp_path, n=60)
    monkeypatch.setattr(cuts, "BLOCK", 5)  # every special token straddles two reads
    expected = bpe.pretokenize(text, [EOT])
    for workers in (1, 3):
        for block in (1, 7, 64):
            table = count_file(path, (EOT,), bpe.PAT, workers, block_size=block)
            assert table == expected


@settings(max_examples=60)
@given(
    st.lists(
        st.one_of(st.text(max_size=15), st.just(EOT), st.just("\n"), st.just("a\nb")),
        max_size=30,
    ).map("".join),
    st.integers(1, 4),
    st.integers(1, 40),
)
def test_any_text_any_cut(tmp_path_factory, text, workers, block):
    path = write(tmp_path_factory.mktemp("h"), text)
    table = count_file(path, (EOT,), bpe.PAT, workers, block_size=block)
    assert table == bpe.pretokenize(text, [EOT])


def test_without_specials_cuts_only_at_safe_newlines(tmp_path):
    text = "one line\ntwo  lines \n\nthree\r\nfour\n" * 200
    path = write(tmp_path, text)
    table = count_file(path, (), bpe.PAT, 3, block_size=16)
    assert table == bpe.pretokenize(text)


def test_without_a_pattern_boundaries_start_at_special_tokens(tmp_path):
    path, text = story_file(tmp_path)
    data = text.encode()
    ranges = cuts.boundaries(path, 4, [EOT], pattern=None)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(data) and len(ranges) > 1
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    assert all(
        data[start : start + len(EOT)] == EOT.encode() for start, _ in ranges[1:]
    )


def test_with_gpt2s_pattern_crlf_and_single_lines_are_cut_too(tmp_path):
    crlf = write(tmp_path, "one two, three.\r\n" * 3000, "crlf.txt")
    line = write(tmp_path, "a long line of words, 12 and 34; " * 3000, "line.txt")
    for path in (crlf, line):
        assert len(cuts.boundaries(path, 4)) == 4
        pieces = list(cuts.blocks(path, 0, path.stat().st_size, [], block_size=1000))
        assert len(pieces) > 50 and max(length for _, length, _ in pieces) <= 1000


OVERLAPPING = ["<|a|>", "Q<|a|>", "<|a|><|a|>", "a|>b"]
parts = st.sampled_from(
    OVERLAPPING + ["Q", "<|", "|>", "a", " did", "\r\n", "\n", "12", "x y", "'s", "é"]
)


@settings(max_examples=150)
@given(
    st.lists(parts, max_size=60).map("".join),
    st.integers(1, 3),
    st.sampled_from([3, 7, 16, 64]),
    st.lists(st.sampled_from(OVERLAPPING), min_size=1, max_size=4, unique=True),
)
def test_nested_and_overlapping_specials_never_change_the_counts(
    tmp_path_factory, text, workers, block, specials
):
    path = write(tmp_path_factory.mktemp("o"), text)
    specials = tuple(specials)
    for pattern in (bpe.PAT, None):
        table = count_file(path, specials, pattern, workers, block_size=block)
        assert table == bpe.pretokenize(text, specials, pattern)


def test_the_issues_example_counts_the_same_at_every_block_and_worker_count(tmp_path):
    text = "Once upon a time Q<|a|> there<|a|> did Q<|a|>Q <|a|>x\n" * 400
    path = write(tmp_path, text)
    expected = bpe.pretokenize(text, ["<|a|>", "Q<|a|>"])
    for workers in (1, 2, 3):
        for block in (16, 64, 1 << 10, 1 << 16, 1 << 20):
            table = count_file(
                path, ("<|a|>", "Q<|a|>"), bpe.PAT, workers, block_size=block
            )
            assert table == expected, (
                workers,
                block,
            )


def test_blocks_stay_bounded(tmp_path):
    path, text = story_file(tmp_path, n=400)
    pieces = list(cuts.blocks(path, 0, len(text.encode()), [EOT], block_size=256))
    assert len(pieces) > 10
    assert all(length <= 256 for _, length, _ in pieces)
    assert "".join(t for _, _, t in pieces) == text


def test_non_utf8_names_the_offset(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"fine text " * 10 + b"\xff oops")
    with pytest.raises(ValueError, match="offset 100"):
        train_file(path, 300, [EOT], workers=1)
    with pytest.raises(ValueError, match="offset 100"):
        train_file(path, 300, [EOT], workers=2)


def test_train_file_equals_train(tmp_path):
    path, text = story_file(tmp_path)
    vocab, merges, report = train_file(path, 300, [EOT], workers=2)
    assert (vocab, merges) == bpe.train(text, 300, [EOT])
    assert report.distinct_pretokens == len(bpe.pretokenize(text, [EOT]))
    assert report.total_pretokens == sum(bpe.pretokenize(text, [EOT]).values())
    assert (
        report.merges == 300 - 257
        and report.worker_peak_bytes > 0
        and report.parent_peak_bytes > 0
    )
    assert "pre-tokenize" in str(report) and set(report.shares()) == {
        "pre-tokenize",
        "pick",
        "apply",
    }


def test_train_file_stops_cleanly(tmp_path):
    from bpe.trainer import OutOfPairs

    path = write(tmp_path, "ab ab" + EOT)
    with pytest.warns(OutOfPairs):
        vocab, merges, report = train_file(path, 1000, [EOT], workers=1)
    assert report.stopped_early and "stopped early" in str(report)
    assert len(vocab) == 256 + len(merges) + 1


def test_train_file_bad_input(tmp_path):
    with pytest.raises(FileNotFoundError):
        train_file(tmp_path / "missing.txt", 300)
    with pytest.raises(ValueError, match="too small"):
        train_file(write(tmp_path, "x"), 256, [EOT])


def test_train_file_refuses_an_unknown_method_before_reading(tmp_path):
    with pytest.raises(ValueError, match="method"):
        train_file(tmp_path / "never-read.txt", 300, method="fastest")
