"""The token playground's JavaScript gives exactly the package's ids, for both vocabularies."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.book import corpora, playground
from bpe.interop.openai import get_encoding

NODE = shutil.which("node")
RUNNER = Path(__file__).with_name("playground_node.js")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

# Characters from long-established Unicode blocks, so that Node's Unicode tables and
# Python's `regex` classify every one of them alike: ASCII, Latin-1, Vietnamese
# (precomposed, and decomposed with combining marks), CJK, emoji with skin tones,
# variation selectors and joiners, other digits and spaces.
ALPHABET = (
    list("abcxyzABCXYZ0123456789 .,;:!?'\"-_()[]{}<>|/\\@#$%^&*+=~`")
    + list(" \n\t\r\u00a0\u2003\u3000")
    + list("éàüñçßøÆ¿¡«»")
    + list("ăâđêôơưàảãạấầẩẫậếềểễệớờởỡợứừửữự")
    + list("\u0300\u0301\u0303\u0309\u0323")
    + list("牛中文字東京日本語한국어")
    + ["🙃", "🦊", "👍", "🏽", "❤", "\ufe0f", "\u200d", "👨"]
    + list("٣٤५६")
)


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    folder = tmp_path_factory.mktemp("playground")
    files = []
    for name, script in playground.vocabularies().items():
        (folder / name).write_text(script, encoding="utf-8")
        files.append(str(folder / name))
    return files


@pytest.fixture(scope="module")
def python_encoders():
    return {"tinystories": playground.stories_tokenizer(), "gpt2": get_encoding("gpt2")}


def javascript_ids(files, texts):
    done = subprocess.run(
        [NODE, str(RUNNER)],
        input=json.dumps({"vocabularies": files, "texts": texts}),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(done.stdout)


def check(files, encoders, texts):
    got = javascript_ids(files, texts)
    assert set(got) == set(encoders)
    for name, encoder in encoders.items():
        for text, ids in zip(texts, got[name]):
            assert ids == encoder.encode_ordinary(text), (name, text[:60])


def test_held_out_stories_and_vietnamese(shipped, python_encoders):
    texts = corpora.heldout_stories() + [
        vi for _, vi in corpora.en_vi_pairs("ntrex128")[:400]
    ]
    check(shipped, python_encoders, texts)


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(ALPHABET), max_size=80),
        min_size=100,
        max_size=100,
    )
)
def test_generated_strings(shipped, python_encoders, texts):
    check(shipped, python_encoders, texts)
