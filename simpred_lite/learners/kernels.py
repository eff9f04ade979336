"""The kernel form of the matrix learners: instances only through their inner products (§3.2, §4).

The Matrix Perceptron and Matrix Winnow never need an instance ``psi`` itself, only

    k((a, b), (i, j)) = psi_ab^T psi_ij = (e_a - e_b)^T L^+ (e_i - e_j),

so no ``m x m`` or ``m x r`` object exists.  Three kernels give these values:
:class:`DenseKernel` (dense float ``L^+``, ``n <= DENSE_LIMIT``), :class:`SparseKernel`
(one sparse solve per trial with a factorised grounded Laplacian, residual-certified, any
``n``) and :class:`BSTKernel` (signed overlaps of leaf-to-leaf paths of a Binary Support Tree,
exact integers); where the sparse factor's fill is over the work limit,
:class:`~.iterative.IterativeKernel` gives the sparse kernel's values from Jacobi-PCG solves
(after an exact elimination of the low-degree vertices) instead (no factor).  :func:`make_kernel`
picks one, and builds it once per frozen validated graph (the learners on that graph share it).
Each knows the resistance diameter ``R`` of its graph with a rigorous error bound
(:class:`ResistanceDiameter` exposes both on the learners).
:class:`GrowingPairs` stores the mistaken pairs and :class:`Forest` decides, combinatorially,
whether a new pair's instance is independent of the stored ones.
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import networkx as nx
import numba
import numpy as np

from .. import checks
from ..bst import BinarySupportTree
from ..checks import MemoryLimitError, WorkLimitError, check_work
from ..exact import UNIT_ROUNDOFF, LaplacianFunctional, pinv_error_bound
from ..graphs import frozen_copy, validate_graph
from ..resistance import DENSE_LIMIT, laplacian, laplacian_pinv
from .instances import bst_instance

# The kernels, the pair store and the forest are building blocks of the learners in
# matrix_perceptron.py and matrix_winnow.py (public names, so that those modules import them),
# not part of the package's interface: only make_kernel is listed here.
__all__ = ["make_kernel"]

# Columns of L^+ (grounded potentials) cached by the sparse kernel: at most this many doubles.
COLUMN_CACHE_ENTRIES = 1 << 24
# Kernel values of a prefetched sequence kept by the sparse kernel: at most this many doubles
# (about T^2 / 2 for T pairs: the first 5,792 pairs of a longer sequence).
PREFETCH_ENTRIES = 1 << 24
# A dense trailing triangle of the sparse factor at least this large is solved with BLAS-3.
DENSE_BLOCK_MIN = 64
# Beyond DENSE_LIMIT: "auto" factors the grounded Laplacian (SparseKernel) unless its counted fill
# is over the work limit, then solves by elimination + Jacobi-PCG (iterative.IterativeKernel); "iterative"
# always does.
SPARSE_SOLVER = "auto"


class GrowingPairs:
    """The mistaken pairs ``(a_s, b_s)`` as numpy arrays that grow by doubling (amortised O(1)).

    Each pair may carry its position in a prefetched sequence (:class:`PairStream`; ``-1``
    when it has none): the sparse kernel then reads its kernel values from the block solves
    of that sequence instead of solving again.
    """

    def __init__(self) -> None:
        self._a = np.zeros(16, dtype=np.int64)
        self._b = np.zeros(16, dtype=np.int64)
        self._pos = np.zeros(16, dtype=np.int64)
        self.k = 0
        #: Every pair so far has a position in the prefetched sequence (and the largest one).
        self.positioned = True
        self.max_pos = -1

    def append(self, a: int, b: int, pos: int = -1) -> None:
        if self.k == self._a.size:
            self._a = np.concatenate([self._a, np.zeros_like(self._a)])
            self._b = np.concatenate([self._b, np.zeros_like(self._b)])
            self._pos = np.concatenate([self._pos, np.zeros_like(self._pos)])
        self._a[self.k], self._b[self.k], self._pos[self.k] = a, b, pos
        self.k += 1
        if pos < 0:
            self.positioned = False
        self.max_pos = max(self.max_pos, pos)

    @property
    def pos(self) -> np.ndarray:
        return self._pos[: self.k]

    @property
    def a(self) -> np.ndarray:
        return self._a[: self.k]

    @property
    def b(self) -> np.ndarray:
        return self._b[: self.k]


class DenseKernel:
    """``k((a,b),(i,j)) = (e_a - e_b)^T L^+ (e_i - e_j)`` from the dense float ``L^+`` (``n <= DENSE_LIMIT``).

    A trial costs one row difference ``u = L^+ (e_i - e_j)`` (``O(n)``) and two gathers per
    stored pair.  ``exact`` is True on a tree, where every kernel value is an integer (a signed
    path overlap) and is rounded to it.
    """

    # computed on first use (diameter_error, pinv_error); the certifier may reset them
    _R_error: float | None = None
    _pinv_error: float | None = None
    _pinv_error_of: np.ndarray | None = None  # the L^+ array _pinv_error was computed for

    def __init__(self, G: nx.Graph) -> None:
        self.graph = G
        self.n = G.number_of_nodes()
        self.m = G.number_of_edges()
        self.exact = self.m == self.n - 1
        self.Lp = laplacian_pinv(G)
        d = np.diag(self.Lp)
        Rmat = d[:, None] + d[None, :] - 2.0 * self.Lp
        flat = int(np.argmax(Rmat))
        self.diameter_pair = divmod(flat, self.n)
        self.R = float(Rmat.flat[flat])
        del Rmat
        if self.exact:
            self.R = int(round(self.R))

    def potentials(self, i: int, j: int) -> np.ndarray:
        """``u`` with ``u[a] - u[b] = k((a,b),(i,j))``."""
        return self.Lp[i] - self.Lp[j]

    def diameter_error(self) -> float:
        """A rigorous bound on ``|R - exact R|`` (``0`` on a tree, where ``R`` is an exact integer).

        ``4 delta`` from the float ``L^+`` (``delta`` = :func:`~simpred_lite.exact.pinv_error_bound`)
        plus ``gamma_3`` times the four magnitudes combined in ``L^+_ii + L^+_jj - 2 L^+_ij``.
        """
        if self.exact:
            return 0.0
        if self._R_error is None:
            u = UNIT_ROUNDOFF
            self._R_error = 4 * self.pinv_error() + 4 * 3 * u / (1 - 3 * u) * float(np.abs(self.Lp).max())
        return float(self._R_error)

    def pinv_error(self) -> float:
        """:func:`~simpred_lite.exact.pinv_error_bound` of the float ``L^+`` (computed once, ``O(m n)``)."""
        if self._pinv_error is None:
            self._pinv_error = pinv_error_bound(self.graph, self.Lp)
        return float(self._pinv_error)

    def exact_laplacian(self) -> LaplacianFunctional:
        """The exact solver of the graph (:class:`~simpred_lite.exact.LaplacianFunctional`, built once).

        It gives exact potentials at the vertices a decision needs, by numeric lifting with a
        rational reconstruction, without forming ``L^+`` (and checks its cost first)."""
        if getattr(self, "_exact_lap", None) is None:
            self._exact_lap = LaplacianFunctional(self.graph)
        return self._exact_lap

    def exact_R2(self) -> Fraction:
        """``R^2`` as an exact rational (a Fraction): exact resistances of the candidate pairs.

        The pairs whose float resistance lies within twice :meth:`diameter_error` of the
        float maximum hold the exact maximum; one exact solve each.
        """
        if self.exact:
            return Fraction(int(self.R) ** 2)
        if getattr(self, "_exact_R2", None) is None:
            ex = self.exact_laplacian()
            candidates = self.diameter_candidates(2 * self.diameter_error())
            self._exact_R2 = max(ex.resistance(a, b) for a, b in candidates) ** 2
        return self._exact_R2

    def diameter_candidates(self, band: float) -> list[tuple[int, int]]:
        """Pairs whose float resistance is within ``band`` of the float diameter."""
        d = np.diag(self.Lp)
        Rmat = d[:, None] + d[None, :] - 2.0 * self.Lp
        a, b = np.nonzero(np.triu(Rmat >= self.R - band, 1))
        return list(zip(a.tolist(), b.tolist()))

    def prefetch(self, i: Any, j: Any) -> PairStream | None:
        """A hint of the pairs to come (see :meth:`SparseKernel.prefetch`): nothing to gain on a dense ``L^+``."""
        return None

    def inner(self, pairs: GrowingPairs, i: int, j: int, stream: PairStream | None = None
              ) -> tuple[np.ndarray, int | float]:
        """``(q, r_t)``: kernel values with the stored pairs and ``R_ij`` (ints on a tree)."""
        u = self.potentials(i, j)
        q = u[pairs.a] - u[pairs.b]
        r = u[i] - u[j]
        if self.exact:
            return np.rint(q).astype(np.int64), int(round(r))
        return q, float(r)

    def inner_ahead(self, pairs: GrowingPairs, k0: int, seq_i: np.ndarray, seq_j: np.ndarray, lo: int, hi: int,
                    stream: PairStream | None = None) -> tuple[np.ndarray, np.ndarray] | None:
        """``(Q, R)``: what :meth:`inner` gives for the pairs ``lo .. hi-1`` of an announced sequence,
        with the first ``k0`` stored pairs only (``Q[t - lo, s]``, floats; ``R[t - lo]`` = ``R_ij``).

        The same operations as :meth:`inner`, hence the same values, bit for bit; ``None`` when
        the kernel cannot give them (:class:`SparseKernel` without its block solves).
        """
        I, J = seq_i[lo:hi], seq_j[lo:hi]
        U = self.Lp[I] - self.Lp[J]
        Q = U[:, pairs.a[:k0]] - U[:, pairs.b[:k0]]
        rows = np.arange(I.size)
        R = U[rows, I] - U[rows, J]
        if self.exact:
            return np.rint(Q), np.rint(R)
        return Q, R


_SPARSE_ALTERNATIVE = ("run on the graph's Binary Support Tree (Theorem 3), O(log^2 n) per trial and exact: "
                       "BSTPerceptron.from_graph(G, seed), or MatrixWinnow(BinarySupportTree.from_graph(G, seed), "
                       "cut_size=...); the playground's 'BST Perceptron'")


class FactorTooLargeError(WorkLimitError):
    """The sparse factor's counted fill is over :data:`~simpred_lite.checks.WORK_LIMIT` (no factorisation started).

    :func:`make_kernel` then tries the iterative kernel (:class:`~.iterative.IterativeKernel`)."""


@numba.njit(cache=True, nogil=True)
def _takahashi_diagonal(indptr, indices, lval, D, zval, zdiag, nsp):  # pragma: no cover - compiled
    """The diagonal of ``(L D L^T)^{-1}``: ``L`` unit lower triangular, its strict part in CSC
    (``indptr``, ``indices`` sorted within each column, ``lval``), ``D`` its pivots.

    ``Z_ij = -sum_{k in S_j} L_kj Z_ik`` for ``i`` in ``S_j`` (the rows of column ``j``) and
    ``Z_jj = 1/D_j - sum_{k in S_j} L_kj Z_kj``, from column ``nsp - 1`` back (``zval`` and
    ``zdiag`` come filled for the columns from ``nsp`` on: the dense trailing block, inverted
    with LAPACK); every ``Z_ik`` needed lies on the pattern of the factor (the rows of a
    column form a clique of the filled graph), stored beside ``L``.
    """
    N = D.size
    pos = np.full(N, -1, np.int64)
    for j in range(nsp - 1, -1, -1):
        a, b = indptr[j], indptr[j + 1]
        s = b - a
        for t in range(s):
            pos[indices[a + t]] = t
        acc = np.zeros(s)
        for t in range(s):
            k = indices[a + t]
            lk = lval[a + t]
            acc[t] -= lk * zdiag[k]
            for p in range(indptr[k], indptr[k + 1]):
                q = pos[indices[p]]
                if q >= 0:
                    zik = zval[p]
                    acc[q] -= lk * zik
                    acc[t] -= lval[a + q] * zik
        dj = 1.0 / D[j]
        for t in range(s):
            zval[a + t] = acc[t]
            dj -= lval[a + t] * acc[t]
            pos[indices[a + t]] = -1
        zdiag[j] = dj
    return zdiag


@numba.njit(cache=True, nogil=True)
def _cholesky_column_counts(indptr, indices):  # pragma: no cover - compiled
    """Nonzeros per column of the Cholesky factor of a symmetric pattern (CSR, rows in
    elimination order), diagonal included, before any numeric work: the elimination tree
    (Liu, with path compression), then each row's subtree walked from its entries (the row
    pattern of the factor), ``O(nnz of the factor)`` steps."""
    N = indptr.size - 1
    parent = np.full(N, -1, np.int64)
    ancestor = np.full(N, -1, np.int64)
    for i in range(N):
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            while k != -1 and k < i:
                nxt = ancestor[k]
                ancestor[k] = i
                if nxt == -1:
                    parent[k] = i
                k = nxt
    counts = np.ones(N, np.int64)
    mark = np.full(N, -1, np.int64)
    for i in range(N):
        mark[i] = i
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            while k < i and mark[k] != i:  # L[i, k] is a nonzero
                counts[k] += 1
                mark[k] = i
                k = parent[k]
    return counts


@numba.njit(cache=True, nogil=True)
def _sparse_forward(indptr, indices, lval, X, nsp):  # pragma: no cover - compiled
    """``X <- L_1^{-1} X`` for the first ``nsp`` (sparse) columns of the unit lower ``L`` (CSC)."""
    k = X.shape[1]
    for j in range(nsp):
        for p in range(indptr[j], indptr[j + 1]):
            r = indices[p]
            lv = lval[p]
            for c in range(k):
                X[r, c] -= lv * X[j, c]


@numba.njit(cache=True, nogil=True)
def _sparse_backward(indptr, indices, lval, X, nsp):  # pragma: no cover - compiled
    """The rows ``nsp - 1, ..., 0`` of ``X <- L^{-T} X`` (the trailing rows already solved)."""
    k = X.shape[1]
    for j in range(nsp - 1, -1, -1):
        for p in range(indptr[j], indptr[j + 1]):
            r = indices[p]
            lv = lval[p]
            for c in range(k):
                X[j, c] -= lv * X[r, c]


def _ldlt_solve(ldl: tuple, X: np.ndarray) -> None:
    """Overwrite ``X`` (``N x k``, C order) with ``(L D L^T)^{-1} X``.

    ``ldl = (indptr, indices, lval, D, perm, nsp, L22)``: the strict part of the unit lower
    ``L`` in CSC, whose first ``nsp`` columns are sparse and whose last ``N - nsp`` form a
    dense triangle ``L22`` (the fill of the last vertices eliminated: on an expander-like
    graph most of the factor).  The sparse columns are compiled axpys over the ``k``
    right-hand sides (:func:`_sparse_forward`, :func:`_sparse_backward`: the factor is read
    once per block instead of once per column; no fused multiply-add, no fast-math, so a
    column sees the same operations whatever ``k``), the dense triangle two BLAS-3 triangular
    solves (which may round differently with ``k``).
    """
    indptr, indices, lval, D, _, nsp, L22 = ldl
    _sparse_forward(indptr, indices, lval, X, nsp)
    if L22 is not None:
        from scipy.linalg.blas import dtrsm

        # L22 Y = B  <=>  Y^T L22^T = B^T (X[nsp:].T is Fortran-ordered: solved in place)
        X[nsp:] = dtrsm(1.0, L22, X[nsp:].T, side=1, lower=1, trans_a=1, diag=1).T
    X /= D[:, None]
    if L22 is not None:
        X[nsp:] = dtrsm(1.0, L22, X[nsp:].T, side=1, lower=1, trans_a=0, diag=1).T
    _sparse_backward(indptr, indices, lval, X, nsp)


class PairStream:
    """One learner's place in a prefetched sequence of pairs (:meth:`SparseKernel.prefetch`).

    :meth:`locate` answers, for the pair a learner is asked, its position in the sequence:
    the current position again (a trial asks for its pair to predict and to learn) or the
    next one; any other pair gets ``None`` (the learner then solves for it as without a hint).
    """

    def __init__(self, store: _PrefetchStore) -> None:
        self.store = store
        self.pos = -1

    def locate(self, i: int, j: int) -> int | None:
        st = self.store
        t = self.pos
        if t >= 0 and st.i[t] == i and st.j[t] == j:
            return t
        t += 1
        if t < st.T and st.i[t] == i and st.j[t] == j:
            self.pos = t
            return t
        return None

    def current(self, i: int, j: int) -> int:
        """The position of ``(i, j)`` if it is the current pair of the sequence, else ``-1``."""
        t = self.pos
        return t if t >= 0 and self.store.i[t] == i and self.store.j[t] == j else -1


class _PrefetchStore:
    """Block solves of a fixed sequence of pairs, kept for every learner on the kernel.

    Pair ``t`` of the sequence is solved in a block of ``B`` pairs (:func:`_ldlt_solve`);
    of its potentials ``g_t`` only what a learner can ask is kept: the kernel values
    ``g_t[i_s] - g_t[j_s]`` with every pair ``s`` up to the end of ``t``'s block (a learner
    stores only pairs of earlier trials), ``R_t = g_t[i_t] - g_t[j_t]``, the certified error
    bound of ``g_t`` and ``max |g_t|``.  About ``T^2 / 2`` floats for ``T`` pairs, whatever
    ``n``; the sequence is cut where that would exceed :data:`PREFETCH_ENTRIES`.
    """

    def __init__(self, kern: SparseKernel, i: np.ndarray, j: np.ndarray) -> None:
        self.kern = kern
        self.full_i, self.full_j = i, j
        T = int(math.isqrt(2 * PREFETCH_ENTRIES))
        self.T = T = min(T, i.size)
        self.i, self.j = i[:T].tolist(), j[:T].tolist()
        self._ia, self._ja = i[:T], j[:T]
        self.B = max(16, min(256, COLUMN_CACHE_ENTRIES // (4 * max(kern.n, 1))))
        self.rows: list[np.ndarray] = []
        self.R = np.zeros(T)
        self.err = np.zeros(T)
        self.gmax = np.zeros(T)

    def __getstate__(self):
        return {**self.__dict__, "rows": []}  # a copy solves its blocks again on first use

    def matches(self, i: np.ndarray, j: np.ndarray) -> bool:
        return np.array_equal(i, self.full_i) and np.array_equal(j, self.full_j)

    def row(self, t: int) -> np.ndarray:
        """``g_t[i_s] - g_t[j_s]`` for ``s`` up to the end of ``t``'s block (solving blocks as needed)."""
        b = t // self.B
        while len(self.rows) <= b:
            self._solve_block(len(self.rows))
        return self.rows[b][t - b * self.B]

    def _solve_block(self, b: int) -> None:
        kern, B = self.kern, self.B
        lo, hi = b * B, min((b + 1) * B, self.T)
        cols = np.arange(hi - lo)
        E = np.zeros((kern.n, hi - lo))
        E[self._ia[lo:hi], cols] += 1.0
        E[self._ja[lo:hi], cols] -= 1.0
        X = kern._solve(E)
        self.err[lo:hi] = kern._residual_bound(X, E)
        self.gmax[lo:hi] = np.abs(X).max(axis=0)
        K = np.ascontiguousarray((X[self._ia[:hi]] - X[self._ja[:hi]]).T)
        self.R[lo:hi] = K[cols, cols + lo]
        self.rows.append(K)


