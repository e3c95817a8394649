"""make bench (memory): train_file's peak memory with each shipped pattern, same file.

GPT-2's, cl100k_base's and o200k_base's patterns each train on one file of about 48
MiB, in a fresh process with one worker (so the peak is that process's own VmHWM,
see bpe/measure/peers.py), and with no special token: every cut comes from the pattern.
The file is the book's TinyStories training text, NTREX-128's English and Vietnamese
news and Tatoeba's English and Vietnamese sentences, one after another, repeated to
the size: distinct text is not needed to measure memory. Each pattern reads the file
in blocks cut at its own safe places (bpe/scale/cuts.py); the peaks should be alike
(target: o200k_base's within 1.5x of GPT-2's). With BENCH_MEMORY_WHOLE=1, o200k_base's
pattern is also run in a form no rule knows, which reads the file whole, for
comparison. Results also go to _build/bench/memory.json.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "_build" / "bench"
SIZE = 48 << 20  # bytes
VOCAB = 1_000
EN_VI = [
    "en-vi/ntrex128/newstest2019-src.eng.txt",
    "en-vi/ntrex128/newstest2019-ref.vie.txt",
    "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.eng",
    "en-vi/tatoeba-test-v2021-08-07/tatoeba-test-v2021-08-07.vie",
]


def patterns():
    from bpe.pretokenizer import PAT
    from bpe.scale.cuts import CL100K, O200K

    found = {"gpt2": PAT, "cl100k_base": CL100K, "o200k_base": O200K}
    if os.environ.get("BENCH_MEMORY_WHOLE") == "1":
        found["o200k_base, read whole"] = O200K + "|(?!)"  # the same pieces, no rule
    return found


def the_file():
    """The ~48 MiB file, written once into _build/bench."""
    from bpe.data import registry as data
    from bpe.data.corpora import tinystories_files

    target = OUT / "memory_48mib.txt"
    if target.is_file() and target.stat().st_size >= SIZE:
        return target
    parts = [tinystories_files()[0].read_bytes()]
    parts += [data.path(name).read_bytes() for name in EN_VI]
    one = b"".join(parts)
    OUT.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as f:
        for _ in range(-(-SIZE // len(one))):
            f.write(one)
    return target


def one_run(name, path):
    """Train in this process and print its measurements as a JSON line."""
    from bpe.scale.pipeline import train_file

    t0 = time.perf_counter()
    _, merges, report = train_file(path, VOCAB, workers=1, pattern=patterns()[name])
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - t0,
                "merges": len(merges),
                "peak": max(report.parent_peak_bytes, report.worker_peak_bytes),
                "distinct": report.distinct_pretokens,
            }
        )
    )


def main():
    path = the_file()
    print(
        f"train_file, vocabulary {VOCAB:,}, 1 worker, on {path.stat().st_size:,} bytes"
    )
    results = {}
    for name in patterns():
        args = [sys.executable, __file__, "--one", name, str(path)]
        done = subprocess.run(args, capture_output=True, text=True, check=True)
        results[name] = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{'pattern':<26}{'peak MiB':>10}{'seconds':>10}{'pre-tokens':>12}")
    for name, r in results.items():
        print(
            f"{name:<26}{r['peak'] / 2**20:>10.0f}{r['seconds']:>10.1f}"
            f"{r['distinct']:>12,}"
        )
    for name in ("cl100k_base", "o200k_base"):
        ratio = results[name]["peak"] / results["gpt2"]["peak"]
        print(f"{name} peak / gpt2 peak (target <= 1.5): {ratio:.2f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "memory.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        one_run(sys.argv[2], sys.argv[3])
    else:
        main()
