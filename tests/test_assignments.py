"""The student release built by ``make assignments`` (nbgrader) is complete and gives nothing away.

``scripts/build_assignments.py`` runs ``nbgrader generate_assignment`` on every notebook of
``notebooks/``. These tests build the release into a temporary course directory and check that

* every notebook is released, with outputs cleared;
* no solution survives: no ``### BEGIN SOLUTION`` / ``### END SOLUTION``, no ``**Solution.**``
  answer, no hidden-test line, and the solution cells are nbgrader's stubs;
* every autograded test cell **fails** on the student stub. The student notebooks are executed
  with nbclient (``allow_errors=True``), each only up to its last graded cell (nothing after it
  can change a test's outcome), two at a time in a process pool.

That the same test cells **pass** on the instructor solutions is not re-checked here: the
instructor notebooks are committed executed, and strict ``pytest --nbval`` (``make test``)
re-runs every one of them, solution and test cells included, and fails on any error.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTION_TEXT = ("### BEGIN SOLUTION", "### END SOLUTION", "**Solution.**", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)

nbformat = pytest.importorskip("nbformat")
pytest.importorskip(
    "nbgrader", reason="the instructor extra (nbgrader) is not installed: pip install -e '.[instructor]'"
)
from nbgrader.preprocessors import ClearSolutions  # noqa: E402 - only once nbgrader is known to be there

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
def release(tmp_path_factory):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_assignments", ROOT / "scripts" / "build_assignments.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(tmp_path_factory.mktemp("nbgrader"), ROOT / "notebooks")


def test_release_has_every_notebook_with_outputs_cleared(release):
    assert sorted(p.name for p in release.glob("*.ipynb")) == [p.name for p in NOTEBOOKS]
    for path in release.glob("*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, f"{path.name}: outputs kept"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_solution_survives_in_the_release(release, path):
    source = json.loads(path.read_text())["cells"]
    student = json.loads((release / path.name).read_text())["cells"]
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


def _execute_until_last_test(path: str) -> dict[str, bool]:
    """Run a student notebook up to its last graded cell; map each test cell's grade_id to 'errored'."""
    import nbformat as nbf
    from nbclient import NotebookClient

    nb = nbf.read(path, as_version=4)
    last = max((k for k, c in enumerate(nb.cells) if _is_test_cell(c)), default=-1)
    if last < 0:
        return {}
    nb.cells = nb.cells[: last + 1]
    NotebookClient(nb, timeout=900, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    return {_nbgrader(c)["grade_id"]: any(o.get("output_type") == "error" for o in c.get("outputs", []))
            for c in nb.cells if _is_test_cell(c)}


@pytest.fixture(scope="module")
def student_runs(release):
    paths = [str(release / p.name) for p in NOTEBOOKS]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(zip((p.name for p in NOTEBOOKS), pool.map(_execute_until_last_test, paths)))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_autograded_test_fails_on_the_student_stub(student_runs, path):
    runs = student_runs[path.name]
    expected = [_nbgrader(c)["grade_id"] for c in json.loads(path.read_text())["cells"] if _is_test_cell(c)]
    assert sorted(runs) == sorted(expected)
    passing = [gid for gid, errored in runs.items() if not errored]
    assert not passing, f"{path.name}: these test cells pass on nbgrader's stub, so they grade nothing: {passing}"
