"""What every figure shares: the class colours, a fresh ``Axes``, PNG bytes for widgets.

Every drawing function of :mod:`simpred_lite.viz` draws on a given matplotlib ``Axes`` (or
makes one with :func:`new_axes`), sets a title and axis labels, and returns the ``Axes``, so
notebooks can compose panels freely.  Widgets render through :func:`figure_to_png` from a
``matplotlib.figure.Figure`` that never touches pyplot, so no figure leaks into a notebook.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["CLASS_COLORS", "LEGEND_FONTSIZE", "new_axes", "figure_to_png"]

#: One colour per class (tab10), reused by every figure so a class keeps its colour.
CLASS_COLORS = plt.get_cmap("tab10").colors

#: The smallest legend text of the suite's figures (points).
LEGEND_FONTSIZE = 9


def new_axes(ax=None, figsize: tuple[float, float] = (6.4, 4)):
    """``ax`` itself, or a new pyplot ``Axes`` of size ``figsize`` when ``ax`` is ``None``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    figsize : (float, float)

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = Figure().add_subplot()
    >>> new_axes(ax) is ax
    True
    """
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def figure_to_png(fig: Figure, dpi: int = 90) -> bytes:
    """Render a ``matplotlib.figure.Figure`` to PNG bytes (for widget outputs).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    dpi : int, default 90

    Examples
    --------
    >>> fig = Figure(); _ = fig.add_subplot().plot([0, 1])
    >>> figure_to_png(fig)[:4]
    b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return buf.getvalue()
