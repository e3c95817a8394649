"""make bench (encoding): this package's encoder beside tiktoken and tokenizers.

1. Single-thread throughput on the book's 200 held-out stories with the 10,000-token
   TinyStories vocabulary, warm (medians of repeated runs, all in this one process).
2. A cold start: a fresh tokenizer's first encoding of the held-out stories, against a
   fresh tiktoken Encoding's, for GPT-2's vocabulary and the book's (paired runs); and
   the time to build each.
3. Long inputs: one character repeated 100,000 and 1,000,000 times, the cases where a
   quadratic encoder would show, against tiktoken (medians).
4. encode_batch with one and two workers on the 6,035 training stories, for a tokenizer
   kept across calls and for a fresh one per call, and the most two processes can gain
   here.
Results also go to _build/bench/encode.json (encode_as_python.json when the hot
modules run as Python: make bench runs this twice, the second time with
BPE_PURE_PYTHON=1).
"""

import functools
import gc
import json
import os
import statistics
from pathlib import Path

import tiktoken

import bpe
from bpe.data.corpora import tinystories_files
from bpe.interop.openai import get_encoding
from bpe.measure.timing import median_seconds, paired_ratio, seconds
from bpe.scale.batch import slices
from bpe.scale.pipeline import train_file

OUT = Path(__file__).resolve().parent.parent / "_build" / "bench"
EOT = "<|endoftext|>"
PAIRS = 9


def batch_speedups(vocab, merges, stories):
    """encode_batch, 1 worker against 2, for a long-lived tokenizer and for a fresh one.

    "kept": one tokenizer serves every call, so its cache holds every word and its
    worker process, forked on the first 2-worker call, is reused (a service encoding
    batch after batch). "fresh": a new tokenizer per call, so each call starts from
    an empty cache, and with 2 workers also forks its worker.
    """
    kept = bpe.Tokenizer(vocab, merges, [EOT])
    kept.encode_batch(stories, workers=2)  # fork the worker and fill both caches

    # built untimed
    unused = [bpe.Tokenizer(vocab, merges, [EOT]) for _ in range(2 * PAIRS)]
    used = []

    def fresh(workers):
        used.append(unused.pop())
        # its worker process is stopped after timing
        used[-1].encode_batch(stories, workers=workers)

    speedups = {}
    for name, one, two in [
        (
            "kept",
            lambda: kept.encode_batch(stories, workers=1),
            lambda: kept.encode_batch(stories, workers=2),
        ),
        ("fresh", lambda: fresh(1), lambda: fresh(2)),
    ]:
        speedups[name], t1, t2 = paired_ratio(one, two, PAIRS)
        print(
            f"{name + ' tokenizer:':<18}1 worker {t1:.3f} s, 2 workers {t2:.3f} s, "
            f"speed-up {speedups[name]:.2f}x (target >= 1.6)"
        )
    for tok in used + [kept]:
        tok.close()
    return speedups


def parallel_ceiling(tok, stories):
    """What two processes gain when nothing passes between them: the machine's limit.

    A helper process, forked once and warmed up, encodes the second half of the
    stories while this one encodes the first; against this process encoding all of
    them (cache full, garbage collection paused, as in encode_batch). encode_batch
    also ships texts out and ids home, so it cannot beat this figure.
    """
    halves, go, done = slices(stories, 2), os.pipe(), os.pipe()
    gc.disable()
    [tok.encode(s) for s in stories]
    pid = os.fork()
    if pid == 0:  # the helper: encode the second half whenever told to
        [tok.encode(s) for s in halves[1]]
        while os.read(go[0], 1) == b"g":
            [tok.encode(s) for s in halves[1]]
            os.write(done[1], b"d")
        os._exit(0)

    def together():
        os.write(go[1], b"g")
        [tok.encode(s) for s in halves[0]]
        os.read(done[0], 1)

    ratio, _, _ = paired_ratio(
        lambda: [tok.encode(s) for s in stories], together, PAIRS
    )
    os.write(go[1], b"q")
    os.waitpid(pid, 0)
    gc.enable()
    return ratio


def cold_start(name, tok, encoding, text):
    """A fresh tokenizer's first encoding of text against a fresh tiktoken Encoding's.

    Both are built before the clock starts (building is timed on its own), so the
    comparison is the first encode: for this package, an empty cache.
    """
    args = (tok.vocab, tok.merges, tok.specials, tok.pattern)
    spec = dict(
        name="fresh",
        pat_str=encoding._pat_str,
        mergeable_ranks=encoding._mergeable_ranks,
        special_tokens=encoding._special_tokens,
    )
    ours = [bpe.Tokenizer(*args) for _ in range(PAIRS)]
    theirs = [tiktoken.Encoding(**spec) for _ in range(PAIRS)]
    cold, t_ours, t_theirs = paired_ratio(
        lambda: ours.pop().encode(text),
        lambda: theirs.pop().encode(text, allowed_special="all"),
        PAIRS,
    )
    build, b_ours, b_theirs = paired_ratio(
        lambda: bpe.Tokenizer(*args), lambda: tiktoken.Encoding(**spec), 5
    )
    print(
        f"{name:<12}first encode: bpe {t_ours * 1000:6.1f} ms,"
        f" tiktoken {t_theirs * 1000:6.1f} ms, ratio {cold:.2f} (target <= 2);"
        f" build: bpe {b_ours * 1000:5.0f} ms, tiktoken {b_theirs * 1000:5.0f} ms,"
        f" ratio {build:.2f}"
    )
    return {
        "first_encode_ratio": cold,
        "first_encode_ms": [t_ours * 1000, t_theirs * 1000],
        "build_ratio": build,
        "build_ms": [b_ours * 1000, b_theirs * 1000],
    }


