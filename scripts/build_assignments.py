"""Generate the nbgrader course release of the notebooks (the first half of ``make assignments``).

Since the course became one nbgrader assignment per notebook, this is a thin wrapper around
``coursework.course.generate``: for each ``notebooks/NN_x.ipynb`` it writes
``<root>/source/psNN_x/NN_x.ipynb`` and runs ``nbgrader generate_assignment psNN_x --force``
**with** the gradebook (``<root>/gradebook.db``), so that ``nbgrader autograde psNN_x`` works
afterwards. The whole cycle (release, collect, autograde, feedback, grades) is
``scripts/course.py``; see the README, "For instructors".

Usage
-----
``python scripts/build_assignments.py [--root build/nbgrader] [--notebooks notebooks] [NN ...]``;
prints the release folders.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from coursework import course  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", help="notebook numbers/stems/assignment names (default: all)")
    parser.add_argument("--root", type=Path, default=course.DEFAULT_COURSE, help="nbgrader course directory")
    parser.add_argument("--notebooks", type=Path, default=course.ROOT / "notebooks", help="instructor notebooks")
    args = parser.parse_args(argv)
    for folder in course.generate(args.root.resolve(), args.assignments, args.notebooks):
        print(f"released {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
