"""The article edition's pipeline, run offline on small local files given by path."""

import pytest

from bpe.book.chapters import analysis
from bpe.book.figures import article, ledger
from bpe.data import corpora

EOT = "<|endoftext|>"


@pytest.fixture(scope="module")
def local_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("article")
    stories = corpora.stories()
    valid, train = folder / "valid.txt", folder / "train.txt"
    valid.write_text("".join(s + EOT for s in stories[:300]), encoding="utf-8")
    train.write_text("".join(s + EOT for s in stories[300:1500]), encoding="utf-8")
    pairs = corpora.en_vi_pairs("tatoeba")[:300]
    en, vi = folder / "en.txt", folder / "vi.txt"
    en.write_text("\n".join(p[0] for p in pairs) + "\n", encoding="utf-8")
    vi.write_text("\n".join(p[1] for p in pairs) + "\n", encoding="utf-8")
    return valid, train, en, vi, pairs


def test_main_on_local_files_prints_every_figure_beside_the_articles(
    local_files, capsys
):
    valid, train, en, vi, pairs = local_files
    figures = article.main(
        [
            "--valid",
            str(valid),
            "--train",
            str(train),
            "--pairs",
            str(en),
            str(vi),
            "--vocab-size",
            "2000",
        ]
    )
    assert set(figures) <= set(ledger.ARTICLE)
    out = capsys.readouterr().out
    assert out.count("    article: ") == len(figures)
    assert figures["stories.round_trip"] == "200 of 200"
    assert figures["fast.merges"] == 2000 - 257
    assert len(figures["pretok.no_regex"].split(" ")) == 20


def test_read_pairs_strips_line_endings(tmp_path):
    (tmp_path / "en").write_bytes(b"one\r\ntwo\r\n")
    (tmp_path / "vi").write_bytes(b"m\xe1\xbb\x99t\r\nhai\r\n")
    assert article.read_pairs(tmp_path / "en", tmp_path / "vi") == [
        ("one", "một"),
        ("two", "hai"),
    ]


def test_language_figures_count_every_pair(local_files):
    *_, pairs = local_files
    import bpe

    tok = bpe.Tokenizer(*bpe.train("low lower", 260))
    costs = analysis.language_costs(article.encoders_for(tok), pairs[:20])
    figures = article.language_figures(pairs[:20], costs)
    names = ["gpt2", "cl100k_base", "o200k_base", "tinystories"]
    assert set(figures) == {
        "lang.en_stats",
        "lang.vi_stats",
        *(f"lang.{n}" for n in names),
        *(f"lang.{n}_bpt" for n in names),
    }


def test_make_article_runs_its_module_on_local_files(local_files):
    """The Makefile's own target, as a reader runs it, with stand-in files, offline."""
    import shlex
    import subprocess
    from pathlib import Path

    valid, train, en, vi, _ = local_files
    args = f"--valid {valid} --train {train} --pairs {en} {vi} --vocab-size 1000"
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        ["make", "-s", "-C", str(root), "article", f"ARTICLE_ARGS={args}"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("    article: ") >= 10, shlex.quote(done.stdout[-500:])
