"""The nbgrader course of simpred_lite from the command line (the Makefile's coursework targets).

Usage: ``python scripts/course.py COMMAND [--root build/nbgrader] [ASSIGNMENT ...]``; an
assignment is named by its notebook number (``00``), stem or assignment name (``ps00_...``);
none means all twelve. Commands (see coursework/course.py and the README, "For instructors"):

    assignments   nbgrader generate_assignment for each notebook (source/ and release/, gradebook)
    release       nbgrader release_assignment to the course's exchange (build/nbgrader/exchange)
    collect       nbgrader collect from the exchange into submitted/
    autograde     nbgrader autograde --force every submission in submitted/
    feedback      nbgrader generate_feedback --force (HTML in feedback/)
    grades        nbgrader export to build/nbgrader/grades.csv
    student       the student handout (release notebooks, no solutions) in build/student
    solutions     the worked solutions (instructor notebooks) in build/solutions
    clean         delete gradebook, submissions, autograded, feedback, exchange (keeps source/release)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from coursework import course  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("command", choices=["assignments", "release", "collect", "autograde", "feedback", "grades",
                                            "student", "solutions", "clean"])
    parser.add_argument("assignments", nargs="*", help="notebook numbers/stems/assignment names (default: all)")
    parser.add_argument("--root", type=Path, default=course.DEFAULT_COURSE, help="nbgrader course directory")
    parser.add_argument("--to", type=Path, help="output folder (student, solutions) or CSV file (grades)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.command == "assignments":
        for folder in course.generate(root, args.assignments):
            print(f"released {folder}")
            for path in folder.glob("*.ipynb"):
                for claim in course.claims_solutions(path):
                    print(f"WARNING: {path.name} says {claim!r}, which is false in the release", file=sys.stderr)
    elif args.command == "student":
        print(f"student handout: {course.student_handout(args.to or course.ROOT / 'build' / 'student', root)}")
    elif args.command == "solutions":
        print(f"worked solutions: {course.solutions(args.to or course.ROOT / 'build' / 'solutions')}")
    elif args.command == "grades":
        print(f"grades: {course.export_grades(root, args.to)}")
    elif args.command == "clean":
        course.clean(root)
        print(f"removed the gradebook, submissions and grades of {root}; run `make assignments` next")
    else:
        logs = getattr(course, args.command)(root, args.assignments)
        for log in logs:
            sys.stderr.write(log)
        print(f"{args.command}: {len(logs)} assignment(s) done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
