# simpred_lite — the two commands a student needs are `make lab` and `make test`.
# Everything is installed from PyPI into .venv, pinned by constraints.txt.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: lab test test-fast notebooks bench clean help

help:
	@echo "make lab        start JupyterLab on notebooks/ (creates .venv on first use)"
	@echo "make test       unit tests + strict nbval of every notebook"
	@echo "make notebooks  re-execute every notebook in place through a real kernel"
	@echo "make bench      run the benchmark scripts in benchmarks/"

$(PY):
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "simpred_lite needs Python 3.11+, found " + sys.version'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml constraints.txt
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[notebooks,test]"
	touch $(STAMP)

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG)

# Strict nbval: stored outputs must equal a fresh run (never the lax mode).
test: $(STAMP)
	$(PY) -m pytest $(NBVAL) --doctest-modules simpred_lite tests notebooks

# Only the Python unit tests (no notebooks), for quick iterations.
test-fast: $(STAMP)
	$(PY) -m pytest --doctest-modules simpred_lite tests

notebooks: $(STAMP)
	$(PY) scripts/run_notebooks.py notebooks/*.ipynb

bench: $(STAMP)
	$(PY) scripts/run_benchmarks.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
