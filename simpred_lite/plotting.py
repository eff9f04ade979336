"""Figures for the notebooks: labelled graphs with their cut edges, mistake curves.

Every function draws on a given matplotlib ``Axes`` (or makes one), sets a title and axis
labels, and returns the ``Axes``, so notebooks can compose panels freely.  Widgets render
figures through :func:`figure_to_png` from a ``matplotlib.figure.Figure`` that never touches
pyplot, so no figure leaks into a notebook's output by accident.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib.figure import Figure

from .checks import check_int
from .graphs import cut_edges, validate_graph, validate_labels

__all__ = [
    "CLASS_COLORS",
    "graph_layout",
    "draw_labelled_graph",
    "plot_mistake_curves",
    "figure_to_png",
    "draw_edge_numbering",
    "draw_forest_rounds",
    "plot_history_pool",
    "draw_history_tree",
    "plot_reduction_constant",
    "plot_bound_vs_measured",
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
    return nx.spring_layout(validate_graph(G), seed=check_int(seed, "seed", low=0, high=2**32 - 1))


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
    # colours are listed for vertices 0..n-1, so draw them in that order (not G's insertion order)
    nx.draw_networkx_nodes(G, pos, nodelist=range(len(y)), ax=ax, node_color=colors, node_size=node_size,
                           edgecolors="0.2", linewidths=0.5)
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


def figure_to_png(fig: Figure, dpi: int = 90, tight: bool = True) -> bytes:
    """Render a ``matplotlib.figure.Figure`` to PNG bytes (for widget outputs).

    With ``tight=False`` the image keeps the figure's size (``figsize * dpi`` pixels)
    whatever it shows, so an app's panel does not change size from one step to the next.

    Examples
    --------
    >>> fig = Figure(figsize=(2, 1)); _ = fig.add_subplot().plot([0, 1])
    >>> figure_to_png(fig)[:4]
    b'\\x89PNG'
    >>> int.from_bytes(figure_to_png(fig, dpi=50, tight=False)[16:20], "big")   # width in pixels
    100
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight" if tight else None)
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
    nx.draw_networkx_nodes(D, pos, nodelist=range(n), ax=ax, node_color=colours, node_size=node_size,
                           edgecolors="0.2", linewidths=0.8)
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
def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 4))
    return ax


# --- class <-> similarity reductions (notebook 04) ---------------------------------------------
def plot_history_pool(sim, ax=None, title: str = "Pool of hallucinated histories"):
    """Pool size per trial of a :class:`~simpred_lite.learners.SimilarityFromClassifier`.

    Draws the entries actually stored and the histories of the literal pool they stand for
    (log scale), with a tick under each master mistake.

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.learners import HalvingClassifier, SimilarityFromClassifier, labelings_with_small_cut
    >>> H = labelings_with_small_cut(nx.path_graph(4), K=2, max_cut=1)
    >>> sim = SimilarityFromClassifier(lambda: HalvingClassifier(H), K=2)
    >>> sim.learn_one(0, 3, 1)
    >>> plot_history_pool(sim).get_yscale()
    'log'
    >>> plt.close("all")
    """
    ax = _axes(ax)
    t = np.arange(1, len(sim.pool_sizes) + 1)
    ax.step(t, sim.histories_represented, where="post", label="histories (literal pool)", color="tab:red")
    ax.step(t, sim.pool_sizes, where="post", label="entries stored (merged)", color="tab:blue")
    W = sim.total_weights
    mistakes = [k + 1 for k in range(len(W)) if W[k] != (W[k - 1] if k else 1)]
    ax.plot(mistakes, [1] * len(mistakes), "k|", markersize=14, label="master mistake")
    ax.set_yscale("log")
    ax.set_xlabel("trial t")
    ax.set_ylabel("pool size")
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=8)
    return ax


