"""make bench (training): this package beside rustbpe and Hugging Face tokenizers.

Every run trains a 10,000-entry vocabulary with <|endoftext|> on the book's TinyStories
training text (and on that text repeated 4x and 16x), each in a fresh process, with two
workers or two threads each; then the scan and naive trainers on 1x. Reported figures
are medians; ratios compare medians measured in this same run, interleaved. Results
also go to _build/bench/train.json.
"""

import json
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

import regex

import bpe
from bpe.data.corpora import tinystories_files
from bpe.measure.peers import timed_run
from bpe.scale.pipeline import pretokenize_file

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "_build" / "bench"
EOT = "<|endoftext|>"
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))


def run(which, path, workers=2):
    return timed_run(which, path, workers)


def repeated(path, times):
    """The training text repeated, written once next to it."""
    target = path.with_name(f"{path.stem}_x{times}{path.suffix}")
    if not target.is_file() or target.stat().st_size != times * path.stat().st_size:
        data = path.read_bytes()
        with open(target, "wb") as f:
            for _ in range(times):
                f.write(data)
    return target


def interleaved(configs, repeats):
    """Run each config `repeats` times, alternating.

    A slow spell of the machine then hits every config alike.
    """
    results = {name: [] for name in configs}
    for _ in range(repeats):
        for name, (which, path) in configs.items():
            results[name].append(run(which, path))
    return results


def median(runs, key="seconds"):
    return statistics.median(r[key] for r in runs)


_TEXT = ""  # the text, set before forking so workers need not receive it


def _raw_findall(half):
    """Time regex.findall with PAT over one half of _TEXT, inside a worker."""
    text = _TEXT[: len(_TEXT) // 2] if half == 0 else _TEXT[len(_TEXT) // 2 :]
    pattern = regex.compile(bpe.PAT)
    t0 = time.perf_counter()
    pattern.findall(text)
    return len(text.encode("utf-8")) / 1e6 / (time.perf_counter() - t0)


def pretokenize_throughput(path, repeats):
    """MB/s: raw regex.findall against this package's whole counting pipeline.

    Wall clock. With two workers each process shares the machine with the other, so
    the fair floor is raw findall run in two processes at once; with one worker it is
    raw findall alone.
    """
    global _TEXT
    _TEXT = path.read_text(encoding="utf-8")
    size = len(_TEXT.encode("utf-8")) / 1e6
    ctx = multiprocessing.get_context("fork")
    raw1, raw2, ours1, ours2 = [], [], [], []
    for _ in range(repeats):
        raw1.append(_raw_findall(0) / 2 + _raw_findall(1) / 2)
        with ctx.Pool(2) as pool:
            raw2.append(statistics.mean(pool.map(_raw_findall, [0, 1])))
        for workers, out in ((1, ours1), (2, ours2)):
            t0 = time.perf_counter()
            pretokenize_file(path, (EOT,), bpe.PAT, workers)
            out.append(size / (time.perf_counter() - t0) / workers)
    med = statistics.median
    return {
        "raw regex.findall, 1 process": med(raw1),
        "bpe pretokenize_file, 1 worker": med(ours1),
        "raw regex.findall, 2 processes at once, per process": med(raw2),
        "bpe pretokenize_file, 2 workers, per worker": med(ours2),
    }


def main():
    train, _ = tinystories_files()
    print(
        f"machine: {os.cpu_count()} cores; Python {sys.version.split()[0]};"
        f" {REPEATS} repeats; medians\n"
    )
    results = run_all(train)
    ours = [name for name in results if name.split()[0] in ("heap", "scan", "naive")]
    print_runs(results, ours)
    ratios = print_ratios(results, ours)
    throughput = print_throughput(train, ratios)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "train.json").write_text(
        json.dumps(
            {"runs": results, "ratios": ratios, "throughput": throughput}, indent=1
        )
    )


