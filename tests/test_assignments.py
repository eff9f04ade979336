"""The course release built by ``make assignments`` (nbgrader) is complete and gives nothing away.

``coursework/course.py`` runs ``nbgrader generate_assignment`` (with the gradebook) for every
notebook, one assignment ``psNN_<stem>`` per notebook. These tests build the course into a
temporary directory and check that

* every notebook is released as its own assignment, with outputs cleared, and the gradebook
  knows each assignment with the notebook's points;
* no solution survives: no ``### BEGIN SOLUTION`` / ``### END SOLUTION``, no ``**Solution.**``
  answer, no rubric, no hidden-test line, and the solution cells are nbgrader's stubs;
* no release notebook says that worked solutions are in it;
* the course's nbgrader_config.py gives every cell a generous timeout;
* the exchange path works: ``release_assignment``, a student's ``fetch_assignment`` and
  ``submit``, then ``collect`` puts the submission in ``submitted/<student>/<assignment>/``;
* the student handout (``make student``) holds the release notebooks only.

That every test cell **fails** on the stub and **passes** on the solutions is checked by the
exercise bench with the real ``nbgrader autograde`` (tests/test_coursework.py: the ``blank``
student scores 0 on every test cell, ``perfect`` full marks).
"""

from __future__ import annotations

import getpass
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip(
    "nbgrader", reason="the instructor extra (nbgrader) is not installed: pip install -e '.[instructor]'"
)
from nbgrader.preprocessors import ClearSolutions  # noqa: E402 - only once nbgrader is known to be there

from coursework import course  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = course.notebooks(ROOT / "notebooks")
SOLUTION_TEXT = ("### BEGIN SOLUTION", "### END SOLUTION", "**Solution.**", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS",
                 "**Rubric")
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)

#: The stubs nbgrader itself writes in place of a solution (its defaults, which the build uses).
STUBS = ClearSolutions()


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _nbgrader(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def _is_test_cell(cell):
    meta = _nbgrader(cell)
    return cell["cell_type"] == "code" and meta.get("grade") and not meta.get("solution")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("nbgrader")
    course.generate(root)
    return root


def _release(root, path):
    return root / "release" / course.assignment_name(path) / path.name


def test_every_notebook_is_its_own_assignment_with_outputs_cleared(built):
    assert sorted(p.name for p in (built / "release").iterdir()) == [course.assignment_name(p) for p in NOTEBOOKS]
    for path in NOTEBOOKS:
        assert [p.name for p in _release(built, path).parent.iterdir()] == [path.name]
        for cell in json.loads(_release(built, path).read_text())["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, f"{path.name}: outputs kept"


def test_no_assignment_folder_shadows_the_package():
    assert all(not course.assignment_name(p).startswith("simpred_lite") for p in NOTEBOOKS)
    assert course.assignment_name("notebooks/00_similarity_prediction.ipynb") == "ps00_similarity_prediction"


def test_gradebook_knows_every_assignment_and_its_points(built):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{built / 'gradebook.db'}") as gb:
        for path in NOTEBOOKS:
            cells = [_nbgrader(c) for c in json.loads(path.read_text())["cells"] if _nbgrader(c).get("grade")]
            assignment = gb.find_assignment(course.assignment_name(path))
            assert [nb.name for nb in assignment.notebooks] == [path.stem]
            assert assignment.max_score == pytest.approx(sum(c["points"] for c in cells)), path.name


def test_config_gives_cells_a_generous_timeout(built):
    text = (built / "nbgrader_config.py").read_text()
    assert f"c.Execute.timeout = {course.CELL_TIMEOUT}" in text and course.CELL_TIMEOUT >= 300


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_solution_survives_in_the_release(built, path):
    source = json.loads(path.read_text())["cells"]
    student = json.loads(_release(built, path).read_text())["cells"]
    text = "\n".join(_source(c) for c in student)
    for marker in SOLUTION_TEXT:
        assert marker not in text, f"{marker!r} survives in the student release of {path.name}"
    hidden = [line.strip() for c in source if _is_test_cell(c) for block in HIDDEN.findall(_source(c))
              for line in block.splitlines() if line.strip()]
    student_lines = {line.strip() for line in text.splitlines()}
    for line in hidden:
        assert line not in student_lines, f"hidden test line {line!r} survives in {path.name}"
    by_id = {_nbgrader(c).get("grade_id"): c for c in student if _nbgrader(c)}
    for cell in source:
        meta = _nbgrader(cell)
        if meta.get("solution"):
            stub = _source(by_id[meta["grade_id"]])
            expected = STUBS.text_stub if cell["cell_type"] == "markdown" else STUBS.code_stub["python"]
            assert expected in stub and stub != _source(cell), f"{meta['grade_id']}: solution not replaced by a stub"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_release_notebook_claims_solutions_are_in_it(built, path):
    claims = course.claims_solutions(_release(built, path))
    assert not claims, f"the release of {path.name} says {claims}: reword it so it is true in both versions"


def test_claim_detector_catches_the_old_wording(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "The worked solutions are in the collapsed cells under each exercise.")])
    nbformat.write(nb, tmp_path / "x.ipynb")
    assert course.claims_solutions(tmp_path / "x.ipynb")


def test_exchange_release_fetch_submit_collect(built, tmp_path):
    """The exchange path of one assignment: what a student fetches and submits lands in submitted/."""
    path = NOTEBOOKS[0]
    name = course.assignment_name(path)
    course.release(built, [path.stem])
    student_home = tmp_path / "student"
    student_home.mkdir()
    for command in ("fetch_assignment", "submit"):
        course.nbgrader(student_home, command, name, f"--course={course.COURSE_ID}",
                        f"--Exchange.root={built / 'exchange'}", "--log-level=WARN")
    course.collect(built, [path.stem])
    submitted = built / "submitted" / getpass.getuser() / name / path.name
    assert submitted.exists()
    assert nbformat.read(submitted, as_version=4).cells == nbformat.read(_release(built, path), as_version=4).cells


def test_student_handout_has_the_release_only(built, tmp_path):
    dest = course.student_handout(tmp_path / "handout", built)
    assert sorted(p.name for p in (dest / "notebooks").iterdir()) == [p.name for p in NOTEBOOKS]
    assert not any((dest / "notebooks" / p.name).read_text().count("### BEGIN SOLUTION") for p in NOTEBOOKS)
    assert "pip install" in (dest / "README.md").read_text()


def test_course_command_line_runs_from_a_fresh_shell(built):
    """scripts/course.py works without an activated venv (nbgrader needs alembic on PATH)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}   # no venv on PATH
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "course.py"), "grades", f"--root={built}"],
                            capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert (built / "grades.csv").read_text().startswith("assignment,")
