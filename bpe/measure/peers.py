"""This package beside its peers: one timed training run in a fresh process.

``timed_run("heap" | "pure" | "rust" | "hf", path)`` trains a 10,000-entry
vocabulary on a file with this package (``train_file``, 2 workers; "pure" with its
hot modules run as Python, ``bpe.scale.compiled``), rustbpe or Hugging Face's
``tokenizers`` (2 threads each) and returns the run's measurements; ``make bench``
and chapter 16 ("Faster training") both use it. From the command line:

    python -m bpe.measure.peers heap FILE WORKERS
    python -m bpe.measure.peers hf FILE
    python -m bpe.measure.peers rust FILE

Running each measurement in its own process keeps peak-memory readings per run. Peaks
are each process's own VmHWM: unlike ru_maxrss, it does not carry over from the parent
across fork and exec, so the caller cannot read its own memory as a child's.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bpe.pretokenizer import ENDOFTEXT
from bpe.scale.compiled import PURE

EOT = ENDOFTEXT
VOCAB = 10_000


def timed_run(which: str, path: Path | str, workers: int = 2) -> dict[str, Any]:
    """One run of "heap" (this package), "pure", "rust" or "hf" on the file, fresh."""
    method = "heap" if which == "pure" else which
    args = [sys.executable, "-m", "bpe.measure.peers", method, str(path)]
    args += [] if which in ("hf", "rust") else [str(workers)]
    env = {**os.environ, "RAYON_NUM_THREADS": str(workers)}  # rustbpe's threads
    env[PURE] = "1" if which == "pure" else env.get(PURE, "")
    done = subprocess.run(args, capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


WHO = {
    "heap": "this package",
    "pure": "this package, as Python",
    "rust": "rustbpe",
    "hf": "HF tokenizers",
}


def digest(merges):
    return hashlib.sha256(repr(merges).encode()).hexdigest()[:16]


def ours(method, path, workers):
    import bpe
    from bpe.scale.pipeline import train_file

    t0 = time.perf_counter()
    _, merges, report = train_file(path, VOCAB, [EOT], workers=workers, method=method)
    return {
        "seconds": time.perf_counter() - t0,
        "pretokenize": report.pretokenize_seconds,
        "pick": report.pick_seconds,
        "apply": report.apply_seconds,
        "merges": len(merges),
        "distinct": report.distinct_pretokens,
        "digest": digest(merges),
        "parent_peak": report.parent_peak_bytes,
        "worker_peak": report.worker_peak_bytes,
        "compiled": all(bpe.compiled().values()),
    }


def huggingface(path):
    """Hugging Face tokenizers' BpeTrainer, set up as this package trains.

    The same regex split, and the 256 byte-level characters as its alphabet.
    """
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    import bpe
    from bpe.scale.pool import own_peak_bytes

    t0 = time.perf_counter()
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(bpe.PAT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB,
        special_tokens=[EOT],
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train([str(path)], trainer)
    return {
        "seconds": time.perf_counter() - t0,
        "vocab": tok.get_vocab_size(),
        "parent_peak": own_peak_bytes(),
    }


def rust(path):
    """rustbpe (nanochat's trainer), given GPT-2's pattern and the file's documents.

    rustbpe takes no special tokens, so the documents are the text between the
    <|endoftext|> markers, as the other trainers see them; 9,999 entries make the same
    9,743 merges. Threads: RAYON_NUM_THREADS (make bench sets 2).
    """
    import rustbpe

    import bpe
    from bpe.scale.pool import own_peak_bytes

    t0 = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        documents = f.read().split(EOT)
    tokenizer = rustbpe.Tokenizer()
    tokenizer.train_from_iterator(
        iter(documents), vocab_size=VOCAB - 1, pattern=bpe.PAT
    )
    return {
        "seconds": time.perf_counter() - t0,
        "parent_peak": own_peak_bytes(),
        "merges": len(tokenizer.get_mergeable_ranks()) - 256,
    }


if __name__ == "__main__":
    which, path = sys.argv[1], sys.argv[2]
    if which in ("hf", "rust"):
        result = huggingface(path) if which == "hf" else rust(path)
    else:
        result = ours(which, path, int(sys.argv[3]))
    print(json.dumps(result))
