"""Effective resistance: Laplacian, incidence matrix, resistances and resistance-weighted cuts (§3).

Identify the graph with an electrical network of unit resistors.  With ``Psi`` the
``m x n`` oriented incidence matrix and ``L = Psi^T Psi`` the Laplacian, the effective
resistance between ``i`` and ``j`` is

    R_ij = (e_i - e_j)^T L^+ (e_i - e_j).

For small graphs all pairs come from the dense pseudoinverse ``L^+``.  For a list of pairs
on a large sparse graph no dense ``n x n`` matrix is ever formed; two exact solvers share
the work:

* *direct*: ground one vertex (delete its row and column: the grounded Laplacian is then
  symmetric positive definite), factorise it once with a sparse LU, and solve for each
  ``e_i - e_j``.  Fast when the factor stays sparse (grids, planar and tree-like graphs).
* *conjugate gradients*: on well-connected graphs (expanders, random graphs) any
  factorisation fills in almost completely, but the Laplacian is well conditioned, so
  preconditioned CG converges in a few dozen matrix-vector products per pair.

Edge weights are ignored: the paper's graphs are unweighted.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np
import scipy.sparse as sp

from .checks import check_vertex
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
    "grounded_solver",
]

#: Largest ``n`` for which the dense all-pairs computation (an ``n x n`` pseudoinverse) is done.
DENSE_LIMIT = 4000

_BATCH = 64  # right-hand sides solved together: fewer Python calls ...
_RHS_ENTRIES = 1 << 22  # ... but at most this many dense entries (32 MB) per batch
_CG_RTOL = 1e-12  # relative residual at which conjugate gradients stop
_AUTO_DIRECT_N = 5000  # "auto": below this size always factorise
_AUTO_CG_PROBE = 300  # "auto": CG iterations allowed on the first pair before falling back


def edge_list(G: nx.Graph) -> list[tuple[int, int]]:
    """The edges of ``G`` as ``(u, v)`` with ``u < v``, in the sorted order used by :func:`incidence`.

    Parameters
    ----------
    G : networkx.Graph
        The graph whose edges are listed, each as ``(u, v)`` with ``u < v``.

    Examples
    --------
    >>> edge_list(nx.cycle_graph(3))
    [(0, 1), (0, 2), (1, 2)]
    """
    G = validate_graph(G)
    return sorted((min(u, v), max(u, v)) for u, v in G.edges)


def laplacian(G: nx.Graph) -> sp.csr_matrix:
    """The (unweighted) graph Laplacian ``L = D - A`` as a sparse CSR matrix.

    Parameters
    ----------
    G : networkx.Graph
        The graph whose Laplacian ``L = D - A`` is built (edge weights ignored).

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

    Parameters
    ----------
    G : networkx.Graph
        The graph whose signed edge-by-vertex incidence matrix is built.

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

    Parameters
    ----------
    G : networkx.Graph
        A connected graph with at most ``DENSE_LIMIT`` vertices.

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


def grounded_solver(G: nx.Graph):
    """Factorise the Laplacian grounded at vertex 0 (SPD for a connected graph).

    A symmetric fill-reducing ordering and no pivoting suit an SPD matrix: about half the
    fill of the default column ordering on a grid.  The sparse solves of
    :func:`effective_resistance` and of the Matrix Perceptron's kernel on large graphs use it.

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1`` (validated by the caller).

    Returns
    -------
    scipy.sparse.linalg.SuperLU
        ``solve(b)`` solves ``L[1:, 1:] x = b``.

    Examples
    --------
    >>> lu = grounded_solver(nx.path_graph(3))
    >>> lu.solve(np.array([1.0, 0.0])).round(6).tolist()    # potentials of 1, 2 with 0 grounded
    [1.0, 1.0]
    """
    import scipy.sparse.linalg as spla  # loaded on first use: `import simpred_lite` stays light

    L = laplacian(G).tocsc()
    Lg = L[1:, 1:]
    return spla.splu(Lg, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0)


