"""The objects of the proof of Theorem 5 (§5 and the appendix), made concrete.

Edges are oriented from the lower to the higher vertex; a path is a signed edge vector
(:func:`edge_path_vector`); a spanning tree's fundamental cutsets map a graph path to the tree
path with the same ends (:func:`fundamental_cutset_matrix`); the classes give the
coefficients ``U`` of the comparator (:func:`class_coefficients`, :func:`target_matrix`)
whose norm enters the r-norm Perceptron's bound.  :func:`figure6_graph` is the paper's
Figure 6 (``figure4_graph``, its former name, is kept as an alias) and
:func:`random_tree_with_clusters` a random tree whose classes are connected
(the setting of :class:`~simpred_lite.learners.TreeWinnow`).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np

from ..checks import check_graph_memory, check_int, check_random_state
from ..graphs import validate_graph, validate_labels

__all__ = [
    "edge_path_vector",
    "fundamental_cutset_matrix",
    "class_coefficients",
    "signed_cut_vector",
    "complete_spanning_tree",
    "target_matrix",
    "figure6_graph",
    "figure4_graph",
    "random_tree_with_clusters",
]


def _oriented(edges) -> list[tuple[int, int]]:
    return [(min(int(a), int(b)), max(int(a), int(b))) for a, b in edges]


def edge_path_vector(path: Sequence[int], edges) -> np.ndarray:
    """The signed path vector ``p`` over ``edges`` (oriented low -> high): ``+1`` along, ``-1`` against.

    Examples
    --------
    >>> edge_path_vector([2, 0, 1], [(0, 1), (0, 2), (1, 2)]).tolist()
    [1, -1, 0]
    """
    edges = _oriented(edges)
    index = {e: k for k, e in enumerate(edges)}
    p = np.zeros(len(edges), dtype=np.int64)
    for a, b in zip(path, path[1:]):
        key = (min(a, b), max(a, b))
        if key not in index:
            raise ValueError(f"the path uses ({a}, {b}), which is not among the given edges")
        p[index[key]] += 1 if a < b else -1
    return p


def _tree_sides(tree_edges: list[tuple[int, int]], n: int) -> list[np.ndarray]:
    """For each branch ``(lo, hi)``: boolean mask of the side of ``hi`` once the branch is removed."""
    T = nx.Graph()
    T.add_nodes_from(range(n))
    T.add_edges_from(tree_edges)
    sides = []
    for lo, hi in tree_edges:
        T.remove_edge(lo, hi)
        mask = np.zeros(n, dtype=bool)
        mask[list(nx.node_connected_component(T, hi))] = True
        T.add_edge(lo, hi)
        sides.append(mask)
    return sides


def fundamental_cutset_matrix(tree_edges, edges, n: int | None = None) -> np.ndarray:
    """The fundamental cutset matrix ``Q`` of a spanning tree (rows: branches, columns: ``edges``).

    Removing branch ``b = (lo, hi)`` splits ``T`` into the side of ``lo`` and the side of
    ``hi``; the cut is oriented like the branch.  ``Q[b, e] = +1`` if edge ``e``
    (oriented low -> high) crosses from the ``lo`` side to the ``hi`` side, ``-1`` the other
    way, ``0`` if it does not cross.  ``Q p`` is then the signed tree path of any path
    ``p`` (path invariance), and ``Q^T u_k`` is the signed cut of class ``k``.

    Examples
    --------
    >>> fundamental_cutset_matrix([(0, 1), (1, 2)], [(0, 1), (1, 2), (0, 2)]).tolist()
    [[1, 0, 1], [0, 1, 1]]
    """
    tree_edges, edges = _oriented(tree_edges), _oriented(edges)
    if n is None:
        n = 1 + max(max(e) for e in tree_edges + edges)
    if len(tree_edges) != n - 1 or not nx.is_tree(nx.Graph(tree_edges)) or len(nx.Graph(tree_edges)) != n:
        raise ValueError(f"tree_edges must be the n - 1 = {n - 1} edges of a spanning tree on 0..{n - 1}")
    Q = np.zeros((n - 1, len(edges)), dtype=np.int64)
    lo = np.array([a for a, _ in edges], dtype=np.int64)
    hi = np.array([b for _, b in edges], dtype=np.int64)
    for row, side in enumerate(_tree_sides(tree_edges, n)):
        Q[row] = side[hi].astype(np.int64) - side[lo].astype(np.int64)
    return Q


def class_coefficients(tree_edges, labels) -> np.ndarray:
    """The vectors ``u_k in {-1, 0, 1}^(n-1)`` of the proof: one row per class.

    ``u_k[b] = +1`` if branch ``b = (lo, hi)`` leaves class ``k`` (``lo`` in it, ``hi`` not),
    ``-1`` if it enters it, ``0`` otherwise; so ``||u_k||_1 = |Phi_k^T|``.  A disconnected
    class is the sum of the vectors of its pieces.

    Examples
    --------
    >>> class_coefficients([(0, 1), (1, 2)], [0, 1, 0]).tolist()
    [[1, -1], [-1, 1]]
    """
    tree_edges = _oriented(tree_edges)
    y = validate_labels(labels, len(labels))
    K = int(y.max()) + 1
    U = np.zeros((K, len(tree_edges)), dtype=np.int64)
    for b, (lo, hi) in enumerate(tree_edges):
        if y[lo] != y[hi]:
            U[y[lo], b] = 1
            U[y[hi], b] = -1
    return U


def signed_cut_vector(edges, labels, k: int) -> np.ndarray:
    """The cut of class ``k`` as a signed vector over ``edges``: ``+1`` leaving ``k``, ``-1`` entering.

    Examples
    --------
    >>> signed_cut_vector([(0, 1), (1, 2), (0, 2)], [0, 1, 0], 1).tolist()
    [-1, 1, 0]
    """
    y = validate_labels(labels, len(labels))
    return np.array([int(y[a] == k) - int(y[b] == k) for a, b in _oriented(edges)], dtype=np.int64)


def complete_spanning_tree(G: nx.Graph, forest_edges) -> list[tuple[int, int]]:
    """The forest's edges, in order, followed by edges of ``G`` completing it to a spanning tree.

    The proof's footnote: if fewer than ``n - 1`` edges were revealed, ``T`` is any
    spanning tree of ``G`` containing them; its extra branches come after the revealed
    ones, so the instance vectors ``x_t`` keep their meaning.

    Examples
    --------
    >>> complete_spanning_tree(nx.cycle_graph(4), [(1, 2)])
    [(1, 2), (0, 1), (0, 3)]
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    forest_edges = _oriented(forest_edges)
    for a, b in forest_edges:
        if not G.has_edge(a, b):
            raise ValueError(f"forest edge ({a}, {b}) is not an edge of G")
    components = nx.utils.UnionFind(range(n))
    out = []
    for k, (a, b) in enumerate(forest_edges + sorted(_oriented(G.edges))):
        if components[a] != components[b]:
            components.union(a, b)
            out.append((a, b))
        elif k < len(forest_edges):
            raise ValueError(f"forest edge ({a}, {b}) closes a circuit: the edges do not form a forest")
    return out


