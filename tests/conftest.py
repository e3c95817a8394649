"""Shared fixtures: the toy corpus, and Hypothesis made deterministic."""

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
        import json

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
def page_verdicts(page_python):
    """classify()'s verdicts of one chapter, found when a test first asks for them.

    Running a chapter's cells in the page is the costliest check there is, so both
    tests/test_live.py (the marks) and tests/test_live_reasons.py (the reasons) read
    one run: their tests of a chapter share an xdist group, so they land on the
    worker that ran it (``pytest_collection_modifyitems``). Untimed: a cell marked
    too slow stays so.
    """
    from bpe.book.site import marks

    found = {}

    def of(path):
        if path.name not in found:
            found.update(marks.classify_chapters([path], page_python, timed=False))
        return found[path.name]

    return of


PAGE_RUN_TESTS = ("test_live.py", "test_live_reasons.py")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(items):
    """Each test of one chapter's page run in that chapter's xdist group, so that the
    worker which ran the chapter's cells answers them all (``page_verdicts``)."""
    for item in items:
        path = getattr(getattr(item, "callspec", None), "params", {}).get("path")
        here = item.path.parent == Path(__file__).parent  # not tests/browser's
        if here and item.path.name in PAGE_RUN_TESTS and path is not None:
            item.add_marker(pytest.mark.xdist_group(path.stem))
