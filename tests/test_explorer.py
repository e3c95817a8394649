"""The merge explorer's JavaScript must learn exactly bpe.train's merges."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import bpe
from bpe.book.widget import explorer_html

NODE = shutil.which("node")
RUNNER = Path(__file__).with_name("explorer_node.js")

CORPORA = {
    "toy": (Path(__file__).resolve().parents[1] / "data" / "toy_corpus.txt").read_text(
        encoding="utf-8"
    ),
    "english": (
        "Once upon a time, there was a little boat. The boat liked to sail on the big blue sea. "
        "One day, it's windy: the boat's sails flapped, and the boat went faster and faster!\n\n"
    )
    * 3,
    "vietnamese": "Xin chào thế giới! Hôm nay trời đẹp quá. Tôi đi học ở trường, còn bạn đi làm ở đâu? "
    * 4,
    "emoji": "🙃🙂 emoji 🙃 again 🦊🦊🦊 fox 🙂🙃 " * 5,
    "digits": "12345678 1234 99 2026-11-30 3.14159 1,000,000 007 " * 6,
    "whitespace": "a  b\t\tc \n\n d\u00a0e\u2028f   \n" * 5,
    "long": "word " * 1500,  # more than 4,000 characters: only the first 4,000 count
}


def node_merges(text, n):
    result = subprocess.run(
        [NODE, str(RUNNER)],
        input=json.dumps({"text": text, "merges": n}),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return [(bytes(a), bytes(b)) for a, b in json.loads(result.stdout)]


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
@pytest.mark.parametrize("name", sorted(CORPORA))
def test_javascript_learns_the_same_merges(name):
    text = "".join(list(CORPORA[name])[:4000])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = bpe.train(text, 256 + 60)[1]
    assert node_merges(CORPORA[name], 60) == expected


def test_node_is_available_in_ci():
    import os

    if os.environ.get("CI"):
        assert NODE is not None, "the browser and widget tests need Node.js"


def test_html_embeds_the_script_and_escapes_the_corpus():
    page = explorer_html("a < b & c")
    assert "a &lt; b &amp; c" in page
    assert "function train(text, n)" in page and "function encodePiece" in page
    assert page.count("<script>") == 2  # the shared core, then the explorer
