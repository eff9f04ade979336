"""The kernel form of the matrix learners: instances only through their inner products (§3.2, §4).

The Matrix Perceptron and Matrix Winnow never need an instance ``psi`` itself, only

    k((a, b), (i, j)) = psi_ab^T psi_ij = (e_a - e_b)^T L^+ (e_i - e_j),

so no ``m x m`` or ``m x r`` object exists.  Three kernels give these values:
:class:`DenseKernel` (dense float ``L^+``, ``n <= DENSE_LIMIT``), :class:`SparseKernel`
(cached sparse solves with the grounded Laplacian, any ``n``) and :class:`BSTKernel` (signed
overlaps of leaf-to-leaf paths of a Binary Support Tree, exact integers);
:func:`make_kernel` picks one.  Each knows the resistance diameter ``R`` of its graph with a
rigorous error bound (:class:`ResistanceDiameter` exposes both on the learners).
:class:`GrowingPairs` stores the mistaken pairs and :class:`Forest` decides, combinatorially,
whether a new pair's instance is independent of the stored ones.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import networkx as nx
import numpy as np

from ..bst import BinarySupportTree
from ..checks import check_work
from ..exact import UNIT_ROUNDOFF, LaplacianFunctional, pinv_error_bound
from ..graphs import frozen_copy, validate_graph
from ..resistance import DENSE_LIMIT, grounded_solver, laplacian, laplacian_pinv
from .instances import bst_instance

# The kernels, the pair store and the forest are building blocks of the learners in
# matrix_perceptron.py and matrix_winnow.py (public names, so that those modules import them),
# not part of the package's interface: only make_kernel is listed here.
__all__ = ["make_kernel"]

# Columns of L^+ (grounded potentials) cached by the sparse kernel: at most this many doubles.
COLUMN_CACHE_ENTRIES = 1 << 24


class GrowingPairs:
    """The mistaken pairs ``(a_s, b_s)`` as numpy arrays that grow by doubling (amortised O(1))."""

    def __init__(self) -> None:
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


class DenseKernel:
    """``k((a,b),(i,j)) = (e_a - e_b)^T L^+ (e_i - e_j)`` from the dense float ``L^+`` (``n <= DENSE_LIMIT``).

    A trial costs one row difference ``u = L^+ (e_i - e_j)`` (``O(n)``) and two gathers per
    stored pair.  ``exact`` is True on a tree, where every kernel value is an integer (a signed
    path overlap) and is rounded to it.
    """

    # computed on first use (diameter_error, pinv_error); the certifier may reset them
    _R_error: float | None = None
    _pinv_error: float | None = None

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

    def inner(self, pairs: GrowingPairs, i: int, j: int) -> tuple[np.ndarray, int | float]:
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


class SparseKernel(DenseKernel):
    """The same kernel from sparse solves with the grounded Laplacian (any ``n``).

    ``L_0`` (the Laplacian with vertex 0's row and column deleted) is factorised once; the
    grounded potential ``g_v = L_0^{-1} e_v`` of a vertex (``g_0 = 0``) is solved on first use
    and cached (least recently used first out, at most ``2^24`` doubles).  Potentials differ
    from ``L^+ e_v`` by a constant, which cancels in every ``(e_a - e_b)^T (.)``.  The
    resistance diameter ``R`` is found once with ``O(n)`` batched solves.
    """

    def __init__(self, G: nx.Graph) -> None:
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
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cache_size = max(4, COLUMN_CACHE_ENTRIES // max(self.n, 1))
        self.R, self.diameter_pair = self._diameter()
        if self.exact:
            self.R = int(round(self.R))

    def _diameter(self):
        n = self.n
        batch = max(1, min(256, COLUMN_CACHE_ENTRIES // (4 * n)))
        diag = np.zeros(n)
        for start in range(1, n, batch):  # pass 1: diag of the grounded inverse
            cols = np.arange(start, min(n, start + batch))
            E = np.zeros((n - 1, cols.size))
            E[cols - 1, np.arange(cols.size)] = 1.0
            X = self._lu.solve(E)
            diag[cols] = X[cols - 1, np.arange(cols.size)]
        cands: list[tuple[int, int]] = []
        best, pair, maxres, maxabs = -1.0, (0, 1), 0.0, float(np.abs(diag).max())
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
        u = UNIT_ROUNDOFF
        dmax = float(self.graph.degree and max(d for _, d in self.graph.degree))
        ecc = max(nx.eccentricity(self.graph, 0), 1)
        res_bound = maxres + (dmax + 3) * u * (2 * dmax + 1) * maxabs * math.sqrt(n)
        err = (n - 1) * ecc * res_bound
        self.R_error = 4 * err + 4 * 3 * u * maxabs * 1.01
        return best, pair

    def diameter_error(self) -> float:
        return 0.0 if self.exact else self.R_error

    def diameter_candidates(self, band: float) -> list[tuple[int, int]]:
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

    def inner(self, pairs: GrowingPairs, i: int, j: int) -> tuple[np.ndarray, int | float]:
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


def make_kernel(G: Any, what: str) -> DenseKernel | BSTKernel:
    """The kernel of a graph or a BST: the one object the kernel-form learners draw instances from.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (copied and frozen: later edits of the caller's graph change nothing),
        or a Binary Support Tree.
    what : str
        The learner asking, named in the error messages.

    Returns
    -------
    DenseKernel, SparseKernel or BSTKernel
        :class:`DenseKernel` up to ``DENSE_LIMIT`` vertices, :class:`SparseKernel` beyond,
        :class:`BSTKernel` on a BST.

    Examples
    --------
    >>> kern = make_kernel(nx.path_graph(4), "example")
    >>> type(kern).__name__, kern.R, kern.exact
    ('DenseKernel', 3, True)
    """
    if isinstance(G, BinarySupportTree):
        return BSTKernel(G)
    if isinstance(G, nx.Graph):
        G = frozen_copy(validate_graph(G))  # later edits of the caller's graph change nothing here
        return DenseKernel(G) if G.number_of_nodes() <= DENSE_LIMIT else SparseKernel(G)
    raise TypeError(f"{what} takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")


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
