"""Figures (matplotlib): one module per kind of picture.

- :mod:`~simpred_lite.viz.style` — class colours, a fresh ``Axes``, PNG bytes for widgets
- :mod:`~simpred_lite.viz.graphs` — THE labelled-graph drawer (:func:`draw_labelled_graph`),
  spanning trees, loop erasure, numbered edges, the forest of revealed paths
- :mod:`~simpred_lite.viz.trees` — THE BST layout (:func:`bst_layout`) and every BST figure
- :mod:`~simpred_lite.viz.curves` — THE mistake-curve plotter (:func:`plot_mistake_curves`)
- :mod:`~simpred_lite.viz.figures` — the paper's other pictures (reductions, Ising, scaling)

Importing :mod:`simpred_lite` does not import this package (it loads matplotlib); it is
loaded on first use of ``simpred_lite.viz``.

>>> from simpred_lite.viz import draw_labelled_graph
"""

from .curves import BOUND_DRAW_FACTOR, MARKERS, plot_evaluation, plot_mistake_curves
from .figures import (
    draw_ising_reduction,
    draw_labelled_path,
    plot_bound_vs_measured,
    plot_cut_vs_weighted_cut,
    plot_history_pool,
    plot_marginals_vs_resistance,
    plot_reduction_constant,
    plot_scaling,
)
from .graphs import (
    MAX_NUMBERED_VERTICES,
    draw_edge_numbering,
    draw_forest_rounds,
    draw_labelled_graph,
    draw_loop_erasure,
    draw_path_order,
    draw_spanning_tree,
    graph_layout,
)
from .style import CLASS_COLORS, LEGEND_FONTSIZE, figure_to_png, new_axes
from .trees import bst_layout, draw_bst, draw_bst_trial, draw_history_tree, plot_figure1, plot_update_matrix

__all__ = [
    "CLASS_COLORS",
    "LEGEND_FONTSIZE",
    "new_axes",
    "figure_to_png",
    "MAX_NUMBERED_VERTICES",
    "graph_layout",
    "draw_labelled_graph",
    "draw_spanning_tree",
    "draw_loop_erasure",
    "draw_edge_numbering",
    "draw_forest_rounds",
    "draw_path_order",
    "bst_layout",
    "draw_bst",
    "draw_bst_trial",
    "plot_update_matrix",
    "draw_history_tree",
    "plot_figure1",
    "MARKERS",
    "BOUND_DRAW_FACTOR",
    "plot_mistake_curves",
    "plot_evaluation",
    "plot_history_pool",
    "plot_reduction_constant",
    "plot_bound_vs_measured",
    "draw_labelled_path",
    "draw_ising_reduction",
    "plot_scaling",
    "plot_marginals_vs_resistance",
    "plot_cut_vs_weighted_cut",
]
