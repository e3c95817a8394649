"""The package's layers: a small core that imports none of them, no import cycles, and
nothing needs the book's layer."""

import ast
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import bpe
from bpe.scale.pipeline import train_file

PACKAGE = Path(bpe.__file__).resolve().parent
# what the book teaches
CORE = ["pretokenizer.py", "trainer.py", "tokenizer.py", "files.py"]
CORE_MODULES = {f"bpe.{name[:-3]}" for name in CORE}
LAYERS = {"scale", "interop", "disk", "book"}


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path):
    """The bpe modules a file imports (relative imports resolved), at any depth."""
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


def test_the_graph_holds_every_module():
    edges = graph()
    assert CORE_MODULES <= set(edges)
    assert {
        "bpe.scale.tokenizer",
        "bpe.disk.atomic",
        "bpe.book.chapters.show_source",
    } <= set(edges)


def test_nothing_outside_the_book_imports_it():
    edges = graph()
    assert any(name.startswith("bpe.book") for name in edges)
    for name, imported in edges.items():
        if not name.startswith("bpe.book"):
            assert not {m for m in imported if m.startswith("bpe.book")}, name


def test_training_encoding_and_saving_never_load_the_book(tmp_path):
    code = (
        "import sys, bpe, bpe.scale.cli, bpe.scale.pipeline, bpe.interop.openai\n"
        "t = bpe.Tokenizer(*bpe.train('low lower', 260))\n"
        f"t.save({str(tmp_path / 'tok')!r})\n"
        f"bpe.Tokenizer.load({str(tmp_path / 'tok')!r})\n"
        "print(sorted(m for m in sys.modules if m.startswith('bpe.book')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_core_imports_no_layer():
    """Every arrow between the core and a layer runs from the layer to the core."""
    edges = graph()
    for module in sorted(CORE_MODULES):
        layers = {m for m in edges[module] if m.split(".")[1] in LAYERS}
        assert not layers, f"{module} imports {sorted(layers)}"
        others = {m for m in edges[module] if m != "bpe"} - CORE_MODULES
        assert not others, f"{module} imports {sorted(others)}, outside the core"


def test_the_core_needs_only_the_standard_library_and_regex():
    allowed = set(sys.stdlib_module_names) | {"regex", "__future__"}
    for name in CORE:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = {node.module.split(".")[0]}
            else:
                continue
            assert tops <= allowed | {"bpe"}, f"{name} imports {sorted(tops - allowed)}"


def test_import_bpe_loads_the_core_and_the_fast_parts_only():
    loaded = "sorted(m for m in sys.modules if m.startswith('bpe'))"
    code = f"import sys, bpe; print({loaded})"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = set(eval(out.stdout))
    heavy = {"bpe.scale.pool", "bpe.scale.batch", "bpe.disk.atomic", "bpe.scale.cli"}
    assert CORE_MODULES <= loaded and not heavy & loaded


def test_bpe_gives_the_core_names_and_the_fast_train_and_tokenizer():
    from bpe.scale import compiled, tokenizer, training

    assert bpe.Tokenizer is tokenizer.Tokenizer and bpe.train is training.train
    assert issubclass(bpe.Tokenizer, sys.modules["bpe.tokenizer"].Tokenizer)
    assert bpe.compiled is compiled.status  # which fast parts run compiled
    for name in set(bpe.__all__) - {"Tokenizer", "train", "compiled"}:
        module = getattr(getattr(bpe, name), "__module__", "bpe.pretokenizer")
        assert module in CORE_MODULES, name


def test_no_public_name_of_bpe_hides_a_module():
    # ``import bpe; bpe.trainer.naive_merges`` must reach the module: a function
    # of the same name as a module would stand in its place.
    modules = {m.name for m in pkgutil.iter_modules(bpe.__path__)}
    assert {"pretokenizer", "trainer", "tokenizer", "files"} <= modules
    for name in modules & set(dir(bpe)):
        assert inspect.ismodule(getattr(bpe, name)), name
    assert not modules & set(bpe.__all__)


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
    original = bpe.pretokenizer.check_specials
    for module in [m for name, m in sys.modules.items() if name.startswith("bpe")]:
        if getattr(module, "check_specials", None) is original:
            monkeypatch.setattr(
                module, "check_specials", lambda s: calls.append(1) or original(s)
            )
    train_file(path, 270, ["<|endoftext|>"], workers=2)
    assert len(calls) == 1


def test_every_training_entry_point_checks_workers_the_same_way(tmp_path, toy):
    path = tmp_path / "t.txt"
    path.write_text("low lower", encoding="utf-8")
    from bpe.scale.pipeline import train_files, train_iterator

    calls = [
        lambda w: train_file(path, 270, workers=w),
        lambda w: train_files([path], 270, workers=w),
        lambda w: train_iterator(["low lower"], 270, workers=w),
        lambda w: toy.encode_batch(["low"], workers=w),
    ]
    for call in calls:
        for bad in (True, 0, -1, 1.5, "2"):
            with pytest.raises(ValueError, match="positive integer"):
                call(bad)


# Each layer imports only the layers below it (the core is below all): the book's
# parts sit on the data and the measures, which sit on the fast layer. interop holds
# formats only; disk holds safe writes only.
BELOW = {
    "disk": set(),
    "interop": {"disk"},
    "scale": {"disk", "interop"},
    "data": {"disk", "interop", "scale"},
    "measure": {"disk", "interop", "scale", "data"},
    "book": {"disk", "interop", "scale", "data", "measure"},
}
# Within the book: what the page runs never needs the site's build, and what the
# chapters call never needs the page, the site or the practice.
BOOK_BELOW = {
    "chapters": set(),
    "figures": {"chapters"},
    "practice": {"chapters"},
    "page": {"chapters", "practice"},
    "site": {"chapters", "figures", "practice", "page"},
}


def layer_of(module, depth=1):
    parts = module.split(".")
    return parts[depth] if len(parts) > depth else None


@pytest.mark.parametrize("layer", sorted(BELOW))
def test_each_layer_imports_only_the_layers_below_it(layer):
    for name, imported in graph().items():
        if layer_of(name) != layer:
            continue
        above = {m for m in imported if layer_of(m) in set(BELOW) - BELOW[layer]}
        above = {m for m in above if layer_of(m) != layer}
        assert not above, f"{name} imports {sorted(above)}"


@pytest.mark.parametrize("part", sorted(BOOK_BELOW))
def test_each_part_of_the_book_imports_only_the_parts_below_it(part):
    for name, imported in graph().items():
        if not name.startswith(f"bpe.book.{part}"):
            continue
        book = {m for m in imported if m.startswith("bpe.book.")}
        above = {m for m in book if layer_of(m, 2) not in BOOK_BELOW[part] | {part}}
        assert not above, f"{name} imports {sorted(above)}"


def test_the_book_has_its_parts_and_few_modules_at_its_top():
    top = sorted(p.name for p in (PACKAGE / "book").glob("*.py"))
    assert top == ["__init__.py"], top
    for part in BOOK_BELOW:
        init = PACKAGE / "book" / part / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), part
