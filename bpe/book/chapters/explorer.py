"""The merge explorer as a notebook output: HTML, a little CSS, and explorer.js inlined.

The page works offline, in Jupyter and on the static site alike (and after a Run
in the page's Python, which shows a value's HTML): nothing is loaded from
anywhere. ``bpe.js`` (shared with the token playground) and ``explorer.js`` hold
the algorithm and the page logic; this module only wraps them. The tests run the
script's ``train`` under Node against ``bpe.train``.
"""

import html
from pathlib import Path
from typing import Any

CORE = Path(__file__).with_name("bpe.js")  # shared with the token playground
SCRIPT = Path(__file__).with_name("explorer.js")
WORD = "lowest"  # the word chapter 05 encodes with the toy corpus's merges

STYLE = """
.bpe-explorer { font-family: system-ui, sans-serif; border: 1px solid #ccc;
  border-radius: 6px; padding: .8em; }
.bpe-explorer textarea, .bpe-explorer table, .bpe-explorer .bpe-merges,
.bpe-explorer .bpe-token, .bpe-explorer .bpe-trace {
  font-family: var(--bpe-monospace, monospace); }
.bpe-explorer textarea { width: 100%; box-sizing: border-box; }
.bpe-explorer .bpe-controls, .bpe-explorer .bpe-switches { display: flex;
  flex-wrap: wrap; gap: .5em 1em; align-items: center; margin: .5em 0; }
.bpe-explorer fieldset { border: 1px solid #ddd; border-radius: 4px; margin: 0;
  padding: .2em .6em; }
.bpe-explorer legend { font-size: .9em; padding: 0 .3em; }
.bpe-explorer fieldset label { margin-right: .8em; white-space: nowrap; }
.bpe-explorer .bpe-goto { width: 5em; }
.bpe-explorer .bpe-differ { background: #f3f0ff; padding: .3em .5em;
  border-radius: 4px; }
.bpe-explorer .bpe-panes { display: flex; flex-wrap: wrap; gap: 1em 1.5em;
  align-items: flex-start; }
.bpe-explorer .bpe-pane { flex: 1 1 14em; min-width: 0; }
.bpe-explorer .bpe-scroll { max-height: 20em; overflow: auto; border: 1px solid #eee; }
.bpe-explorer table { border-collapse: collapse; margin: 0; }
.bpe-explorer td, .bpe-explorer th { padding: 0 .6em; border-bottom: 1px solid #eee;
  text-align: left; }
.bpe-explorer th { position: sticky; top: 0; background: #fafafa; }
/* Rows break between tokens, never inside one (the book's tables break anywhere). */
.bpe-explorer .bpe-pane th, .bpe-explorer .bpe-pane td {
  overflow-wrap: normal !important; }
.bpe-explorer .bpe-pane th { white-space: nowrap !important; }
.bpe-explorer tr.bpe-changed { background: #fff3b0; }
.bpe-explorer tr.bpe-winner { background: #c8e6c9; font-weight: bold; }
.bpe-explorer tr.bpe-tie { background: #ffe0b2; }
.bpe-explorer .bpe-merges { margin: 0; }
.bpe-explorer .bpe-token { display: inline-block; border: 1px solid #9bb;
  border-radius: 3px; margin: 1px; padding: 0 2px; background: #eef7f7; }
.bpe-explorer .bpe-tokens { max-height: 16em; overflow: auto; }
.bpe-explorer .bpe-trace { font-size: .85em; background: #f7f7f7; padding: .4em;
  margin: .3em 0; }
"""


def explorer_html(corpus: str, word: str = WORD) -> str:
    """The explorer's markup for one corpus, script included."""
    return f"""<div class="bpe-explorer">
<style>{STYLE}</style>
<label>Corpus (its first 4,000 characters; it updates as you type):
<textarea class="bpe-corpus" rows="4">{html.escape(corpus)}</textarea></label>
<div class="bpe-controls">
<button type="button" class="bpe-back">&#9664; Step back</button>
<button type="button" class="bpe-next">Merge next &#9654;</button>
<button type="button" class="bpe-reset">Reset</button>
<label>merge <input type="range" class="bpe-slider" min="0" max="0" value="0"></label>
<label>go to merge
<input type="number" class="bpe-goto" min="0" max="0" value="0"></label>
<span class="bpe-step"></span>
<span class="bpe-vocab"></span>
</div>
<div class="bpe-switches">
<fieldset><legend>A tie goes to</legend>
<label><input type="radio" data-group="tie" value="greater" checked>
the greater pair (the article)</label>
<label><input type="radio" data-group="tie" value="lowest">
the smaller ids (the lesson)</label>
</fieldset>
<fieldset><legend>Pre-tokenizer</legend>
<label><input type="radio" data-group="pre" value="gpt2" checked>
GPT-2's pattern</label>
<label><input type="radio" data-group="pre" value="none"> none (one piece)</label>
</fieldset>
</div>
<p class="bpe-differ"></p>
<p class="bpe-last"></p>
<div class="bpe-panes">
<div class="bpe-pane"><strong>Pair counts</strong> <span class="bpe-ties"></span>
<div class="bpe-scroll"><table class="bpe-pairs"></table></div></div>
<div class="bpe-pane"><strong>Pre-tokens</strong>
<div class="bpe-scroll"><table class="bpe-table"></table></div></div>
<div class="bpe-pane"><strong>Merges so far</strong>
<div class="bpe-scroll"><ol class="bpe-merges"></ol></div></div>
</div>
<p class="bpe-ratio"></p>
<div class="bpe-tokens"></div>
<label>Encode a word with the merges so far (lowest rank first, as in
<a href="05_encoding.html">chapter 5</a>):
<input type="text" class="bpe-word" value="{html.escape(word)}"></label>
<pre class="bpe-trace"></pre>
<script>{CORE.read_text(encoding="utf-8")}</script>
<script>{SCRIPT.read_text(encoding="utf-8")}</script>
</div>"""


class Explorer:
    """The merge explorer as a cell's value: Jupyter, and the page's Python after a
    Run (``bpe.book.page.cells``), show its HTML; it needs no IPython."""

    def __init__(self, corpus: str, word: str = WORD):
        self.corpus, self.word = corpus, word

    def _repr_html_(self) -> str:
        return explorer_html(self.corpus, self.word)

    def __repr__(self) -> str:
        return f"<the merge explorer, on {len(self.corpus):,} characters>"


def explorer(corpus: str, word: str = WORD) -> Any:
    """Show the merge explorer in a notebook, prefilled with corpus."""
    return Explorer(corpus, word)
