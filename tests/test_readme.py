"""Every Python snippet of the README runs as written.

The README is what a new user copies first; a snippet that raises (as the "Your own graph" one
once did: ``knn_graph`` returns a tuple) sends them away. Each ```` ```python ```` block is run in
a namespace holding only what the README tells the reader to bring: a networkx graph ``G`` whose
nodes carry their class in ``"club"`` (the karate club, as in the README's example), and a feature
matrix ``X`` with classes ``y`` (iris). ``T`` is lowered so the test stays quick: the call is the
README's, the sequence shorter.
"""

import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_readme_has_python_snippets():
    assert SNIPPETS, "no ```python block in README.md"


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda s: s.strip().splitlines()[0][:40])
def test_readme_snippet_runs_as_written(snippet):
    import matplotlib.pyplot as plt
    import networkx as nx
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    namespace = {"G": nx.karate_club_graph(), "X": X, "y": y}
    quick = re.sub(r"\bT=\d+", "T=200", snippet)
    exec(compile(quick, "README.md", "exec"), namespace)  # noqa: S102 - the README's own code
    plt.close("all")
