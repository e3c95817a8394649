# The two commands the README promises: `make book` and `make test`.
VENV   := .venv
PYTHON := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Notebooks start kernels with `python`: make sure it is the project's.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
export PYTHONHASHSEED := 0
# Where the registered data files are read from (see bpe/data.py); beside a clone in this
# workplace that is ../shared/data. Override on the command line or in the environment.
export BPE_DATA_MIRROR ?= $(if $(wildcard ../shared/data),$(abspath ../shared/data),)

.PHONY: install book test test-package test-notebooks bench article clean

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -r requirements.txt
	touch $@

book: $(STAMP)
	$(VENV)/bin/jupyter-book build . -W -n --keep-going
	@echo "The book is built: open $(CURDIR)/_build/html/index.html"

test-package: $(STAMP)
	$(PYTHON) -m pytest tests

test-notebooks: $(STAMP)
	$(PYTHON) -m pytest --nbval --nbval-current-env -p no:cacheprovider notebooks

test: test-package test-notebooks book

bench: $(STAMP)
	$(PYTHON) bench/bench_train.py
	$(PYTHON) bench/bench_encode.py

# The article's own data, from the Hugging Face hub: needs the network (not part of `make test`).
article: $(STAMP)
	$(PYTHON) -m bpe.article $(ARTICLE_ARGS)

clean:
	rm -rf _build
