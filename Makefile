# simpred_lite — the two commands a student needs are `make lab` and `make test`.
# Everything is installed from PyPI into .venv, pinned by constraints.txt.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: lab app lint test test-fast notebooks assignments bench bench-full clean help

help:
	@echo "make lab        start JupyterLab on notebooks/ (creates .venv on first use)"
	@echo "make app        serve the adversary playground as a web app (Voila, localhost only)"
	@echo "make test       unit tests + strict nbval of every notebook"
	@echo "make notebooks  re-execute every notebook in place through a real kernel"
	@echo "make assignments build the student release (nbgrader) in build/nbgrader/release/simpred_lite"
	@echo "make bench      run every benchmarks/bench_*.py (--quick) and write benchmarks/RESULTS.md"
	@echo "make bench-full the same with the full-size runs (slow)"

$(PY):
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "simpred_lite needs Python 3.11+, found " + sys.version'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml constraints.txt
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[notebooks,test,app,browser,instructor]"
	touch $(STAMP)

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG)

# The playground web app on http://127.0.0.1:8866 (loopback only; Ctrl-C stops it).
APP_PORT ?= 8866
app: $(STAMP)
	$(VENV)/bin/voila app/playground.ipynb --Voila.ip=127.0.0.1 --port=$(APP_PORT)

# Strict nbval: stored outputs must equal a fresh run (never the lax mode).
# tests/test_browser_app.py drives the web app in Debian's chromium when /usr/bin/chromium
# exists, and skips loudly (a warning in the summary) when it does not.
# ruff first: a lint failure fails the build before the (long) test run.
LINT := $(VENV)/bin/ruff check simpred_lite tests benchmarks scripts

test: $(STAMP)
	$(LINT)
	$(PY) -m pytest $(NBVAL) --doctest-modules simpred_lite tests notebooks

# Only the Python unit tests (no notebooks), for quick iterations.
test-fast: $(STAMP)
	$(LINT)
	$(PY) -m pytest --doctest-modules simpred_lite tests

lint: $(STAMP)
	$(LINT)

notebooks: $(STAMP)
	$(PY) scripts/run_notebooks.py notebooks/*.ipynb

# The student release of every notebook, built by nbgrader itself (solutions -> stubs, hidden
# tests removed, outputs cleared) in the git-ignored course directory build/nbgrader.
assignments: $(STAMP)
	$(PY) scripts/build_assignments.py --root build/nbgrader

bench: $(STAMP)
	$(PY) scripts/run_benchmarks.py

bench-full: $(STAMP)
	$(PY) scripts/run_benchmarks.py --full

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build/nbgrader
