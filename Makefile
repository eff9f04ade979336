# simpred_lite — the two commands a student needs are `make lab` and `make test`.
# Everything is installed from PyPI into .venv, pinned by constraints.txt.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# One worker per core; a notebook (its cells run in order) and a test file stay on one worker.
PARALLEL := -n auto --dist loadfile
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: lab app lint test test-fast notebooks bench bench-full clean help \
	assignments collect autograde feedback grades student solutions course-clean formgrader test-coursework

help:
	@echo "make lab        start JupyterLab on notebooks/ (creates .venv on first use)"
	@echo "make app        serve the adversary playground as a web app (Voila, localhost only)"
	@echo "make test       unit tests + strict nbval of every notebook"
	@echo "make notebooks  re-execute every notebook in place through a real kernel"
	@echo "make student    the course handout: release notebooks without solutions, in build/student"
	@echo "instructors (nbgrader course in build/nbgrader; A=00 limits a target to one assignment):"
	@echo "  make assignments  generate (gradebook + release/) and release to the exchange, one assignment per notebook"
	@echo "  make collect      collect the submissions from the exchange into submitted/"
	@echo "  make autograde    autograde every submission in submitted/"
	@echo "  make feedback     HTML feedback in feedback/ (no hidden tests, no model answers)"
	@echo "  make grades       export the grades to build/nbgrader/grades.csv"
	@echo "  make formgrader   JupyterLab on the course directory: Nbgrader -> Formgrader grades the written answers"
	@echo "  make solutions    the worked solutions (after the deadline) in build/solutions"
	@echo "  make course-clean delete gradebook, submissions, grades (then make assignments)"
	@echo "  make test-coursework  the exercise bench on all 12 assignments (real nbgrader autograde)"
	@echo "make bench      run every benchmarks/bench_*.py (--quick) and write benchmarks/RESULTS.md"
	@echo "make bench-full the same with the full-size runs (slow)"

$(PY):
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "simpred_lite needs Python 3.11+, found " + sys.version'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml constraints.txt
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[notebooks,test,app,browser,instructor,dask]"
	touch $(STAMP)

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG)

# The playground web app on http://127.0.0.1:8866 (loopback only; Ctrl-C stops it). Voilà runs in app/
# and reads app/voila.json: its template "simpred" (app/share/jupyter/voila/templates, found through
# JUPYTER_PATH) asks no CDN for anything, and kernels whose page was closed or reloaded are culled
# after 5 idle minutes (Voilà's own shutdown on unload is refused, voila#1458).
APP_PORT ?= 8866
app: $(STAMP)
	cd app && JUPYTER_PATH="$(CURDIR)/app/share/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH}" \
		$(abspath $(VENV))/bin/voila playground.ipynb --Voila.ip=127.0.0.1 --port=$(APP_PORT)

# Strict nbval: stored outputs must equal a fresh run (never the lax mode).
# tests/test_browser_app.py (the web app, in Voila) and tests/test_browser_lab_widgets.py (every
# widget of the notebooks, in JupyterLab) drive Debian's chromium when /usr/bin/chromium exists,
# and skip loudly (a warning in the summary) when it does not.
# ruff first: a lint failure fails the build before the (long) test run.
LINT := $(VENV)/bin/ruff check simpred_lite tests benchmarks scripts coursework
# mypy on the package ([tool.mypy] in pyproject.toml), right after ruff.
TYPECHECK := $(VENV)/bin/mypy

test: $(STAMP)
	$(LINT)
	$(TYPECHECK)
	$(PY) -m pytest $(PARALLEL) $(NBVAL) --doctest-modules simpred_lite tests notebooks

# Only the Python unit tests (no notebooks), for quick iterations.
test-fast: $(STAMP)
	$(LINT)
	$(TYPECHECK)
	$(PY) -m pytest $(PARALLEL) --doctest-modules simpred_lite tests

lint: $(STAMP)
	$(LINT)
	$(TYPECHECK)

notebooks: $(STAMP)
	$(PY) scripts/run_notebooks.py notebooks/*.ipynb

# The nbgrader course (coursework/course.py): one assignment psNN_<stem> per notebook in the
# git-ignored course directory build/nbgrader. nbgrader runs alembic and jupyter by name, so the
# venv's bin goes first on PATH. A=00 (or A="00 05") limits a target to those assignments.
COURSE := PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) scripts/course.py
A ?=

assignments: $(STAMP)
	$(COURSE) assignments $(A)
	$(COURSE) release $(A)

collect: $(STAMP)
	$(COURSE) collect $(A)

autograde: $(STAMP)
	$(COURSE) autograde $(A)

feedback: $(STAMP)
	$(COURSE) feedback $(A)

grades: $(STAMP)
	$(COURSE) grades

solutions: $(STAMP)
	$(COURSE) solutions

# The handout: release notebooks (no solutions), a README, and the package as a wheel (no notebooks).
student: assignments
	$(COURSE) student
	$(PY) -m pip wheel --quiet --no-deps -w build/student .

course-clean: $(STAMP)
	$(COURSE) clean

# formgrader (nbgrader's JupyterLab extension) on the course directory, for the written answers.
formgrader: $(STAMP)
	cd build/nbgrader && PATH="$(abspath $(VENV))/bin:$$PATH" jupyter lab $(ROOT_FLAG)

# The exercise bench on all twelve assignments (make test runs two, chosen by the date).
test-coursework: $(STAMP)
	COURSEWORK_ASSIGNMENTS=all PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m pytest $(PARALLEL) tests/test_coursework.py tests/test_assignments.py

bench: $(STAMP)
	$(PY) scripts/run_benchmarks.py

bench-full: $(STAMP)
	$(PY) scripts/run_benchmarks.py --full

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build/nbgrader build/student build/solutions
