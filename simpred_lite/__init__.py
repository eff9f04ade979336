"""simpred_lite: online similarity prediction over networked data, for teaching.

The package behind the notebooks of the suite.  One idea per module:

- :mod:`simpred_lite.checks` — every argument check (seeds, integers, reals, vertices, paths, labels, memory)
- :mod:`simpred_lite.graphs` — validation, generators, labelings, cuts, the karate club
- :mod:`simpred_lite.resistance` — Laplacian, incidence, effective resistance
- :mod:`simpred_lite.exact` — exact rational Laplacian solves and certified decisions
- :mod:`simpred_lite.spanning` — uniform random spanning trees
- :mod:`simpred_lite.bst` — Binary Support Trees
- :mod:`simpred_lite.datasets` — real labelled graphs bundled with the dependencies, kNN graphs, your own graph in
- :mod:`simpred_lite.learners` — every learner (one protocol in ``learners.base``) and every
  mistake bound
- :mod:`simpred_lite.game` — trials, adversaries, the run loop, ``evaluate``, the playground
- :mod:`simpred_lite.theory` — hardness (Ising, constrained path), lower bounds (paired
  permutations, Proposition 1), averages over spanning trees
- :mod:`simpred_lite.viz` — figures (matplotlib)
- :mod:`simpred_lite.apps` — ipywidgets apps used by the notebooks

Importing the package loads none of matplotlib and ipywidgets: the two subpackages that
need them (``viz`` and ``apps``) are imported on first use.
"""

import importlib

from . import (
    bst,
    checks,
    datasets,
    exact,
    game,
    graphs,
    learners,
    resistance,
    spanning,
    theory,
)
from .datasets import LabelledGraph, knn_graph, load_graph
from .game import (
    AdaptiveAdversary,
    RunResult,
    Trial,
    adaptive_run,
    cut_biased_trials,
    cut_crossing_trials,
    evaluate,
    evaluate_sweep,
    random_trials,
    random_walk_trials,
    run,
    shortest_path_trials,
    trials_from_pairs,
)
from .graphs import (
    barbell_graph,
    cut_edges,
    cut_size,
    grid_graph,
    karate_club,
    planted_partition,
    validate_graph,
    validate_labels,
)

__version__ = "0.1.0"

_VIEW_MODULES = ("viz", "apps")  # matplotlib / ipywidgets


def __getattr__(name: str):
    """Import the figure and widget modules on first use (PEP 562)."""
    if name in _VIEW_MODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_VIEW_MODULES))

__all__ = [
    # modules
    "bst",
    "checks",
    "datasets",
    "exact",
    "game",
    "graphs",
    "learners",
    "resistance",
    "spanning",
    "theory",
    # not "viz" and "apps": `from simpred_lite import *` stays as light as `import simpred_lite`
    # graphs and labelings
    "barbell_graph",
    "cut_edges",
    "cut_size",
    "grid_graph",
    "karate_club",
    "planted_partition",
    "validate_graph",
    "validate_labels",
    # the game
    "RunResult",
    "Trial",
    "run",
    "trials_from_pairs",
    # trial sequences and adversaries
    "random_trials",
    "cut_biased_trials",
    "shortest_path_trials",
    "random_walk_trials",
    "cut_crossing_trials",
    "AdaptiveAdversary",
    "adaptive_run",
    # your own graph, real data, comparing learners
    "LabelledGraph",
    "knn_graph",
    "load_graph",
    "evaluate",
    "evaluate_sweep",
]