def nested_dissection_order(A: Any) -> np.ndarray | None:
    """A fill-reducing order of the symmetric sparse ``A``: METIS nested dissection (pymetis).

    On the expander-like graphs of the sparse regime (random block models) the factor's fill
    is quadratic in ``n`` whatever the order, but nested dissection keeps its constant small:
    on the 4-block model of ``benchmarks/bench_scale.py`` at ``n = 10,000`` the factors have
    40 % fewer nonzeros than in a minimum-degree order (SuperLU's ``MMD_AT_PLUS_A``) and the
    kernel is built 2.3 times faster (section 6 of that script measures both in one run).
    METIS is deterministic (a fixed seed), and the order only changes rounding, inside the
    certified error bound of every solve.

    Parameters
    ----------
    A : scipy.sparse matrix
        A square matrix with a symmetric pattern.

    Returns
    -------
    numpy.ndarray or None
        ``order`` with ``A[order][:, order]`` the matrix to factor (rows in elimination order);
        ``None`` where pymetis is not installed (it has wheels for Linux x86_64 and macOS only):
        the sparse kernel then lets SuperLU order by minimum degree, slower on large graphs.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> A = sp.diags([[-1.0] * 5, [2.0] * 6, [-1.0] * 5], [-1, 0, 1]).tocsr()
    >>> order = nested_dissection_order(A)
    >>> order is None or sorted(order.tolist()) == [0, 1, 2, 3, 4, 5]
    True
    """
    import scipy.sparse as sp

    try:
        import pymetis  # loaded on first use
    except ImportError:  # no wheel for this platform (pyproject.toml): the caller orders by minimum degree
        return None
    G = sp.csr_matrix(A, copy=True)
    G.setdiag(0)
    G.eliminate_zeros()
    G.sort_indices()
    if G.nnz == 0:
        return np.arange(G.shape[0], dtype=np.int64)
    perm, _ = pymetis.nested_dissection(
        pymetis.CSRAdjacency(adj_starts=G.indptr.astype(np.int64), adjacent=G.indices.astype(np.int64)))
    return np.asarray(perm, dtype=np.int64)  # METIS_NodeND: row k of the ordered matrix is row perm[k]


