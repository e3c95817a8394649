"""Which of a chapter's cells run in the page, and why the others do not.

This runs inside the page's Python (under Node: ``node_runner.mjs``), and runs the
cells as the page will: in order, in one namespace, through ``page.run``. A cell
*runs here* when it raises nothing, takes at most ``SLOW`` seconds, and prints and
shows exactly its stored output (unless the book ignores its output, for timings).
A cell that does not is rolled back (the namespace is put back as it was) so that
the next cell sees only what runs here. Then:

* a visible cell that runs here is *live*: the page gives it a Run button;
* a hidden cell that runs here is *context* when a later live cell needs a name it
  binds: the page runs it, unseen, before the first live cell below it;
* every other visible cell gets a short reason, shown under it on the page. The
  reason is read from the cell's failure where it stands, the cells above it
  having run as the page runs them (``as_the_page_runs``), and names the function
  of the package the failure came from, if any (``called``);
* in place of each cell it does not run, above the last live one, the page runs
  those of the cell's imports that work here (run alone, one by one), so that a
  cell needing pandas does not take ``bpe`` away from the cells below it.

The chosen cells are run once more, alone and in order, exactly as the page will;
one that now differs loses its button, and the choice is made again. The cells
below the last live one are tried in that same run (the page runs nothing after
it), and those above it in one more run, which stops at the last of them: so a
chapter's cells run two or three times, not always three.

To check marks already written (the tests), the first run, of every cell, is left
out: the cells the notebook tags ``live`` are the first choice (``from_marks``).
What follows is the same, so a cell that no longer runs loses its button, one that
now runs where the page has it gains one, and each reason is read afresh from its
cell's failure there: marks that are out of date come out different. Only a hidden
cell left unmarked is never run; if a cell fails for want of what one makes, the
first run is made after all (``classify``).
``marks.py`` writes the result into the notebooks: the tag ``live``, and the
reason in the cell's metadata.
"""

from __future__ import annotations

import ast
import builtins
import os
import re
from pathlib import PurePosixPath

from bpe.book.page import session as page
from bpe.book.page.absent import ABSENT
from bpe.book.page.cells import Outcome

LIVE_TAG = "live"
REASON_KEY = "live_reason"
IMPORTS_KEY = "live_imports"  # a cell without a button: its imports that run here
IGNORE_OUTPUT_TAG = "nbval-ignore-output"  # a timing: the output may differ
HIDDEN_TAGS = ("remove-input", "remove_input", "remove-cell", "remove_cell")
SLOW = 10.0  # seconds; longer than this, a Run would seem to hang
# A cell's time wanders by a factor of two or more on a busy machine. A cell keeps the
# mark it has unless this run is clearly on the other side of SLOW, so that the marks
# do not change between two runs of `make live-marks` (the tests run untimed).
MARGIN = 3.0
SLOW_REASON = f"it takes more than {SLOW:.0f} s here"
FROM_HIDDEN = "from a hidden cell that does not run here"  # the end of a reason
# Whether this run judges a cell slow by the clock (``make live-marks``, which writes
# the marks) or takes each cell's stored slowness mark as it is (the tests, which
# check every other mark: no test's verdict may depend on how busy the machine is).
# ``marks.classify_chapters`` sets it.
TIMED = True
# Standard modules that Pyodide leaves out, and what needing one means here.
PROCESSES = "worker processes, which the page's Python cannot start"
NO_STDLIB = {"resource": PROCESSES, "_multiprocessing": PROCESSES}
# What Pyodide's os says when a process is started (subprocess, a pool's workers).
NO_PROCESSES = "emscripten does not support processes"
# What a call of a function that Pyodide's os lacks says (os.link, for a safe save).
OS_LACKS = re.compile(r"module 'os' has no attribute '(\w+)'")


def os_lacks(name: str) -> str:
    return f"os.{name}, which the page's Python lacks"


def hidden(tags: list[str]) -> bool:
    return any(t in HIDDEN_TAGS for t in tags)


def stored_output(outputs: list[dict]) -> tuple[str, str | None]:
    """What the notebook shows for a cell: printed text, and the last value's text."""
    printed, result = "", None
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            printed += "".join(output.get("text", ""))
        elif output.get("output_type") in ("execute_result", "display_data"):
            result = "".join(output.get("data", {}).get("text/plain", ""))
    return printed, result


def matches(cell: dict, outcome: dict) -> bool:
    if IGNORE_OUTPUT_TAG in cell["tags"]:
        return True
    return stored_output(cell["outputs"]) == (outcome["stdout"], outcome["result"])


