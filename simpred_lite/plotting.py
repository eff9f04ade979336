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
    "draw_edge_numbering",
    "draw_forest_rounds",
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


# --------------------------------------------------------------------------------------
# unknown graphs (§5): numbered, oriented edges; the forest of revealed paths
# --------------------------------------------------------------------------------------
def draw_edge_numbering(
    G: nx.Graph,
    labels=None,
    edges=None,
    ax=None,
    pos=None,
    thick=(),
    hidden=(),
    path=None,
    title: str = "Numbered, oriented edges",
    name_offset: int = 0,
    node_size: float = 420,
):
    """Draw ``G`` with edges oriented low -> high and numbered ``e1, e2, ...`` as in §5's figures.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int, optional
        Classes (vertex colours); edges joining two classes are drawn red.
    edges : list of (int, int), optional
        The numbering: ``edges[k]`` is labelled ``e{k+1}``.  Default: sorted edges of ``G``.
    ax : matplotlib.axes.Axes, optional
    pos : dict, optional
    thick : iterable of (int, int)
        Edges drawn thick (a spanning tree, the forest of revealed paths).
    hidden : iterable of (int, int)
        Edges left out of the drawing (e.g. the cut edges, to show what the tree leaves connected).
    path : sequence of int, optional
        A vertex path drawn in blue underneath (an instance ``x_t``).
    title : str
    name_offset : int
        Vertex ``v`` is written ``v + name_offset`` (``1`` for the paper's vertex names).
    node_size : float

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> fig = Figure(); ax = fig.add_subplot()
    >>> draw_edge_numbering(nx.path_graph(3), [0, 0, 1], ax=ax).get_title()
    'Numbered, oriented edges'
    """
    if not isinstance(G, nx.Graph) or G.is_directed() or set(G.nodes) != set(range(G.number_of_nodes())):
        raise ValueError("draw_edge_numbering needs an undirected networkx.Graph on the vertices 0..n-1 "
                         "(it may be disconnected: a forest of revealed paths is fine)")
    n = G.number_of_nodes()
    y = None if labels is None else validate_labels(labels, n)
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    if pos is None:
        pos = graph_layout(G)
    key = lambda e: (min(e), max(e))  # noqa: E731 - the orientation low -> high
    edges = [key(e) for e in (sorted(G.edges) if edges is None else edges)]
    thick = {key(e) for e in thick}
    hidden = {key(e) for e in hidden}
    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    shown = [key(e) for e in G.edges if key(e) not in hidden]
    D.add_edges_from(shown)
    if path is not None and len(path) > 1:
        steps = [key(e) for e in zip(path, path[1:])]
        nx.draw_networkx_edges(D, pos, edgelist=steps, ax=ax, edge_color="tab:blue", width=9, alpha=0.35,
                               arrows=False, node_size=node_size)
    for group, width in (([e for e in shown if e not in thick], 1.0), ([e for e in shown if e in thick], 3.0)):
        cut = [e for e in group if y is not None and y[e[0]] != y[e[1]]]
        same = [e for e in group if e not in cut]
        for lst, colour in ((same, "0.25" if width > 1 else "0.6"), (cut, "tab:red")):
            if lst:
                nx.draw_networkx_edges(D, pos, edgelist=lst, ax=ax, width=width, edge_color=colour, arrows=True,
                                       arrowstyle="-|>", arrowsize=12, node_size=node_size)
    number = {e: k + 1 for k, e in enumerate(edges)}
    nx.draw_networkx_edge_labels(D, pos, edge_labels={e: f"e{number[e]}" for e in shown if e in number}, ax=ax,
                                 font_size=8, rotate=False, bbox={"boxstyle": "round,pad=0.1", "fc": "white", "lw": 0})
    colours = ["0.85" if y is None else CLASS_COLORS[int(c) % len(CLASS_COLORS)] for c in (y if y is not None else range(n))]
    nx.draw_networkx_nodes(D, pos, ax=ax, node_color=colours, node_size=node_size, edgecolors="0.2", linewidths=0.8)
    nx.draw_networkx_labels(D, pos, labels={v: str(v + name_offset) for v in range(n)}, ax=ax, font_size=9)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("layout x")
    ax.set_ylabel("layout y")
    ax.tick_params(left=False, bottom=False, labelleft=False, labelbottom=False)
    return ax


def draw_forest_rounds(n: int, rounds, pos, grow: str = "disconnected", labels=None, name_offset: int = 0, axes=None):
    """Replay revealed paths into a :class:`~simpred_lite.learners.PathForest`, one panel per round (Figure 3).

    Each panel shows the forest after the round (thick, numbered by disclosure), the
    revealed path in blue and, in the title, the pair and its instance ``x_t``.

    Parameters
    ----------
    n : int
    rounds : sequence of (i, j, path)
    pos : dict
        Vertex positions.
    grow : {"disconnected", "always"}
    labels : array_like of int, optional
    name_offset : int
        ``1`` to print the paper's vertex names.
    axes : sequence of matplotlib.axes.Axes, optional
        One per round; a new row of panels when omitted.

    Returns
    -------
    list of numpy.ndarray
        The instance vectors ``x_t``.

    Examples
    --------
    >>> fig = Figure(); axes = fig.subplots(1, 2)
    >>> pos = {0: (0, 0), 1: (1, 0), 2: (2, 0)}
    >>> [x.tolist() for x in draw_forest_rounds(3, [(0, 1, [0, 1]), (2, 0, [2, 1, 0])], pos, axes=axes)]
    [[1, 0], [-1, -1]]
    """
    from .learners.unknown import PathForest

    rounds = list(rounds)
    if axes is None:
        _, axes = plt.subplots(1, len(rounds), figsize=(3.2 * len(rounds), 3.4))
    axes = np.atleast_1d(axes)
    if len(axes) < len(rounds):
        raise ValueError(f"need one Axes per round: {len(rounds)} rounds, {len(axes)} axes")
    F = PathForest(n, grow=grow)
    xs = []
    for t, ((i, j, path), ax) in enumerate(zip(rounds, axes), start=1):
        verts, _, _ = F.instance_sparse(i, j, path)
        xs.append(F.instance(i, j, path))  # idempotent: the pair is now connected
        H = nx.Graph()
        H.add_nodes_from(range(n))
        H.add_edges_from(F.edges)
        vec = "(" + ",".join(str(v) for v in xs[-1]) + ")"
        draw_edge_numbering(H, labels, edges=F.edges, ax=ax, pos=pos, thick=F.edges, path=list(path),
                            name_offset=name_offset, node_size=260,
                            title=f"t={t}: pair ({i + name_offset},{j + name_offset})\nx_{t} = {vec}")
        ax.set_xlabel(f"forest path: {'→'.join(str(v + name_offset) for v in verts)}", fontsize=8)
        ax.set_ylabel("")
    return xs
