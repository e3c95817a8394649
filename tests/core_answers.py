"""The core's answers to an exhaustive walk, worked out once per ``make test-package``.

``make test-package`` runs the fast layer's tests twice, compiled and then as Python
(``BPE_PURE_PYTHON``), and both compare the fast layer with the core on the same
inputs. The core is the same Python in both runs, and where it is most of the time
(in tests/test_one_view.py: its naive training, and its pieces and ids on every code
point, kept as one digest per text) the first run keeps what the core answered in
the folder ``BPE_CORE_ANSWERS`` names, which the Makefile empties before
the first run and deletes after the second; the second reads it. Without
that variable (``pytest`` on its own), each test asks the core itself.
"""

import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def kept(key: str, compute: Callable[[], T]) -> T:
    """compute(), or what it gave for key earlier in this make test-package."""
    folder = os.environ.get("BPE_CORE_ANSWERS")
    if not folder:
        return compute()
    path = Path(folder) / f"{key}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    answer = compute()
    written = path.with_name(f"{path.name}.{os.getpid()}.part")
    written.write_bytes(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
    written.replace(path)  # whole or absent: never a half-written answer
    return answer
