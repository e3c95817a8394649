"""No function of the package or the benchmarks is longer than 60 lines.

A reader should see a function whole; a longer one is split into named steps.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONGEST = 60


def long_functions(root: Path = ROOT, folders=("bpe", "bench")) -> list[str]:
    """ "path:line name (n lines)" for each function over LONGEST lines."""
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > LONGEST:
                        where = path.relative_to(root).as_posix()
                        found.append(f"{where}:{node.lineno} {node.name} ({lines})")
    return found


def test_no_function_is_over_60_lines():
    assert long_functions() == []


def test_a_function_of_61_lines_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST))
    (tmp_path / "pkg" / "m.py").write_text(f"def f():\n{body}\n\ndef g():\n    pass\n")
    assert long_functions(tmp_path, ("pkg",)) == ["pkg/m.py:1 f (61)"]