def _central_vertex(G: nx.Graph, start: int) -> tuple[int, dict]:
    """The middle of a double-sweep path (a near-central vertex) and its BFS distances; 3 BFS.

    The sparse kernel grounds there: a small ``sum_v dist(v, c)`` (its bound on
    ``||L_c^{-1}||``) and resistances to ``c`` that tell far vertices apart (the pruning of
    :meth:`SparseKernel._diameter`)."""
    far = nx.single_source_shortest_path_length(G, start)
    u = max(far, key=far.__getitem__)
    pred, dist_u = nx.predecessor(G, u, return_seen=True)
    v = max(dist_u, key=dist_u.__getitem__)
    path = [v]
    while path[-1] != u:
        path.append(pred[path[-1]][0])
    c = int(path[len(path) // 2])
    return c, nx.single_source_shortest_path_length(G, c)


class SparseKernel(DenseKernel):
    """The same kernel from sparse solves with a grounded Laplacian (any ``n``), built once per graph.

    ``L_c`` (the Laplacian with the row and column of a ground vertex ``c`` deleted; ``c`` is
    the middle of a double-sweep path, :func:`_central_vertex`) is factorised once (SuperLU
    in a nested-dissection order, :func:`nested_dissection_order`, no pivoting: ``L_c`` is
    symmetric positive definite),
    and its factor kept as ``L D L^T`` for compiled multi-right-hand-side solves
    (:func:`_ldlt_solve`).  A trial needs one solve, for its pair: ``g = L_c^{-1} (e_i - e_j)``
    (``g_c = 0``), which differs from ``L^+ (e_i - e_j)`` by a constant that cancels in every
    ``(e_a - e_b)^T g``; the kernel values with the stored pairs are then ``O(k)`` gathers.
    Without a hint each pair is solved alone (:meth:`pair`; the last few pairs' solutions are
    cached, a learner asking for the same pair to predict and to learn).  With the hint of a
    fixed sequence (:meth:`prefetch`, which :func:`~simpred_lite.game.evaluation.evaluate`
    gives) the pairs are solved in blocks of up to 256, which read the factor once per block
    instead of once per pair, and the solves are shared by every learner on the kernel.  The
    sparse columns of the factor give bit-identical potentials either way; its dense
    trailing triangle (BLAS) may round a block differently from a single column, within the
    certified error bound that every decision carries, so the predictions do not change.

    **What is exact and what is certified.**  Every float ``g`` comes with a rigorous bound
    on ``|g~ - g|`` from its residual ``r = L g~ - (e_i - e_j)`` (computed in floats, its
    rounding bounded componentwise): ``||g~ - g||_2 <= ||L_c^{-1}||_2 ||r||_2`` and
    ``||L_c^{-1}||_2`` bounded by the smaller of ``trace L_c^{-1} = sum_v R_vc <= sum_v dist(v, c)``
    (Rayleigh: a resistance is at most the length of a path; one breadth-first search) and a
    Collatz-Wielandt bound from three solves (:meth:`_collatz_wielandt_bound`: within 0.4 % of the
    norm on the graphs of the tests and 2.3-9.2 times below the first there; 19 times on a
    2000-vertex block model) (:meth:`pair`).

    The resistance diameter ``R`` needs no all-pairs work.  The diagonal ``d_v = R_vc`` of
    ``L_c^{-1}`` comes from a selected inversion of the factors (:meth:`diagonal`, about the
    cost of the factorisation).  ``L_c^{-1}`` is entrywise nonnegative (the inverse of an
    M-matrix), so ``R_ij = d_i + d_j - 2 (L_c^{-1})_ij <= d_i + d_j``: the columns of the
    vertices in decreasing ``d`` are solved only while ``d_i + max d`` reaches the best
    resistance found (minus a band ``1e-9 max d + 1e-6 R``, far above the rounding of ``d``);
    no other vertex can be an end of the maximum.  Finally each pair within ``1e-6 R`` of the
    maximum is solved as a pair with its certified error: ``R`` is the largest of these and
    ``R_error`` bounds ``|R - exact max|`` rigorously *given* that the ruling-out was right
    (which rests on the float ``d``, accurate to about ``1e-13`` here, against a band of
    ``1e-9``; the tests compare ``R`` with the dense all-pairs maximum).  Those pairs also give
    the exact ``R^2`` (:meth:`exact_R2`, one exact solve each).  On a tree ``R`` is rounded to
    its integer.

    Built by :func:`make_kernel`, which keeps one per frozen validated graph: learners on
    the same graph (as in :func:`~simpred_lite.game.evaluation.evaluate`) share the factor,
    ``R`` and its error bound.  Where the factor's fill, counted from its pattern before any
    factorisation, is over the work limit (:class:`FactorTooLargeError`), :func:`make_kernel`
    builds :class:`~.iterative.IterativeKernel` instead: this class with PCG solves
    (:meth:`_solve`) and a sketch in place of :meth:`diagonal` (:meth:`_diameter`).
    """

    #: Power steps before the Collatz-Wielandt bound on ``||L_c^{-1}||_2`` (each one solve).
    NORM_POWER_STEPS = 2
    #: Pair solutions kept (a trial asks for its pair's solution to predict and again to learn).
    PAIR_CACHE = 4

    def __init__(self, G: nx.Graph) -> None:
        dist = self._setup(G)
        self._plan_factor()
        self._finish(dist)

    def _setup(self, G: nx.Graph) -> dict:
        """The graph, its ground ``c`` and Laplacians (``O(m)``); returns the BFS distances to ``c``."""
        self.graph = G
        self.n = G.number_of_nodes()
        self.m = G.number_of_edges()
        self.exact = self.m == self.n - 1
        n = self.n
        degrees = np.fromiter((d for _, d in G.degree(range(n))), dtype=np.int64, count=n)
        self.ground, dist = _central_vertex(G, int(np.argmax(degrees)))
        self._keep = np.r_[0:self.ground, self.ground + 1:n]
        L = laplacian(G).tocsr()
        self._L = L
        self._absL = abs(L)
        self._dmax = float(degrees.max())
        self._Lc = L[self._keep][:, self._keep].tocsc()
        self._lu_obj: Any = None
        self._ldl_obj: Any = None
        self._order: np.ndarray | None = None
        self._fill = 0.0
        self._store: _PrefetchStore | None = None
        return dist

    def _plan_factor(self) -> None:
        """Count the factor's fill from its pattern and refuse (:class:`FactorTooLargeError`) before factorising."""
        n = self.n
        what = (f"the resistance diameter R of a graph on n={n} vertices (a selected inversion of the factors of its "
                "grounded Laplacian, for the kernel learners MatrixPerceptron / MatrixWinnow)")
        # the factor's size from its pattern alone, so that a graph too large is refused before
        # the factorisation (which on an expander-like graph grows about as n^3) starts
        self._order = nested_dissection_order(self._Lc)
        if self._order is not None:
            pattern = self._Lc[self._order][:, self._order].tocsr()
            pattern.sort_indices()
            counts = _cholesky_column_counts(pattern.indptr.astype(np.int64), pattern.indices.astype(np.int64))
        else:  # no pymetis: SuperLU orders by minimum degree as it factors, so count after it
            counts = np.diff(self._lu.L.indptr)
        counts = counts.astype(float)
        fill = 2.0 * float(counts.sum())
        self._fill = fill  # a column solve costs about 2 * fill steps (the diameter's work guard)
        # factorisation and selected inversion cost about sum_j |column j|^2 each; a few dozen
        # solves follow (this bound also keeps the factor's memory near a gigabyte at most)
        try:
            check_work(2.0 * float(counts @ counts) + 64.0 * fill,
                       what + f" with about {fill:.2g} nonzeros in the factors of its grounded Laplacian",
                       _SPARSE_ALTERNATIVE)
        except WorkLimitError as refusal:  # its own type, so that make_kernel can try the iterative kernel
            raise FactorTooLargeError(*refusal.args) from None

    def _finish(self, dist: dict) -> None:
        """The certified norm bound, then ``R`` (after the solver is ready)."""
        #: A rigorous upper bound on ||L_c^{-1}||_2, the factor by which a solve's residual bounds its
        #: error: the smaller of trace L_c^{-1} = sum_v R_vc <= sum_v dist(v, c) and the
        #: Collatz-Wielandt bound of :meth:`_collatz_wielandt_bound` (within 1 % of the norm).
        self.inverse_norm_bound = float(sum(dist.values())) * (1 + 4 * UNIT_ROUNDOFF)
        self._pairs_cache: OrderedDict[tuple[int, int], tuple[np.ndarray, float]] = OrderedDict()
        self.solves = 0  # sparse solves so far (diameter and pairs), for the benchmarks
        self.inverse_norm_bound = min(self.inverse_norm_bound, self._collatz_wielandt_bound())
        self.R, self.diameter_pair = self._diameter()
        if self.exact:
            self.R = int(round(self.R))

    @property
    def _lu(self) -> Any:
        """The SuperLU factorisation of ``L_c`` (made on first use; not pickled)."""
        if self._lu_obj is None:
            import scipy.sparse.linalg as spla  # loaded on first use

            order = self._order
            if order is None:  # SuperLU's minimum degree on L + L^T
                self._lu_obj = spla.splu(self._Lc, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0)
            else:  # SuperLU keeps the nested-dissection order (no pivoting: L_c is positive definite)
                self._lu_obj = spla.splu(self._Lc[order][:, order].tocsc(), permc_spec="NATURAL",
                                         diag_pivot_thresh=0.0, options={"SymmetricMode": True})
        return self._lu_obj

    @property
    def _ldl(self) -> tuple[Any, ...] | None:
        """``(indptr, indices, values, D, perm, nsp, L22)``: the factor as ``P^T L_c P = L D L^T``
        (``L``'s strict part in sorted CSC; its columns from ``nsp`` on a dense triangle, also
        kept as the dense ``L22``, or ``None`` if that block is small), or ``None`` if SuperLU
        pivoted (not expected: ``L_c`` is positive definite)."""
        if self._ldl_obj is None:
            lu = self._lu
            if not np.array_equal(lu.perm_r, lu.perm_c):  # pragma: no cover - pivoting
                self._ldl_obj = ()
            else:
                import scipy.sparse as sp

                Lf = sp.tril(lu.L, -1).tocsc()
                Lf.sort_indices()
                N = Lf.shape[0]
                counts = np.diff(Lf.indptr)
                full = counts == N - 1 - np.arange(N)  # column j holds every row below j
                nd = int(np.argmin(full[::-1])) if not full.all() else N  # the dense trailing columns
                nsp = N - nd
                L22 = None
                if nd >= DENSE_BLOCK_MIN:
                    L22 = np.zeros((nd, nd), order="F")
                    cols = np.repeat(np.arange(nd), counts[nsp:])
                    L22[Lf.indices[Lf.indptr[nsp]:] - nsp, cols] = Lf.data[Lf.indptr[nsp]:]
                    L22[np.arange(nd), np.arange(nd)] = 1.0
                else:
                    nsp = N
                self._ldl_obj = (Lf.indptr.astype(np.int64), Lf.indices.astype(np.int64),
                                 np.ascontiguousarray(Lf.data, dtype=float), lu.U.diagonal().astype(float),
                                 self._factor_positions(), nsp, L22)
        return self._ldl_obj or None

    def _factor_positions(self) -> np.ndarray:
        """``pos[k]``: the position in the factor's order of row ``k`` of ``L_c``."""
        perm_c = np.asarray(self._lu.perm_c, dtype=np.int64)  # SuperLU's order of the matrix it factored
        if self._order is None:
            return perm_c
        pos = np.empty(perm_c.size, dtype=np.int64)
        pos[self._order] = perm_c  # the identity: SuperLU kept the given order
        return pos

    def __getstate__(self):
        # the factorisation, the pair solutions and the prefetched blocks are caches: a copy
        # refactors on first use
        return {**self.__dict__, "_lu_obj": None, "_ldl_obj": None, "_pairs_cache": OrderedDict(),
                "_store": None}

    # -- solves with a certified error ---------------------------------------------------
    def _solve(self, B: np.ndarray) -> np.ndarray:
        """Potentials ``X`` (``n x k``, row ``c`` zero) with ``L_c X[keep] = B[keep]``.

        With the factor as ``L D L^T`` (:func:`_ldlt_solve`): a block of ``k`` right-hand sides
        reads the factor once; a column comes out as its single solve (bit for bit on the sparse
        columns of the factor, to rounding on its dense triangle)."""
        X = np.zeros((self.n, B.shape[1]))
        ldl = self._ldl
        if ldl is None:  # pragma: no cover - pivoting
            rows = self._keep if self._order is None else self._keep[self._order]
            X[rows] = self._lu.solve(np.ascontiguousarray(B[rows]))
        else:
            perm = ldl[4]
            Y = np.empty((perm.size, B.shape[1]))
            Y[perm] = B[self._keep]
            _ldlt_solve(ldl, Y)
            X[self._keep] = Y[perm]
        self.solves += B.shape[1]
        return X

    def _collatz_wielandt_bound(self) -> float:
        """A rigorous upper bound on ``||L_c^{-1}||_2`` from a few solves, or ``inf`` if it cannot certify one.

        ``L_c`` is a nonsingular M-matrix, so ``A = L_c^{-1}`` is entrywise nonnegative and, for
        every positive vector ``x``, ``||A||_2 = rho(A) <= max_v (A x)_v / x_v`` (Collatz-Wielandt).
        Take ``w ~ L_c^{-k} 1`` from the factor (``k - 1 =`` :attr:`NORM_POWER_STEPS` power steps
        bring ``w`` near the Perron vector, where the bound is nearly the norm) and ``x`` a
        certified lower bound of ``L_c w`` (its float product minus the product's rounding
        bound): ``A x <= A L_c w = w``, so ``max_v w_v / x_v`` bounds the norm whatever the
        solve's error, as long as ``w > 0`` and ``x > 0`` (then checked; they hold unless the
        solve is wildly wrong).
        """
        u = UNIT_ROUNDOFF
        ones = np.ones((self.n, 1))
        ones[self.ground] = 0.0
        w = ones
        for _ in range(self.NORM_POWER_STEPS + 1):  # w ~ L_c^{-k} 1, near the Perron vector of L_c^{-1}
            w = self._solve(w / np.abs(w).max())
        w = w[self._keep, 0]
        if not (w > 0).all():  # pragma: no cover - a solve this inaccurate fails other checks first
            return math.inf
        Lc = self._Lc
        gam = (self._dmax + 3) * u / (1 - (self._dmax + 3) * u)
        # |fl(L_c w) - L_c w| <= gam |L_c| w, and fl(|L_c| w) >= (1 - gam) |L_c| w; the factor 2 and
        # (1 - 4u) absorb the roundings of this line
        x = (Lc @ w - 2.0 * gam * (abs(Lc) @ w)) * (1 - 4 * u)
        if not (x > 0).all():  # pragma: no cover - L_c w > 0 by far on every graph tried
            return math.inf
        return float((w / x).max()) * (1 + 4 * u)

    def _residual_bound(self, X: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Per column, a rigorous bound on ``||X~ - X||_2`` (the exact grounded solution ``X``)."""
        u = UNIT_ROUNDOFF
        res = self._L @ X - B
        res[self.ground] = 0.0  # the grounded row is not part of the system
        gam = (self._dmax + 3) * u / (1 - (self._dmax + 3) * u)
        rounding = gam * np.sqrt(((self._absL @ np.abs(X) + np.abs(B)) ** 2).sum(axis=0))
        rnorm = np.sqrt((res * res).sum(axis=0)) * (1 + 2 * u * math.sqrt(self.n)) + rounding
        return self.inverse_norm_bound * rnorm * (1 + 8 * u)

    def pair(self, i: int, j: int) -> tuple[np.ndarray, float]:
        """``(g, err)``: potentials ``g = L_c^{-1} (e_i - e_j)`` and a rigorous bound on ``||g~ - g||_2``.

        One sparse solve per new pair (the last :attr:`PAIR_CACHE` pairs are kept)."""
        key = (i, j)
        hit = self._pairs_cache.get(key)
        if hit is not None:
            self._pairs_cache.move_to_end(key)
            return hit
        b = np.zeros((self.n, 1))
        b[i, 0] += 1.0
        b[j, 0] -= 1.0
        g = self._solve(b)
        out = (g[:, 0], float(self._residual_bound(g, b)[0]))
        self._pairs_cache[key] = out
        if len(self._pairs_cache) > self.PAIR_CACHE:
            self._pairs_cache.popitem(last=False)
        return out

    def potentials(self, i: int, j: int) -> np.ndarray:
        return self.pair(i, j)[0]

    # -- a fixed sequence of pairs, solved in blocks ---------------------------------------
    def prefetch(self, i: Any, j: Any) -> PairStream:
        """Announce the pairs ``(i[t], j[t])`` a learner will be asked, in order: solve them in blocks.

        A trial's pair does not depend on the labels, so when the sequence is fixed in advance
        (as in :func:`~simpred_lite.game.evaluation.evaluate`) the kernel solves its pairs
        ``B`` at a time (:class:`_PrefetchStore`; a block reads the factor once) and keeps, per
        pair, the kernel values with the earlier pairs, for every learner on this kernel: the
        Matrix Perceptron and Matrix Winnow of one run share the solves.  The same sequence
        announced again (the next learner) reuses the blocks; another sequence replaces them.
        Nothing changes in the predictions: each column of a block solve is the single solve
        of :meth:`pair` (:func:`_ldlt_solve`; bit for bit on the sparse columns of the factor,
        within the certified error bound on its dense triangle), the kernel values are the
        same differences, and every decision is certified with the error bound of its solve.

        Parameters
        ----------
        i, j : array_like of int
            The pairs' first and second vertices, in the order they will be asked.

        Returns
        -------
        PairStream
            The asking learner's place in the sequence (pass it to :meth:`inner`).

        Examples
        --------
        >>> from simpred_lite.graphs import validate_graph, frozen_copy
        >>> kern = SparseKernel(frozen_copy(validate_graph(nx.cycle_graph(8))))
        >>> stream = kern.prefetch([0, 1], [4, 3])
        >>> pairs = GrowingPairs()
        >>> q, r = kern.inner(pairs, 0, 4, stream)           # trial 0, found in the sequence
        >>> pairs.append(0, 4, stream.current(0, 4))         # a mistake, kept with its position
        >>> q, r = kern.inner(pairs, 1, 3, stream)           # trial 1: its block is already solved
        >>> stream.pos, pairs.pos.tolist(), round(r, 6), round(float(q[0]), 6)
        (1, [0], 1.5, 1.0)
        """
        i = np.asarray(i, dtype=np.int64).ravel()
        j = np.asarray(j, dtype=np.int64).ravel()
        if self._store is None or not self._store.matches(i, j):
            self._store = _PrefetchStore(self, i, j)
        return PairStream(self._store)

    def _located(self, pairs: GrowingPairs, i: int, j: int, stream: PairStream | None) -> int | None:
        """The position of ``(i, j)`` in the stream if its stored row covers every pair of ``pairs``."""
        if stream is None or not pairs.positioned:
            return None
        t = stream.locate(i, j)
        if t is None or pairs.max_pos >= min((t // stream.store.B + 1) * stream.store.B, stream.store.T):
            return None
        return t

    def inner(self, pairs: GrowingPairs, i: int, j: int, stream: PairStream | None = None
              ) -> tuple[np.ndarray, int | float]:
        t = self._located(pairs, i, j, stream)
        if t is None:
            return super().inner(pairs, i, j)
        assert stream is not None
        st = stream.store
        q = st.row(t)[pairs.pos]
        r = float(st.R[t])
        if self.exact:
            return np.rint(q).astype(np.int64), int(round(r))
        return q, r

    def inner_ahead(self, pairs: GrowingPairs, k0: int, seq_i: np.ndarray, seq_j: np.ndarray, lo: int, hi: int,
                    stream: PairStream | None = None) -> tuple[np.ndarray, np.ndarray] | None:
        """:meth:`DenseKernel.inner_ahead` from the block solves of the announced sequence (``None``
        without them, or if a stored pair has no position in it): the values :meth:`inner` reads."""
        if stream is None or k0 == 0:
            return None
        st = stream.store
        pos = pairs.pos[:k0]
        hi = min(hi, st.T)
        if lo >= hi or int(pos.min()) < 0 or int(pos.max()) >= min((lo // st.B + 1) * st.B, st.T):
            return None
        Q = np.stack([st.row(t)[pos] for t in range(lo, hi)])
        R = st.R[lo:hi].copy()
        if self.exact:
            return np.rint(Q), np.rint(R)
        return Q, R

    def pair_error(self, pairs: GrowingPairs, i: int, j: int, stream: PairStream | None = None
                   ) -> tuple[float, float]:
        """``(err, gmax)``: the certified bound on ``||g~ - g||_2`` of the pair's potentials and ``max |g~|``."""
        t = self._located(pairs, i, j, stream)
        if t is None:
            g, err = self.pair(i, j)
            return err, float(np.abs(g).max())
        assert stream is not None
        st = stream.store
        st.row(t)
        return float(st.err[t]), float(st.gmax[t])

    # -- the resistance diameter ---------------------------------------------------------
    def diagonal(self) -> np.ndarray:
        """``d_v = R_vc``: the diagonal of ``L_c^{-1}`` (``d_c = 0``), by selected inversion.

        The factorisation is ``P^T L_c P = L D L^T`` (no pivoting); Takahashi's recurrence
        ``Z = D^{-1} L^{-1} + (I - L^T) Z`` gives the entries of ``Z = (L D L^T)^{-1}`` on the
        pattern of the factor, column by column from the last, at about the cost of the
        factorisation (compiled, :func:`_takahashi_diagonal`) instead of ``n`` solves.  A
        float computation without an error bound of its own: :meth:`_diameter` uses it only to
        rule vertices out, with a wide band.
        """
        d = np.zeros(self.n)
        ldl = self._ldl
        if ldl is not None:  # symmetric order, no pivoting: U = D L^T
            indptr, indices, lval, D, perm, nsp, L22 = ldl
            zval = np.zeros(lval.size)
            zdiag = np.zeros(D.size)
            if L22 is not None:  # the dense trailing block: Z22 = (L22 D2 L22^T)^{-1} with LAPACK
                from scipy.linalg.lapack import dtrtri

                M, info = dtrtri(L22, lower=1, unitdiag=1)
                if info != 0:  # pragma: no cover - a unit triangle is invertible
                    raise np.linalg.LinAlgError(f"dtrtri failed (info={info})")
                A = M / np.sqrt(D[nsp:])[:, None]
                Z22 = A.T @ A
                zdiag[nsp:] = np.diag(Z22)
                nd = D.size - nsp
                cols = np.repeat(np.arange(nd), np.diff(indptr[nsp:]))
                zval[indptr[nsp]:] = Z22[indices[indptr[nsp]:] - nsp, cols]
            z = _takahashi_diagonal(indptr, indices, lval, D, zval, zdiag, nsp)
            d[self._keep] = z[perm]
            return d
        batch = max(1, min(256, COLUMN_CACHE_ENTRIES // (4 * self.n)))  # pragma: no cover - pivoting
        for start in range(0, self._keep.size, batch):  # pragma: no cover
            cols = self._keep[start:start + batch]
            E = np.zeros((self.n, cols.size))
            E[cols, np.arange(cols.size)] = 1.0
            d[cols] = self._solve(E)[cols, np.arange(cols.size)]
        return d  # pragma: no cover

    def _resistances_to(self, d: np.ndarray, v: int) -> np.ndarray:
        """Float ``R_uv`` for every ``u`` from one solve (``d``: the diagonal, ``R_uc``)."""
        e = np.zeros((self.n, 1))
        e[v, 0] = 1.0  # row c is not part of the grounded system
        r = d + d[v] - 2.0 * self._solve(e)[:, 0]
        r[v] = 0.0
        return np.maximum(r, 0.0)

    def _resistances_to_centre(self, d: np.ndarray) -> np.ndarray | None:
        """``R_ua`` for a resistance centre ``a`` (three solves), or None when it is the ground.

        A double sweep in the resistance metric: ``p`` farthest from the ground, ``q``
        farthest from ``p``, ``a`` the vertex nearest to both (``min max(R_ap, R_aq)``)."""
        if self.n <= 2:
            return None
        to_p = self._resistances_to(d, int(np.argmax(d)))
        to_q = self._resistances_to(d, int(np.argmax(to_p)))
        a = int(np.argmin(np.maximum(to_p, to_q)))
        return None if a == self.ground else self._resistances_to(d, a)

    def _diameter(self):
        n = self.n
        if n == 1:
            self.R_error, self._cands, self.columns_solved = 0.0, [], 0
            return 0.0, (0, 0)
        d = self.diagonal()
        # R_ij = d_i + d_j - 2 G_ij with G = L_c^{-1} >= 0 entrywise.  The columns of G are
        # solved in decreasing order of an upper bound on max_j R_ij, and the search stops once
        # the bound falls below the best found minus a band far above the rounding of d and of
        # the solves (1e-9 max d + 1e-6 R, and 1e-6 of the bound).  Two bounds: d_i + max d
        # (as R_ij <= d_i + d_j), and the triangle inequality of the resistance metric through
        # a centre a, R_ia + max_v R_va.  The ground c is a geodesic centre, which can lie far
        # from the resistance centre (the midpoint of an L-shaped geodesic of a grid is a
        # corner, where the first bound leaves every column); a resistance double sweep finds
        # a better a with three solves: p = argmax R_pc, q = argmax R_qp, a = argmin max(R_ap, R_aq).
        key = d + d.max()
        to_a = self._resistances_to_centre(d)
        if to_a is not None:
            key = np.minimum(key, to_a + to_a.max())
        order = np.argsort(-key, kind="stable")
        dtop = float(d.max())
        full = max(1, min(256, COLUMN_CACHE_ENTRIES // (4 * n)))
        best = -1.0
        near: dict[tuple[int, int], float] = {}
        done, batch = 0, 8
        while done < n:
            i0 = int(order[done])
            band = 1e-9 * max(dtop, 1.0) + 1e-6 * max(best, 1.0) + 1e-6 * float(key[i0])
            if best >= 0 and key[i0] < best - band:
                break
            cols = order[done:done + batch]
            # the pruning may leave most columns (a grid): refuse before the solves exceed the limit
            check_work(2.0 * self._fill * (done + cols.size),
                       f"the resistance diameter R of a graph on n={n} vertices ({done + cols.size} column "
                       "solves of its grounded Laplacian, those its pruning leaves)", _SPARSE_ALTERNATIVE)
            done += cols.size
            batch = min(2 * batch, full)
            E = np.zeros((n, cols.size))
            E[cols, np.arange(cols.size)] = 1.0  # row c is not part of the grounded system
            X = self._solve(E)
            Rb = d[:, None] + d[cols][None, :] - 2.0 * X
            Rb[cols, np.arange(cols.size)] = 0.0
            best = max(best, float(Rb.max()))
            rows, ks = np.nonzero(Rb >= best - 1e-6 * max(best, 1.0))
            for x, k, y_ in zip(rows.tolist(), ks.tolist(), cols[ks].tolist()):
                near[(min(x, y_), max(x, y_))] = float(Rb[x, k])
        self.columns_solved = done
        cands = sorted(p for p, r in near.items() if p[0] != p[1] and r >= best - 1e-6 * max(best, 1.0))
        return self._certify_candidates(cands)

    def _certify_candidates(self, cands: list[tuple[int, int]]) -> tuple[float, tuple[int, int]]:
        """``(R, pair)`` from a certified solve per candidate pair; sets ``R_error`` and the candidates."""
        u = UNIT_ROUNDOFF
        R, pair, err = -1.0, cands[0], 0.0
        for a, b in cands:
            g, e = self.pair(a, b)
            r = float(g[a] - g[b])
            err = max(err, math.sqrt(2.0) * e + 2 * u * (abs(g[a]) + abs(g[b])))
            if r > R:
                R, pair = r, (a, b)
        self._cands = cands
        self.R_error = err * (1 + 4 * u)
        return R, pair

    def diameter_error(self) -> float:
        return 0.0 if self.exact else self.R_error

    def diameter_candidates(self, band: float) -> list[tuple[int, int]]:
        if band > 1e-6 * max(float(self.R), 1.0):
            # certifying R exactly would need a solve per candidate pair far beyond the work limit:
            # the learner gives up (evaluate retires it with this reason) instead of failing
            raise WorkLimitError(
                f"the resistance diameter R of a graph on n={self.n} vertices cannot be certified: the sparse "
                f"solves' error bound {band:.1e} is wider than the 1e-6 relative band an exact R needs, and "
                f"narrowing it is more work than simpred_lite.checks.WORK_LIMIT allows; {_SPARSE_ALTERNATIVE}")
        return list(self._cands)


class BSTKernel:
    """Signed overlaps of leaf-to-leaf paths of a BST, in exact integers, vectorised.

    The edge above heap node ``c`` (level ``l``) lies on the path of the stored pair
    ``(a_s, b_s)`` with sign ``[c is an ancestor of leaf(b_s)] - [c is an ancestor of
    leaf(a_s)]`` (``0`` above the lowest common ancestor), and ``c`` is an ancestor of a leaf
    ``h`` iff ``h >> (depth - l) == c``: a trial costs ``O(|path| k)`` integer operations.
    """

    exact = True

    def __init__(self, bst: BinarySupportTree) -> None:
        self.bst = bst
        self.n = bst.n
        self.m = 2 * bst.num_leaves - 2
        self.depth = bst.num_leaves.bit_length() - 1
        self.R = 2 * bst.depth
        self._leaf = np.array([bst.leaf(v) for v in range(bst.n)], dtype=np.int64)

    def diameter_error(self) -> float:
        return 0.0  # R = 2 depth, an exact integer

    def exact_R2(self) -> Fraction:
        return Fraction(self.R**2)

    def inner(self, pairs: GrowingPairs, i: int, j: int, stream: PairStream | None = None
              ) -> tuple[np.ndarray, int | float]:
        edges, signs = bst_instance(self.bst, i, j)
        c = edges + 2  # child heap indices
        shift = self.depth - (np.log2(c).astype(np.int64))
        la, lb = self._leaf[pairs.a], self._leaf[pairs.b]
        on_b = (lb[None, :] >> shift[:, None]) == c[:, None]
        on_a = (la[None, :] >> shift[:, None]) == c[:, None]
        q = signs @ (on_b.astype(np.int64) - on_a.astype(np.int64))
        return q, int(edges.size)


class Forest:
    """Union–find over vertices: the pairs kept so far are independent iff they form a forest.

    A pair's instance is a fixed injective linear image of ``e_a - e_b`` (``Psi L^+`` on a
    graph, ``(Psi_B^+)^T`` on the leaves of a BST), so a new pair lies in the span of earlier
    ones exactly when ``a`` and ``b`` are already connected: the span test is combinatorial,
    never a floating-point tolerance.
    """

    def __init__(self, n: int) -> None:
        self._sets = nx.utils.UnionFind(range(n))  # networkx's union-find, as everywhere

    def find(self, v: int) -> int:
        return self._sets[v]

    def union(self, a: int, b: int) -> bool:
        """Join ``a`` and ``b``; ``False`` if they were already connected."""
        if self._sets[a] == self._sets[b]:
            return False
        self._sets.union(a, b)
        return True


def _sparse_kernel(H: nx.Graph) -> SparseKernel:
    """The factor's kernel, or the iterative one when :data:`SPARSE_SOLVER` says so or the factor is refused.

    The factor's fill is counted from its pattern before any factorisation
    (:class:`FactorTooLargeError`); the iterative kernel checks its own work estimate before
    its solves.  If both are refused the error names both costs."""
    from .iterative import IterativeKernel  # its module imports this one

    if SPARSE_SOLVER == "iterative":
        return IterativeKernel(H)
    if SPARSE_SOLVER != "auto":
        raise ValueError(f"kernels.SPARSE_SOLVER should be 'auto' or 'iterative', got {SPARSE_SOLVER!r}")
    try:
        return SparseKernel(H)
    except FactorTooLargeError as factor_refusal:
        try:
            return IterativeKernel(H)
        except WorkLimitError as iterative_refusal:
            raise WorkLimitError(f"both sparse kernels are refused. The factor: {factor_refusal} The iterative "
                                 f"kernel instead: {iterative_refusal}") from None


# One kernel per frozen validated graph (and per dense / sparse form), while the graph lives.
_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def make_kernel(G: Any, what: str) -> DenseKernel | BSTKernel:
    """The kernel of a graph or a BST: the one object the kernel-form learners draw instances from.

    On a frozen graph that passed :func:`~simpred_lite.graphs.validate_graph` (what
    :func:`~simpred_lite.game.evaluation.evaluate` hands every learner) the kernel is built
    once and shared: the Matrix Perceptron and Matrix Winnow on the same graph use one
    ``L^+`` (or one sparse factorisation) and one resistance diameter ``R``.  A refusal by the
    work or memory guard is kept the same way: the next learner on that graph gets the same
    error at once, until :data:`~simpred_lite.checks.WORK_LIMIT` or
    :data:`~simpred_lite.checks.MEMORY_LIMIT` changes.  Any other graph gets a kernel of its
    own, on a frozen copy.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (the kernel keeps a frozen copy: later edits of the caller's graph
        change nothing), or a Binary Support Tree.
    what : str
        The learner asking, named in the error messages.

    Returns
    -------
    DenseKernel, SparseKernel or BSTKernel
        :class:`DenseKernel` up to ``DENSE_LIMIT`` vertices, :class:`SparseKernel` beyond
        (:class:`~.iterative.IterativeKernel` where the factor's counted fill is over the work
        limit and the iterations' estimate is not, or where ``SPARSE_SOLVER = "iterative"``),
        :class:`BSTKernel` on a BST.

    Examples
    --------
    >>> kern = make_kernel(nx.path_graph(4), "example")
    >>> type(kern).__name__, kern.R, kern.exact
    ('DenseKernel', 3, True)
    >>> from simpred_lite.graphs import validate_graph
    >>> F = validate_graph(nx.cycle_graph(5), freeze=True)
    >>> make_kernel(F, "example") is make_kernel(F, "example")   # one per frozen graph
    True
    """
    if isinstance(G, BinarySupportTree):
        return BSTKernel(G)
    if isinstance(G, nx.Graph):
        G = validate_graph(G)
        dense = G.number_of_nodes() <= DENSE_LIMIT
        if not nx.is_frozen(G):  # a private kernel on a frozen copy: later edits of G change nothing
            H = frozen_copy(G)
            return DenseKernel(H) if dense else _sparse_kernel(H)
        # a frozen validated graph cannot change: one kernel per graph, shared by every learner on it
        kinds = _SHARED.setdefault(G, {})
        key = "dense" if dense else SPARSE_SOLVER
        kern = kinds.get(key)
        limits = (checks.WORK_LIMIT, checks.MEMORY_LIMIT)
        if isinstance(kern, tuple):
            if kern[0] == limits:
                # refused on this graph under the same limits: the next matrix learner on it (evaluate's
                # Matrix Winnow after its Perceptron) does not redo the work up to the guard
                raise kern[1](*kern[2])
            kern = None  # a limit changed since: try again
        if kern is None:
            H = frozen_copy(G)  # the kernel keeps a copy, so that the cache does not keep G alive
            try:
                kern = kinds[key] = DenseKernel(H) if dense else _sparse_kernel(H)
            except (WorkLimitError, MemoryLimitError) as refusal:  # a guard's refusal, remembered with the graph
                # its type and message only: the exception's traceback would keep the half-built kernel alive
                kinds[key] = (limits, type(refusal), refusal.args)
                raise
        return kern
    raise TypeError(f"{what} takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")


class PrefetchHint:
    """The ``prefetch`` hint of the kernel-form matrix learners (one implementation for both).

    A learner that mixes it in keeps its place in the announced sequence (``_stream``, a
    :class:`PairStream` on the kernel's shared block solves) and the sequence itself
    (``_sequence``, which Matrix Winnow reads ahead); both stay ``None`` on a BST kernel or
    without a hint.
    """

    _stream: PairStream | None = None
    _sequence: tuple[np.ndarray, np.ndarray] | None = None
    #: The kernel the hint goes to (each learner says which).
    _diameter_source: Callable[[], Any]

    def prefetch(self, pairs: Any) -> None:
        """A hint: the pairs this learner will be asked next, in order (predictions do not change).

        On the sparse kernel (``n > DENSE_LIMIT``) the pairs are then solved in blocks, and
        the solves are shared with the other matrix learners on the same graph that get the
        same hint (:meth:`SparseKernel.prefetch`); Matrix Winnow also reads the sequence ahead
        (its basis coordinates of the coming pairs in blocks, on the dense kernel too).
        :func:`~simpred_lite.game.evaluation.evaluate` gives the hint, its trial sequence
        being fixed before play; an adaptive adversary, which picks pairs as it goes, gives none.

        Parameters
        ----------
        pairs : sequence of (int, int)
            The pairs ``(i, j)`` in the order they will be asked.

        Examples
        --------
        >>> from simpred_lite.learners import MatrixPerceptron, MatrixWinnow
        >>> learner = MatrixPerceptron(nx.cycle_graph(6)); learner.prefetch([(0, 3), (1, 2)])
        >>> learner.predict_one(0, 3)
        0
        >>> learner = MatrixWinnow(nx.cycle_graph(6), cut_size=2); learner.prefetch([(0, 1), (1, 2)])
        >>> learner.predict_one(0, 1)
        1
        """
        P = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        kern = self._diameter_source()
        if isinstance(kern, DenseKernel):
            self._stream = kern.prefetch(P[:, 0], P[:, 1])
            self._sequence = (P[:, 0].copy(), P[:, 1].copy())
        else:
            self._stream = self._sequence = None


class ResistanceDiameter:
    """``R_error`` and ``exact_R2`` of the matrix learners, from their kernel or geometry (``_diameter_source``)."""

    #: The kernel or geometry that knows ``R`` (each learner says which).
    _diameter_source: Callable[[], Any]

    @property
    def R_error(self) -> float | None:
        """A rigorous bound on ``|R - exact R|``: ``0`` where ``R`` is an exact integer (trees,
        BSTs), ``None`` for the dense reference on other graphs.

        Examples
        --------
        >>> from simpred_lite.learners import MatrixPerceptron
        >>> MatrixPerceptron(nx.path_graph(4)).R_error
        0.0
        """
        return self._diameter_source().diameter_error()

    def exact_R2(self) -> Fraction:
        """``R^2`` as an exact rational (:class:`fractions.Fraction`).

        On a non-tree graph this needs exact solves (:class:`~simpred_lite.exact.LaplacianFunctional`,
        which raises :class:`~simpred_lite.exact.ExactTooLargeError` beyond its limits).

        Examples
        --------
        >>> from simpred_lite.learners import MatrixPerceptron
        >>> MatrixPerceptron(nx.cycle_graph(4)).exact_R2()
        Fraction(1, 1)
        """
        return self._diameter_source().exact_R2()
