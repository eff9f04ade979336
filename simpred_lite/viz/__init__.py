"""Figures (matplotlib): graphs, trees, mistake curves and the paper's other pictures.

Importing :mod:`simpred_lite` does not import this package (it loads matplotlib); it is
loaded on first use of ``simpred_lite.viz``.

>>> from simpred_lite.viz import draw_labelled_graph
"""

from . import figures
from .figures import *  # noqa: F403

__all__ = [*figures.__all__]
