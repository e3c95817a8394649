"""encode_batch: the same ids as encode, in order, whoever encodes each run; errors
reach the caller."""

import gc
import os
import time

import pytest

import bpe
from bpe.scale.batch import slices

EOT = "<|endoftext|>"


@pytest.fixture
def fork_always(monkeypatch):
    """Let tiny test batches take the forked path, which batches this small skip."""
    monkeypatch.setattr(bpe.scale.batch, "CHARS_PER_WORKER", 1)
    monkeypatch.setattr(bpe.scale.batch, "CHARS_TO_FORK", 1)


def test_slices_cover_everything_in_order():
    texts = [str(i) * i for i in range(20)]
    for n in (1, 2, 3, 7, 30):
        parts = slices(texts, n)
        assert len(parts) == n and sum(parts, []) == texts


def test_matches_encode(toy, fork_always):
    texts = [f"newest {i} lowest" * (i % 7) for i in range(50)] + ["", EOT]
    expected = [toy.encode(t) for t in texts]
    for workers in (1, 2, 3):
        assert toy.encode_batch(texts, workers=workers) == expected
    assert toy.encode_batch([], workers=2) == []


def test_options_reach_the_workers(toy, fork_always):
    texts = ["fox" + EOT] * 40
    assert toy.encode_batch(
        texts, workers=2, allowed_special=set(), disallowed_special=()
    ) == [toy.encode_ordinary(t) for t in texts]
    with pytest.raises(ValueError, match="special token"):
        toy.encode_batch(texts, workers=2, allowed_special=set())


def test_large_batch_in_order(tinystories_train_text):
    """The real path (no patching): 1 MB of stories, two processes, encode's ids."""
    stories = tinystories_train_text[:1_000_000].split(EOT)[:-1]
    tok = bpe.Tokenizer(*bpe.train(tinystories_train_text[:100_000], 600, [EOT]), [EOT])
    assert tok.encode_batch(stories, workers=2) == [tok.encode(s) for s in stories]


class FailsInWorkers(bpe.Tokenizer):
    """A tokenizer whose encode breaks only outside the process that made it.

    The parent is slowed down so that the worker surely gets some of the runs.
    """

    def __init__(self, tok, how):
        super().__init__(tok.vocab, tok.merges, tok.specials)
        self.parent, self.how = os.getpid(), how

    def encode(self, text, **options):
        if os.getpid() != self.parent:
            if self.how == "die":
                os._exit(3)
            raise KeyError("broken in a worker")
        time.sleep(0.005)
        return super().encode(text, **options)


def test_a_worker_error_is_raised_here(toy, fork_always):
    failing = FailsInWorkers(toy, "raise")
    with pytest.raises(KeyError, match="broken in a worker"):
        failing.encode_batch(["newest"] * 200, workers=2)
    assert failing._helpers.closed  # the next batch starts afresh


def test_a_worker_that_dies_is_reported(toy, fork_always):
    with pytest.raises(RuntimeError, match="died"):
        FailsInWorkers(toy, "die").encode_batch(["newest"] * 200, workers=2)


def worker_pids(tok):
    return sorted(process.pid for process in tok._helpers.processes())


def test_workers_are_kept_between_batches_and_closed_on_request(
    toy_corpus, fork_always
):
    tok = bpe.Tokenizer(*bpe.train(toy_corpus, 265, [EOT]), [EOT])
    texts = ["newest lowest"] * 100
    assert tok.encode_batch(texts, workers=2) == [tok.encode(t) for t in texts]
    pids = worker_pids(tok)
    tok.encode_batch(texts, workers=2)
    assert worker_pids(tok) == pids and len(pids) == 1
    tok.encode_batch(texts, workers=3)  # another size: a new pool
    assert len(worker_pids(tok)) == 2 and not set(worker_pids(tok)) & set(pids)
    processes = tok._helpers.processes()
    tok.close()
    assert not any(process.is_alive() for process in processes)
    assert tok.encode_batch(texts, workers=2) == [
        tok.encode(t) for t in texts
    ]  # forks again
    tok.close()