def draw_history_tree(T, K: int, ax=None, title: str = "Genealogy of the histories"):
    """Draw the tree returned by :func:`~simpred_lite.learners.history_tree`.

    Leaves are spread left to right, depth (number of splits) grows downwards; live
    histories are filled, with an area proportional to their weight, dead ones hollow.
    Each edge is labelled by the guessed classes ``a,b`` of the pair it appended.

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.learners import (HalvingClassifier, SimilarityFromClassifier,
    ...     history_tree, labelings_with_small_cut)
    >>> H = labelings_with_small_cut(nx.path_graph(4), K=2, max_cut=1)
    >>> sim = SimilarityFromClassifier(lambda: HalvingClassifier(H), K=2, merge=False)
    >>> sim.learn_one(0, 3, 1)
    >>> draw_history_tree(history_tree(sim), K=2).get_title()
    'Genealogy of the histories'
    >>> plt.close("all")
    """
    ax = _axes(ax)
    x: dict[int, float] = {}
    leaves = iter(range(T.number_of_nodes()))

    def place(v):
        kids = sorted(T.successors(v), key=lambda c: T.nodes[c]["guess"])
        if not kids:
            x[v] = float(next(leaves))
        else:
            for c in kids:
                place(c)
            x[v] = float(np.mean([x[c] for c in kids]))

    place(0)
    live_w = [float(T.nodes[v]["weight"]) for v in T if T.nodes[v]["alive"]]
    w_max = max(live_w) if live_w else 1.0
    for u, v in T.edges:
        ax.plot([x[u], x[v]], [-T.nodes[u]["depth"], -T.nodes[v]["depth"]], color="0.6", lw=0.8, zorder=1)
        if T.number_of_nodes() <= 40:
            (_, a), (_, b) = T.nodes[v]["guess"]
            ax.annotate(f"{a},{b}", (x[v], -T.nodes[v]["depth"]), textcoords="offset points", xytext=(0, 6),
                        ha="center", fontsize=7)
    for v in T:
        alive = T.nodes[v]["alive"]
        size = 20 + 180 * float(T.nodes[v]["weight"]) / w_max if alive else 25
        ax.scatter([x[v]], [-T.nodes[v]["depth"]], s=size, zorder=2,
                   c="tab:blue" if alive else "white", edgecolors="tab:blue")
    depth = max(T.nodes[v]["depth"] for v in T)
    ax.set_yticks([-d for d in range(depth + 1)], [str(d) for d in range(depth + 1)])
    ax.set_xlabel("histories (leaves spread left to right)")
    ax.set_ylabel("number of splits (depth)")
    ax.set_title(title)
    ax.set_xticks([])
    return ax


