"""The book's data: a registry of pinned files, found in a mirror, a cache, or online.

Nothing here is committed to the repository. Each file is listed with its size,
sha256 and public origin. ``path(name)`` looks for it, in order, in the mirror
folder named by ``BPE_DATA_MIRROR`` (laid out like the registry's names), in the
cache folder (``BPE_DATA_CACHE``, by default ``data/cache`` in the repository),
and finally downloads it from its origin into the cache. Every copy is checked
against its sha256 before use. ``corpora.py`` turns these files into the texts
the chapters use.

In the page's Python (Pyodide) the last step, ``fetch``, is the page's: the built
site serves every registered file (copied from the mirror by
``bpe.book.site.archive`` when the site is built, never committed), and
``bpe.book.page.vocabularies`` reads it from there into the cache. ``credit`` is
the line that names a file's source and licence, for whatever loads it.
"""

from __future__ import annotations

import hashlib
import os
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bpe.data import CHECKOUT
from bpe.disk.atomic import replacing
from bpe.files import PathLike

MIRROR_SETTING = "BPE_DATA_MIRROR"
CACHE_SETTING = "BPE_DATA_CACHE"
RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
SERVED = "live/data"  # where the built site serves the files, under _static/


@dataclass(frozen=True)
class Entry:
    size: int
    sha256: str
    repo: str
    commit: str
    source: str  # the file's path in its repository
    licence: str

    @property
    def url(self) -> str:
        return RAW.format(repo=self.repo, commit=self.commit, path=self.source)


CZHOU = (
    "czhou578/train-gpt2",
    "b213c75be938fad8009e40e65a3765af2b5987c8",
    "no licence file; TinyStories: CDLA-Sharing-1.0",
)
NTREX = (
    "MicrosoftTranslator/NTREX",
    "8561f6a622db9edad1217683e5c83daefd8bb2bf",
    "CC BY-SA 4.0",
)
TATOEBA = (
    "Helsinki-NLP/OPUS-MT-testsets",
    "ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180",
    "Tatoeba sentences, CC BY 2.0 FR",
)
CS336 = (
    "stanford-cs336/assignment1-basics",
    "25a8a49f6460c83a30416d42348f2ef11d1dd185",
    "MIT",
)
TATOEBA_DIR = "datasets/helsinki_nlp/tatoeba/testsets/eng-vie/tatoeba-test-v2021-08-07"


def _entry(origin, size, sha256, source):
    repo, commit, licence = origin
    return Entry(size, sha256, repo, commit, source, licence)


REGISTRY = {
    "tinystories/czhou578-train-gpt2/val.bin": _entry(
        CZHOU,
        1244318,
        "e5b7891429408a3252fe2b68c7fa95b108a8714147e52fb3988492f9c4235da1",
        "data/tinystories/val.bin",
    ),
    "tinystories/czhou578-train-gpt2/test.bin": _entry(
        CZHOU,
        1219510,
        "ec36f18cc6dddecdf21cee2f8e159e274a68bf136de8321a37a1afad347ce78b",
        "data/tinystories/test.bin",
    ),
    "en-vi/ntrex128/newstest2019-src.eng.txt": _entry(
        NTREX,
        251739,
        "389e8f5796c66db4f646dfad33e1ec622d74767af5ef112b42a1f2cd814df3cc",
        "NTREX-128/newstest2019-src.eng.txt",
    ),
    "en-vi/ntrex128/newstest2019-ref.vie.txt": _entry(
        NTREX,
        359879,
        "dd5d16cf246da57f5ccb7490ae13b8df428e7cb53e17fa04552406d657abfe3c",
        "NTREX-128/newstest2019-ref.vie.txt",
    ),
    "en-vi/ntrex128/DOCUMENT_IDS.tsv": _entry(
        NTREX,
        30754,
        "88a8b0ff1eae47e83f60dcde01075b8c87d75ced59ca09e0af1eb539958e05d5",
        "DOCUMENT_IDS.tsv",
    ),
    "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.eng": _entry(
        TATOEBA,
        89914,
        "877c0ba759b4db83a014713c5ba02d5aeccecff5e2de51f5d4b76ee5ee9ff89b",
        TATOEBA_DIR + ".eng",
    ),
    "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.vie": _entry(
        TATOEBA,
        124325,
        "cd2dba06d217a8d02c79a4b95ec5bcf25067a8cbab152ad1a3903b4f2fb9ce9e",
        TATOEBA_DIR + ".vie",
    ),
    "fixtures/cs336-assignment1-basics/corpus.en": _entry(
        CS336,
        133027,
        "617f603a49eeb8a20de9d922d11a5d70e1d362327b9e91718bea2cdcdf9816ff",
        "tests/fixtures/corpus.en",
    ),
    "fixtures/cs336-assignment1-basics/train-bpe-reference-merges.txt": _entry(
        CS336,
        1271,
        "f74582742501ca5edd5be2b66adb83d7ae2b8d6363fd276771792e70de1428ed",
        "tests/fixtures/train-bpe-reference-merges.txt",
    ),
    "fixtures/cs336-assignment1-basics/train-bpe-reference-vocab.json": _entry(
        CS336,
        7610,
        "e28bfb2a4fa95ec786faf462cb0d504bc15773360f4891bdf262be171ab86c18",
        "tests/fixtures/train-bpe-reference-vocab.json",
    ),
}


