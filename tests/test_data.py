"""The data registry: mirror, cache, download and checksum failures."""

import hashlib

import pytest

from bpe.data import corpora
from bpe.data import registry as data

NAME = "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.eng"


@pytest.fixture()
def fake_entry(monkeypatch):
    content = b"hello\nworld\n"
    entry = data.Entry(
        len(content),
        hashlib.sha256(content).hexdigest(),
        "owner/repo",
        "0" * 40,
        "x.txt",
        "MIT",
    )
    monkeypatch.setitem(data.REGISTRY, "test/x.txt", entry)
    return content


def test_mirror_is_used_and_verified(tmp_path, monkeypatch, fake_entry):
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "x.txt").write_bytes(fake_entry)
    monkeypatch.setenv(data.MIRROR_SETTING, str(tmp_path))
    assert data.path("test/x.txt") == tmp_path / "test" / "x.txt"


def test_corrupt_mirror_copy_is_refused(tmp_path, monkeypatch, fake_entry):
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "x.txt").write_bytes(b"hello\nw0rld\n")
    monkeypatch.setenv(data.MIRROR_SETTING, str(tmp_path))
    with pytest.raises(data.DataError, match="corrupt"):
        data.path("test/x.txt")


def test_cache_is_used_when_the_mirror_lacks_the_file(
    tmp_path, monkeypatch, fake_entry
):
    monkeypatch.setenv(data.MIRROR_SETTING, str(tmp_path / "empty"))
    monkeypatch.setenv(data.CACHE_SETTING, str(tmp_path / "cache"))
    (tmp_path / "cache" / "test").mkdir(parents=True)
    (tmp_path / "cache" / "test" / "x.txt").write_bytes(fake_entry)
    assert data.path("test/x.txt") == tmp_path / "cache" / "test" / "x.txt"


def test_download_fills_the_cache(tmp_path, monkeypatch, fake_entry):
    monkeypatch.delenv(data.MIRROR_SETTING, raising=False)
    monkeypatch.setenv(data.CACHE_SETTING, str(tmp_path))
    urls = []

    def fake_download(url, target):
        urls.append(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(fake_entry)

    monkeypatch.setattr(data, "download", fake_download)
    assert data.path("test/x.txt").read_bytes() == fake_entry
    assert urls == [
        "https://raw.githubusercontent.com/owner/repo/" + "0" * 40 + "/x.txt"
    ]


def test_a_bad_download_is_deleted(tmp_path, monkeypatch, fake_entry):
    monkeypatch.delenv(data.MIRROR_SETTING, raising=False)
    monkeypatch.setenv(data.CACHE_SETTING, str(tmp_path))

    def bad_download(url, target):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"<html>rate limited</html>")

    monkeypatch.setattr(data, "download", bad_download)
    with pytest.raises(data.DataError, match="corrupt"):
        data.path("test/x.txt")
    assert not (tmp_path / "test" / "x.txt").exists()


def test_missing_everywhere_names_the_file_and_the_setting(
    tmp_path, monkeypatch, fake_entry
):
    monkeypatch.setenv(data.MIRROR_SETTING, str(tmp_path / "nowhere"))
    monkeypatch.setenv(data.CACHE_SETTING, str(tmp_path / "cache"))

    def offline(url, target):
        raise OSError("network is unreachable")

    monkeypatch.setattr(data, "download", offline)
    with pytest.raises(data.DataError) as error:
        data.path("test/x.txt")
    assert "test/x.txt" in str(error.value) and data.MIRROR_SETTING in str(error.value)
    assert not list((tmp_path / "cache").rglob("*")) or all(
        p.is_dir() for p in (tmp_path / "cache").rglob("*")
    )


def test_a_relative_mirror_says_where_it_was_read_from(
    tmp_path, monkeypatch, fake_entry
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(data.MIRROR_SETTING, "../shared/data")
    monkeypatch.setenv(data.CACHE_SETTING, str(tmp_path / "cache"))

    def offline(url, target):
        raise OSError("network is unreachable")

    monkeypatch.setattr(data, "download", offline)
    with pytest.raises(data.DataError, match=f"read from {tmp_path}"):
        data.path("test/x.txt")


def test_unknown_name():
    with pytest.raises(KeyError, match="not in the data registry"):
        data.path("nope.txt")


def test_real_download_writes_through_a_temporary_file(tmp_path, monkeypatch):
    def refuse(url, timeout):
        raise OSError("offline")

    monkeypatch.setattr(data.urllib.request, "urlopen", refuse)
    with pytest.raises(OSError):
        data.download("https://example.invalid/x", tmp_path / "x.txt")
    assert list(tmp_path.iterdir()) == []


def test_registered_files_verify():
    for name in data.REGISTRY:
        assert data.path(name).stat().st_size == data.REGISTRY[name].size


def test_tinystories_split():
    train, heldout = corpora.tinystories_files()
    assert train.stat().st_size == 4_899_054
    stories = corpora.heldout_stories()
    assert len(stories) == 200 and sum(len(s.encode()) for s in stories) == 161_132
    assert train.read_text(encoding="utf-8").count(corpora.EOT) == 6_035


def test_damaged_derived_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv(data.CACHE_SETTING, str(tmp_path))
    train, _ = corpora.tinystories_files()
    train.write_text("damaged", encoding="utf-8")
    train, _ = corpora.tinystories_files()
    assert train.stat().st_size == 4_899_054


def test_en_vi_pairs():
    assert len(corpora.en_vi_pairs("ntrex128")) == 1997
    pairs = corpora.en_vi_pairs("tatoeba")
    assert len(pairs) == 2500 and all("\r" not in en + vi for en, vi in pairs)
    with pytest.raises(ValueError):
        corpora.en_vi_pairs("opus100")


def test_ntrex_split_holds_out_whole_stories():
    train, heldout = corpora.ntrex_split()
    assert (len(train), len(heldout)) == (1662, 335)
    assert sorted(train + heldout) == sorted(corpora.en_vi_pairs("ntrex128"))
    stories = corpora.lines(data.path(corpora.NTREX_DOCUMENTS))
    story_of = dict(zip(corpora.en_vi_pairs("ntrex128"), stories, strict=True))
    assert not {story_of[p] for p in train} & {story_of[p] for p in heldout}
    assert len({story_of[p] for p in heldout}) == 123 // 5


def test_a_chapter_credits_each_origin_once_where_it_first_loads(monkeypatch, capsys):
    monkeypatch.setattr(data, "_credited", set())
    corpora.tinystories_files()
    corpora.heldout_stories()  # loads the stories again: no second credit
    corpora.en_vi_pairs("ntrex128")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        data.credit(corpora.TINYSTORIES[0]),
        *data.credits(list(corpora.EN_VI["ntrex128"])).splitlines(),
    ]
    assert all("github.com/" in line for line in lines), lines


def test_the_page_s_reset_credits_the_data_again_as_a_new_kernel(monkeypatch, capsys):
    from bpe.book.page import session as page

    monkeypatch.setattr(data, "_credited", set())
    corpora.tinystories_files()
    page.reset()  # the page's cells then run as in a new kernel
    corpora.tinystories_files()
    credit = data.credit(corpora.TINYSTORIES[0])
    assert capsys.readouterr().out.splitlines() == [credit, credit]
