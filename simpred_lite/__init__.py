"""simpred_lite: online similarity prediction over networked data, for teaching.

The package behind the notebooks of the suite.  One idea per module:

- :mod:`simpred_lite.graphs` — validation, generators, labelings, cuts, datasets
- :mod:`simpred_lite.resistance` — Laplacian, incidence, effective resistance
- :mod:`simpred_lite.spanning` — uniform random spanning trees
- :mod:`simpred_lite.bst` — Binary Support Trees
- :mod:`simpred_lite.datasets` — real labelled graphs (handwritten digits, bundled with scikit-learn)
- :mod:`simpred_lite.online` — trials, the run loop, trial sequences
- :mod:`simpred_lite.learners` — the learners (one module per family)
- :mod:`simpred_lite.plotting` — figures
- :mod:`simpred_lite.widgets` — ipywidgets apps used by the notebooks
"""

from . import bst, graphs, learners, online, plotting, resistance, spanning, widgets
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
from . import datasets  # noqa: E402  (scikit-learn is imported only when a dataset is built)

__version__ = "0.1.0"

__all__ = [
    "bst",
    "graphs",
    "learners",
    "online",
    "plotting",
    "resistance",
    "spanning",
    "widgets",
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
__all__ += ["datasets"]
