"""Re-execute notebooks in place through a real kernel (``make notebooks``).

Each notebook runs top to bottom in a fresh ``python3`` kernel of the current environment,
with the notebook's folder as working directory, and is saved with its outputs and
execution counts 1..N, which is what strict ``pytest --nbval`` then compares against.

Usage: python scripts/run_notebooks.py notebooks/00_*.ipynb [...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path, timeout: int = 900) -> float:
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    start = time.perf_counter()
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(Path("notebooks").glob("*.ipynb"))
    for p in paths:
        print(f"executing {p} ...", flush=True)
        print(f"  done in {execute(p):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
