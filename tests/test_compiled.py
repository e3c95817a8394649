"""The compiled hot modules answer as their Python source does, and never fail to load.

``make test`` runs this file twice: as the package runs here (compiled when a C
compiler is present) and with ``BPE_PURE_PYTHON=1``. The comparisons below hold
the two paths side by side in one process: each hot module against its own source
run as Python (``compiled.pure_twin``), and ``train_file`` at every worker count
against a fresh process that runs everything as Python.
"""

import doctest
import importlib.util
import json
import os
import pickle
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.scale import build, compiled
from bpe.scale.pipeline import train_file

ROOT = Path(__file__).resolve().parents[1]
EOT = "<|endoftext|>"
FORCED = os.environ.get(compiled.PURE, "") not in ("", "0")
CAN_COMPILE = build.compiler() is not None and importlib.util.find_spec("Cython")


def run_python(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    """python with args in a fresh interpreter, in cwd, with env added."""
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **env},
        check=False,
    )


def test_each_hot_module_runs_compiled_exactly_when_it_can():
    expected = bool(CAN_COMPILE) and not FORCED
    assert bpe.compiled() == {name: expected for name in compiled.HOT}


def doctests(module) -> doctest.TestResults:
    """Run module's doctests, found in module itself (a twin shares its name)."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module, module=module):
        runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("name", compiled.HOT)
def test_the_doctests_run_on_the_module_that_runs(name):
    # pytest collects doctests from the .py; on a compiled module they run here
    ran, twin = doctests(sys.modules[name]), doctests(compiled.pure_twin(name))
    assert ran.failed == twin.failed == 0
    assert ran.attempted == twin.attempted  # none is lost by compiling


def corpus(n_words: int, seed: int) -> str:
    import random

    rng = random.Random(seed)
    letters = "etaoinshrdlu ab\u00e9\u725b"
    words = ["".join(rng.choices(letters, k=rng.randint(1, 9))) for _ in range(400)]
    chosen = rng.choices(words, weights=range(400, 0, -1), k=n_words)
    return " ".join(chosen) + EOT + "aaaa abab abababab " * 5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compact_and_indexed_merges_equal_their_sources(seed):
    from bpe.scale import compact, indexed

    table = bpe.pretokenize(corpus(3_000, seed), [EOT])
    pure_compact = compiled.pure_twin("bpe.scale.compact")
    pure_indexed = compiled.pure_twin("bpe.scale.indexed")
    strings = {b"".join(k).decode("utf-8"): v for k, v in table.items()}
    runs = [
        compact.compact_merges(dict(table), 600)[0],
        pure_compact.compact_merges(dict(table), 600)[0],
        indexed.indexed_merges(dict(table), 600)[0],
        pure_indexed.indexed_merges(dict(table), 600)[0],
    ]
    assert all(run == runs[0] for run in runs) and len(runs[0]) > 100
    # a table of strings (what train_files feeds in), emptied as it is read
    assert (
        compact.compact_merges(dict(strings), 600, taken=True)[0]
        == (pure_compact.compact_merges(dict(strings), 600, taken=True)[0])
    )


texts = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=0, max_size=300
)


@settings(max_examples=150, deadline=None)
@given(st.lists(texts, min_size=1, max_size=6))
def test_pieces_encode_and_count_as_their_sources(pieces):
    from bpe.scale import piece, word_counts

    vocab, merges = shared_tokenizer()
    token_id = {tok: i for i, tok in vocab.items()}
    fast = piece.PieceEncoder(merges, token_id)
    pure = compiled.pure_twin("bpe.scale.piece").PieceEncoder(merges, token_id)
    assert fast.all(pieces) == pure.all(pieces)
    pure_counts = compiled.pure_twin("bpe.scale.word_counts").count_by_words
    assert word_counts.count_by_words(pieces, (EOT,)) == pure_counts(pieces, (EOT,))


_SHARED = {}


def shared_tokenizer():
    if not _SHARED:
        _SHARED["t"] = bpe.train(corpus(2_000, 7) + " 牛牛 🙃🙃 éé", 500, [EOT])
    return _SHARED["t"]


def test_train_file_learns_the_pure_merges_at_every_worker_count(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(corpus(20_000, 3), encoding="utf-8")
    here = [train_file(path, 700, [EOT], workers=w)[1] for w in (1, 2, 3)]
    code = (
        "import json, sys, bpe; from bpe.scale.pipeline import train_file\n"
        "assert not any(bpe.compiled().values())\n"
        f"m = [train_file({str(path)!r}, 700, [{EOT!r}], workers=w)[1]"
        " for w in (1, 2, 3)]\n"
        "print(json.dumps([[[a.hex(), b.hex()] for a, b in r] for r in m]))"
    )
    done = run_python("-c", code, **{compiled.PURE: "1"})
    assert done.returncode == 0, done.stderr
    pure = [
        [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in r]
        for r in json.loads(done.stdout)
    ]
    assert here[0] == here[1] == here[2] == pure[0] == pure[1] == pure[2]


def test_a_tokenizer_pickled_on_one_path_loads_on_the_other():
    vocab, merges = shared_tokenizer()
    tok = bpe.Tokenizer(vocab, merges, specials=[EOT])
    text = corpus(300, 5)
    tok.encode(text)  # fill the piece cache, which pickles too
    code = (
        "import pickle, sys, bpe\n"
        "tok = pickle.loads(sys.stdin.buffer.read())\n"
        f"print(tok.encode({text!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(tok),
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, compiled.PURE: "0" if FORCED else "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == str(tok.encode(text))


def test_a_stale_extension_is_refused_with_one_warning(monkeypatch):
    name = "bpe.scale.compact"
    monkeypatch.delenv(compiled.PURE, raising=False)
    monkeypatch.setattr(compiled, "manifest", lambda: {"sources": {name: "0" * 64}})
    monkeypatch.setattr(compiled, "extension_of", compiled.source_of)  # a file
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = compiled.SourceWhenStale().find_spec(name)
    assert spec.origin == str(compiled.source_of(name))
    assert [str(w.message) for w in caught] == [
        f"bpe: {name} runs as Python: compact.py changed after it was compiled"
        " (make compiled rebuilds it)"
    ]


def test_an_extension_for_another_python_is_refused_with_one_warning(
    monkeypatch, tmp_path
):
    (tmp_path / "piece.py").write_text("", encoding="utf-8")
    (tmp_path / "piece.cpython-399-x86_64-linux-gnu.so").write_bytes(b"")
    monkeypatch.delenv(compiled.PURE, raising=False)
    monkeypatch.setattr(compiled, "HERE", tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = compiled.SourceWhenStale().find_spec("bpe.scale.piece")
    assert spec.origin == str(tmp_path / "piece.py")
    assert len(caught) == 1 and "built for another Python" in str(caught[0].message)


def test_a_module_that_is_not_hot_is_left_to_python():
    assert compiled.SourceWhenStale().find_spec("bpe.scale.pool") is None


@pytest.mark.parametrize(
    ("cc", "says"),
    [
        ("/nonexistent/cc", "bpe: no C compiler found: the pure-Python path runs"),
        ("false", "bpe: compiling failed"),
    ],
)
def test_without_a_working_compiler_the_build_says_so_and_python_runs(
    tmp_path, cc, says
):
    # in a copy of the package, so that the failed build cannot touch this one's
    without = shutil.ignore_patterns("*.so", "compiled.json")
    shutil.copytree(ROOT / "bpe", tmp_path / "bpe", ignore=without)
    env = {"CC": cc, "PYTHONPATH": str(tmp_path), compiled.PURE: "1"}
    done = run_python("-m", "bpe.scale.build", cwd=tmp_path, **env)
    assert done.returncode == 0 and done.stdout.startswith(says), done.stdout
    assert len(done.stdout.splitlines()) == 1 and not done.stderr
    assert not list((tmp_path / "bpe" / "scale").glob("*.so"))
    env[compiled.PURE] = ""
    status = run_python("-c", "import bpe; print(bpe.compiled())", cwd=tmp_path, **env)
    assert status.stdout.strip() == str(dict.fromkeys(compiled.HOT, False))
    assert not status.stderr  # never built: no warning either


# Where Cython is missing (Pyodide, a plain install) ``import cython`` fails, and the
# hot modules take bpe/scale/_cython.py instead: a sitecustomize makes it fail here.
NO_CYTHON = "import sys\nsys.modules['cython'] = None  # import cython: ImportError\n"


def test_without_cython_the_hot_modules_run_on_its_stand_in(tmp_path):
    """With Cython absent, every hot module imports, takes bpe/scale/_cython.py
    where it uses cython, and passes its own tests and doctests as Python."""
    (tmp_path / "sitecustomize.py").write_text(NO_CYTHON)
    env = {
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        compiled.PURE: "1",
    }
    check = (
        "import importlib, bpe.scale.compiled as c\n"
        "for name in c.HOT:\n"
        "    m = importlib.import_module(name)\n"
        "    assert m.__file__.endswith('.py'), m.__file__\n"
        "    print(name, getattr(getattr(m, 'cython', None), '__name__', ''))\n"
    )
    done = run_python("-c", check, **env)
    assert done.returncode == 0, done.stderr
    assert "bpe.scale.compact bpe.scale._cython" in done.stdout.splitlines()
    hot = [str(compiled.source_of(m)) for m in compiled.HOT]
    tests = ["tests/test_fast.py", "tests/test_piece.py", "tests/test_word_counts.py"]
    args = ["-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
    args += ["-m", "not slow", "--doctest-modules", *tests, *hot]
    done = run_python(*args, **env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
