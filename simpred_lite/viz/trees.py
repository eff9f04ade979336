"""Tree drawings: THE layout of a Binary Support Tree and every BST figure.

:func:`bst_layout` places the heap vertices of a BST (leaves left to right, parents centred
above); :func:`draw_bst`, :func:`draw_bst_trial` and :func:`plot_figure1` all use it.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib import patheffects
from matplotlib.lines import Line2D

from ..graphs import validate_graph
from .graphs import draw_labelled_graph, draw_path_order, draw_spanning_tree, graph_layout
from .style import CLASS_COLORS, LEGEND_FONTSIZE, new_axes

__all__ = [
    "bst_layout",
    "draw_bst",
    "draw_bst_trial",
    "draw_lambda_regions",
    "plot_update_matrix",
    "draw_history_tree",
    "plot_figure1",
]


def bst_layout(B) -> dict[int, tuple[float, float]]:
    """Positions of the heap vertices of a BST: leaves left to right at height 0, the root on top.

    Parameters
    ----------
    B : BinarySupportTree

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


def draw_bst(B, labels=None, ax=None, title: str = "Binary Support Tree B", show_vertices: bool = True,
             *, path=None):
    """Draw a :class:`~simpred_lite.bst.BinarySupportTree`, coloured by propagated labels.

    Leaves show their graph vertex; dummy leaves are hollow squares.  With ``labels``, every
    vertex takes the colour of its propagated class and the cut edges ``Phi^B`` are red and
    dashed; ``path`` (heap indices, e.g. ``B.path(i, j)``) is drawn in black.

    Parameters
    ----------
    B : BinarySupportTree
    labels : array_like of int, optional
        The class of each graph vertex.
    ax : matplotlib.axes.Axes, optional
        Where to draw the tree (a new figure by default).
    title : str
    show_vertices : bool, default True
        Write the graph vertex on each leaf (trees with at most 32 leaves).
    path : sequence of int, optional
        A path of heap indices to draw in black.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from simpred_lite.bst import BinarySupportTree
    >>> B = BinarySupportTree([2, 0, 1])
    >>> ax = draw_bst(B, [0, 0, 1], new_axes(), path=B.path(2, 1))
    >>> ax.get_title().splitlines()[0]
    'Binary Support Tree B: N = 4 leaves, depth 2'
    """
    ax = new_axes(ax)
    pos = bst_layout(B)
    H = B.to_networkx()
    N = B.num_leaves
    y = B.propagate_labels(labels) if labels is not None else None
    cut = [(p, c) for p, c in B.edges() if y is not None and y[p] != y[c]]
    nx.draw_networkx_edges(H, pos, edgelist=[e for e in B.edges() if e not in set(cut)], ax=ax, edge_color="0.4",
                           width=1.0)
    if cut:
        nx.draw_networkx_edges(H, pos, edgelist=cut, ax=ax, edge_color="tab:red", width=2.0, style="dashed")
    crossed = []
    if path is not None and len(path) >= 2:
        steps = list(zip(path[:-1], path[1:]))
        nx.draw_networkx_edges(H, pos, edgelist=steps, ax=ax, edge_color="black", width=3.0)
        # the cut edges the path crosses, on top in solid red (as the graph drawings do), so all can be counted
        cut_set = {frozenset(e) for e in cut}
        crossed = [e for e in steps if frozenset(e) in cut_set]
        if crossed:
            nx.draw_networkx_edges(H, pos, edgelist=crossed, ax=ax, edge_color="tab:red", width=3.0)
    real = [v for v in H.nodes if v < N + B.n]
    dummy = [v for v in H.nodes if v >= N + B.n]
    colors = ["white" if y is None else CLASS_COLORS[int(y[v]) % 10] for v in real]
    size = 160 if N <= 16 else 40
    nx.draw_networkx_nodes(H, pos, nodelist=real, ax=ax, node_color=colors, node_size=size, edgecolors="0.2",
                           linewidths=0.6)
    if dummy:                                   # squares, coloured by the label they copy (hollow when unlabelled)
        dummy_colors = ["white" if y is None else CLASS_COLORS[int(y[v]) % 10] for v in dummy]
        nx.draw_networkx_nodes(H, pos, nodelist=dummy, ax=ax, node_color=dummy_colors, node_size=size,
                               edgecolors="0.4", linewidths=0.8, node_shape="s")
    if show_vertices and N <= 32:
        nx.draw_networkx_labels(H, pos, labels={N + i: str(v) for i, v in enumerate(B.order.tolist())}, ax=ax,
                                font_size=7)
    extra = f"\n$|\\Phi^B|$ = {len(cut)} cut edges (red, dashed" if y is not None else ""
    if y is not None:
        extra += f"; the {len(crossed)} on the path solid red)" if crossed else ")"
    ax.set_title(f"{title}: N = {N} leaves, depth {B.depth}{extra}")
    ax.set_axis_off()
    return ax


