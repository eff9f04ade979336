"""The nbgrader course of simpred_lite: one assignment per notebook, the whole grading cycle.

The notebooks in ``notebooks/`` are the instructor version (worked solutions in nbgrader's
format). This module lays out a standard nbgrader course directory (default ``build/nbgrader``,
git-ignored) and runs nbgrader's own commands on it::

    build/nbgrader/
        nbgrader_config.py          written here (course id, timeout, the course's preprocessors)
        gradebook.db                nbgrader's gradebook (assignments, cells, students, grades)
        source/ps00_similarity_prediction/00_similarity_prediction.ipynb
        release/ps00_similarity_prediction/00_similarity_prediction.ipynb
        submitted/<student>/<assignment>/<notebook>.ipynb
        autograded/<student>/<assignment>/...    feedback/<student>/<assignment>/<notebook>.html
        exchange/                   a local nbgrader exchange (release_assignment / collect)

Assignment ``psNN_<stem>`` holds notebook ``NN_<stem>.ipynb`` alone, so that a timeout in one
notebook costs only that notebook, each has its own points, and no assignment folder is named
like the package (a folder ``simpred_lite/`` next to a student's notebook would shadow it).

The command line is ``scripts/course.py`` (the Makefile's coursework targets call it).
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_COURSE = ROOT / "build" / "nbgrader"
COURSE_ID = "simpred_lite"
#: Seconds one cell may run during autograde. The slowest graded cell runs well under a minute
#: on a loaded 2-core machine; nbgrader's default (30 s) is too tight and a timeout costs the
#: whole notebook's tests.
CELL_TIMEOUT = 600
#: A release notebook must not claim that solutions are in it. A paragraph that also speaks of
#: the release (e.g. "in the self-study version … a worked solution, collapsed …; in the course
#: release it is empty") says something true of both versions and is not a claim.
SOLUTIONS_CLAIM = re.compile(r"(has|have|holds?) a worked solution|solutions? (is|are) (in the collapsed|collapsed"
                             r"|right below|below|in th(is|e) notebook)|collapsed right below|in the collapsed cells",
                             re.I)

CONFIG = '''\
# Written by coursework/course.py (make assignments): the nbgrader course of simpred_lite.
import sys

sys.path.insert(0, {repo!r})   # the course's preprocessors: coursework/nbgrader_plugins.py
from coursework.nbgrader_plugins import AddGraderNotes, RestoreTestCells, StudentFeedback  # noqa: E402
from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor  # noqa: E402
from nbgrader.preprocessors import (  # noqa: E402
    AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds, Execute, GetGrades, IgnorePattern,
    LimitOutput, OverwriteKernelspec, SaveAutoGrades)

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}
c.Exchange.root = {exchange!r}
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
# one cell may run this long during autograde (nbgrader's default, 30 s, is too tight)
c.Execute.timeout = {timeout}
# nbgrader's defaults, with OverwriteCells replaced by RestoreTestCells (no false checksum warnings)
c.Autograde.sanitize_preprocessors = [ClearOutput, DeduplicateIds, OverwriteKernelspec, RestoreTestCells,
                                      CheckCellMetadata]
# nbgrader's defaults, plus the model answer and rubric under each written answer, for the grader
c.Autograde.autograde_preprocessors = [Execute, IgnorePattern, ClearMetadataPreprocessor, LimitOutput,
                                       SaveAutoGrades, AssignLatePenalties, CheckCellMetadata, AddGraderNotes]
# nbgrader's defaults, plus: no grader notes, no hidden tests, errors of test cells as their message
c.GenerateFeedback.preprocessors = [GetGrades, StudentFeedback, CSSHTMLHeaderPreprocessor]
'''


def assignment_name(notebook: str | Path) -> str:
    """The assignment of a notebook: ``ps`` + its stem (``00_similarity_prediction`` -> ``ps00_...``).

    Examples
    --------
    >>> assignment_name("notebooks/01_effective_resistance.ipynb")
    'ps01_effective_resistance'
    """
    return "ps" + Path(notebook).stem


def notebooks(folder: Path = ROOT / "notebooks") -> list[Path]:
    """The instructor notebooks, sorted."""
    found = sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))
    if not found:
        raise FileNotFoundError(f"no notebooks NN_*.ipynb in {folder}")
    return found


def select(names: list[str] | None, folder: Path = ROOT / "notebooks") -> list[Path]:
    """The notebooks named by ``names`` (``00``, ``00_similarity_prediction`` or ``ps00_...``); all if empty."""
    every = notebooks(folder)
    if not names:
        return every
    chosen = []
    for name in names:
        hits = [p for p in every if name in (p.stem, p.stem[:2], assignment_name(p))]
        if not hits:
            raise ValueError(f"assignment {name!r}: not one of {[assignment_name(p) for p in every]}; "
                             "give a notebook number (00), its stem or its assignment name")
        chosen += hits
    return chosen


def nbgrader(course: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``nbgrader *args`` in the course directory with this interpreter's environment.

    The interpreter's ``bin`` folder goes first on ``PATH``: nbgrader runs ``alembic`` (database
    migrations) and ``jupyter`` by name, which fails from an unactivated venv.
    """
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, check=check,
                          capture_output=True, text=True)


