"""The article edition: the data chapters' figures on any data, the article's too.

``story_figures``, ``language_figures`` and ``no_regex_figures`` compute, from a trained
tokenizer and a corpus, the figures the article prints, keyed as in ``ledger.ARTICLE``.
The chapters call them on the book's pinned data; ``python -m bpe.book.figures.article``
(``make article``) calls them on TinyStoriesV2 and OPUS-100 from the Hugging Face hub,
or on local copies given by path, and prints each figure beside the article's.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from bpe.book.chapters import analysis
from bpe.book.chapters.display import show_token
from bpe.book.figures import ledger
from bpe.files import PathLike
from bpe.interop.openai import COMPARED, get_encoding
from bpe.pretokenizer import ENDOFTEXT as EOT
from bpe.pretokenizer import PAT
from bpe.scale.pipeline import train_file
from bpe.scale.tokenizer import Tokenizer
from bpe.scale.training import train
from bpe.trainer import Pair


def story_figures(
    tokenizer: Tokenizer,
    merges: list[Pair],
    heldout: list[str],
    small: tuple[dict[int, bytes], list[Pair]] | None = None,
) -> dict[str, object]:
    """The TinyStories section's figures.

    ``small`` is (vocab, merges) trained on less data.
    """
    gpt2 = get_encoding("gpt2")
    ours, theirs = (
        analysis.compression(tokenizer, heldout),
        analysis.compression(gpt2, heldout),
    )
    with_space, total = analysis.space_share(merges)
    lengths = analysis.length_histogram(merges)
    sentence = "Once upon a time, there was a little boat."
    figures = {
        "stories.heldout_bytes": ours["bytes"],
        "stories.tokens": ours["tokens"],
        "stories.bpt": f"{ours['bytes per token']:.2f}",
        "stories.gpt2_tokens": theirs["tokens"],
        "stories.gpt2_bpt": f"{theirs['bytes per token']:.2f}",
        "stories.round_trip": (
            f"{analysis.exact_round_trips(tokenizer, heldout)} of {len(heldout)}"
        ),
        "stories.first12": " ".join(
            show_token(t) for t in analysis.learned(merges)[:12]
        ),
        "stories.longest": " ".join(show_token(t) for t in analysis.longest(merges)),
        "stories.space": f"{with_space:,} of {total:,} ({with_space / total:.0%})",
        "stories.lengths": " ".join(str(lengths.get(n, 0)) for n in range(2, 16)),
        "stories.example": f"{len(analysis.split_tokens(tokenizer, sentence))} / "
        f"{len(analysis.split_tokens(gpt2, sentence))}",
        "fast.merges": len(merges),
        "fast.eot_id": tokenizer.special_id[EOT],
    }
    if small is not None:
        diff = analysis.compare(merges, tokenizer.vocab, small[1], small[0])
        figures["stories.small_shared"] = (
            f"{diff['shared entries']:,} of {len(tokenizer.vocab):,}"
        )
        figures["stories.small_first_diff"] = diff["first differing merge"]
    return figures


def encoders_for(stories_tokenizer: Tokenizer) -> dict[str, Any]:
    """OpenAI's three encodings and the TinyStories tokenizer, by their ledger names."""
    return {
        **{name: get_encoding(name) for name in COMPARED},
        "tinystories": stories_tokenizer,
    }


def language_figures(
    pairs: list[tuple[str, str]],
    costs: dict[str, dict[str, float]],
    stories_key: str = "tinystories",
) -> dict[str, str]:
    """The Vietnamese section's figures, from pairs and their ``language_costs``."""
    figures = {}
    for side, key in ((0, "lang.en_stats"), (1, "lang.vi_stats")):
        s = analysis.text_stats([pair[side] for pair in pairs])
        figures[key] = f"{s['characters']:,} / {s['UTF-8 bytes']:,} / {s['words']:,}"
    for name, row in costs.items():
        key = "tinystories" if name == stories_key else name
        figures[f"lang.{key}"] = (
            f"{row['English tokens']:,} {row['Vietnamese tokens']:,} "
            f"{row['Vietnamese / English']:.2f}x"
        )
        figures[f"lang.{key}_bpt"] = (
            f"{row['English bytes per token']:.2f} / "
            f"{row['Vietnamese bytes per token']:.2f}"
        )
    return figures


