import json

import pytest

import bpe
from bpe.files import BYTE_TO_CHAR, load_files

EOT = "<|endoftext|>"


def test_byte_table_keeps_188_and_moves_68():
    table = bpe.bytes_to_unicode()
    kept = [b for b, c in table.items() if ord(c) == b]
    assert len(table) == 256 and len(set(table.values())) == 256
    assert len(kept) == 188
    assert (table[32], table[10], table[0]) == ("Ġ", "Ċ", "Ā")
    assert all(c.isprintable() and not c.isspace() for c in table.values())


def test_save_then_load_gives_the_same_tokenizer(toy, tmp_path):
    vocab_path, merges_path, specials_path = toy.save(tmp_path / "toy")
    assert specials_path.read_text(encoding="utf-8") == '["<|endoftext|>"]\n'
    merges_text = merges_path.read_text(encoding="utf-8")
    assert merges_text.splitlines()[1:] == [
        "s t",
        "e st",
        "o w",
        "l ow",
        "w est",
        "n e",
        "ne west",
        "Ġ newest",
    ]
    assert json.loads(vocab_path.read_text(encoding="utf-8"))["Ġnewest"] == 263
    assert bpe.Tokenizer.from_files(vocab_path, merges_path, specials=[EOT]) == toy
    assert bpe.Tokenizer.load(tmp_path / "toy") == toy
    assert not list((tmp_path / "toy").glob("*.tmp"))


def test_loads_gpt2s_real_files():
    from bpe.interop.openai import shipped_path

    tok = bpe.Tokenizer.from_files(
        shipped_path("encoder.json"), shipped_path("vocab.bpe"), specials=[EOT]
    )
    assert len(tok.vocab) == 50257 and len(tok.merges) == 50000
    assert tok.special_id[EOT] == 50256
    gpt2 = bpe.interop.openai.get_encoding("gpt2")
    text = "Hello world, it's 2026! naïve café 🙂 Xin chào thế giới"
    assert tok.encode(text) == gpt2.encode(text)


def write(tmp_path, vocab, merges):
    (tmp_path / "vocab.json").write_text(vocab, encoding="utf-8")
    (tmp_path / "merges.txt").write_text(merges, encoding="utf-8")
    return tmp_path / "vocab.json", tmp_path / "merges.txt"


def byte_vocab(extra=()):
    entries = {BYTE_TO_CHAR[b]: b for b in range(256)}
    entries.update({t: 256 + i for i, t in enumerate(extra)})
    return json.dumps(entries)


@pytest.mark.parametrize(
    "vocab, merges, message",
    [
        ("{not json", "", "not valid JSON"),
        ("[1, 2]", "", "JSON object"),
        ('{"a": 1, "a": 2}', "", "listed twice"),
        ('{"a": 1, "b": 1}', "", "used twice"),
        ('{"a": -3}', "", "non-negative"),
        ('{"a b": 0}', "", "byte table"),
        (byte_vocab(["ab"]), "#version: 0.2\na b\nab\n", "line 3"),
        (byte_vocab(["ab"]), "a  b\n", "line 1"),
    ],
)
def test_malformed_files_name_the_problem(tmp_path, vocab, merges, message):
    with pytest.raises(ValueError, match=message):
        load_files(*write(tmp_path, vocab, merges))


def test_a_merge_the_vocabulary_lacks_names_the_files_and_the_merge(tmp_path):
    paths = write(tmp_path, byte_vocab(["ab"]), "a b\nb c\n")
    with pytest.raises(ValueError, match=r"merges.txt: merge 1 .* needs b'bc'"):
        bpe.Tokenizer.from_files(*paths)


def test_non_utf8_file_names_the_offset(tmp_path):
    (tmp_path / "vocab.json").write_bytes(b'{"a": 0, "\xff": 1}')
    with pytest.raises(ValueError, match="offset 10"):
        load_files(tmp_path / "vocab.json", tmp_path / "merges.txt")