def write_config(course: Path) -> Path:
    """Create the course directory and its ``nbgrader_config.py``; return the config's path."""
    course.mkdir(parents=True, exist_ok=True)
    path = course / "nbgrader_config.py"
    path.write_text(CONFIG.format(repo=str(ROOT), course_id=COURSE_ID, root=str(course),
                                  exchange=str(course / "exchange"), timeout=CELL_TIMEOUT))
    return path


def generate(course: Path = DEFAULT_COURSE, names: list[str] | None = None,
             folder: Path = ROOT / "notebooks") -> list[Path]:
    """``nbgrader generate_assignment`` for each notebook, with the gradebook; return the release folders.

    Each notebook is copied to ``source/<assignment>/`` and released to ``release/<assignment>/``
    (solutions replaced by stubs, hidden tests removed, visible tests locked, outputs cleared).
    The gradebook records the assignment and its cells (which ``autograde`` needs). Regenerating
    after submissions exist works (``--force``; the notebook of an assignment never changes
    name), and a change of points or tests applies to the next ``autograde``.

    Parameters
    ----------
    course : Path
        The nbgrader course directory (created).
    names : list of str, optional
        Which notebooks (see :func:`select`); all by default.
    folder : Path
        Folder of the instructor notebooks.

    Returns
    -------
    list of Path
        ``course/release/<assignment>`` for each notebook.
    """
    course = Path(course).resolve()
    write_config(course)
    chosen = select(names, folder)
    for path in chosen:
        source_dir = course / "source" / assignment_name(path)
        shutil.rmtree(source_dir, ignore_errors=True)
        source_dir.mkdir(parents=True)
        shutil.copy2(path, source_dir / path.name)
    _run_all(course, "generate_assignment", names, "--force")
    released = [course / "release" / assignment_name(path) for path in chosen]
    for release_dir in released:
        for nb_path in sorted(release_dir.glob("*.ipynb")):
            _tidy_release(nb_path)
    return released


def _tidy_release(path: Path) -> None:
    """Un-collapse the stubs (a student must see them) and drop the instructor run's timestamps."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.metadata.get("jupyter", {}).pop("source_hidden", None)
            if not cell.metadata.get("jupyter", {}):
                cell.metadata.pop("jupyter", None)
    nbformat.write(nb, path)


def claims_solutions(path: Path) -> list[str]:
    """The markdown paragraphs of a notebook that say worked solutions are in it (empty: none)."""
    nb = nbformat.read(path, as_version=4)
    return [para.strip() for c in nb.cells if c.cell_type == "markdown" for para in re.split(r"\n\s*\n", c.source)
            if SOLUTIONS_CLAIM.search(para) and "release" not in para.lower()]


def student_handout(dest: Path, course: Path = DEFAULT_COURSE) -> Path:
    """Copy the released notebooks (no solutions) into ``dest/notebooks`` with a README; return ``dest``."""
    dest = Path(dest).resolve()
    releases = sorted((Path(course) / "release").glob("ps*/*.ipynb"))
    if not releases:
        raise FileNotFoundError(f"no release in {course}/release: run `make assignments` first")
    shutil.rmtree(dest, ignore_errors=True)
    (dest / "notebooks").mkdir(parents=True)
    for path in releases:
        shutil.copy2(path, dest / "notebooks" / path.name)
    (dest / "README.md").write_text(STUDENT_README)
    return dest


STUDENT_README = """\
# simpred_lite: course notebooks

