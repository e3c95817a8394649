"""The exercises' checks can fail: every reference passes, every starter and every
listed wrong answer is rejected, each with a pinned counterexample.

The counterexamples are pinned as the verdict shows them (shrunk, repr'd): the
cases are seeded, so a change that makes a check weaker or different shows here.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from chapter_cells import starter
from hypothesis import given
from hypothesis import strategies as st

import bpe.book.practice as exercises
from bpe.book.practice import EXERCISES, WRONG, check, verdict
from bpe.book.practice.inputs import smaller
from bpe.book.practice.runner import Raised, all_cases, call, fails, shrink
from bpe.files import bytes_to_unicode
from bpe.pretokenizer import split_special, to_bytes
from bpe.tokenizer import encode_word
from bpe.trainer import count_pairs, merge

PACKAGE = Path(exercises.__file__).parent
QUICK = [ex for ex in EXERCISES if ex.name != "gpt2_ids"]  # gpt2_ids loads GPT-2

# chapter 20's tie cases show the ids of " ", a, d, l, r and the merged " d"
BYTE_IDS = "{b' ': 32, b'a': 97, b'd': 100, b'l': 108, b'r': 114, b' d': 256}"
HF_IDS = "{b' ': 220, b'a': 64, b'd': 67, b'l': 75, b'r': 81, b' d': 256}"
PINNED = {
    ("replace_pair", "overlapping pairs merged"): {
        "ids": "[7, 7, 7]",
        "pair": "(7, 7)",
        "new_id": "300",
    },
    ("replace_pair", "scanned from the right"): {
        "ids": "[7, 7, 7]",
        "pair": "(7, 7)",
        "new_id": "300",
    },
    ("best_pair", "the lesson's rule, smaller ids"): {
        "counts": "Counter({(101, 115): 2, (115, 116): 2})"
    },
    ("best_pair", "ties left to dict order"): {
        "counts": "Counter({(101, 115): 2, (115, 116): 2})"
    },
    ("best_pair", "counts ignored"): {"counts": "Counter({(98, 98): 3, (99, 256): 1})"},
    ("best_pair", "the right id first"): {
        "counts": "Counter({(98, 256): 2, (99, 99): 2})"
    },
    ("tokens_per_byte", "characters, not bytes"): {
        "text": "'ï'",
        "encode": "ToyBPE().encode, untrained",
    },
    ("tokens_per_byte", "bytes per token"): {
        "text": "' a'",
        "encode": "ToyBPE().encode, trained on '🙃 ab 🙃 ab'",
    },
    ("tokens_per_byte", "integer division"): {
        "text": "' a'",
        "encode": "ToyBPE().encode, trained on '🙃 ab 🙃 ab'",
    },
    ("toy_encode", "one pass"): {
        "text": "'cbc'",
        "merges": "{(98, 99): 256, (99, 256): 259}",
    },
    ("toy_encode", "leftmost pair first"): {
        "text": "'cbab'",
        "merges": "{(97, 98): 256, (98, 256): 258, (99, 98): 259}",
    },
    ("toy_encode", "characters, not bytes"): {"text": "'é'", "merges": "{}"},
    ("toy_encode", "smallest pair, not smallest new id"): {
        "text": "'cab'",
        "merges": "{(99, 97): 256, (97, 98): 257}",
    },
    ("toy_encode", "the newest merge first"): {
        "text": "'cab'",
        "merges": "{(99, 97): 256, (97, 98): 257}",
    },
    ("toy_encode", "merges in the dict's order"): {
        "text": "'aab'",
        "merges": "{(256, 98): 257, (97, 97): 256}",
    },
    ("to_bytes", "one token per character"): {"s": "'é'"},
    ("to_bytes", "ints, not one-byte tokens"): {"s": "'h'"},
    ("to_bytes", "bytes(b) of an int"): {"s": "'h'"},
    ("to_bytes", "a list, not a tuple"): {"s": "''"},
    ("utf8_length", "no 4-byte code points"): {"code_point": "128579"},
    ("utf8_length", "edges off by one"): {"code_point": "128"},
    ("utf8_length", "each length's last code point left out"): {"code_point": "127"},
    ("count_words", "split on whitespace"): {"text": "' '", "specials": "[]"},
    ("count_words", "special tokens counted as text"): {
        "text": "'<|endoftext|>'",
        "specials": "['<|endoftext|>']",
    },
    ("count_words", "special tokens deleted, neighbours joined"): {
        "text": "'d<|endoftext|>t'",
        "specials": "['<|endoftext|>']",
    },
    ("count_words", "strings counted, not byte tuples"): {
        "text": "'l'",
        "specials": "[]",
    },
    ("count_words", "special tokens kept as pre-tokens"): {
        "text": "'<|endoftext|>'",
        "specials": "['<|endoftext|>']",
    },
    ("count_words", "specials split unescaped"): {"text": "'lo'", "specials": "[]"},
    ("count_pairs", "counts ignored"): {"table": "{(b'a', b'a', b'a'): 2}"},
    ("count_pairs", "a pair counted once per pre-token"): {
        "table": "{(b'a', b'a', b'a'): 2}"
    },
    ("count_pairs", "pairs across pre-tokens"): {"table": "{(b'a', b'a', b'a'): 2}"},
    ("count_pairs", "the last pair missed"): {"table": "{(b'a', b'a', b'a'): 2}"},
    ("merge", "overlapping pairs merged"): {
        "tok": "(b'a', b'a', b'a')",
        "pair": "(b'a', b'a')",
        "new": "b'aa'",
    },
    ("merge", "scanned from the right"): {
        "tok": "(b'a', b'a', b'a')",
        "pair": "(b'a', b'a')",
        "new": "b'aa'",
    },
    ("merge", "the last token dropped"): {
        "tok": "(b'a',)",
        "pair": "(b'a', b'a')",
        "new": "b'aa'",
    },
    ("train", "the lesson's tie-break"): {"text": "'owl'", "vocab_size": "257"},
    ("train", "merging across pre-tokens"): {
        "text": "'wer wid'",
        "vocab_size": "262",
        "specials": "['<|endoftext|>']",
    },
    ("train", "overlapping merges"): {
        "text": "'\\n\\n\\n'",
        "vocab_size": "259",
        "specials": "['<|endoftext|>']",
    },
    ("train", "specials numbered before the merges"): {
        "text": "'id'",
        "vocab_size": "258",
        "specials": "['<|endoftext|>']",
    },
    ("train", "special tokens trained on"): {
        "text": "'<|e|>en'",
        "vocab_size": "259",
        "specials": "['<|endoftext|>', '<|e|>']",
    },
    ("train", "specials left out of the count"): {
        "text": "'de'",
        "vocab_size": "257",
        "specials": "['<|endoftext|>']",
    },
    ("train", "ties by the joined bytes"): {
        "text": "'aaab'",
        "vocab_size": "258",
        "specials": "[]",
    },
    ("encode_word", "merge order found left to right"): {
        "tok": "(b'a', b'b', b'a')",
        "rank": "{(b'b', b'a'): 0, (b'a', b'b'): 1}",
    },
    ("encode_word", "one pass"): {
        "tok": "(b'l', b'o', b'w')",
        "rank": "{(b'o', b'w'): 0, (b'l', b'ow'): 1}",
    },
    ("encode_word", "highest rank first"): {
        "tok": "(b'a', b'b', b'a')",
        "rank": "{(b'b', b'a'): 0, (b'a', b'b'): 1}",
    },
    ("decode", "token by token"): {
        "ids": "[240, 159]",
        "vocab": ("0: b'\\x00', 1: b'\\x01', ..., 264: b'<|endoftext|>' (265 entries)"),
    },
    ("decode", "strict decoding"): {
        "ids": "[240]",
        "vocab": ("0: b'\\x00', 1: b'\\x01', ..., 264: b'<|endoftext|>' (265 entries)"),
    },
    ("decode", "bad bytes dropped"): {
        "ids": "[240]",
        "vocab": ("0: b'\\x00', 1: b'\\x01', ..., 264: b'<|endoftext|>' (265 entries)"),
    },
    ("split_special", "no specials, still a pattern"): {"text": "''", "specials": "[]"},
    ("split_special", "unescaped"): {"text": "''", "specials": "[]"},
    ("split_special", "not longest first"): {
        "text": "'<|e|><|e|>'",
        "specials": "['<|e|>', '<|e|><|e|>']",
    },
    ("split_special", "empty chunks dropped"): {
        "text": "'<|end|>'",
        "specials": "['<|end|>']",
    },
    ("encode", "a special token's id forgotten"): {
        "text": "'<|endoftext|>'",
        "vocab": ("0: b'\\x00', 1: b'\\x01', ..., 264: b'<|endoftext|>' (265 entries)"),
        "merges": (
            "[(b's', b't'), (b'e', b'st'), (b'o', b'w'), (b'l"
            "', b'ow'), (b'w', b'est'), (b'n', b'e'), (b'ne',"
            " b'west'), (b' ', b'newest')]"
        ),
        "specials": "['<|endoftext|>']",
    },
    ("encode", "merging across pre-tokens"): {
        "text": "'est '",
        "vocab": ("0: b'\\x00', 1: b'\\x01', ..., 279: b'<|endoftext|>' (280 entries)"),
        "merges": (
            "(b's', b't'), (b'e', b'st'), ..., (b'widest wide"
            "st widest\\nnewest newest newest newest newest ',"
            " b'new') (23 entries)"
        ),
        "specials": "['<|endoftext|>']",
    },
    ("encode", "special tokens dropped"): {
        "text": "'<|endoftext|>'",
        "vocab": ("0: b'\\x00', 1: b'\\x01', ..., 264: b'<|endoftext|>' (265 entries)"),
        "merges": (
            "[(b's', b't'), (b'e', b'st'), (b'o', b'w'), (b'l'"
            ", b'ow'), (b'w', b'est'), (b'n', b'e'), (b'ne', b"
            "'west'), (b' ', b'newest')]"
        ),
        "specials": "['<|endoftext|>']",
    },
    ("bytes_to_unicode", "no shift for unprintable bytes"): {},
    ("bytes_to_unicode", "shifted by the byte's value"): {},
    ("bytes_to_unicode", "ranges end one early"): {},
    ("bytes_to_unicode", "the soft hyphen kept"): {},
    ("write_merges", "no version line"): {"merges": "[]"},
    ("write_merges", "bytes written raw"): {"merges": "[(b' ', b'n')]"},
    ("write_merges", "no final newline"): {"merges": "[]"},
    ("read_merges", "version line read as a merge"): {"text": "'#version '"},
    ("read_merges", "characters encoded, not mapped back"): {
        "text": "'#version\\nĠ n'"
    },
    ("eight_merges", "the lesson's tie-break"): {
        "text": (
            "'low low low low low\\nlower lower widest widest "
            "widest\\nnewest newest newest newest newest newes"
            "t\\n'"
        ),
        "vocab_size": "264",
    },
    ("eight_merges", "merging across pre-tokens"): {
        "text": (
            "'low low low low low\\nlower lower widest widest "
            "widest\\nnewest newest newest newest newest newes"
            "t\\n'"
        ),
        "vocab_size": "264",
    },
    ("eight_merges", "specials numbered before the merges"): {
        "text": (
            "'low low low low low\\nlower lower widest widest "
            "widest\\nnewest newest newest newest newest newes"
            "t\\n'"
        ),
        "vocab_size": "265",
        "specials": "['<|endoftext|>']",
    },
    ("smaller_ids", "the right id first"): {
        "counts": "{(b'a', b'l'): 3, (b'd', b'a'): 3}",
        "ids": BYTE_IDS,
    },
    ("smaller_ids", "the left id only"): {
        "counts": "{(b' ', b'l'): 5, (b'a', b'r'): 5, (b' ', b'd'): 5}",
        "ids": BYTE_IDS,
    },
    ("smaller_ids", "smaller bytes, not smaller ids"): {
        "counts": "{(b'a', b'r'): 976, (b' ', b'r'): 976}",
        "ids": HF_IDS,
    },
    ("smaller_ids", "ties left to dict order"): {
        "counts": "{(b' ', b'l'): 5, (b'a', b'r'): 5, (b' ', b'd'): 5}",
        "ids": BYTE_IDS,
    },
    ("smaller_ids", "the greater pair"): {
        "counts": "{(b' ', b'l'): 5, (b'a', b'r'): 5, (b' ', b'd'): 5}",
        "ids": BYTE_IDS,
    },
    ("smaller_ids", "the rarest pair"): {
        "counts": (
            "{(b'd', b' d'): 1, (b'r', b'd'): 2, (b'r', b'l'): 2, (b'a', b'r'): 1}"
        ),
        "ids": BYTE_IDS,
    },
    ("first_difference", "counted from 1"): {
        "a": "[(b'a', b'b'), (b'c', b'd')]",
        "b": "[(b'a', b'b'), (b'd', b'c')]",
    },
    ("first_difference", "stops where the shorter list ends"): {
        "a": "[(b'a', b'b')]",
        "b": "[(b'a', b'b'), (b'b', b'c')]",
    },
    ("first_difference", "the longer list's length"): {
        "a": "[(b'a', b'b')]",
        "b": "[(b'a', b'b'), (b'b', b'c')]",
    },
    ("first_difference", "order ignored"): {
        "a": "[(b'a', b'b'), (b'b', b'c')]",
        "b": "[(b'b', b'c'), (b'a', b'b')]",
    },
    ("first_difference", "only a's end seen"): {
        "a": "[(b'a', b'b')]",
        "b": "[(b'a', b'b'), (b'b', b'c')]",
    },
    ("first_difference", "-1 when the same"): {
        "a": "[(b'a', b'b')]",
        "b": "[(b'a', b'b')]",
    },
}


def starter_function(name: str):
    """The function the starter code defines."""
    namespace: dict = {}
    exec(starter(name), namespace)
    return (
        namespace[exercises.exercise(name).name]
        if name in namespace
        else next(f for k, f in namespace.items() if inspect.isfunction(f))
    )


def failing_args(ex, fn) -> tuple:
    """The raw arguments of fn's first failing case, shrunk as the verdict does."""
    for _, args in all_cases(ex):
        if failure := fails(ex, fn, ex.reference, args):
            return shrink(ex, fn, ex.reference, args, failure)[0]
    raise AssertionError(f"{ex.name}: no failing case")