def bound_names(source: str) -> set[str]:
    """Names a cell binds at its top level (assignments, imports, defs, loops)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(child.name)
                continue  # their insides bind nothing at the top level
            if isinstance(child, ast.Import | ast.ImportFrom):
                for alias in child.names:
                    found.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                found.add(child.id)
            if not isinstance(child, ast.Lambda | ast.comprehension):
                visit(child)

    visit(tree)
    return found


def loaded_names(source: str) -> set[str]:
    """Every name a cell reads, anywhere in it (builtins left out)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    } - set(dir(builtins))


def reason(cell: dict, outcome: dict | None, made_above: dict[str, int]) -> str:
    """Why a visible cell has no Run button, in a few words, read from its failure.

    When the failure comes from inside a function the cell calls, the reason names
    that function (``called``): "it calls tinystories_files (bpe.data.corpora),
    which needs tiktoken" says more than "it needs tiktoken".
    """
    if outcome is None:
        return "it did not run here"
    module, name = outcome.get("missing_module"), outcome.get("missing_name")
    error = outcome.get("error") or ""
    where = called(error)
    if module in ABSENT:
        package = ABSENT[module][0]
        used = USED.search(error)
        if where is None and used:
            return f"it uses {used.group(1)}, and the page's Python has no {package}"
        return needs(where, package)
    if module in NO_STDLIB:
        return needs(where, NO_STDLIB[module])
    if NO_PROCESSES in error:
        return needs(where, PROCESSES)
    if lacked := OS_LACKS.search(error):
        return needs(where, os_lacks(lacked.group(1)))
    if outcome.get("error_type") == "DataError":  # bpe.data.registry: a registered file
        return needs(where, "a data file that this page does not serve")
    if name and name in made_above:
        if made_above[name] < 0:  # a hidden cell's (its index i is kept as ~i)
            return f"it uses {name}, {FROM_HIDDEN}"
        return f"it uses {name}, from a cell above that does not run here"
    if error:
        last = error.strip().splitlines()[-1]
        if outcome.get("error_type") == "ModuleNotFoundError":  # a file from a package
            said = last.split(": ", 1)[-1].split(": ", 1)[0]
            lacked = f"a package the page's Python lacks ({shorten(said)})"
            return needs(where, lacked)
        if where:
            return f"here {where} raises {shorten(last)}"
        return f"here it raises {shorten(last)}"
    if too_slow(cell, outcome):
        return SLOW_REASON
    line = first_different_line(cell, outcome)
    if line:
        line = shorten(line, 60)
        return f"its output here differs from the book's, first at “{line}”"
    return "its output here differs from the book's"


def first_different_line(cell: dict, outcome: dict) -> str | None:
    """The first line of the cell's output here that the book's does not have there."""
    printed, result = stored_output(cell.get("outputs", []))
    theirs = (printed + (result or "")).splitlines()
    ours = (outcome["stdout"] + (outcome["result"] or "")).splitlines()
    for i, line in enumerate(ours):
        if i >= len(theirs) or line != theirs[i]:
            return line.strip() or None
    return None


ABSENT_FILE = "/page/absent.py"
USED = re.compile(r"\((\S+) was used\)")  # absent.message names what was used
FRAME = re.compile(r'^  File "([^"]+)", line \d+, in (\S+)$', re.MULTILINE)


def needs(where: str | None, what: str) -> str:
    return f"it calls {where}, which needs {what}" if where else f"it needs {what}"


def is_cell(filename: str) -> bool:
    """Whether a traceback's file is a cell's ("<cell 3>"), not a module's."""
    return filename.startswith("<") and not filename.startswith("<frozen")


def called(error: str) -> str | None:
    """The function the cell's own code called last before it failed, or None.

    Read from the traceback (its last exception's): the first frame after the
    cell's last one, as "function (module)". None when the cell itself failed.
    """
    block = error.rsplit("Traceback (most recent call last):", 1)[-1]
    # absent.py's frame is where a missing module says so, not something called
    frames = [f for f in FRAME.findall(block) if not f[0].endswith(ABSENT_FILE)]
    cells = [i for i, (filename, _) in enumerate(frames) if is_cell(filename)]
    if not cells or cells[-1] == len(frames) - 1:
        return None
    filename, function = frames[cells[-1] + 1]
    return f"{function} ({module_of(filename)})"