`notebooks/` holds the exercises of the course: every exercise has an empty cell for your answer
(`raise NotImplementedError()` / "YOUR ANSWER HERE") and an autograded test cell. Some tests are
hidden: passing the visible tests does not mean full marks.

Install the package (the wheel `simpred_lite-*.whl` next to this file, without notebooks) into a
fresh environment with Python 3.11+, then open the notebooks:

    python3 -m venv .venv
    .venv/bin/pip install "$(ls simpred_lite-*.whl)[notebooks]"
    .venv/bin/jupyter lab notebooks/

Work in the notebook itself: do not rename it, do not delete or change the test cells.
"""


def solutions(dest: Path, folder: Path = ROOT / "notebooks") -> Path:
    """Write the worked solutions (the executed instructor notebooks, solutions open) to ``dest``."""
    dest = Path(dest).resolve()
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for path in notebooks(folder):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("solution"):
                cell.metadata.pop("jupyter", None)
        nbformat.write(nb, dest / path.name)
    return dest


def _patterns(names: list[str] | None, glob: bool = True) -> list[str]:
    """nbgrader assignment ids for ``names``: one glob (``ps*``, a single nbgrader run) for all.

    The exchange commands (release_assignment, collect) take no glob: one id each.
    """
    return ["ps*"] if not names and glob else [assignment_name(p) for p in select(names)]


def _run_all(course: Path, command: str, names: list[str] | None, *extra: str) -> list[str]:
    """Run ``nbgrader command <assignment> *extra`` for the assignments; return the logs."""
    logs = []
    for pattern in _patterns(names, glob=command not in ("release_assignment", "collect")):
        result = nbgrader(Path(course).resolve(), command, pattern, *extra, "--log-level=INFO", check=False)
        logs.append(result.stdout + result.stderr)
        if result.returncode:
            raise RuntimeError(f"nbgrader {command} {pattern} failed:\n{result.stdout}\n{result.stderr}")
    return logs


def release(course: Path = DEFAULT_COURSE, names: list[str] | None = None) -> list[str]:
    """``nbgrader release_assignment`` to the course's exchange (students then ``fetch_assignment``)."""
    exchange = Path(course) / "exchange"
    exchange.mkdir(parents=True, exist_ok=True)
    exchange.chmod(0o777)   # what nbgrader's exchange requires (every student writes its inbound)
    return _run_all(course, "release_assignment", names, "--force")


def collect(course: Path = DEFAULT_COURSE, names: list[str] | None = None) -> list[str]:
    """``nbgrader collect``: the submissions in the exchange into ``submitted/``."""
    return _run_all(course, "collect", names, "--update")


def autograde(course: Path = DEFAULT_COURSE, names: list[str] | None = None,
              student: str | None = None) -> list[str]:
    """``nbgrader autograde --force`` every submission in ``submitted/`` (or only ``student``'s)."""
    extra = ["--force"] + ([f"--student={student}"] if student else [])
    return _run_all(course, "autograde", names, *extra)


def feedback(course: Path = DEFAULT_COURSE, names: list[str] | None = None) -> list[str]:
    """``nbgrader generate_feedback --force``: HTML feedback in ``feedback/<student>/<assignment>/``."""
    return _run_all(course, "generate_feedback", names, "--force")


def export_grades(course: Path = DEFAULT_COURSE, to: Path | None = None) -> Path:
    """``nbgrader export``: one CSV row per student and assignment; return the CSV's path."""
    course = Path(course).resolve()
    to = Path(to).resolve() if to else course / "grades.csv"
    result = nbgrader(course, "export", f"--to={to}", check=False)
    if result.returncode:
        raise RuntimeError(f"nbgrader export failed:\n{result.stdout}\n{result.stderr}")
    return to


def read_grades(course: Path) -> list[dict]:
    """The rows of the course's ``grades.csv`` (after :func:`export_grades`)."""
    with open(Path(course) / "grades.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def clean(course: Path = DEFAULT_COURSE) -> None:
    """Delete the gradebook, the submissions and everything graded (keeps source and release)."""
    course = Path(course)
    for name in ("submitted", "autograded", "feedback", "exchange"):
        shutil.rmtree(course / name, ignore_errors=True)
    for name in ("gradebook.db", "grades.csv"):
        (course / name).unlink(missing_ok=True)