def target_matrix(U_rows: np.ndarray) -> np.ndarray:
    """``U = sum_k u_k u_k^T``, the (rank ``<= K``) separator of equation (9).

    Examples
    --------
    >>> target_matrix(np.array([[1, -1], [-1, 1]])).tolist()
    [[2, -2], [-2, 2]]
    """
    U_rows = np.asarray(U_rows, dtype=np.int64)
    return U_rows.T @ U_rows


def figure6_graph() -> tuple[nx.Graph, list[tuple[int, int]], list[tuple[int, int]], np.ndarray]:
    """The 7-vertex graph of Figures 3(b)-(c) and 6, rebuilt from the captions (vertices ``v - 1``).

    Also importable as ``figure4_graph``, its former name, which did not match the printed
    figure numbers (the printed Figure 4 is a different figure).

    The paper's image is not in its source; the captions pin it down: branches
    ``e1..e6 = (1,2), (1,3), (1,4), (1,5), (2,7), (3,6)`` (the thick spanning tree) and
    chords ``e7..e12 = (2,4), (3,7), (4,6), (4,7), (4,5), (5,7)`` (``e7`` could also be
    ``(2,5)``: no caption tells them apart).  Classes: blue ``{4,5,6,7}``, green ``{1}``,
    red ``{2,3}`` (disconnected).  Here vertex ``v`` of the paper is ``v - 1``.

    Returns
    -------
    G : networkx.Graph
    edges : list of (int, int)
        ``e1 .. e12`` in the paper's order (0-based vertices, low -> high).
    tree_edges : list of (int, int)
        The branches ``e1 .. e6``.
    labels : numpy.ndarray
        ``0`` blue, ``1`` green, ``2`` red.

    Examples
    --------
    >>> G, edges, tree, labels = figure6_graph()
    >>> G.number_of_nodes(), G.number_of_edges(), labels.tolist()
    (7, 12, [1, 2, 2, 0, 0, 0, 0])
    """
    paper = [(1, 2), (1, 3), (1, 4), (1, 5), (2, 7), (3, 6), (2, 4), (3, 7), (4, 6), (4, 7), (4, 5), (5, 7)]
    edges = [(a - 1, b - 1) for a, b in paper]
    G = nx.Graph()
    G.add_nodes_from(range(7))
    G.add_edges_from(edges)
    labels = np.array([1, 2, 2, 0, 0, 0, 0], dtype=np.int64)
    return G, edges, edges[:6], labels


#: Former name of :func:`figure6_graph`, kept so that existing code keeps working.
figure4_graph = figure6_graph


def random_tree_with_clusters(n: int, K: int, seed) -> tuple[nx.Graph, np.ndarray]:
    """The warm-up instance of §5: a uniformly random tree cut into ``K`` connected clusters.

    The tree is a uniform spanning tree of the complete graph (Wilson's algorithm); ``K - 1``
    of its edges, chosen at random, are the cut edges and the clusters are the components
    left when they are removed.  Every class is connected and ``|Phi^G| = K - 1``.

    Examples
    --------
    >>> T, labels = random_tree_with_clusters(30, 4, seed=0)
    >>> nx.is_tree(T), len(set(labels.tolist())), sum(int(labels[a] != labels[b]) for a, b in T.edges)
    (True, 4, 3)
    """
    from ..spanning import wilson

    n = check_int(n, "n", low=1)
    K = check_int(K, "K", low=1, high=n)
    check_graph_memory(n, n * (n - 1) / 2,
                       f"random_tree_with_clusters({n}, ...): the complete graph K_n it samples from",
                       "use a smaller n (a few thousand vertices at most)")
    rng = check_random_state(seed)
    T = wilson(nx.complete_graph(n), seed=rng)
    edges = sorted((min(e), max(e)) for e in T.edges)
    cut = [edges[k] for k in rng.choice(len(edges), K - 1, replace=False)]
    H = T.copy()
    H.remove_edges_from(cut)
    labels = np.zeros(n, dtype=np.int64)
    for c, comp in enumerate(sorted(nx.connected_components(H), key=min)):
        labels[sorted(comp)] = c
    return T, labels
