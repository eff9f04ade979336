"""Figures for the notebooks: labelled graphs with their cut edges, mistake curves.

Every function draws on a given matplotlib ``Axes`` (or makes one), sets a title and axis
labels, and returns the ``Axes``, so notebooks can compose panels freely.  Widgets render
figures through :func:`figure_to_png` from a ``matplotlib.figure.Figure`` that never touches
pyplot, so no figure leaks into a notebook's output by accident.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib.figure import Figure

from .graphs import cut_edges, validate_graph, validate_labels

__all__ = [
    "CLASS_COLORS",
    "graph_layout",
    "draw_labelled_graph",
    "plot_mistake_curves",
    "figure_to_png",
]

#: One colour per class (tab10), reused by every figure so a class keeps its colour.
CLASS_COLORS = plt.get_cmap("tab10").colors


def graph_layout(G: nx.Graph, seed: int = 0) -> dict[int, np.ndarray]:
    """A deterministic 2-d layout (spring layout with a fixed seed).

    Examples
    --------
    >>> pos = graph_layout(nx.path_graph(3))
    >>> sorted(pos)
    [0, 1, 2]
    """
    return nx.spring_layout(validate_graph(G), seed=seed)


def draw_labelled_graph(
    G: nx.Graph,
    labels,
    ax=None,
    pos=None,
    highlight_pair: tuple[int, int] | None = None,
    title: str = "Graph, classes and cut edges",
    node_size: float = 80,
    with_labels: bool = False,
):
    """Draw ``G`` with vertices coloured by class and the cut edges ``Phi^G`` in red.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
        Class of each vertex.
    ax : matplotlib.axes.Axes, optional
    pos : dict, optional
        Vertex positions; :func:`graph_layout` when omitted.
    highlight_pair : (int, int), optional
        A queried pair, circled in black.
    title : str
    node_size : float
    with_labels : bool
        Write vertex numbers on the vertices.

    Returns
    -------
    matplotlib.axes.Axes
    """
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4.5))
    if pos is None:
        pos = graph_layout(G)
    cut = cut_edges(G, y)
    cut_set = set(cut)
    inside = [e for e in G.edges if (min(e), max(e)) not in cut_set]
    nx.draw_networkx_edges(G, pos, edgelist=inside, ax=ax, edge_color="0.75", width=0.8)
    nx.draw_networkx_edges(G, pos, edgelist=cut, ax=ax, edge_color="tab:red", width=1.8, style="dashed")
    colors = [CLASS_COLORS[int(c) % len(CLASS_COLORS)] for c in y]
    nx.draw_networkx_nodes(G, pos, ax=ax, node_color=colors, node_size=node_size, edgecolors="0.2", linewidths=0.5)
    if with_labels:
        nx.draw_networkx_labels(G, pos, ax=ax, font_size=7)
    if highlight_pair is not None:
        nx.draw_networkx_nodes(
            G, pos, nodelist=list(highlight_pair), ax=ax, node_color="none",
            node_size=node_size * 4, edgecolors="black", linewidths=2.0,
        )
    ax.set_title(f"{title}\n|Φ| = {len(cut)} cut edges (red, dashed)")
    ax.set_xlabel("layout x")
    ax.set_ylabel("layout y")
    ax.tick_params(left=False, bottom=False, labelleft=False, labelbottom=False)
    return ax


def plot_mistake_curves(
    results: Mapping[str, object],
    ax=None,
    bounds: Mapping[str, float] | None = None,
    title: str = "Cumulative mistakes",
):
    """Plot the cumulative mistakes of several runs, with optional horizontal bounds.

    Parameters
    ----------
    results : mapping name -> RunResult (or an array of cumulative mistakes)
    ax : matplotlib.axes.Axes, optional
    bounds : mapping name -> float, optional
        Mistake bounds drawn as dotted horizontal lines.
    title : str

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    for k, (name, res) in enumerate(results.items()):
        curve = np.asarray(getattr(res, "cumulative", res))
        ax.plot(np.arange(1, curve.size + 1), curve, label=name, color=CLASS_COLORS[k % 10], lw=1.8)
    for k, (name, value) in enumerate((bounds or {}).items()):
        ax.axhline(value, ls=":", color=CLASS_COLORS[(k + 5) % 10], lw=1.5, label=name)
    ax.set_title(title)
    ax.set_xlabel("trial t")
    ax.set_ylabel("mistakes so far")
    ax.legend(loc="best", fontsize=8)
    return ax


def figure_to_png(fig: Figure, dpi: int = 90) -> bytes:
    """Render a ``matplotlib.figure.Figure`` to PNG bytes (for widget outputs).

    Examples
    --------
    >>> fig = Figure(); _ = fig.add_subplot().plot([0, 1])
    >>> figure_to_png(fig)[:4]
    b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return buf.getvalue()