@pytest.mark.parametrize("ex", QUICK, ids=lambda ex: ex.name)
def test_the_reference_passes(ex):
    result = verdict(ex.name, ex.reference)
    assert result["passed"], result["message"]
    assert result["examples"] >= 1
    assert result["message"].startswith(f"✓ {ex.name}:")


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.name)
def test_the_starter_runs_but_fails(ex):
    fn = starter_function(ex.name)
    assert list(inspect.signature(fn).parameters) == ex.params
    result = verdict(ex.name, fn)
    assert not result["passed"]
    assert "Traceback" not in result["message"]


@pytest.mark.parametrize(
    "name, label", list(PINNED), ids=[f"{n}: {w}" for n, w in PINNED]
)
def test_a_wrong_answer_is_rejected_with_its_counterexample(name, label):
    ex = exercises.exercise(name)
    wrong = next(w for w in WRONG[name] if w.label == label)
    result = verdict(name, wrong.function)
    assert not result["passed"]
    assert result["case"] == PINNED[name, label]
    assert result["hint"] == wrong.hint  # the hint written for this mistake
    # The counterexample is real: the book's function and the wrong one differ on it.
    args = failing_args(ex, wrong.function)
    assert call(ex.reference, args) != call(wrong.function, args)


@pytest.mark.parametrize("ex", QUICK, ids=lambda ex: ex.name)
def test_the_cases_are_fair(ex):
    """Every chapter example counts, and most random cases do (none is skipped
    silently because the book's own function refuses it)."""
    fair = {True: [], False: []}
    for is_example, args in all_cases(ex):
        expected = call(ex.reference, args)
        fair[is_example].append(
            not isinstance(expected, Raised) and ex.valid(args, expected)
        )
    assert fair[True] and all(fair[True])
    assert sum(fair[False]) >= 0.6 * len(fair[False])


