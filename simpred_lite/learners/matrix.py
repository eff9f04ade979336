"""Matrix Perceptron and Matrix Winnow on a known graph (Algorithm 1, §3.2; §4 on a BST).

A pair ``(i, j)`` becomes the rank-one *similarity instance*

    X_t = psi psi^T,    psi = (Psi^+)^T (e_i - e_j)  in R^m,

with ``Psi`` the ``m x n`` incidence matrix.  ``psi`` is the unit electrical flow from
``i`` to ``j`` (``Psi^T psi = e_i - e_j`` with the least energy), so
``<X_s, X_t> = (psi_s^T psi_t)^2 = ((e_i - e_j)^T L^+ (e_k - e_l))^2`` and
``||X_t||_F = psi^T psi = R_ij``, the effective resistance.  On a **tree** the flow is
forced along the unique path, so ``psi`` is the signed indicator of the path's edges and
``psi_s^T psi_t`` is an integer, the *signed overlap* of two paths: every computation of
the Perceptron on a tree (and on a Binary Support Tree, ``Psi_B``) is done here in exact
integers.

Both learners predict ``1`` iff ``tr(W^T X_t) > threshold`` (strict, as printed in
Algorithm 1) and update only on mistakes:

* Perceptron: ``W <- W + (y - y_hat) X_t``, threshold ``R^2`` (``R`` the resistance
  diameter); mistake bound ``M <= R^2 ||U||_F^2 <= 4 R^2 |Phi|^2`` (see
  :func:`matrix_perceptron_mistake_bound`).
* Winnow: ``log W <- log W + eta (y - y_hat) X_t / R_ij`` from ``W_0 = I/m``, threshold
  ``eta / (e^eta - e^-eta) / (R |Phi|)``; mistake bound
  ``M <= (e^eta + 1)/eta * R |Phi| ln m`` (see :func:`matrix_winnow_mistake_bound`).

Matrix Winnow's weight is ``W = (1/m) exp(Q M Q^T)`` with ``Q`` an orthonormal basis of the
span of the mistaken instances: a prediction needs only ``Q^T x`` and the eigenvectors of the
small matrix ``M`` (``O(r |x| + r^2)`` per trial, ``O(m r + r^3)`` per mistake, ``r`` at most
the number of mistakes), evaluated in the log domain so that large exponents never overflow.
The paper's dense version (``scipy.linalg.expm`` of an ``m x m`` matrix on every mistake)
is kept as ``method="dense"``, the reference the tests compare against.

Both learners default to the *kernel form* (``method="kernel"``): instances enter only
through ``x_s^T x_t = (e_a - e_b)^T L^+ (e_i - e_j)`` (dense ``L^+`` up to ``DENSE_LIMIT``
vertices, cached sparse solves beyond; exact signed path overlaps on a BST), so no
``m x m`` or ``m x r`` object exists; Winnow's ``Q`` becomes ``V F^{-1}`` with ``F`` the
Cholesky factor of the Gram matrix of the independent mistaken instances, and the
eigendecomposition of ``M`` is refreshed only every few dozen mistakes: in between, decisions
come from certified Gauss / Gauss–Radau quadrature bounds (:class:`MatrixWinnow`, Notes).
"""

from __future__ import annotations

import contextlib
import math

import networkx as nx
import numpy as np
import scipy  # scipy.linalg (expm, eigh) loads on first use, through scipy's lazy submodules
import scipy.sparse as sp

from ..bst import BinarySupportTree
from ..checks import check_memory, check_work, is_integer
from ..graphs import cut_size as _cut_size
from ..graphs import frozen_copy, validate_graph, validate_labels
from ..resistance import DENSE_LIMIT, edge_list, incidence, laplacian, laplacian_pinv
from .base import SimilarityLearner, check_pair
from .bounds import certified_matrix_perceptron_bound, certified_matrix_winnow_bound

__all__ = [
    "DENSE_PERCEPTRON_EDGE_LIMIT",
    "DENSE_WINNOW_EDGE_LIMIT",
    "bst_incidence",
    "bst_instance",
    "signed_path_overlap",
    "similarity_instance",
    "comparator_matrix",
    "MatrixPerceptron",
    "MatrixWinnow",
]

#: Largest edge count ``m`` for which the dense ``m x m`` Perceptron weight is kept (128 MiB).
DENSE_PERCEPTRON_EDGE_LIMIT = 4096
#: Largest edge count ``m`` for the dense ``expm`` reference of Matrix Winnow (one ``expm`` of
#: an ``m x m`` matrix per mistake).
DENSE_WINNOW_EDGE_LIMIT = 1024

# Relative tolerance under which a floating-point score counts as *equal* to the threshold
# (only for the Perceptron on a non-tree graph, whose scores are rationals computed in floats).
_TIE_RTOL = 1e-9
# A new mistaken Winnow instance extends the basis only if it sticks out of it by more than this.
_SPAN_TOL = 1e-10


_BLAS_LIBS = None


@contextlib.contextmanager
def _one_blas_thread():
    """Run small dense linear algebra on one BLAS thread.

    For the ``r x r`` eigendecompositions and products of the low-rank Winnow, BLAS threads
    cost far more than they save (on a loaded 2-core machine ``eigh`` of a 100 x 100 matrix
    took 70 ms threaded and 1 ms single-threaded, a product with a 1000 x 1000 matrix 4 ms
    and 0.5 ms).  The BLAS libraries are looked up once; entering and leaving costs a few
    microseconds, so it wraps every trial.
    """
    global _BLAS_LIBS
    if _BLAS_LIBS is None:
        try:
            from threadpoolctl import ThreadpoolController  # installed with scikit-learn

            _BLAS_LIBS = ThreadpoolController().select(user_api="blas").lib_controllers
        except ImportError:  # pragma: no cover - without threadpoolctl, just slower
            _BLAS_LIBS = []
    old = [lib.get_num_threads() for lib in _BLAS_LIBS]
    for lib, n in zip(_BLAS_LIBS, old):
        if n != 1:
            lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, n in zip(_BLAS_LIBS, old):
            if n != 1:
                lib.set_num_threads(n)


# -- instances on a Binary Support Tree -------------------------------------------------------
def bst_incidence(bst: BinarySupportTree) -> sp.csr_matrix:
    """The incidence matrix ``Psi_B`` of the BST: ``(2N-2) x (2N-1)``.

    Row ``c - 2`` is the edge ``(c // 2, c)`` from a parent to its child ``c`` and maps
    ``v`` to ``v[parent] - v[child]``; column ``h - 1`` is the vertex of heap index ``h``
    (dummy leaves included).

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


def _leaf_path_edges(a: int, b: int) -> tuple[list[int], list[int]]:
    """Edges (as child heap indices) from leaf ``a`` up to the LCA, and from ``b`` up to it."""
    up, down = [], []
    while a != b:
        up.append(a)
        down.append(b)
        a //= 2
        b //= 2
    return up, down


def bst_instance(bst: BinarySupportTree, u: int, v: int) -> tuple[np.ndarray, np.ndarray]:
    """The instance ``psi = (Psi_B^+)^T (e_leaf(u) - e_leaf(v))`` as sparse integers.

    On a tree the unit flow from ``u`` to ``v`` runs along the path: ``psi`` is ``-1`` on
    the edges climbing from ``u`` to the lowest common ancestor and ``+1`` on the edges
    descending to ``v`` (with the orientation of :func:`bst_incidence`), ``0`` elsewhere.

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
    up, down = _leaf_path_edges(bst.leaf(u), bst.leaf(v))
    edges = np.array(up + down, dtype=np.int64) - 2
    signs = np.concatenate([-np.ones(len(up), np.int64), np.ones(len(down), np.int64)])
    return edges, signs


def signed_path_overlap(bst: BinarySupportTree, pair_s, pair_t) -> int:
    """``psi_s^T psi_t`` for two pairs on the BST, in exact integers.

    The count of edges the two paths share, each ``+1`` if both flows cross it the same
    way and ``-1`` otherwise. Its square is ``<X_s, X_t>``.

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

    Examples
    --------
    >>> psi = similarity_instance(nx.cycle_graph(4), 0, 1)   # 3/4 of the current on edge 0-1
    >>> psi.round(3).tolist(), round(float(psi @ psi), 3)
    ([0.75, 0.25, -0.25, -0.25], 0.75)
    """
    geo = _GraphGeometry(G, "similarity_instance", 10**12, "")
    i, j = check_pair(i, j, geo.n)
    psi = geo._psi_rows[:, i] - geo._psi_rows[:, j]
    return psi


