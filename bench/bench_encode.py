"""make bench (encoding): this package's encoder against tiktoken and tokenizers, side by side.

Single-thread throughput on the book's 200 held-out stories with the 10,000-token TinyStories
vocabulary (medians of repeated runs, all in this one process), then encode_batch with one and
two workers on the 6,035 training stories, from an empty cache ("cold": each worker merges the
words it meets for itself) and from a full one ("warm"). Results also go to _build/bench/encode.json.
"""
import json
import statistics
import time
from pathlib import Path

import bpe
from bpe.corpora import tinystories_files
from bpe.openai import get_encoding
from bpe.pipeline import train_file

OUT = Path(__file__).resolve().parent.parent / "_build" / "bench"
EOT = "<|endoftext|>"


def median_seconds(run, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    train_path, heldout_path = tinystories_files()
    vocab, merges, _ = train_file(train_path, 10_000, [EOT], workers=2)
    tok = bpe.Tokenizer(vocab, merges, [EOT])
    uncached = bpe.Tokenizer(vocab, merges, [EOT], cache_size=0)
    exported, hf, gpt2 = tok.to_tiktoken(), tok.to_huggingface(), get_encoding("gpt2")
    text = heldout_path.read_text(encoding="utf-8")
    megabytes = len(text.encode("utf-8")) / 1e6
    assert tok.encode(text) == exported.encode(text, allowed_special="all") == hf.encode(text).ids

    tok.encode(text)  # warm the cache: "cache" measures encoding text whose words were seen before
    runs = {
        "bpe, no cache": (lambda: uncached.encode(text), 3),
        "bpe, cache": (lambda: tok.encode(text), 21),
        "tiktoken, exported vocabulary": (lambda: exported.encode(text, allowed_special="all"), 21),
        "tiktoken, gpt2": (lambda: gpt2.encode(text, allowed_special="all"), 21),
        "tokenizers, exported vocabulary": (lambda: hf.encode(text), 11),
    }
    seconds = {name: median_seconds(run, n) for name, (run, n) in runs.items()}
    print(f"encoding {megabytes:.3f} MB of held-out stories, one thread, medians")
    for name, s in seconds.items():
        print(f"{name:<36}{s * 1000:9.2f} ms{megabytes / s:9.2f} MB/s")
    ratio = seconds["bpe, cache"] / seconds["tiktoken, exported vocabulary"]
    print(f"{'bpe (cache) time / tiktoken time, same vocabulary (target <= 2)':<66}{ratio:6.2f}")

    stories = train_path.read_text(encoding="utf-8").split(EOT)[:-1]
    batch = {}
    for cache in ("cold", "warm"):
        for workers in (1, 2):
            def run():
                fresh = bpe.Tokenizer(vocab, merges, [EOT])
                if cache == "warm":  # every word already in the cache, as in a long-running service
                    fresh.encode_batch(stories, workers=1)
                start = time.perf_counter()
                fresh.encode_batch(stories, workers=workers)
                return time.perf_counter() - start
            batch[(cache, workers)] = statistics.median(run() for _ in range(5))
    print(f"\nencode_batch on {len(stories):,} stories ({sum(map(len, stories)) / 1e6:.1f} MB), medians of 5")
    speedups = {}
    for cache in ("cold", "warm"):
        speedups[cache] = batch[(cache, 1)] / batch[(cache, 2)]
        print(f"{cache} cache: 1 worker {batch[(cache, 1)]:.3f} s, 2 workers {batch[(cache, 2)]:.3f} s, "
              f"speed-up {speedups[cache]:.2f}x (target >= 1.6)")

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "encode.json").write_text(json.dumps({"seconds": seconds, "ratio_vs_tiktoken": ratio,
                                                 "batch_speedup": speedups}, indent=1))


if __name__ == "__main__":
    main()