def module_of(filename: str) -> str:
    """A module's dotted name from its file's path (the book's or the standard one)."""
    parts = list(PurePosixPath(filename).with_suffix("").parts)
    if "bpe" in parts:
        parts = parts[parts.index("bpe") :]
    else:  # .../lib/python3.14/json/decoder.py or .../python314.zip/json/decoder.py
        starts = [i for i, p in enumerate(parts) if p.startswith("python3")]
        parts = parts[starts[-1] + 1 :] if starts else parts[-1:]
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def shorten(text: str, width: int = 100) -> str:
    """text on one line, each run of spaces one (a printed table's columns read as
    noise in a sentence), cut at a word boundary to at most width characters."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    return text[: text.rfind(" ", 0, width)].rstrip(",;:.") + " …"


def import_statements(source: str) -> list[str]:
    """A cell's top-level import statements, as source."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [
        ast.get_source_segment(source, node)
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]


def restore(before: dict) -> None:
    page.namespace.clear()
    page.namespace.update(before)


def working_imports(cell: dict) -> str:
    """Those of a cell's top-level imports that work here, run now, one per line."""
    kept = []
    for statement in import_statements(cell["source"]):
        before = dict(page.namespace)
        if page.run(statement, f"<imports of cell {cell['index']}>")["error"]:
            restore(before)
        else:
            kept.append(statement)
    return "\n".join(kept)


def run_all(
    cells: list[dict], chosen: set[int] | None = None
) -> tuple[dict[int, dict], dict[int, dict], dict[int, str]]:
    """(outcomes, tried, imports): each cell's outcome, run in order (only the
    chosen ones, if given).

    A cell that does not run here is rolled back, so that later cells never see
    what it half did; then its imports that work here are run, as the page runs
    them, and kept in ``imports`` ({index: statements}). A cell not chosen has only
    its imports run, if it has any there; past the last chosen cell, where the page
    runs nothing more, each visible cell is tried instead, and rolled back (tried).
    """
    page.reset()
    page.fresh_folder()
    outcomes, tried, imports = {}, {}, {}
    last = None if chosen is None else max(chosen, default=-1)
    for cell in cells:
        i = cell["index"]
        if chosen is not None and i not in chosen:
            if i < last:
                imports[i] = working_imports(cell)
            elif not hidden(cell["tags"]):
                tried[i] = try_in_place(cell)
            continue
        before = dict(page.namespace)
        outcome = run_unless_marked_slow(cell, i)
        outcomes[i] = outcome
        if not runs_here(cell, outcome):
            restore(before)
            imports[i] = working_imports(cell)
    return outcomes, tried, imports


def try_in_place(cell: dict) -> dict:
    """The cell's outcome where it stands, its names then rolled back."""
    before = dict(page.namespace)
    outcome = page.run(cell["source"], f"<cell {cell['index']}>")
    restore(before)
    return outcome


def run_unless_marked_slow(cell: dict, i: int) -> dict:
    """The cell's outcome; untimed, a cell marked too slow is not run at all.

    Its mark stands whatever it would do (``too_slow``), and a slow cell is rolled
    back anyway, so the cells after it see the same namespace either way.
    """
    if not TIMED and cell.get("reason") == SLOW_REASON:
        return Outcome().to_dict()
    return page.run(cell["source"], f"<cell {i}>")


def runs_here(cell: dict, outcome: dict) -> bool:
    error = outcome["error"]
    return not error and not too_slow(cell, outcome) and matches(cell, outcome)


def too_slow(cell: dict, outcome: dict) -> bool:
    """Whether the cell is too slow for a Run button (MARGIN: the mark it has stays).

    Untimed (``TIMED`` false), the cell's stored mark says it.
    """
    if not TIMED:
        return cell.get("reason") == SLOW_REASON
    limit = SLOW
    if LIVE_TAG in cell.get("tags", []):
        limit = SLOW * MARGIN
    elif cell.get("reason") == SLOW_REASON:
        limit = SLOW / MARGIN
    return outcome["seconds"] > limit


def choose(cells: list[dict], good: set[int]) -> tuple[set[int], set[int]]:
    """(live, context): visible cells that run here; hidden ones a later one needs."""
    live = {c["index"] for c in cells if c["index"] in good and not hidden(c["tags"])}
    context, needed = set(), set()
    for cell in reversed(cells):
        if cell["index"] in live or cell["index"] in context:
            needed |= loaded_names(cell["source"])
        elif cell["index"] in good and bound_names(cell["source"]) & needed:
            context.add(cell["index"])
            needed |= loaded_names(cell["source"])
    return live, context


def classify(cells: list[dict], from_marks: bool = False) -> list[dict]:
    """How the page treats each code cell ({"index", "source", "tags", "outputs"}).

    Returns {"index", "live", "context", "imports", "reason", "outcome", "tried"}
    per cell, in order; "imports" are, for a cell that does not run here, those of
    its imports that do, which the page runs before the live cells below it;
    "tried" is, for a visible cell without a button, its outcome tried where the
    page has it (``as_the_page_runs``), or None.

    ``from_marks``: start from the cells tagged ``live`` rather than from a run of
    every cell. A hidden cell is run only if chosen, so when a cell fails for want
    of what a hidden cell makes, only a run of every cell can say whether that
    hidden cell could run for it: then it is made.
    """
    verdicts = judged(cells, *rounds(cells, from_marks))
    if from_marks and any(FROM_HIDDEN in (v["reason"] or "") for v in verdicts):
        verdicts = judged(cells, *rounds(cells, from_marks=False))
    return verdicts


