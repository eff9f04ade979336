"""Print the share of public functions of ``simpred_lite/`` that are fully annotated (ast-based).

A function is *public* when its name and every enclosing class name have no leading
underscore (dunder methods other than ``__init__`` are skipped); it is *fully annotated* when
every parameter except ``self``/``cls`` has an annotation and it has a return annotation
(``__init__`` needs none).  Usage: ``python scripts/annotation_coverage.py [--list]``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "simpred_lite"


def _functions(tree: ast.AST):
    def walk(node, public):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, public and not child.name.startswith("_"))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = child.name
                dunder = name.startswith("__") and name.endswith("__")
                if public and (not name.startswith("_") or name == "__init__") and (not dunder or name == "__init__"):
                    yield child

    yield from walk(tree, True)


def _fully_annotated(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    a = fn.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    if params and params[0].arg in ("self", "cls"):
        params = params[1:]
    params += [p for p in (a.vararg, a.kwarg) if p is not None]
    if any(p.annotation is None for p in params):
        return False
    return fn.returns is not None or fn.name == "__init__"


def main(argv: list[str]) -> int:
    total = done = 0
    missing = []
    for path in sorted(ROOT.rglob("*.py")):
        for fn in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            total += 1
            if _fully_annotated(fn):
                done += 1
            else:
                missing.append(f"{path.relative_to(ROOT.parent)}:{fn.lineno} {fn.name}")
    print(f"{done} of {total} public functions fully annotated ({100 * done / max(total, 1):.0f} %)")
    if "--list" in argv:
        print("\n".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
