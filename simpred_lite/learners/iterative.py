"""The kernel of the matrix learners without a factor: compiled Jacobi-preconditioned CG.

On expander-like graphs (the sparse block models of the benchmarks) every factor of the
grounded Laplacian fills in about as ``n^2``: at ``n = 10^5`` the sparse kernel's factor is
refused by the work guard before it starts.  Here the same kernel values come from conjugate
gradients: :func:`laplacian_pcg` solves ``L X = B`` on the full (singular) Laplacian with a
Jacobi preconditioner, many right-hand sides at once in row-major blocks (each gathered row
of the search directions serves the whole block) split over numba's threads;
:class:`IterativeKernel` is :class:`~.kernels.SparseKernel` with these solves instead of the
factor's, and a sketch of the resistance metric instead of the factor's selected inversion
to find the resistance diameter.  Before CG, :class:`LowDegreeElimination` eliminates the
vertices of low degree exactly (a partial Cholesky factorisation in minimum-degree order):
CG then runs on their Schur complement, a smaller and better conditioned Laplacian.
"""

from __future__ import annotations

import heapq
import math

import networkx as nx
import numba
import numpy as np
import scipy.sparse as sp
from scipy.optimize import brentq

from ..checks import check_work
from ..exact import UNIT_ROUNDOFF
from .kernels import _SPARSE_ALTERNATIVE, COLUMN_CACHE_ENTRIES, SparseKernel

__all__ = ["IterativeKernel", "LowDegreeElimination", "laplacian_pcg", "sketch_factor"]


@numba.njit(cache=True, nogil=True)
def _block_product(indptr, indices, data, P, Q, pq):  # pragma: no cover - compiled
    """``Q = A P`` and ``pq[c] = P[:, c] . Q[:, c]`` for a row-major ``n x k`` block ``P``."""
    n, k = P.shape
    for c in range(k):
        pq[c] = 0.0
    acc = np.empty(k)
    for i in range(n):
        acc[:] = 0.0
        for t in range(indptr[i], indptr[i + 1]):
            a = data[t]
            Pj = P[indices[t]]
            for c in range(k):
                acc[c] += a * Pj[c]
        Pi = P[i]
        Qi = Q[i]
        for c in range(k):
            Qi[c] = acc[c]
            pq[c] += Pi[c] * acc[c]


@numba.njit(cache=True, nogil=True)
def _pcg_block(indptr, indices, data, dinv, B, X, rtol, maxiter, its, rel):  # pragma: no cover - compiled
    """``k`` independent Jacobi-PCG runs in lockstep on the row-major ``n x k`` block ``B``.

    Every scalar is per column and every column's operations are the same whatever the other
    columns (no fast-math: no reassociation, no fused multiply-add), so a column comes out bit
    for bit as its own solve.  A column stops (its step is frozen at ``alpha = 0``) once its
    recursive residual is ``<= rtol ||b||``; a zero column is solved by zero at once.

    The matrix is a connected graph's Laplacian, singular with the constant null vector: the
    residual is projected on the zero-sum vectors at the start and after every update
    (its column mean subtracted).  Without it, the rounding of the updates leaves a constant
    component that no step can remove; near the attainable accuracy CG then diverges (seen on
    the Schur complement of a barbell graph, whose weak links make it ill conditioned)."""
    n, k = B.shape
    R = B.copy()
    Z = np.empty((n, k))
    P = np.empty((n, k))
    Q = np.empty((n, k))
    bn = np.zeros(k)
    rz = np.zeros(k)
    pq = np.zeros(k)
    rzn = np.zeros(k)
    rr = np.zeros(k)
    rs = np.zeros(k)
    alpha = np.zeros(k)
    beta = np.zeros(k)
    act = np.ones(k, dtype=np.bool_)
    for i in range(n):
        for c in range(k):
            b = B[i, c]
            bn[c] += b * b
            rs[c] += b
    for c in range(k):
        rs[c] /= n
    for i in range(n):
        d = dinv[i]
        for c in range(k):
            X[i, c] = 0.0
            r = R[i, c] - rs[c]
            R[i, c] = r
            z = d * r
            Z[i, c] = z
            P[i, c] = z
            rz[c] += r * z
    nact = k
    for c in range(k):
        bn[c] = np.sqrt(bn[c])
        its[c] = 0
        rel[c] = 0.0
        if bn[c] == 0.0 or rz[c] == 0.0:  # zero, or constant: the projected system's solution is 0
            act[c] = False
            nact -= 1
    it = 0
    while it < maxiter and nact > 0:
        it += 1
        _block_product(indptr, indices, data, P, Q, pq)
        for c in range(k):
            alpha[c] = rz[c] / pq[c] if act[c] else 0.0
            rzn[c] = 0.0
            rr[c] = 0.0
            rs[c] = 0.0
        for i in range(n):
            for c in range(k):
                X[i, c] += alpha[c] * P[i, c]
                r = R[i, c] - alpha[c] * Q[i, c]
                R[i, c] = r
                rs[c] += r
        for c in range(k):
            rs[c] /= n
        for i in range(n):
            d = dinv[i]
            for c in range(k):
                r = R[i, c] - rs[c]  # the projection on the zero-sum vectors
                R[i, c] = r
                z = d * r
                Z[i, c] = z
                rzn[c] += r * z
                rr[c] += r * r
        for c in range(k):
            beta[c] = 0.0
            if act[c]:
                its[c] = it
                rel[c] = np.sqrt(rr[c]) / bn[c]
                if rel[c] <= rtol:
                    act[c] = False
                    nact -= 1
                else:
                    beta[c] = rzn[c] / rz[c]
                    rz[c] = rzn[c]
        for i in range(n):
            for c in range(k):
                P[i, c] = Z[i, c] + beta[c] * P[i, c]


