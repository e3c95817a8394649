"""make bench (many words): training where the distinct pre-tokens grow with the text.

Corpora (``bpe/data/word_corpora.py``): made-up words with Zipf frequencies at 10,
40 and 100 MB, and the stories with NTREX-128 and Tatoeba; and
about 30 MB of real Python source, files as documents ("source"), and 40 MB of
made-up words at Zipf s=1.0 ("s1-40": more rare words than s=1.2). On each, this
package (``train_file``, 2 workers), rustbpe and Hugging Face tokenizers (2
threads) train a 10,000-entry vocabulary, each in a fresh process, one after the
other; this
package twice, as it runs here (its hot modules compiled, when a C compiler was
there for ``make compiled``) and with them run as Python (BPE_PURE_PYTHON=1).
Peak memory is each process's RSS high-water mark (ours: the main process; its
counting workers' peak is shown apart). BENCH_WORDS picks corpora ("10 40 100
mixed source s1-40" by default). BENCH_BASELINE, a folder holding an older
checkout's bpe/ and bench/ (its hot modules compiled there), adds its trainer to
each corpus's runs, as "before", compiled and as Python. Results also go to
_build/bench/words.json.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from bench_train import run

from bpe.data.word_corpora import mixed_corpus, source_corpus, zipf_corpus
from bpe.measure.scaling import MIB
from bpe.scale.compiled import PURE

OUT = Path(__file__).resolve().parent.parent / "_build" / "bench"


def corpus(name: str) -> Path:
    """mixed; source (Python source, 30 MB); s<exponent>-<MB>; or <MB> (s=1.2)."""
    if name == "mixed":
        return mixed_corpus()
    if name == "source":
        return source_corpus(30)
    if name.startswith("s"):
        exponent, mb = name[1:].split("-")
        return zipf_corpus(int(mb), float(exponent))
    return zipf_corpus(int(name))


def label(m: dict) -> str:
    """A corpus's name in the table."""
    name, mb = m["corpus"], f"{m['bytes'] / 1e6:.0f} MB"
    if name == "mixed":
        return "mixed"
    if name == "source":
        return f"Python source {mb}"
    exponent = name[1:].split("-")[0] if name.startswith("s") else "1.2"
    return f"zipf s={exponent} {mb}"


def baseline(path: Path, folder: str, pure: bool = False) -> dict:
    """An older checkout's train_file, 2 workers, in a fresh process."""
    # The runner is the module peers (run with -m: it imports relatively), in
    # bpe/measure/ since the book's parts were regrouped, in bpe/book/ before; a
    # checkout from before a61fddc has it in bench/, under its old name. All take
    # the same arguments.
    script = [sys.executable, "-m", "bpe.measure.peers", "heap", str(path), "2"]
    if not Path(folder, "bpe", "measure", "peers.py").is_file():
        script[2] = "bpe.book.peers"
        if not Path(folder, "bpe", "book", "peers.py").is_file():
            script[1:3] = [str(Path(folder, "bench", "run_one.py"))]
    env = {**os.environ, "PYTHONPATH": folder, PURE: "1" if pure else ""}
    # in the checkout: python -m puts the current folder first on the path
    run_there = {"capture_output": True, "text": True, "check": True, "cwd": folder}
    done = subprocess.run(script, env=env, **run_there)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(name: str) -> dict:
    """Ours, rustbpe and HF (and the baseline) on one corpus, in fresh processes."""
    path = corpus(name).resolve()  # the baseline runs in its own folder
    result = {"corpus": name, "bytes": path.stat().st_size}
    if os.environ.get("BENCH_BASELINE"):
        result["before"] = baseline(path, os.environ["BENCH_BASELINE"])
        result["before pure"] = baseline(path, os.environ["BENCH_BASELINE"], True)
    result["ours"] = run("heap", path, workers=2)  # compiled, where it could be
    result["pure"] = run("pure", path, workers=2)  # the same, its hot modules as Python
    result["rust"] = run("rust", path)
    result["hf"] = run("hf", path)
    return result


def row(m: dict, which: str = "ours") -> str:
    ours, rust, hf = m[which], m["rust"], m["hf"]
    suffix = {"before": " (before)", "before pure": " (before, as Python)"}
    name = label(m) + suffix.get(which, " (as Python)" if which == "pure" else "")
    peaks = " / ".join(f"{r['parent_peak'] / MIB:,.0f}" for r in (ours, rust, hf))
    return (
        f"| {name} | {ours['distinct']:,} | {ours['seconds']:.1f} s"
        f" (count {ours['pretokenize']:.1f}, pick {ours['pick']:.1f},"
        f" apply {ours['apply']:.1f}) | {rust['seconds']:.2f} s"
        f" | {hf['seconds']:.2f} s | {ours['seconds'] / rust['seconds']:.1f}x"
        f" | {ours['seconds'] / hf['seconds']:.1f}x | {peaks}"
        f" (workers {ours['worker_peak'] / MIB:,.0f}) |"
    )


def main() -> None:
    names = os.environ.get("BENCH_WORDS", "10 40 100 mixed source s1-40").split()
    version = sys.version.split()[0]
    print(f"machine: {os.cpu_count()} cores; Python {version}; one run each\n")
    print(
        "| corpus | distinct pre-tokens | ours (phases) | rustbpe | HF"
        " | ours / rustbpe | ours / HF | peak MiB ours / rustbpe / HF |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    results = []
    for name in names:
        results.append(measure(name))
        m = results[-1]
        if "before" in m:
            print(row(m, "before pure"))
            print(row(m, "before"))
            m["same merges"] = m["before"]["digest"] == m["ours"]["digest"]
        print(row(m, "pure"))
        print(row(m), flush=True)
        m["pure same merges"] = m["pure"]["digest"] == m["ours"]["digest"]
    compiled = all(m["ours"].get("compiled") for m in results)
    print(f"\nthis package's hot modules compiled: {compiled}")
    for m in results:
        same = m["pure same merges"]
        print(f"{m['corpus']}: compiled and as Python, the same merges: {same}")
        if "same merges" in m:
            same = m["same merges"]
            print(f"{m['corpus']}: the same merges before and after: {same}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "words.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