def test_every_wrong_answer_is_pinned():
    listed = {(ex.name, w.label) for ex in QUICK for w in ex.wrong}
    assert listed == set(PINNED)


def test_the_hint_names_the_mistake():
    """Merging a a a into two tokens is diagnosed as overlap."""
    result = verdict("merge", WRONG["merge"][0].function)
    assert result["case"]["tok"] == "(b'a', b'a', b'a')"
    assert result["actual"] == "(b'aa', b'aa')"
    assert result["hint"].startswith("Overlap")


def test_a_long_result_is_shown_at_its_first_difference():
    result = verdict("train", WRONG["train"][3].function)  # specials numbered first
    assert result["where"] == "[0][256]"
    assert result["expected"] == "b'id'" and result["actual"] == "b'<|endoftext|>'"


def test_an_exception_is_a_failure_shown_without_a_traceback(capsys):
    def broken(tok, pair, new):
        raise KeyError("no such token")

    assert check("merge", broken) is None  # the verdict is printed, nothing shown
    printed = capsys.readouterr().out
    assert printed.startswith("✗ merge:")
    assert "raised KeyError: 'no such token'" in printed
    assert "Traceback" not in printed and "line " not in printed


def test_a_random_failure_is_shrunk_to_a_small_case():
    # Characters instead of bytes: any non-ASCII character shows it, so the case
    # shrinks to a single character of two or more bytes.
    result = verdict("to_bytes", WRONG["to_bytes"][0].function)
    text = eval(result["case"]["s"])
    assert len(text) == 1 and len(text.encode("utf-8")) > 1