def run_all(train: Path) -> dict[str, list[dict]]:
    """Every configuration's runs: ours, rustbpe and tokenizers at 1x, 4x and 16x."""
    sizes = {"1x": train, "4x": repeated(train, 4), "16x": repeated(train, 16)}
    results = {}
    for size, path in sizes.items():
        repeats = REPEATS if size == "1x" else max(3, REPEATS // 2)
        configs = {
            f"heap {size}": ("heap", path),
            f"rustbpe {size}": ("rust", path),
            f"tokenizers {size}": ("hf", path),
        }
        results.update(interleaved(configs, repeats))
    results["scan 1x"] = [run("scan", train) for _ in range(max(1, REPEATS // 2))]
    if os.environ.get("BENCH_NAIVE", "1") == "1":
        results["naive 1x"] = [run("naive", train, workers=2)]  # minutes: one run
    return results


def print_runs(results: dict[str, list[dict]], ours: list[str]) -> None:
    """One row per configuration: its median time, and for ours where it went."""
    print(
        f"{'run':<18}{'median s':>10}{'pre-tok s':>11}{'pick s':>9}{'apply s':>9}"
        f"{'main MiB':>10}{'worker MiB':>12}"
    )
    for name, runs in results.items():
        row = f"{name:<18}{median(runs):>10.3f}"
        if name in ours:
            row += "".join(
                f"{median(runs, k):>{w}.3f}"
                for k, w in (("pretokenize", 11), ("pick", 9), ("apply", 9))
            )
            row += (
                f"{median(runs, 'parent_peak') / 2**20:>10.0f}"
                f"{median(runs, 'worker_peak') / 2**20:>12.0f}"
            )
        else:
            row += f"{'':>29}{median(runs, 'parent_peak') / 2**20:>10.0f}"
        print(row)
    print()


def print_ratios(results: dict[str, list[dict]], ours: list[str]) -> dict[str, float]:
    """The ratios the targets are set on, printed; and whether our merges agree."""
    m = {name: median(runs) for name, runs in results.items()}
    ratios = {
        "heap / rustbpe (1x; target <= 1.5)": m["heap 1x"] / m["rustbpe 1x"],
        "heap / rustbpe (4x; target <= 1.0)": m["heap 4x"] / m["rustbpe 4x"],
        "heap / rustbpe (16x; target <= 1.0)": m["heap 16x"] / m["rustbpe 16x"],
        "heap / tokenizers (1x; target <= 0.9)": m["heap 1x"] / m["tokenizers 1x"],
        "heap / tokenizers (4x; target <= 0.6)": m["heap 4x"] / m["tokenizers 4x"],
        "heap / tokenizers (16x)": m["heap 16x"] / m["tokenizers 16x"],
        "scan / heap (1x)": m["scan 1x"] / m["heap 1x"],
    }
    if "naive 1x" in m:
        ratios["naive / heap (1x; target >= 150)"] = m["naive 1x"] / m["heap 1x"]
    for name, value in ratios.items():
        print(f"{name:<48}{value:8.2f}")
    digests = {
        r["digest"] for name in ours if name.endswith("1x") for r in results[name]
    }
    print(
        f"{'merge lists identical across our 1x runs':<48}{str(len(digests) == 1):>8}"
    )
    return ratios


def print_throughput(train: Path, ratios: dict[str, float]) -> dict[str, float]:
    """Pre-tokenizing throughput against raw findall; its ratios join ratios."""
    throughput = pretokenize_throughput(train, REPEATS)
    print()
    for name, value in throughput.items():
        print(f"{name:<52}{value:8.2f} MB/s")
    one = (
        throughput["bpe pretokenize_file, 1 worker"]
        / throughput["raw regex.findall, 1 process"]
    )
    two = (
        throughput["bpe pretokenize_file, 2 workers, per worker"]
        / throughput["raw regex.findall, 2 processes at once, per process"]
    )
    ratios["per-worker throughput / raw findall, 1 worker"] = one
    ratios["per-worker throughput / raw findall, 2 workers"] = two
    print(f"{'1 worker: ours / raw findall (target >= 0.75)':<52}{one:8.2f}")
    print(f"{'2 workers: ours per worker / raw (target >= 0.75)':<52}{two:8.2f}")
    return throughput


if __name__ == "__main__":
    main()
