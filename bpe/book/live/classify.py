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
* every other visible cell gets a short reason, shown under it on the page, and
  those of its imports that work here (run alone, one by one), which the page runs
  in its place, so that a cell needing pandas does not take ``bpe`` away from the
  cells below it.

The chosen cells are run once more, alone and in order, exactly as the page will;
one that now differs loses its button, and the choice is made again.
``marks.py`` writes the result into the notebooks: the tag ``live``, and the
reason in the cell's metadata.
"""

from __future__ import annotations

import ast
import builtins

from . import page
from .absent import ABSENT

LIVE_TAG = "live"
REASON_KEY = "live_reason"
IMPORTS_KEY = "live_imports"  # a cell without a button: its imports that run here
IGNORE_OUTPUT_TAG = "nbval-ignore-output"  # a timing: the output may differ
HIDDEN_TAGS = ("remove-input", "remove_input", "remove-cell", "remove_cell")
SLOW = 10.0  # seconds; longer than this, a Run would seem to hang
# Standard modules that Pyodide leaves out, and what needing one means here.
NO_STDLIB = {
    "resource": "worker processes, which the page's Python cannot start",
    "_multiprocessing": "worker processes, which the page's Python cannot start",
}


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
    """Why a visible cell has no Run button, in a few words."""
    if outcome is None:
        return "it did not run here"
    module, name = outcome.get("missing_module"), outcome.get("missing_name")
    if module in ABSENT:
        package, use = ABSENT[module]
        return f"it needs {package}, for {use}"
    if module in NO_STDLIB:
        return f"it needs {NO_STDLIB[module]}"
    if outcome.get("error_type") == "DataError":  # bpe.book.data: a registered file
        return "it needs the book's data files, which the page does not carry"
    if name and name in made_above:
        return f"it uses {name}, from a cell above that does not run here"
    if outcome.get("error"):
        last = outcome["error"].strip().splitlines()[-1]
        if outcome.get("error_type") == "ModuleNotFoundError":  # a file from a package
            said = last.split(": ", 1)[-1].split(": ", 1)[0]
            return f"it needs a package the page's Python lacks ({shorten(said)})"
        return f"here it raises {shorten(last)}"
    if outcome["seconds"] > SLOW:
        return f"it takes {outcome['seconds']:.0f} s here"
    return "its output here differs from the book's"


def shorten(text: str, width: int = 100) -> str:
    """text cut at a word boundary to at most width characters, marked if cut."""
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
    cells: list[dict], chosen: set[int] | None = None, imports: dict | None = None
) -> dict[int, dict]:
    """Each cell's outcome, run in order (only the chosen ones, if given).

    A cell that does not run here is rolled back, so that later cells never see
    what it half did; then its imports that work here are run, as the page runs
    them, and kept in ``imports`` ({index: statements}). A cell not chosen has only
    its imports run, if it has any there.
    """
    page.reset()
    outcomes = {}
    imports = {} if imports is None else imports
    for cell in cells:
        i = cell["index"]
        if chosen is not None and i not in chosen:
            if imports.get(i):
                page.run(imports[i], f"<imports of cell {i}>")
            continue
        before = dict(page.namespace)
        outcome = page.run(cell["source"], f"<cell {i}>")
        outcomes[i] = outcome
        if not runs_here(cell, outcome):
            restore(before)
            imports[i] = working_imports(cell)
    return outcomes


def runs_here(cell: dict, outcome: dict) -> bool:
    return (
        not outcome["error"] and outcome["seconds"] <= SLOW and matches(cell, outcome)
    )


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


def classify(cells: list[dict]) -> list[dict]:
    """How the page treats each code cell ({"index", "source", "tags", "outputs"}).

    Returns {"index", "live", "context", "imports", "reason", "outcome"} per cell,
    in order; "imports" are, for a cell that does not run here, those of its
    imports that do, which the page runs before the live cells below it.
    """
    imports: dict[int, str] = {}
    first = run_all(cells, imports=imports)
    good = {i for i, outcome in first.items() if runs_here(by_index(cells, i), outcome)}
    final = first
    for _ in range(len(cells) + 1):
        live, context = choose(cells, good)
        final = run_all(cells, live | context, imports)
        lost = {i for i, o in final.items() if not runs_here(by_index(cells, i), o)}
        if not lost:
            break
        good -= lost
    last_live = max(live, default=-1)
    made_above: dict[str, int] = {}
    verdicts = []
    for cell in cells:
        i = cell["index"]
        outcome = final.get(i) or first.get(i)
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
            }
        )
        if not runs:
            kept = bound_names(imports.get(i) or "")
            for name in bound_names(cell["source"]) - kept:
                made_above.setdefault(name, i)
    return verdicts


def by_index(cells: list[dict], index: int) -> dict:
    return next(c for c in cells if c["index"] == index)
