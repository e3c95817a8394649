"""The book is written in its own words: no passage of 10 or more words repeats the
article or the lesson it reproduces, outside a marked quotation.

The check is the workplace's own tool, ../shared/tools/own_words.py, run from the
project's root as a writer runs it. The spec texts it compares with are not part of the
repository, so beside a clone without ../shared/spec the test is skipped.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TOOL = SHARED / "tools" / "own_words.py"
SPEC = SHARED / "spec"


@pytest.mark.skipif(
    not (SPEC.is_dir() and TOOL.is_file()),
    reason="needs ../shared/spec and ../shared/tools/own_words.py beside the clone",
)
def test_no_passage_repeats_the_spec_word_for_word():
    run = subprocess.run(
        [sys.executable, str(TOOL)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
    )
    assert run.returncode != 2, run.stderr  # 2: the tool found no spec texts
    assert run.returncode == 0, "passages that repeat the spec:\n" + run.stdout
