import pytest

from bpe.book.figures import ledger
from bpe.book.figures.quoted import ARTICLE, SECTIONS


@pytest.fixture()
def results(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_RESULTS", str(tmp_path))
    return tmp_path


def test_record_and_collect(results):
    assert (
        ledger.record("ch", {"pairs.distinct": 14, "fast.distinct": 7987}, "toy corpus")
        == 2
    )
    found = ledger.collect()
    assert found["pairs.distinct"] == {
        "value": 14,
        "data": "toy corpus",
        "chapter": "ch",
    }


def test_statuses(results):
    ledger.record("a", {"pairs.distinct": 14}, ledger.TOY)
    ledger.record("b", {"merge.eot_id": 265}, ledger.TOY)
    ledger.record(
        "c", {"fast.distinct": 7987, "fast.heap": "0.1 / 0.3 / 0.9"}, "book data"
    )
    ledger.record(
        "d", {"stories.markers": "6,035", "utf8.unicode_characters": "1"}, "book data"
    )
    status = {r["figure"]: r["status"] for r in ledger.rows()}
    assert status[ARTICLE["pairs.distinct"].what] == "exact"
    assert status[ARTICLE["merge.eot_id"].what] == "DIFFERS on the same data"
    assert status[ARTICLE["fast.distinct"].what] == "different data"
    assert status[ARTICLE["fast.heap"].what] == "timing, this machine"
    assert status[ARTICLE["stories.markers"].what] == "article only (make article)"
    assert status[ARTICLE["utf8.unicode_characters"].what] == "cited"
    assert (
        status[ARTICLE["lang.gpt2"].what] == "article only (make article)"
    )  # not recorded
    assert set(status.values()) <= set(ledger.STATUSES)


def test_figures_not_computed_say_so(results):
    ledger.record("a", {"pairs.distinct": 14}, ledger.TOY)
    found = {r["figure"]: r for r in ledger.rows()}
    cited = found[ARTICLE["utf8.websites"].what]
    assert (cited["book"], cited["status"]) == ("—", "cited")
    missing = found[ARTICLE["lang.gpt2"].what]
    assert missing["book"] == "not computed"
    assert missing["book's data"] == "needs the article's data"
    assert found[ARTICLE["pairs.distinct"].what]["book"] == 14
    assert all(r["book"] is not None and r["book's data"] for r in found.values())


def test_every_figure_has_a_section_and_a_known_kind():
    for key, figure in ARTICLE.items():
        assert key.split(".")[0] in SECTIONS, key
        assert figure.kind in ("count", "timing", "cited"), key


def test_only_article_figures_can_be_recorded(results):
    with pytest.raises(KeyError, match="not figures the article prints"):
        ledger.record("x", {"made.up": 1}, "toy")
