import pytest

from bpe.book import ledger


@pytest.fixture()
def results(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_RESULTS", str(tmp_path))
    return tmp_path


def test_record_and_collect(results):
    assert ledger.record("ch", {"pairs.distinct": 14, "fast.distinct": 7987}, "toy corpus") == 2
    found = ledger.collect()
    assert found["pairs.distinct"] == {"value": 14, "data": "toy corpus", "chapter": "ch"}


def test_statuses(results):
    ledger.record("a", {"pairs.distinct": 14}, ledger.TOY)
    ledger.record("b", {"merge.eot_id": 265}, ledger.TOY)
    ledger.record("c", {"fast.distinct": 7987}, "book data")
    rows = {r["figure"]: r["status"] for r in ledger.rows()}
    assert rows[ledger.ARTICLE["pairs.distinct"][0]] == "exact"
    assert rows[ledger.ARTICLE["merge.eot_id"][0]] == "DIFFERS on the same data"
    assert rows[ledger.ARTICLE["fast.distinct"][0]] == "different data: book data"
    assert rows[ledger.ARTICLE["lang.gpt2"][0]] == "needs the article edition"


def test_only_article_figures_can_be_recorded(results):
    with pytest.raises(KeyError, match="not figures the article prints"):
        ledger.record("x", {"made.up": 1}, "toy")
