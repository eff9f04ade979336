"""Build the student release of every notebook with nbgrader (``make assignments``).

The notebooks in ``notebooks/`` are the instructor version: every exercise carries its worked
solution in nbgrader's format (``### BEGIN SOLUTION`` … ``### END SOLUTION`` code cells,
``**Solution.**`` markdown answer cells, autograded test cells with ``### BEGIN HIDDEN TESTS``).
This script lays out an nbgrader course directory in the git-ignored ``build/nbgrader`` folder::

    build/nbgrader/
        nbgrader_config.py
        source/simpred_lite/NN_*.ipynb     copies of notebooks/*.ipynb
        release/simpred_lite/NN_*.ipynb    written by ``nbgrader generate_assignment``

and runs ``nbgrader generate_assignment simpred_lite --no-db --force`` on it. nbgrader replaces
the solutions by its stubs (``raise NotImplementedError()`` / "YOUR ANSWER HERE"), removes the
hidden tests, keeps the visible autograder tests, locks the test cells and clears all outputs.
Afterwards the solution cells of the release are un-collapsed and the execution timestamps
of the instructor run are dropped (the instructor notebooks keep
them collapsed so that a reader does not see a solution by accident; a student must see the
stub to fill it in).

The same course directory is the one to use for ``nbgrader collect`` / ``autograde`` /
``generate_feedback`` (see the README, "For instructors").

Usage
-----
``python scripts/build_assignments.py [--root build/nbgrader] [--notebooks notebooks]``; prints the release folder.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "simpred_lite"
DEFAULT_COURSE = ROOT / "build" / "nbgrader"
CONFIG = '''\
# Written by scripts/build_assignments.py: the course directory of the simpred_lite release.
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "simpred_lite"
c.CourseDirectory.root = {root!r}
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
'''


def build(course: Path = DEFAULT_COURSE, notebooks: Path = ROOT / "notebooks") -> Path:
    """Write the student release of ``notebooks/*.ipynb`` and return its folder.

    Parameters
    ----------
    course : Path
        nbgrader course directory (created; its ``source`` and ``release`` folders are rebuilt).
    notebooks : Path
        Folder of the instructor notebooks.

    Returns
    -------
    Path
        ``course / "release" / "simpred_lite"``, holding one student notebook per source notebook.

    Raises
    ------
    FileNotFoundError
        If ``notebooks`` holds no ``*.ipynb`` file.
    subprocess.CalledProcessError
        If nbgrader rejects a notebook (e.g. a duplicate ``grade_id``, a solution delimiter
        outside a solution cell); its log says which.
    """
    course = course.resolve()
    sources = sorted(notebooks.glob("*.ipynb"))
    if not sources:
        raise FileNotFoundError(f"no notebooks in {notebooks}")
    source_dir = course / "source" / ASSIGNMENT
    release_dir = course / "release" / ASSIGNMENT
    for d in (source_dir, release_dir):
        shutil.rmtree(d, ignore_errors=True)
    source_dir.mkdir(parents=True)
    for path in sources:
        shutil.copy2(path, source_dir / path.name)
    (course / "nbgrader_config.py").write_text(CONFIG.format(root=str(course)))
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--no-db", "--force",
         f"--CourseDirectory.root={course}", "--log-level=WARN"],
        cwd=course, check=True,
    )
    for path in sorted(release_dir.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            cell.metadata.pop("execution", None)   # the instructor run's timestamps
            if cell.metadata.get("nbgrader", {}).get("solution"):
                cell.metadata.get("jupyter", {}).pop("source_hidden", None)
                if not cell.metadata.get("jupyter", {}):
                    cell.metadata.pop("jupyter", None)
        nbformat.write(nb, path)
    return release_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=DEFAULT_COURSE, help="nbgrader course directory")
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks", help="instructor notebooks")
    args = parser.parse_args(argv)
    release = build(args.root, args.notebooks)
    print(f"student release: {release} ({len(list(release.glob('*.ipynb')))} notebooks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
