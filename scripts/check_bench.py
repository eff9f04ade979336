"""Check an exercise bench file quickly: do its answers pass / fail the notebook's test cells?

Usage (from the root of a checkout, with that checkout on ``PYTHONPATH``)::

    python scripts/check_bench.py notebooks/01_effective_resistance.ipynb [more notebooks ...]
    python /path/to/other/checkout/scripts/check_bench.py notebooks/01_effective_resistance.ipynb

For each notebook ``notebooks/<stem>.ipynb`` the bench file is ``coursework/bench/<stem>.py``,
looked up **relative to the current directory** first (so that a helper running this script
from another checkout checks their own bench file), then next to this script's checkout. The
bench format is described in ``coursework/README.md``: a dict ``ANSWERS`` mapping the
``grade_id`` of each code solution cell to ``{"different": src, "wrong": src, "wrong_fails":
[test grade_ids], "why": text}``.

What it does, without nbgrader (only nbformat + nbclient, in the project's venv):

1. checks the bench file's shape: every code solution cell followed by a test cell has an entry,
   every entry names an existing solution cell, has the four keys, and ``wrong_fails`` lists
   existing test cells (at least one);
2. executes a copy of the instructor notebook with **every** solution cell replaced by its
   ``different`` source (all at once, as the nbgrader bench does), up to the last test cell,
   with ``allow_errors=True``, in a fresh ``python3`` kernel whose working directory is the
   notebook's folder; and the same with every ``wrong`` source;
3. prints, per test cell, whether it passed or raised with each variant, and a verdict: with
   ``different`` every test cell must pass; with ``wrong`` every cell of a ``wrong_fails`` list
   must raise. For a raising cell it prints the exception's last line (the assert message).

Exit status 0 when every check holds, 1 otherwise. This is a quick check: the real check is
``make test-coursework`` (real ``nbgrader autograde`` on the released notebook, where hidden
tests are restored from the gradebook and the points are read back).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

# the cell kinds as the nbgrader bench sees them (this checkout's coursework/, whatever PYTHONPATH says)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from coursework.harness import is_code_solution, is_test_cell, tested_solutions  # noqa: E402

VARIANTS = ("different", "wrong")
KEYS = {"different", "wrong", "wrong_fails", "why"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def find_bench(notebook: Path) -> Path | None:
    """``coursework/bench/<stem>.py`` under the current directory, else next to this script."""
    for base in (Path.cwd(), Path(__file__).resolve().parents[1]):
        path = base / "coursework" / "bench" / f"{notebook.stem}.py"
        if path.exists():
            return path
    return None


def load_answers(path: Path) -> dict:
    """The ``ANSWERS`` dict of a bench file (loaded from its path, not imported as a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    answers = getattr(module, "ANSWERS", None)
    if not isinstance(answers, dict):
        raise TypeError(f"{path}: defines no dict ANSWERS (see coursework/README.md)")
    return answers


def shape_problems(nb, answers: dict) -> list[str]:
    """What is wrong with the bench file's shape for notebook ``nb`` (empty list: nothing)."""
    problems = []
    solutions = {_meta(c)["grade_id"] for c in nb.cells if is_code_solution(c)}
    tests = {_meta(c)["grade_id"] for c in nb.cells if is_test_cell(c)}
    for gid in tested_solutions(nb):
        if gid not in answers:
            problems.append(f"no bench entry for the tested solution cell {gid}")
    for gid, entry in answers.items():
        if gid not in solutions:
            problems.append(f"bench entry {gid}: no code solution cell has this grade_id")
            continue
        if not isinstance(entry, dict) or set(entry) != KEYS:
            got = sorted(entry) if isinstance(entry, dict) else type(entry).__name__
            problems.append(f"bench entry {gid}: keys must be {sorted(KEYS)}, got {got}")
            continue
        for key in VARIANTS:
            if not isinstance(entry[key], str) or not entry[key].strip():
                problems.append(f"bench entry {gid}: {key!r} must be the non-empty source of the cell")
        fails = entry["wrong_fails"]
        if not isinstance(fails, list | tuple) or not fails:
            problems.append(f"bench entry {gid}: 'wrong_fails' must list at least one test cell")
        else:
            problems += [f"bench entry {gid}: wrong_fails names {t!r}, which is not a test cell"
                         for t in fails if t not in tests]
    return problems


def substitute(nb, answers: dict, variant: str):
    """A copy of ``nb`` with every code solution cell of ``answers`` replaced by ``variant``."""
    nb = nbformat.from_dict(nb)  # deep copy
    for cell in nb.cells:
        entry = answers.get(_meta(cell).get("grade_id")) if is_code_solution(cell) else None
        if isinstance(entry, dict) and isinstance(entry.get(variant), str):
            cell.source = entry[variant]
    return nb


def run_tests(nb, cwd: Path, timeout: int = 900) -> dict[str, str | None]:
    """Execute ``nb`` up to its last test cell; map each test grade_id to None (passed) or the error.

    A code solution cell that raises is in the map too, with its error.
    """
    last = max((k for k, c in enumerate(nb.cells) if is_test_cell(c)), default=-1)
    nb = nbformat.from_dict(nb)
    nb.cells = nb.cells[: last + 1]
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    result = {}
    for cell in nb.cells:
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if is_test_cell(cell) or (is_code_solution(cell) and errors):
            result[_meta(cell)["grade_id"]] = describe(errors[0]) if errors else None
    return result


def describe(error) -> str:
    """One line for an error output: the exception and its message, else the line that raised."""
    text = f"{error['ename']}: {error['evalue']}".strip()
    if error["evalue"].strip():
        return text
    lines = [ANSI.sub("", line) for block in error.get("traceback", []) for line in block.splitlines()]
    arrows = [line.split("---->", 1)[1].strip() for line in lines if "---->" in line]
    return f"{text} (no message) at: {arrows[-1]}" if arrows else f"{text} (no message)"


def check_notebook(path: Path, timeout: int = 900) -> bool:
    """Print the bench check of one notebook; return whether everything holds."""
    print(f"== {path}")
    bench = find_bench(path)
    if bench is None:
        print(f"   PROBLEM: no bench file coursework/bench/{path.stem}.py (under {Path.cwd()})")
        return False
    print(f"   bench file: {bench}")
    nb = nbformat.read(path, as_version=4)
    answers = load_answers(bench)
    problems = shape_problems(nb, answers)
    for p in problems:
        print(f"   PROBLEM: {p}")
    runs = {v: run_tests(substitute(nb, answers, v), path.parent.resolve(), timeout) for v in VARIANTS}
    must_fail = {t for e in answers.values() if isinstance(e, dict) for t in e.get("wrong_fails", ())}
    ok = not problems
    for variant, run in runs.items():
        for gid in [g for g in run if g in answers]:   # a solution cell that raised
            print(f"   note: the {variant!r} source of {gid} itself raises: {run.pop(gid)}"[:400])
            if variant == "different":
                ok = False
                print("   PROBLEM: a correct answer must run without error")
    for gid in runs["different"]:
        diff, wrong = runs["different"][gid], runs["wrong"][gid]
        verdict = []
        if diff is not None:
            verdict.append("PROBLEM: a correct answer ('different') fails")
        if gid in must_fail and wrong is None:
            verdict.append("PROBLEM: the 'wrong' answer passes a wrong_fails cell")
        ok &= not verdict
        expect = "must fail" if gid in must_fail else "may pass"
        print(f"   {gid:<16} different: {'pass' if diff is None else 'FAIL'}   "
              f"wrong: {'pass' if wrong is None else 'FAIL'} ({expect})   {'; '.join(verdict) or 'ok'}")
        for name, err in (("different", diff), ("wrong", wrong)):
            if err is not None:
                print(f"       {name}: {err}"[:400])
    print(f"   {'OK' if ok else 'PROBLEMS FOUND'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path, help="instructor notebooks (notebooks/NN_x.ipynb)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per cell (default 900)")
    args = parser.parse_args(argv)
    results = [check_notebook(p, args.timeout) for p in args.notebooks]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
