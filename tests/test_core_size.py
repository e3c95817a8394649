"""The core stays small enough to read in one sitting: under 900 lines.

The core is the package's top-level modules (``bpe/__init__.py``), what the book
teaches and chapter 98 prints whole; ``__main__.py``, the few lines that hand
``python -m bpe`` to the command line of ``bpe/scale/cli.py``, is not counted.
"""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bpe"
MOST = 899  # lines


def core_lines(package: Path = PACKAGE) -> dict[str, int]:
    """{file name: its lines} of each module of the core."""
    return {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(package.glob("*.py"))
        if path.name != "__main__.py"
    }


def test_the_core_is_under_900_lines():
    lines = core_lines()
    assert {"__init__.py", "trainer.py", "tokenizer.py"} <= lines.keys(), lines
    assert sum(lines.values()) <= MOST, lines


def test_a_longer_core_is_found(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n" * 500)
    (tmp_path / "b.py").write_text("y = 2\n" * 400)
    (tmp_path / "__main__.py").write_text("z = 3\n" * 50)
    assert core_lines(tmp_path) == {"a.py": 500, "b.py": 400}
    assert sum(core_lines(tmp_path).values()) > MOST