def draw_bst_trial(bst, structure=None, ax=None, labels=None, title: str = "Binary Support Tree"):
    """Draw a BST as in Figure 2 of the paper: ``P_t`` filled light blue, ``S_t`` ringed in
    black, the tags ``f_t`` in red above their vertices (beside them, away from the edge to the
    parent), heap indices inside the vertices and the graph vertex (or ``d`` for a dummy leaf) under each leaf.

    With ``labels`` the border of every vertex is the colour of its propagated class; the
    black ring of a vertex of ``S_t`` is drawn *outside* that border, so the class of every
    vertex stays readable.

    Parameters
    ----------
    bst : BinarySupportTree
    structure : TrialStructure, optional
        From :func:`simpred_lite.learners.bst_perceptron.trial_structure`.
    ax : matplotlib.axes.Axes, optional
        Where to draw the trial's tree (a new figure by default).
    labels : array_like of int, optional
        Vertex classes, propagated to the tree and drawn as vertex colours when given.
    title : str
        The figure's title; the pair of the trial is not added to it.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    The trial of the pair ``(0, 3)`` on a four-leaf tree:

    >>> from simpred_lite.bst import BinarySupportTree
    >>> from simpred_lite.learners.bst_perceptron import trial_structure
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> draw_bst_trial(B, trial_structure(B, 0, 3), new_axes()).get_title().splitlines()[0]
    'Binary Support Tree'
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
        if h in S:  # an outer black ring: the class colour of the border stays visible inside it
            ax.scatter([x], [z], s=1000, c="none", edgecolors="black", linewidths=2.2, zorder=2)
        ax.scatter([x], [z], s=560, c=face, edgecolors=edge, linewidths=2.4, zorder=2)
        ax.text(x, z, str(h), ha="center", va="center", fontsize=10, zorder=3)
        if structure and h in structure.tags:  # above and beside the vertex, clear of its ring and of the edge up
            side = 0 if h == 1 else (-1 if h % 2 == 0 else 1)      # left child: upper left; right: upper right
            ax.text(x + 0.3 * side, z + (0.42 if side == 0 else 0.24), str(structure.tags[h]),
                    ha={-1: "right", 0: "center", 1: "left"}[side], va="bottom", color="tab:red", fontsize=10,
                    fontweight="bold", zorder=4,
                    bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none", alpha=0.85))
    for h in range(N, 2 * N):
        v = bst.vertex_at(h)
        ax.text(pos[h][0], -0.45, "d" if v is None else f"v{v}", ha="center", va="top", fontsize=10)
    ring = Line2D([], [], ls="none", marker="o", ms=13, mfc="none", mec="black", mew=2.2,
                  label=r"in $\mathcal{S}_t$: black ring")
    if y is not None:  # the border colour of every vertex is its class
        classes = sorted({int(c) for c in y[1:] if c is not None and c >= 0})
        handles = [Line2D([], [], ls="none", marker="o", ms=10, mfc="white", mec=CLASS_COLORS[c % 10], mew=2.4,
                          label=f"class {c}") for c in classes]
        ax.legend(handles=handles + [ring], title="vertex border", loc="upper left", bbox_to_anchor=(1.0, 1.0),
                  fontsize=LEGEND_FONTSIZE, title_fontsize=LEGEND_FONTSIZE, frameon=False, borderaxespad=0.0)
    elif structure:
        ax.legend(handles=[ring], loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=LEGEND_FONTSIZE,
                  frameon=False, borderaxespad=0.0)
    ax.set_title(title)
    ax.set_ylim(-0.9, bst.depth + 0.75)
    ax.set_axis_off()
    return ax


def draw_lambda_regions(bst, structure, ax=None, title: str = r"The regions $\Lambda_t(\ell)$ of §4.1"):
    """Draw the regions ``Λ_t(ℓ)``, ``ℓ ∈ S_t``, of a trial on a BST, one colour per region.

    ``Λ_t(ℓ)`` is the largest subtree of ``B`` through ``ℓ`` that avoids the interior of the
    path ``P_t`` (§4.1, Lemma 12).  Every vertex of a region is filled with the region's
    colour and the legend gives ``ℓ`` with its tag ``f_t(ℓ)``; the interior vertices of
    ``P_t``, which lie in no region, are white with the path drawn thick and black.  Heap
    indices are written inside the vertices, the graph vertex (``d`` for a dummy) under each
    leaf, and the vertices of ``S_t`` have thick borders, as in :func:`draw_bst_trial`.  The fills are
    opaque and drawn above the edges, so no edge (nor the thick path) crosses a heap index.

    Parameters
    ----------
    bst : BinarySupportTree
    structure : TrialStructure
        From :func:`simpred_lite.learners.bst_perceptron.trial_structure`.
    ax : matplotlib.axes.Axes, optional
        Where to draw the regions (a new figure by default).
    title : str

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    The pair ``(0, 3)`` on a four-leaf tree: the path ``4, 2, 1, 3, 7`` leaves the regions
    of its two end leaves and of the off-path children ``5`` and ``6``:

    >>> from simpred_lite.bst import BinarySupportTree
    >>> from simpred_lite.learners.bst_perceptron import trial_structure
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> ax = draw_lambda_regions(B, trial_structure(B, 0, 3), new_axes())
    >>> texts = [t.get_text() for t in ax.get_legend().get_texts()]    # mathtext labels
    >>> for text in texts:
    ...     print(text)
    $\\Lambda_t(4)$: $f_t = 1$
    $\\Lambda_t(5)$: $f_t = 2$
    $\\Lambda_t(6)$: $f_t = 4$
    $\\Lambda_t(7)$: $f_t = 5$
    interior of $\\mathcal{P}_t$ (no region)
    >>> ax.axison
    False
    """
    from matplotlib.colors import to_rgb
    from matplotlib.lines import Line2D

    from .style import LEGEND_FONTSIZE

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    pos = bst_layout(bst)
    N = bst.num_leaves
    interior = set(structure.path[1:-1])
    region: dict[int, int] = {}
    for l in structure.S:  # the subtree through l avoiding the interior of P_t
        stack = [l]
        region[l] = l
        while stack:
            v = stack.pop()
            for w in ([v // 2] if v > 1 else []) + ([2 * v, 2 * v + 1] if v < N else []):
                if w not in interior and w not in region:
                    region[w] = l
                    stack.append(w)
    ells = sorted(structure.S)
    # opaque fills (the region colour blended with white): the edges, drawn below the vertices, stop at their
    # borders instead of showing through them and crossing the heap indices
    colour = {l: tuple(0.75 * c + 0.25 for c in to_rgb(CLASS_COLORS[k % len(CLASS_COLORS)]))
              for k, l in enumerate(ells)}
    for c in range(2, 2 * N):
        (x1, y1), (x2, y2) = pos[c // 2], pos[c]
        on_path = c in structure.path and c // 2 in structure.path
        ax.plot([x1, x2], [y1, y2], color="black" if on_path else "0.6", lw=3.0 if on_path else 1.0, zorder=1)
    S = set(structure.S)
    size = 560 if N <= 16 else 60
    for h, (x, z) in pos.items():
        face = "white" if h in interior else colour[region[h]]
        ax.scatter([x], [z], s=size, c=[face], edgecolors="black", linewidths=3.0 if h in S else 1.0, zorder=3)
        if N <= 16:
            ax.text(x, z, str(h), ha="center", va="center", fontsize=10, zorder=4)
    if N <= 32:
        for h in range(N, 2 * N):
            v = bst.vertex_at(h)
            ax.text(pos[h][0], -0.45, "d" if v is None else f"v{v}", ha="center", va="top",
                    fontsize=10 if N <= 16 else 8)
    handles = [Line2D([], [], ls="none", marker="o", ms=9, mfc=colour[l], mec="black",
                      label=rf"$\Lambda_t({l})$: $f_t = {structure.tags[l]}$") for l in ells]
    handles.append(Line2D([], [], color="black", lw=3.0, marker="o", ms=9, mfc="white", mec="black",
                          label=r"interior of $\mathcal{P}_t$ (no region)"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=LEGEND_FONTSIZE,
              frameon=False, borderaxespad=0.0)
    ax.set_title(title)
    ax.set_ylim(-0.9, bst.depth + 0.6)
    ax.set_axis_off()
    return ax


def plot_update_matrix(structure, ax=None, title: str = "Update (f(l) - f(l'))^2 on S_t x S_t"):
    """Figure 2 (right): the values added to ``F`` on ``S_t x S_t``, rows and columns ``P_t ∪ S_t``;
    the entries summed by the prediction (``P_t x P_t``) are outlined in blue.

    Parameters
    ----------
    structure : TrialStructure
        From :func:`simpred_lite.learners.bst_perceptron.trial_structure`.
    ax : matplotlib.axes.Axes, optional
        Where to draw the update (a new figure by default).
    title : str
        Default: the update's formula.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from simpred_lite import bst, learners
    >>> B = bst.BinarySupportTree([3, 1, 0, 2])
    >>> plot_update_matrix(learners.bst_perceptron.trial_structure(B, 1, 2), new_axes()).get_title() != ""
    True
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
                ax.text(c, r, str(M[r, c]), ha="center", va="center", fontsize=10,
                        color="white" if M[r, c] > 0.6 * M.max() else "black")
            if a in P and b in P:
                # inset, with a white halo: legible on the darkest cells and apart from its neighbours
                ax.add_patch(plt.Rectangle((c - 0.42, r - 0.42), 0.84, 0.84, fill=False, ec="tab:blue", lw=2.0,
                                           path_effects=[patheffects.withStroke(linewidth=4.0, foreground="white")]))
    ax.set_xticks(range(len(verts)), [str(v) for v in verts], fontsize=10)
    ax.set_yticks(range(len(verts)), [str(v) for v in verts], fontsize=10)
    ax.set_xlabel("vertex l' of B (heap index)")
    ax.set_ylabel("vertex l of B (heap index)")
    ax.set_title(title)
    return ax


