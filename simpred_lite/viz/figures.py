"""Figures for the notebooks: labelled graphs with their cut edges, mistake curves.

Every function draws on a given matplotlib ``Axes`` (or makes one), sets a title and axis
labels, and returns the ``Axes``, so notebooks can compose panels freely.  Widgets render
figures through :func:`figure_to_png` from a ``matplotlib.figure.Figure`` that never touches
pyplot, so no figure leaks into a notebook's output by accident.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np

from ..graphs import validate_graph
from .graphs import graph_layout
from .style import CLASS_COLORS, LEGEND_FONTSIZE, new_axes

__all__ = [
    "plot_history_pool",
    "plot_reduction_constant",
    "plot_bound_vs_measured",
    "draw_labelled_path",
    "draw_ising_reduction",
    "plot_scaling",
    "plot_marginals_vs_resistance",
    "plot_cut_vs_weighted_cut",
]



# --------------------------------------------------------------------------------------
# unknown graphs (§5): numbered, oriented edges; the forest of revealed paths
# --------------------------------------------------------------------------------------


# --- class <-> similarity reductions (notebook 04) ---------------------------------------------
def plot_history_pool(sim, ax=None, title: str = "Pool of hallucinated histories"):
    """Pool size per trial of a :class:`~simpred_lite.learners.SimilarityFromClassifier`.

    Draws the entries actually stored and the histories of the literal pool they stand for
    (log scale), with a tick under each master mistake.

    Parameters
    ----------
    sim : SimilarityFromClassifier
        A learner that has played (its ``pool_sizes`` are plotted).
    ax : matplotlib.axes.Axes, optional
        Where to draw the pool sizes (a new figure by default).
    title : str

    Examples
    --------
    The pool after one master mistake on a 4-vertex path:

    >>> import networkx as nx
    >>> from simpred_lite.learners import HalvingClassifier, SimilarityFromClassifier, labelings_with_small_cut
    >>> H = labelings_with_small_cut(nx.path_graph(4), K=2, max_cut=1)
    >>> sim = SimilarityFromClassifier(lambda: HalvingClassifier(H), K=2)
    >>> sim.learn_one(0, 3, 1)
    >>> plot_history_pool(sim).get_yscale()
    'log'
    >>> plt.close("all")
    """
    ax = new_axes(ax)
    t = np.arange(1, len(sim.pool_sizes) + 1)
    # the literal pool is drawn wide and pale underneath, the merged pool thin on top: where they are
    # equal (e.g. before the first split) both stay visible
    ax.step(t, sim.histories_represented, where="post", label="histories (literal pool)", color="tab:red",
            lw=5, alpha=0.45, zorder=2)
    ax.step(t, sim.pool_sizes, where="post", label="entries stored (merged)", color="tab:blue", lw=1.6, zorder=3)
    W = sim.total_weights
    mistakes = [k + 1 for k in range(len(W)) if W[k] != (W[k - 1] if k else 1)]
    ax.plot(mistakes, [1] * len(mistakes), "k|", markersize=14, label="master mistake")
    ax.set_yscale("log")
    ax.set_xlabel("trial t")
    ax.set_ylabel("pool size")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=LEGEND_FONTSIZE)
    return ax


def plot_reduction_constant(Ks, beta: float | None = None, ax=None, title: str = "The constant of Lemma 7"):
    """``c_K(beta)/log2 K`` against ``K``, with the paper's ``c < 5`` line.

    Parameters
    ----------
    Ks : iterable of int
        Numbers of classes, at least 2.
    beta : float, optional
        The master's discount (default: the paper's, ``PAPER_BETA``).
    ax : matplotlib.axes.Axes, optional
        Where to draw the ratios (a new figure by default).
    title : str

    Examples
    --------
    >>> plot_reduction_constant(range(2, 6)).get_xlabel()
    'number of classes K'
    >>> plt.close("all")
    """
    from ..learners.bounds import PAPER_BETA, reduction_constant

    beta = PAPER_BETA if beta is None else beta
    ax = new_axes(ax)
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
    ax.legend(fontsize=LEGEND_FONTSIZE)
    return ax


def plot_bound_vs_measured(Ks, measured, bounds, paper_bounds=None, ax=None,
                           title: str = "Mistakes against the bound", ylabel: str = "mistakes",
                           bound_label: str = "proven bound", paper_label: str = "paper's form of the bound"):
    """Measured worst mistakes per ``K`` next to the proven bound(s), on a log scale.

    The measured values are black markers, not joined (each ``K`` is its own experiment);
    the bounds are joined over ``K`` to show how they grow, and the legend says which is which.

    Parameters
    ----------
    Ks : sequence of int
        The x axis (numbers of classes).
    measured : sequence of float
        Mistakes observed.
    bounds : sequence of float
        The exact bounds.
    paper_bounds : sequence of float, optional
        The paper's looser bounds.
    ax : matplotlib.axes.Axes, optional
        Where to draw the comparison (a new figure by default).
    title : str
    ylabel : str
    bound_label, paper_label : str
        Legend entries of ``bounds`` and ``paper_bounds``: say which bound each one is.
        The legend is drawn outside the axes, on the right.

    Examples
    --------
    >>> plot_bound_vs_measured([2, 3], [3, 4], [10.0, 20.0]).get_ylabel()
    'mistakes'
    >>> plt.close("all")
    """
    ax = new_axes(ax)
    Ks = list(Ks)
    # each K is its own experiment: the measured values are black markers, not joined;
    # the bounds are joined only to show how they grow with K (the legend says so)
    ax.plot(Ks, measured, "o", color="k", ms=7, zorder=3, label="measured: worst run at this K (not joined)")
    ax.plot(Ks, bounds, "s--", color=CLASS_COLORS[0], label=bound_label + " (joined over K)")
    if paper_bounds is not None:
        ax.plot(Ks, paper_bounds, "^:", color="0.5", label=paper_label + " (joined over K)")
    ax.set_yscale("log")
    ax.set_xticks(Ks)
    ax.set_xlabel("number of classes K")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=LEGEND_FONTSIZE)
    return ax


# -- the reduction of Theorem 2, drawn like the paper's Ising figure --------

# the angles (degrees, in data units) at which nested constraint arcs that share an end leave it:
# from the innermost to the outermost; an arc alone at its end leaves it at the steep one
_FAN_LO, _FAN_HI = 50.0, 85.0


def _arc_order(arcs):
    """The arcs ``(span, lo, hi)`` of one side of the path, from the lowest to the tallest.

    Start from the order of increasing span (a nested arc lies under the arc around it), then swap
    neighbours in that order while this moves crossings away from crowded vertices: two interleaving
    arcs cross once, on the leg of the taller one at its end inside the other's span; a crossing is
    hard to read at a vertex where other arcs of this side end too, and easy at a vertex with a
    single arc.  A swap that would put an arc above one that encloses it is never made.
    """
    order = [(lo, hi) for _, lo, hi in arcs]
    ends: dict = {}
    for lo, hi in order:
        ends[lo] = ends.get(lo, 0) + 1
        ends[hi] = ends.get(hi, 0) + 1

    def crowded(seq) -> int:
        rank = {a: r for r, a in enumerate(seq)}
        bad = 0
        for a in seq:
            for b in seq:
                (i, j), (k, m) = a, b
                if i <= k and m <= j and a != b and rank[b] > rank[a]:
                    return len(seq) ** 2           # an enclosed arc above its enclosing one: never
                if i < k < j < m:                  # interleaving: one crossing, at the taller's inner end
                    bad += ends[j if rank[a] > rank[b] else k] > 1
        return bad

    score, improved = crowded(order), True
    while improved:
        improved = False
        for r in range(len(order) - 1):
            trial = order[:r] + [order[r + 1], order[r]] + order[r + 2:]
            if (s := crowded(trial)) < score:
                order, score, improved = trial, s, True
    return order


def draw_labelled_path(copies, ax=None, new=(), constraints=None, title: str = "Labelled path"):
    """Draw a path whose vertex ``p`` copies the G-vertex ``copies[p]``.

    Parameters
    ----------
    copies : sequence of int
        The G-vertex copied by each path vertex, in path order.
    ax : matplotlib.axes.Axes, optional
        Where to draw the path (a new figure by default).
    new : iterable of int
        Path positions to colour light blue (the vertices a splice just added).
    constraints : iterable of (int, int), optional
        Equality constraints, drawn as arcs: one colour and line style per copied G-vertex (that of the
        arc's left end), named in a legend beside the panel; all arcs of one vertex lie on one side of
        the path, the sides chosen so that as few arcs as possible cross; an arc is taller than the arcs it
        encloses, and two arcs that must cross are stacked so that they cross at a vertex where no other
        arc of that side ends, where possible; every arc
        ends exactly at its two vertices, and nested arcs that share an end vertex leave it at different
        angles (the inner one shallower), so that each can be followed.
    title : str
        Above the path.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = draw_labelled_path([0, 1, 0], ax=new_axes())
    >>> ax.get_title()
    'Labelled path'
    """
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MplPath

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
    pairs = sorted((min(i, j), max(i, j)) for i, j in constraints or ())
    below = False
    if pairs:
        # one colour and line style per copied G-vertex; each vertex's arcs go above or below the
        # path, the split chosen to cross as few arcs as possible; arc height grows with its span
        groups: dict = {}
        for lo, hi in pairs:
            groups.setdefault(copies[lo], []).append((lo, hi))
        keys = sorted(groups)

        def crossings(a, b):
            return sum(1 for (i, j) in groups[a] for (k, m) in groups[b] if i < k < j < m or k < i < m < j)

        cost = {(a, b): crossings(a, b) for a in keys for b in keys if a < b}
        splits = range(1 << len(keys)) if len(keys) <= 12 else [sum(1 << t for t in range(1, len(keys), 2))]
        best = min(splits, key=lambda s: (sum(c for (a, b), c in cost.items()
                                              if (s >> keys.index(a)) & 1 == (s >> keys.index(b)) & 1), s))
        # six line styles, so that up to six G-vertices differ by more than their colour
        styles = ["-", "--", "-.", ":", (0, (6, 1.5, 1, 1.5, 1, 1.5)), (0, (9, 2))]
        sides = {v: -1 if (best >> t) & 1 else 1 for t, v in enumerate(keys)}
        # every arc ends exactly at its two path vertices (drawn from their centres, under the vertex discs); on
        # each side the arcs get distinct heights, in increasing order of span (ties: from left to right). An arc
        # is a trapezoid with rounded top corners, not half an ellipse: ellipses all leave their ends vertically,
        # so arcs sharing an end ran together there. The arcs that share an end and leave it on the same side in
        # the same direction (they are nested) leave it at angles spread from the shallowest (the innermost) to
        # the steepest (the outermost), so that they fan out from it and each can be followed
        height: dict = {}
        for side in (1, -1):
            mine = _arc_order(sorted((hi - lo, lo, hi) for lo, hi in pairs if sides[copies[lo]] == side))
            for r, (lo, hi) in enumerate(mine):
                height[lo, hi] = 0.45 + 1.25 * r / max(len(mine) - 1, 1)   # the lowest clears the vertex discs
        fans: dict = {}
        for lo, hi in pairs:
            fans.setdefault((lo, +1, sides[copies[lo]]), []).append((hi - lo, lo, hi))
            fans.setdefault((hi, -1, sides[copies[lo]]), []).append((hi - lo, lo, hi))
        angle: dict = {}
        for (end, _, _), fan in fans.items():
            for i, (_, lo, hi) in enumerate(sorted(fan)):
                angle[lo, hi, end] = _FAN_HI if len(fan) == 1 else _FAN_LO + (_FAN_HI - _FAN_LO) * i / (len(fan) - 1)
        for t, v in enumerate(keys):
            side = sides[v]
            below = below or side < 0
            color, ls = CLASS_COLORS[t % 10], styles[t % len(styles)]
            for lo, hi in groups[v]:
                y = side * height[lo, hi]
                d_lo, d_hi = (height[lo, hi] / math.tan(math.radians(angle[lo, hi, end])) for end in (lo, hi))
                shrink = min(1.0, 0.9 * (hi - lo) / (d_lo + d_hi))
                b, c = (lo + shrink * d_lo, y), (hi - shrink * d_hi, y)
                # a trapezoid with rounded top corners: up from lo at its angle, flat, down to hi at its angle
                flat = min(0.5, (c[0] - b[0]) / 2)
                verts = [(lo, 0.0), (lo + 0.65 * (b[0] - lo), 0.65 * y), b, (b[0] + flat, y),
                         (c[0] - flat, y), c, (hi - 0.65 * (hi - c[0]), 0.65 * y), (hi, 0.0)]
                codes = [MplPath.MOVETO, MplPath.LINETO, MplPath.CURVE3, MplPath.CURVE3,
                         MplPath.LINETO, MplPath.CURVE3, MplPath.CURVE3, MplPath.LINETO]
                ax.add_patch(PathPatch(MplPath(verts, codes), fill=False, edgecolor=color, ls=ls, lw=1.2,
                                       zorder=1.5, gid=f"constraint {lo}-{hi}"))
            ax.plot([], [], color=color, ls=ls, lw=1.2, label=f"copies of {v}")
        ax.legend(title="arcs: y equal", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=LEGEND_FONTSIZE,
                  title_fontsize=LEGEND_FONTSIZE, frameon=False)
    ax.set_xlim(-0.7, len(copies) - 0.3)
    ax.set_ylim(-1.9 if below else -0.5, 1.9 if pairs else 0.6)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("position on the path", fontsize=10)
    ax.set_ylabel("")
    ax.set_yticks([])
    ax.set_xticks(x)
    ax.tick_params(labelsize=9)
    for spine in ("left", "right", "top"):
        ax.spines[spine].set_visible(False)
    if below:
        ax.spines["bottom"].set_position(("data", -1.9))
    return ax


def draw_ising_reduction(G: nx.Graph, fig=None, seed: int | None = None):
    """The paper's Ising figure for ``G``: (a) ``G``, (b) ``T``, (c) ``P_0``, one panel per splice, ``P``.

    Vertex numbers are the G-vertices (from 0); the vertices each splice adds are light blue;
    the last panel shows the equality constraints ``C`` as arcs.  ``G`` is drawn on a circle,
    or with :func:`graph_layout` when a layout ``seed`` is given.

    Parameters
    ----------
    G : networkx.Graph
        A small connected graph.
    fig : matplotlib.figure.Figure, optional
    seed : int, optional
        Layout seed; a circular layout when ``None``.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = draw_ising_reduction(nx.cycle_graph(3))
    >>> len(fig.axes)
    5
    """
    from ..theory.hardness import reduce_to_constrained_path, reduction_steps

    G = validate_graph(G)
    steps = reduction_steps(G)
    rows = 1 + len(steps.paths) + 1
    if fig is None:
        fig = plt.figure(figsize=(7.6, 1.6 * rows + 2.4))
    grid = fig.add_gridspec(rows, 2, height_ratios=[2.2] + [1] * (rows - 2) + [3.0])
    pos = nx.circular_layout(G) if seed is None else graph_layout(G, seed=seed)
    tree = set(steps.tree_edges)
    panels = [("(a) the graph G", list(G.edges)), ("(b) spanning tree T (DFS from 0)", steps.tree_edges)]
    for k, (title, edgelist) in enumerate(panels):
        ax = fig.add_subplot(grid[0, k])
        other = [e for e in G.edges if (min(e), max(e)) not in tree]
        nx.draw_networkx_edges(G, pos, edgelist=[e for e in edgelist if (min(e), max(e)) in tree], ax=ax, width=2)
        if k == 0:
            nx.draw_networkx_edges(G, pos, edgelist=other, ax=ax, style="dashed", edge_color="tab:red", width=1.5)
        nx.draw_networkx_nodes(G, pos, ax=ax, node_color="white", edgecolors="0.1", node_size=330)
        nx.draw_networkx_labels(G, pos, ax=ax, font_size=9)
        ax.set_title(title + (f"; R = {steps.non_tree_edges} dashed" if k == 0 else ""), fontsize=10)
        ax.set_axis_off()
    letters = "cdefghijklmnopqrstuvwxyz"
    for k, path in enumerate(steps.paths):
        ax = fig.add_subplot(grid[1 + k, :])
        if k == 0:
            draw_labelled_path(path, ax=ax,
                               title=f"(c) $P_0$: the depth-first visit of T, {len(path)} = 2n - 1 vertices")
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


def plot_scaling(xs, series: Mapping[str, object], ax=None, title: str = "Cost per trial",
                 xlabel: str = "n", ylabel: str = "seconds per trial"):
    """Log–log plot of one or more cost curves against ``xs``.

    Each curve has its own colour and marker; with at most six sizes each has a tick.  No curve
    is fitted: a measured cost per call has a fixed overhead and cache effects that depend on
    the machine, so a fitted law would describe the machine as much as the algorithm.

    Parameters
    ----------
    xs : sequence of float
        The sizes (x axis).
    series : mapping name -> sequence of float
        One cost curve per name.
    ax : matplotlib.axes.Axes, optional
        Where to draw the curves (a new figure by default).
    title : str
    xlabel, ylabel : str

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> plot_scaling([10, 100], {"fast": [1e-6, 2e-6], "slow": [1e-5, 1e-3]}, new_axes()).get_xscale()
    'log'
    >>> [line.get_label() for line in plot_scaling([4, 16], {"a": [1, 2], "b": [3, 4]}, new_axes()).get_lines()]
    ['a', 'b']
    """
    from matplotlib.ticker import NullFormatter

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    markers = "os^Dv<>P"
    for k, (name, ys) in enumerate(series.items()):
        color = CLASS_COLORS[k % 10]
        ax.loglog(xs, ys, marker=markers[k % len(markers)], ls="-", label=name, color=color)
    if len(xs) <= 6:  # few sizes: a tick at each, no crowded minor labels
        ax.set_xticks(list(xs), [f"{x:g}" for x in xs])
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(loc="best", fontsize=LEGEND_FONTSIZE)
    return ax


# -- effective resistance, spanning trees and Binary Support Trees (notebooks 01-03) --------


def plot_marginals_vs_resistance(R, freq, samples: int, ax=None, title: str = "P(e ∈ T) = R_e"):
    """Scatter of the sampled edge frequencies against the effective resistances, on the diagonal.

    The grey band is ``+- 3`` binomial standard errors ``sqrt(R (1 - R) / samples)``.

    Parameters
    ----------
    R : array_like of float
        Effective resistance of each edge.
    freq : array_like of float
        Frequency of each edge in the sampled trees.
    samples : int
        Number of sampled trees.
    ax : matplotlib.axes.Axes, optional
        Where to draw the scatter (a new figure by default).
    title : str

    Examples
    --------
    >>> ax = plot_marginals_vs_resistance([0.5, 1.0], [0.48, 1.0], samples=100, ax=new_axes())
    >>> ax.get_xlabel() != ""
    True
    """
    ax = new_axes(ax)
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
    ax.legend(loc="upper left", fontsize=LEGEND_FONTSIZE)
    return ax


def plot_cut_vs_weighted_cut(names, cuts, weighted, ax=None, title: str = "Cut size vs resistance-weighted cut size"):
    """Grouped bars: ``|Phi^G|`` and ``sum_{Phi^G} R`` for several labelled graphs (log scale).

    Parameters
    ----------
    names : sequence of str
        One label per graph.
    cuts : sequence of int
        ``|Phi^G|`` of each.
    weighted : sequence of float
        ``sum_{Phi^G} R`` of each.
    ax : matplotlib.axes.Axes, optional
        Where to draw the bars (a new figure by default).
    title : str

    Examples
    --------
    >>> plot_cut_vs_weighted_cut(["a", "b"], [4, 10], [1.5, 3.0], ax=new_axes()).get_yscale()
    'log'
    """
    ax = new_axes(ax)
    x = np.arange(len(names))
    ax.bar(x - 0.2, cuts, width=0.4, color="tab:red", label=r"$|\Phi^G|$ (cut edges)")
    ax.bar(x + 0.2, weighted, width=0.4, color="tab:blue",
           label=r"$\phi = \sum R_e$ over the cut edges $= \mathrm{E}\,|\Phi^T|$")
    ax.set_xticks(x, list(names), fontsize=9)
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel("labelled graph")
    ax.set_ylabel("size (log scale)")
    ax.legend(loc="best", fontsize=LEGEND_FONTSIZE)
    return ax


