"""Shared fixtures: the toy corpus, and Hypothesis made deterministic."""

import fcntl
import json
from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run, so a CI failure can be reproduced exactly.
settings.register_profile("bpe", derandomize=True, deadline=None, max_examples=150)
settings.load_profile("bpe")

DATA = Path(__file__).resolve().parents[1] / "data"
EOT = "<|endoftext|>"


@pytest.fixture(scope="session")
def tinystories_train_text():
    """TinyStories training text of the book (needs the mirror:
    bpe/data/registry.py)."""
    from bpe.data.corpora import tinystories_files

    return tinystories_files()[0].read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def from_tiktoken():
    """from_tiktoken("gpt2"): bpe.Tokenizer.from_tiktoken of that encoding, recovered
    once in a session (recovering 200,000 merges from ranks takes many seconds)."""
    import functools

    import bpe
    from bpe.interop.openai import get_encoding

    return functools.cache(lambda name: bpe.Tokenizer.from_tiktoken(get_encoding(name)))


@pytest.fixture(scope="session")
def toy_corpus():
    return (DATA / "toy_corpus.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def toy(toy_corpus):
    """The article's toy tokenizer: eight merges and one special token."""
    import bpe

    vocab, merges = bpe.train(toy_corpus, 265, specials=[EOT])
    return bpe.Tokenizer(vocab, merges, specials=[EOT])


class NodeBPE:
    """The book's JavaScript BPE in one Node process (tests/bpe_node.js), by lines."""

    RUNNER = Path(__file__).with_name("bpe_node.js")

    def __init__(self, node: str):
        import subprocess

        self.process = subprocess.Popen(
            [node, str(self.RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def __call__(self, op: str, **request):
        self.process.stdin.write(json.dumps({"op": op, **request}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"Node stopped (exit code {self.process.wait()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"JavaScript error in {op}: {answer['error']}")
        return answer["ok"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def node():
    """Ask the JavaScript BPE: node("train", text=..., merges=60); needs Node."""
    import os
    import shutil

    executable = shutil.which("node")
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("the widget tests need Node.js")
        pytest.skip("Node.js is not installed")
    runner = NodeBPE(executable)
    yield runner
    runner.close()


@pytest.fixture(scope="session")
def overlapping_merge():
    """A plausible wrong answer to the merge exercise, as a reader would type it: it
    merges every place the pair starts, even where two overlap (a a a -> aa aa)."""
    return '''def merge(tok, pair, new):
    """Wrong: every place the pair starts is merged, even where they overlap."""
    out = []
    for i, t in enumerate(tok):
        if tok[i : i + 2] == pair:
            out.append(new)
        elif i == 0 or tok[i - 1 : i + 1] != pair:
            out.append(t)
    return tuple(out)
'''


@pytest.fixture(scope="session")
def page_python():
    """The page's Python (Pyodide under Node, ``marks.PagePython``): one per pytest
    worker, shared by every test that asks it something (it takes seconds to start)."""
    from bpe.book.site import marks

    with marks.PagePython() as python:
        yield python


@pytest.fixture(scope="session")
def page_verdicts(request, tmp_path_factory):
    """classify()'s verdicts of one chapter, found when a test first asks for them.

    Running a chapter's cells in the page is the costliest check there is, so every
    test of a chapter (tests/test_live.py, tests/test_live_reasons.py) reads one run,
    whichever xdist worker asks first: the verdicts are kept in the run's shared temp
    folder, behind a lock. Untimed: a cell marked too slow stays so. From the marks:
    the cells tagged ``live`` are the first choice, in place of a run of every cell
    (``classify.classify``), so the chapter runs twice, not three times.
    """
    from bpe.book.site import marks

    kept = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # each xdist worker has a folder in it
        kept = kept.parent
    kept = kept / "page_verdicts"
    kept.mkdir(exist_ok=True)

    def of(path):
        found = kept / f"{path.stem}.json"
        with open(kept / f"{path.stem}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker waits for this run
            if not found.exists():
                python = request.getfixturevalue("page_python")
                verdicts = marks.classify_chapters(
                    [path], python, timed=False, from_marks=True
                )
                written = found.with_suffix(".part")
                written.write_text(json.dumps(verdicts[path.name]), encoding="utf-8")
                written.replace(found)
        return json.loads(found.read_text(encoding="utf-8"))

    return of
