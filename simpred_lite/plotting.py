"""Figures for the notebooks.

Every function draws on a given matplotlib ``Axes`` (or makes one), sets a title and axis
labels, and returns the ``Axes``, so notebooks can compose panels freely.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

__all__ = [
    "plot_history_pool",
    "draw_history_tree",
    "plot_reduction_constant",
    "plot_bound_vs_measured",
]


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
