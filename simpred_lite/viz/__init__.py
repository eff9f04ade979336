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

from . import curves, figures, graphs, style, trees
from .curves import *
from .figures import *
from .graphs import *
from .style import *
from .trees import *

__all__ = [*style.__all__, *graphs.__all__, *trees.__all__, *curves.__all__, *figures.__all__]
