"""nbgrader preprocessors of the simpred_lite course (configured in the course's nbgrader_config.py).

nbgrader 0.9.6 leaves three things to the course; these preprocessors do them.

``RestoreTestCells`` (autograde, replaces ``OverwriteCells``): a checksum policy that keeps
tampering visible. nbgrader stores in the gradebook the checksum of each test cell *with* its
hidden tests, while the student received the cell *without* them, so stock ``OverwriteCells``
warns "Attribute 'checksum' … has changed!" for every test cell with hidden tests, even on an
untouched submission (nbgrader issue 1961), and a real tampering warning drowns in them. This
subclass first compares the submitted cell with the cell **as released** (the gradebook source
with the hidden-test region removed, as ``ClearHiddenTests`` removes it): if they are equal the
hidden tests are restored silently; otherwise the stock code runs, which warns and overwrites
the cell with the instructor's version (so a tampered test still runs the instructor's tests).

``AddGraderNotes`` (autograde, last): after every manually graded answer cell it inserts a
read-only markdown cell, marked ``metadata.simpred_lite.grader_note``, holding the model answer
and its ``**Rubric (P points).**`` paragraph taken from the assignment's source notebook. The
grader sees it right under the student's answer in formgrader (which renders the autograded
notebook); the student never does (see ``StudentFeedback``).

``StudentFeedback`` (generate_feedback, before the HTML export): removes the grader notes,
removes the hidden-test region from every test cell again (nbgrader's autograde puts it back,
and stock feedback shows it), and replaces the error output of a test cell by one line,
``AssertionError: <the assert's message>``, without the traceback (which quotes the failing
hidden line and so the expected value).
"""

from __future__ import annotations

import copy
import os

import nbformat
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, GetGrades, NbGraderPreprocessor, OverwriteCells

NOTE_KEY = "simpred_lite"
NOTE_HEADING = "**Grader's note** (model answer and rubric; shown to graders only, removed from the feedback)"


def is_grader_note(cell) -> bool:
    """Whether ``cell`` is a grader note inserted by :class:`AddGraderNotes`."""
    return bool(cell.get("metadata", {}).get(NOTE_KEY, {}).get("grader_note"))


def is_test_cell(cell) -> bool:
    """Whether ``cell`` is an autograded test cell (graded code cell that is not a solution)."""
    return cell.cell_type == "code" and utils.is_grade(cell) and not utils.is_solution(cell)


def released_source(source: str) -> str:
    """``source`` with its hidden-test region removed exactly as ``generate_assignment`` removes it."""
    cell = nbformat.v4.new_code_cell(source)
    ClearHiddenTests()._remove_hidden_test_region(cell)
    return cell.source


class RestoreTestCells(OverwriteCells):
    """``OverwriteCells`` that restores the hidden tests of an untouched cell without a warning."""

    def preprocess_cell(self, cell: NotebookNode, resources, cell_index: int):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None and utils.is_locked(cell):
            try:
                source_cell = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except Exception:  # unknown cell: the stock code reports it
                source_cell = None
            if source_cell is not None and source_cell.locked and cell.cell_type == source_cell.cell_type:
                released = copy.deepcopy(cell)
                released.source = released_source(source_cell.source)
                if cell.source == released.source and released.source != source_cell.source:
                    self.log.debug("Restoring the hidden tests of %s (cell untouched)", grade_id)
                    cell.source = source_cell.source
        return super().preprocess_cell(cell, resources, cell_index)


class AddGraderNotes(NbGraderPreprocessor):
    """Insert the model answer and rubric of the source notebook after each manually graded answer."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        coursedir = CourseDirectory(config=self.config)
        path = os.path.join(coursedir.format_path(coursedir.source_directory, ".", info["assignment"]),
                            f"{info['notebook']}.ipynb")
        if not os.path.exists(path):
            self.log.warning("No source notebook %s: no grader notes", path)
            return nb, resources
        source = nbformat.read(path, as_version=4)
        answers = {c.metadata.nbgrader["grade_id"]: c.source for c in source.cells
                   if utils.is_solution(c) and utils.is_grade(c)}
        cells = []
        for cell in nb.cells:
            if is_grader_note(cell):   # never two notes (re-running on an autograded notebook)
                continue
            cells.append(cell)
            meta = cell.metadata.get("nbgrader", {})
            if utils.is_solution(cell) and utils.is_grade(cell) and meta.get("grade_id") in answers:
                note = nbformat.v4.new_markdown_cell(f"{NOTE_HEADING}\n\n{answers[meta['grade_id']]}")
                note.metadata = NotebookNode({NOTE_KEY: {"grader_note": True, "for": meta["grade_id"]},
                                              "editable": False, "deletable": False})
                if nb.get("nbformat_minor", 5) < 5:   # cell ids exist from nbformat 4.5 on
                    note.pop("id", None)
                cells.append(note)
        nb.cells = cells
        return nb, resources


class StudentFeedback(NbGraderPreprocessor):
    """Remove grader notes and hidden tests from the feedback; shorten test errors to their message."""

    # configurable as in GetGrades, the other feedback preprocessor (the feedback app configures it)
    display_data_priority = GetGrades.display_data_priority

    def preprocess(self, nb, resources):
        nb.cells = [c for c in nb.cells if not is_grader_note(c)]
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, cell_index):
        if is_test_cell(cell):
            cell.source = released_source(cell.source)
            outputs = []
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    message = next((line.strip() for line in out.get("evalue", "").splitlines() if line.strip()),
                                   "")
                    text = f"{out['ename']}: {message}" if message else f"{out['ename']} (a test failed)"
                    out = nbformat.v4.new_output("error", ename=out["ename"], evalue=message,
                                                 traceback=[text])
                outputs.append(out)
            cell.outputs = outputs
        return cell, resources