LONG = [
    ("gpt2", "a"),
    ("gpt2", "^"),
    ("gpt2", "\n"),
    ("cl100k_base", " "),
    ("o200k_base", "x"),
]


def long_inputs(repeats=3):
    """A character repeated n times: time beside tiktoken's at 1M, growth from 100k."""
    rows = {}
    for name, char in LONG:
        encoding = get_encoding(name)
        tok = bpe.Tokenizer.from_tiktoken(encoding)
        times = {}
        for n in (100_000, 1_000_000):
            text = char * n
            assert tok.encode_ordinary(text) == encoding.encode_ordinary(text)
            # this round's encoders and text, bound now rather than looked up later
            ours = functools.partial(tok.encode_ordinary, text)
            theirs = functools.partial(encoding.encode_ordinary, text)
            pairs = [(seconds(ours), seconds(theirs)) for _ in range(repeats)]
            times[n] = [statistics.median(t) for t in zip(*pairs, strict=True)]
        ratio = times[10**6][0] / times[10**6][1]
        growth = times[10**6][0] / times[10**5][0]
        print(
            f"{name:<12}{char!r:6} 1M: bpe {times[10**6][0]:6.3f} s,"
            f" tiktoken {times[10**6][1]:6.3f} s, ratio {ratio:4.2f} (target <= 3);"
            f" 100k -> 1M: bpe x{growth:4.1f} (target <= 12),"
            f" tiktoken x{times[10**6][1] / times[10**5][1]:4.1f}"
        )
        rows[f"{name} {char!r}"] = {
            "seconds": times,
            "ratio_1M": ratio,
            "growth": growth,
        }
    return rows


def warm_speeds(tok, uncached, exported, hf, gpt2, text: str) -> tuple[dict, float]:
    """Median seconds to encode text, ours against tiktoken and tokenizers, printed;
    and our time over tiktoken's on the same vocabulary."""
    megabytes = len(text.encode("utf-8")) / 1e6
    # warm the cache: "cache" measures encoding text whose words were seen before
    tok.encode(text)
    runs = {
        "bpe, no cache": (lambda: uncached.encode(text), 3),
        "bpe, cache": (lambda: tok.encode(text), 21),
        "tiktoken, exported vocabulary": (
            lambda: exported.encode(text, allowed_special="all"),
            21,
        ),
        "tiktoken, gpt2": (lambda: gpt2.encode(text, allowed_special="all"), 21),
        "tokenizers, exported vocabulary": (lambda: hf.encode(text), 11),
    }
    seconds = {name: median_seconds(run, n) for name, (run, n) in runs.items()}
    print(f"encoding {megabytes:.3f} MB of held-out stories, one thread, medians")
    for name, s in seconds.items():
        print(f"{name:<36}{s * 1000:9.2f} ms{megabytes / s:9.2f} MB/s")
    ratio = seconds["bpe, cache"] / seconds["tiktoken, exported vocabulary"]
    label = "bpe (cache) time / tiktoken time, same vocabulary (target <= 2)"
    print(f"{label:<66}{ratio:6.2f}")
    return seconds, ratio


def main():
    print(f"this package's hot modules compiled: {all(bpe.compiled().values())}")
    train_path, heldout_path = tinystories_files()
    vocab, merges, _ = train_file(train_path, 10_000, [EOT], workers=2)
    tok = bpe.Tokenizer(vocab, merges, [EOT])
    uncached = bpe.Tokenizer(vocab, merges, [EOT], cache_size=0)
    exported, hf, gpt2 = tok.to_tiktoken(), tok.to_huggingface(), get_encoding("gpt2")
    text = heldout_path.read_text(encoding="utf-8")
    megabytes = len(text.encode("utf-8")) / 1e6
    assert (
        tok.encode(text)
        == exported.encode(text, allowed_special="all")
        == hf.encode(text).ids
    )

    seconds, ratio = warm_speeds(tok, uncached, exported, hf, gpt2, text)

    print(
        f"\ncold start on the {megabytes:.3f} MB of held-out stories,"
        f" {PAIRS} pairs, medians"
    )
    gpt2_tok = bpe.Tokenizer.from_tiktoken(gpt2)
    cold = {
        "gpt2": cold_start("gpt2", gpt2_tok, gpt2, text),
        "book 10k": cold_start("book 10k", tok, exported, text),
    }

    print("\nlong inputs, one character repeated, encode_ordinary, medians")
    long = long_inputs()

    stories = train_path.read_text(encoding="utf-8").split(EOT)[:-1]
    print(
        f"\nencode_batch on {len(stories):,} stories"
        f" ({sum(map(len, stories)) / 1e6:.1f} MB), 1 and 2 workers alternating,"
        f" {PAIRS} pairs"
    )
    speedups = batch_speedups(vocab, merges, stories)
    ceiling = parallel_ceiling(tok, stories)
    label = "ceiling: two warm processes each encode half, nothing sent"
    print(f"{label:<66}{ceiling:6.2f}x")

    OUT.mkdir(parents=True, exist_ok=True)
    name = "encode.json" if all(bpe.compiled().values()) else "encode_as_python.json"
    (OUT / name).write_text(
        json.dumps(
            {
                "seconds": seconds,
                "ratio_vs_tiktoken": ratio,
                "cold_start": cold,
                "long_inputs": long,
                "batch_speedup": speedups,
                "parallel_ceiling": ceiling,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
