"""The grading cycle, end to end with the real nbgrader: the exercise bench (coursework/README.md).

For each selected assignment, ``coursework.harness.run_bench`` builds four students (``blank``,
``perfect``, ``different``, ``wrong``), runs ``nbgrader autograde`` and ``generate_feedback``
on them and reads the scores back from the gradebook. The tests below then check that

* ``blank`` scores 0 on every autograded test cell (so every test fails on nbgrader's stub);
* ``perfect`` (the instructor's solutions) and ``different`` (the bench's other correct answers)
  score full marks on every test cell;
* ``wrong`` scores 0 on every cell its bench entry lists in ``wrong_fails``, although it also
  replaced one of those test cells by ``pass``: autograde restored the cell, and warned about
  the checksum of exactly that cell, while it gave no checksum warning for the untouched ones;
* the feedback a student reads holds no hidden-test line and no grader note, and a failing test
  shows its assert's message; the autograded notebook (what formgrader shows) holds, under every
  written answer, the model answer and its rubric;
* ``nbgrader export`` writes one CSV row per student with the autograded score.

Which assignments: ``COURSEWORK_ASSIGNMENTS`` (``all``, or notebook numbers ``00,05``); by
default one, chosen by the date (so ``make test`` stays within its time budget and every notebook
comes round every twelve days). ``make test-coursework`` (and CI) runs all twelve.
"""

from __future__ import annotations

import datetime
import os
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbgrader",
                    reason="the instructor extra (nbgrader) is not installed: pip install -e '.[instructor]'")

from coursework import course, harness  # noqa: E402
from coursework.nbgrader_plugins import NOTE_HEADING, is_grader_note  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = course.notebooks(ROOT / "notebooks")
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)
RUBRIC = re.compile(r"\*\*Rubric \((\d+(?:\.\d+)?) points?\)\.\*\*")


def selected() -> list[Path]:
    """The notebooks whose assignments this run grades (see the module docstring)."""
    wanted = os.environ.get("COURSEWORK_ASSIGNMENTS", "").strip()
    if wanted == "all":
        return NOTEBOOKS
    if wanted:
        return course.select([w.strip() for w in wanted.split(",") if w.strip()], ROOT / "notebooks")
    day = datetime.date.today().toordinal()
    return [NOTEBOOKS[day % len(NOTEBOOKS)]]


SELECTED = selected()


def _bench(args):
    notebook, root = args
    return notebook.name, harness.run_bench(notebook, root)


@pytest.fixture(scope="module")
def benches(tmp_path_factory):
    jobs = [(p, tmp_path_factory.mktemp(course.assignment_name(p))) for p in SELECTED]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(_bench, jobs))


def _test_cells(path):
    return [c.metadata.nbgrader for c in nbformat.read(path, as_version=4).cells if harness.is_test_cell(c)]


# ---- cheap checks of every notebook (no autograde) ------------------------------------------

