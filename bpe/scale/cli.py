"""The ``bpe`` command: train a tokenizer on a file, encode and decode with it.

    bpe train corpus.txt --vocab-size 10000 --special '<|endoftext|>' --out tok/
    bpe encode --tokenizer tok/ story.txt > ids.txt
    bpe decode --tokenizer tok/ ids.txt

Every error is reported as one line on stderr with a non-zero exit code.
"""

import argparse
import sys

from ..files import decode_utf8
from ..tokenizer import Tokenizer
from ..train import METHODS
from .pipeline import train_file


class UsageError(Exception):
    """A bad command line; reported in one line like every other error."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print the usage and exit
        raise UsageError(f"{message} (see bpe {self.prog.split()[-1]} --help)")


def positive_int(text):
    value = int(text)  # argparse turns a ValueError into "invalid positive_int value"
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def parse_args(argv):
    parser = Parser(prog="bpe", description="Byte-level BPE: train, encode, decode.")
    commands = parser.add_subparsers(dest="command", required=True)

    train = commands.add_parser(
        "train", help="learn a vocabulary from a UTF-8 text file"
    )
    train.add_argument("file", help="the training text")
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
        help="a special token (repeat for several); the file is cut only at these",
    )
    train.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="processes for pre-tokenizing (default: all cores)",
    )
    train.add_argument("--method", choices=METHODS, default="heap")
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
            "--tokenizer", required=True, help="a folder written by `bpe train`"
        )
        sub.add_argument("file", nargs="?", help="input file (default: standard input)")
    return parser.parse_args(argv)


def read_input(file):
    """The bytes of a file, or of standard input when file is None."""
    if file is None:
        return sys.stdin.buffer.read()
    with open(file, "rb") as f:
        return f.read()


def parse_ids(text):
    r"""Whitespace-separated integers.

    >>> parse_ids("1 2\n3")
    [1, 2, 3]
    """
    ids = []
    for n, word in enumerate(text.split()):
        try:
            ids.append(int(word))
        except ValueError:
            raise ValueError(
                f"item {n + 1} of the input is not a token id: {word!r}"
            ) from None
    return ids


def run(args):
    if args.command == "train":
        vocab, merges, report = train_file(
            args.file,
            args.vocab_size,
            args.special,
            args.workers,
            args.method,
            progress=not args.quiet,
        )
        Tokenizer(vocab, merges, args.special).save(args.out)
        print(report)
        print(f"wrote {args.out}")
        return
    tokenizer = Tokenizer.load(args.tokenizer)
    data = read_input(args.file)
    if args.command == "encode":
        text = decode_utf8(data, args.file or "<stdin>", 0)
        sys.stdout.write(" ".join(map(str, tokenizer.encode(text))) + "\n")
    else:
        ids = parse_ids(decode_utf8(data, args.file or "<stdin>", 0))
        sys.stdout.write(tokenizer.decode(ids))


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print(f"bpe: error: {error}", file=sys.stderr)
        return 2
    try:
        run(args)
    except (ValueError, TypeError, OSError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"bpe {args.command}: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"bpe {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
