"""Every route to the counts gives the same merges.

One file, shards, Parquet, a stream, Dask.
"""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe.scale.pipeline import expand, train_file, train_files, train_iterator

EOT = "<|endoftext|>"
SPECIALS = [EOT, "<|pad|>", "Q<|pad|>"]


def write_routes(folder, documents, specials):
    """The same documents as one file, as shards, and as a Parquet file; their paths."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    joined = "".join(d + specials[0] for d in documents)
    (folder / "all.txt").write_text(joined, encoding="utf-8")
    for k in range(3):
        (folder / f"shard{k}.txt").write_text(
            "".join(d + specials[0] for d in documents[k::3]), encoding="utf-8"
        )
    pq.write_table(
        pa.table({"text": documents}), folder / "all.parquet", row_group_size=3
    )
    return folder / "all.txt", str(folder / "shard*.txt"), folder / "all.parquet"


words = st.sampled_from(
    [
        "low",
        " lower",
        " newest",
        "widest",
        " café",
        "🙃",
        "12",
        "!!",
        "\n",
        "\r\n",
        "  ",
        "x'y",
        "<|pad|>",
        "Q<|pad|>",
        "<|",
        "pad|>",
    ]
)
documents = st.lists(st.lists(words, max_size=12).map("".join), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(
    documents,
    st.sampled_from([1, 2]),
    st.lists(st.sampled_from(SPECIALS[1:]), unique=True),
)
def test_every_route_learns_the_same_merges(tmp_path_factory, docs, workers, more):
    specials = [EOT, *more]
    one, shards, parquet = write_routes(tmp_path_factory.mktemp("r"), docs, specials)
    expected = bpe.train(one.read_bytes().decode(), 300, specials)  # "\r\n" kept
    routes = {
        "one file": train_file(one, 300, specials, workers=workers),
        "shards": train_files([shards], 300, specials, workers=workers),
        "parquet": train_files(parquet, 300, specials, workers=workers),
        "iterator": train_iterator(iter(docs), 300, specials, workers=workers),
    }
    for name, (vocab, merges, _) in routes.items():
        assert (vocab, merges) == expected, name


def test_globs_urls_and_bad_names(tmp_path):
    (tmp_path / "a.txt").write_text("x")
    (tmp_path / "b.txt").write_text("y")
    assert expand([str(tmp_path / "*.txt"), str(tmp_path / "a.txt")]) == [
        str(tmp_path / "a.txt"),
        str(tmp_path / "b.txt"),
    ]
    assert expand("file://" + str(tmp_path / "b.txt")) == [str(tmp_path / "b.txt")]
    with pytest.raises(FileNotFoundError, match="nope"):
        expand(str(tmp_path / "nope*.txt"))


def test_fsspec_memory_urls(tmp_path):
    import fsspec

    text = "low lower newest " * 50 + EOT + "widest " * 20
    with fsspec.open("memory://corpus/a.txt", "w") as f:
        f.write(text)
    assert train_files("memory://corpus/*.txt", 280, [EOT])[:2] == bpe.train(
        text, 280, [EOT]
    )


def test_the_command_takes_several_files_and_globs(tmp_path):
    from bpe.scale.cli import main

    one, shards, _ = write_routes(
        tmp_path, ["low lower", "newest widest", "low low"], [EOT]
    )
    assert (
        main(
            [
                "train",
                shards,
                "--vocab-size",
                "270",
                "--special",
                EOT,
                "--quiet",
                "--out",
                str(tmp_path / "tok"),
            ]
        )
        == 0
    )
    assert bpe.Tokenizer.load(tmp_path / "tok").merges == train_file(one, 270, [EOT])[1]


def test_an_iterator_is_counted_in_bounded_memory():
    """60 MB of documents from a generator, with 40 MB of address space to spare: the
    documents would not fit, but only the distinct pre-tokens are kept."""
    script = textwrap.dedent("""
        import resource
        from bpe.scale.pipeline import train_iterator
        story = "Once upon a time, there was a little boat. It sailed away.\\n" * 20
        train_iterator(iter([story] * 5), 300, workers=1)  # imports, first allocations
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        limit = pages * resource.getpagesize() + 40 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        documents = (story + str(i % 97) for i in range(50_000))  # 60 MB in all
        vocab, merges, report = train_iterator(documents, 400, workers=1)
        print(report.bytes, len(merges))
        try:
            kept = "x" * (60 * 2**20)
            print("limit not effective")
        except MemoryError:
            print("limit effective")
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    size, merges, verdict = out.stdout.split()[:2] + [out.stdout.splitlines()[-1]]
    assert int(size) > 59_000_000 and int(merges) > 100 and verdict == "limit effective"


@pytest.fixture(scope="module")
def dask_client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
def test_dask_learns_the_same_merges(tmp_path, dask_client, tinystories_train_text):
    docs = tinystories_train_text.split(EOT)[:1500]
    one, shards, parquet = write_routes(tmp_path, docs, [EOT])
    expected = train_file(one, 1000, [EOT], workers=1)[:2]
    assert (
        train_files([shards, parquet], 1000, [EOT], client=dask_client)[:2][1]
        == train_files([shards, parquet], 1000, [EOT], workers=2)[1]
    )
    assert train_files([shards], 1000, [EOT], client=dask_client)[:2] == expected


@pytest.mark.slow
def test_a_dask_worker_killed_mid_run_loses_nothing(
    tmp_path, dask_client, tinystories_train_text
):
    docs = tinystories_train_text.split(EOT)[:-1]
    for k in range(
        40
    ):  # many small shards, so that tasks are still running when one dies
        (tmp_path / f"s{k:02}.txt").write_text(
            "".join(d + EOT for d in docs[k::40]) * 3, encoding="utf-8"
        )
    expected = train_files(str(tmp_path / "s*.txt"), 1000, [EOT], workers=2)[1]
    result = {}
    run = threading.Thread(
        target=lambda: result.update(
            merges=train_files(
                str(tmp_path / "s*.txt"), 1000, [EOT], client=dask_client
            )[1]
        )
    )
    run.start()
    deadline = time.time() + 30
    while not any(dask_client.processing().values()) and time.time() < deadline:
        time.sleep(0.01)
    victim = sorted(dask_client.scheduler_info()["workers"])[0]
    pid = dask_client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)
    run.join(timeout=120)
    assert result["merges"] == expected


def test_reports_count_the_helpers_memory(tmp_path):
    one, shards, _ = write_routes(
        tmp_path, ["low lower " * 200, "newest widest " * 200, "low low " * 200], [EOT]
    )
    _, _, alone = train_files([shards], 300, [EOT], workers=1)
    _, _, shared = train_files([shards], 300, [EOT], workers=2)
    assert alone.worker_peak_bytes == 0  # nothing forked
    if (os.cpu_count() or 1) >= 2:
        assert shared.workers == 2 and shared.worker_peak_bytes > 0