def _check_pairs(pairs, n: int) -> np.ndarray:
    """The pairs as an ``(p, 2)`` int64 array, or an error naming the bad entry."""
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
        raise TypeError(f"pairs must be a sequence of vertex pairs, got {pairs!r}; e.g. pairs=[(0, 1), (2, 5)]")
    rows = []
    for t, pair in enumerate(pairs):
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{t}] = {pair!r} is not a pair (i, j) of vertices") from None
        rows.append((check_vertex(a, n, f"pairs[{t}] vertex"), check_vertex(b, n, f"pairs[{t}] vertex")))
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def _pair_rhs(block: np.ndarray, n: int) -> np.ndarray:
    """Columns ``e_i - e_j``, one per pair of ``block``."""
    B = np.zeros((n, len(block)))
    cols = np.arange(len(block))
    B[block[:, 0], cols] += 1.0
    B[block[:, 1], cols] -= 1.0
    return B


def resistances_direct(G: nx.Graph, P: np.ndarray, strategy: str = "auto") -> np.ndarray:
    """Resistances from one sparse factorisation ``M = L D L^T`` of the grounded Laplacian.

    ``R = b^T M^{-1} b = sum_k y_k^2 / D_k`` with ``y = L^{-1} b``: one forward solve per pair,
    and because ``b = e_i - e_j`` has two nonzeros, ``y`` is nonzero only on the ancestors of
    those two positions in the elimination tree, so the solve visits only those columns
    (on a 316 x 316 grid about 2 000 of the 10^5 columns).
    """
    n = G.number_of_nodes()
    lu = grounded_solver(G)
    perm = lu.perm_c
    if strategy == "solve" or not np.array_equal(lu.perm_r, perm):  # plain (batched) solves
        return _resistances_lu_solve(lu, P, n)
    Lf = sp.csc_matrix(lu.L)
    Lf.sort_indices()
    indptr, indices, data = Lf.indptr, Lf.indices, Lf.data
    size = n - 1
    # SuperLU stores the unit diagonal explicitly: skip to the strictly-lower part of each
    # column, whose first row is the column's parent in the elimination tree
    col_of = np.repeat(np.arange(size), np.diff(indptr))
    upto_diag = np.add.reduceat((indices <= col_of).astype(np.int64), indptr[:-1])
    starts = indptr[:-1] + upto_diag
    has_below = starts < indptr[1:]
    first_below = np.where(has_below, indices[np.minimum(starts, indices.size - 1)], -1)
    etree = first_below.tolist()
    D = lu.U.diagonal()
    pos = np.full(n, -1, dtype=np.int64)
    pos[1:] = perm  # grounded row v-1 of the Laplacian sits at position perm[v-1] of M
    cstart, cend = starts.tolist(), indptr[1:].tolist()
    # the elimination-tree solve costs ~3 us of Python per column of the reach; a full
    # (batched, compiled) solve costs ~2 ns per nonzero of the factor: pick the cheaper
    probe = P[: min(len(P), 16)]
    reach_sizes = []
    for a, b in probe.tolist():
        seen = set()
        for k in (int(pos[a]), int(pos[b])):
            while k >= 0 and k not in seen:
                seen.add(k)
                k = etree[k]
        reach_sizes.append(len(seen))
    if strategy == "auto" and 1500 * np.mean(reach_sizes) > Lf.nnz + lu.U.nnz:
        return _resistances_lu_solve(lu, P, n)
    y = np.zeros(size)
    out = np.zeros(len(P))
    for t, (a, b) in enumerate(P.tolist()):
        reach = set()
        for v, sign in ((a, 1.0), (b, -1.0)):
            k = int(pos[v])
            if k < 0:
                continue
            y[k] += sign
            while k >= 0 and k not in reach:
                reach.add(k)
                k = etree[k]
        cols = sorted(reach)  # parents have larger indices: increasing order is topological
        for j in cols:
            yj = y[j]
            if yj != 0.0 and cstart[j] < cend[j]:
                rows = indices[cstart[j] : cend[j]]
                y[rows] -= data[cstart[j] : cend[j]] * yj
        idx = np.fromiter(cols, dtype=np.int64, count=len(cols))
        out[t] = float(np.sum(y[idx] ** 2 / D[idx]))
        y[idx] = 0.0
        if y.any():  # safety net: a fill entry outside the reach would mean a wrong tree
            return _resistances_lu_solve(lu, P, n)
    return out