def rounds(cells: list[dict], from_marks: bool) -> tuple:
    """The runs classify() judges by: (first, live, context, final, tried, imports)."""
    here = os.getcwd()
    try:
        first, good = first_choice(cells, from_marks)
        for _ in range(2):  # a second round if a cell runs where the page has it
            live, context, final, tried, imports = settle(cells, good)
            last_live = max(live, default=-1)
            tried |= as_the_page_runs(cells, live | context, imports, last_live)
            more = {i for i, o in tried.items() if runs_here(by_index(cells, i), o)}
            if not more - good:
                break
            good |= more
    finally:
        os.chdir(here)
    return first, live, context, final, tried, imports


def judged(
    cells: list[dict],
    first: dict[int, dict],
    live: set[int],
    context: set[int],
    final: dict[int, dict],
    tried: dict[int, dict],
    imports: dict[int, str],
) -> list[dict]:
    """classify()'s verdicts, from what its runs found."""
    last_live = max(live, default=-1)
    made_above: dict[str, int] = {}
    verdicts = []
    for cell in cells:
        i = cell["index"]
        # a visible cell without a button: its outcome where the page has it
        outcome = final.get(i) or tried.get(i) or first.get(i)
        is_live = i in live
        runs = is_live or i in context
        verdicts.append(
            {
                "index": i,
                "live": is_live,
                "context": i in context,
                "imports": None if runs or i > last_live else imports.get(i) or None,
                "reason": None
                if is_live or hidden(cell["tags"])
                else reason(cell, outcome, made_above),
                "outcome": outcome,
                "tried": tried.get(i),
            }
        )
        if not runs:  # what it binds is missing below, but for the imports run for it
            kept = bound_names(imports.get(i) or "") if i < last_live else set()
            for name in bound_names(cell["source"]) - kept:
                made_above.setdefault(name, ~i if hidden(cell["tags"]) else i)
    return verdicts


def first_choice(
    cells: list[dict], from_marks: bool
) -> tuple[dict[int, dict], set[int]]:
    """(outcomes, good): every cell run in order, and those that run here; or, from
    the marks, no run, and the cells the notebook tags ``live``."""
    if from_marks:
        return {}, {c["index"] for c in cells if LIVE_TAG in c["tags"]}
    first, _, _ = run_all(cells)
    return first, {i for i, o in first.items() if runs_here(by_index(cells, i), o)}


def settle(
    cells: list[dict], good: set[int]
) -> tuple[set[int], set[int], dict[int, dict], dict[int, dict], dict[int, str]]:
    """(live, context, outcomes, tried, imports): the good cells chosen, run alone,
    until all run; tried: the visible cells after the last live one, tried where
    they are; imports: what the page runs in place of each cell above it."""
    for _ in range(len(cells) + 1):
        live, context = choose(cells, good)
        final, tried, imports = run_all(cells, live | context)
        lost = {i for i, o in final.items() if not runs_here(by_index(cells, i), o)}
        if not lost:
            break
        good = good - lost
    return live, context, final, tried, imports


def as_the_page_runs(
    cells: list[dict], runs: set[int], imports: dict[int, str], last_live: int
) -> dict[int, dict]:
    """The outcome of each visible cell above the last live one that does not run
    here, tried where it is (``settle`` tried those below it).

    The cells run as the page runs them (those that run here, and the imports it
    runs in place of the others); each such visible cell is tried at its place and
    rolled back. Its failure there is its reason. The run stops at the last one.
    """
    ends = [
        c["index"]
        for c in cells
        if c["index"] < last_live and c["index"] not in runs and not hidden(c["tags"])
    ]
    if not ends:  # nothing to try: the run would only repeat settle's
        return {}
    page.reset()
    page.fresh_folder()
    tried = {}
    for cell in cells:
        i = cell["index"]
        if i > ends[-1]:
            break
        if i in runs:
            page.run(cell["source"], f"<cell {i}>")
        elif not hidden(cell["tags"]):
            tried[i] = try_in_place(cell)
        if i not in runs and imports.get(i):
            page.run(imports[i], f"<imports of cell {i}>")
    return tried


def by_index(cells: list[dict], index: int) -> dict:
    return next(c for c in cells if c["index"] == index)
