"""Insert the "your data" explorer into notebook 11: ``python nb11_cells.py notebooks/11_real_graphs.ipynb``.

Adds a new last section — a markdown intro, the widget cell (with the "model not found" note of
notebooks 01–05) and a cell that drives a copy with printed facts — before the first "Summary"
or "Exercises" section if there is one, else at the end.  The section is numbered after the
last numbered section before it (``## N. ...``).  Running it twice changes nothing.  The
notebook must then be re-executed (``python scripts/run_notebooks.py <path>``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

MARK = "Explore: your data"

NOTE = ('# If a widget below shows "Error displaying widget: model not found", the notebook was reopened\n'
        '# without its kernel state: run all cells again (Run → Run All Cells).\n')

INTRO = """## {number}Explore: your data

The explorer below runs `evaluate` on the data set of your choice: a bundled data set (for the
kNN ones, `k` sets the neighbours of each point), the learners (Ctrl/Shift-click for several), the
kind of trials (*random*, *cut-biased*, *adaptive*: the same names as everywhere), `T` and a seed.
**Run** plays every learner on one trial sequence — the same trials, learner seeds and bounds as
`evaluate(learners, data_set, trials=..., T=..., seed=...)` — with a progress bar while it runs,
then shows the mistake curves (each bound dashed) and the table. A choice that would take long is
refused with a sentence before anything runs (`T` above 5000, more than 20 000 trials over all
learners, or *Similarity from class*, whose pool of hallucinated histories grows with its mistakes,
on more than 40 vertices or 300 trials).

Try: iris with `k` = 2, 10 and 30 — how do the cut and the graph learners' mistakes move? Then
southern women, where every edge joins the two classes."""

WIDGET = NOTE + """from simpred_lite.apps import YourDataExplorer

data_app = YourDataExplorer()
data_app"""

DRIVE_INTRO = """The cell below drives a copy of the explorer (the one above stays for you): three learners on
the karate club, 300 random trials from seed 0, then a choice the explorer refuses."""

DRIVE = """chosen = ["UnionFindLearner", "Matrix Perceptron", "Matrix Winnow"]
demo_data = YourDataExplorer("karate club", learners=chosen, T=300, seed=0)
demo_data.run_button.click()
print(demo_data.evaluation)
print("same as evaluate:", demo_data.evaluation.mistakes == evaluate(chosen, "karate club", T=300, seed=0).mistakes)
demo_data.dataset.value = "digits"
demo_data.learners.value = ("Similarity from class",)
demo_data.run_button.click()
print(demo_data.status_text)"""

DRIVE_IMPORT = "from simpred_lite.game import evaluate\n\n"


def _is_heading(cell, words) -> bool:
    if cell.cell_type != "markdown":
        return False
    first = cell.source.lstrip().splitlines()[0] if cell.source.strip() else ""
    return first.startswith("## ") and any(w in first.lower() for w in words)


def cells(number: str = "") -> list:
    """The cells to insert (``number`` is the section prefix, e.g. ``"4. "``)."""
    return [new_markdown_cell(INTRO.format(number=number)), new_code_cell(WIDGET),
            new_markdown_cell(DRIVE_INTRO), new_code_cell(DRIVE_IMPORT + DRIVE)]


def insert(path: str | Path) -> bool:
    """Insert the section into the notebook at ``path``; False if it is there already."""
    nb = nbformat.read(path, as_version=4)
    if any(c.cell_type == "markdown" and MARK in c.source for c in nb.cells):
        return False
    at = next((k for k, c in enumerate(nb.cells) if _is_heading(c, ("summary", "exercises"))), len(nb.cells))
    numbers = [int(m.group(1)) for c in nb.cells[:at] if c.cell_type == "markdown"
               for m in [re.match(r"\s*##\s+(\d+)\.", c.source)] if m]
    number = f"{max(numbers) + 1}. " if numbers else ""
    nb.cells[at:at] = cells(number)
    nbformat.write(nb, path)
    return True


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python nb11_cells.py notebooks/11_real_graphs.ipynb")
    print("inserted" if insert(sys.argv[1]) else "already there: nothing changed")