def _resistances_lu_solve(lu, P: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(len(P))
    batch = max(1, min(_BATCH, _RHS_ENTRIES // n))
    for start in range(0, len(P), batch):
        block = P[start : start + batch]
        B = _pair_rhs(block, n)[1:]  # grounded vertex 0: its potential is fixed at 0
        X = lu.solve(B)
        out[start : start + len(block)] = np.einsum("ij,ij->j", B, X)
    return out


def _block_pcg(L: sp.csr_matrix, B: np.ndarray, dinv: np.ndarray, maxiter: int) -> tuple[np.ndarray, bool]:
    """Jacobi-preconditioned conjugate gradients on ``L X = B``, one recurrence per column.

    ``L`` is singular but every column of ``B`` is orthogonal to the all-ones vector (it
    is ``e_i - e_j``), so each system is consistent and CG converges within ``range(L)``.
    A column stops (and is dropped from the batch) once its residual is below ``_CG_RTOL``
    times its right-hand side; iterating past convergence would only amplify round-off.
    """
    X = np.zeros_like(B)
    bnorm = np.sqrt(np.einsum("ij,ij->j", B, B))
    act = np.flatnonzero(bnorm > 0)  # the columns still iterating
    Rs = B[:, act].copy()
    Z = dinv[:, None] * Rs
    Pd = Z.copy()
    rz = np.einsum("ij,ij->j", Rs, Z)
    for _ in range(maxiter):
        keep = np.sqrt(np.einsum("ij,ij->j", Rs, Rs)) > _CG_RTOL * bnorm[act]
        if not keep.all():
            act, Rs, Pd, rz = act[keep], Rs[:, keep], Pd[:, keep], rz[keep]
        if act.size == 0:
            return X, True
        Q = L @ Pd
        alpha = rz / np.einsum("ij,ij->j", Pd, Q)
        X[:, act] += alpha * Pd
        Rs -= alpha * Q
        Z = dinv[:, None] * Rs
        rz_new = np.einsum("ij,ij->j", Rs, Z)
        Pd = Z + (rz_new / rz) * Pd
        rz = rz_new
    return X, bool((np.sqrt(np.einsum("ij,ij->j", Rs, Rs)) <= _CG_RTOL * bnorm[act]).all())


def resistances_cg(G: nx.Graph, P: np.ndarray, maxiter: int) -> np.ndarray | None:
    """Resistances by block PCG, or ``None`` if some column has not converged in ``maxiter``."""
    n = G.number_of_nodes()
    L = laplacian(G)
    dinv = 1.0 / L.diagonal()
    out = np.zeros(len(P))
    batch = max(1, min(_BATCH, _RHS_ENTRIES // n))
    for start in range(0, len(P), batch):
        block = P[start : start + batch]
        B = _pair_rhs(block, n)
        X, ok = _block_pcg(L, B, dinv, maxiter)
        if not ok:
            return None
        out[start : start + len(block)] = np.einsum("ij,ij->j", B, X)
    return out


def effective_resistance(G: nx.Graph, pairs: Iterable[tuple[int, int]] | None = None, *,
                         method: str = "auto") -> np.ndarray:
    """Effective resistances ``R_ij`` of the unit-resistor network ``G``.

    Parameters
    ----------
    G : networkx.Graph
        Connected, undirected, simple; weights are ignored.
    pairs : iterable of (int, int), optional
        If given, return ``R`` for these pairs only, never forming a dense ``n x n`` matrix.
        If omitted, return the full ``n x n`` matrix from the dense ``L^+`` (only for
        ``n <= DENSE_LIMIT``).
    method : {"auto", "direct", "cg"}
        How pairs are solved.  ``"direct"``: factorise the grounded Laplacian once (sparse
        LU, symmetric minimum-degree ordering) and solve for each ``e_i - e_j`` — best on
        graphs with small separators (grids, planar, tree-like graphs), where the factor stays
        sparse.  ``"cg"``: Jacobi-preconditioned conjugate gradients, all pairs of a batch at
        once, to a relative residual of ``1e-12`` — best on well-connected graphs (expanders,
        random graphs, dense clusters), where a factorisation fills in but CG converges in a
        few dozen steps.  ``"auto"``: ``"direct"`` for ``n <= 5000``; otherwise try CG on
        the first pair with a budget of ``300`` iterations and fall back to ``"direct"``
        if it has not converged.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(pairs),)`` or ``(n, n)``.

    Raises
    ------
    ValueError
        For a disconnected graph, a malformed pair, or a vertex outside ``0..n-1``.

    Examples
    --------
    >>> R = effective_resistance(nx.cycle_graph(4))
    >>> round(float(R[0, 1]), 6), round(float(R[0, 2]), 6)   # k(n-k)/n on a cycle
    (0.75, 1.0)
    >>> effective_resistance(nx.path_graph(5), pairs=[(0, 4), (1, 3)]).round(6).tolist()
    [4.0, 2.0]
    >>> effective_resistance(nx.complete_graph(8), pairs=[(0, 1)], method="cg").round(6).tolist()
    [0.25]
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    if method not in ("auto", "direct", "cg"):
        raise ValueError(f"method must be 'auto', 'direct' or 'cg', got {method!r}")
    if pairs is None:
        _check_dense(n, "effective_resistance(G) for all pairs")
        Lp = laplacian_pinv(G)
        d = np.diag(Lp)
        R = d[:, None] + d[None, :] - 2.0 * Lp
        np.fill_diagonal(R, 0.0)
        return R
    P = _check_pairs(pairs, n)
    if n == 1 or len(P) == 0:
        return np.zeros(len(P))
    if method == "cg":
        out = resistances_cg(G, P, maxiter=20 * n)
        if out is None:
            raise ValueError("conjugate gradients did not converge; use method='direct'")
        return out
    if method == "auto" and n > _AUTO_DIRECT_N:
        probe = resistances_cg(G, P[:1], maxiter=_AUTO_CG_PROBE)
        if probe is not None:
            out = resistances_cg(G, P, maxiter=4 * _AUTO_CG_PROBE)
            if out is not None:
                return out
    return resistances_direct(G, P)


def resistance_diameter(G: nx.Graph) -> float:
    """``max_{i,j} R_ij``: the resistance diameter (equals the hop diameter on a tree).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph; ``R = max_{u,v} R_uv`` over its vertex pairs.

    Examples
    --------
    >>> round(resistance_diameter(nx.path_graph(6)), 6)
    5.0
    >>> round(resistance_diameter(nx.complete_graph(5)), 6)   # 2/n on K_n
    0.4
    """
    return float(effective_resistance(G).max())


def resistance_weighted_cut(G: nx.Graph, labels, k: int | None = None) -> float:
    """``sum over cut edges (i,j) of R_ij`` — the resistance-weighted cut size.

    This is ``E|Phi^T|`` for a uniformly random spanning tree ``T`` (Lemma 10),
    the quantity written ``phi`` in Theorem 3. On graphs with dense
    clusters it is far smaller than the plain cut size ``|Phi^G|``.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
    k : int, optional
        If given, sum only over ``Phi^G_k``, the cut edges with an endpoint in class ``k``:
        then the result is ``E|Phi^T_k|`` (Lemma 10, part 1).

    Examples
    --------
    >>> G = nx.complete_graph(4); y = [0, 0, 1, 1]
    >>> round(resistance_weighted_cut(G, y), 6)   # 4 cut edges of resistance 2/4
    2.0
    """
    G = validate_graph(G)
    validate_labels(labels, G.number_of_nodes())
    cut = cut_edges(G, labels, k)
    return float(effective_resistance(G, pairs=cut).sum()) if cut else 0.0
