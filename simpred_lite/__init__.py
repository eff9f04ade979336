"""simpred_lite: online similarity prediction over networked data, for teaching.

The package behind the notebooks of the suite.  One idea per module:

- :mod:`simpred_lite.checks` — every argument check (seeds, integers, reals, vertices, paths, labels, memory)
- :mod:`simpred_lite.graphs` — validation, generators, labelings, cuts, the karate club
- :mod:`simpred_lite.resistance` — Laplacian, incidence, effective resistance
- :mod:`simpred_lite.spanning` — uniform random spanning trees
- :mod:`simpred_lite.bst` — Binary Support Trees
- :mod:`simpred_lite.datasets` — real labelled graphs (handwritten digits, bundled with scikit-learn)
- :mod:`simpred_lite.online` — trials, the run loop, trial sequences
- :mod:`simpred_lite.learners` — the learners (one module per family)
- :mod:`simpred_lite.hardness` — Ising partition functions, the graph → constrained path reduction
- :mod:`simpred_lite.lowerbound` — paired permutations, the O(K) class algorithm, the Ω(K log K) adversary
- :mod:`simpred_lite.games` — hand-played adversary games (logic of the widgets)
- :mod:`simpred_lite.plotting` — figures
- :mod:`simpred_lite.widgets` — ipywidgets apps used by the notebooks
- :mod:`simpred_lite.playground` — the adversary playground (graphs, learner registry,
  adversaries); its app is :mod:`simpred_lite.playground_widget`
"""

from . import (
    bst,
    checks,
    datasets,
    games,
    graphs,
    hardness,
    learners,
    lowerbound,
    online,
    plotting,
    resistance,
    spanning,
    widgets,
)
from . import playground, playground_widget  # noqa: E402
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
from .online import (
    AdaptiveAdversary,
    RunResult,
    Trial,
    adaptive_run,
    cut_biased_trials,
    cut_crossing_trials,
    random_trials,
    random_walk_trials,
    run,
    shortest_path_trials,
    trials_from_pairs,
)

__version__ = "0.1.0"

__all__ = [
    # modules
    "bst",
    "checks",
    "datasets",
    "games",
    "graphs",
    "hardness",
    "learners",
    "lowerbound",
    "online",
    "plotting",
    "resistance",
    "spanning",
    "widgets",
    "playground",
    "playground_widget",
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
]