@numba.njit(cache=True, parallel=True)
def _pcg_chunks(indptr, indices, data, dinv, B3, X3, rtol, maxiter, its2, rel2):  # pragma: no cover - compiled
    """:func:`_pcg_block` on each ``B3[h]`` (one row-major sub-block per numba thread)."""
    for h in numba.prange(B3.shape[0]):
        _pcg_block(indptr, indices, data, dinv, B3[h], X3[h], rtol, maxiter, its2[h], rel2[h])


def _pcg_arrays(L: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    L = sp.csr_matrix(L, dtype=float)
    return (L.indptr.astype(np.int64), L.indices.astype(np.int64), np.ascontiguousarray(L.data),
            1.0 / L.diagonal())


def laplacian_pcg(L: sp.spmatrix, B: np.ndarray, rtol: float, maxiter: int | None = None,
                  arrays: tuple | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve ``L X = B`` (``L`` a connected graph's Laplacian, each column of ``B`` summing to 0) by Jacobi-PCG.

    The system is singular but consistent; CG started from 0 never excites the constant
    null vector, so ``X`` is the solution orthogonal to it in the ``D``-inner product, up to
    rounding (ground it, ``X - X[c]``, to compare).  The columns are split into as many
    row-major sub-blocks as numba has threads (padded with zero columns) and solved in
    parallel; each column's result is bit for bit the same whatever the block
    (:func:`_pcg_block`).  Nothing here is certified: the caller bounds the error from the
    true residual (:meth:`~.kernels.SparseKernel._residual_bound`).

    Parameters
    ----------
    L : scipy.sparse matrix
        The Laplacian (symmetric, positive diagonal).
    B : numpy.ndarray
        ``n x k`` right-hand sides, each summing to zero (a column that does not is projected on
        the zero-sum vectors first: its least-squares solution; a constant column gives 0).
    rtol : float
        Stop a column once its recursive residual is at most ``rtol`` times its ``||b||_2``.
    maxiter : int, optional
        Iterations at most (default ``max(200, 4 n)``).
    arrays : tuple, optional
        ``(indptr, indices, data, 1 / diagonal)`` of ``L`` in CSR with int64 indices, if the
        caller keeps them.

    Returns
    -------
    X : numpy.ndarray
        ``n x k``, C order.
    iterations : numpy.ndarray
        The iterations each column took.
    residuals : numpy.ndarray
        Each column's last recursive relative residual.

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.resistance import laplacian
    >>> L = laplacian(nx.cycle_graph(6))
    >>> b = np.zeros((6, 1)); b[0, 0], b[3, 0] = 1.0, -1.0
    >>> X, its, res = laplacian_pcg(L, b, 1e-13)
    >>> round(float(X[0, 0] - X[3, 0]), 10)     # the resistance across a 6-cycle
    1.5
    """
    indptr, indices, data, dinv = _pcg_arrays(L) if arrays is None else arrays
    B = np.asarray(B, dtype=float)
    n, k = B.shape
    maxiter = max(200, 4 * n) if maxiter is None else int(maxiter)
    chunks = max(1, min(numba.get_num_threads(), k))
    if chunks == 1:
        Bc = np.ascontiguousarray(B)
        X = np.zeros_like(Bc)
        its = np.zeros(k, dtype=np.int64)
        rel = np.zeros(k)
        _pcg_block(indptr, indices, data, dinv, Bc, X, float(rtol), maxiter, its, rel)
        return X, its, rel
    kc = -(-k // chunks)
    B3 = np.zeros((chunks, n, kc))  # zero columns pad the last sub-block (solved at once)
    for h in range(chunks):
        part = B[:, h * kc:(h + 1) * kc]
        B3[h, :, :part.shape[1]] = part
    X3 = np.zeros_like(B3)
    its2 = np.zeros((chunks, kc), dtype=np.int64)
    rel2 = np.zeros((chunks, kc))
    _pcg_chunks(indptr, indices, data, dinv, B3, X3, float(rtol), maxiter, its2, rel2)
    X = np.ascontiguousarray(X3.transpose(1, 0, 2).reshape(n, chunks * kc)[:, :k])
    return X, its2.ravel()[:k], rel2.ravel()[:k]


@numba.njit(cache=True, nogil=True)
def _eliminate_forward(order, ptr, nbr, frac, B):  # pragma: no cover - compiled
    """In place, row-major ``B``: for each eliminated ``v`` in order, ``B[u] += (w_uv / s_v) B[v]``."""
    k = B.shape[1]
    for t in range(order.size):
        Bv = B[order[t]]
        for p in range(ptr[t], ptr[t + 1]):
            f = frac[p]
            Bu = B[nbr[p]]
            for c in range(k):
                Bu[c] += f * Bv[c]


@numba.njit(cache=True, nogil=True)
def _eliminate_back(order, ptr, nbr, weight, pivot, B, X):  # pragma: no cover - compiled
    """In reverse order, ``X[v] = (B[v] + sum_u w_uv X[u]) / s_v`` (``B`` as the forward pass left it)."""
    k = B.shape[1]
    acc = np.empty(k)
    for t in range(order.size - 1, -1, -1):
        v = order[t]
        for c in range(k):
            acc[c] = B[v, c]
        for p in range(ptr[t], ptr[t + 1]):
            w = weight[p]
            Xu = X[nbr[p]]
            for c in range(k):
                acc[c] += w * Xu[c]
        s = pivot[t]
        for c in range(k):
            X[v, c] = acc[c] / s


class LowDegreeElimination:
    """Gaussian elimination of a Laplacian's low-degree vertices, and CG on what is left.

    Vertices are eliminated in minimum-degree order while the smallest degree of the remaining
    graph is at most ``max_degree`` (ties by vertex number: the order is deterministic).
    Eliminating ``v``, with edge weights ``w_uv`` to its ``d <= max_degree`` remaining
    neighbours and pivot ``s_v = sum_u w_uv``, is one step of Cholesky on ``L``: the rest is
    again a Laplacian (the Schur complement), with ``w_ux += w_uv w_xv / s_v`` between each
    two of ``v``'s neighbours -- at most ``d (d - 1) / 2`` new edges, none when ``d <= 2``.
    With ``max_degree >= 1`` a tree is eliminated to one vertex (the solve is then direct); on
    the sparse block models of the benchmarks, ``max_degree = 4`` leaves about half of the
    vertices (51,836 of 100,000), on which Jacobi-PCG needs 55-70 % of the iterations it needs
    on the whole graph (44 against 79 per solve at ``n = 10^5``).  Only ``L``'s off-diagonal
    entries are read: the diagonal of the Laplacian they define is rebuilt from them.

    :meth:`solve` solves ``L X = B`` as the factorisation says: forward elimination of the
    right-hand sides, :func:`laplacian_pcg` on the Schur complement, back substitution.  It is
    exact algebra apart from rounding and CG's stopping point; nothing here is certified (the
    caller bounds the error from the true residual of ``L``).  Each column's operations do not
    depend on the other columns, so a column comes out bit for bit the same alone or in a block.
    The elimination itself is a pass over the edges in Python (about 1.3 s at ``n = 10^5``),
    with fill at most ``max_degree (max_degree - 1) / 2`` edges per eliminated vertex.

    Parameters
    ----------
    L : scipy.sparse matrix
        A connected graph's Laplacian (symmetric, nonpositive off-diagonal entries, every
        vertex with an edge of positive weight; a ``ValueError`` says which vertex is not).
    max_degree : int, optional
        Eliminate while a remaining vertex has at most this many neighbours (default 4).

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.resistance import laplacian
    >>> elim = LowDegreeElimination(laplacian(nx.path_graph(5)))
    >>> elim.core.size                       # a tree: everything but one vertex is eliminated
    1
    >>> b = np.zeros((5, 1)); b[0, 0], b[4, 0] = 1.0, -1.0
    >>> X, its, _ = elim.solve(b, 1e-13)
    >>> float(X[0, 0] - X[4, 0]), int(its[0])   # the resistance of a 4-edge path, with no iteration
    (4.0, 0)
    """

    def __init__(self, L: sp.spmatrix, max_degree: int = 4) -> None:
        L = sp.csr_matrix(L, dtype=float)
        n = L.shape[0]
        self.n = n
        self.max_degree = int(max_degree)
        adj: list[dict[int, float]] = [{} for _ in range(n)]
        A = sp.triu(L, 1).tocoo()
        for a, b, w in zip(A.row.tolist(), A.col.tolist(), (-A.data).tolist()):
            if w < 0.0 or not math.isfinite(w):
                raise ValueError(f"L: the entry ({a}, {b}) is {-w!r}; a Laplacian's off-diagonal entries are "
                                 "finite and <= 0 (minus the edge weights): pass the Laplacian of a graph with "
                                 "nonnegative weights")
            if w != 0.0:
                adj[a][b] = w
                adj[b][a] = w
        if n > 1:
            lonely = [v for v in range(n) if not adj[v]]
            if lonely:
                raise ValueError(f"L: vertex {lonely[0]} has no edge of positive weight ({len(lonely)} such "
                                 "vertices); pass the Laplacian of a connected graph")
        alive = np.ones(n, dtype=bool)
        left = n
        heap = [(len(adj[v]), v) for v in range(n)]
        heapq.heapify(heap)
        order: list[int] = []
        ptr = [0]
        nbr: list[int] = []
        weight: list[float] = []
        pivot: list[float] = []
        while heap and left > 1:
            d, v = heapq.heappop(heap)
            if not alive[v] or len(adj[v]) != d:
                continue  # a stale entry: v was eliminated or its degree changed since it was pushed
            if d > self.max_degree:
                break
            alive[v] = False
            left -= 1
            items = sorted(adj[v].items())
            adj[v] = {}
            s = math.fsum(w for _, w in items)
            for u, _ in items:
                del adj[u][v]
            for a in range(len(items)):
                u, wu = items[a]
                for x, wx in items[a + 1:]:
                    adj[u][x] = adj[x][u] = adj[u].get(x, 0.0) + wu * wx / s
            for u, _ in items:
                heapq.heappush(heap, (len(adj[u]), u))
            order.append(v)
            nbr.extend(u for u, _ in items)
            weight.extend(w for _, w in items)
            pivot.append(s)
            ptr.append(len(nbr))
        self.order = np.array(order, dtype=np.int64)
        self.ptr = np.array(ptr, dtype=np.int64)
        self.nbr = np.array(nbr, dtype=np.int64)
        self.weight = np.array(weight, dtype=float)
        self.pivot = np.array(pivot, dtype=float)
        self.frac = self.weight / np.repeat(self.pivot, np.diff(self.ptr)) if self.order.size else self.weight
        #: The vertices left (ascending); :attr:`schur` is their Laplacian after the elimination.
        self.core = np.flatnonzero(alive)
        index = np.full(n, -1, dtype=np.int64)
        index[self.core] = np.arange(self.core.size)
        rows, cols, vals = [], [], []
        for a in self.core.tolist():
            for b, w in adj[a].items():
                rows.append(index[a])
                cols.append(index[b])
                vals.append(w)
        W = sp.csr_matrix((vals, (rows, cols)), shape=(self.core.size,) * 2)
        self.schur = sp.csr_matrix(sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W)
        self._arrays = _pcg_arrays(self.schur) if self.core.size > 1 else None

    def work_per_column(self, iterations: float) -> float:
        """Steps of one right-hand side: ``iterations x (nnz + 6 n)`` of the Schur complement, plus substitution."""
        return float(iterations) * (self.schur.nnz + 6 * self.core.size) + 4.0 * self.nbr.size + 2.0 * self.n

    def __getstate__(self):
        return {**self.__dict__, "_arrays": None}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._arrays = _pcg_arrays(self.schur) if self.core.size > 1 else None

    def solve(self, B: np.ndarray, rtol: float, maxiter: int | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Solve ``L X = B`` (each column of ``B`` summing to 0): eliminate, CG on the rest, substitute back.

        Parameters
        ----------
        B : numpy.ndarray
            ``n x k`` right-hand sides, each summing to zero.
        rtol : float
            Stop a column once its recursive residual on the Schur complement is at most ``rtol``
            times that system's right-hand side (:func:`laplacian_pcg`).
        maxiter : int, optional
            As in :func:`laplacian_pcg`.

        Returns
        -------
        X, iterations, residuals
            As :func:`laplacian_pcg` (``X`` is a solution up to a constant per column).

        Examples
        --------
        >>> import networkx as nx
        >>> from simpred_lite.resistance import laplacian
        >>> elim = LowDegreeElimination(laplacian(nx.cycle_graph(6)), max_degree=1)   # no vertex of degree 1
        >>> b = np.zeros((6, 1)); b[0, 0], b[3, 0] = 1.0, -1.0
        >>> X, its, res = elim.solve(b, 1e-13)
        >>> round(float(X[0, 0] - X[3, 0]), 10), elim.core.size
        (1.5, 6)
        """
        Bw = np.array(B, dtype=float, order="C")
        n, k = Bw.shape
        _eliminate_forward(self.order, self.ptr, self.nbr, self.frac, Bw)
        X = np.zeros((n, k))
        if self._arrays is not None:
            Xs, its, rel = laplacian_pcg(self.schur, Bw[self.core], rtol, maxiter=maxiter, arrays=self._arrays)
            X[self.core] = Xs
        else:  # one vertex left: its equation is 0 = 0 (the columns sum to zero); any constant solves it
            its, rel = np.zeros(k, dtype=np.int64), np.zeros(k)
        _eliminate_back(self.order, self.ptr, self.nbr, self.weight, self.pivot, Bw, X)
        return X, its, rel


def sketch_factor(k: int, failure: float) -> float:
    """The ``t < 1`` with ``P(chi^2_k <= t k) <= failure``, from the Chernoff bound.

    For ``Y ~ chi^2_k``, ``P(Y <= t k) <= exp((k / 2)(1 - t + ln t))`` for ``0 < t < 1``; ``t`` is
    where the right-hand side equals ``failure``.  A sum of ``k`` squared Gaussians with mean
    ``R`` exceeds ``t R`` except with probability ``failure``, so dividing it by ``t`` gives
    an upper bound on ``R`` that fails with probability at most ``failure``.

    Parameters
    ----------
    k : int
        Degrees of freedom (sketch vectors), ``k >= 1``.
    failure : float
        The probability allowed, ``0 < failure < 1``.

    Examples
    --------
    >>> round(sketch_factor(1600, 1e-18), 3)
    0.712
    >>> sketch_factor(64, 1e-18) < sketch_factor(1600, 1e-18) < 1
    True
    """
    target = math.log(failure)
    return float(brentq(lambda t: (k / 2) * (1 - t + math.log(t)) - target, 1e-300, 1 - 1e-15, xtol=1e-300,
                        rtol=1e-15))


class IterativeKernel(SparseKernel):
    """:class:`~.kernels.SparseKernel` without a factor: elimination and PCG solves, the diameter by a sketch.

    Every solve ``L_c X = B`` is made on the full Laplacian (the right-hand sides are made to sum
    to zero on the ground row ``c``, the solution is grounded afterwards, ``g = x - x_c``): the
    vertices of degree at most :attr:`ELIMINATION_DEGREE` are eliminated exactly
    (:class:`LowDegreeElimination`, once per graph) and Jacobi-preconditioned CG
    (:func:`laplacian_pcg`) solves the Schur complement left, to a relative residual
    :attr:`RTOL`; the trials' pairs go in the prefetched blocks of
    :class:`~.kernels._PrefetchStore` as with the factor.
    Built by :func:`~.kernels.make_kernel` when the sparse factor's counted fill is over the
    work limit (:class:`~.kernels.FactorTooLargeError`), or when ``kernels.SPARSE_SOLVER`` is
    ``"iterative"``.

    **What is exact, what is certified, what is probabilistic.**

    * *Certified*: every kernel value.  Each solve carries the kernel's rigorous bound on
      ``||g~ - g||_2`` from its true residual (:meth:`~.kernels.SparseKernel._residual_bound`,
      unchanged) times the Collatz-Wielandt bound on ``||L_c^{-1}||_2``
      (:meth:`~.kernels.SparseKernel._collatz_wielandt_bound`, unchanged, three PCG solves);
      how CG got there does not matter.  The Matrix Perceptron's decisions are certified with
      it and fall back to exact arithmetic when a margin is inside the bound, exactly as
      with the factor.  ``R`` is the largest resistance among the candidate pairs, each from
      a certified pair solve, and ``R_error`` bounds ``|R - max over the candidates|``.
      Matrix Winnow's decisions are argued tie-safe at relative perturbations of ``1e-12``
      (the default :attr:`RTOL` of ``1e-13`` keeps its kernel values within that), not
      certified, as with the factor.
    * *Probabilistic*: which vertices can be an end of the diameter.  The factor's kernel
      rules vertices out with the float diagonal ``d_v = R_vc`` from its selected inversion
      and a band (not random, not bounded either).  Here a Johnson-Lindenstrauss sketch
      gives upper bounds ``u_v >= d_v`` (:meth:`diagonal_upper_bounds`): ``k`` Gaussian
      vectors ``z`` over the edges, one PCG solve ``L x = B^T z`` each (``B`` the incidence
      matrix), so that ``x_v - x_c ~ N(0, R_vc)``; ``sum (x_v - x_c)^2 / (k t)`` with
      ``t`` = :func:`sketch_factor` ``(k, SKETCH_FAILURE)`` is at least ``R_vc`` except with
      probability at most :attr:`SKETCH_FAILURE` (``1e-18``) per vertex, by the Chernoff bound
      on ``chi^2_k`` -- so at most ``n * 1e-18`` per graph -- once the sketch's solve errors
      and the rounding of its right-hand sides are added, certified per vertex from
      ``L_c^{-1} >= 0``: by ``(L_c^{-1} rho)_v`` with ``rho`` the row norms of the sketch solves'
      residuals, bounded from one more solve and ``h >= L_c^{-1} 1``
      (:meth:`inverse_row_sum_bounds`, one solve), or by the 2-norm bound above if smaller
      (see :meth:`diagonal_upper_bounds`).  The seed is
      fixed (:attr:`SKETCH_SEED`): the same graph gives the same sketch.  Then the columns of
      ``L_c^{-1}`` are solved by PCG in decreasing ``u_v`` while ``u_v + max d`` reaches the
      best resistance found (minus the factor path's band), and the pairs within ``1e-6 R``
      of the maximum are certified as with the factor.  Should the sketch fail for an end of
      the true diameter, ``R`` would be a certified value of a smaller resistance: that event
      has probability at most ``2e-18``.
    * *Exact*: nothing new; on a tree ``R`` is rounded to its integer and the exact fallbacks
      (:meth:`exact_R2`, the certifier's exact score) are the kernel's, refused at this scale by
      their own guards as before.

    Work: about :attr:`ITERATION_ESTIMATE` iterations of ``nnz + 6 n`` steps of the Schur complement
    per right-hand side (:meth:`solve_steps`), for 3 norm solves, 2 for the sketch's error, ``k``
    sketch solves and 64 columns, checked against
    :data:`~simpred_lite.checks.WORK_LIMIT` before any solve and before the solves' arrays are
    allocated (the column search checks again as it goes); each trial costs one such solve
    more.  Only the elimination, linear in the edges, runs before the check: the estimate
    needs the size of what it leaves.

    Parameters
    ----------
    G : networkx.Graph
        A frozen validated connected graph on ``0 .. n-1`` (:func:`~.kernels.make_kernel` makes one).

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.graphs import frozen_copy, validate_graph
    >>> kern = IterativeKernel(frozen_copy(validate_graph(nx.cycle_graph(8))))
    >>> round(kern.R, 9), bool(kern.diameter_error() < 1e-9)
    (2.0, True)
    >>> g, err = kern.pair(0, 4)
    >>> round(float(g[0] - g[4]), 9), bool(err < 1e-9)
    (2.0, True)
    """

    #: Relative residual of every certified solve (trials, columns, norm bound, candidate pairs).
    RTOL = 1e-13
    #: Relative residual of the sketch's solves (their certified error widens the bounds ``u_v``).
    SKETCH_RTOL = 1e-8
    #: Most sketch vectors (``k = clip(n // 4, 64, SKETCH_MAX)``: cheap on small graphs).
    SKETCH_MAX = 1600
    SKETCH_MIN = 64
    #: Probability that the sketch's bound ``u_v`` falls below ``d_v``, per vertex.
    SKETCH_FAILURE = 1e-18
    SKETCH_SEED = 24
    #: Iterations per solve the work estimate assumes (measured 87-112 at ``rtol = 1e-13`` on
    #: the 10^5-vertex block model without elimination; a grid needs several hundred).
    ITERATION_ESTIMATE = 200
    #: :class:`LowDegreeElimination`'s ``max_degree``: eliminate vertices of degree up to 4 before CG.
    ELIMINATION_DEGREE = 4
    #: Columns of ``L_c^{-1}`` the work estimate assumes (the search checks again beyond).
    COLUMN_ESTIMATE = 64

    def __init__(self, G: nx.Graph) -> None:
        dist = self._setup(G)
        self._elimination = LowDegreeElimination(self._L, self.ELIMINATION_DEGREE)
        self.sketch_size = min(self.SKETCH_MAX, max(self.SKETCH_MIN, self.n // 4))
        core = self._elimination.core.size
        check_work(self.solve_steps() * (5 + self.sketch_size + self.COLUMN_ESTIMATE),
                   f"the iterative kernel of a graph on n={self.n} vertices ({self.n - core} eliminated, "
                   f"Jacobi-PCG on the other {core}: about {self.ITERATION_ESTIMATE} iterations, "
                   f"{self.solve_steps():.2g} steps per right-hand side, for {self.sketch_size} sketch solves, "
                   f"5 norm and error solves and {self.COLUMN_ESTIMATE} columns of the resistance diameter)",
                   _SPARSE_ALTERNATIVE)
        self.iterations = 0  # PCG iterations summed over the right-hand sides, for the benchmarks
        self._finish(dist)

    def solve_steps(self) -> float:
        """The work estimate of one right-hand side (:meth:`LowDegreeElimination.work_per_column`).

        :attr:`ITERATION_ESTIMATE` x ``(nnz + 6 n)`` of the Schur complement CG runs on, plus the
        elimination's forward and back substitution."""
        return self._elimination.work_per_column(self.ITERATION_ESTIMATE)

    def __getstate__(self):
        return {**super().__getstate__(), "sketch_diagnostics": None}

    def _pcg(self, B: np.ndarray, rtol: float) -> np.ndarray:
        """Grounded potentials ``X`` (row ``c`` zero) with ``L_c X[keep] = B[keep]``, by PCG to ``rtol``."""
        c = self.ground
        Bf = np.array(B, dtype=float)
        Bf[c] = -Bf[self._keep].sum(axis=0)  # the full L's system is consistent iff each column sums to 0
        X, its, _ = self._elimination.solve(Bf, rtol)
        X -= X[c]
        self.iterations += int(its.sum())
        self.solves += B.shape[1]
        return X

    def _solve(self, B: np.ndarray) -> np.ndarray:
        """Potentials ``X`` (``n x k``, row ``c`` zero) with ``L_c X[keep] = B[keep]``: PCG to :attr:`RTOL`.

        A unit or pair column (the ones solved in blocks) comes out bit for bit the same alone or
        in a block (:func:`_pcg_block`); a general column need not, as its ground row
        ``-B[keep].sum(axis=0)`` is summed in another order in a block."""
        return self._pcg(B, self.RTOL)

    def inverse_row_sum_bounds(self) -> np.ndarray:
        """``h`` with ``h_v >= (L_c^{-1} 1)_v`` for every ``v`` (``h_c = 0``), rigorously, from one PCG solve.

        ``L_c`` is a nonsingular M-matrix, so ``L_c^{-1} >= 0`` entrywise.  Take ``w ~ L_c^{-1} 1``
        (PCG to :attr:`RTOL`; any float vector would do) and ``x`` a certified lower bound of the
        exact product ``L_c w`` (as in :meth:`~.kernels.SparseKernel._collatz_wielandt_bound`).
        If ``min x > 0``: ``1 <= x / min x`` and ``x <= L_c w``, so by monotonicity
        ``L_c^{-1} 1 <= L_c^{-1} x / min x <= L_c^{-1} L_c w / min x = w / min x``, entrywise,
        whatever the solve's error.  Otherwise (not expected) ``h = inf``: no entrywise bound."""
        u = UNIT_ROUNDOFF
        ones = np.ones((self.n, 1))
        ones[self.ground] = 0.0
        w = self._pcg(ones, self.RTOL)[self._keep, 0]
        Lc = self._Lc
        gam = (self._dmax + 3) * u / (1 - (self._dmax + 3) * u)
        # |fl(L_c w) - L_c w| <= gam |L_c| |w|, and fl(|L_c| |w|) >= (1 - gam) |L_c| |w|; the factor 2
        # (gam < 1/2) and (1 - 4u) absorb the roundings of this line (as in _collatz_wielandt_bound)
        x = (Lc @ w - 2.0 * gam * (abs(Lc) @ np.abs(w))) * (1 - 4 * u)
        h = np.zeros(self.n)
        xmin = float(x.min())
        if not xmin > 0:  # pragma: no cover - L_c w ~ 1 to the solve's accuracy on every graph tried
            h[self._keep] = math.inf
            return h
        h[self._keep] = np.abs(w) / xmin * (1 + 2 * u)  # one rounded division, rounded up
        return h

    def _residual_inf_bound(self, X: np.ndarray, B: np.ndarray, b_err: np.ndarray | float = 0.0) -> np.ndarray:
        """Per column, a rigorous bound on ``||L_c x~ - b||_inf`` (:meth:`_residual_abs_bound`'s largest entry)."""
        return self._residual_abs_bound(X, B, b_err).max(axis=0)

    def _residual_abs_bound(self, X: np.ndarray, B: np.ndarray, b_err: np.ndarray | float = 0.0) -> np.ndarray:
        """Entrywise, a rigorous bound on ``|L_c x~ - b|`` over the kept rows (row ``c`` zero).

        ``X`` holds grounded potentials (row ``c`` zero, so ``(L x~)_v = (L_c x~)_v`` on the kept
        rows), ``B`` the float right-hand sides and ``b_err`` (an array like ``B``, or 0) a bound
        on ``|B - b|`` entrywise, ``b`` the exact right-hand sides the bound is about.  With the
        float residual ``res = fl(L x~ - B)``: ``|res - (L x~ - B)| <= gam (|L| |x~| + |B|)``
        (``gam = gamma_{dmax+3}``: a row's ``dmax + 1`` products and the subtraction), and the float
        magnitudes ``fl(|L| |x~|)`` are at least ``(1 - gam)`` times the exact ones, which the factor
        2 covers (``gam < 1/2``); so ``|L_c x~ - b| <= |res| + 2 gam (|L| |x~| + |B|) + b_err``
        entrywise, and the final ``(1 + 4u)`` covers the rounding of the additions and products
        in this line (all terms nonnegative).

        Then ``|x~ - x| = |L_c^{-1} (L_c x~ - b)| <= ||L_c x~ - b||_inf L_c^{-1} 1`` entrywise
        (``L_c^{-1} >= 0``), bounded by :meth:`inverse_row_sum_bounds`."""
        u = UNIT_ROUNDOFF
        gam = (self._dmax + 3) * u / (1 - (self._dmax + 3) * u)
        res = self._L @ X - B
        rabs = np.abs(res) + 2.0 * gam * (self._absL @ np.abs(X) + np.abs(B)) + b_err
        rabs[self.ground] = 0.0  # the grounded row is not part of the system
        return rabs * (1 + 4 * u)

    def diagonal_upper_bounds(self) -> np.ndarray:
        """``u`` with ``u_v >= d_v = R_vc`` for each ``v`` except with probability :attr:`SKETCH_FAILURE`.

        A Johnson-Lindenstrauss sketch of the resistance metric (see the class docstring):
        :attr:`sketch_size` PCG solves at :attr:`SKETCH_RTOL`, streamed 64 at a time, seeded.

        The sketch's solves are not exact: with ``y_v`` the exact sketch row of ``v`` (``k``
        entries) and ``y~_v`` the computed one, ``||y_v||_2 <= ||y~_v||_2 + ||y~_v - y_v||_2``,
        and ``||y~_v - y_v||_2`` is bounded per vertex by the smallest of three certified bounds:

        * *entrywise* (issue 24): for a column ``j``, ``y~_j - y_j = L_c^{-1} r_j`` with the
          exact residual ``r_j = L_c y~_j - b_j`` (``b_j = B^T z_j`` exactly).  ``L_c^{-1} >= 0``,
          so ``|L_c^{-1} r_j| <= L_c^{-1} |r_j| <= ||r_j||_inf L_c^{-1} 1 <= ||r_j||_inf h``
          entrywise (``h`` from :meth:`inverse_row_sum_bounds`), hence
          ``||y~_v - y_v||_2 <= h_v sqrt(sum_j ||r_j||_inf^2)``;
        * *by rows* (the one that matters): with ``rho_w`` bounding the 2-norm of row ``w`` of the
          residuals (over the ``k`` columns), ``||y~_v - y_v||_2 <= (L_c^{-1} rho)_v`` by the triangle
          inequality (``L_c^{-1} >= 0``), bounded above from one more PCG solve ``q~`` of
          ``L_c q = rho``: ``L_c^{-1} rho <= q~ + ||L_c q~ - rho||_inf h``.  It weighs each vertex's
          residual by ``L_c^{-1}`` instead of taking the largest one;
        * *2-norm* (as merged): ``|y~_vj - y_vj| <= ||y~_j - y_j||_2 <= ||L_c^{-1}||_2 ||r_j||_2``,
          so ``||y~_v - y_v||_2 <= sqrt(sum_j (||L_c^{-1}||_2 ||r_j||_2)^2)``, the same for all ``v``.

        The entrywise bound is below the 2-norm one by about ``||r||_2 / ||r||_inf`` (up to
        ``sqrt(n)``; ``h_v`` and ``||L_c^{-1}||_2`` are both of the order ``n / deg`` on these graphs),
        the row bound below the entrywise one by about the largest residual over the average one.
        Each is rigorous; ``u`` uses the smallest per vertex."""
        n, c, k = self.n, self.ground, self.sketch_size
        u = UNIT_ROUNDOFF
        up = sp.triu(self._L, 1).tocoo()
        m = up.nnz
        edges = np.arange(m)
        inc = sp.csr_matrix((np.r_[np.ones(m), -np.ones(m)], (np.r_[edges, edges], np.r_[up.row, up.col])),
                            shape=(m, n))
        incT, absT = inc.T.tocsr(), abs(inc).T.tocsr()
        gam = (self._dmax + 2) * u / (1 - (self._dmax + 2) * u)
        h = self.inverse_row_sum_bounds()
        rng = np.random.default_rng(self.SKETCH_SEED)
        sq = np.zeros(n)
        err2 = 0.0
        rinf2 = 0.0
        rho2 = np.zeros(n)
        for start in range(0, k, 64):
            Z = rng.standard_normal((m, min(64, k - start)))
            Bz = np.asarray(incT @ Z)  # B^T z, rounded: |fl(B^T z) - B^T z| <= gam |B^T| |z| entrywise
            rhs_abs = absT @ np.abs(Z)  # |B^T| |z| (to gam relatively: the factor 2 below covers it)
            rhs_err = gam * np.sqrt((rhs_abs ** 2).sum(axis=0))  # ... and in the 2-norm
            X = self._pcg(Bz, self.SKETCH_RTOL)
            # 2-norm: |x~_v - x_v| <= ||x~ - x||_2 <= the residual bound + ||L_c^{-1}|| * (the RHS's rounding)
            e = self._residual_bound(X, Bz) + self.inverse_norm_bound * rhs_err * (1 + 4 * u)
            # entrywise: |L_c x~ - B^T z|, the RHS's own rounding included (the factor 2: fl(|B^T| |z|) is at
            # least (1 - gam) |B^T| |z|); its largest entry per column, its squares summed per row
            rabs = self._residual_abs_bound(X, Bz, 2.0 * gam * rhs_abs)
            rinf = rabs.max(axis=0)
            sq += (X * X).sum(axis=1)
            err2 += float((e * e).sum())
            rinf2 += float((rinf * rinf).sum())
            rho2 += (rabs * rabs).sum(axis=1)
        # sums of k squares: relative rounding at most (k + 2) u each (and the square roots' own)
        grow = 1 + (k + 2) * u
        e_inf = h * math.sqrt(rinf2 * grow) * (1 + 8 * u)  # three rounded operations, rounded up
        e_two = math.sqrt(err2 * grow)
        # by rows: with R the n x k exact residuals and rho_w >= ||R_w,:||_2, the row of errors is
        # y~_v - y_v = sum_w (L_c^{-1})_vw R_w,: with (L_c^{-1})_vw >= 0, so ||y~_v - y_v||_2 <= (L_c^{-1} rho)_v
        # (the triangle inequality); and for q~ a PCG solve of L_c q = rho,
        # L_c^{-1} rho = q~ - L_c^{-1} (L_c q~ - rho) <= q~ + ||L_c q~ - rho||_inf h entrywise
        rho = np.sqrt(rho2 * grow) * (1 + 2 * u)  # sums of k squares, then a square root, rounded up
        q = self._pcg(rho[:, None], self.RTOL)
        rq = float(self._residual_inf_bound(q, rho[:, None])[0])
        e_row = (np.maximum(q[:, 0], 0.0) + h * rq) * (1 + 2 * u)  # L_c^{-1} rho >= 0; nonnegative terms
        # ||y_v||_2 <= ||y~_v||_2 + min(e_row_v, e_inf_v, e_two) (over the k vectors), then the Chernoff factor
        err = np.minimum(np.minimum(e_row, e_inf), e_two)
        root = np.sqrt(sq * grow) + err
        bound = root * root / (k * sketch_factor(k, self.SKETCH_FAILURE)) * (1 + 1e-12)
        bound[c] = 0.0
        #: What the bound is made of, for the benchmarks (not pickled).
        self.sketch_diagnostics = {"sq": sq, "err2": err2, "rinf2": rinf2, "h": h, "e_row": e_row, "err": err}
        return bound

    def diagonal(self) -> np.ndarray:
        """``d_v = R_vc`` (``d_c = 0``) from a PCG column per vertex (``n`` solves; the diameter does not use it).

        Floats without an error bound of their own, as the factor's selected inversion."""
        check_work(self.solve_steps() * self.n, f"the diagonal of the grounded inverse of a graph on n={self.n} "
                   "vertices (a PCG column solve per vertex)", _SPARSE_ALTERNATIVE)
        d = np.zeros(self.n)
        batch = max(1, min(256, COLUMN_CACHE_ENTRIES // (4 * self.n)))
        for start in range(0, self._keep.size, batch):
            cols = self._keep[start:start + batch]
            E = np.zeros((self.n, cols.size))
            E[cols, np.arange(cols.size)] = 1.0
            d[cols] = self._solve(E)[cols, np.arange(cols.size)]
        return d

    def _diameter(self):
        n, c = self.n, self.ground
        if n == 1:
            self.R_error, self._cands, self.columns_solved = 0.0, [], 0
            return 0.0, (0, 0)
        ub = self.diagonal_upper_bounds()
        self.diagonal_bounds = ub
        order = np.argsort(-ub, kind="stable")
        order = order[order != c]  # d_c = 0: the ground is an end only through its column's partners
        full = max(1, min(256, COLUMN_CACHE_ENTRIES // (4 * n)))
        solved: list[int] = []
        cols: list[np.ndarray] = []
        best, dtop = -1.0, 0.0
        done, batch = 0, 16
        while done < order.size:
            nxt = float(ub[order[done]])
            # R_xy <= d_x + d_y <= u_x + max d, and max d <= max(d over the solved, u of the next)
            M = max(dtop, nxt)
            band = 1e-9 * max(M, 1.0) + 1e-6 * max(best, 1.0) + 1e-6 * (nxt + M)
            if best >= 0 and nxt + M < best - band:
                break
            size = batch
            if best >= 0:  # no more than the next vertices this rule does not rule out yet (best only grows;
                # ub is sorted, so they are a prefix): the batch's size only, the rule above decides the stop
                rest = ub[order[done:done + batch]]
                Mr = np.maximum(dtop, rest)
                bandr = 1e-9 * np.maximum(Mr, 1.0) + 1e-6 * max(best, 1.0) + 1e-6 * (rest + Mr)
                size = max(1, int(np.count_nonzero(rest + Mr >= best - bandr)))
            new = order[done:done + size]
            check_work(self.solve_steps() * (done + new.size),
                       f"the resistance diameter R of a graph on n={n} vertices ({done + new.size} PCG column "
                       "solves of its grounded Laplacian, those its sketch leaves)", _SPARSE_ALTERNATIVE)
            done += new.size
            batch = min(2 * batch, full)
            E = np.zeros((n, new.size))
            E[new, np.arange(new.size)] = 1.0
            cols.append(self._solve(E))
            solved.extend(new.tolist())
            S = np.array(solved + [c])  # the ground's column is zero: R_xc = d_x
            GS = np.concatenate(cols, axis=1)[S]
            GS = np.concatenate([GS, np.zeros((S.size, 1))], axis=1)
            dS = np.diag(GS).copy()
            dtop = float(dS.max())
            Rss = dS[:, None] + dS[None, :] - 2.0 * GS
            best = max(best, float(Rss.max()))
        self.columns_solved = done
        self.search_dtop = dtop  # the largest d among the solved columns, for the benchmarks
        # both triangles: G~ is symmetric only to the solves' accuracy
        a, b = np.nonzero(Rss >= best - 1e-6 * max(best, 1.0))
        cands = sorted({(min(int(S[x]), int(S[y])), max(int(S[x]), int(S[y]))) for x, y in zip(a, b) if x != y})
        return self._certify_candidates(cands)
