"""The merge explorer as a notebook output: HTML, a little CSS, and explorer.js inlined.

The page works offline, in Jupyter and on the static site alike: nothing is loaded
from anywhere. ``bpe.js`` (shared with the token playground) and ``explorer.js``
hold the algorithm and the page logic; this module only wraps them. The tests run the script's ``train`` under Node against ``bpe.train``.
"""

import html
from pathlib import Path

CORE = Path(__file__).with_name("bpe.js")  # shared with the token playground
SCRIPT = Path(__file__).with_name("explorer.js")

STYLE = """
.bpe-explorer { font-family: system-ui, sans-serif; border: 1px solid #ccc; border-radius: 6px; padding: .8em; }
.bpe-explorer textarea { width: 100%; box-sizing: border-box; font-family: var(--bpe-monospace, monospace); }
.bpe-explorer .bpe-controls { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .5em 0; }
.bpe-explorer .bpe-panes { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.bpe-explorer table { border-collapse: collapse; font-family: var(--bpe-monospace, monospace); }
.bpe-explorer td, .bpe-explorer th { padding: 0 .6em; border-bottom: 1px solid #eee; text-align: left; }
.bpe-explorer tr.bpe-changed { background: #fff3b0; }
.bpe-explorer tr.bpe-winner { background: #c8e6c9; font-weight: bold; }
.bpe-explorer tr.bpe-tie { background: #ffe0b2; }
.bpe-explorer .bpe-merges { font-family: var(--bpe-monospace, monospace); margin: 0; }
.bpe-explorer .bpe-token { display: inline-block; font-family: var(--bpe-monospace, monospace); border: 1px solid #9bb;
                           border-radius: 3px; margin: 1px; padding: 0 2px; background: #eef7f7; }
"""


def explorer_html(corpus):
    """The explorer's markup for one corpus, script included."""
    return f"""<div class="bpe-explorer">
<style>{STYLE}</style>
<label>Corpus (the first 4,000 characters are used):
<textarea class="bpe-corpus" rows="4">{html.escape(corpus)}</textarea></label>
<div class="bpe-controls">
<button type="button" class="bpe-next">Merge next</button>
<button type="button" class="bpe-reset">Reset</button>
<label>jump to merge <input type="range" class="bpe-slider" min="0" max="0" value="0"></label>
<span class="bpe-step"></span>
<span class="bpe-vocab"></span>
</div>
<p class="bpe-last"></p>
<div class="bpe-panes">
<div><strong>Pair counts</strong> <span class="bpe-ties"></span><table class="bpe-pairs"></table></div>
<table class="bpe-table"></table>
<div><strong>Merges so far</strong><ol class="bpe-merges"></ol></div>
</div>
<p class="bpe-ratio"></p>
<div class="bpe-tokens"></div>
<script>{CORE.read_text(encoding="utf-8")}</script>
<script>{SCRIPT.read_text(encoding="utf-8")}</script>
</div>"""


def explorer(corpus):
    """Show the merge explorer in a notebook, prefilled with corpus."""
    from IPython.display import HTML

    return HTML(explorer_html(corpus))
