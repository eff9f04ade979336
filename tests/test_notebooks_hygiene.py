"""Notebook rules that strict nbval cannot see.

nbval compares only cells it executed from a stored ``execution_count``, and compares only
text outputs: an unexecuted notebook "passes" while checking nothing, and a figure cell
that lost its image still passes.  These tests close those gaps.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
MARKER = re.compile(r"^\s*#\s*NBVAL_[A-Z_]+")
ALLOWED_MARKERS = {"NBVAL_IGNORE_OUTPUT", "NBVAL_SKIP", "NBVAL_RAISES_EXCEPTION", "NBVAL_CHECK_OUTPUT"}
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
ABS_PATH = re.compile(r"(?<![\w.:/])/(?:home|root|tmp|work|usr|opt|var|Users)/[\w./-]+")
FIGURE_CALL = re.compile(r"\bplt\.|\.subplots\(|\bplot_\w+\(|\bdraw_\w+\(|\.imshow\(|\.scatter\(")
# The inline backend always stores "<Figure size ...>" as text/plain beside the PNG (sanitized);
# any other object repr means a plotting line forgot its trailing ";".
LEAKED_REPR = re.compile(r"<(matplotlib\.|Axes|networkx\.classes)")


def _load(path):
    return json.loads(path.read_text())


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _texts(output):
    text = output.get("text", "")
    yield "".join(text) if isinstance(text, list) else text
    for mime in ("text/plain", "text/html"):
        data = output.get("data", {}).get(mime, "")
        yield "".join(data) if isinstance(data, list) else data


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found in notebooks/"


def test_notebooks_are_numbered_in_order():
    numbers = [int(p.name[:2]) for p in NOTEBOOKS]
    assert all(re.match(r"^\d\d_[a-z0-9_]+\.ipynb$", p.name) for p in NOTEBOOKS)
    assert numbers == sorted(set(numbers)), "two notebooks share a number"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_was_executed_top_to_bottom(path):
    nb = _load(path)
    assert nb["metadata"].get("kernelspec", {}).get("name") == "python3"
    counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts, "a notebook without code cells checks nothing"
    assert None not in counts, "unexecuted code cells: nbval would compare nothing there; run `make notebooks`"
    assert counts == list(range(1, len(counts) + 1)), "execution counts are not 1..N; re-execute top to bottom"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_clean(path):
    nb = _load(path)
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        ignored = "NBVAL_IGNORE_OUTPUT" in _source(cell) or "NBVAL_SKIP" in _source(cell)
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"cell {k} stores an error ({out.get('ename')})"
            if out.get("name") == "stderr" and not ignored:
                raise AssertionError(f"cell {k} writes to stderr (a warning?): {''.join(out['text'])[:200]}")
            for text in _texts(out):
                assert not ADDRESS.search(text), f"cell {k} output holds a memory address"
                assert not ABS_PATH.search(text), f"cell {k} output holds an absolute path"
                assert not LEAKED_REPR.search(text), f"cell {k} leaks an object repr; end the line with ';'"


# Printed floats that another CPU prints differently (issue: a BLAS kernel with other SIMD widths
# rounds sums in another order). Residuals at machine precision must be printed as bounds
# ("< 1e-12", a pass/fail with its tolerance) and results with the digits the computation
# guarantees. Two patterns catch what has slipped through before:
# * a number at 1e-13 or below in scientific notation (a residual's rounding noise), unless it
#   is itself a bound ("< 1e-14", "≤ 1e-15");
# * a decimal number with 12 or more significant digits (a float printed by repr: its last
#   digits are the kernel's, e.g. a bound 69894.19268855629 vs ...716).
TINY_SCIENTIFIC = re.compile(r"(?<![\w.<≤])(?<!< )(?<!≤ )-?\d(?:\.\d+)?[eE]-(?:1[3-9]|[2-9]\d|\d{3})\b")
DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+")
MAX_SIGNIFICANT_DIGITS = 11


def _significant_digits(number: str) -> int:
    return len(number.lstrip("-").replace(".", "").lstrip("0"))


def rounding_noise(text: str) -> list[str]:
    """The printed numbers in ``text`` that carry rounding noise (see the patterns above)."""
    found = [m.group(0) for m in TINY_SCIENTIFIC.finditer(text)]
    found += [m.group(0) for m in DECIMAL.finditer(text) if _significant_digits(m.group(0)) > MAX_SIGNIFICANT_DIGITS]
    return found


def test_rounding_noise_detector_can_fail():
    assert rounding_noise("max |gap| = 1.2e-16") == ["1.2e-16"]
    assert rounding_noise("bound 69894.19268855629") == ["69894.19268855629"]
    assert rounding_noise("residual < 1e-14, bound 69894.19, p = 0.05, 3e-05, 1.5e-12") == []


@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "app" / "playground.ipynb"], ids=lambda p: p.name)
def test_no_printed_rounding_noise(path):
    nb = _load(path)
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    problems = []
    for k, cell in enumerate(code_cells):
        for output in cell.get("outputs", []):
            for text in _texts(output):
                problems += [f"nbval's Cell {k}: prints {hit}" for hit in rounding_noise(text)]
    assert not problems, (
        f"{path.name} prints floats whose last digits depend on the CPU's BLAS kernel: {problems}. "
        "Print residuals as bounds ('< 1e-12') and results rounded to the digits they are known to."
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_structure_title_goals_exercises(path):
    nb = _load(path)
    cells = nb["cells"]
    assert cells[0]["cell_type"] == "markdown" and _source(cells[0]).lstrip().startswith("# "), "first cell must be a '# Title'"
    markdown = "\n".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    assert re.search(r"(?im)^#+\s*learning goals", markdown), "no 'Learning goals' section"
    assert re.search(r"(?im)^#+\s*exercises", markdown), "no 'Exercises' section"
    first_code = next(c for c in cells if c["cell_type"] == "code")
    assert "%matplotlib inline" in _source(first_code), "the first code cell must set %matplotlib inline"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_figure_cells_hold_images(path):
    nb = _load(path)
    images = 0
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        has_png = any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))
        images += has_png
        if FIGURE_CALL.search(_source(cell)) and "NBVAL_SKIP" not in _source(cell):
            assert has_png, f"cell {k} draws a figure but stores no image/png output"
    assert images >= 1, "every notebook has at least one figure"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_nbval_markers_stand_alone(path):
    nb = _load(path)
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for line in _source(cell).splitlines():
            if MARKER.match(line):
                assert line.strip().lstrip("#").strip() in ALLOWED_MARKERS, (
                    f"marker line {line.strip()!r} has extra text, so nbval silently ignores it"
                )


def test_readme_lists_every_notebook():
    readme = (ROOT / "README.md").read_text()
    for path in NOTEBOOKS:
        assert path.name in readme, f"README does not list {path.name}"


# --- Coursework (nbgrader): every exercise has a worked solution in nbgrader's format -------------
EXERCISE = re.compile(r"^###\s+Exercise\s+(\d+)\s+\((★{1,3})\)\s+—\s+\S")


def _nbgrader(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_exercise_has_an_nbgrader_solution(path):
    cells = _load(path)["cells"]
    start = next(k for k, c in enumerate(cells) if c["cell_type"] == "markdown"
                 and re.match(r"^##\s+Exercises", _source(c).lstrip()))
    headings = [k for k, c in enumerate(cells) if c["cell_type"] == "markdown" and EXERCISE.match(_source(c).lstrip())]
    assert len(headings) >= 4, "at least four exercises, as '### Exercise k (★..★★★) — title'"
    assert all(k > start for k in headings), "exercises belong under '## Exercises'"
    numbers = [int(EXERCISE.match(_source(cells[k]).lstrip()).group(1)) for k in headings]
    assert numbers == list(range(1, len(numbers) + 1)), f"exercises are not numbered 1..k: {numbers}"
    stars = {len(EXERCISE.match(_source(cells[k]).lstrip()).group(2)) for k in headings}
    assert {1, 3} <= stars, "exercises are graded from ★ to ★★★"
    for a, b in zip(headings, headings[1:] + [len(cells)]):
        block = cells[a + 1:b]
        assert any(_nbgrader(c).get("solution") for c in block), (
            f"{_source(cells[a]).splitlines()[0]!r} has no nbgrader solution cell")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_nbgrader_cells_follow_the_conventions(path):
    for k, cell in enumerate(_load(path)["cells"]):
        meta, src = _nbgrader(cell), _source(cell)
        if ("### BEGIN SOLUTION" in src or "BEGIN HIDDEN TESTS" in src) and not meta:
            raise AssertionError(f"cell {k}: solution/hidden-test delimiters outside an nbgrader cell")
        if not meta:
            continue
        gid = meta.get("grade_id", "")
        assert re.fullmatch(rf"{path.name[:2]}-ex\d+[a-z]?-(code|tests|answer)", gid), f"cell {k}: grade_id {gid!r}"
        assert meta.get("schema_version") == 3
        if meta.get("solution"):
            assert cell.get("metadata", {}).get("jupyter", {}).get("source_hidden") is True, (
                f"cell {k} ({gid}): solution cells are collapsed (metadata jupyter.source_hidden)")
            if cell["cell_type"] == "code":
                assert src.startswith("### BEGIN SOLUTION") and src.rstrip().endswith("### END SOLUTION")
                assert not meta.get("grade") and gid.endswith("-code")
            else:
                assert src.lstrip().startswith("**Solution.**") and meta.get("grade") and gid.endswith("-answer")
                assert meta.get("points", 0) > 0
        elif meta.get("grade"):
            assert cell["cell_type"] == "code" and meta.get("locked") and meta.get("points", 0) > 0
            assert gid.endswith("-tests") and "assert" in src and "### BEGIN SOLUTION" not in src
        if "### BEGIN SOLUTION" in src:
            assert meta.get("solution") and cell["cell_type"] == "code", f"cell {k}: solution text outside a solution cell"


def test_grade_ids_are_unique_across_the_suite():
    seen = {}
    for path in NOTEBOOKS:
        for cell in _load(path)["cells"]:
            gid = _nbgrader(cell).get("grade_id")
            if gid:
                assert gid not in seen, f"grade_id {gid!r} in {path.name} and {seen[gid]}"
                seen[gid] = path.name


def _python(code: str) -> str:
    """A cell's source without its IPython magics, so that ``ast`` can read it."""
    magic = re.compile(r"^\s*(%|!(?!=))")  # `%matplotlib`, `!pip`; not a continued `!= ...`
    return "\n".join("" if magic.match(line) else line for line in code.splitlines())


