"""The package's layers: a small core, no import cycles, and nothing needs the book's layer."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import bpe
from bpe.scale.pipeline import train_file

PACKAGE = Path(bpe.__file__).resolve().parent
CORE = [
    "pretokenize.py",
    "train.py",
    "tokenizer.py",
    "files.py",
    "__init__.py",
    "__main__.py",
]


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path):
    """The bpe modules a file imports (relative imports resolved), at any depth in the file."""
    name, found = module_name(path), set()
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1]
                    + ([base] if base else [])
                )
            for alias in node.names:
                found.add(
                    f"{base}.{alias.name}"
                    if (
                        PACKAGE.parent
                        / (f"{base}.{alias.name}".replace(".", "/") + ".py")
                    ).exists()
                    else base
                )
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m == "bpe" or m.startswith("bpe.")}


def graph():
    return {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}


def test_no_import_cycles():
    edges = graph()
    state = {}

    def visit(node, path):
        if state.get(node) == "open":
            pytest.fail("import cycle: " + " -> ".join(path + [node]))
        if state.get(node) == "done":
            return
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if nxt != node and nxt in edges and not nxt.startswith(node + "."):
                visit(nxt, path + [node])
        state[node] = "done"

    for node in sorted(edges):
        visit(node, [])


def test_nothing_outside_the_book_imports_it():
    for name, imported in graph().items():
        if not name.startswith("bpe.book"):
            assert not {m for m in imported if m.startswith("bpe.book")}, name


def test_training_encoding_and_saving_never_load_the_book(tmp_path):
    code = (
        "import sys, bpe, bpe.scale.cli, bpe.scale.pipeline, bpe.interop.openai\n"
        "t = bpe.Tokenizer(*bpe.train('low lower', 260))\n"
        f"t.save({str(tmp_path / 'tok')!r}); bpe.Tokenizer.load({str(tmp_path / 'tok')!r})\n"
        "print(sorted(m for m in sys.modules if m.startswith('bpe.book')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_core_is_small_and_import_bpe_gives_only_core_names():
    lines = sum(
        len((PACKAGE / f).read_text(encoding="utf-8").splitlines()) for f in CORE
    )
    assert lines < 900, f"the core has grown to {lines} lines"
    core_modules = {f"bpe.{f[:-3]}" for f in CORE}
    for name in bpe.__all__:
        assert (
            getattr(getattr(bpe, name), "__module__", "bpe.pretokenize") in core_modules
        ), name


def test_train_file_checks_its_arguments_once_and_well(tmp_path, monkeypatch):
    path = tmp_path / "t.txt"
    path.write_text("low lower newest<|endoftext|>widest low", encoding="utf-8")
    vocab, merges, _ = train_file(path, 270, ["<|endoftext|>"], workers=1, pattern=None)
    assert (vocab, merges) == bpe.train(
        path.read_text(encoding="utf-8"), 270, ["<|endoftext|>"], pattern=None
    )
    with pytest.raises(ValueError, match="positive integer"):
        train_file(path, 270, workers=-3)
    calls = []
    original = sys.modules[
        "bpe.pretokenize"
    ].check_specials  # bpe.pretokenize is the function
    for module in [m for name, m in sys.modules.items() if name.startswith("bpe")]:
        if getattr(module, "check_specials", None) is original:
            monkeypatch.setattr(
                module, "check_specials", lambda s: calls.append(1) or original(s)
            )
    train_file(path, 270, ["<|endoftext|>"], workers=2)
    assert len(calls) == 1
