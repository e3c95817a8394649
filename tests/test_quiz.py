"""The quiz, read from the chapters: well formed, two or more questions per chapter of
part 1, and the facts its right answers state are computed here rather than trusted."""

from __future__ import annotations

import warnings
from collections import Counter

import pytest
from chapter_cells import quiz_questions

from bpe.book.chapters.toy import ToyBPE
from bpe.book.chapters.utf8 import SURROGATES
from bpe.book.practice.quiz import Quiz, parse
from bpe.files import MERGES_HEADER, bytes_to_unicode
from bpe.pretokenizer import pretokenize, pretokens
from bpe.tokenizer import Tokenizer, encode_word
from bpe.trainer import count_pairs, merge, train

EOT = "<|endoftext|>"
QUESTIONS = quiz_questions()
BY_ID = {q.id: q for q in QUESTIONS}


def right(question_id: str) -> str:
    """The text of the right option."""
    q = BY_ID[question_id]
    return q.options[q.answer]


def test_questions_are_well_formed():
    assert len(BY_ID) == len(QUESTIONS)  # ids are unique
    for q in QUESTIONS:
        assert len(q.options) >= 2 and len(set(q.options)) == len(q.options)
        assert 0 <= q.answer < len(q.options)
        assert len(q.why) == len(q.options) and all(q.why)
        assert q.why[q.answer].startswith("Right")
        assert sum(w.startswith("Right") for w in q.why) == 1


def test_every_chapter_of_part_one_has_two_questions_and_the_lesson_four():
    counts = Counter(q.chapter for q in QUESTIONS)
    assert all(counts[f"{c:02}"] >= 2 for c in range(8))
    assert sum(q.lesson for q in QUESTIONS) == 4
    chapters = [q.chapter for q in QUESTIONS]
    assert chapters == sorted(chapters)  # book order


def test_a_quiz_that_is_not_well_formed_is_refused_in_one_sentence():
    good = "- {text: '2', why: 'Right.', correct: true}\n- {text: '3', why: No.}"
    assert len(parse("04", f"- id: x\n  question: q\n  options:\n{indent(good)}")) == 1
    for bad, said in [
        ("", "not a list of questions"),
        ("- id: x\n  question: q", "lacks 'options'"),
        ("- id: x\n  options: []", "lacks 'question'"),
        (f"- id: x\n  question: q\n  options:\n{indent(good.replace('true', 'false'))}",
         "mark exactly one option correct, not 0"),
        ("- id: x\n  question: q\n  options:\n  - {text: a, correct: true}",
         "lacks 'why'"),
    ]:  # fmt: skip
        with pytest.raises(ValueError, match=said):
            Quiz("04", bad)


def indent(text):
    return "\n".join("  " + line for line in text.splitlines())


def test_utf8_facts():
    assert right("02-emoji-bytes") == str(len("🙃".encode()))
    assert right("02-hello-bytes") == str(len("héllo".encode()))
    assert "2,048" in right("02-surrogates") and len(SURROGATES) == 2048
    # No byte of a multi-byte character is ASCII, over every code point.
    assert all(
        min(chr(cp).encode()) >= 0x80
        for cp in range(0x80, 0x110000)
        if cp not in SURROGATES
    )


def test_pretokenization_facts(toy_corpus):
    assert len(pretokenize(toy_corpus)) == 8
    assert pretokens(" $12.50") == [" $", "12", ".", "50"]
    assert right("03-money") == "' $', '12', '.', '50'"
    assert pretokens("low low") == ["low", " low"]


def test_training_facts(toy_corpus):
    assert right("04-overlap") == "aa a"
    assert merge((b"a",) * 3, (b"a", b"a"), b"aa") == (b"aa", b"a")
    pairs = count_pairs(pretokenize(toy_corpus))
    top = max(pairs.values())
    assert top == 9 and {p for p, n in pairs.items() if n == top} == {
        (b"e", b"s"),
        (b"s", b"t"),
    }
    vocab, merges = train(toy_corpus, 265, [EOT])
    assert merges[0] == (b"s", b"t") and right("04-first-merge") == "(s, t)"
    assert vocab[int(right("04-special-id"))] == EOT.encode()


def test_early_stop_fact():
    toy = ToyBPE()
    toy.train("abxab", 300)  # after ab, every pair left occurs once
    assert len(toy.merges) == 1


def test_encoding_and_decoding_facts(toy_corpus):
    tok = Tokenizer(*train(toy_corpus, 265, [EOT]), [EOT])
    assert tok.encode("zzqq") == [122, 122, 113, 113]
    ids = tok.encode("🙃")
    assert len(ids) == 4 and tok.decode(ids[:2]) == "\ufffd"
    assert right("06-partial").startswith("'\ufffd'")
    # The lesson's order question: learned order vs. west first.
    word = tuple(bytes([b]) for b in b"lowest")
    assert encode_word(word, tok.rank) == (b"low", b"est")


def test_file_format_facts():
    table = bytes_to_unicode()
    kept = sum(ord(c) == b for b, c in table.items())
    assert right("07-kept") == str(kept) == "188"
    assert right("07-space") == table[32] and table[10] == "Ċ" and table[95] == "_"
    assert right("07-header").startswith(f"A '{MERGES_HEADER}'")


def test_divergence_facts():
    from bpe.book.chapters.divergence import BYTE_IDS, crosses, hf_byte_ids

    hf = hf_byte_ids()
    assert hf[b" "] > max(hf[bytes([b])] for b in b"azAZ09")
    assert BYTE_IDS[b" "] < min(BYTE_IDS[bytes([b])] for b in b"azAZ09")
    assert crosses((b"e", b" ")) and "(e, then a space)" in right("20-lesson-first")


def test_gpt2_size():
    from bpe.interop.openai import get_encoding

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gpt2 = get_encoding("gpt2")
    assert right("01-gpt2-size") == f"{gpt2.n_vocab:,}"


def test_the_right_answer_is_not_guessable_from_its_place():
    """No position holds more than 40% of the right answers."""
    places = Counter(q.answer for q in QUESTIONS)
    assert max(places.values()) <= 0.4 * len(QUESTIONS), places