def test_a_function_with_a_memory_still_gets_a_verdict():
    calls = []

    def flaky(tok, pair, new):  # wrong on its first call only
        calls.append(tok)
        return () if len(calls) == 1 else merge(tok, pair, new)

    result = verdict("merge", flaky)
    assert not result["passed"] and result["actual"] == "()"


def test_prints_in_the_readers_code_are_muted(capsys):
    def chatty(tok, pair, new):
        print("debugging", tok)
        return merge(tok, pair, new)

    check("merge", chatty)
    printed = capsys.readouterr().out
    assert printed.startswith("✓ merge: right") and "debugging" not in printed


def test_the_verdict_is_the_same_every_time():
    for name in ("train", "encode", "count_words"):
        wrong = WRONG[name][0].function
        assert verdict(name, wrong) == verdict(name, wrong)


def test_the_reader_cannot_change_the_cases():
    def greedy(table):  # empties the table it is given, then counts nothing
        table.clear()
        return count_pairs(table)

    assert not verdict("count_pairs", greedy)["passed"]
    assert verdict("count_pairs", count_pairs)["passed"]


def test_signatures_are_the_books():
    book = {
        "merge": merge,
        "count_pairs": count_pairs,
        "to_bytes": to_bytes,
        "split_special": split_special,
        "bytes_to_unicode": bytes_to_unicode,
    }
    for name, function in book.items():
        assert exercises.exercise(name).params == list(
            inspect.signature(function).parameters
        )
    assert (
        exercises.exercise("encode_word").params
        == list(inspect.signature(encode_word).parameters)[:2]
    )  # the book's on_step is for traces only