# -- the comparator and the bounds of Proposition 2 ------------------------------------------
def comparator_matrix(G: nx.Graph, labels) -> np.ndarray:
    """The comparator ``U = Psi (sum_k u_k u_k^T) Psi^T`` of the proof of Proposition 2.

    ``u_k`` is the indicator vector of class ``k``.  It separates every sequence:
    ``<U, X_t> = 2`` on dissimilar pairs and ``0`` on similar ones, and
    ``||U||_F^2 = sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2 <= 4 |Phi|^2`` (equality for two
    classes; the ``2 |Phi|^2`` printed in the proof sketch is a slip, since
    ``sum_k |Phi_k|^2`` alone can reach ``2 |Phi|^2``).

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
class _GraphGeometry:
    """Instances ``Psi L^+ (e_i - e_j)`` of a general graph (dense ``L^+``)."""

    def __init__(self, G: nx.Graph, what: str, edge_limit: int, alternative: str):
        G = validate_graph(G)
        self.n = G.number_of_nodes()
        edges = np.array(edge_list(G), dtype=np.int64).reshape(-1, 2)
        self.m = len(edges)
        _check_edges(self.m, what, edge_limit, alternative)
        if self.n > DENSE_LIMIT:
            raise ValueError(
                f"{what} needs the dense L^+ of G, limited to n <= {DENSE_LIMIT} vertices, but n={self.n}; "
                "run on the graph's Binary Support Tree instead (Theorem 3): "
                "BSTPerceptron.from_graph(G, seed), or MatrixWinnow(BinarySupportTree.from_graph(G, seed), cut_size=...)"
            )
        self.exact = self.m == self.n - 1  # a tree: psi is a signed path indicator
        G = frozen_copy(G)
        check_memory(8 * (3 * self.m * self.n + 3 * self.n**2), f"{what} (three m x n float tables of instances)",
                     "use method='kernel' (the default), which needs only kernel values "
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

    def exact_R2(self):
        from fractions import Fraction

        if not self.exact:
            raise ValueError("the dense reference has no exact R^2 on a non-tree graph; use method='kernel'")
        return Fraction(int(self.R) ** 2)

    def instance(self, i: int, j: int):
        psi = self._psi_rows[:, i] - self._psi_rows[:, j]
        if self.exact:
            psi = np.rint(psi).astype(np.int64)
            idx = np.flatnonzero(psi)
            return idx, psi[idx]
        return np.arange(self.m), psi


class _BSTGeometry:
    """Instances ``Psi_B^+ (e_leaf(i) - e_leaf(j))``: signed leaf-to-leaf paths of a BST."""

    exact = True

    def __init__(self, bst: BinarySupportTree, what: str, edge_limit: int | None, alternative: str):
        if not isinstance(bst, BinarySupportTree):
            raise TypeError(f"expected a BinarySupportTree, got {type(bst).__name__}")
        self.bst = bst
        self.n = bst.n
        self.m = 2 * bst.num_leaves - 2
        if edge_limit is not None:
            _check_edges(self.m, what, edge_limit, alternative)
        self.R = 2 * bst.depth  # leaf-to-leaf diameter = resistance diameter of the tree B

    def diameter_error(self) -> float:
        return 0.0

    def exact_R2(self):
        from fractions import Fraction

        return Fraction(int(self.R) ** 2)

    def instance(self, i: int, j: int):
        return bst_instance(self.bst, i, j)


def _check_edges(m: int, what: str, limit: int, alternative: str) -> None:
    if m > limit:
        raise ValueError(f"{what} is a dense reference limited to m <= {limit} edges, but this graph has m={m}; {alternative}")


def _geometry(G, what, edge_limit, alternative):
    if isinstance(G, BinarySupportTree):
        return _BSTGeometry(G, what, edge_limit, alternative)
    if isinstance(G, nx.Graph):
        return _GraphGeometry(G, what, edge_limit, alternative)
    raise TypeError(f"{what} takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")


# -- kernel form: instances only through their inner products --------------------------------
# Columns of L^+ (grounded potentials) cached by the sparse kernel: at most this many doubles.
_COLUMN_CACHE_ENTRIES = 1 << 24


class _GrowingPairs:
    """The mistaken pairs ``(a_s, b_s)`` as numpy arrays that grow by doubling (amortised O(1))."""

    def __init__(self):
        self._a = np.zeros(16, dtype=np.int64)
        self._b = np.zeros(16, dtype=np.int64)
        self.k = 0

    def append(self, a: int, b: int) -> None:
        if self.k == self._a.size:
            self._a = np.concatenate([self._a, np.zeros_like(self._a)])
            self._b = np.concatenate([self._b, np.zeros_like(self._b)])
        self._a[self.k], self._b[self.k] = a, b
        self.k += 1

    @property
    def a(self) -> np.ndarray:
        return self._a[: self.k]

    @property
    def b(self) -> np.ndarray:
        return self._b[: self.k]


class _DenseKernel:
    """``k((a,b),(i,j)) = (e_a - e_b)^T L^+ (e_i - e_j)`` from the dense float ``L^+`` (``n <= DENSE_LIMIT``).

    A trial costs one row difference ``u = L^+ (e_i - e_j)`` (``O(n)``) and two gathers per
    stored pair.  ``exact`` is True on a tree, where every kernel value is an integer (a signed
    path overlap) and is rounded to it.
    """

    def __init__(self, G: nx.Graph):
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
        if getattr(self, "_R_error", None) is None:
            from ..exact import UNIT_ROUNDOFF

            u = UNIT_ROUNDOFF
            self._R_error = 4 * self.pinv_error() + 4 * 3 * u / (1 - 3 * u) * float(np.abs(self.Lp).max())
        return self._R_error

    def pinv_error(self) -> float:
        """:func:`~simpred_lite.exact.pinv_error_bound` of the float ``L^+`` (computed once, ``O(m n)``)."""
        if getattr(self, "_pinv_error", None) is None:
            from ..exact import pinv_error_bound

            self._pinv_error = pinv_error_bound(self.graph, self.Lp)
        return self._pinv_error

    def exact_laplacian(self):
        """The :class:`~simpred_lite.exact.ExactLaplacian` of the graph (built once; it checks its cost)."""
        if getattr(self, "_exact_lap", None) is None:
            from ..exact import ExactLaplacian

            self._exact_lap = ExactLaplacian(self.graph)
        return self._exact_lap

    def exact_R2(self):
        """``R^2`` as an exact rational (a Fraction): exact resistances of the candidate pairs.

        The pairs whose float resistance lies within twice :meth:`diameter_error` of the
        float maximum hold the exact maximum; one exact solve each.
        """
        from fractions import Fraction

        if self.exact:
            return Fraction(int(self.R) ** 2)
        if getattr(self, "_exact_R2", None) is None:
            ex = self.exact_laplacian()
            self._exact_R2 = max(ex.resistance(a, b) for a, b in self.diameter_candidates(2 * self.diameter_error())) ** 2
        return self._exact_R2

    def diameter_candidates(self, band: float):
        """Pairs whose float resistance is within ``band`` of the float diameter."""
        d = np.diag(self.Lp)
        Rmat = d[:, None] + d[None, :] - 2.0 * self.Lp
        a, b = np.nonzero(np.triu(Rmat >= self.R - band, 1))
        return list(zip(a.tolist(), b.tolist()))

    def inner(self, pairs: _GrowingPairs, i: int, j: int):
        """``(q, r_t)``: kernel values with the stored pairs and ``R_ij`` (ints on a tree)."""
        u = self.potentials(i, j)
        q = u[pairs.a] - u[pairs.b]
        r = u[i] - u[j]
        if self.exact:
            return np.rint(q).astype(np.int64), int(round(r))
        return q, float(r)


_SPARSE_ALTERNATIVE = ("run on the graph's Binary Support Tree (Theorem 3), O(log^2 n) per trial and exact: "
                       "BSTPerceptron.from_graph(G, seed), or MatrixWinnow(BinarySupportTree.from_graph(G, seed), "
                       "cut_size=...); the playground's 'BST Perceptron'")


class _SparseKernel(_DenseKernel):
    """The same kernel from sparse solves with the grounded Laplacian (any ``n``).

    ``L_0`` (the Laplacian with vertex 0's row and column deleted) is factorised once; the
    grounded potential ``g_v = L_0^{-1} e_v`` of a vertex (``g_0 = 0``) is solved on first use
    and cached (least recently used first out, at most ``2^24`` doubles).  Potentials differ
    from ``L^+ e_v`` by a constant, which cancels in every ``(e_a - e_b)^T (.)``.  The
    resistance diameter ``R`` is found once with ``O(n)`` batched solves.
    """

    def __init__(self, G: nx.Graph):
        from collections import OrderedDict

        from ..resistance import grounded_solver

        self.graph = G
        self.n = G.number_of_nodes()
        self.m = G.number_of_edges()
        self.exact = self.m == self.n - 1
        # finding R takes 2n sparse solves (4 flops per nonzero of the LU factors each) and
        # 2n^2 resistance entries: at least 2n^2 + 4n(n + 2m) steps before the factors exist
        n, m = self.n, self.m
        what = (f"the resistance diameter R of a graph on n={n} vertices (2n sparse solves, for the kernel "
                "learners MatrixPerceptron / MatrixWinnow)")
        check_work(2.0 * n * n + 4.0 * n * (n + 2 * m), what, _SPARSE_ALTERNATIVE)
        self._lu = grounded_solver(G)
        fill = float(self._lu.L.nnz + self._lu.U.nnz)
        check_work(2.0 * n * n + 4.0 * n * fill, what + f" with {fill:.2g} nonzeros in its LU factors",
                   _SPARSE_ALTERNATIVE)
        self._cache = OrderedDict()
        self._cache_size = max(4, _COLUMN_CACHE_ENTRIES // max(self.n, 1))
        self.R, self.diameter_pair = self._diameter()
        if self.exact:
            self.R = int(round(self.R))

    def _diameter(self):
        n = self.n
        batch = max(1, min(256, _COLUMN_CACHE_ENTRIES // (4 * n)))
        diag = np.zeros(n)
        for start in range(1, n, batch):  # pass 1: diag of the grounded inverse
            cols = np.arange(start, min(n, start + batch))
            E = np.zeros((n - 1, cols.size))
            E[cols - 1, np.arange(cols.size)] = 1.0
            X = self._lu.solve(E)
            diag[cols] = X[cols - 1, np.arange(cols.size)]
        best, pair, cands, maxres, maxabs = -1.0, (0, 1), [], 0.0, float(np.abs(diag).max())
        L0 = laplacian(self.graph).tocsr()[1:, 1:]
        for start in range(0, n, batch):  # pass 2: R_ij = g_ii + g_jj - 2 g_ij, block of j
            cols = np.arange(start, min(n, start + batch))
            X = np.zeros((n, cols.size))
            inner = cols[cols > 0]
            if inner.size:
                E = np.zeros((n - 1, inner.size))
                E[inner - 1, np.arange(inner.size)] = 1.0
                Xi = self._lu.solve(E)
                X[1:, cols > 0] = Xi
                res = L0 @ Xi - E
                maxres = max(maxres, float(np.sqrt((res * res).sum(axis=0)).max()))
                maxabs = max(maxabs, float(np.abs(Xi).max()))
            R = diag[:, None] + diag[cols][None, :] - 2.0 * X
            flat = int(np.argmax(R))
            a, c = divmod(flat, cols.size)
            if R[a, c] > best:
                best, pair = float(R[a, c]), (int(a), int(cols[c]))
            near = np.argwhere(R >= best - 1e-6 * max(best, 1.0))
            cands = [(x, y) for x, y in cands if x != y] + [(int(x), int(cols[y])) for x, y in near]
            cands = [(x, y) for x, y in set(cands) if x < y]
        self._cands = cands
        # ||L_0^{-1}||_2 <= trace L_0^{-1} = sum_v R_v0 <= (n - 1) ecc(0); every entry of the
        # grounded inverse is within ||L_0^{-1}|| * (max residual) of the float one
        u = 2.0**-53
        dmax = float(self.graph.degree and max(d for _, d in self.graph.degree))
        ecc = max(nx.eccentricity(self.graph, 0), 1)
        res_bound = maxres + (dmax + 3) * u * (2 * dmax + 1) * maxabs * math.sqrt(n)
        err = (n - 1) * ecc * res_bound
        self.R_error = 4 * err + 4 * 3 * u * maxabs * 1.01
        return best, pair

    def diameter_error(self) -> float:
        return 0.0 if self.exact else self.R_error

    def diameter_candidates(self, band: float):
        if band > 1e-6 * max(float(self.R), 1.0):
            raise ValueError("the float resistance diameter is too uncertain to certify exactly")
        return [(a, b) for a, b in self._cands if True]

    def _column(self, v: int) -> np.ndarray:
        g = self._cache.get(v)
        if g is not None:
            self._cache.move_to_end(v)
            return g
        g = np.zeros(self.n)
        if v:
            e = np.zeros(self.n - 1)
            e[v - 1] = 1.0
            g[1:] = self._lu.solve(e)
        self._cache[v] = g
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return g

    def potentials(self, i: int, j: int) -> np.ndarray:
        return self._column(i) - self._column(j)


class _BSTKernel:
    """Signed overlaps of leaf-to-leaf paths of a BST, in exact integers, vectorised.

    The edge above heap node ``c`` (level ``l``) lies on the path of the stored pair
    ``(a_s, b_s)`` with sign ``[c is an ancestor of leaf(b_s)] - [c is an ancestor of
    leaf(a_s)]`` (``0`` above the lowest common ancestor), and ``c`` is an ancestor of a leaf
    ``h`` iff ``h >> (depth - l) == c``: a trial costs ``O(|path| k)`` integer operations.
    """

    exact = True

    def __init__(self, bst: BinarySupportTree):
        self.bst = bst
        self.n = bst.n
        self.m = 2 * bst.num_leaves - 2
        self.depth = bst.num_leaves.bit_length() - 1
        self.R = 2 * bst.depth
        self._leaf = np.array([bst.leaf(v) for v in range(bst.n)], dtype=np.int64)

    def diameter_error(self) -> float:
        return 0.0  # R = 2 depth, an exact integer

    def exact_R2(self):
        from fractions import Fraction

        return Fraction(self.R**2)

    def inner(self, pairs: _GrowingPairs, i: int, j: int):
        edges, signs = bst_instance(self.bst, i, j)
        c = edges + 2  # child heap indices
        shift = self.depth - (np.log2(c).astype(np.int64))
        la, lb = self._leaf[pairs.a], self._leaf[pairs.b]
        on_b = (lb[None, :] >> shift[:, None]) == c[:, None]
        on_a = (la[None, :] >> shift[:, None]) == c[:, None]
        q = signs @ (on_b.astype(np.int64) - on_a.astype(np.int64))
        return q, int(edges.size)


class _Forest:
    """Union–find over vertices: the pairs kept so far are independent iff they form a forest.

    A pair's instance is a fixed injective linear image of ``e_a - e_b`` (``Psi L^+`` on a
    graph, ``(Psi_B^+)^T`` on the leaves of a BST), so a new pair lies in the span of earlier
    ones exactly when ``a`` and ``b`` are already connected: the span test is combinatorial,
    never a floating-point tolerance.
    """

    def __init__(self, n: int):
        self._sets = nx.utils.UnionFind(range(n))  # networkx's union-find, as everywhere

    def find(self, v: int) -> int:
        return self._sets[v]

    def union(self, a: int, b: int) -> bool:
        """Join ``a`` and ``b``; ``False`` if they were already connected."""
        if self._sets[a] == self._sets[b]:
            return False
        self._sets.union(a, b)
        return True


def _kernel(G, what: str):
    if isinstance(G, BinarySupportTree):
        return _BSTKernel(G)
    if isinstance(G, nx.Graph):
        G = frozen_copy(validate_graph(G))  # later edits of the caller's graph change nothing here
        return _DenseKernel(G) if G.number_of_nodes() <= DENSE_LIMIT else _SparseKernel(G)
    raise TypeError(f"{what} takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")


# -- Matrix Perceptron -----------------------------------------------------------------------
class _ResistanceDiameter:
    """``R_error`` and ``exact_R2`` of the matrix learners, from their kernel or geometry (``_diameter_source``)."""

    @property
    def R_error(self) -> float | None:
        """A rigorous bound on ``|R - exact R|``: ``0`` where ``R`` is an exact integer (trees,
        BSTs), ``None`` for the dense reference on other graphs.

        Examples
        --------
        >>> MatrixPerceptron(nx.path_graph(4)).R_error
        0.0
        """
        return self._diameter_source().diameter_error()

    def exact_R2(self):
        """``R^2`` as an exact rational (:class:`fractions.Fraction`).

        On a non-tree graph this needs exact solves (:class:`~simpred_lite.exact.ExactLaplacian`,
        which raises :class:`~simpred_lite.exact.ExactTooLargeError` beyond its limits).

        Examples
        --------
        >>> MatrixPerceptron(nx.cycle_graph(4)).exact_R2()
        Fraction(1, 1)
        """
        return self._diameter_source().exact_R2()


class MatrixPerceptron(_ResistanceDiameter, SimilarityLearner):
    """Algorithm 1's Matrix Perceptron, in kernel form (default on graphs) or dense.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph.  With a :class:`~simpred_lite.bst.BinarySupportTree` the instances
        come from ``Psi_B`` (Theorem 3): pairs are vertices of the original
        graph, mapped to their leaves; ``R = 2 log2 N``.
    method : {None, "kernel", "dense"}
        ``"kernel"``: keep only the mistaken pairs ``s`` and their signs
        ``c_s = y_s - y_hat_s``; the score is
        ``tr(W^T X_t) = sum_s c_s (x_s^T x_t)^2`` with
        ``x_s^T x_t = (e_a - e_b)^T L^+ (e_i - e_j)`` (a signed path overlap on a BST):
        ``O(n + k)`` per trial (``k`` mistakes so far; ``O(|path| k)`` on a BST), no
        ``m x m`` matrix, any ``m`` (sparse solves beyond ``n = DENSE_LIMIT``; finding
        ``R`` there takes ``2n`` solves, refused beyond
        :data:`~simpred_lite.checks.WORK_LIMIT` steps, e.g. on a 300 x 300 grid: use the
        graph's Binary Support Tree instead).
        ``"dense"``: the naive reference, an ``m x m`` weight ``W`` and ``O(m^2)`` per trial
        (``m <= DENSE_PERCEPTRON_EDGE_LIMIT``).  ``None`` (default): ``"kernel"`` on a
        networkx graph, ``"dense"`` on a BST (there it is the naive reference that
        :class:`~simpred_lite.learners.BSTPerceptron` reproduces in ``O(log^2 n)``).

    Notes
    -----
    Predict ``1`` iff ``tr(W^T X_t) = psi^T W psi > R^2`` (strict, as Algorithm 1 prints);
    on a mistake ``W += (y - y_hat) psi psi^T``.

    The decision is exact on every machine.  On a tree (a networkx tree, or a BST) every
    ``x_s^T x_t`` and ``R`` are integers and the score is computed in exact integers (the
    float kernel of a tree is rounded to its integer, its error being far below ``1/2``).
    On other graphs the score and ``R^2`` are rationals: the float score comes with a
    rigorous error bound (the a-posteriori bound of ``L^+``,
    :func:`~simpred_lite.exact.pinv_error_bound`, propagated through the kernel, plus the
    rounding of the sums), the float decides when it is farther than that bound from the
    threshold, and otherwise the decision is recomputed in rational arithmetic
    (:class:`~simpred_lite.exact.ExactLaplacian`): one exact solve for the current pair, and,
    once, the exact ``R^2`` from the pairs whose float resistance is within the error band
    of the maximum.

    Examples
    --------
    >>> learner = MatrixPerceptron(nx.path_graph(4))
    >>> learner.threshold, learner.predict_one(0, 3)
    (9, 0)
    >>> learner.learn_one(0, 3, 1); learner.score(0, 3), learner.score(0, 1)
    (9, 1)
    >>> C4 = MatrixPerceptron(nx.cycle_graph(4)); C4.learn_one(0, 2, 1)
    >>> C4.score(0, 2) == C4.threshold, C4.predict_one(0, 2)   # an exact tie: 1 = R^2 = 1
    (True, 0)
    """

    def __init__(self, G, method: str | None = None):
        if method is None:
            method = "dense" if isinstance(G, BinarySupportTree) else "kernel"
        if method not in ("kernel", "dense"):
            raise ValueError(f"method must be 'kernel' or 'dense', got {method!r}")
        self.method = method
        if method == "dense":
            geo = _geometry(
                G, "MatrixPerceptron(method='dense')", DENSE_PERCEPTRON_EDGE_LIMIT,
                "use method='kernel' (no m x m matrix), or on a Binary Support Tree "
                "BSTPerceptron(bst), exact and O(log^2 n) per trial",
            )
            super().__init__(geo.n)
            self._geo = geo
            self.m, self.R, self.exact = geo.m, geo.R, geo.exact
            self.W = np.zeros((geo.m, geo.m), dtype=np.int64 if geo.exact else float)
        else:
            kern = _kernel(G, "MatrixPerceptron")
            super().__init__(kern.n)
            self._kern = kern
            self.m, self.R, self.exact = kern.m, kern.R, kern.exact
            self._pairs = _GrowingPairs()
            self._coef = np.zeros(16, dtype=np.int64)
            self._certifier = None if kern.exact else _PerceptronCertifier(kern)
        self.threshold = self.R**2


    display_name = "Matrix Perceptron"
    needs_graph = True
    description = "Algorithm 1 on G (kernel form)"
    bound_text = "R^2 ||U||_F^2 (Proposition 2)"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The Matrix Perceptron on ``G`` itself."""
        return cls(G)

    def mistake_bound(self, G, labels):
        """Proposition 2's ``R^2 ||U||_F^2`` (:func:`~simpred_lite.learners.bounds.certified_matrix_perceptron_bound`)."""
        args, kwargs = self._init_params
        return certified_matrix_perceptron_bound(self, kwargs.get("G", args[0] if args else G), labels)

    def _diameter_source(self):
        return self._kern if self.method == "kernel" else self._geo

    # -- dense reference
    def _dense_instance(self, i, j) -> np.ndarray:
        idx, val = self._geo.instance(i, j)
        x = np.zeros(self.m, dtype=self.W.dtype)
        x[idx] = val
        return x

    def _terms(self, i, j):
        q, _ = self._kern.inner(self._pairs, i, j)
        return q, self._coef[: self._pairs.k]

    def score(self, i: int, j: int):
        """``tr(W^T X_t)`` for the pair ``(i, j)`` (an ``int`` on trees, else a float).

        Examples
        --------
        >>> p = MatrixPerceptron(nx.path_graph(3)); p.learn_one(0, 2, 1); p.score(0, 1)
        1
        """
        i, j = check_pair(i, j, self.n)
        if self.method == "dense":
            x = self._dense_instance(i, j)
            s = x @ (self.W @ x)
        else:
            q, c = self._terms(i, j)
            s = np.dot(c, q * q)
        return int(s) if self.exact else float(s)

    def _predict(self, i, j, path):
        if self.method == "dense":
            s = self.score(i, j)
            if self.exact:  # exact integers: the comparison is exact
                return int(s > self.threshold)
            return int(s > self.threshold * (1.0 + _TIE_RTOL))  # the float reference's tie band
        q, c = self._terms(i, j)
        if self.exact:  # integer overlaps and integer R: exact
            return int(int(np.dot(c, q * q)) > self.threshold)
        # certified float decision, exact rational arithmetic only inside the error band
        return self._certifier.decide(i, j, q, c, self._pairs)

    def _learn(self, i, j, y, y_hat, path):
        if y == y_hat:
            return
        if self.method == "dense":
            x = self._dense_instance(i, j)
            self.W += (y - y_hat) * np.outer(x, x)
            return
        k = self._pairs.k
        self._pairs.append(i, j)
        if k == self._coef.size:
            self._coef = np.concatenate([self._coef, np.zeros_like(self._coef)])
        self._coef[k] = y - y_hat


class _PerceptronCertifier:
    """The Perceptron's decision ``sum_s c_s q_s^2 > R^2`` on a non-tree graph, made exact.

    Float kernel values ``q~_s`` carry an error ``E_s``: ``4 delta`` from the float ``L^+``
    (``delta`` = :func:`~simpred_lite.exact.pinv_error_bound`, computed once) plus
    ``gamma_2`` times the magnitudes subtracted.  Then ``|q~^2 - q^2| <= E (2|q~| + E)``,
    squaring rounds by ``u q~^2`` and the signed sum by ``gamma_k sum q~^2`` (any order).
    ``R~`` (the max of float resistances) is within ``4 delta + gamma_3 * 4 max|L^+|`` of
    ``R``.  If ``|score~ - R~^2|`` exceeds the sum of the bounds the float decides
    (:func:`~simpred_lite.exact.certified_compare`); otherwise one exact solve does.
    """

    def __init__(self, kern):
        from ..exact import UNIT_ROUNDOFF, pinv_error_bound

        self.kern = kern
        self.u = UNIT_ROUNDOFF
        u = self.u
        if isinstance(kern, _SparseKernel):
            self.delta = None  # per-trial residual bounds instead
            self._ecc = max(nx.eccentricity(kern.graph, 0), 1)
            self._L = laplacian(kern.graph)
            self._absL = abs(self._L)
            E_R = kern.R_error
        else:
            # computed afresh from the kernel's current L^+ and handed to it (its R error uses it)
            self.delta = pinv_error_bound(kern.graph, kern.Lp)
            kern._pinv_error, kern._R_error = self.delta, None
            E_R = kern.diameter_error()
        R = float(kern.R)
        self.E_R = E_R
        self.E_R2 = (E_R * (2 * R + E_R) + u * R * R) * (1 + 8 * u)
        self.fallbacks = 0  # exact recomputations so far (ties, in practice)

    def _kernel_errors(self, i, j, pairs):
        u = self.u
        g2 = 2 * u / (1 - 2 * u)
        kern = self.kern
        if self.delta is not None:
            w = (np.abs(kern.Lp[i]) + np.abs(kern.Lp[j])) * (1 + 2 * u)
            return 4 * self.delta + g2 * (w[pairs.a] + w[pairs.b]) * (1 + 2 * u)
        # sparse: g = grounded potential of e_i - e_j, error from its residual; ||L_0^{-1}||_2 <=
        # trace L_0^{-1} = sum_v R_v0 <= (n - 1) * ecc(0)
        g = kern.potentials(i, j)
        b = np.zeros(kern.n)
        b[i], b[j] = 1.0, -1.0
        res = self._L @ g - b
        res[0] = 0.0  # the grounded row is not part of the system
        dmax = float(self._L.diagonal().max())
        gam = (dmax + 3) * u / (1 - (dmax + 3) * u)
        rnorm = float(np.linalg.norm(res)) + gam * float(np.linalg.norm(self._absL @ np.abs(g) + np.abs(b)))
        err_g = (kern.n - 1) * self._ecc * rnorm * (1 + 8 * u)
        absg = np.abs(g)
        return 2 * err_g + g2 * (absg[pairs.a] + absg[pairs.b]) * (1 + 2 * u)

    def bound(self, i, j, q, c, pairs):
        """A rigorous bound on ``|score~ - score|`` for the current pair."""
        k = q.size
        if k == 0:
            return 0.0
        u = self.u
        E = self._kernel_errors(i, j, pairs)
        aq = np.abs(q)
        gk = k * u / (1 - k * u)
        sq = float(np.dot(aq, aq))
        total = float(np.dot(E, 2 * aq + E)) + u * sq + gk * sq * (1 + u)
        return total * (1 + (k + 4) * u) * 1.0000001

    def decide(self, i, j, q, c, pairs) -> int:
        from ..exact import certified_compare

        s = float(np.dot(c, q * q))
        R2 = float(self.kern.R) ** 2
        verdict = certified_compare(s, R2, self.bound(i, j, q, c, pairs) + self.E_R2)
        if verdict is not None:
            return verdict
        self.fallbacks += 1
        return int(self.exact_score(i, j, c, pairs) > self.exact_R2())

    def _exact_laplacian(self):
        return self.kern.exact_laplacian()  # ExactTooLargeError (a RuntimeError) beyond its limits

    def exact_score(self, i, j, c, pairs):
        from fractions import Fraction

        b = np.zeros(self.kern.n, dtype=np.int64)
        b[i], b[j] = 1, -1
        pot = self._exact_laplacian().potentials(b)
        total = Fraction(0)
        for a, bb, cs in zip(pairs.a.tolist(), pairs.b.tolist(), c.tolist()):
            qs = pot[a] - pot[bb]
            total += cs * qs * qs
        return total

    def exact_R2(self):
        return self.kern.exact_R2()


# -- Matrix Winnow ---------------------------------------------------------------------------
def _check_winnow_params(cut_size, eta) -> tuple[float, float]:
    if cut_size is None:
        raise ValueError(
            "Matrix Winnow's threshold needs the cut size |Phi| (footnote of Algorithm 1): "
            "pass cut_size=simpred_lite.cut_size(G, labels), or bst.cut_size(labels) on a BST"
        )
    if is_integer(cut_size) and cut_size == 0:
        raise ValueError(
            "cut_size is 0: the labelling has one class (no cut edge joins two classes), so every pair is "
            "similar and Matrix Winnow's threshold, which divides by |Phi|, is undefined; give labels with at "
            "least two classes joined by an edge (or play 'AlwaysSimilar', which never errs on one class)"
        )
    for name, v in (("cut_size", cut_size), ("eta", eta)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name} must be a positive number, got {v!r}")
        if not (math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a positive finite number, got {v!r}")
    return float(cut_size), float(eta)


# -- Matrix Winnow's exponential with lazy eigendecompositions -------------------------------
_U_ROUND = 2.0**-53
# Pending rank-one updates after which Matrix Winnow refreshes its eigendecomposition (on the
# 1000-vertex BST benchmark 64-128 is fastest: fewer O(r^3) refreshes vs O(r p) products).
_WINNOW_REFRESH = 96
# Lanczos steps after which an undecided Matrix Winnow trial falls back to the exact evaluation.
_WINNOW_LANCZOS_STEPS = 40
# The Lanczos steps at which the quadrature bounds are evaluated (two tiny eigh each).
_WINNOW_CHECKS = frozenset([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 26, 30, 35, 40, 48, 56, 64])


def _log_quadrature(alpha, beta):
    """``(log e_1^T exp(T) e_1, theta, Y)`` for the symmetric tridiagonal ``T(alpha, beta)``."""
    k = alpha.size
    if k == 1:
        return float(alpha[0]), alpha[:1].copy(), np.ones((1, 1))
    theta, Y, info = scipy.linalg.lapack.dstev(alpha, beta, compute_v=1)
    if info != 0:  # pragma: no cover - the QL iteration of a tiny tridiagonal converges
        raise np.linalg.LinAlgError(f"dstev failed (info={info})")
    y2 = Y[0] ** 2
    keep = y2 > 0.0
    terms = theta[keep] + np.log(y2[keep])
    top = float(terms.max())
    return top + math.log(float(np.exp(terms - top).sum())), theta, Y


class _LazyExponential:
    """``w^T exp(A) w`` decisions for ``A = M0 + sum_i d_i z_i z_i^T`` without an ``eigh`` per update.

    ``M0 = E0 diag(lam0) E0^T`` is the matrix at the last *refresh* (one ``eigh``); the
    ``p`` updates since are kept *pending*.  In the coordinates of ``E0`` (extended by the
    identity on basis directions added since), the current matrix is
    ``A = diag(lam0, 0) + U D U^T`` with ``U = [E0^T z_1, ..., E0^T z_p]`` (``r x p``): a
    product with ``A`` costs ``O(r p)``.  A trial runs Lanczos on ``A`` from ``w = E0^T z``;
    after ``k`` steps, Gauss quadrature ``|w|^2 e_1^T exp(T_k) e_1`` is a lower bound of
    ``w^T exp(A) w`` and Gauss–Radau with the node prescribed at an upper bound ``b`` of the
    spectrum of ``A`` is an upper bound (every derivative of ``exp`` is positive: Golub and
    Meurant, *Matrices, Moments and Quadrature*, Thm. 6.3/6.4).  ``b`` is
    ``max(lam0, 0) + eta * lambda_max(Gram of the promoted u_i)`` (Weyl; demotions only
    lower the spectrum).  The bounds are evaluated in the log domain, shifted by their
    largest Ritz value, so that huge exponents never overflow.

    Every ``refresh_every`` updates (and on a fallback) the current matrix is formed from
    ``M0`` and the pending terms and decomposed afresh: no factor is ever updated
    incrementally, so nothing drifts over thousands of mistakes.
    """

    def __init__(self, refresh_every: int = _WINNOW_REFRESH):
        self.refresh_every = int(refresh_every)
        self.r = 0  # current dimension
        self.r0 = 0  # dimension at the last refresh
        self._M = np.zeros((16, 16))  # [:r0, :r0] is M0 (rows/columns beyond are zero)
        self.lam = np.zeros(0)
        self.E = np.zeros((0, 0))
        J = self.refresh_every
        self._Z = np.zeros((16, J))  # pending z_i (raw coordinates), zero below their length
        self._U = np.zeros((16, J))  # pending E0^T z_i (extended coordinates)
        self._d = np.zeros(J)
        self._G = np.zeros((J, J))  # Gram matrix of the pending u_i
        self.p = 0
        self._bounds = (0.0, 0.0)  # (upper, lower) bounds of the spectrum, None when stale
        self.refreshes = 0
        self.version = 0  # changes whenever coordinates or the matrix do
        self.products = 0  # Lanczos products with A so far

    def grow(self) -> None:
        """Add one basis direction (a zero row and column of the matrix)."""
        if self.r == self._M.shape[0]:
            cap = 2 * self.r
            M = np.zeros((cap, cap))
            M[: self.r, : self.r] = self._M[: self.r, : self.r]
            self._M = M
            for name in ("_Z", "_U"):
                old = getattr(self, name)
                new = np.zeros((cap, old.shape[1]))
                new[: self.r] = old[: self.r]
                setattr(self, name, new)
        self.r += 1
        self.version += 1
        self._bounds = None

    def coords(self, z: np.ndarray) -> np.ndarray:
        """``w``: ``z`` in the extended eigenbasis of ``M0``."""
        r0 = self.r0
        if r0 == z.size:
            return self.E.T @ z
        return np.concatenate([self.E.T @ z[:r0], z[r0:]])

    def add(self, z: np.ndarray, w: np.ndarray, step: float) -> None:
        """Record ``A += step * z z^T`` (``w = coords(z)``); refresh when enough are pending."""
        p, r = self.p, self.r
        if p == self._Z.shape[1]:  # refresh_every was raised: more pending columns
            self._Z = np.concatenate([self._Z, np.zeros_like(self._Z)], axis=1)
            self._U = np.concatenate([self._U, np.zeros_like(self._U)], axis=1)
            self._d = np.concatenate([self._d, np.zeros_like(self._d)])
            G = np.zeros((2 * p, 2 * p))
            G[:p, :p] = self._G
            self._G = G
        self._Z[:r, p] = z
        self._U[:r, p] = w
        self._d[p] = step
        g = self._U[:r, : p + 1].T @ w
        self._G[p, : p + 1] = g
        self._G[: p + 1, p] = g
        self.p = p + 1
        self.version += 1
        self._bounds = None
        if self.p >= self.refresh_every:
            self.refresh()

    def _spectral_bounds(self) -> tuple[float, float]:
        if self._bounds is None:  # computed once per state, when a trial needs it
            self._bounds = (self._spread(True), self._spread(False))
        return self._bounds

    @property
    def top(self) -> float:
        """An upper bound of the spectrum of the current matrix."""
        return self._spectral_bounds()[0]

    @property
    def bottom(self) -> float:
        """A lower bound of the spectrum of the current matrix."""
        return self._spectral_bounds()[1]

    def _spread(self, upper: bool) -> float:
        """A bound of the largest (``upper``) or smallest eigenvalue of the current ``A``."""
        lam = self.lam
        ext = 0.0 if self.r > self.r0 or lam.size == 0 else None
        base = (float(lam.max()) if upper else float(lam.min())) if lam.size else 0.0
        if ext is not None:
            base = max(base, ext) if upper else min(base, ext)
        p = self.p
        sel = (self._d[:p] > 0) if upper else (self._d[:p] < 0)
        extra = 0.0
        if sel.any():
            Gs = self._G[:p, :p][np.ix_(sel, sel)]
            extra = float(np.abs(self._d[:p][sel]).max()) * float(np.linalg.eigvalsh(Gs)[-1])
        scale = abs(base) + extra + 1.0
        slack = 64 * _U_ROUND * (self.r + p + 1) * scale + 1e-12 * scale
        return base + extra + slack if upper else base - extra - slack

    def current(self) -> np.ndarray:
        """The current matrix ``M0 + sum_i d_i z_i z_i^T`` (``r x r``, a new array)."""
        r, p = self.r, self.p
        M = self._M[:r, :r].copy()
        if p:
            Z = self._Z[:r, :p]
            M += (Z * self._d[:p]) @ Z.T
        return M

    def refresh(self) -> None:
        """Fold the pending updates into ``M0`` and decompose it (``O(r^3)``)."""
        r, p = self.r, self.p
        M = self.current()
        self._M[:r, :r] = M
        self.lam, self.E = np.linalg.eigh(M)
        self._Z[:r, :p] = 0.0
        self._U[:r, :p] = 0.0
        self.p = 0
        self.r0 = r
        self.refreshes += 1
        self.version += 1
        self._bounds = None

    def exact_terms(self, w: np.ndarray, lam=None):
        """``lam_k + log w_k^2`` over ``w_k != 0``: the log of each term of ``w^T exp(M0) w``."""
        lam = self.lam if lam is None else lam
        w2 = np.square(w)
        keep = w2 > 0.0
        return lam[keep] + np.log(w2[keep])

    def certified_log(self, w: np.ndarray, residual: float, log_scale: float, log_threshold: float,
                      steps: int = _WINNOW_LANCZOS_STEPS):
        """Decide ``log(residual + w^T exp(A) w) - log_scale > log_threshold`` from quadrature bounds.

        Returns ``1`` or ``0`` once the certified lower bound exceeds the threshold, or the
        upper bound falls below it, by more than the tie band; ``None`` if neither happens
        within ``steps`` Lanczos steps.
        """
        r, p = self.r, self.p
        lam = self.lam if self.r0 == r else np.concatenate([self.lam, np.zeros(r - self.r0)])
        U = self._U[:r, :p]
        d = self._d[:p]
        rho = max(abs(self.top), abs(self.bottom), 1.0)
        band = 1e-9 + 64 * _U_ROUND * rho * (r + steps)
        beta0 = float(np.linalg.norm(w))
        res = residual if residual > 0.0 else 0.0
        log_res = math.log(res) if res > 0.0 else -math.inf
        b = self.top
        V = np.empty((steps + 1, r))
        alpha = np.empty(steps)
        beta = np.empty(steps)
        V[0] = w / beta0
        for k in range(steps):
            v = V[k]
            u = lam * v + U @ (d * (U.T @ v))
            self.products += 1
            a = float(v @ u)
            u -= a * v
            if k:
                u -= beta[k - 1] * V[k - 1]
            Vk = V[: k + 1]
            u -= Vk.T @ (Vk @ u)  # full reorthogonalisation (twice is enough)
            u -= Vk.T @ (Vk @ u)
            nb = float(np.linalg.norm(u))
            alpha[k], beta[k] = a, nb
            invariant = nb <= 1e-13 * rho
            if not invariant and (k + 1) not in _WINNOW_CHECKS and k + 1 < steps:
                V[k + 1] = u / nb
                continue
            g, theta, Y = _log_quadrature(alpha[: k + 1], beta[:k])
            lo = self._combine(log_res, 2 * math.log(beta0) + g) - log_scale
            if invariant:
                hi = lo  # an invariant Krylov space: the quadrature is exact
            else:
                # Gauss-Radau: append the node b, alpha_hat = b + beta_k^2 [(T_k - b)^-1]_kk
                gap = theta - b
                if np.any(gap >= 0.0):
                    return None  # the spectral bound is violated by rounding: do not trust it
                a_hat = b + nb * nb * float(np.sum(Y[-1] ** 2 / gap))
                alpha_r = np.append(alpha[: k + 1], a_hat)
                gr, _, _ = _log_quadrature(alpha_r, beta[: k + 1])
                hi = self._combine(log_res, 2 * math.log(beta0) + gr) - log_scale
            if lo > log_threshold + band:
                return 1
            if hi < log_threshold - band:
                return 0
            if invariant or k + 1 == steps:
                return None
            V[k + 1] = u / nb
        return None

    @staticmethod
    def _combine(log_a: float, log_b: float) -> float:
        top = max(log_a, log_b)
        if top == -math.inf:
            return top
        return top + math.log(math.exp(log_a - top) + math.exp(log_b - top))


class MatrixWinnow(_ResistanceDiameter, SimilarityLearner):
    """Algorithm 1's Matrix Winnow, exact, without ``O(m^3)`` work per trial.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (``Psi_B`` for a BST, as in Theorem 3).
    cut_size : number
        ``|Phi|`` of the labeling on the graph the learner runs on (``cut_size(G, labels)``,
        or ``bst.cut_size(labels)`` for a BST): the threshold needs it (the paper's footnote).
    eta : float, default 1.28
        Learning rate.
    method : {"kernel", "lowrank", "dense"}
        ``"kernel"`` (default): instances only through kernel values (signed path overlaps on
        a BST), ``Q = V F^{-1}`` with ``F`` the Cholesky factor of the Gram matrix of the
        independent mistaken instances, and the eigendecomposition of ``M`` refreshed only
        every few dozen mistakes (see Notes): ``O(r^2 + r p)`` per trial and ``O(r p)`` per
        mistake (plus ``O(p^3)`` for a spectral bound), and one ``O(r^3)`` refresh per ``96``
        mistakes.
        ``"lowrank"``: the previous reference, an explicit ``m x r`` orthonormal ``Q`` and a
        full ``eigh`` of ``M`` on every mistake.
        ``"dense"`` is the paper's reference: ``W = scipy.linalg.expm(log W)`` recomputed on
        every mistake (``m <= DENSE_WINNOW_EDGE_LIMIT``).

    Attributes
    ----------
    fallbacks : int
        (``"kernel"`` only) trials the quadrature bounds could not decide, decided by a
        refresh and the exact sum below.

    Notes
    -----
    With ``x = psi / sqrt(R_ij)`` (unit, so ``X^w_t = x x^T`` has trace 1) and
    ``z = Q^T x``, ``M = E diag(lam) E^T``, ``w = E^T z``,

        m * x^T W x = (1 - |z|^2) + sum_k exp(lam_k) w_k^2,

    and we compare ``log`` of it (a log-sum-exp) with ``log(m * threshold)``.

    The kernel form does not decompose ``M`` after every mistake.  It keeps the
    decomposition ``M0 = E0 diag(lam0) E0^T`` of the last refresh and the ``p < 96``
    rank-one updates since, so that in ``E0``'s basis ``M = diag(lam0) + U D U^T``
    (``U`` is ``r x p``, a product costs ``O(r p)``).  A trial runs Lanczos on that matrix
    from ``w = E0^T z``: after ``k`` steps Gauss quadrature gives a lower bound and
    Gauss–Radau, with its free node at an upper bound of the spectrum (``max lam0`` plus
    ``eta`` times the largest eigenvalue of the Gram matrix of the pending promotions, by
    Weyl), an upper bound of ``w^T exp(M) w`` (Golub–Meurant; every derivative of ``exp``
    is positive).  Usually one or two steps separate both bounds from the threshold; if
    they have not after 40 steps, the current ``M`` is decomposed (a refresh) and the exact
    sum decides, as in ``"lowrank"``.

    The decision is tie-safe rather than exact: the score is a sum of exponentials of
    eigenvalues of a matrix with entries in ``Q(eta, L^+)`` and the threshold is
    ``eta / (e^eta - e^-eta) / (R |Phi|)``; an exact equality would be a transcendental
    coincidence.  The float log-score is accurate to about ``1e-13`` (relative), and the
    tests perturb ``L^+`` by ``1e-12`` (relative) on symmetric graphs and find identical
    predictions over long adaptive runs, because genuine scores do not come that close to
    the threshold.  The quadrature path keeps that argument: it decides only when a bound
    clears the log-threshold by a band ``1e-9 + 64 u rho (r + 40)`` (``u = 2^-53``, ``rho``
    the bound on the spectral radius), far above the rounding of the bounds (a backward
    error of order ``u rho`` in ``M``, full reorthogonalisation in Lanczos) and of the
    exact sum; then the true score lies outside the band and every accurate evaluation,
    the ``"lowrank"`` and ``"dense"`` references included, decides the same.  Inside the
    band the fallback computes exactly what the eigendecomposition-per-mistake form
    computes.

    Examples
    --------
    >>> learner = MatrixWinnow(nx.cycle_graph(6), cut_size=2)   # labels 0,0,0,1,1,1
    >>> round(learner.threshold, 4), learner.predict_one(0, 1)      # W_0 = I/6: 1/6 > threshold
    (0.1286, 1)
    >>> learner.learn_one(0, 1, 0); learner.predict_one(0, 1), round(learner.score(0, 1), 4)
    (0, 0.0463)
    """

    def __init__(self, G, cut_size=None, eta: float = 1.28, method: str = "kernel"):
        cut, eta = _check_winnow_params(cut_size, eta)
        if method not in ("kernel", "lowrank", "dense"):
            raise ValueError(f"method must be 'kernel', 'lowrank' or 'dense', got {method!r}")
        limit = DENSE_WINNOW_EDGE_LIMIT if method == "dense" else None
        alternative = "use method='kernel' (the default), exact and without m x m matrices"
        if method == "kernel":
            geo = _kernel(G, "MatrixWinnow")
        elif isinstance(G, BinarySupportTree):
            geo = _BSTGeometry(G, f"MatrixWinnow(method={method!r})", limit, alternative)
        elif isinstance(G, nx.Graph):
            geo = _GraphGeometry(G, f"MatrixWinnow(method={method!r})", limit or 10**12, alternative)
        else:
            raise TypeError(f"MatrixWinnow takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")
        super().__init__(geo.n)
        self._geo = geo
        self.m = geo.m
        self.R = geo.R
        self.cut_size = cut
        self.eta = eta
        self.method = method
        self.threshold = eta / (math.exp(eta) - math.exp(-eta)) / (geo.R * cut)
        self._log_threshold = math.log(self.threshold)
        if method == "dense":
            self._logW = -math.log(self.m) * np.eye(self.m)
            self._W = np.eye(self.m) / self.m
        elif method == "lowrank":
            self._Q = np.zeros((self.m, 0))
            self._M = np.zeros((0, 0))
            self._lam = np.zeros(0)
            self._E = np.zeros((0, 0))
        if method == "kernel":
            self._pairs = _GrowingPairs()  # the basis pairs (independent mistaken instances)
            self._norms = np.zeros(16)  # their R_s = ||psi_s||^2 ([:r] used)
            # upper triangular F (Gram of the unit basis = F^T F) in [:r, :r] of a Fortran-ordered
            # buffer that doubles: a new basis vector writes one column, a solve reads [:, :r]
            self._Fbuf = np.zeros((16, 16), order="F")
            self._forest = _Forest(self.n)
            self._lazy = _LazyExponential()
            self._lanczos_steps = _WINNOW_LANCZOS_STEPS
            self._zw_cache = None
            #: Trials the quadrature bounds left undecided (decided by a refresh and the exact sum).
            self.fallbacks = 0

    display_name = "Matrix Winnow"
    needs_graph = True
    oracle = "|Phi|"
    description = "Algorithm 1 on G (kernel form); its threshold needs |Phi|"
    bound_text = "(e^eta + 1)/eta R |Phi| ln m (Proposition 2), with the true |Phi|"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """Matrix Winnow on ``G``, its threshold set with the labels' ``|Phi|`` (the oracle)."""
        return cls(G, cut_size=_cut_size(G, labels))

    def mistake_bound(self, G, labels):
        """Proposition 2 (:func:`~simpred_lite.learners.bounds.certified_matrix_winnow_bound`); None with a wrong ``|Phi|``."""
        args, kwargs = self._init_params
        return certified_matrix_winnow_bound(self, kwargs.get("G", args[0] if args else G), labels)

    def _diameter_source(self):
        return self._geo

    @property
    def rank(self) -> int:
        """``r``: the dimension of the span of the mistaken instances (low-rank method)."""
        if self.method == "dense":
            return int(np.linalg.matrix_rank(self._logW + math.log(self.m) * np.eye(self.m)))
        if self.method == "kernel":
            return self._lazy.r
        return self._M.shape[0]

    def _unit_instance(self, i, j):
        idx, val = self._geo.instance(i, j)
        val = val.astype(float)
        return idx, val * (1.0 / math.sqrt(float(np.dot(val, val))))

    def log_score(self, i: int, j: int) -> float:
        """``ln tr(W^T X^w_t)`` for the pair ``(i, j)``."""
        i, j = check_pair(i, j, self.n)
        if self.method == "kernel":
            z = self._zw(i, j)[0]
            lazy = self._lazy
            if lazy.p == 0:
                return self._log_score_z(z)
            with _one_blas_thread():
                lam, E = np.linalg.eigh(lazy.current())  # exact, without touching the state
            return self._log_score_z(z, lam, E.T @ z)
        idx, x = self._unit_instance(i, j)
        if self.method == "dense":
            with np.errstate(divide="ignore"):
                return float(np.log(x @ self._W[np.ix_(idx, idx)] @ x))
        return self._lowrank_log_score(idx, x)[0]

    def _kernel_z(self, i, j):
        """``z = Q^T x`` with ``Q = V F^{-1}`` (``V`` the unit basis instances): ``F^T z = V^T x``."""
        q, r = self._geo.inner(self._pairs, i, j)
        r = float(r)
        k = q.size
        if k == 0:
            return np.zeros(0), r
        b = np.asarray(q, dtype=float) / np.sqrt(self._norms[:k] * r)
        z, info = scipy.linalg.lapack.dtrtrs(self._Fbuf[:, :k], b[:, None], lower=0, trans=1)
        if info != 0:  # pragma: no cover - F has a positive diagonal
            raise np.linalg.LinAlgError(f"triangular solve failed (info={info})")
        return z[:, 0], r

    def _zw(self, i, j):
        """``(z, R_ij, w)`` with ``w = z`` in the eigenbasis of the last refresh (cached per state)."""
        key = (i, j, self._lazy.version)
        if self._zw_cache is not None and self._zw_cache[0] == key:
            return self._zw_cache[1]
        z, r = self._kernel_z(i, j)
        out = (z, r, self._lazy.coords(z) if z.size else z)
        self._zw_cache = (key, out)
        return out

    def _log_score_z(self, z, lam=None, w=None):
        """The log-sum-exp of the exact score from an eigendecomposition (the last refresh's)."""
        lazy = self._lazy
        if lam is None:
            lam, w = lazy.lam, (lazy.E.T @ z if z.size else z)
        terms = lazy.exact_terms(w, lam)  # log of exp(lam_k) w_k^2: never overflows
        residual = 1.0 - float(np.dot(z, z))  # the part of x outside span(Q) keeps weight 1
        top = float(terms.max()) if terms.size else -math.inf
        if residual > 0.0:
            top = max(top, math.log(residual))
        if top == -math.inf:
            return -math.inf
        total = float(np.exp(terms - top).sum()) + (residual * math.exp(-top) if residual > 0.0 else 0.0)
        return top + math.log(total) - math.log(self.m)

    def score(self, i: int, j: int) -> float:
        """``tr(W^T X^w_t)`` for the pair ``(i, j)`` (may be ``inf`` after huge promotions)."""
        with np.errstate(over="ignore"):
            return float(np.exp(self.log_score(i, j)))

    def _lowrank_log_score(self, idx, x):
        z = self._Q[idx].T @ x
        w2 = np.square(self._E.T @ z)
        residual = 1.0 - float(np.dot(z, z))  # the part of x outside span(Q) keeps weight 1
        keep = w2 > 0.0
        terms = self._lam[keep] + np.log(w2[keep])  # log of exp(lam_k) w_k^2: never overflows
        top = float(terms.max()) if terms.size else -math.inf
        if residual > 0.0:
            top = max(top, math.log(residual))
        if top == -math.inf:
            return -math.inf, z
        total = float(np.exp(terms - top).sum()) + (residual * math.exp(-top) if residual > 0.0 else 0.0)
        return top + math.log(total) - math.log(self.m), z

    def _predict(self, i, j, path):
        if self.method == "kernel":
            with _one_blas_thread():
                return self._kernel_predict(i, j)
        if self.method == "dense":
            idx, x = self._unit_instance(i, j)
            return int(float(x @ self._W[np.ix_(idx, idx)] @ x) > self.threshold)
        idx, x = self._unit_instance(i, j)
        return int(self._lowrank_log_score(idx, x)[0] > self._log_threshold)

    def _learn(self, i, j, y, y_hat, path):
        if y == y_hat:
            return
        step = self.eta * (y - y_hat)
        if self.method == "kernel":
            with _one_blas_thread():
                self._kernel_update(i, j, step)
            return
        idx, x = self._unit_instance(i, j)
        if self.method == "dense":
            self._logW[np.ix_(idx, idx)] += step * np.outer(x, x)
            self._W = scipy.linalg.expm(self._logW)
            return
        with _one_blas_thread():
            self._extend_and_update(idx, x, step)

    def _extend_and_update(self, idx, x, step):
        xd = np.zeros(self.m)
        xd[idx] = x
        Q = self._Q
        z = Q.T @ xd
        u = xd - Q @ z
        dz = Q.T @ u  # second Gram-Schmidt pass: orthogonality to machine precision
        z += dz
        u -= Q @ dz
        rho = float(np.linalg.norm(u))
        if rho > _SPAN_TOL:
            self._Q = np.column_stack([Q, u / rho])
            r = self._Q.shape[1]
            M = np.zeros((r, r))
            M[: r - 1, : r - 1] = self._M
            self._M = M
            z = np.append(z, rho)
        self._M += step * np.outer(z, z)
        self._lam, self._E = np.linalg.eigh(self._M)

    def _kernel_predict(self, i, j):
        z, _, w = self._zw(i, j)
        lazy = self._lazy
        if lazy.p == 0:  # the last refresh is current: the exact sum
            return int(self._log_score_z(z) > self._log_threshold)
        if not np.any(w):  # x is orthogonal to every mistake: the score is 1 - |z|^2 = 1
            return int(self._log_score_z(z, w, w) > self._log_threshold)
        residual = 1.0 - float(np.dot(z, z))
        verdict = lazy.certified_log(w, residual, math.log(self.m), self._log_threshold, self._lanczos_steps)
        if verdict is not None:
            return verdict
        self.fallbacks += 1  # too close to call from the bounds: refresh, then the exact sum
        lazy.refresh()
        return int(self._log_score_z(z) > self._log_threshold)

    def _kernel_update(self, i, j, step):
        z, r, w = self._zw(i, j)
        lazy = self._lazy
        if self._forest.find(i) != self._forest.find(j):  # independent of the basis (exactly)
            rho2 = 1.0 - float(np.dot(z, z))
            rho = math.sqrt(rho2) if rho2 > 0.0 else 0.0
            if rho > _SPAN_TOL:
                self._forest.union(i, j)
                k = self._pairs.k
                self._pairs.append(i, j)
                if k == self._Fbuf.shape[0]:
                    F = np.zeros((2 * k, 2 * k), order="F")
                    F[:k, :k] = self._Fbuf
                    self._Fbuf = F
                    self._norms = np.concatenate([self._norms, np.zeros(k)])
                self._norms[k] = r
                self._Fbuf[:k, k] = z
                self._Fbuf[k, k] = rho
                lazy.grow()
                z = np.append(z, rho)
                w = np.append(w, rho)
        lazy.add(z, w, step)