@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_tested_code_solution_has_a_bench_entry(path):
    """Strict: a notebook without ``coursework/bench/<stem>.py`` fails (all bench files must be merged)."""
    answers = harness.load_bench(path)
    assert answers is not None, f"no bench file {harness.bench_path(path).relative_to(ROOT)} (see coursework/README.md)"
    nb = nbformat.read(path, as_version=4)
    tested = harness.tested_solutions(nb)
    missing = sorted(set(tested) - set(answers))
    assert not missing, f"{path.name}: tested code solution cells without a bench entry: {missing}"
    solutions = {c.metadata.nbgrader["grade_id"] for c in nb.cells if harness.is_code_solution(c)}
    tests = {c.metadata.nbgrader["grade_id"] for c in nb.cells if harness.is_test_cell(c)}
    for gid, entry in answers.items():
        assert gid in solutions, f"bench entry {gid}: no code solution cell of {path.name} has this grade_id"
        assert set(entry) == {"different", "wrong", "wrong_fails", "why"}, f"bench entry {gid}: keys {sorted(entry)}"
        assert entry["wrong_fails"] and set(entry["wrong_fails"]) <= tests, (
            f"bench entry {gid}: wrong_fails must name test cells of {path.name}, got {entry['wrong_fails']}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_written_answer_has_a_rubric_worth_its_points(path):
    for cell in nbformat.read(path, as_version=4).cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "markdown" and meta.get("solution") and meta.get("grade"):
            found = RUBRIC.findall(cell.source)
            assert len(found) == 1, f"{meta['grade_id']}: needs one '**Rubric (P points).**' paragraph"
            assert float(found[0]) == float(meta["points"]), (
                f"{meta['grade_id']}: the rubric says {found[0]} points, the cell is worth {meta['points']}")


# ---- the bench: real nbgrader autograde ------------------------------------------------------

@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_blank_scores_zero_on_every_test_cell(benches, path):
    scores = benches[path.name]["students"]["blank"]["scores"]
    tests = _test_cells(path)
    assert tests, f"{path.name} has no autograded test cell"
    passing = [t["grade_id"] for t in tests if scores[t["grade_id"]][0] != 0]
    assert not passing, f"{path.name}: these test cells give points to nbgrader's empty stub: {passing}"


@pytest.mark.parametrize("student", ["perfect", "different"])
@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_correct_answers_score_full_marks(benches, path, student):
    result = benches[path.name]
    if student == "different":
        assert result["bench"] is not None, f"no bench file for {path.name}"
    scores = result["students"][student]["scores"]
    short = {t["grade_id"]: scores[t["grade_id"]] for t in _test_cells(path)
             if scores[t["grade_id"]][0] != scores[t["grade_id"]][1]}
    assert not short, f"{path.name}, student {student}: test cells below full marks (score, max): {short}"


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_wrong_answers_score_zero_even_with_a_tampered_test(benches, path):
    result = benches[path.name]
    assert result["bench"] is not None, f"no bench file for {path.name}"
    scores = result["students"]["wrong"]["scores"]
    must_fail = sorted({t for e in result["bench"].values() for t in e["wrong_fails"]})
    passing = [gid for gid in must_fail if scores[gid][0] != 0]
    assert not passing, f"{path.name}: the bench's wrong answers get points on {passing}"
    tampered = result["tampered"]
    assert tampered in must_fail
    log = result["students"]["wrong"]["log"]
    warned = re.findall(r"Attribute 'checksum' for cell (\S+) has changed", log)
    assert warned == [tampered], f"checksum warnings {warned}, expected exactly one, for {tampered}"


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_untouched_submissions_give_no_checksum_warning(benches, path):
    for student, run in benches[path.name]["students"].items():
        if student != "wrong":
            assert "checksum" not in run["log"].lower(), f"{path.name}, {student}: {run['log']}"


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_feedback_hides_hidden_tests_and_grader_notes(benches, path):
    source = nbformat.read(path, as_version=4)
    hidden = {line.strip() for c in source.cells if harness.is_test_cell(c) for block in HIDDEN.findall(c.source)
              for line in block.splitlines() if len(line.strip()) >= 12}
    for student, run in benches[path.name]["students"].items():
        text = run["feedback"]
        lines = {line.strip() for line in text.splitlines()}
        # the student's own cells are shown back to them, and a correct answer may hold a line
        # that a hidden test also has (`def _predict(self, i, j, path):`): that is no leak
        own = {line.strip() for c in run["autograded"].cells if not harness.is_test_cell(c)
               for line in c.source.splitlines()}
        leaked = sorted((hidden & lines) - own)
        assert not leaked, f"{path.name}, feedback of {student} shows hidden test lines: {leaked[:3]}"
        assert "HIDDEN TESTS" not in text and NOTE_HEADING.split("**")[1] not in text
        assert "Rubric (" not in text, f"{path.name}, feedback of {student} shows a rubric"


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_failing_tests_show_their_message_in_the_feedback(benches, path):
    result = benches[path.name]
    assert result["bench"] is not None, f"no bench file for {path.name}"
    run = result["students"]["wrong"]
    must_fail = {t for e in result["bench"].values() for t in e["wrong_fails"]}
    for cell in run["autograded"].cells:
        if harness.is_test_cell(cell) and cell.metadata.nbgrader["grade_id"] in must_fail:
            errors = [o for o in cell.outputs if o.output_type == "error"]
            assert errors, f"{cell.metadata.nbgrader['grade_id']} did not fail"
            message = errors[0].evalue.strip().splitlines()[0] if errors[0].evalue.strip() else ""
            assert message, (f"{path.name}: {cell.metadata.nbgrader['grade_id']} fails for the wrong answer with a "
                             f"bare {errors[0].ename}: give every assert a message in words")
            assert f"{errors[0].ename}: {message}" in run["feedback"]


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_grader_sees_model_answer_and_rubric_under_each_written_answer(benches, path):
    source = {c.metadata.nbgrader["grade_id"]: c.source for c in nbformat.read(path, as_version=4).cells
              if c.metadata.get("nbgrader", {}).get("solution") and c.metadata.nbgrader.get("grade")}
    cells = benches[path.name]["students"]["perfect"]["autograded"].cells
    notes = {}
    for before, cell in zip(cells, cells[1:], strict=False):
        if is_grader_note(cell):
            notes[before.metadata.nbgrader["grade_id"]] = cell
            assert cell.metadata.get("editable") is False
    assert set(notes) == set(source), f"grader notes under {sorted(notes)}, written answers {sorted(source)}"
    for gid, note in notes.items():
        assert source[gid].strip() in note.source


@pytest.mark.parametrize("path", SELECTED[:1], ids=lambda p: p.stem)
def test_formgrader_page_shows_the_grader_notes(benches, path):
    """The page formgrader serves for a submission (its own HTMLExporter template) shows the notes."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    result = benches[path.name]
    resources = {"assignment_id": result["assignment"], "notebook_id": path.stem, "submission_id": "s", "index": 0,
                 "total": 1, "base_url": "", "student": "perfect", "last_name": None, "first_name": None,
                 "notebook_path": "p"}
    page, _ = HTMLExporter(config=config).from_notebook_node(result["students"]["perfect"]["autograded"],
                                                             resources=resources)
    text = harness.html_text(page)
    answers = [c for c in nbformat.read(path, as_version=4).cells
               if c.metadata.get("nbgrader", {}).get("solution") and c.metadata.nbgrader.get("grade")]
    assert text.count(NOTE_HEADING.split("**")[1]) == len(answers)
    assert text.count("Rubric (") >= len(answers)


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.stem)
def test_grades_export_has_a_row_per_student(benches, path):
    result = benches[path.name]
    rows = {r["student_id"]: r for r in result["grades_csv"] if r["assignment"] == result["assignment"]}
    assert set(rows) == set(result["students"])
    for student, run in result["students"].items():
        auto = sum(score or 0 for gid, (score, _) in run["scores"].items())
        assert float(rows[student]["score"]) == pytest.approx(auto)
    assert float(rows["blank"]["score"]) == 0


@pytest.mark.parametrize("path", SELECTED[:1], ids=lambda p: p.stem)
def test_regenerating_works_when_submissions_exist(benches, path):
    from nbgrader.api import Gradebook

    root = benches[path.name]["root"]
    (release,) = course.generate(root, [path.stem])
    assert (release / path.name).exists()
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        submissions = gb.find_assignment(benches[path.name]["assignment"]).submissions
        assert len(submissions) == len(benches[path.name]["students"])
