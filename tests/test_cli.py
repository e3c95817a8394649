"""The bpe command line: train, encode, decode, and one-line errors."""
import subprocess
import sys

import pytest

from bpe.scale.cli import main

EOT = "<|endoftext|>"


@pytest.fixture()
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    words = " ".join(f"w{i % 97}x{i % 13}" for i in range(3000))  # enough distinct pairs for 43 merges
    path.write_text(words + EOT + ("the lowest widest fox" + EOT + "newest lower café 🙃\n") * 50, encoding="utf-8")
    return path


def test_train_encode_decode_round_trip(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    assert main(["train", str(corpus), "--vocab-size", "300", "--special", EOT, "--out", str(out), "--quiet",
                 "--workers", "2"]) == 0
    report = capsys.readouterr().out
    assert "pre-tokenize" in report and "vocabulary 300" in report
    assert sorted(p.name for p in out.iterdir()) == ["merges.txt", "special_tokens.json", "vocab.json"]
    assert not list(out.glob("*.tmp"))

    text = tmp_path / "in.txt"
    text.write_text("newest fox" + EOT + "🙃", encoding="utf-8")
    assert main(["encode", "--tokenizer", str(out), str(text)]) == 0
    ids = capsys.readouterr().out
    assert "299" in ids.split()  # the special token's id
    ids_file = tmp_path / "ids.txt"
    ids_file.write_text(ids, encoding="utf-8")
    assert main(["decode", "--tokenizer", str(out), str(ids_file)]) == 0
    assert capsys.readouterr().out == "newest fox" + EOT + "🙃"


def one_line_error(capsys, argv, *needles):
    assert main(argv) != 0
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    for needle in needles:
        assert needle in lines[0]


def test_errors_are_one_line(tmp_path, corpus, capsys):
    out = str(tmp_path / "tok")
    one_line_error(capsys, ["train", str(tmp_path / "nope.txt"), "--vocab-size", "300", "--out", out], "no such file")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc\xffdef")
    one_line_error(capsys, ["train", str(bad), "--vocab-size", "300", "--out", out, "--quiet"], "offset 3")
    one_line_error(capsys, ["train", str(corpus), "--vocab-size", "10", "--out", out], "too small")
    one_line_error(capsys, ["train", str(corpus), "--vocab-size", "300", "--special", "", "--out", out], "non-empty")
    one_line_error(capsys, ["train", str(corpus), "--vocab-size", "300", "--workers", "0", "--out", out], "--workers")
    one_line_error(capsys, ["encode", "--tokenizer", str(tmp_path / "none"), str(corpus)], "vocab.json")


def test_decode_errors(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    main(["train", str(corpus), "--vocab-size", "300", "--special", EOT, "--out", str(out), "--quiet"])
    capsys.readouterr()
    ids = tmp_path / "ids.txt"
    ids.write_text("1 2 banana", encoding="utf-8")
    one_line_error(capsys, ["decode", "--tokenizer", str(out), str(ids)], "banana")
    ids.write_text("1 2 99999", encoding="utf-8")
    one_line_error(capsys, ["decode", "--tokenizer", str(out), str(ids)], "99999")


def test_unknown_special_in_tokenizer_folder(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    main(["train", str(corpus), "--vocab-size", "300", "--out", str(out), "--quiet"])
    (out / "special_tokens.json").write_text('["<|unknown|>"]', encoding="utf-8")
    capsys.readouterr()
    one_line_error(capsys, ["encode", "--tokenizer", str(out), str(corpus)], "<|unknown|>")


def test_console_script_is_installed(corpus):
    result = subprocess.run([sys.executable, "-m", "bpe", "encode", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "--tokenizer" in result.stdout
