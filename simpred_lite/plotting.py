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


# -- Binary Support Trees and the §4.1 Perceptron (issue 4) -----------------------------------
__all__ += ["bst_layout", "draw_bst_trial", "plot_update_matrix", "plot_scaling"]


def bst_layout(bst) -> dict[int, tuple[float, float]]:
    """Positions of the heap vertices of a BST: leaves left to right, parents centred above.

    Examples
    --------
    >>> from simpred_lite.bst import BinarySupportTree
    >>> bst_layout(BinarySupportTree([0, 1]))
    {2: (0.0, 0.0), 3: (1.0, 0.0), 1: (0.5, 1.0)}
    """
    N = bst.num_leaves
    pos = {h: (float(h - N), 0.0) for h in range(N, 2 * N)}
    for h in range(N - 1, 0, -1):
        (x1, y1), (x2, _) = pos[2 * h], pos[2 * h + 1]
        pos[h] = ((x1 + x2) / 2, y1 + 1.0)
    return pos


def draw_bst_trial(bst, structure=None, ax=None, labels=None, title: str = "Binary Support Tree"):
    """Draw a BST as in Figure 2 of the paper: ``P_t`` filled light blue, ``S_t`` with thick
    borders, the tags ``f_t`` in red, heap indices inside the vertices and the graph vertex
    (or ``d`` for a dummy leaf) under each leaf.

    Parameters
    ----------
    bst : BinarySupportTree
    structure : TrialStructure, optional
        From :func:`simpred_lite.learners.bst_perceptron.trial_structure`.
    ax : matplotlib.axes.Axes, optional
    labels : array_like of int, optional
        Vertex classes, propagated to the tree and drawn as vertex colours when given.
    title : str

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    pos = bst_layout(bst)
    N = bst.num_leaves
    for c in range(2, 2 * N):
        (x1, y1), (x2, y2) = pos[c // 2], pos[c]
        ax.plot([x1, x2], [y1, y2], color="0.6", lw=1, zorder=1)
    path = set(structure.path) if structure else set()
    S = set(structure.S) if structure else set()
    y = bst.propagate_labels(labels) if labels is not None else None
    for h, (x, z) in pos.items():
        face = "#a6d8f0" if h in path else "white"
        edge = CLASS_COLORS[int(y[h]) % 10] if y is not None else "0.3"
        ax.scatter([x], [z], s=340, c=face, edgecolors="black" if h in S else edge,
                   linewidths=3.0 if h in S else 1.5, zorder=2)
        ax.text(x, z, str(h), ha="center", va="center", fontsize=7, zorder=3)
        if structure and h in structure.tags:
            ax.text(x + 0.28, z + 0.22, str(structure.tags[h]), color="tab:red", fontsize=9, fontweight="bold", zorder=3)
    for h in range(N, 2 * N):
        v = bst.vertex_at(h)
        ax.text(pos[h][0], -0.45, "d" if v is None else f"v{v}", ha="center", va="top", fontsize=7)
    ax.set_title(title)
    ax.set_xlabel("leaf position (DFS order of the spanning tree)")
    ax.set_ylabel("height in B")
    ax.set_ylim(-0.9, bst.depth + 0.6)
    ax.set_xticks([])
    return ax


def plot_update_matrix(structure, ax=None, title: str = "Update (f(l) - f(l'))^2 on S_t x S_t"):
    """Figure 2 (right): the values added to ``F`` on ``S_t x S_t``, rows and columns ``P_t ∪ S_t``;
    the entries summed by the prediction (``P_t x P_t``) are outlined in blue.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    verts = sorted(set(structure.path) | set(structure.S))
    S, P, f = set(structure.S), set(structure.path), structure.tags
    M = np.array([[(f[a] - f[b]) ** 2 if a in S and b in S else 0 for b in verts] for a in verts])
    ax.imshow(M, cmap="Oranges")
    for r, a in enumerate(verts):
        for c, b in enumerate(verts):
            if M[r, c]:
                ax.text(c, r, str(M[r, c]), ha="center", va="center", fontsize=7)
            if a in P and b in P:
                ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec="tab:blue", lw=1.2))
    ax.set_xticks(range(len(verts)), [str(v) for v in verts], fontsize=7)
    ax.set_yticks(range(len(verts)), [str(v) for v in verts], fontsize=7)
    ax.set_xlabel("vertex l' of B (heap index)")
    ax.set_ylabel("vertex l of B (heap index)")
    ax.set_title(title)
    return ax


def plot_scaling(xs, series: Mapping[str, object], ax=None, title: str = "Cost per trial",
                 xlabel: str = "n", ylabel: str = "seconds per trial"):
    """Log–log plot of one or more cost curves against ``xs``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    for k, (name, ys) in enumerate(series.items()):
        ax.loglog(xs, ys, "o-", label=name, color=CLASS_COLORS[k % 10])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(loc="best", fontsize=8)
    return ax
