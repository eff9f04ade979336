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


# -- issue 7: the reduction of Theorem t:hardness, drawn like the paper's Ising figure --------
__all__ += ["draw_labelled_path", "draw_ising_reduction"]


def draw_labelled_path(copies, ax=None, new=(), constraints=None, title: str = "Labelled path"):
    """Draw a path whose vertex ``p`` copies the G-vertex ``copies[p]``.

    Parameters
    ----------
    copies : sequence of int
        The G-vertex copied by each path vertex, in path order.
    ax : matplotlib.axes.Axes, optional
    new : iterable of int
        Path positions to colour light blue (the vertices a splice just added).
    constraints : iterable of (int, int), optional
        Equality constraints, drawn as arcs above the path.
    title : str

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> fig = Figure(); ax = draw_labelled_path([0, 1, 0], ax=fig.add_subplot())
    >>> ax.get_title()
    'Labelled path'
    """
    from matplotlib.patches import Arc

    copies = [int(c) for c in copies]
    if ax is None:
        _, ax = plt.subplots(figsize=(max(4, 0.6 * len(copies)), 1.6))
    new = set(new)
    x = np.arange(len(copies))
    ax.plot(x, np.zeros_like(x), color="0.4", lw=1.5, zorder=1)
    for p, c in enumerate(copies):
        face = "#9fd3f5" if p in new else "white"
        ax.scatter([p], [0], s=330, color=face, edgecolors="0.1", zorder=2)
        ax.text(p, 0, str(c), ha="center", va="center", fontsize=9, zorder=3)
    for i, j in constraints or ():
        lo, hi = min(i, j), max(i, j)
        ax.add_patch(Arc(((lo + hi) / 2, 0.12), hi - lo, 0.25 * (hi - lo) ** 0.5 + 0.2, theta1=0, theta2=180,
                         color="tab:purple", lw=0.7, alpha=0.6))
    ax.set_xlim(-0.7, len(copies) - 0.3)
    ax.set_ylim(-0.5, 0.2 + (0.18 * len(copies) ** 0.5 + 0.3 if constraints else 0.4))
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("position on the path")
    ax.set_ylabel("")
    ax.set_yticks([])
    ax.set_xticks(x)
    ax.tick_params(labelsize=7)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    return ax


def draw_ising_reduction(G: nx.Graph, fig=None, seed: int | None = None):
    """The paper's Ising figure for ``G``: (a) ``G``, (b) ``T``, (c) ``P_0``, one panel per splice, ``P``.

    Vertex numbers are the G-vertices (from 0); the vertices each splice adds are light blue;
    the last panel shows the equality constraints ``C`` as arcs.  ``G`` is drawn on a circle,
    or with :func:`graph_layout` when a layout ``seed`` is given.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = draw_ising_reduction(nx.cycle_graph(3), fig=Figure())
    >>> len(fig.axes)
    5
    """
    from .hardness import reduce_to_constrained_path, reduction_steps

    G = validate_graph(G)
    steps = reduction_steps(G)
    rows = 1 + len(steps.paths) + 1
    if fig is None:
        fig = plt.figure(figsize=(10, 1.9 * rows + 1.5))
    grid = fig.add_gridspec(rows, 2, height_ratios=[2.2] + [1] * (rows - 1))
    pos = nx.circular_layout(G) if seed is None else graph_layout(G, seed=seed)
    tree = set(steps.tree_edges)
    for k, (title, edgelist) in enumerate([("(a) the graph G", list(G.edges)), ("(b) spanning tree T (DFS from 0)", steps.tree_edges)]):
        ax = fig.add_subplot(grid[0, k])
        other = [e for e in G.edges if (min(e), max(e)) not in tree]
        nx.draw_networkx_edges(G, pos, edgelist=[e for e in edgelist if (min(e), max(e)) in tree], ax=ax, width=2)
        if k == 0:
            nx.draw_networkx_edges(G, pos, edgelist=other, ax=ax, style="dashed", edge_color="tab:red", width=1.5)
        nx.draw_networkx_nodes(G, pos, ax=ax, node_color="white", edgecolors="0.1", node_size=330)
        nx.draw_networkx_labels(G, pos, ax=ax, font_size=9)
        ax.set_title(title + (f"; R = {steps.non_tree_edges} dashed" if k == 0 else ""), fontsize=10)
        ax.set_xlabel("layout x")
        ax.set_ylabel("layout y")
        ax.tick_params(left=False, bottom=False, labelleft=False, labelbottom=False)
    letters = "cdefghijklmnopqrstuvwxyz"
    for k, path in enumerate(steps.paths):
        ax = fig.add_subplot(grid[1 + k, :])
        if k == 0:
            draw_labelled_path(path, ax=ax, title=f"(c) P_0: the depth-first visit of T, {len(path)} = 2n - 1 vertices")
            continue
        p, q = steps.splices[k - 1]
        lo = min(p, q)
        e = steps.non_tree_edges[k - 1]
        draw_labelled_path(path, ax=ax, new=(lo + 1, lo + 2),
                           title=f"({letters[k]}) splice the non-tree edge {e}: {len(path)} vertices")
    P, C = reduce_to_constrained_path(G)
    ax = fig.add_subplot(grid[-1, :])
    draw_labelled_path(steps.paths[-1], ax=ax, constraints=C,
                       title=f"({letters[len(steps.paths)]}) P with its {len(C)} equality constraints C (arcs)")
    fig.tight_layout()
    return fig