def test_the_track_is_in_book_order_and_long_enough():
    chapters = [e["chapter"] for e in exercises.exercises()]
    assert chapters == sorted(chapters)
    assert sum("02" <= c <= "07" for c in chapters) >= 12
    assert len({e["name"] for e in exercises.exercises()}) == len(chapters)


def test_the_gpt2_check_uses_the_reference_it_is_given():
    class Empty:  # an encoder that gives no ids at all
        def encode(self, text, allowed_special=()):
            return []

    reader = exercises.codec.encode
    result = verdict("gpt2_ids", reader, reference=Empty())
    assert not result["passed"] and result["expected"] == "[]"
    assert verdict("gpt2_ids", reader)["passed"]  # tiktoken's own gpt2 ids


@pytest.mark.parametrize("label", [w.label for w in WRONG["gpt2_ids"]])
def test_gpt2_wrong_answers_are_rejected(label):
    wrong = next(w for w in WRONG["gpt2_ids"] if w.label == label)
    result = verdict("gpt2_ids", wrong.function)
    assert not result["passed"] and result["hint"] == wrong.hint


def test_the_page_can_import_it():
    """Only the standard library and the core: nothing Pyodide lacks."""
    for path in PACKAGE.glob("*.py"):
        imports = re.findall(r"^\s*(?:from|import) (\S+)", path.read_text(), re.M)
        for module in imports:
            assert module.split(".")[0] not in {"regex", "numpy", "pandas", "tiktoken"}


@given(
    st.one_of(
        st.text(max_size=12),
        st.lists(st.integers(0, 3), max_size=8),
        st.dictionaries(st.integers(0, 5), st.integers(1, 3), max_size=5),
        st.integers(0, 50),
    )
)
def test_shrinking_always_makes_the_input_smaller(value):
    size = value if isinstance(value, int) else len(value)
    for simpler in smaller(value):
        assert (simpler if isinstance(simpler, int) else len(simpler)) < size
