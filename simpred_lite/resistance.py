"""Effective resistance: Laplacian, incidence matrix, resistances and resistance-weighted cuts (§3).

Identify the graph with an electrical network of unit resistors.  With ``Psi`` the
``m x n`` oriented incidence matrix and ``L = Psi^T Psi`` the Laplacian, the effective
resistance between ``i`` and ``j`` is

    R_ij = (e_i - e_j)^T L^+ (e_i - e_j).

For small graphs all pairs come from the dense pseudoinverse ``L^+``.  For a list of pairs
on a large sparse graph we *ground* one vertex (delete its row and column: the grounded
Laplacian is then symmetric positive definite), factorise it once with a sparse LU, and
solve for ``e_i - e_j`` — never forming a dense ``n x n`` matrix.

Edge weights are ignored: the paper's graphs are unweighted.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .graphs import cut_edges, validate_graph, validate_labels

__all__ = [
    "DENSE_LIMIT",
    "edge_list",
    "laplacian",
    "incidence",
    "laplacian_pinv",
    "effective_resistance",
    "resistance_diameter",
    "resistance_weighted_cut",
]

#: Largest ``n`` for which the dense all-pairs computation (an ``n x n`` pseudoinverse) is done.
DENSE_LIMIT = 4000

_BATCH = 64  # right-hand sides per sparse triangular solve: bounded memory, fewer Python calls


def edge_list(G: nx.Graph) -> list[tuple[int, int]]:
    """The edges of ``G`` as ``(u, v)`` with ``u < v``, in the sorted order used by :func:`incidence`.

    Examples
    --------
    >>> edge_list(nx.cycle_graph(3))
    [(0, 1), (0, 2), (1, 2)]
    """
    G = validate_graph(G)
    return sorted((min(u, v), max(u, v)) for u, v in G.edges)


def laplacian(G: nx.Graph) -> sp.csr_matrix:
    """The (unweighted) graph Laplacian ``L = D - A`` as a sparse CSR matrix.

    Examples
    --------
    >>> laplacian(nx.path_graph(3)).toarray()
    array([[ 1., -1.,  0.],
           [-1.,  2., -1.],
           [ 0., -1.,  1.]])
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    return sp.csr_matrix(nx.laplacian_matrix(G, nodelist=range(n), weight=None), dtype=float)


def incidence(G: nx.Graph) -> sp.csr_matrix:
    """The oriented, transposed incidence matrix ``Psi`` (``m x n``) of §3.

    Row ``l`` belongs to the ``l``-th edge ``(u, v)`` of :func:`edge_list` (``u < v``) and
    maps a vector ``v`` to ``v_u - v_v``.  Hence ``Psi^T Psi = L``.

    Examples
    --------
    >>> Psi = incidence(nx.path_graph(3))
    >>> Psi.toarray()
    array([[ 1., -1.,  0.],
           [ 0.,  1., -1.]])
    >>> bool(np.allclose((Psi.T @ Psi).toarray(), laplacian(nx.path_graph(3)).toarray()))
    True
    """
    edges = edge_list(G)
    n = G.number_of_nodes()
    m = len(edges)
    rows = np.repeat(np.arange(m), 2)
    cols = np.array(edges, dtype=np.int64).reshape(-1) if m else np.zeros(0, dtype=np.int64)
    vals = np.tile([1.0, -1.0], m)
    return sp.csr_matrix((vals, (rows, cols)), shape=(m, n))