def plot_reduction_constant(Ks, beta: float = 0.294, ax=None, title: str = "The constant of Lemma equiv"):
    """``c_K(beta)/log2 K`` against ``K``, with the paper's ``c < 5`` line.

    Examples
    --------
    >>> plot_reduction_constant(range(2, 6)).get_xlabel()
    'number of classes K'
    >>> plt.close("all")
    """
    from .learners.reductions import reduction_constant

    ax = _axes(ax)
    Ks = list(Ks)
    ratio = [reduction_constant(K, beta) / math.log2(K) for K in Ks]
    loose = [math.log2(K * K / beta) / math.log2(2 / (1 + beta)) / math.log2(K) for K in Ks]
    ax.plot(Ks, ratio, "o-", label=r"exact: $\log_2\frac{K(K-1)}{\beta} / (\log_2\frac{2}{1+\beta}\,\log_2 K)$")
    ax.plot(Ks, loose, "s--", color="0.5", label=r"with $K^2$ for $K(K-1)$")
    ax.axhline(5, color="tab:red", lw=1, label="c = 5 (paper)")
    ax.axhline(2 / math.log2(2 / (1 + beta)), color="k", lw=0.8, ls=":", label="limit K → ∞")
    ax.set_xticks(Ks if len(Ks) <= 20 else Ks[:: max(1, len(Ks) // 10)])
    ax.set_xlabel("number of classes K")
    ax.set_ylabel(r"$c_K(\beta) / \log_2 K$")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


def plot_bound_vs_measured(Ks, measured, bounds, paper_bounds=None, ax=None,
                           title: str = "Mistakes against the bound", ylabel: str = "mistakes"):
    """Measured worst mistakes per ``K`` next to the proven bound(s), on a log scale.

    Examples
    --------
    >>> plot_bound_vs_measured([2, 3], [3, 4], [10.0, 20.0]).get_ylabel()
    'mistakes'
    >>> plt.close("all")
    """
    ax = _axes(ax)
    Ks = list(Ks)
    ax.plot(Ks, measured, "o-", label="measured (worst run)")
    ax.plot(Ks, bounds, "s-", label="bound (Lemma)")
    if paper_bounds is not None:
        ax.plot(Ks, paper_bounds, "^--", color="0.5", label="paper's form")
    ax.set_yscale("log")
    ax.set_xticks(Ks)
    ax.set_xlabel("number of classes K")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


# -- the reduction of Theorem t:hardness, drawn like the paper's Ising figure --------
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


# -- Binary Support Trees and the §4.1 Perceptron -----------------------------------------
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


# -- effective resistance, spanning trees and Binary Support Trees (notebooks 01-03) --------
__all__ += [
    "draw_spanning_tree",
    "draw_loop_erasure",
    "plot_marginals_vs_resistance",
    "plot_cut_vs_weighted_cut",
    "bst_layout",
    "draw_bst",
    "draw_path_order",
    "plot_figure1",
]


def draw_spanning_tree(G: nx.Graph, T: nx.Graph, labels=None, ax=None, pos=None, title: str = "A spanning tree T of G"):
    """``G`` in light grey with the tree ``T`` drawn bold on top (cut edges of ``T`` in red).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = draw_spanning_tree(nx.cycle_graph(4), nx.path_graph(4))
    >>> ax.get_title().splitlines()[0]
    'A spanning tree T of G'
    """
    G = validate_graph(G)
    ax = _axes(ax)
    pos = graph_layout(G) if pos is None else pos
    nx.draw_networkx_edges(G, pos, ax=ax, edge_color="0.85", width=0.6)
    n = G.number_of_nodes()
    y = np.zeros(n, dtype=np.int64) if labels is None else validate_labels(labels, n)
    tree_edges = [(u, v) for u, v in T.edges]
    cut = [(u, v) for u, v in tree_edges if y[u] != y[v]]
    keep = [(u, v) for u, v in tree_edges if y[u] == y[v]]
    nx.draw_networkx_edges(G, pos, edgelist=keep, ax=ax, edge_color="0.2", width=1.8)
    nx.draw_networkx_edges(G, pos, edgelist=cut, ax=ax, edge_color="tab:red", width=2.2)
    colors = [CLASS_COLORS[int(c) % len(CLASS_COLORS)] for c in y]
    nx.draw_networkx_nodes(G, pos, nodelist=range(n), ax=ax, node_color=colors, node_size=40, edgecolors="0.2",
                           linewidths=0.5)
    suffix = f"\n|Φ^T| = {len(cut)} cut tree edges (red)" if labels is not None else f"\n{len(tree_edges)} tree edges (bold)"
    ax.set_title(title + suffix)
    ax.set_xlabel("layout x")
    ax.set_ylabel("layout y")
    ax.tick_params(left=False, bottom=False, labelleft=False, labelbottom=False)
    return ax


def draw_loop_erasure(G: nx.Graph, pos, tree_edges, walk, path, ax=None, title: str = "Wilson: one loop-erased walk"):
    """One step of Wilson's algorithm: the tree so far, the raw walk, and its loop erasure.

    ``tree_edges`` is the tree grown so far (black), ``walk`` the random walk from a new
    start vertex until it hits the tree (orange, thin), ``path`` its loop erasure (blue,
    bold) that is grafted onto the tree.
    """
    ax = _axes(ax)
    nx.draw_networkx_edges(G, pos, ax=ax, edge_color="0.88", width=0.6)
    nx.draw_networkx_edges(G, pos, edgelist=list(tree_edges), ax=ax, edge_color="black", width=2.0)
    walk_edges = list({(min(a, b), max(a, b)) for a, b in zip(walk[:-1], walk[1:])})
    nx.draw_networkx_edges(G, pos, edgelist=walk_edges, ax=ax, edge_color="tab:orange", width=4.0, alpha=0.6)
    nx.draw_networkx_edges(G, pos, edgelist=list(zip(path[:-1], path[1:])), ax=ax, edge_color="tab:blue", width=2.0)
    nx.draw_networkx_nodes(G, pos, ax=ax, node_color="white", node_size=25, edgecolors="0.3", linewidths=0.6)
    nx.draw_networkx_nodes(G, pos, nodelist=[walk[0]], ax=ax, node_color="tab:green", node_size=90)
    erased = len(walk) - len(path)
    ax.set_title(f"{title}\nwalk of {len(walk) - 1} steps (orange), {erased} erased, path of {len(path) - 1} (blue)")
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    return ax


def plot_marginals_vs_resistance(R, freq, samples: int, ax=None, title: str = "P(e ∈ T) = R_e"):
    """Scatter of the sampled edge frequencies against the effective resistances, on the diagonal.

    The grey band is ``+- 3`` binomial standard errors ``sqrt(R (1 - R) / samples)``.
    """
    ax = _axes(ax)
    R, freq = np.asarray(R, dtype=float), np.asarray(freq, dtype=float)
    grid = np.linspace(0, 1, 201)
    band = 3 * np.sqrt(grid * (1 - grid) / samples)
    ax.fill_between(grid, grid - band, grid + band, color="0.85", label="± 3 standard errors")
    ax.plot([0, 1], [0, 1], color="0.3", lw=1, ls="--", label="diagonal")
    ax.scatter(R, freq, s=12, color="tab:blue", label=f"edges ({R.size})", zorder=3)
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_title(f"{title}\n{samples} uniform spanning trees")
    ax.set_xlabel("effective resistance R_e")
    ax.set_ylabel("fraction of sampled trees containing e")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def plot_cut_vs_weighted_cut(names, cuts, weighted, ax=None, title: str = "Cut size vs resistance-weighted cut size"):
    """Grouped bars: ``|Phi^G|`` and ``sum_{Phi^G} R`` for several labelled graphs (log scale)."""
    ax = _axes(ax)
    x = np.arange(len(names))
    ax.bar(x - 0.2, cuts, width=0.4, color="tab:red", label="|Φ^G| (cut edges)")
    ax.bar(x + 0.2, weighted, width=0.4, color="tab:blue", label="Σ over Φ^G of R = E|Φ^T|")
    ax.set_xticks(x, list(names), fontsize=8)
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel("labelled graph")
    ax.set_ylabel("size (log scale)")
    ax.legend(loc="best", fontsize=8)
    return ax


def bst_layout(B) -> dict[int, tuple[float, float]]:
    """Positions of the heap vertices of a BST: leaves left to right at height 0, the root on top.

    Examples
    --------
    >>> from simpred_lite.bst import BinarySupportTree
    >>> pos = bst_layout(BinarySupportTree([0, 1, 2]))
    >>> pos[1], pos[4], pos[7]
    ((1.5, 2.0), (0.0, 0.0), (3.0, 0.0))
    """
    N, d = B.num_leaves, B.depth
    pos = {leaf: (float(leaf - N), 0.0) for leaf in range(N, 2 * N)}
    for v in range(N - 1, 0, -1):
        pos[v] = ((pos[2 * v][0] + pos[2 * v + 1][0]) / 2, float(d - (v.bit_length() - 1)))
    return pos


def draw_bst(B, labels=None, ax=None, title: str = "Binary Support Tree B", show_vertices: bool = True):
    """Draw a :class:`~simpred_lite.bst.BinarySupportTree`, coloured by propagated labels.

    Leaves show their graph vertex; dummy leaves are hollow.  With ``labels``, every vertex
    takes the colour of its propagated class and the cut edges ``Phi^B`` are red.
    """
    ax = _axes(ax)
    pos = bst_layout(B)
    H = B.to_networkx()
    N = B.num_leaves
    y = B.propagate_labels(labels) if labels is not None else None
    cut = [(p, c) for p, c in B.edges() if y is not None and y[p] != y[c]]
    nx.draw_networkx_edges(H, pos, edgelist=[e for e in B.edges() if e not in set(cut)], ax=ax, edge_color="0.4", width=1.0)
    if cut:
        nx.draw_networkx_edges(H, pos, edgelist=cut, ax=ax, edge_color="tab:red", width=2.0, style="dashed")
    real = [v for v in H.nodes if v < N + B.n]
    dummy = [v for v in H.nodes if v >= N + B.n]
    colors = ["white" if y is None else CLASS_COLORS[int(y[v]) % 10] for v in real]
    size = 160 if N <= 16 else 40
    nx.draw_networkx_nodes(H, pos, nodelist=real, ax=ax, node_color=colors, node_size=size, edgecolors="0.2", linewidths=0.6)
    if dummy:
        nx.draw_networkx_nodes(H, pos, nodelist=dummy, ax=ax, node_color="white", node_size=size, edgecolors="0.6",
                               linewidths=0.8, node_shape="s")
    if show_vertices and N <= 32:
        nx.draw_networkx_labels(H, pos, labels={N + i: str(v) for i, v in enumerate(B.order.tolist())}, ax=ax, font_size=7)
    extra = f"\n|Φ^B| = {len(cut)} cut edges (red)" if y is not None else ""
    ax.set_title(f"{title}: N = {N} leaves, depth {B.depth}{extra}")
    ax.set_xlabel("leaf position (the path P)")
    ax.set_ylabel("height")
    return ax


def draw_path_order(order, labels=None, ax=None, title: str = "The path P (depth-first order)"):
    """The vertices of ``order`` on a line, joined in order, coloured by class."""
    ax = _axes(ax)
    order = [int(v) for v in order]
    P = nx.path_graph(len(order))
    pos = {i: (float(i), 0.0) for i in range(len(order))}
    y = None if labels is None else validate_labels(labels, len(order))
    cut = [] if y is None else [(i, i + 1) for i in range(len(order) - 1) if y[order[i]] != y[order[i + 1]]]
    nx.draw_networkx_edges(P, pos, ax=ax, edgelist=[e for e in P.edges if e not in set(cut)], edge_color="0.3", width=1.5)
    if cut:
        nx.draw_networkx_edges(P, pos, ax=ax, edgelist=cut, edge_color="tab:red", width=2.2, style="dashed")
    colors = ["white" if y is None else CLASS_COLORS[int(y[v]) % 10] for v in order]
    nx.draw_networkx_nodes(P, pos, ax=ax, node_color=colors, node_size=160 if len(order) <= 16 else 30, edgecolors="0.2")
    if len(order) <= 32:
        nx.draw_networkx_labels(P, pos, labels=dict(enumerate(map(str, order))), ax=ax, font_size=7)
    extra = f"\n|Φ^P| = {len(cut)} cut edges (red)" if y is not None else ""
    ax.set_title(title + extra)
    ax.set_xlabel("position in the order")
    ax.set_ylabel("")
    ax.set_ylim(-1, 1)
    return ax


def plot_figure1(G: nx.Graph, B, labels, pos=None, figsize=(16, 4)):
    """The paper's Figure 1: ``G`` -> random spanning tree ``T`` -> path ``P`` -> BST ``B``.

    ``B`` must come from :meth:`~simpred_lite.bst.BinarySupportTree.from_graph` (so that
    ``B.tree`` is set).  Returns the matplotlib ``Figure``.
    """
    G = validate_graph(G)
    pos = graph_layout(G) if pos is None else pos
    fig, axes = plt.subplots(1, 4, figsize=figsize, gridspec_kw={"width_ratios": [1, 1, 1.2, 1.4]})
    draw_labelled_graph(G, labels, ax=axes[0], pos=pos, title="G", with_labels=True, node_size=160)
    draw_spanning_tree(G, B.tree, labels, ax=axes[1], pos=pos, title="T (uniform random)")
    nx.draw_networkx_labels(G, pos, ax=axes[1], font_size=7)
    draw_path_order(B.order, labels, ax=axes[2], title=f"P (depth-first from {B.root})")
    draw_bst(B, labels, ax=axes[3], title="B")
    fig.tight_layout()
    return fig