def draw_history_tree(T, K: int, ax=None, title: str = "Genealogy of the histories", truth=None, mistakes=None):
    """Draw the tree returned by :func:`~simpred_lite.learners.history_tree`.

    Leaves are spread left to right, depth (number of splits) grows downwards; live
    histories are filled, with an area proportional to their weight, dead ones hollow.
    Each edge is labelled by the guessed classes ``a,b`` of the pair it appended.

    Parameters
    ----------
    T : networkx.DiGraph
        From :func:`simpred_lite.learners.history_tree`.
    K : int
        Number of classes.
    ax : matplotlib.axes.Axes, optional
        Where to draw the genealogy (a new figure by default).
    title : str
        Shown above the tree of histories, with the number of classes.
    truth : array_like of int, optional
        The true classes.  If given, the history whose guesses are all true (the
        history ``s*`` of the proof of Lemma 7) is drawn in red, with a legend entry.
    mistakes : sequence of (t, i, j), optional
        The master's mistakes in order: trial number and pair.  If given, every split history
        is labelled ``t=5: (0,3)``, the trial and pair it was split on (a history is split on
        the first master mistake after its birth whose pair its children guessed: the same
        pair asked again with the same state gets the same wrong vote).

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
    >>> ax = draw_history_tree(history_tree(sim), K=2, truth=[0, 0, 1, 1])
    >>> [t.get_text() for t in ax.get_legend().get_texts()][0]
    'true history s* (every guess right)'
    >>> plt.close("all")
    """
    ax = new_axes(ax)
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
    true_nodes = {0}
    if truth is not None:
        truth = np.asarray(truth)
        for v in nx.topological_sort(T):
            if v and next(iter(T.predecessors(v))) in true_nodes:
                if all(int(truth[vertex]) == int(cls) for vertex, cls in T.nodes[v]["guess"]):
                    true_nodes.add(v)
    born = {0: 0}  # the trial at which each history was born (0: the empty history)
    split_at = {}
    if mistakes is not None:
        mistakes = [(int(t), int(i), int(j)) for t, i, j in mistakes]
        for v in nx.topological_sort(T):
            kids = list(T.successors(v))
            if not kids:
                continue
            (i, _), (j, _) = T.nodes[kids[0]]["guess"]
            t = next((t for t, a, b in mistakes if t > born.get(v, 0) and (a, b) == (i, j)), None)
            if t is None:
                raise ValueError(f"mistakes has no master mistake on the pair ({i}, {j}) after trial {born.get(v, 0)}; "
                                 "pass the (t, i, j) of every master mistake of this learner")
            split_at[v] = (t, i, j)
            for c in kids:
                born[c] = t
    live_w = [float(T.nodes[v]["weight"]) for v in T if T.nodes[v]["alive"]]
    w_max = max(live_w) if live_w else 1.0
    for u, v in T.edges:
        on_truth = truth is not None and v in true_nodes
        ax.plot([x[u], x[v]], [-T.nodes[u]["depth"], -T.nodes[v]["depth"]], color="tab:red" if on_truth else "0.6",
                lw=2.5 if on_truth else 0.8, zorder=1)
        if T.number_of_nodes() <= 40:
            (_, a), (_, b) = T.nodes[v]["guess"]
            ax.annotate(f"{a},{b}", ((x[u] + x[v]) / 2, -(T.nodes[u]["depth"] + T.nodes[v]["depth"]) / 2),
                        ha="center", va="center", fontsize=10, zorder=3,
                        color="tab:red" if on_truth else "black",
                        bbox={"boxstyle": "round,pad=0.35", "fc": "white", "ec": "none"})
    for v in T:
        alive = T.nodes[v]["alive"]
        size = 30 + 270 * float(T.nodes[v]["weight"]) / w_max if alive else 35
        colour = "tab:red" if truth is not None and v in true_nodes and v else "tab:blue"
        ax.scatter([x[v]], [-T.nodes[v]["depth"]], s=size, zorder=2,
                   c=colour if alive else "white", edgecolors=colour)
        if v in split_at:
            t, i, j = split_at[v]
            ax.annotate(f"t={t}: ({i},{j})", (x[v], -T.nodes[v]["depth"]), xytext=(0, 7), textcoords="offset points",
                        ha="center", va="bottom", fontsize=9, zorder=4, color=colour,
                        bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})
    if truth is not None:
        ax.plot([], [], color="tab:red", lw=2.5, label="true history s* (every guess right)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=LEGEND_FONTSIZE)
    depth = max(T.nodes[v]["depth"] for v in T)
    ax.set_yticks([-d for d in range(depth + 1)], [str(d) for d in range(depth + 1)])
    if split_at:
        ax.set_ylim(-depth - 0.25, 0.45)  # room above the root for its label
    ax.set_xlabel("histories (leaves spread left to right)")
    ax.set_ylabel("splits of the history (depth)")
    ax.set_title(title)
    ax.set_xticks([])
    return ax


def plot_figure1(G: nx.Graph, B, labels, pos=None, figsize=(8, 7.6)):
    """The paper's Figure 1: ``G`` -> random spanning tree ``T`` -> path ``P`` -> BST ``B``.

    Four panels on two rows (``G``, ``T`` above; ``P``, ``B`` below), every cut edge red and
    dashed, one legend of the classes under the figure.  ``B`` must come from
    :meth:`~simpred_lite.bst.BinarySupportTree.from_graph` (so that ``B.tree`` is set).
    Returns the matplotlib ``Figure``.

    Parameters
    ----------
    G : networkx.Graph
    B : BinarySupportTree
        Built by ``BinarySupportTree.from_graph`` (so ``B.tree`` is set).
    labels : array_like of int
    pos : dict, optional
    figsize : (float, float)
        The default is narrow enough for JupyterLab to show it at full size.

    Examples
    --------
    >>> from simpred_lite.bst import BinarySupportTree
    >>> G = nx.path_graph(6)
    >>> len(plot_figure1(G, BinarySupportTree.from_graph(G, seed=0), [0, 0, 0, 1, 1, 1]).axes)
    4
    """
    G = validate_graph(G)
    pos = graph_layout(G) if pos is None else pos
    fig, grid = plt.subplots(2, 2, figsize=figsize, gridspec_kw={"height_ratios": [1.25, 1]})
    axes = grid.ravel()
    draw_labelled_graph(G, labels, ax=axes[0], pos=pos, title="G", with_labels=True, node_size=300,
                        legend=False, font_size=10)
    draw_spanning_tree(G, B.tree, labels, ax=axes[1], pos=pos, title="T (uniform random)", node_size=300,
                       cut_style="dashed")
    nx.draw_networkx_labels(G, pos, ax=axes[1], font_size=10)
    # the depth-first numbering that produces P, beside each vertex of T
    xy = np.array([pos[v] for v in G], dtype=float)
    dy = 0.09 * max(np.ptp(xy[:, 1]), 1e-9)
    for rank, v in enumerate(B.order.tolist()):
        # centred right above its vertex, on a white patch: never read as the neighbour's, never lost on an edge
        axes[1].text(pos[v][0], pos[v][1] + dy, f"#{rank + 1}", fontsize=10, color="tab:purple",
                     ha="center", va="bottom", fontweight="bold",
                     bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.9})
    axes[1].set_title(axes[1].get_title() + f"\n#k: k-th vertex of the depth-first walk from {B.root}")
    axes[1].margins(0.15)
    draw_path_order(B.order, labels, ax=axes[2], title=f"P (depth-first from {B.root})")
    draw_bst(B, labels, ax=axes[3], title="B")
    for ax in axes:                                         # vertex numbers a student reads
        ax.title.set_fontsize(10.5)
        for t in ax.texts:
            t.set_fontsize(10)
    y = np.asarray(labels)
    handles = [Line2D([], [], ls="none", marker="o", ms=9, mfc=CLASS_COLORS[int(k) % len(CLASS_COLORS)],
                      mec="0.2", label=f"class {int(k)}") for k in np.unique(y)]
    handles.append(Line2D([], [], color="tab:red", ls="--", lw=2, label="cut edge (in G, T, P and B)"))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=10, frameon=False)
    return fig