def test_workers_end_with_their_tokenizer(toy_corpus, fork_always):
    tok = bpe.Tokenizer(*bpe.train(toy_corpus, 265, [EOT]), [EOT])
    tok.encode_batch(["newest lowest"] * 100, workers=2)
    process = tok._helpers.processes()[0]
    del tok
    gc.collect()
    process.join(timeout=5)
    assert not process.is_alive()


def test_bad_options_leave_the_workers_running(toy_corpus, fork_always):
    tok = bpe.Tokenizer(*bpe.train(toy_corpus, 265, [EOT]), [EOT])
    tok.encode_batch(["newest"] * 50, workers=2)
    pids = worker_pids(tok)
    with pytest.raises(ValueError, match="not special tokens"):
        tok.encode_batch(["newest"] * 50, workers=2, allowed_special={"<|pad|>"})
    with pytest.raises(TypeError):
        tok.encode_batch(["newest"] * 50, workers=2, colour="red")
    assert worker_pids(tok) == pids
    tok.close()


def test_errors_in_this_process(toy, fork_always):
    with pytest.raises(ValueError, match="surrogate"):
        toy.encode_batch(["fine"] * 10 + ["bad \ud800"] * 10, workers=2)
    with pytest.raises(TypeError, match="str"):
        toy.encode_batch(["fine", b"bytes"], workers=2)
    with pytest.raises(ValueError, match="positive"):
        toy.encode_batch(["fine"], workers=0)


def test_small_batches_stay_in_this_process(toy, monkeypatch):
    monkeypatch.setattr(bpe.scale.batch, "Helpers", None)  # calling it would fail
    assert (
        toy.encode_batch(["newest lowest"] * 100, workers=2)
        == [toy.encode("newest lowest")] * 100
    )


def test_running_workers_take_smaller_batches(toy_corpus, monkeypatch):
    """A batch too small to pay for a fork is still shared once the workers are up."""
    tok = bpe.Tokenizer(*bpe.train(toy_corpus, 265, [EOT]), [EOT])
    shared = []
    runs = bpe.scale.batch.slices
    monkeypatch.setattr(
        bpe.scale.batch, "slices", lambda *args: shared.append(1) or runs(*args)
    )
    mid = ["newest lowest widest"] * (
        2 * bpe.scale.batch.CHARS_PER_WORKER // 10
    )  # 20 characters each
    tok.encode_batch(mid, workers=2)
    assert shared == [] and tok._helpers is None  # no fork for this little
    big = ["newest lowest widest"] * (2 * bpe.scale.batch.CHARS_TO_FORK // 20 + 1)
    assert tok.encode_batch(big, workers=2) == [
        tok.encode(t) for t in big
    ] and shared == [1]
    assert tok.encode_batch(mid, workers=2) == [
        tok.encode(t) for t in mid
    ] and shared == [1, 1]
    tok.close()


def test_a_forked_copy_gets_workers_of_its_own(toy_corpus, fork_always):
    """After os.fork (say, in a user's own pool), the copy starts workers of its own.

    It must never talk to its parent's workers.
    """
    tok = bpe.Tokenizer(*bpe.train(toy_corpus, 265, [EOT]), [EOT])
    texts = ["newest lowest"] * 100
    tok.encode_batch(texts, workers=2)
    pids = worker_pids(tok)
    child = os.fork()
    if child == 0:
        ok = tok.encode_batch(texts, workers=2) == [tok.encode(t) for t in texts]
        ok = ok and worker_pids(tok) != pids
        tok.close()
        del tok
        gc.collect()
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert worker_pids(tok) == pids  # ours are untouched, and still serve
    assert tok.encode_batch(texts, workers=2) == [tok.encode(t) for t in texts]
    tok.close()