def _assigned_names(code: str) -> set[str]:
    import ast

    names = set()
    for node in ast.walk(ast.parse(_python(code))):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _loaded_names(code: str) -> set[str]:
    import ast

    return {n.id for n in ast.walk(ast.parse(_python(code))) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_tests_use_only_names_the_exercise_asks_for(path):
    # A test cell may read what the notebook defines outside the solutions, what the exercise
    # statement names (in backticks), and its own names. A name that only the worked solution
    # defines (a helper variable like `Gd`) fails a correct answer that chose another name.
    cells = _load(path)["cells"]

    def meta(c):
        return c.get("metadata", {}).get("nbgrader", {})

    def is_test(c):
        return c["cell_type"] == "code" and meta(c).get("grade") and not meta(c).get("solution")

    body = set()
    for c in cells:
        if c["cell_type"] == "code" and not meta(c).get("solution") and not is_test(c):
            body |= _assigned_names(_source(c))
    problems = []
    for c in cells:
        if not is_test(c):
            continue
        solution_id = meta(c)["grade_id"].replace("-tests", "-code")
        solutions = [k for k, s in enumerate(cells) if meta(s).get("grade_id") == solution_id]
        if not solutions:
            continue
        k = solutions[0] - 1
        statement = ""
        while k >= 0 and cells[k]["cell_type"] == "markdown":
            statement = _source(cells[k]) + "\n" + statement
            if _source(cells[k]).lstrip().startswith("#"):
                break
            k -= 1
        named = set()
        for quoted in re.findall(r"`([^`]+)`", statement):
            named |= set(re.findall(r"[A-Za-z_]\w*", quoted))
        solution_only = _assigned_names(_source(cells[solutions[0]])) - body - named
        used = (_loaded_names(_source(c)) - _assigned_names(_source(c))) & solution_only
        if used:
            problems.append(f"{meta(c)['grade_id']} reads {sorted(used)}, which only the worked solution defines")
    assert not problems, f"{path.name}: {problems}; build them in the test (as _private names) or name them in the exercise"


# The paper's LaTeX labels (``prop:percwin``, ``t:unknown``, ``a:2`` …) mean nothing to a reader of
# the printed paper; the notebooks cite printed numbers only.  Notebook 00's concordance table
# ("Reading the paper alongside") is the one place that pairs each printed number with its label.
LATEX_LABEL = re.compile(r"(?<![\w/\\])(?:thm|lem|l|t|prop|p|def|a|f|fig|cor|claim|e|eq|s|sec|alg|app):[A-Za-z][\w-]*")
CONCORDANCE_HEADING = "Reading the paper alongside"


def test_latex_label_detector_can_fail():
    assert LATEX_LABEL.search("Proposition 2 (prop:percwin)") and LATEX_LABEL.search("(`e:separ`)")
    assert not LATEX_LABEL.search("ratio: 2.0, https://example.org, time: 3 s, `np.linalg:` x")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_prose_cites_printed_numbers_not_latex_labels(path):
    found = [(index, match.group())
             for index, cell in enumerate(_load(path)["cells"])
             if cell["cell_type"] == "markdown" and CONCORDANCE_HEADING not in _source(cell)
             for match in LATEX_LABEL.finditer(_source(cell))]
    assert not found, f"{path.name}: LaTeX label names in the prose (cell, label): {found}; cite the printed number"