def no_regex_figures(text: str, merges: int = 20) -> dict[str, object]:
    """The first merges on text, without a pre-tokenizer and with GPT-2's regex."""
    figures = {}
    for key, pattern in (("pretok.no_regex", None), ("pretok.with_regex", PAT)):
        learned = train(text, 256 + merges + 1, [EOT], pattern=pattern, method="heap")[
            1
        ]
        figures[key] = " ".join(show_token(a + b) for a, b in learned)
        if pattern is None:
            ending = sum((a + b).endswith(b" ") for a, b in learned[:10])
            figures["pretok.no_regex_space"] = ending
    return figures


def hub_files() -> list[str]:
    """The article's files from the Hugging Face hub.

    Needs the network and the huggingface_hub package.
    """
    from huggingface_hub import hf_hub_download

    return [
        hf_hub_download("roneneldan/TinyStories", name, repo_type="dataset")
        for name in ("TinyStoriesV2-GPT4-valid.txt", "TinyStoriesV2-GPT4-train.txt")
    ]


def hub_pairs() -> list[tuple[str, str]]:
    """OPUS-100 en-vi test pairs from the Hugging Face hub.

    Needs the network and the datasets package.
    """
    from datasets import load_dataset

    rows = load_dataset("Helsinki-NLP/opus-100", "en-vi", split="test")
    return [(row["translation"]["en"], row["translation"]["vi"]) for row in rows]


def read_pairs(en_path: PathLike, vi_path: PathLike) -> list[tuple[str, str]]:
    """Aligned sentence pairs from two local files, one sentence per line."""
    with open(en_path, encoding="utf-8") as en, open(vi_path, encoding="utf-8") as vi:
        return [
            (a.rstrip("\r\n"), b.rstrip("\r\n")) for a, b in zip(en, vi, strict=True)
        ]


def run(
    valid: PathLike,
    train_path: PathLike,
    pairs: list[tuple[str, str]],
    vocab_size: int = 10_000,
    heldout: int = 200,
    workers: int | None = None,
) -> dict[str, object]:
    """Every figure of the article edition, on the given files: {key: value}."""
    with open(valid, encoding="utf-8") as f:
        valid_text = f.read()
    stories = [s for s in valid_text.split(EOT) if s.strip()][:heldout]
    vocab, merges, report = train_file(train_path, vocab_size, [EOT], workers=workers)
    small_vocab, small_merges, small_report = train_file(
        valid, vocab_size, [EOT], workers=workers
    )
    tokenizer = Tokenizer(vocab, merges, [EOT])
    figures = story_figures(
        tokenizer, merges, [s.strip("\n") for s in stories], (small_vocab, small_merges)
    )
    # the article counts the valid file's
    figures["fast.distinct"] = small_report.distinct_pretokens
    figures.update(no_regex_figures(valid_text[:1_000_000]))
    figures.update(
        language_figures(pairs, analysis.language_costs(encoders_for(tokenizer), pairs))
    )
    print(report)
    return figures


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(
        description="Reproduce the article's data figures on its own data."
    )
    parser.add_argument(
        "--valid", help="TinyStoriesV2-GPT4-valid.txt (default: download from the hub)"
    )
    parser.add_argument(
        "--train", help="TinyStoriesV2-GPT4-train.txt (default: download from the hub)"
    )
    parser.add_argument(
        "--pairs",
        nargs=2,
        metavar=("EN", "VI"),
        help="sentence-aligned files (default: OPUS-100)",
    )
    parser.add_argument("--vocab-size", type=int, default=10_000)
    args = parser.parse_args(argv)
    valid, train_path = (
        (args.valid, args.train) if args.valid and args.train else hub_files()
    )
    pairs = read_pairs(*args.pairs) if args.pairs else hub_pairs()
    figures = run(valid, train_path, pairs, args.vocab_size, workers=os.cpu_count())
    for key, value in figures.items():
        figure = ledger.ARTICLE[key]
        status = ledger.status(figure, {"value": value, "data": figure.data})
        print(
            f"{figure.what}\n    article: {figure.value}\n"
            f"    this run: {value}   ({status})"
        )
    return figures


if __name__ == "__main__":
    main()
