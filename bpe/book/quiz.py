"""Quiz questions for chapters 00-07 (part 1, the lesson's four among them) and 18.

Each question has its options, the right one, and a short explanation for every
option, so that a wrong choice is told why it is wrong. The figures quoted are
the book's own, computed in the chapters (and checked by tests/test_quiz.py where
a computation can check them). Plain data and the standard library only: the
page's Python shows the quiz and grades it with ``grade``.

>>> [q["id"] for q in questions("02")][:2]
['02-emoji-bytes', '02-hello-bytes']
>>> grade("04-overlap", 0)["correct"]
True

``Quiz(chapter)`` shows a chapter's questions: as HTML in a notebook's output (the
page makes its options clickable, see book/static/live/practice.js) and as plain text.
The HTML holds everything the page needs (the right option, each explanation), so
the quiz works on the page with no Python; without the page's script, a drop-down
under each question gives the answer.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Question:
    """One multiple-choice question; ``why`` explains each option, in order."""

    id: str
    chapter: str
    question: str
    options: tuple[str, ...]
    answer: int  # index of the right option
    why: tuple[str, ...]
    lesson: bool = False  # one of the lesson's own four questions


QUESTIONS = (
    # Chapter 00: the lesson's four questions (reworded), then the book's.
    Question(
        "00-lesson-bytes",
        "00",
        "Most tokenizers of language models begin from bytes, not characters. What "
        "does that buy them?",
        (
            "Bytes are quicker to type.",
            "Whatever the script, a text becomes a sequence over just 256 symbols, "
            "so no input is ever outside the vocabulary.",
            "A vocabulary cannot hold characters.",
        ),
        1,
        (
            "Typing has nothing to do with it: the tokenizer reads text already typed.",
            "Right: every string is UTF-8 bytes, and all 256 byte values are in the "
            "vocabulary from the start.",
            "It can; there are simply far too many characters (over a million code "
            "points) to give each an entry.",
        ),
        lesson=True,
    ),
    Question(
        "00-lesson-merge",
        "00",
        "What does a single merge step of BPE training do?",
        (
            "It replaces every occurrence of the currently most frequent neighbouring "
            "pair by one new token.",
            "It deletes the rarest token.",
            "It cuts the longest token in two.",
        ),
        0,
        (
            "Right: the vocabulary grows by one token, and the text gets shorter.",
            "Training never removes a token; the vocabulary only grows.",
            "Merges only join; nothing is ever split during training.",
        ),
        lesson=True,
    ),
    Question(
        "00-lesson-order",
        "00",
        "Why does encoding apply the merges in the order training learned them?",
        (
            "Because it is faster.",
            "Because another order can give other tokens, and the learned order "
            "repeats what training did.",
            "It does not matter in which order they are applied.",
        ),
        1,
        (
            "Speed is not the reason: the order decides which tokens come out.",
            "Right: 'lowest' becomes low + est in the learned order, but merging st, "
            "est and west first leaves l, o, west.",
            "It does: once w sits inside west, the merges that build low cannot apply.",
        ),
        lesson=True,
    ),
    Question(
        "00-lesson-naive-cafe",
        "00",
        "The lesson's toy tokenizer turns 'naïve café 🙂', 17 bytes, into 17 tokens. "
        "Why that many?",
        (
            "The emoji is a special token.",
            "Not one pair of neighbouring bytes in it was learned from the training "
            "text, so each byte remains a token.",
            "The tokenizer broke down.",
        ),
        1,
        (
            "The toy has no special tokens; the emoji is just four bytes.",
            "Right: merges only help where their pairs occur, and these pairs never "
            "occurred in what it was trained on.",
            "Nothing failed: decoding the 17 ids gives the text back exactly.",
        ),
        lesson=True,
    ),
    Question(
        "00-early-stop",
        "00",
        "ToyBPE can stop training before its vocabulary reaches vocab_size. When?",
        (
            "When the most frequent pair left occurs only once.",
            "When it runs out of ids above 255.",
            "After a fixed time limit.",
        ),
        0,
        (
            "Right: a token for a pair seen once would not make the text any shorter "
            "overall. The book's train goes on in that case.",
            "Ids are plain integers; there is always a next one.",
            "Nothing in it measures time; it is deterministic.",
        ),
    ),
    Question(
        "00-tie-break",
        "00",
        "Two tokenizers differ only in how they break ties between equally frequent "
        "pairs. What follows?",
        (
            "Nothing: ties never happen on real text.",
            "Their merges can differ, and so can their encodings; both are valid.",
            "One of them will fail to decode its own ids.",
        ),
        1,
        (
            "Ties are common, on the toy corpus from the very first merge.",
            "Right: a tie-break is a convention; what matters is that it is fixed.",
            "Both decode exactly: each vocabulary holds the bytes of all its tokens.",
        ),
    ),
    # Chapter 01: why a finite vocabulary needs subwords.
    Question(
        "01-unknown-word",
        "01",
        "A word-level tokenizer meets a word its training text never had. What can it "
        "do with it?",
        (
            "Spell it out letter by letter.",
            "Replace it with one catch-all symbol such as <UNK>.",
            "Add it to the vocabulary on the spot.",
        ),
        1,
        (
            "A word-level vocabulary holds no letters to spell with.",
            "Right: everything it never saw collapses into the same symbol.",
            "The vocabulary is fixed when the model is trained; it cannot grow later.",
        ),
    ),
    Question(
        "01-bytes-cover",
        "01",
        "Why can a byte-level vocabulary never meet a symbol it does not know?",
        (
            "Every string, in any language, is made of the same 256 byte values.",
            "It was trained on every language.",
            "It stores every word ever written.",
        ),
        0,
        (
            "Right: the 256 single bytes are in the vocabulary before any merge.",
            "Training data does not matter here: an untrained byte vocabulary already "
            "covers everything.",
            "No vocabulary can: language keeps making new words.",
        ),
    ),
    Question(
        "01-gpt2-size",
        "01",
        "How many entries does GPT-2's vocabulary have?",
        ("50,257", "256", "1,114,112"),
        0,
        (
            "Right: the 256 bytes, 50,000 merges and one special token, <|endoftext|>.",
            "That is only the bytes it starts from.",
            "That is the number of Unicode code points.",
        ),
    ),
    Question(
        "01-gage",
        "01",
        "What was byte-pair encoding first published as, in 1994?",
        (
            "A way to compress files.",
            "A tokenizer for machine translation.",
            "A spelling checker.",
        ),
        0,
        (
            "Right: Philip Gage replaced the commonest pair of adjacent bytes with an "
            "unused byte value, again and again.",
            "That came later, in 2016, when it was used to cut rare words into pieces.",
            "It was never one.",
        ),
    ),
    # Chapter 02: bytes.
    Question(
        "02-emoji-bytes",
        "02",
        "How many bytes does UTF-8 spend on the emoji '🙃'?",
        ("2", "3", "4"),
        2,
        (
            "Two bytes cover code points up to U+07FF, such as é.",
            "Three bytes go up to U+FFFF, which holds 牛 but not this emoji.",
            "Right: its code point lies beyond U+FFFF, and those take four bytes.",
        ),
    ),
    Question(
        "02-hello-bytes",
        "02",
        "'héllo' has five characters. How many bytes is it in UTF-8?",
        ("5", "6", "10"),
        1,
        (
            "Only if every character were ASCII; é is not.",
            "Right: four ASCII letters of one byte each, and é of two.",
            "UTF-8 does not spend two bytes on every character: ASCII takes one.",
        ),
    ),
    Question(
        "02-ascii-inside",
        "02",
        "Why is it safe to cut UTF-8 text wherever an ASCII character such as '<' "
        "occurs?",
        (
            "Every byte of a multi-byte character is 0x80 or above, so an ASCII byte "
            "is never part of another character.",
            "ASCII characters are rare in real text.",
            "Python repairs any character that gets cut.",
        ),
        0,
        (
            "Right: the chapter checks this over every code point.",
            "They are common; the point is that they cannot hide inside others.",
            "A cut character would decode to U+FFFD, not be repaired; it just never "
            "happens at an ASCII byte.",
        ),
    ),
    Question(
        "02-surrogates",
        "02",
        "Which code points can UTF-8 not encode at all?",
        (
            "Those above U+FFFF.",
            "The 2,048 surrogates, U+D800 to U+DFFF.",
            "The control characters.",
        ),
        1,
        (
            "Those take four bytes, but they encode fine.",
            "Right: they are reserved for UTF-16's pairs, and the tokenizer refuses a "
            "string that holds one alone.",
            "Controls such as the newline are single bytes.",
        ),
    ),
    # Chapter 03: pre-tokenization.
    Question(
        "03-space",
        "03",
        "Where does GPT-2's pattern put the space between two words?",
        (
            "With the word after it, as in ' low'.",
            "With the word before it.",
            "Nowhere: spaces are dropped.",
        ),
        0,
        (
            "Right: so 'low' at the start of a line and ' low' are different pieces.",
            "The optional space comes at the front of the letters' alternative.",
            "Nothing is dropped: joining the pieces gives the text back.",
        ),
    ),
    Question(
        "03-eight-rows",
        "03",
        "The toy corpus uses four words, yet its pre-token table has eight rows. Why?",
        (
            "A word with a space in front and the same word without one are different "
            "rows, and the newlines make a row of their own.",
            "Each count is split over two rows.",
            "The table holds a row per line.",
        ),
        0,
        (
            "Right: low and ' low', lower and ' lower', newest and ' newest', "
            "' widest', and the newline.",
            "Each distinct pre-token has one row with its total count.",
            "Rows are pre-tokens, not lines.",
        ),
    ),
    Question(
        "03-money",
        "03",
        "How does the pattern cut ' $12.50' in a sentence?",
        (
            "' $', '12', '.', '50'",
            "' $12.50', one piece",
            "one piece per character",
        ),
        0,
        (
            "Right: punctuation, digits and letters fall in different alternatives.",
            "Digits and punctuation never share a piece.",
            "Runs of the same kind stay together: 12 is one piece.",
        ),
    ),
    # Chapter 04: counting and merging.
    Question(
        "04-overlap",
        "04",
        "Merge the pair (a, a) in the tokens a a a. What comes out?",
        ("aa a", "aa aa", "a aa"),
        0,
        (
            "Right: read from the left, the first two a's join and the third has no "
            "partner left.",
            "The middle a would be used twice: matches may not overlap.",
            "That is reading from the right; the book reads from the left.",
        ),
    ),
    Question(
        "04-first-merge",
        "04",
        "On the toy corpus, (e, s) and (s, t) both occur 9 times, more than any other "
        "pair. Which does the article's trainer merge first?",
        ("(s, t)", "(e, s)", "both at once"),
        0,
        (
            "Right: among equal counts it takes the lexicographically greater pair, "
            "and s comes after e.",
            "That is what a smaller-ids rule, like the lesson's, would choose.",
            "One merge per step: the other may follow in a later step.",
        ),
    ),
    Question(
        "04-special-id",
        "04",
        "train(corpus, 265, specials=['<|endoftext|>']) on the toy corpus. Which id "
        "does <|endoftext|> get?",
        ("256", "264", "0"),
        1,
        (
            "256 is the first merge's token: specials come after the merges.",
            "Right: the bytes take 0-255, the eight merges 256-263, the special 264.",
            "Id 0 is the byte 0x00.",
        ),
    ),
    # Chapter 05: encoding.
    Question(
        "05-rank",
        "05",
        "Which pair does encode_word merge next?",
        (
            "Of the pairs present, the one with the smallest rank, wherever it is.",
            "The leftmost pair that has a rank.",
            "The pair that is most frequent in the text being encoded.",
        ),
        0,
        (
            "Right: rank is the merge's place in the learned list; position does not "
            "matter.",
            "Position does not decide; that can build tokens training never built.",
            "Encoding counts nothing: counts belonged to training.",
        ),
    ),
    Question(
        "05-zzqq",
        "05",
        "The toy tokenizer encodes 'zzqq' as [122, 122, 113, 113]. Why?",
        (
            "No merge involves these bytes, so each stays a byte token, whose id is "
            "its byte value.",
            "They are unknown-word ids.",
            "Encoding failed and fell back to ASCII codes.",
        ),
        0,
        (
            "Right: a byte-level vocabulary can always fall back on single bytes.",
            "There is no unknown token in byte-level BPE.",
            "Nothing failed: these are the right tokens.",
        ),
    ),
    Question(
        "05-cache",
        "05",
        "Why does Tokenizer keep a cache from pre-token to ids?",
        (
            "So that a frequent word is merged once and its ids reused.",
            "To remember the special tokens.",
            "To make decoding faster.",
        ),
        0,
        (
            "Right: text repeats the same words, and the result never changes.",
            "Special tokens have their own table.",
            "Decoding does not use it: it only looks up bytes.",
        ),
    ),
    # Chapter 06: decoding and special tokens.
    Question(
        "06-once",
        "06",
        "Why join all the tokens' bytes and decode once, rather than decode each "
        "token?",
        (
            "A character's bytes can be spread over several tokens.",
            "It is the only way to handle special tokens.",
            "Decoding each token would be too slow.",
        ),
        0,
        (
            "Right: decoded one by one, each part of 🙃 would become U+FFFD.",
            "Special tokens are bytes in the vocabulary like any other token.",
            "Speed is not the point; the result would be wrong.",
        ),
    ),
    Question(
        "06-partial",
        "06",
        "'🙃' is four byte tokens. What does decoding only the first two give?",
        (
            "'\ufffd' (U+FFFD), one replacement character",
            "an exception",
            "half an emoji",
        ),
        0,
        (
            "Right: the incomplete character is replaced, not refused.",
            "Strict decoding would raise; the tokenizer replaces instead, since a "
            "model may stop anywhere.",
            "There is no such character: two of four bytes are not a character.",
        ),
    ),
    Question(
        "06-escape",
        "06",
        "Splitting around '<|end|>' with re.split and the token as an unescaped "
        "pattern goes wrong. Why?",
        (
            "'|' means 'or', so the pattern matches '<', 'end' or '>' anywhere.",
            "re.split throws away what it splits on.",
            "Regular expressions cannot match '<'.",
        ),
        0,
        (
            "Right: re.escape makes every character stand for itself.",
            "A capturing group keeps the separators.",
            "'<' is an ordinary character in a pattern.",
        ),
    ),
    Question(
        "06-longest",
        "06",
        "Why does split_special try the longest special tokens first?",
        (
            "Alternation takes the first alternative that matches, so a token that is "
            "a prefix of another would cut the longer one.",
            "Longer tokens are more common.",
            "The regex engine requires it.",
        ),
        0,
        (
            "Right: with the longest first, the longer token wins where both match.",
            "Frequency has nothing to do with it.",
            "Any order compiles; only the longest-first order splits right.",
        ),
    ),
    # Chapter 07: the file format.
    Question(
        "07-why-table",
        "07",
        "Why do vocab.json and merges.txt spell bytes with printable characters?",
        (
            "The files hold text, and bytes such as space, newline or 0x00 would be "
            "invisible or would break a line in two.",
            "To make the files smaller.",
            "To hide the tokens.",
        ),
        0,
        (
            "Right: a merges.txt line is two tokens and one space, so a token may not "
            "contain a raw space or newline.",
            "Some moved bytes take two UTF-8 bytes in the file: it gets bigger.",
            "The table is public and reversible.",
        ),
    ),
    Question(
        "07-kept",
        "07",
        "How many of the 256 byte values keep their own character in GPT-2's table?",
        ("188", "68", "256"),
        0,
        (
            "Right: the printable ones; the other 68 move to characters from U+0100.",
            "68 is the number that move.",
            "Space, newline and the control bytes cannot stay themselves.",
        ),
    ),
    Question(
        "07-space",
        "07",
        "How is the space byte spelled in GPT-2's files?",
        ("Ġ", "Ċ", "_"),
        0,
        (
            "Right: that is why so many GPT-2 tokens begin with Ġ.",
            "Ċ is the newline.",
            "The underscore is a byte of its own, kept as itself.",
        ),
    ),
    Question(
        "07-header",
        "07",
        "What is the first line of GPT-2's merges.txt?",
        (
            "A '#version: 0.2' header, which a reader skips.",
            "The first merge.",
            "The number of merges.",
        ),
        0,
        (
            "Right: reading it as a merge would add a pair that was never learned.",
            "The merges start on the second line.",
            "The file gives no count; it is one merge a line.",
        ),
    ),
    # Chapter 18: where merges diverge.
    Question(
        "18-same-rule",
        "18",
        "HF tokenizers and rustbpe both give a tie to the pair of smaller ids. Why "
        "can they still learn different merges from one text?",
        (
            "Their ids for the bytes differ: HF sorts GPT-2's stand-in characters, so "
            "the space (Ġ) comes after the letters; rustbpe's ids are the byte values.",
            "One of them counts a pair that overlaps itself once, the other twice.",
            "HF's trainer picks among equal counts at random.",
        ),
        0,
        (
            "Right: the same rule on different ids settles a tie with a space in it "
            "the other way.",
            "Both count every adjacent pair, overlaps included.",
            "Nothing is random: its heap orders equal counts by the pair of ids.",
        ),
    ),
    Question(
        "18-lesson-first",
        "18",
        "The lesson's trainer has no pre-tokenizer. Why does its first merge on the "
        "stories differ from every other trainer's?",
        (
            "It breaks the first tie the other way.",
            "Its most frequent pair ends one word and starts the next (e, then a "
            "space), a pair that no pre-token holds.",
            "It starts from characters, not bytes.",
        ),
        1,
        (
            "There is no tie at the top there: the lesson's pair is simply more "
            "frequent in the uncut text.",
            "Right: the others cut the text first, so they never count that pair.",
            "It starts from the 256 bytes, like the others.",
        ),
    ),
)


def questions(chapter: str | None = None) -> list[dict]:
    """The questions as plain dicts (for the page), of one chapter or all, in order."""
    return [asdict(q) for q in QUESTIONS if chapter in (None, q.chapter)]


def grade(question_id: str, choice: int) -> dict:
    """Whether choice (an option's index) is right, and why: {correct, right, why}."""
    found = [q for q in QUESTIONS if q.id == question_id]
    if not found:
        raise ValueError(f"no question {question_id!r}")
    q = found[0]
    if not 0 <= choice < len(q.options):
        raise ValueError(f"{question_id} has options 0 to {len(q.options) - 1}")
    return dict(correct=choice == q.answer, right=q.answer, why=q.why[choice])


LETTERS = "abcdefgh"
WIDTH = 88  # the book's line width: no printed line is cut off


def question_html(number: int, q: Question) -> str:
    """One question: its options as buttons, an explanation (hidden) under each."""
    e = html.escape
    options = "".join(
        f'<li><button type="button" class="bpe-quiz-option" data-option="{i}">'
        f"{e(option)}</button>"
        f'<p class="bpe-quiz-why" data-why="{i}" hidden>{e(q.why[i])}</p></li>'
        for i, option in enumerate(q.options)
    )
    key = f"({LETTERS[q.answer]}) {q.options[q.answer]}. {q.why[q.answer]}"
    attributes = f'data-quiz="{e(q.id)}" data-answer="{q.answer}"'
    return (
        f'<div class="bpe-quiz-question" {attributes}>'
        f'<p class="bpe-quiz-text"><strong>Q{number}.</strong> {e(q.question)}</p>'
        f'<ol class="bpe-quiz-options" type="a">{options}</ol>'
        f'<details class="bpe-quiz-key"><summary>Answer</summary><p>{e(key)}</p>'
        "</details></div>"
    )


def question_text(number: int, q: Question) -> str:
    """One question as plain text, the right option starred."""
    lines = textwrap.wrap(f"Q{number}. {q.question}", WIDTH, subsequent_indent="    ")
    for i, option in enumerate(q.options):
        mark = "*" if i == q.answer else " "
        lines += textwrap.wrap(
            f"  {mark} {LETTERS[i]}) {option}", WIDTH, subsequent_indent="       "
        )
    return "\n".join(lines)


class Quiz:
    """A chapter's questions, shown in a notebook's output.

    >>> print(repr(Quiz("04")).splitlines()[0])
    Quiz, chapter 4: 3 questions (the right option starred)
    >>> 'data-quiz="04-overlap"' in Quiz("04")._repr_html_()
    True
    """

    def __init__(self, chapter: str):
        self.chapter = chapter
        self.questions = [q for q in QUESTIONS if q.chapter == chapter]
        if not self.questions:
            raise ValueError(f"no questions for chapter {chapter!r}")

    def _repr_html_(self) -> str:
        shown = "".join(question_html(n, q) for n, q in enumerate(self.questions, 1))
        return f'<div class="bpe-quiz" data-quiz-chapter="{self.chapter}">{shown}</div>'

    def __repr__(self) -> str:
        n = len(self.questions)
        number = int(self.chapter)  # chapter 4, not 04 (file 04_...)
        head = f"Quiz, chapter {number}: {n} questions (the right option starred)"
        body = [question_text(n, q) for n, q in enumerate(self.questions, 1)]
        return "\n".join([head, *body])
