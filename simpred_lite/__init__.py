"""simpred_lite: online similarity prediction over networked data, for teaching.

The package behind the notebooks of the suite.  One idea per module:

- :mod:`simpred_lite.graphs` — validation, generators, labelings, cuts, datasets
- :mod:`simpred_lite.resistance` — Laplacian, incidence, effective resistance
- :mod:`simpred_lite.spanning` — uniform random spanning trees
- :mod:`simpred_lite.bst` — Binary Support Trees
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

from . import bst, games, graphs, hardness, learners, lowerbound, online, plotting, resistance, spanning, widgets
from . import playground, playground_widget  # noqa: E402  (issue 8)
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
from .online import RunResult, Trial, random_trials, run, trials_from_pairs

__version__ = "0.1.0"

__all__ = [
    "games",
    "hardness",
    "lowerbound",
    "bst",
    "graphs",
    "learners",
    "online",
    "plotting",
    "resistance",
    "spanning",
    "widgets",
    "playground",
    "playground_widget",
    "barbell_graph",
    "cut_edges",
    "cut_size",
    "grid_graph",
    "karate_club",
    "planted_partition",
    "validate_graph",
    "validate_labels",
    "RunResult",
    "Trial",
    "random_trials",
    "run",
    "trials_from_pairs",
]

# unknown graphs (§5): trial sequences that reveal a path with each pair
from .online import cut_crossing_trials, random_walk_trials, shortest_path_trials  # noqa: E402

__all__ += ["shortest_path_trials", "random_walk_trials", "cut_crossing_trials"]

# trial sequences that stress a learner (issue 4)
from .online import AdaptiveAdversary, adaptive_run, cut_biased_trials  # noqa: E402

__all__ += ["AdaptiveAdversary", "adaptive_run", "cut_biased_trials"]
