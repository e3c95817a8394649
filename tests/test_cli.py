"""The bpe command line: train, encode, decode, and one-line errors."""

import subprocess
import sys

import pytest

import bpe
from bpe.scale.cli import main

EOT = "<|endoftext|>"


@pytest.fixture()
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    words = " ".join(
        f"w{i % 97}x{i % 13}" for i in range(3000)
    )  # enough distinct pairs for 43 merges
    path.write_text(
        words + EOT + ("the lowest widest fox" + EOT + "newest lower café 🙃\n") * 50,
        encoding="utf-8",
    )
    return path


def train_argv(corpus, out, *options, vocab_size=300):
    """The arguments of ``bpe train corpus --vocab-size N --out out [options]``."""
    return [
        "train",
        str(corpus),
        "--vocab-size",
        str(vocab_size),
        "--out",
        str(out),
        *options,
    ]


def train(corpus, out, *options, vocab_size=300):
    """Run ``bpe train ... --quiet`` in this process; it must succeed."""
    assert (
        main(train_argv(corpus, out, "--quiet", *options, vocab_size=vocab_size)) == 0
    )


def test_train_encode_decode_round_trip(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    assert (
        main(train_argv(corpus, out, "--special", EOT, "--quiet", "--workers", "2"))
        == 0
    )
    report = capsys.readouterr().out
    assert "pre-tokenize" in report and "vocabulary 300" in report
    assert sorted(p.name for p in out.iterdir()) == [
        "merges.txt",
        "special_tokens.json",
        "vocab.json",
    ]
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


def one_line_error(capsys, argv, *needles, code=1):
    """main(argv) fails with code (README: 1 an error, 2 a bad command line) and
    says why in one line holding every needle."""
    assert main(argv) == code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_errors_are_one_line(tmp_path, corpus, capsys):
    out = str(tmp_path / "tok")
    one_line_error(
        capsys,
        train_argv(tmp_path / "nope.txt", out),
        "no such file",
    )
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc\xffdef")
    one_line_error(
        capsys,
        train_argv(bad, out, "--quiet"),
        "offset 3",
    )
    one_line_error(capsys, train_argv(corpus, out, vocab_size=10), "too small")
    one_line_error(
        capsys,
        train_argv(corpus, out, "--special", ""),
        "non-empty",
    )
    one_line_error(
        capsys,
        train_argv(corpus, out, "--workers", "0"),
        "--workers",
        code=2,
    )
    one_line_error(
        capsys,
        ["encode", "--tokenizer", str(tmp_path / "none"), str(corpus)],
        "vocab.json",
    )


def test_decode_errors(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    train(corpus, out, "--special", EOT)
    capsys.readouterr()
    ids = tmp_path / "ids.txt"
    ids.write_text("1 2 banana", encoding="utf-8")
    one_line_error(capsys, ["decode", "--tokenizer", str(out), str(ids)], "banana")
    ids.write_text("1 2 99999", encoding="utf-8")
    one_line_error(capsys, ["decode", "--tokenizer", str(out), str(ids)], "99999")


def test_unknown_special_in_tokenizer_folder(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    train(corpus, out)
    (out / "special_tokens.json").write_text('["<|unknown|>"]', encoding="utf-8")
    capsys.readouterr()
    one_line_error(
        capsys, ["encode", "--tokenizer", str(out), str(corpus)], "<|unknown|>"
    )


def test_console_script_is_installed(corpus):
    result = subprocess.run(
        [sys.executable, "-m", "bpe", "encode", "--help"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and "--tokenizer" in result.stdout


def test_out_is_checked_before_any_work(tmp_path, corpus, capsys, monkeypatch):
    import bpe.scale.cli as cli

    monkeypatch.setattr(
        cli, "train_files", lambda *a, **k: pytest.fail("trained before checking --out")
    )
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    one_line_error(
        capsys,
        train_argv(corpus, a_file),
        "not a folder",
    )


@pytest.mark.parametrize(
    "argv, hint",
    [
        (["--frob"], "(see bpe --help)"),
        (["train", "c.txt", "--vocab-size", "300", "--out", "t", "--frob"], "train"),
        (["encode", "--tokenizer", "t", "--frob"], "(see bpe encode --help)"),
        (["decode", "--frob"], "(see bpe decode --help)"),
    ],
)
def test_a_bad_command_line_points_to_the_right_help(capsys, argv, hint):
    line = one_line_error(capsys, argv, code=2)
    assert "bpe bpe" not in line
    assert (hint if hint.startswith("(") else f"(see bpe {hint} --help)") in line


def test_out_inside_a_file_is_one_clear_line(tmp_path, corpus, capsys, monkeypatch):
    import bpe.scale.cli as cli

    monkeypatch.setattr(
        cli, "train_files", lambda *a, **k: pytest.fail("trained before checking --out")
    )
    a_file = tmp_path / "afile"
    a_file.write_text("x")
    for out in [a_file / "tok", a_file / "deeper" / "tok"]:
        line = one_line_error(
            capsys, train_argv(corpus, out), str(a_file), "not a folder"
        )
        assert "Errno" not in line
    assert a_file.read_text() == "x"


def test_small_problems_get_one_clear_line(tmp_path, corpus, capsys):
    out = str(tmp_path / "tok")
    one_line_error(
        capsys,
        train_argv(tmp_path, out),
        "is a directory",
    )
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    one_line_error(capsys, train_argv(empty, out), "empty")
    assert not (tmp_path / "tok").exists()
    one_line_error(
        capsys,
        train_argv(corpus, out, vocab_size="lots"),
        "--vocab-size",
        code=2,
    )
    one_line_error(capsys, ["frobnicate"], "invalid choice", code=2)
    train(corpus, out, "--special", EOT)
    (tmp_path / "tok" / "special_tokens.json").write_text("[oops", encoding="utf-8")
    capsys.readouterr()
    one_line_error(
        capsys, ["encode", "--tokenizer", out, str(corpus)], "special_tokens.json"
    )


def test_running_out_of_pairs_is_one_plain_sentence(tmp_path, capsys):
    small = tmp_path / "small.txt"
    small.write_text("ab ab ab", encoding="utf-8")
    train(small, tmp_path / "t", vocab_size=1000)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ran out of pairs" in err[0] and "OutOfPairs" not in err[0]


def test_workers_are_capped_and_the_report_says_so(tmp_path, corpus, capsys):
    import os

    train(corpus, tmp_path / "t", "--workers", "1000")
    report = capsys.readouterr().out
    assert "(1000 asked)" in report and f"{min(os.cpu_count(), 2)} worker" in report


def test_an_interrupted_save_leaves_the_old_tokenizer_and_exits_130(
    tmp_path, corpus, capsys, monkeypatch
):
    from bpe.disk import atomic

    out = tmp_path / "tok"
    train(corpus, out, vocab_size=280)
    old = bpe.Tokenizer.load(out)

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "swap_in", interrupted)
    capsys.readouterr()
    assert main(train_argv(corpus, out, "--quiet")) == 130
    assert capsys.readouterr().err.strip() == "bpe train: interrupted"
    assert bpe.Tokenizer.load(out) == old


def test_encode_and_decode_stream_byte_for_byte(tmp_path, corpus):
    out = tmp_path / "tok"
    train(corpus, out, "--special", EOT)
    text = ("café 🙃 line\r\n" * 3000 + "x" * 70_000 + " end" + EOT + "tail\n").encode()
    encode = subprocess.run(
        [sys.executable, "-m", "bpe", "encode", "--tokenizer", str(out)],
        input=text,
        capture_output=True,
        check=True,
    )
    assert encode.stdout.decode().split() == [
        str(i) for i in bpe.Tokenizer.load(out).encode(text.decode())
    ]
    decode = subprocess.run(
        [sys.executable, "-m", "bpe", "decode", "--tokenizer", str(out)],
        input=encode.stdout,
        capture_output=True,
        check=True,
    )
    assert decode.stdout == text


def limited(megabytes):
    """A preexec_fn limiting a child's address space."""

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    return limit


def test_a_pipeline_of_encode_and_decode_runs_in_bounded_memory(tmp_path, corpus):
    """43 MB through `bpe encode | bpe decode`, each process held to 200 MB of address
    space: the text, its 15 million ids and their digits (over 300 MB) could not all be
    held at once."""
    import hashlib
    import threading

    out = tmp_path / "tok"
    train(corpus, out)
    line = ("Once upon a time, there was a little boat. " * 20 + "\r\n").encode()
    command = [sys.executable, "-m", "bpe"]
    encode = subprocess.Popen(
        [*command, "encode", "--tokenizer", str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        preexec_fn=limited(200),
    )
    decode = subprocess.Popen(
        [*command, "decode", "--tokenizer", str(out)],
        stdin=encode.stdout,
        stdout=subprocess.PIPE,
        preexec_fn=limited(200),
    )
    encode.stdout.close()

    def feed():
        for _ in range(50_000):
            encode.stdin.write(line)
        encode.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    digest = hashlib.sha256()
    for block in iter(lambda: decode.stdout.read(1 << 16), b""):
        digest.update(block)
    writer.join()
    assert encode.wait() == 0 and decode.wait() == 0
    assert digest.hexdigest() == hashlib.sha256(line * 50_000).hexdigest()


def processes_reading(path):
    """Pids of live processes whose command line names path."""
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if str(path).encode() in f.read():
                    with open(f"/proc/{pid}/stat") as s:
                        if s.read().split()[2] != "Z":
                            found.append(int(pid))
        except OSError:
            pass
    return found


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_stopping_bpe_train_stops_its_workers_quietly(
    tmp_path, tinystories_train_text, how
):
    import signal
    import time

    big = tmp_path / "big.txt"
    big.write_text(tinystories_train_text * 8, encoding="utf-8")
    out = tmp_path / "tok"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bpe",
            *train_argv(big, out, "--workers", "2", "--quiet", vocab_size=5000),
        ],  # fmt: skip
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 30
    while (
        len(processes_reading(big)) < 2 and time.time() < deadline
    ):  # the parent and a worker
        time.sleep(0.05)
    assert len(processes_reading(big)) >= 2, "no worker started"
    child.send_signal(getattr(signal, how))
    _, err = child.communicate(
        timeout=20
    )  # stderr closes only when the workers are gone too
    time.sleep(0.2)
    assert processes_reading(big) == []
    assert b"Traceback" not in err and b"BrokenPipe" not in err
    if how == "SIGTERM":
        assert (
            child.returncode == 143 and err.decode().strip() == "bpe train: interrupted"
        )
    assert not out.exists()


STOPPED_EARLY = """
import os, signal
from bpe.scale import cli, pool
signal.signal(signal.SIGTERM, cli.stop)  # as bpe train sets it
start = pool._start
def stopped_early(*args):  # SIGTERM comes before the helper sets its own handlers
    os.kill(os.getpid(), signal.SIGTERM)
    start(*args)
pool._start = stopped_early
try:
    pool.Helpers(abs, 2)
except pool.BrokenProcessPool:
    print("the helpers ended")
"""


def test_a_stop_while_the_helpers_start_prints_no_traceback():
    """The window that a busy machine widens: a helper stopped before its own
    handlers are set ends quietly, instead of raising the parent's Stop."""
    ran = subprocess.run(
        [sys.executable, "-c", STOPPED_EARLY],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.stdout == "the helpers ended\n"
    assert "Traceback" not in ran.stderr, ran.stderr


ORPHANED = """
import os
from bpe.scale import pool
pool.die_with_parent(os.getppid())  # its parent, alive: it goes on
print("told", flush=True)
pool.die_with_parent(os.getppid() + 1)  # forked by another, since gone
print("went on")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")
def test_a_helper_whose_parent_died_before_it_started_ends_at_once():
    """Killed between the fork and the helper's start, the parent can no longer tell
    the helper it died: the helper compares its parent with the pid the parent
    gave it, and ends (it would otherwise wait for work forever; seen under load)."""
    ran = subprocess.run(
        [sys.executable, "-c", ORPHANED], capture_output=True, text=True, timeout=60
    )
    assert (ran.returncode, ran.stdout) == (1, "told\n")