# What each origin's files are, in the credit line.
DATASETS = {
    CZHOU[0]: "stories",
    NTREX[0]: "NTREX-128",
    TATOEBA[0]: "Tatoeba",
    CS336[0]: "CS336 fixtures",
}


def credit(name: str) -> str:
    """One line: what a registered file is, where it comes from, its licence.

    >>> credit("en-vi/ntrex128/DOCUMENT_IDS.tsv")
    'NTREX-128: github.com/MicrosoftTranslator/NTREX, CC BY-SA 4.0'
    """
    entry = REGISTRY[name]
    return f"{DATASETS[entry.repo]}: github.com/{entry.repo}, {entry.licence}"


def credits(names: list[str]) -> str:
    """The credit lines of some files, each origin once, in the order given."""
    return "\n".join(dict.fromkeys(credit(name) for name in names))


_credited: set[str] = set()  # the origins announce has printed in this process


def announce(names: list[str]) -> None:
    """Print where some files come from and their licence, each origin once a session.

    A chapter loads its data in several cells: the credit stands where it first loads.
    """
    lines = [line for line in credits(names).splitlines() if line not in _credited]
    _credited.update(lines)
    if lines:
        print("\n".join(lines))


def forget_credits() -> None:
    """Credit every origin again, as a new session would (the page's reset)."""
    _credited.clear()


class DataError(RuntimeError):
    """A registered file is missing or corrupt.

    The message says where it looked and what to set.
    """


def mirror_dir() -> Path | None:
    value = os.environ.get(MIRROR_SETTING, "")
    return Path(value) if value else None


def cache_dir() -> Path:
    value = os.environ.get(CACHE_SETTING, "")
    if value:
        return Path(value)
    repo_data = CHECKOUT / "data"
    return (
        repo_data / "cache"
        if repo_data.is_dir()
        else Path.home() / ".cache" / "bpe-book"
    )


def sha256_of(path: PathLike) -> str:
    """The hex sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check(name: str, file: Path, entry: Entry) -> None:
    """Raise DataError unless file has the registered size and sha256."""
    size = file.stat().st_size
    if size != entry.size or sha256_of(file) != entry.sha256:
        raise DataError(
            f"{name}: the copy at {file} is corrupt ({size:,} bytes, expected"
            f" {entry.size:,} with sha256 {entry.sha256}); delete it or fix"
            f" {MIRROR_SETTING}/{CACHE_SETTING}"
        )


def download(url: str, target: Path) -> None:
    """Fetch url into target through a temporary file.

    A failed download then leaves nothing behind.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    with (
        replacing(target, "wb") as out,
        urllib.request.urlopen(url, timeout=60) as response,
    ):
        for block in iter(lambda: response.read(1 << 20), b""):
            out.write(block)


def path(name: str) -> Path:
    """A verified local copy of a registered file.

    For example ``path("en-vi/ntrex128/newstest2019-src.eng.txt")``.
    """
    if name not in REGISTRY:
        raise KeyError(
            f"{name!r} is not in the data registry;"
            f" known: {', '.join(sorted(REGISTRY))}"
        )
    entry = REGISTRY[name]
    mirror = mirror_dir()
    if mirror is not None and (mirror / name).is_file():
        check(name, mirror / name, entry)
        return mirror / name
    cached = cache_dir() / name
    if cached.is_file():
        check(name, cached, entry)
        return cached
    fetch(name, cached)
    try:
        check(name, cached, entry)
    except DataError:
        cached.unlink()  # never keep a bad copy around
        raise
    return cached


def fetch(name: str, cached: Path) -> None:
    """Bring a file that is in neither the mirror nor the cache into the cache.

    From its origin; the page's Python puts its own ``fetch`` in this one's place
    (``bpe.book.page.vocabularies``), since there the site serves the files.
    """
    entry, mirror = REGISTRY[name], mirror_dir()
    try:
        download(entry.url, cached)
    except OSError as error:
        looked = (
            f"{MIRROR_SETTING}={mirror}" if mirror else f"{MIRROR_SETTING} is not set"
        )
        if mirror and not mirror.is_absolute():
            looked += f", read from {Path.cwd()}"  # notebooks run in their own folder
        raise DataError(
            f"{name} is not available: not in the mirror ({looked}), not in the cache"
            f" ({cached}), and downloading {entry.url} failed ({error})."
            f" Point {MIRROR_SETTING} at a folder that holds it."
        ) from None
