"""Where the matrix learners' instances come from: the rank-one ``X_t = psi psi^T`` (§3.2, §4).

A pair ``(i, j)`` becomes the rank-one *similarity instance*

    X_t = psi psi^T,    psi = (Psi^+)^T (e_i - e_j)  in R^m,

with ``Psi`` the ``m x n`` incidence matrix.  ``psi`` is the unit electrical flow from
``i`` to ``j`` (``Psi^T psi = e_i - e_j`` with the least energy), so
``<X_s, X_t> = (psi_s^T psi_t)^2 = ((e_i - e_j)^T L^+ (e_k - e_l))^2`` and
``||X_t||_F = psi^T psi = R_ij``, the effective resistance.  On a **tree** the flow is
forced along the unique path, so ``psi`` is the signed indicator of the path's edges and
``psi_s^T psi_t`` is an integer, the *signed overlap* of two paths: every computation of
the Perceptron on a tree (and on a Binary Support Tree, ``Psi_B``) is done in exact
integers.

This module holds the instances themselves (:func:`similarity_instance`,
:func:`bst_instance`, :func:`signed_path_overlap`, the incidence ``Psi_B`` of a BST), the
comparator ``U`` of Proposition 2 (:func:`comparator_matrix`) and the two *geometries* the
dense references (:class:`~simpred_lite.learners.matrix_perceptron.MatrixPerceptronReference`,
:class:`~simpred_lite.learners.matrix_winnow.MatrixWinnowReference`) draw explicit instances
from.  The efficient learners use instances only through inner products
(:mod:`~simpred_lite.learners.kernels`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ..bst import BinarySupportTree, heap_path
from ..checks import check_edge_limit, check_memory, check_pair
from ..graphs import frozen_copy, validate_graph, validate_labels
from ..resistance import DENSE_LIMIT, edge_list, incidence, laplacian_pinv

__all__ = [
    "bst_incidence",
    "bst_instance",
    "signed_path_overlap",
    "similarity_instance",
    "comparator_matrix",
]


# -- instances on a Binary Support Tree -------------------------------------------------------
def bst_incidence(bst: BinarySupportTree) -> sp.csr_matrix:
    """The incidence matrix ``Psi_B`` of the BST: ``(2N-2) x (2N-1)``.

    Row ``c - 2`` is the edge ``(c // 2, c)`` from a parent to its child ``c`` and maps
    ``v`` to ``v[parent] - v[child]``; column ``h - 1`` is the vertex of heap index ``h``
    (dummy leaves included).

    Parameters
    ----------
    bst : BinarySupportTree
        The tree, with ``N`` leaves (dummy leaves included).

    Examples
    --------
    >>> B = BinarySupportTree([0, 1])
    >>> bst_incidence(B).toarray()
    array([[ 1., -1.,  0.],
           [ 1.,  0., -1.]])
    """
    N = bst.num_leaves
    child = np.arange(2, 2 * N)
    rows = np.repeat(child - 2, 2)
    cols = np.stack([child // 2 - 1, child - 1], axis=1).reshape(-1)
    vals = np.tile([1.0, -1.0], child.size)
    return sp.csr_matrix((vals, (rows, cols)), shape=(2 * N - 2, 2 * N - 1))


def bst_instance(bst: BinarySupportTree, u: int, v: int) -> tuple[np.ndarray, np.ndarray]:
    """The instance ``psi = (Psi_B^+)^T (e_leaf(u) - e_leaf(v))`` as sparse integers.

    On a tree the unit flow from ``u`` to ``v`` runs along the path: ``psi`` is ``-1`` on
    the edges climbing from ``u`` to the lowest common ancestor and ``+1`` on the edges
    descending to ``v`` (with the orientation of :func:`bst_incidence`), ``0`` elsewhere.

    Parameters
    ----------
    bst : BinarySupportTree
        The tree.
    u, v : int
        Two vertices of the original graph (their leaves are the path's ends).

    Returns
    -------
    (edges, signs) : numpy.ndarray, numpy.ndarray
        Row indices of ``Psi_B`` and the nonzero values of ``psi`` there.

    Examples
    --------
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> edges, signs = bst_instance(B, 0, 2)
    >>> edges.tolist(), signs.tolist()
    ([2, 0, 4, 1], [-1, -1, 1, 1])
    >>> x = np.zeros(6); x[edges] = signs
    >>> e = np.zeros(7); e[B.leaf(0) - 1], e[B.leaf(2) - 1] = 1, -1
    >>> bool(np.allclose(x, np.linalg.pinv(bst_incidence(B).toarray()).T @ e))
    True
    """
    path = heap_path(bst.leaf(u), bst.leaf(v))  # leaf(u), ..., the lowest common ancestor, ..., leaf(v)
    k = len(path) // 2
    up, down = path[:k], path[: k : -1]  # child ends of the edges climbed from each leaf
    edges = np.array(up + down, dtype=np.int64) - 2
    signs = np.concatenate([-np.ones(len(up), np.int64), np.ones(len(down), np.int64)])
    return edges, signs


def signed_path_overlap(bst: BinarySupportTree, pair_s: Any, pair_t: Any) -> int:
    """``psi_s^T psi_t`` for two pairs on the BST, in exact integers.

    The count of edges the two paths share, each ``+1`` if both flows cross it the same
    way and ``-1`` otherwise. Its square is ``<X_s, X_t>``.

    Parameters
    ----------
    bst : BinarySupportTree
        The tree.
    pair_s, pair_t : tuple of int
        Two pairs ``(u, v)`` of vertices of the original graph.

    Examples
    --------
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> signed_path_overlap(B, (0, 2), (1, 3)), signed_path_overlap(B, (0, 2), (3, 1))
    (2, -2)
    """
    es, ss = bst_instance(bst, *pair_s)
    et, st = bst_instance(bst, *pair_t)
    sign_s = dict(zip(es.tolist(), ss.tolist()))
    return int(sum(sign_s.get(e, 0) * s for e, s in zip(et.tolist(), st.tolist())))


def similarity_instance(G: nx.Graph, i: int, j: int) -> np.ndarray:
    """``psi = (Psi^+)^T (e_i - e_j)``: the vector whose outer product is the instance ``X_t``.

    ``psi`` lives on the edges (order of :func:`~simpred_lite.resistance.edge_list`); it is the
    unit electrical flow from ``i`` to ``j``, so ``psi^T psi = R_ij``.  Dense ``L^+``: for
    small graphs (``n <= DENSE_LIMIT``).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.
    i, j : int
        The pair.

    Examples
    --------
    >>> psi = similarity_instance(nx.cycle_graph(4), 0, 1)   # 3/4 of the current on edge 0-1
    >>> psi.round(3).tolist(), round(float(psi @ psi), 3)
    ([0.75, 0.25, -0.25, -0.25], 0.75)
    """
    geo = GraphGeometry(G, "similarity_instance", None, "")
    i, j = check_pair(i, j, geo.n)
    psi = geo._psi_rows[:, i] - geo._psi_rows[:, j]
    return psi


# -- the comparator and the bounds of Proposition 2 ------------------------------------------
def comparator_matrix(G: nx.Graph, labels: Any) -> np.ndarray:
    """The comparator ``U = Psi (sum_k u_k u_k^T) Psi^T`` of the proof of Proposition 2.

    ``u_k`` is the indicator vector of class ``k``.  It separates every sequence:
    ``<U, X_t> = 2`` on dissimilar pairs and ``0`` on similar ones, and
    ``||U||_F^2 = sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2 <= 4 |Phi|^2`` (equality for two
    classes; the ``2 |Phi|^2`` printed in the proof sketch is a slip, since
    ``sum_k |Phi_k|^2`` alone can reach ``2 |Phi|^2``).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.
    labels : sequence of int
        The class of each vertex.

    Examples
    --------
    >>> U = comparator_matrix(nx.path_graph(4), [0, 0, 1, 1])
    >>> float((U ** 2).sum())    # one cut edge, two classes: 4 |Phi|^2
    4.0
    """
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    check_memory(8 * G.number_of_edges() * (G.number_of_edges() + G.number_of_nodes()),
                 "comparator_matrix (an m x m and an m x n float matrix)",
                 "for ||U||_F^2 use simpred_lite.learners.bounds.comparator_norm_sq(G, labels), "
                 "computed from cut counts in O(m)")
    Psi = incidence(G).toarray()
    classes = np.unique(y)
    Pu = Psi @ (y[:, None] == classes[None, :]).astype(float)  # columns Psi u_k
    return Pu @ Pu.T



# -- geometry: where instances come from ------------------------------------------------------
class GraphGeometry:
    """Instances ``Psi L^+ (e_i - e_j)`` of a general graph (dense ``L^+``)."""

    def __init__(self, G: nx.Graph, what: str, edge_limit: int | None, alternative: str):
        G = validate_graph(G)
        self.n = G.number_of_nodes()
        edges = np.array(edge_list(G), dtype=np.int64).reshape(-1, 2)
        self.m = len(edges)
        if edge_limit is not None:
            check_edge_limit(self.m, what, edge_limit, alternative)
        if self.n > DENSE_LIMIT:
            raise ValueError(
                f"{what} needs the dense L^+ of G, limited to n <= {DENSE_LIMIT} vertices, but n={self.n}; "
                "run on the graph's Binary Support Tree instead (Theorem 3): "
                "BSTPerceptron.from_graph(G, seed), or "
                "MatrixWinnow(BinarySupportTree.from_graph(G, seed), cut_size=...)"
            )
        self.exact = self.m == self.n - 1  # a tree: psi is a signed path indicator
        G = frozen_copy(G)
        check_memory(8 * (3 * self.m * self.n + 3 * self.n**2), f"{what} (three m x n float tables of instances)",
                     "use the kernel form (MatrixPerceptron, MatrixWinnow), which needs only kernel values "
                     "(e_a - e_b)^T L^+ (e_i - e_j), or run on the graph's Binary Support Tree")
        Lp = laplacian_pinv(G)
        self._psi_rows = Lp[edges[:, 0]] - Lp[edges[:, 1]]  # psi(i, j) = column i - column j
        d = np.diag(Lp)
        Rmat = d[:, None] + d[None, :] - 2.0 * Lp
        self.R = float(Rmat.max())
        if self.exact:
            self.R = int(round(self.R))
        self.graph = G

    def diameter_error(self) -> float | None:
        return 0.0 if self.exact else None  # the dense reference keeps no error bound for R

    def exact_R2(self) -> Fraction:
        if not self.exact:
            raise ValueError("the dense reference has no exact R^2 on a non-tree graph; "
                             "use the kernel form (MatrixPerceptron)")
        return Fraction(int(self.R) ** 2)

    def instance(self, i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        psi = self._psi_rows[:, i] - self._psi_rows[:, j]
        if self.exact:
            psi = np.rint(psi).astype(np.int64)
            idx = np.flatnonzero(psi)
            return idx, psi[idx]
        return np.arange(self.m), psi


class BSTGeometry:
    """Instances ``Psi_B^+ (e_leaf(i) - e_leaf(j))``: signed leaf-to-leaf paths of a BST."""

    exact = True

    def __init__(self, bst: BinarySupportTree, what: str, edge_limit: int | None, alternative: str):
        if not isinstance(bst, BinarySupportTree):
            raise TypeError(f"expected a BinarySupportTree, got {type(bst).__name__}")
        self.bst = bst
        self.n = bst.n
        self.m = 2 * bst.num_leaves - 2
        if edge_limit is not None:
            check_edge_limit(self.m, what, edge_limit, alternative)
        self.R = 2 * bst.depth  # leaf-to-leaf diameter = resistance diameter of the tree B

    def diameter_error(self) -> float:
        return 0.0

    def exact_R2(self) -> Fraction:
        return Fraction(int(self.R) ** 2)

    def instance(self, i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        return bst_instance(self.bst, i, j)


def instance_geometry(G: nx.Graph | BinarySupportTree, what: str, edge_limit: int | None,
                      alternative: str) -> GraphGeometry | BSTGeometry:
    if isinstance(G, BinarySupportTree):
        return BSTGeometry(G, what, edge_limit, alternative)
    if isinstance(G, nx.Graph):
        return GraphGeometry(G, what, edge_limit, alternative)
    raise TypeError(f"{what} takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")
