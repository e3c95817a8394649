# The two commands the README promises: `make book` and `make test`.
VENV   := .venv
PYTHON := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Notebooks start kernels with `python`: make sure it is the project's.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
export PYTHONHASHSEED := 0
# Where the registered data files are read from (see bpe/data/registry.py); beside a clone in this
# workplace that is ../shared/data. Override on the command line or in the environment.
export BPE_DATA_MIRROR ?= $(if $(wildcard ../shared/data),$(abspath ../shared/data),)

.PHONY: install compiled live-marks book preview lab lab-deps lint test test-package test-notebooks test-lab test-site test-browser browser-deps bench article clean

install: $(STAMP)

# --no-compile: pip would byte-compile every module of every package (about 17 s
# here); Python compiles the ones that are imported, once, when first imported.
$(STAMP): requirements.txt pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet --no-compile -r requirements.txt
	touch $@

# The hot modules (bpe/scale/compiled.py) compiled by Cython from their own source, in
# place, when a C compiler is here; otherwise one line says the pure-Python path runs.
# Up to date, it only says so. The build runs as Python itself (BPE_PURE_PYTHON).
# BPE_COMPILED_ALREADY=yes (set by `make test` for its side-by-side jobs, after test-package has
# compiled) skips it: no two builds run at once.
compiled: $(STAMP)
	$(if $(BPE_COMPILED_ALREADY),@:,BPE_PURE_PYTHON=1 $(PYTHON) -m bpe.scale.build)

# MathJax, served from the site itself so that math renders with no network.
MATHJAX := vendor/mathjax/tex-mml-chtml.js
$(MATHJAX):
	npm install --silent --no-save --no-audit --no-fund --prefix .cache/npm mathjax@3.2.2
	mkdir -p vendor && rm -rf vendor/mathjax && cp -r .cache/npm/node_modules/mathjax/es5 vendor/mathjax

# Pyodide (CPython compiled to WebAssembly), served from the site itself: the page's Python
# (bpe/book/site). Only the files it loads are copied (bpe.book.site.archive.PYODIDE_FILES).
PYODIDE_VERSION := 314.0.8
PYODIDE := vendor/pyodide/pyodide.asm.wasm
$(PYODIDE): | $(STAMP)
	npm install --silent --no-save --no-audit --no-fund --prefix .cache/npm/pyodide pyodide@$(PYODIDE_VERSION)
	$(PYTHON) -m bpe.book.site.archive --vendor .cache/npm/pyodide/node_modules/pyodide vendor/pyodide

# _build/generated is served as _static/: the playground's files, the page's Python, and
# the book's own source, bpe-book-source.zip, which the intro's "Get the code" links.
# OUTPUTS says where the chapters' outputs come from (bpe.book.site.config): --cache runs only the
# chapters whose code changed, and all of them after any change to bpe/, data/ or
# requirements.txt; --stored-outputs runs none.
define build-site
	rm -rf _build/html
	$(PYTHON) -m bpe.book.site.config _config.yml _build/site_config.yml $(1)
	$(PYTHON) -m bpe.book.site.playground _build/generated
	$(PYTHON) -m bpe.book.site.archive _build/generated
	$(PYTHON) -m bpe.book.site.source_archive _build/generated
	$(VENV)/bin/jupyter-book build . -W -n --keep-going --config _build/site_config.yml
endef

book: $(STAMP) compiled $(MATHJAX) $(PYODIDE)
	$(call build-site,--cache)
	@echo "The book is built: open $(CURDIR)/_build/html/index.html"

# The site from the outputs stored in the notebooks, without running them: for a quick look
# while writing, and in `make test` right after nbval has checked those outputs against a
# fresh run (so each chapter runs once).
preview: $(STAMP) compiled $(MATHJAX) $(PYODIDE)
	$(call build-site,--stored-outputs)

# JupyterLab (requirements-lab.txt), installed into .venv when missing, for running the cells.
LAB_STAMP := $(VENV)/.lab-installed
lab-deps: $(LAB_STAMP)
$(LAB_STAMP): $(STAMP) requirements-lab.txt
	$(PYTHON) -m pip install --quiet -r requirements-lab.txt
	touch $@

# Open the chapters in JupyterLab with the .venv kernel (BPE_DATA_MIRROR as above; without it the
# data chapters download their pinned files from their origins).
lab: $(LAB_STAMP)
	cd notebooks && $(CURDIR)/$(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root,)

# Start a Jupyter server from .venv, run one chapter through it, stop it.
test-lab: $(LAB_STAMP) compiled
	$(PYTHON) -m pytest tests/lab -p no:cacheprovider

# One style for the package, its tests and benchmarks (configured in pyproject.toml).
lint: $(STAMP)
	$(VENV)/bin/ruff check bpe tests bench setup.py
	$(VENV)/bin/ruff format --check bpe tests bench setup.py

# Which chapter cells run in the page's Python: found by running them there (Pyodide under
# Node), and written into the notebooks as the tag `live` (tests/test_live.py checks them).
live-marks: $(STAMP) $(PYODIDE)
	$(PYTHON) -m bpe.book.site.marks

