"""The ``bpe`` command: train a tokenizer on a file, encode and decode with it.

    bpe train corpus.txt --vocab-size 10000 --special '<|endoftext|>' --out tok/
    bpe train 'shards/*.parquet' --vocab-size 10000 --out tok/
    bpe train vi.txt --from tok/ --vocab-size 12000 --out tok-vi/  # 2,000 merges more
    bpe encode --tokenizer tok/ story.txt > ids.txt
    bpe decode --tokenizer tok/ ids.txt

Encoding and decoding stream, so ``cat big.txt | bpe encode | bpe decode`` runs in
memory that does not grow with the text. Every problem is one line on stderr: exit
code 2 for a bad command line, 1 for anything else, 130 after Ctrl-C and 143 after
SIGTERM (in both cases, like any failure, an earlier tokenizer folder stays whole).
"""

from __future__ import annotations

import argparse
import codecs
import os
import signal
import sys
import warnings
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from itertools import islice
from pathlib import Path
from typing import BinaryIO, NoReturn

from ..trainer import OutOfPairs
from .pipeline import train_files
from .stream import decode_chunks
from .tokenizer import Tokenizer
from .training import METHODS

READ = 1 << 16  # bytes read from the input at a time


class UsageError(Exception):
    """A bad command line; reported in one line like every other error."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print usage and exit
        raise UsageError(f"{message} (see {self.prog} --help)")  # "bpe", "bpe train"


def positive_int(text: str) -> int:
    value = int(text)  # argparse turns a ValueError into "invalid positive_int value"
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="bpe", description="Byte-level BPE: train, encode, decode.")
    commands = parser.add_subparsers(dest="command", required=True)
    train = commands.add_parser(
        "train", help="learn a vocabulary from a UTF-8 text file"
    )
    train.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="the training text: files, globs or fsspec URLs, text or Parquet",
    )
    train.add_argument(
        "--vocab-size",
        type=int,
        required=True,
        help="entries in the vocabulary, specials included",
    )
    train.add_argument(
        "--special",
        action="append",
        default=[],
        metavar="TOK",
        help="a special token (repeat for several)",
    )
    train.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="processes for pre-tokenizing (default and most: all cores)",
    )
    train.add_argument("--method", choices=METHODS, default="heap")
    train.add_argument(
        "--from",
        dest="start",
        metavar="DIR",
        help="a tokenizer folder to go on from: its ids stay, new merges are added",
    )
    train.add_argument(
        "--out", required=True, help="folder for vocab.json and merges.txt"
    )
    train.add_argument("--quiet", action="store_true", help="no progress bars")
    for name, what in [
        ("encode", "text -> ids, one line of integers"),
        ("decode", "ids -> text"),
    ]:
        sub = commands.add_parser(name, help=what)
        sub.add_argument(
            "--tokenizer", required=True, help="a folder written by bpe train"
        )
        sub.add_argument("file", nargs="?", help="input file (default: standard input)")
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said by the command's own parser, which names its own help
        commands.choices[args.command].error(
            f"unrecognized arguments: {' '.join(unknown)}"
        )
    return args


def check_out(out: str) -> None:
    """Refuse an --out that cannot become a tokenizer folder, before any work."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")
    existing = next(p for p in [path, *path.parents] if p.exists())
    if not existing.is_dir():  # afile/tok: the folder would have to be made in a file
        raise ValueError(f"--out {out}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK):
        raise PermissionError(f"--out {out}: cannot write in {existing}")


def train(args: argparse.Namespace) -> None:
    check_out(args.out)
    start = Tokenizer.load(args.start) if args.start else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OutOfPairs)
        vocab, merges, report = train_files(
            args.files,
            args.vocab_size,
            args.special,
            args.workers,
            args.method,
            progress=not args.quiet,
            start=start,
        )
    specials = start.specials if start else args.special  # they match, if both given
    Tokenizer(vocab, merges, specials).save(args.out)
    print(report)
    print(f"wrote {args.out}")
    if any(issubclass(w.category, OutOfPairs) for w in caught):
        print(
            "bpe train: note: the text ran out of pairs to merge after "
            f"{len(merges):,} merges, so the vocabulary has {len(vocab):,} "
            f"entries, not {args.vocab_size:,}",
            file=sys.stderr,
        )


def text_pieces(stream: BinaryIO, where: str) -> Iterator[str]:
    """The stream's text, piece by piece, decoded strictly; errors name the offset."""
    decoder, offset = codecs.getincrementaldecoder("utf-8")(), 0
    for block in iter(lambda: stream.read(READ), b""):
        start = offset - len(decoder.getstate()[0])  # where the undecoded bytes begin
        offset += len(block)
        try:
            yield decoder.decode(block)
        except UnicodeDecodeError as e:
            raise ValueError(
                f"{where}: not UTF-8 (byte {e.object[e.start]:#04x} at "
                f"offset {start + e.start})"
            ) from None
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as e:
        raise ValueError(
            f"{where}: not UTF-8 (the last character stops short at "
            f"offset {offset - len(e.object) + e.start})"
        ) from None


def parse_ids(pieces: Iterable[str]) -> Iterator[list[int]]:
    r"""Lists of whitespace-separated integers, from text that arrives in pieces.

    >>> list(parse_ids(["1 2", "3\n4"]))
    [[1], [23], [4]]
    """
    carry, n = "", 0
    for piece in pieces:
        words = (carry + piece).split()
        carry = words.pop() if words and not piece[-1:].isspace() else ""
        yield [token_id(word, n + k) for k, word in enumerate(words, start=1)]
        n += len(words)
    if carry:
        yield [token_id(carry, n + 1)]


def token_id(word: str, n: int) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"item {n} of the input is not a token id: {word!r}") from None


def encode(tokenizer: Tokenizer, pieces: Iterable[str], out: BinaryIO) -> None:
    """Write the ids of the text, space-separated on one line, as they are found."""
    ids, separator = tokenizer.encode_iterable(pieces), ""
    while chunk := list(islice(ids, 8192)):
        out.write((separator + " ".join(map(str, chunk))).encode())
        separator = " "
    out.write(b"\n")


def decode(tokenizer: Tokenizer, pieces: Iterable[str], out: BinaryIO) -> None:
    """Write the text of the ids as UTF-8, as it becomes complete."""
    for text in decode_chunks(tokenizer, parse_ids(pieces)):
        out.write(text.encode("utf-8"))


def run(args: argparse.Namespace) -> None:
    if args.command == "train":
        return train(args)
    tokenizer = Tokenizer.load(args.tokenizer)
    where = args.file or "<stdin>"
    with (
        open(args.file, "rb") if args.file else nullcontext(sys.stdin.buffer) as source
    ):
        work = encode if args.command == "encode" else decode
        work(tokenizer, text_pieces(source, where), sys.stdout.buffer)
        sys.stdout.buffer.flush()


class Stop(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: unwinds, so that nothing is left half done."""


def stop(signum: int, frame: object) -> NoReturn:
    raise Stop()


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print(f"bpe: error: {error}", file=sys.stderr)
        return 2
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        run(args)
    except (
        BrokenPipeError
    ):  # the reader went away (bpe encode big.txt | head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (ValueError, TypeError, OSError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"bpe {args.command}: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as interrupt:
        print(f"bpe {args.command}: interrupted", file=sys.stderr)
        return 143 if isinstance(interrupt, Stop) else 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
