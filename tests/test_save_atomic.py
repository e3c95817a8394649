"""Saving never leaves a folder that will not load: interrupts at every step, SIGKILL,
umask."""

import os
import signal
import subprocess
import sys
import time

import pytest

import bpe
from bpe.disk import atomic

EOT = "<|endoftext|>"


@pytest.fixture()
def old_and_new(toy):
    new = bpe.Tokenizer(
        *bpe.train("a quite different text, with other words " * 5, 300)
    )
    return toy, new


def leftovers(folder):
    """Temporary files or folders a save left beside or inside folder."""
    return sorted(
        p.name
        for p in [*folder.parent.iterdir(), *folder.iterdir()]
        if p.name.startswith(".")
    )


class Interrupt:
    """Raise KeyboardInterrupt at the n-th call of any wrapped function."""

    def __init__(self, monkeypatch, n):
        self.calls, self.n = 0, n
        for name in ("write_new", "exchange", "carry"):
            monkeypatch.setattr(atomic, name, self.wrap(getattr(atomic, name)))
        for name in ("rename", "mkdir", "chmod", "fsync", "open"):
            monkeypatch.setattr(atomic.os, name, self.wrap(getattr(os, name)))

    def wrap(self, function):
        def wrapped(*args, **kwargs):
            self.calls += 1
            if self.calls == self.n:
                raise KeyboardInterrupt(f"step {self.n}")
            return function(*args, **kwargs)

        return wrapped


@pytest.mark.parametrize("can_exchange", [True, False])
def test_an_interrupt_at_any_step_leaves_the_old_or_the_new_tokenizer(
    tmp_path, monkeypatch, old_and_new, can_exchange
):
    old, new = old_and_new
    folder = tmp_path / "tok"
    steps_seen = 0
    for n in range(1, 100):
        old.save(folder)
        (folder / "README").write_text("the user's own file")
        with monkeypatch.context() as m:
            if not can_exchange:
                m.setattr(atomic, "exchange", lambda a, b: False)
            interrupt = Interrupt(m, n)
            try:
                new.save(folder)
                finished = True
            except KeyboardInterrupt:
                finished = False
        around = sorted(p.name for p in tmp_path.iterdir())
        try:
            loaded = bpe.Tokenizer.load(folder)
        except FileNotFoundError as error:  # between the fallback's two renames
            assert not can_exchange and "settle" in str(error)
            assert sorted(p.name for p in tmp_path.iterdir()) == around  # untouched
            atomic.settle(folder)  # what the message says to do
            loaded = bpe.Tokenizer.load(folder)
        assert loaded in (old, new), f"interrupted at step {n}: a mixed folder"
        assert (folder / "README").read_text() == "the user's own file"
        if finished:
            assert loaded == new
            steps_seen = interrupt.calls
            break
    assert steps_seen > 5  # the loop really went through every step
    new.save(folder)  # a later save cleans up whatever the interrupted ones left
    assert leftovers(folder) == []


def test_specials_file_goes_when_the_new_tokenizer_has_none(tmp_path, old_and_new):
    old, new = old_and_new
    old.save(tmp_path / "tok")
    new.save(tmp_path / "tok")
    assert not (tmp_path / "tok" / "special_tokens.json").exists()
    assert bpe.Tokenizer.load(tmp_path / "tok") == new


def test_saved_files_follow_the_umask(tmp_path, toy):
    previous = os.umask(0o022)
    try:
        toy.save(tmp_path / "tok")
    finally:
        os.umask(previous)
    assert (tmp_path / "tok").stat().st_mode & 0o777 == 0o755
    saved = sorted((tmp_path / "tok").iterdir())
    assert {p.name for p in saved} >= {"merges.txt", "vocab.json"}
    for path in saved:
        assert path.stat().st_mode & 0o777 == 0o644, path


def test_save_keeps_the_folders_own_mode(tmp_path, toy):
    (tmp_path / "tok").mkdir(mode=0o750)
    os.chmod(tmp_path / "tok", 0o750)
    toy.save(tmp_path / "tok")
    assert (tmp_path / "tok").stat().st_mode & 0o777 == 0o750


SAVER = """
import sys, warnings
import bpe
warnings.simplefilter("ignore")
a = bpe.Tokenizer(*bpe.train("low low lower newest widest " * 20, 270))
b = bpe.Tokenizer(
    *bpe.train("completely other words here " * 20, 290, ["<|x|>"]), ["<|x|>"]
)
print(len(a.vocab), len(b.vocab), flush=True)
while True:
    a.save(sys.argv[1])
    b.save(sys.argv[1])
"""


def test_sigkill_while_saving_never_leaves_a_broken_folder(tmp_path):
    folder = tmp_path / "tok"
    seen = set()
    for delay in [0.001 * i for i in range(1, 30)]:
        child = subprocess.Popen(
            [sys.executable, "-c", SAVER, str(folder)], stdout=subprocess.PIPE
        )
        sizes = set(map(int, child.stdout.readline().split()))  # printed once trained
        time.sleep(0.05 + delay)
        child.send_signal(signal.SIGKILL)
        child.wait()
        if folder.exists():
            seen.add(len(bpe.Tokenizer.load(folder).vocab))  # loads: never a mix
    assert seen <= sizes and seen
    bpe.Tokenizer(*bpe.train("x y", 257)).save(folder)
    assert leftovers(folder) == []


WRITER = """
import sys
from pathlib import Path
from bpe.disk import atomic

real = atomic.write_new


def slow(path, data):
    real(path, data)
    print("writing", flush=True)
    sys.stdin.readline()  # until the test says go on


atomic.write_new = slow
atomic.replace_folder(Path(sys.argv[1]), {"a.txt": b"the writer's"})
print("done", flush=True)
"""


def writer_in_the_middle(folder):
    """A second process saving into folder, stopped with its new folder half written."""
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline() == "writing\n"
    return child


def test_a_save_leaves_another_process_s_save_alone(tmp_path):
    folder = tmp_path / "tok"
    child = writer_in_the_middle(folder)
    try:
        (its_new,) = [p for p in tmp_path.iterdir() if p.name.endswith(".new")]
        atomic.replace_folder(folder, {"a.txt": b"mine"})  # meanwhile, here
        assert its_new.is_dir() and (folder / "a.txt").read_bytes() == b"mine"
        out, _ = child.communicate("go on\n", timeout=60)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 0 and out == "done\n"
    assert (folder / "a.txt").read_bytes() == b"the writer's"
    assert leftovers(folder) == []


def test_a_save_removes_what_a_killed_process_left(tmp_path):
    folder = tmp_path / "tok"
    child = writer_in_the_middle(folder)
    child.kill()
    child.wait()
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".tok.")]
    assert any(name.endswith(".new") for name in left), left  # half written
    atomic.replace_folder(folder, {"a.txt": b"mine"})
    assert leftovers(folder) == [] and (folder / "a.txt").read_bytes() == b"mine"
