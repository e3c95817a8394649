"""make bench (JavaScript): the token playground's encoder, timed under Node.

1. Growth: one letter repeated 1,000, 10,000 and 100,000 times (one pre-token, the
   case a quadratic merge loop cannot take), for each vocabulary the playground ships;
   the fastest of repeated runs. The readable scan (bpe.js mergeByScan, the playground's
   old encoder) is timed beside it at 1,000 and 10,000 letters, for contrast.
2. Against tiktoken: the 200 held-out stories, encode_ordinary, each JavaScript run
   (timed inside Node) paired with a tiktoken run (timed here); the median of the
   ratios, for the piece cache empty (cold) and full (warm). The book's vocabulary is
   compared with tiktoken holding the same vocabulary (Tokenizer.to_tiktoken).
The ids are checked against Python's before anything is timed. Results also go to
_build/bench/js.json.
"""

import json
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from bpe.book.site import playground
from bpe.data import corpora
from bpe.measure.timing import seconds

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "bench"
RUNNER = Path(__file__).with_name("js_encode.js")
LENGTHS = (1_000, 10_000, 100_000)
SCANNED = (1_000, 10_000)  # the quadratic scan takes seconds beyond this
PAIRS = 9


class Node:
    """One Node process running js_encode.js, asked one JSON line at a time."""

    def __init__(self):
        node = shutil.which("node")
        if node is None:
            raise SystemExit("bench_js.py needs Node.js (node) on the PATH")
        self.process = subprocess.Popen(
            [node, str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def __call__(self, op, **request):
        self.process.stdin.write(json.dumps({"op": op, **request}) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def growth(node, encoders, repeats=7):
    """Milliseconds to encode "a" * n, heap and scan, per vocabulary: the fastest of a
    few runs, the one least disturbed by whatever else the machine is doing."""
    rows = {}
    for name, encoder in encoders.items():
        node("time", name=name, text="a" * 10_000)  # let the JIT compile first
        times = {}
        for n in LENGTHS:
            text = "a" * n
            assert node("ids", name=name, text=text) == encoder.encode_ordinary(text)
            times[n] = min(node("time", name=name, text=text) for _ in range(repeats))
        scan = {n: node("time", name=name, text="a" * n, how="scan") for n in SCANNED}
        rows[name] = {"heap_ms": times, "scan_ms": scan}
        steps = " ".join(f"{n // 1000}k {times[n]:7.1f} ms" for n in LENGTHS)
        print(
            f"{name:<12} heap: {steps}   x{times[10_000] / times[1_000]:4.1f}, "
            f"x{times[100_000] / times[10_000]:4.1f} per 10x (linear: x10); "
            f"scan: 1k {scan[1_000]:6.1f} ms, 10k {scan[10_000]:7.1f} ms"
        )
    return rows


def against_tiktoken(node, encoders, stories):
    """Median JavaScript / tiktoken time ratios on the stories, cold and warm."""
    from bpe.interop.openai import get_encoding

    rows = {}
    for name, encoder in encoders.items():
        # The book's vocabulary is a Tokenizer; tiktoken gets the same ranks.
        theirs = encoder.to_tiktoken() if name == "tinystories" else get_encoding(name)
        for story in stories[:20]:
            assert node("ids", name=name, text=story) == theirs.encode_ordinary(story)

        def run_tiktoken(encoding=theirs):
            return [encoding.encode_ordinary(s) for s in stories]

        row = {}
        for cold in (True, False):
            ours, tik = [], []
            for i in range(PAIRS):  # alternate which goes first
                if i % 2:
                    tik.append(seconds(run_tiktoken))
                ours.append(node("time", name=name, texts=stories, cold=cold) / 1000)
                if not i % 2:
                    tik.append(seconds(run_tiktoken))
            ratio = statistics.median(a / b for a, b in zip(ours, tik, strict=True))
            row["cold" if cold else "warm"] = {
                "ratio": ratio,
                "js_ms": statistics.median(ours) * 1000,
                "tiktoken_ms": statistics.median(tik) * 1000,
            }
        rows[name] = row
        print(
            f"{name:<12} JavaScript {row['cold']['js_ms']:7.1f} ms cold, "
            f"{row['warm']['js_ms']:7.1f} ms warm; "
            f"tiktoken {row['warm']['tiktoken_ms']:7.1f} ms; "
            f"ratio {row['cold']['ratio']:5.2f} cold, {row['warm']['ratio']:5.2f} warm"
        )
    return rows


def main():
    encoders = playground.encoders()
    stories = corpora.heldout_stories()
    node = Node()
    with tempfile.TemporaryDirectory() as folder:
        written = {path.name: path for path in playground.write(folder)}
        files = [str(written[v.file]) for v in playground.VOCABULARIES]
        assert node("load", files=files) == list(encoders)
        sizes = {
            v.name: written[v.file].stat().st_size for v in playground.VOCABULARIES
        }
    print("the playground's vocabulary files")
    for name, size in sizes.items():
        print(f"{name:<12} {size:>10,} bytes")
    print(
        "\none letter repeated n times (one pre-token), JavaScript encode, fastest of 7"
    )
    long = growth(node, encoders)
    megabytes = sum(len(s.encode("utf-8")) for s in stories) / 1e6
    print(
        f"\nthe {len(stories)} held-out stories ({megabytes:.2f} MB), encode_ordinary, "
        f"{PAIRS} pairs, medians; ratio = JavaScript time / tiktoken time"
    )
    stories_rows = against_tiktoken(node, encoders, stories)
    node.close()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "js.json").write_text(
        json.dumps(
            {"file_bytes": sizes, "repeated": long, "stories": stories_rows}, indent=1
        )
    )


if __name__ == "__main__":
    main()
