"""One setting, repository.url, drives the launch buttons and each bootstrap cell."""

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

from bpe.book.site import config as site

ROOT = Path(__file__).resolve().parents[1]
URL = site.repository_url(site.load_config(ROOT / "_config.yml"))


@pytest.mark.parametrize(
    "path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name
)
def test_every_chapter_opens_with_the_bootstrap_cell(path):
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
    assert "".join(first["source"]) == site.bootstrap_source(URL)
    assert first["metadata"]["tags"] == [site.BOOTSTRAP_TAG]


def run_bootstrap(url, monkeypatch, bpe_installed):
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: calls.append(args))
    monkeypatch.setattr(os, "chdir", lambda path: calls.append(["chdir", path]))
    if not bpe_installed:
        real = importlib.util.find_spec
        monkeypatch.setattr(
            importlib.util,
            "find_spec",
            lambda name, *a: None if name == "bpe" else real(name, *a),
        )
    exec(compile(site.bootstrap_source(url), "bootstrap", "exec"), {})
    return calls


def test_the_bootstrap_cell_does_nothing_where_bpe_imports(monkeypatch):
    for url in ("", "https://github.com/someone/bpe-book"):
        assert run_bootstrap(url, monkeypatch, bpe_installed=True) == []


def test_without_bpe_it_installs_from_the_repository(monkeypatch):
    calls = run_bootstrap("https://github.com/someone/bpe-book", monkeypatch, False)
    assert calls[0][:3] == ["git", "clone", "--depth=1"]
    assert calls[0][3] == "https://github.com/someone/bpe-book"
    assert calls[1][-1] == "./bpe-book[book]" and calls[2] == [
        "chdir",
        "bpe-book/notebooks",
    ]


def test_without_bpe_or_a_repository_it_says_in_one_line_how_to_get_it(
    monkeypatch, capsys
):
    """A downloaded chapter's first cell runs without error and tells the reader the
    README's ways to install the package; it fetches nothing."""
    assert run_bootstrap("", monkeypatch, bpe_installed=False) == []
    said = capsys.readouterr()
    assert said.err == ""
    lines = said.out.splitlines()
    assert len(lines) == 1, lines
    assert "`make lab`" in lines[0] and "`pip install -e .`" in lines[0]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab" in readme and "pip install -e ." in readme


@pytest.mark.parametrize("url", ["", "https://github.com/someone/bpe-book"])
def test_the_bootstrap_cell_fits_88_columns(url):
    assert max(map(len, site.bootstrap_source(url).splitlines())) <= 88


def test_buttons_only_with_a_repository():
    config = site.load_config(ROOT / "_config.yml")
    config["repository"]["url"] = ""
    built = site.site_config(config)
    assert "launch_buttons" not in built and "repository" not in built
    assert not built["html"]["use_repository_button"]
    config["repository"]["url"] = "https://github.com/someone/bpe-book"
    assert site.site_config(config) == config


def test_make_book_reruns_only_what_changed(tmp_path):
    """make book's cache (bpe.book.site.config --cache): after an edit to a chapter's
    prose, its stored run still matches; after an edit to the package, nothing
    matches."""
    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    (tmp_path / "bpe").mkdir()
    (tmp_path / "bpe" / "core.py").write_text("ANSWER = 42\n")
    chapter = tmp_path / "chapter.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("Prose."),
        nbformat.v4.new_code_cell("6 * 7"),
    ]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, chapter)

    cache = get_cache(site.cache_folder(tmp_path))
    cache.add_nb_to_project(str(chapter))
    load_executor("local-serial", cache).run_and_cache()
    (record,) = cache.list_cache_records()

    notebook.cells[0].source = "Prose, edited."
    nbformat.write(notebook, chapter)
    assert cache.match_cache_file(str(chapter)).pk == record.pk  # nothing runs again

    (tmp_path / "bpe" / "core.py").write_text("ANSWER = 43\n")
    folder = site.cache_folder(tmp_path)
    assert [p.name for p in folder.parent.iterdir()] == []  # the old cache is gone
    fresh = get_cache(folder)
    with pytest.raises(KeyError):
        fresh.match_cache_file(str(chapter))  # every chapter runs again