# On two workers (pytest-xdist; --dist worksteal: the one that runs out of tests takes
# some of the other's): the exhaustive walks are cut into parts that balance, and
# a chapter's run in the page's Python is made once for all its tests, by whichever worker
# asks first (page_verdicts in tests/conftest.py).
# Twice: as the package runs here (compiled where it could be), then the fast layer's
# tests and the hot modules' doctests as pure Python. pytest cannot collect a compiled
# module's doctests from its .py: tests/test_compiled.py runs them on the module.
HOT_SOURCES = $(shell BPE_PURE_PYTHON=1 $(PYTHON) -m bpe.scale.build --sources)
PURE_TESTS := tests/test_compiled.py tests/test_fast.py tests/test_piece.py \
  tests/test_word_counts.py tests/test_gpt2_scan.py tests/test_plugged_in.py tests/test_one_view.py \
  tests/test_parallel.py tests/test_extend.py tests/test_tokenizer_api.py tests/test_pickle.py
# The core's answers to the walks are worked out in the first run and read in the second
# (tests/core_answers.py): the core is the same Python in both.
CORE_ANSWERS := $(CURDIR)/_build/core-answers
test-package: $(STAMP) $(PYODIDE) compiled
	rm -rf $(CORE_ANSWERS) && mkdir -p $(CORE_ANSWERS)
	BPE_CORE_ANSWERS=$(CORE_ANSWERS) $(PYTHON) -m pytest -n 2 --dist worksteal tests bpe --doctest-modules \
	  --ignore=tests/browser --ignore=tests/lab $(addprefix --ignore=,$(HOT_SOURCES))
	BPE_CORE_ANSWERS=$(CORE_ANSWERS) BPE_PURE_PYTHON=1 $(PYTHON) -m pytest -n 2 --dist worksteal \
	  $(PURE_TESTS) $(HOT_SOURCES) --doctest-modules
	rm -rf $(CORE_ANSWERS)

# Two workers (pytest-xdist), each chapter whole on one of them (--dist loadscope); the
# ledger reads what the other chapters record (bpe.book.figures.ledger), so it runs after them.
NBVAL  := $(PYTHON) -m pytest --nbval --nbval-current-env -p no:cacheprovider
LEDGER := notebooks/99_reproducibility_ledger.ipynb
test-notebooks: $(STAMP) compiled
	$(NBVAL) -n 2 --dist loadscope $(filter-out $(LEDGER),$(wildcard notebooks/*.ipynb))
	$(NBVAL) $(LEDGER)

# Debian's Chromium and the fonts the pages need (牛, 🙃, Vietnamese; Liberation Mono for code and
# DejaVu Sans Mono for its ␣, see bpe/book/site/static/book.css), installed when missing.
browser-deps:
	@command -v chromium >/dev/null && fc-list | grep -q "Noto Color Emoji" && fc-list | grep -q "Noto Sans CJK" \
	  && fc-list | grep -q "Liberation Mono" && fc-list | grep -q "DejaVu Sans Mono" \
	  || (apt-get update -qq && apt-get install -y -qq chromium fonts-noto-cjk fonts-noto-color-emoji fonts-dejavu-core fonts-liberation)

test-browser: $(STAMP) browser-deps
	$(PYTHON) -m pytest tests/browser -p no:cacheprovider

# nbval runs every chapter and checks its stored outputs; the site is built from those
# outputs (preview), so no chapter runs twice. After the package's tests, three jobs that
# need nothing from one another share the cores (each leaves one idle part of the time):
# the chapters, the site and its browser tests, JupyterLab. Each job's output is printed
# whole when it ends; the first to fail fails `make test`. JupyterLab is installed first,
# so that no pip runs while the chapters import.
test: lint test-package lab-deps browser-deps
	$(MAKE) --no-print-directory --output-sync=target -j3 BPE_COMPILED_ALREADY=yes \
	  test-site test-notebooks test-lab

# The site from the stored outputs, then looked at in Chromium.
test-site:
	$(MAKE) --no-print-directory preview
	$(MAKE) --no-print-directory test-browser

bench: $(STAMP) compiled
	$(PYTHON) bench/bench_train.py
	$(PYTHON) bench/bench_memory.py
	$(PYTHON) bench/bench_words.py  # corpora whose distinct pre-tokens grow with size
	$(PYTHON) bench/bench_encode.py
	BPE_PURE_PYTHON=1 $(PYTHON) bench/bench_encode.py  # the hot modules as Python
	$(PYTHON) bench/bench_js.py
	$(MAKE) preview  # the page's Python is timed on the site as the notebooks stand now
	$(PYTHON) bench/bench_live.py

# The article's own data, from the Hugging Face hub: needs the network (not part of `make test`).
article: $(STAMP)
	$(PYTHON) -m bpe.book.figures.article $(ARTICLE_ARGS)

clean:
	rm -rf _build vendor/mathjax vendor/pyodide bpe/scale/*.so bpe/scale/compiled.json