def laplacian_pinv(G: nx.Graph) -> np.ndarray:
    """The dense pseudoinverse ``L^+`` (for ``n <= DENSE_LIMIT``).

    Uses ``L^+ = (L + J/n)^{-1} - J/n`` (``J`` the all-ones matrix), exact for a connected
    graph and better conditioned than a generic SVD pseudoinverse.

    Examples
    --------
    >>> Lp = laplacian_pinv(nx.path_graph(3))
    >>> bool(np.allclose(Lp @ laplacian(nx.path_graph(3)).toarray() @ Lp, Lp))
    True
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    _check_dense(n, "laplacian_pinv")
    J = np.full((n, n), 1.0 / n)
    return np.linalg.inv(laplacian(G).toarray() + J) - J


def _check_dense(n: int, what: str) -> None:
    if n > DENSE_LIMIT:
        raise ValueError(
            f"{what} forms a dense {n}x{n} matrix, but n={n} exceeds DENSE_LIMIT={DENSE_LIMIT}; "
            "ask for the pairs you need instead: effective_resistance(G, pairs=[(i, j), ...]) "
            "uses sparse solves and scales to 10^5+ vertices"
        )


def _grounded_solver(G: nx.Graph):
    """Factorise the Laplacian grounded at vertex 0 (SPD for a connected graph)."""
    L = laplacian(G).tocsc()
    Lg = L[1:, 1:]
    return spla.splu(Lg, permc_spec="COLAMD")


def effective_resistance(G: nx.Graph, pairs: Iterable[tuple[int, int]] | None = None) -> np.ndarray:
    """Effective resistances ``R_ij`` of the unit-resistor network ``G``.

    Parameters
    ----------
    G : networkx.Graph
        Connected, undirected, simple; weights are ignored.
    pairs : iterable of (int, int), optional
        If given, return ``R`` for these pairs only, by sparse solves of the grounded
        Laplacian (factorised once). If omitted, return the full ``n x n`` matrix from the
        dense ``L^+`` (only for ``n <= DENSE_LIMIT``).

    Returns
    -------
    numpy.ndarray
        Shape ``(len(pairs),)`` or ``(n, n)``.

    Examples
    --------
    >>> R = effective_resistance(nx.cycle_graph(4))
    >>> round(float(R[0, 1]), 6), round(float(R[0, 2]), 6)   # k(n-k)/n on a cycle
    (0.75, 1.0)
    >>> effective_resistance(nx.path_graph(5), pairs=[(0, 4), (1, 3)]).round(6).tolist()
    [4.0, 2.0]
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    if pairs is None:
        _check_dense(n, "effective_resistance(G) for all pairs")
        Lp = laplacian_pinv(G)
        d = np.diag(Lp)
        R = d[:, None] + d[None, :] - 2.0 * Lp
        np.fill_diagonal(R, 0.0)
        return R
    P = np.array([(int(a), int(b)) for a, b in pairs], dtype=np.int64).reshape(-1, 2)
    bad = (P < 0) | (P >= n)
    if bad.any():
        v = int(P[bad][0])
        raise ValueError(f"unknown vertex {v} in pairs: the graph's vertices are 0..{n - 1}")
    out = np.zeros(len(P))
    if n == 1 or len(P) == 0:
        return out
    lu = _grounded_solver(G)
    for start in range(0, len(P), _BATCH):
        block = P[start : start + _BATCH]
        B = np.zeros((n, len(block)))
        cols = np.arange(len(block))
        B[block[:, 0], cols] += 1.0
        B[block[:, 1], cols] -= 1.0
        B = B[1:]  # grounded vertex 0: its potential is fixed at 0
        X = lu.solve(B)
        out[start : start + len(block)] = np.einsum("ij,ij->j", B, X)
    return out


def resistance_diameter(G: nx.Graph) -> float:
    """``max_{i,j} R_ij``: the resistance diameter (equals the hop diameter on a tree).

    Examples
    --------
    >>> round(resistance_diameter(nx.path_graph(6)), 6)
    5.0
    >>> round(resistance_diameter(nx.complete_graph(5)), 6)   # 2/n on K_n
    0.4
    """
    return float(effective_resistance(G).max())


def resistance_weighted_cut(G: nx.Graph, labels) -> float:
    """``sum over cut edges (i,j) of R_ij`` — the resistance-weighted cut size.

    This is ``E|Phi^T|`` for a uniformly random spanning tree ``T`` (Lemma l:expected),
    the quantity written ``phi`` in Thm. winnowandperceptron. On graphs with dense
    clusters it is far smaller than the plain cut size ``|Phi^G|``.

    Examples
    --------
    >>> G = nx.complete_graph(4); y = [0, 0, 1, 1]
    >>> round(resistance_weighted_cut(G, y), 6)   # 4 cut edges of resistance 2/4
    2.0
    """
    G = validate_graph(G)
    validate_labels(labels, G.number_of_nodes())
    cut = cut_edges(G, labels)
    return float(effective_resistance(G, pairs=cut).sum()) if cut else 0.0
