"""Exact Laplacian arithmetic and certified decisions: the same prediction on every machine.

The Perceptron-type learners of the paper decide by the sign of a quantity that is
mathematically a *rational number*: sums of entries of the Laplacian pseudoinverse ``L^+``,
whose entries are rationals with denominator dividing ``n * tau(G)`` (``tau`` the number of
spanning trees).  On graphs with symmetry that quantity is often exactly ``0`` or exactly
equal to the threshold, and a floating-point evaluation then lands on ``+2e-16``, ``0`` or
``-2e-16`` depending on the BLAS kernel the CPU happens to run.  A prediction that depends on
that is a bug: two students get different mistake counts from the same notebook.

Every such decision in the package is made by a **filtered exact predicate** (the technique
of exact geometric predicates):

1. evaluate the quantity in floating point, together with a rigorous bound ``E`` on the
   difference between the float and the exact value (:func:`pinv_error_bound` bounds the
   error of the float ``L^+`` a posteriori, from its residual; the learner adds the
   rounding of its own sums);
2. if the float is farther than ``E`` from the threshold its side is certain
   (:func:`certified_compare`);
3. otherwise recompute the quantity **exactly** in rational arithmetic with one exact solve
   ``L^+ b`` (:class:`ExactLaplacian`, backed by FLINT through ``python-flint``).

For one decision, :class:`LaplacianFunctional` replaces step 3 by numeric lifting with exact
integer residuals and a separation bound, which needs neither ``L^+`` nor rationals: a true
tie at ``n = 10^4`` then costs some hundred sparse float solves instead of a dense rational one.

Step 3 is rare (in practice: the exact ties) and costs one exact solve — about 2 ms at
``n = 100``, 60 ms at ``n = 400`` and 1 s at ``n = 1000`` — so the learners keep their float
speed while their decisions are those of exact arithmetic.  The solve grows like ``n^3``
in time and ``n^2`` in memory: :class:`ExactLaplacian` refuses, before FLINT allocates
anything, a graph beyond :data:`~simpred_lite.checks.WORK_LIMIT` or
:data:`~simpred_lite.checks.MEMORY_LIMIT` (about ``n = 2000`` vertices) with
:class:`ExactTooLargeError`; a learner that needs an exact decision there stops with it
(the playground and :func:`~simpred_lite.game.evaluation.evaluate` retire it) instead of
running for hours or aborting the interpreter.

Examples
--------
>>> import networkx as nx
>>> ex = ExactLaplacian(nx.cycle_graph(4))
>>> ex.resistance(0, 2), ex.resistance(0, 1)
(Fraction(1, 1), Fraction(3, 4))
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import networkx as nx
import numba
import numpy as np

from .checks import LearnerGaveUp, check_memory, check_work
from .graphs import validate_graph

__all__ = ["ExactLaplacian", "ExactTooLargeError", "exact_solve_cost", "pinv_error_bound", "certified_compare",
           "LaplacianFunctional", "laplacian_functional_sign", "laplacian_pinv_fraction",
           "UNIT_ROUNDOFF"]

#: Unit roundoff of IEEE double precision, ``2^-53``.
UNIT_ROUNDOFF = 2.0**-53


class ExactTooLargeError(LearnerGaveUp):
    """An exact rational solve was refused: it would exceed the time or memory limit.

    Raised by :class:`ExactLaplacian` before FLINT allocates anything (FLINT itself aborts
    the whole interpreter when it runs out of memory).  It is a
    :class:`~simpred_lite.checks.LearnerGaveUp` (a ``RuntimeError``) because it is raised in
    the middle of a run when a learner meets a decision the floats cannot certify; the
    playground and :func:`~simpred_lite.game.evaluation.evaluate` then retire that learner
    and play on with the others.

    Examples
    --------
    >>> from simpred_lite.graphs import grid_graph
    >>> try:
    ...     ExactLaplacian(grid_graph(70, 70)[0])
    ... except ExactTooLargeError as err:
    ...     print(str(err)[:75])
    an exact rational solve with the Laplacian of a graph on n=4900 vertices (F
    """


def exact_solve_cost(G: nx.Graph) -> tuple[float, float]:
    """Estimated ``(steps, bytes)`` of one exact solve with the grounded Laplacian of ``G``.

    FLINT solves ``L_0 x = c`` by p-adic (Dixon) lifting: an LU factorisation modulo a
    word-size prime (``n^3`` word operations, an ``n x n`` table of words), then one
    matrix-vector product (``n^2``) per lifted word of the solution.  The solution's
    denominator is ``det L_0 = tau(G)`` (spanning trees), at most Hadamard's bound
    ``prod_v sqrt(d_v^2 + d_v)``, so numerators and denominator have about
    ``b = sum_v log2(d_v + 1)`` bits and the lifting takes about ``2 b / 60`` steps.

    Parameters
    ----------
    G : networkx.Graph
        A graph on ``0 .. n-1``.

    Returns
    -------
    steps : float
        ``n^3 + n^2 * 2 b / 60``.
    n_bytes : float
        ``16 n^2`` (the integer matrix and its inverse modulo p) plus ``n * 2 b / 8`` (the
        rational solution).

    Examples
    --------
    >>> steps, n_bytes = exact_solve_cost(nx.grid_2d_graph(300, 300))
    >>> f"{steps:.1e} steps, {n_bytes / 2**30:.0f} GiB"
    '7.9e+14 steps, 125 GiB'
    """
    n = G.number_of_nodes()
    bits = sum(math.log2(d + 1) for _, d in G.degree) + 64
    return float(n) ** 3 + float(n) ** 2 * 2 * bits / 60, 16.0 * n * n + n * 2 * bits / 8


class ExactLaplacian:
    """Exact rational solves ``L^+ b`` with the Laplacian of a graph.

    The Laplacian grounded at vertex 0 (its row and column deleted) is an integer, symmetric
    positive definite matrix; FLINT's exact solver (p-adic lifting) returns ``L_0^{-1} c`` as
    exact rationals.  From it ``L^+ b = phi - mean(phi)`` with ``L phi = b - mean(b)``.  The
    integer matrix is built on the first solve and kept.

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on the vertices ``0 .. n-1`` (edge weights ignored).

    Raises
    ------
    ExactTooLargeError
        If one solve would exceed :data:`~simpred_lite.checks.WORK_LIMIT` steps or
        :data:`~simpred_lite.checks.MEMORY_LIMIT` bytes (:func:`exact_solve_cost`): about
        ``n = 2000`` vertices.  Nothing is allocated before the check.

    Examples
    --------
    >>> import networkx as nx
    >>> ex = ExactLaplacian(nx.path_graph(3))
    >>> [str(v) for v in ex.potentials([1, 0, -1])]   # a unit current from 0 to 2
    ['1', '0', '-1']
    """

    def __init__(self, G: nx.Graph):
        G = validate_graph(G)
        self.n = G.number_of_nodes()
        steps, n_bytes = exact_solve_cost(G)
        what = f"an exact rational solve with the Laplacian of a graph on n={self.n} vertices (FLINT, Dixon lifting)"
        alternative = ("exact arithmetic is for the rare ties of small graphs (n up to about 2000); on a larger graph "
                       "use a learner whose decisions are exact integers, e.g. BSTPerceptron.from_graph(G, seed) "
                       "or MatrixPerceptron(BinarySupportTree.from_graph(G, seed))")
        try:
            check_work(steps, what, alternative)
            check_memory(n_bytes, what, alternative)
        except ValueError as err:
            raise ExactTooLargeError(str(err)) from None
        self._edges = [(int(u), int(v)) for u, v in G.edges]
        self._grounded = None

    def __getstate__(self):
        # the grounded FLINT matrix is a cache that does not pickle: rebuilt on first use
        return {**self.__dict__, "_grounded": None}

    def _matrix(self):
        if self._grounded is None:
            import flint

            size = self.n - 1
            L0 = flint.fmpz_mat(size, size)
            for u, v in self._edges:
                for a, b in ((u, v), (v, u)):
                    if a:
                        L0[a - 1, a - 1] += 1
                        if b:
                            L0[a - 1, b - 1] -= 1
            self._grounded = L0
        return self._grounded

    def potentials(self, b) -> list[Fraction]:
        """Exact ``L^+ b`` for an integer vector ``b`` of length ``n``.

        Parameters
        ----------
        b : sequence of int
            Integer entries (any sum: ``L^+`` ignores the constant part).

        Returns
        -------
        list of fractions.Fraction
            The potentials, summing to zero.

        Examples
        --------
        >>> import networkx as nx
        >>> [str(v) for v in ExactLaplacian(nx.cycle_graph(3)).potentials([1, -1, 0])]
        ['1/3', '-1/3', '0']
        """
        import flint

        values = [int(v) for v in np.asarray(b).tolist()]
        if len(values) != self.n:
            raise ValueError(f"b must have one entry per vertex (n={self.n}), got {len(values)}")
        if self.n == 1:
            return [Fraction(0)]
        total = sum(values)
        rhs = [self.n * v - total for v in values[1:]]  # n (b - mean b), grounded at vertex 0
        if not any(rhs) and self.n * values[0] - total == 0:
            return [Fraction(0)] * self.n
        sol = self._matrix().solve(flint.fmpz_mat(self.n - 1, 1, rhs))
        psi = [Fraction(0)] + [Fraction(int(sol[k, 0].p), int(sol[k, 0].q)) for k in range(self.n - 1)]
        mean = sum(psi, Fraction(0)) / self.n
        return [(p - mean) / self.n for p in psi]

    def resistance(self, i: int, j: int) -> Fraction:
        """The exact effective resistance ``R_ij`` (a rational).

        Examples
        --------
        >>> import networkx as nx
        >>> ExactLaplacian(nx.complete_graph(4)).resistance(0, 3)
        Fraction(1, 2)
        """
        b = np.zeros(self.n, dtype=np.int64)
        b[i] += 1
        b[j] -= 1
        phi = self.potentials(b)
        return phi[i] - phi[j]


def pinv_error_bound(G: nx.Graph, Lp: np.ndarray) -> float:
    """A rigorous bound on ``max |Lp - L^+|`` for a floating-point pseudoinverse ``Lp``.

    ``X = Lp + J/n`` approximates ``A^{-1}`` with ``A = L + J/n`` (``J`` all ones).  With the
    residual ``R = A X - I``, ``A^{-1} = X (I + R)^{-1}``, hence, when ``||R|| < 1``,

        ``||X - A^{-1}|| <= ||X|| ||R|| / (1 - ||R||)``

    in the Frobenius norm (which bounds every entry).  The residual is itself computed in
    floating point; its rounding is bounded by ``gamma_{n+2} (|A| |X|)`` (Higham, Thm. 3.5)
    and added to ``||R||``.  The cost is one sparse-times-dense product, ``O(m n)``.

    Parameters
    ----------
    G : networkx.Graph
        The graph whose pseudoinverse ``Lp`` approximates.
    Lp : numpy.ndarray
        The float ``n x n`` pseudoinverse (e.g. :func:`~simpred_lite.resistance.laplacian_pinv`).

    Returns
    -------
    float
        The bound (``inf`` if the residual is too large to certify anything).

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.resistance import laplacian_pinv
    >>> G = nx.petersen_graph()
    >>> pinv_error_bound(G, laplacian_pinv(G)) < 1e-13
    True
    """
    from .resistance import laplacian

    G = validate_graph(G)
    n = G.number_of_nodes()
    Lp = np.asarray(Lp, dtype=float)
    if Lp.shape != (n, n):
        raise ValueError(f"Lp must be the {n}x{n} pseudoinverse of G, got shape {Lp.shape}")
    if not np.isfinite(Lp).all():
        return math.inf
    L = laplacian(G)
    X = Lp + 1.0 / n
    AX = L @ X + X.sum(axis=0, keepdims=True) / n  # (L + J/n) X
    AX[np.diag_indices(n)] -= 1.0
    absX = np.abs(X)
    rounding = abs(L) @ absX + absX.sum(axis=0, keepdims=True) / n  # |A| |X|
    u = UNIT_ROUNDOFF
    gamma = (n + 4) * u / (1 - (n + 4) * u)
    # ||R|| <= ||fl(R)|| + ||fl(R) - R||, the norms themselves rounded generously
    r = float(np.linalg.norm(AX)) * (1 + n * u) + gamma * float(np.linalg.norm(rounding)) * (1 + n * u)
    if not r < 0.5:
        return math.inf
    x_norm = float(np.linalg.norm(X)) * (1 + n * u)
    # the J/n added to and removed from Lp rounds each entry once more
    return x_norm * r / (1 - r) + 2 * u * float(absX.max())


def certified_compare(value: float, threshold: float, error: float) -> int | None:
    """``1`` if ``value > threshold`` certainly, ``0`` if ``value < threshold`` certainly, else None.

    ``error`` bounds ``|value - exact value| + |threshold - exact threshold|``; when the two
    floats are closer than that, only exact arithmetic can decide (None).

    Parameters
    ----------
    value, threshold : float
        Floating-point evaluations of the two sides.
    error : float
        A bound on their combined error.

    Examples
    --------
    >>> certified_compare(1.0, 0.5, 1e-9), certified_compare(0.5, 1.0, 1e-9)
    (1, 0)
    >>> certified_compare(2e-16, 0.0, 1e-12) is None
    True
    """
    gap = value - threshold
    if gap > error:
        return 1
    if gap < -error:
        return 0
    return None


# -- one exact decision, cheaply: a linear functional of L^+ by numeric lifting ------------------
#: Bits the lifting keeps its integer corrections below (so every int64 product and sum is exact).
_LIFT_BITS = 46
#: The lifting's integer corrections are split in two pieces of at most this many bits for ``W . d`` in int64.
_PIECE = (_LIFT_BITS + 1) // 2
#: Fewest bits a lifting step must gain on average (over 8 steps) before the rational solver takes over.
_MIN_BITS = 16
#: Most vertices in a block of the separation bound (Fischer's inequality; an exact FLINT
#: determinant each, a few milliseconds at this size).
_BLOCK = 24


class LaplacianFunctional:
    """The exact sign of ``w^T L^+ b - t``: one linear functional of ``L^+``, decided cheaply.

    This is what one decision of a Perceptron on a graph needs (a score compared with a
    threshold), and it is computed without ``L^+`` and without rational arithmetic:

    1. **Floats.**  With the Laplacian grounded at a vertex ``g`` of largest degree, ``A = L_0``
       (an integer, symmetric positive definite matrix),
       ``n^2 w^T L^+ b = V = W^T A^{-1} C`` for the integer vectors ``W = (n w - sum(w))`` and
       ``C = (n b - sum(b))`` without their ``g`` entries.  One sparse float factorization of
       ``A`` (SuperLU, minimum-degree order) is made on the first call and kept; its explicit
       factors ``L D L^T`` are then solved by compiled loops (:class:`_TriangularFactor`).
    2. **Numeric lifting with exact integer residuals** (Wan's method): from ``r_0 = C``, each
       step solves ``A y = r_k`` in floats, rounds ``2^s y`` to an integer vector ``d_k``
       (``|d_k| < 2^46``) and forms the residual ``r_{k+1} = 2^s r_k - A d_k`` *exactly* in
       64-bit integers (a compiled loop, fused with the rounding and ``W^T d_k``).  Then
       ``V = sum_k W^T d_k 2^-(s_0 + ... + s_k) + W^T A^{-1} r_K / 2^S`` exactly, and the last
       term is at most ``||W||_1 M ||r_K||_inf / 2^S`` with
       ``M = sum_v dist(v, g) >= ||A^{-1}||_inf`` (the entries of ``A^{-1}`` are potentials,
       at most the resistances to ``g``, at most the distances).  The float solves need not be
       accurate for this to hold; their accuracy only sets how many bits a step gains (about
       ``53 - log2 cond(A)``).  Lifting stops as soon as the approximation is farther than
       its bound from the threshold: the sign is then certain.
    3. **A true tie without rationals** (a separation bound): ``V = N / det A`` for an integer
       ``N`` (Cramer), ``det A = tau(G)`` (Kirchhoff) and ``tau(G) <= H = prod_k det A[B_k, B_k]``
       for any partition of the vertices into blocks ``B_k`` (Fischer's inequality for a
       positive definite matrix; with blocks of one vertex it is Hadamard's ``prod_{v != g} deg v``).
       The blocks are breadth-first balls of up to :data:`_BLOCK` vertices and their
       determinants are exact integers (FLINT), computed once per graph, at the first lifting.  With the
       threshold ``n^2 t = p / q``, a nonzero ``V - n^2 t`` is at least ``1 / (H q)`` in absolute
       value, so once the lifting's error bound is below ``1 / (2 H q)`` and the sign is still
       undecided, ``V = n^2 t`` exactly.  That takes about ``log2 H`` bits (on a cycle about
       ``0.16 n`` instead of Hadamard's ``n``; on a grid about ``1.8 n`` instead of ``2 n``, the
       true ``log2 tau`` being ``1.68 n``): some hundred steps of one sparse solve each.

    Every answer is exact (there is no probability and no tolerance).  Work and memory are
    checked before anything large is allocated: the factorization's memory is bounded by the
    envelope of ``A`` in reverse Cuthill–McKee order (:data:`~simpred_lite.checks.MEMORY_LIMIT`;
    minimum degree, the order used, fills less on the graphs measured, though it is not proved
    to), and the steps a tie would take times the cost of a step (the envelope) by
    :data:`~simpred_lite.checks.WORK_LIMIT`; beyond them :class:`ExactTooLargeError`.  Should the
    float solves gain fewer than 16 bits a step (``cond(A)`` beyond about ``2^35``), the decision
    falls back to :class:`ExactLaplacian` (itself checked).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on the vertices ``0 .. n-1`` (edge weights ignored).

    Attributes
    ----------
    last_stage : str or None
        How the last :meth:`compare` was decided: ``"zero"`` (``b`` or ``w`` constant, the
        value is exactly 0), ``"float"`` (the first float solve was enough), ``"lifted"``
        (after more lifting steps), ``"exact"`` (the lifting ended with a zero residual: the
        value is a binary fraction, found exactly), ``"tie"`` (proved equal by the separation
        bound) or ``"rational"`` (:class:`ExactLaplacian`).
    last_steps : int
        Float solves the last :meth:`compare` made.

    Examples
    --------
    >>> import networkx as nx
    >>> F = LaplacianFunctional(nx.wheel_graph(5))     # hub 0, rim 1-2-3-4
    >>> b = [0, 1, 0, 0, -1]      # L^+ b: the potentials of a unit current from 1 to 4
    >>> F.compare([1, 0, 0, 0, 0], b), F.last_stage      # the hub is midway: exactly 0
    (0, 'tie')
    >>> F.compare([0, 1, 0, 0, 0], b), F.compare([0, 1, 0, 0, 0], b, threshold=Fraction(4, 15))
    (1, 0)
    """

    def __init__(self, G: nx.Graph):
        import scipy.sparse as sp
        from scipy.sparse.csgraph import reverse_cuthill_mckee, shortest_path

        G = validate_graph(G)
        n = self.n = G.number_of_nodes()
        self._graph = G
        self._exact: Any = None  # ExactLaplacian, the rational fallback, built on first use
        self.last_stage, self.last_steps = None, 0
        if n == 1:
            return
        edges = np.array([(int(u), int(v)) for u, v in G.edges if u != v], dtype=np.int64).reshape(-1, 2)
        adj = sp.coo_matrix((np.ones(2 * len(edges), dtype=np.int64),
                             (np.r_[edges[:, 0], edges[:, 1]], np.r_[edges[:, 1], edges[:, 0]])), shape=(n, n)).tocsr()
        adj.sum_duplicates()
        adj.data[:] = 1
        deg = np.asarray(adj.sum(axis=1)).ravel()
        g = int(np.argmax(deg))  # ground at a vertex of largest degree: the smallest Hadamard bound
        keep = np.flatnonzero(np.arange(n) != g)
        L = (sp.diags(deg, dtype=np.int64) - adj).tocsr()
        A = L[keep][:, keep].tocsr()
        if A.dtype != np.int64:  # the residuals below are exact only in integer arithmetic
            raise RuntimeError(f"the grounded Laplacian must be an int64 matrix, got {A.dtype}")
        # memory check before the factorization: the envelope of A in reverse Cuthill-McKee order
        perm = reverse_cuthill_mckee(A, symmetric_mode=True)
        low = sp.tril(A[perm][:, perm]).tocsr()
        first = np.minimum.reduceat(low.indices, low.indptr[:-1])
        envelope = float(np.sum(np.arange(n - 1) - first)) + (n - 1)
        what = (f"an exact decision by numeric lifting on a graph on n={n} vertices (a sparse float factorization "
                f"of the grounded Laplacian, envelope {envelope:.3g} entries)")
        try:
            check_memory(2 * 12 * envelope, what, "use a learner whose decisions are exact integers, e.g. "
                         "BSTPerceptron.from_graph(G, seed)")
        except ValueError as err:
            raise ExactTooLargeError(str(err)) from None
        self._ground, self._keep, self._A = g, keep, A
        coo = A.tocoo()
        self._coo = (coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data.astype(np.int64))
        self._abs_row = int(2 * deg.max())  # max row sum of |A|
        self._M = int(shortest_path(adj, unweighted=True, indices=g).sum())  # >= ||A^{-1}||_inf
        self._H: int | None = None  # >= det A = tau(G), Fischer's inequality: made with the factorization
        self._envelope = envelope
        self._lu: Any = None  # the SuperLU factorization, made on first use

    def __getstate__(self):
        # the SuperLU factorization is a cache that does not pickle: refactored on first use
        return {**self.__dict__, "_lu": None}

    def _factor(self):
        if self._lu is None:
            from scipy.sparse.linalg import splu

            lu = splu(self._A.astype(float).tocsc(), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                      options={"SymmetricMode": True})
            self._lu = _TriangularFactor(lu)
            self._factor_size = self._lu.nnz
        return self._lu

    def _separation(self) -> int:
        """``H >= det A = tau(G)`` (:func:`_fischer_bound`), computed on first use and kept."""
        if self._H is None:
            self._H = _fischer_bound(self._A, _BLOCK)
        return self._H

    def _vector(self, x, name: str) -> list[int]:
        arr = np.asarray(x)
        if arr.shape != (self.n,):
            raise ValueError(f"{name} must have one integer entry per vertex (n={self.n}), got shape {arr.shape}")
        if arr.dtype.kind not in "iub" and not (arr.dtype.kind == "O" and all(isinstance(v, (int, np.integer))
                                                                             for v in arr.tolist())):
            if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
                arr = arr.astype(np.int64)
            else:
                raise TypeError(f"{name} must hold integers (a vector of L^+ is taken of integer vectors), "
                                f"got dtype {arr.dtype}")
        return [int(v) for v in arr.tolist()]

    def compare(self, w, b, threshold=0) -> int:
        """The exact sign of ``w^T L^+ b - threshold``: ``1``, ``0`` (equal) or ``-1``.

        Parameters
        ----------
        w, b : sequence of int
            Integer vectors, one entry per vertex (any sums: ``L^+`` ignores constants).
        threshold : int, fractions.Fraction or float, default 0
            Compared exactly (a float is the binary fraction it holds).

        Returns
        -------
        int
            ``sign(w^T L^+ b - threshold)``, exact.

        Raises
        ------
        ExactTooLargeError
            If the lifting would exceed :data:`~simpred_lite.checks.WORK_LIMIT`.

        Examples
        --------
        >>> import networkx as nx
        >>> F = LaplacianFunctional(nx.path_graph(3))
        >>> F.compare([1, 0, -1], [1, 0, -1], threshold=2), F.compare([1, 0, -1], [1, 0, -1], 1.5)
        (0, 1)
        """
        w_int, b_int = self._vector(w, "w"), self._vector(b, "b")
        t = _exact_threshold(threshold)
        n = self.n
        self.last_steps = 0
        sw, sb = sum(w_int), sum(b_int)
        W = [n * v - sw for v in w_int]
        C = [n * v - sb for v in b_int]
        if n == 1 or not any(W) or not any(C):
            self.last_stage = "zero"
            return _sign(-t)
        keep = self._keep.tolist()
        W = [W[v] for v in keep]
        C = [C[v] for v in keep]
        T = t * n * n  # compare V = W^T A^{-1} C with T = p / q
        p, q = T.numerator, T.denominator
        try:
            return self._lift(W, C, p, q)
        except _Stalled:
            pass
        if self._exact is None:
            self._exact = ExactLaplacian(self._graph)  # ExactTooLargeError beyond its limits
        phi = self._exact.potentials(b_int)
        self.last_stage = "rational"
        return _sign(sum((Fraction(v) * x for v, x in zip(w_int, phi)), Fraction(0)) - t)

    def _lift(self, W: list[int], C: list[int], p: int, q: int) -> int:
        H = self._separation()
        W1 = sum(abs(v) for v in W)
        bound_const = W1 * self._M  # |W^T A^{-1} r| <= bound_const * max|r|
        sep = 2 * bound_const * H * q  # a tie is proved once max|r| * sep < 2^S
        # Work, checked before the factorization: a step solves with the factor (at most the
        # envelope, twice) and multiplies by A; a tie takes about log2(sep max|C|) bits, and a
        # run gaining fewer than _MIN_BITS bits a step is handed to the rational solver.
        max_steps = (sep * max(abs(v) for v in C)).bit_length() // _MIN_BITS + 9
        step_cost = 4 * self._envelope + 8 * self._A.nnz + 16 * self.n
        try:
            check_work(max_steps * step_cost, f"an exact decision by numeric lifting on a graph on n={self.n} vertices "
                       f"(up to {max_steps} sparse solves)", "use a learner whose decisions are exact integers, e.g. "
                       "BSTPerceptron.from_graph(G, seed)")
        except ValueError as refusal:
            raise ExactTooLargeError(str(refusal)) from None
        acc, S = 0, 0
        history = []
        for step, (_, shift, _, rmax, wd) in enumerate(self._steps(C, max_steps, W), start=1):
            self.last_steps = step
            acc = (acc << shift) + wd
            S += shift
            # V = acc / 2^S + e with |e| <= bound_const * rmax / 2^S; compare with p / q
            diff = acc * q - p * (1 << S)
            if rmax == 0:  # the lifting ended: V = acc / 2^S exactly (a binary fraction)
                self.last_stage = "exact"
                return _sign(diff)
            err = bound_const * rmax * q
            if diff > err:
                self.last_stage = "float" if step == 1 else "lifted"
                return 1
            if diff < -err:
                self.last_stage = "float" if step == 1 else "lifted"
                return -1
            if rmax * sep < (1 << S):
                self.last_stage = "tie"
                return 0
            # progress: certified bits S - log2(rmax) must grow
            history.append(S - rmax.bit_length())
            if len(history) > 8 and history[-1] - history[-9] < 8 * _MIN_BITS:
                raise _Stalled
        raise _Stalled

    def _steps(self, C: list[int], max_steps: int, W: list[int] | None = None):
        """Numeric lifting of ``A^{-1} C``: yields ``(d_k, s_k, r_{k+1}, max|r_{k+1}|, W^T d_k)``.

        ``r_{k+1} = 2^s_k r_k - A d_k``; ``W^T d_k`` is an exact Python integer when ``W`` is
        given, else None.  One step is two compiled loops: the float solve with the explicit
        triangular factors (:class:`_TriangularFactor`) and the exact int64 residual fused with
        the rounding of ``d_k`` and the product ``W^T d_k``.

        Every integer is exact (int64 with the bounds checked before each step); ``_Stalled``
        when an input is too large for the float solve.  Stops after ``max_steps`` steps or a
        zero residual.
        """
        fac = self._factor()
        if max(abs(v) for v in C) >= 2**52:
            raise _Stalled  # too large for the float solve's exact input; let the rational solver decide
        r = np.array(C, dtype=np.int64)
        rmax = int(np.abs(r).max())
        size = r.size
        y, work = np.empty(size), np.empty(size)
        W1 = 0 if W is None else sum(abs(v) for v in W)
        # W^T d in two int64 sums, d cut at bit _PIECE: exact while W1 2^_PIECE < 2^62 (the low
        # pieces) and W1 (max|d| >> _PIECE + 1) < 2^62 (the high ones, checked at each step)
        Wa = (np.array(W, dtype=np.int64) if W is not None and W1 < 2 ** (62 - _PIECE)
              else np.zeros(0, dtype=np.int64))
        for _ in range(max_steps):
            if rmax == 0:
                return
            if isinstance(fac, _TriangularFactor):
                ymax = fac.solve_int(r, y, work)
            else:  # any object with a float solve (the tests substitute inaccurate ones)
                y = np.asarray(fac.solve(r.astype(float)), dtype=float)
                ymax = float(np.abs(y).max())
            if not np.isfinite(ymax):
                raise _Stalled
            s = 0 if ymax == 0 else max(0, min(52, _LIFT_BITS - 1 - math.frexp(ymax)[1]))
            while True:  # every int64 below is exact: |2^s r| + |A| |d| < 2^62, |d| < d_bound
                d_bound = math.ldexp(ymax, s) + 1
                if d_bound < 2.0**52 and (rmax << s) + self._abs_row * int(d_bound) < 2**62:
                    break
                if s == 0:
                    raise _Stalled
                s -= 1
            pieces = W is not None and Wa.size > 0 and W1 * ((int(d_bound) >> _PIECE) + 1) < 2**62
            d = np.empty(size, dtype=np.int64)
            rmax_new, high, low = _lift_residual(y, s, *self._coo, r, d, Wa if pieces else Wa[:0], _PIECE)
            rmax = int(rmax_new)
            wd = None
            if W is not None:
                wd = ((int(high) << _PIECE) + int(low) if pieces
                      else sum(a * x for a, x in zip(W, d.tolist())))
            yield d, s, r, rmax, wd

    def potentials_at(self, b, vertices) -> dict[int, Fraction]:
        """Exact ``(L^+ b)[v]`` for the vertices ``v`` asked for: one lifting, no rational solve.

        The lifting runs until every value is known to within ``1 / (2 H^2)`` (``H`` the
        Hadamard bound on ``tau(G)``, which every denominator divides); a first value is then
        rebuilt by continued fractions (``limit_denominator(H)``) and the others, sharing its
        denominator ``D``, by rounding ``D x`` — proved integral because a non-integer would be
        at least ``1 / H`` from the integers.  About twice the steps of a tie in :meth:`compare`.

        Parameters
        ----------
        b : sequence of int
            Integer vector, one entry per vertex.
        vertices : iterable of int
            The vertices whose potentials are wanted.

        Returns
        -------
        dict
            Vertex to :class:`fractions.Fraction`.

        Examples
        --------
        >>> import networkx as nx
        >>> pot = LaplacianFunctional(nx.wheel_graph(5)).potentials_at([0, 1, 0, 0, -1], [1, 2, 0])
        >>> {v: str(x) for v, x in sorted(pot.items())}
        {0: '0', 1: '4/15', 2: '1/15'}
        """
        b_int = self._vector(b, "b")
        n = self.n
        wanted = sorted({int(v) for v in vertices})
        if any(not 0 <= v < n for v in wanted):
            raise ValueError(f"vertices must be vertices of the graph, 0 .. {n - 1}; got {wanted}")
        sb = sum(b_int)
        C_full = [n * v - sb for v in b_int]
        if n == 1 or not any(C_full):
            return {v: Fraction(0) for v in wanted}
        keep = self._keep.tolist()
        C = [C_full[v] for v in keep]
        pos = {v: k for k, v in enumerate(keep)}  # the ground has psi = 0
        idx = np.array([pos[v] for v in wanted if v != self._ground], dtype=np.int64)
        H, M = self._separation(), self._M
        # values: psi at idx, then sum(psi); |error| <= ||w||_1 M rmax / 2^S, ||w||_1 <= n
        need = 2 * n * M * H * H
        max_steps = (need * max(abs(v) for v in C)).bit_length() // _MIN_BITS + 9
        step_cost = 4 * self._envelope + 8 * self._A.nnz + 16 * self.n
        try:
            check_work(max_steps * step_cost, f"exact potentials by numeric lifting on a graph on n={n} vertices "
                       f"(up to {max_steps} sparse solves)", "use a learner whose decisions are exact integers, e.g. "
                       "BSTPerceptron.from_graph(G, seed)")
        except ValueError as err:
            raise ExactTooLargeError(str(err)) from None
        acc = np.zeros(idx.size + 1, dtype=object)
        S, history, outcome = 0, [], "stalled"
        try:
            for d, shift, _, rmax, _ in self._steps(C, max_steps):
                exact64 = int(np.abs(d).max()) * d.size < 2**62  # the int64 sum is exact
                total = int(d.sum(dtype=np.int64)) if exact64 else sum(int(x) for x in d.tolist())
                acc = acc * (1 << shift) + np.append(d[idx].astype(object), total)
                S += shift
                if rmax == 0:  # A^{-1} C is the binary fraction acc / 2^S
                    outcome = "exact"
                    break
                if rmax * need < (1 << S):  # every value within 1 / (2 H^2)
                    outcome = "close"
                    break
                history.append(S - rmax.bit_length())
                if len(history) > 8 and history[-1] - history[-9] < 8 * _MIN_BITS:
                    break
        except _Stalled:
            pass
        if outcome == "stalled":
            if self._exact is None:
                self._exact = ExactLaplacian(self._graph)  # ExactTooLargeError beyond its limits
            phi = self._exact.potentials(b_int)
            return {v: phi[v] for v in wanted}
        scale = 1 << S
        if outcome == "exact":
            values = [Fraction(int(a), scale) for a in acc.tolist()]
        else:
            values, D = [], 1
            for a in acc.tolist():
                N, rem = divmod(a * D + scale // 2, scale)  # N = round(a D / 2^S)
                if abs(rem - scale // 2) * 2 * H >= scale:  # D x not provably an integer: rebuild x
                    x = Fraction(a, scale).limit_denominator(H)
                    D = D * x.denominator // math.gcd(D, x.denominator)
                    values.append(x)
                else:
                    values.append(Fraction(N, D))
        psi = dict(zip([v for v in wanted if v != self._ground], values[:-1]))
        psi[self._ground] = Fraction(0)
        mean = values[-1] / n  # sum over the grounded vertices; psi_g = 0
        return {v: (psi[v] - mean) / n for v in wanted}

    def resistance(self, i: int, j: int) -> Fraction:
        """The exact effective resistance ``R_ij`` (a rational), by :meth:`potentials_at`.

        Examples
        --------
        >>> import networkx as nx
        >>> LaplacianFunctional(nx.complete_graph(4)).resistance(0, 3)
        Fraction(1, 2)
        """
        b = np.zeros(self.n, dtype=np.int64)
        b[i] += 1
        b[j] -= 1
        pot = self.potentials_at(b, [i, j])
        return pot[i] - pot[j]


def _fischer_bound(A, block: int) -> int:
    """An integer ``H >= det A`` for a symmetric positive definite integer sparse matrix ``A``.

    Fischer's inequality, ``det A <= prod_k det A[B_k, B_k]`` for any partition of the indices
    into blocks ``B_k``, with breadth-first balls of at most ``block`` indices (grown in the
    graph of ``A`` from the lowest unassigned index) and each block's determinant an exact
    integer (FLINT).  Blocks of one index give Hadamard's ``prod_v A[v, v]``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> A = sp.csr_matrix(np.array([[2, -1, 0], [-1, 2, -1], [0, -1, 2]], dtype=np.int64))
    >>> _fischer_bound(A, 1), _fischer_bound(A, 2), _fischer_bound(A, 3)   # det A = 4
    (8, 6, 4)
    """
    import flint

    A = A.tocsr()
    size = A.shape[0]
    indptr, indices, data = A.indptr.tolist(), A.indices.tolist(), A.data.tolist()
    diag = A.diagonal().tolist()
    assigned = [False] * size
    H = 1
    for seed in range(size):
        if assigned[seed]:
            continue
        ball, head = [seed], 0
        assigned[seed] = True
        while head < len(ball) and len(ball) < block:
            u = ball[head]
            head += 1
            for w in indices[indptr[u]:indptr[u + 1]]:
                if not assigned[w]:
                    assigned[w] = True
                    ball.append(w)
                    if len(ball) == block:
                        break
        if len(ball) == 1:
            H *= int(diag[seed])
            continue
        local = {v: k for k, v in enumerate(ball)}
        sub = flint.fmpz_mat(len(ball), len(ball))
        for k, u in enumerate(ball):
            for pos in range(indptr[u], indptr[u + 1]):
                other = local.get(indices[pos])
                if other is not None:
                    sub[k, other] = data[pos]
        H *= int(sub.det())
    return H


class _TriangularFactor:
    """The explicit factors of a SuperLU factorization, solved by compiled loops.

    SuperLU factors ``Pr A Pc = L U``; SuperLU's own solve walks its supernodes, which on a
    graph Laplacian are small.  Two plain sweeps over the compressed columns of the factors are
    faster, and the lifting's solve reads its int64 residual directly.  With a symmetric
    permutation (``Pr = Pc^T``, SuperLU's symmetric mode with diagonal pivots on a symmetric
    positive definite ``A``) ``U`` equals ``D L^T`` up to rounding (``D`` the diagonal of
    ``U``), so only ``L`` and ``D`` are kept and read by both sweeps: half the memory traffic.
    The solves are floating point: their accuracy only sets how many bits a lifting step gains.

    Parameters
    ----------
    lu : scipy.sparse.linalg.SuperLU
        The factorization of a square matrix.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from scipy.sparse.linalg import splu
    >>> A = sp.csc_matrix(np.array([[2.0, -1, 0], [-1, 2, -1], [0, -1, 2]]))
    >>> bool(np.allclose(_TriangularFactor(splu(A)).solve(np.array([1.0, 0, 1])), [1, 1, 1]))
    True
    """

    def __init__(self, lu):
        L, U = lu.L.tocsc(), lu.U.tocsc()
        L.sort_indices()
        U.sort_indices()
        size = L.shape[0]
        if not (np.array_equal(L.indices[L.indptr[:-1]], np.arange(size))
                and np.array_equal(U.indices[U.indptr[1:] - 1], np.arange(size))):
            raise RuntimeError("the LU factors must hold their diagonals (SuperLU's L and U always do)")
        self.perm_r = np.asarray(lu.perm_r, dtype=np.int64)
        self.perm_c = np.asarray(lu.perm_c, dtype=np.int64)
        self.L = (L.indptr, L.indices, L.data.astype(float))
        self.symmetric = bool(np.array_equal(self.perm_r, self.perm_c) and L.nnz == U.nnz)
        if self.symmetric:  # U = D L^T: keep the diagonal only
            self.U = (U.indptr[:1], U.indices[:0], U.diagonal().astype(float))
        else:
            self.U = (U.indptr, U.indices, U.data.astype(float))
        self.nnz = int(L.nnz + U.nnz)

    def solve(self, b: np.ndarray) -> np.ndarray:
        """``A^{-1} b`` in floating point."""
        b = np.asarray(b, dtype=float)
        y, work = np.empty_like(b), np.empty_like(b)
        self.solve_int(b, y, work)
        return y

    def solve_int(self, r: np.ndarray, y: np.ndarray, work: np.ndarray) -> float:
        """``y = A^{-1} r`` in floating point for an int64 (or float) ``r``; returns ``max |y|``."""
        if self.symmetric:
            return float(_ldl_solve(*self.L, self.U[2], self.perm_r, self.perm_c, r, y, work))
        return float(_lu_solve(*self.L, *self.U, self.perm_r, self.perm_c, r, y, work))


@numba.njit(cache=True, nogil=True)
def _forward(Lp, Li, Lx, perm_r, b, z):  # pragma: no cover - compiled
    """``z = L^{-1} Pr b`` (``L`` unit lower, compressed columns, its ones first in each column)."""
    for i in range(b.shape[0]):
        z[perm_r[i]] = float(b[i])
    for j in range(b.shape[0]):
        zj = z[j]
        if zj != 0.0:
            for k in range(Lp[j] + 1, Lp[j + 1]):
                z[Li[k]] -= Lx[k] * zj


@numba.njit(cache=True, nogil=True)
def _unpermute(perm_c, z, y):  # pragma: no cover - compiled
    """``y = Pc z``; returns ``max |y|`` (NaN if any entry is NaN)."""
    ymax = 0.0
    for i in range(z.shape[0]):
        v = z[perm_c[i]]
        y[i] = v
        a = abs(v)
        if a > ymax or a != a:
            ymax = a
    return ymax


@numba.njit(cache=True, nogil=True)
def _ldl_solve(Lp, Li, Lx, D, perm_r, perm_c, b, y, z):  # pragma: no cover - compiled
    """``y = Pc (L D L^T)^{-1} Pr b``: the forward sweep, then ``L^T`` by dot products over ``L``'s columns."""
    _forward(Lp, Li, Lx, perm_r, b, z)
    for j in range(b.shape[0] - 1, -1, -1):
        acc = z[j] / D[j]
        for k in range(Lp[j] + 1, Lp[j + 1]):
            acc -= Lx[k] * z[Li[k]]
        z[j] = acc
    return _unpermute(perm_c, z, y)


@numba.njit(cache=True, nogil=True)
def _lu_solve(Lp, Li, Lx, Up, Ui, Ux, perm_r, perm_c, b, y, z):  # pragma: no cover - compiled
    """``y = Pc U^{-1} L^{-1} Pr b`` (``U`` upper, compressed columns, its diagonal last in each column)."""
    _forward(Lp, Li, Lx, perm_r, b, z)
    for j in range(b.shape[0] - 1, -1, -1):
        last = Up[j + 1] - 1
        zj = z[j] / Ux[last]
        z[j] = zj
        if zj != 0.0:
            for k in range(Up[j], last):
                z[Ui[k]] -= Ux[k] * zj
    return _unpermute(perm_c, z, y)


@numba.njit(cache=True, nogil=True)
def _lift_residual(y, s, rows, cols, vals, r, d, W, piece):  # pragma: no cover - compiled
    """One exact lifting step in int64: ``d = rint(2^s y)``, ``r <- 2^s r - A d``.

    ``A`` is given by its nonzeros ``A[rows[k], cols[k]] = vals[k]`` (a scatter loop: a
    gathering one is vectorised into slow gather instructions).  Returns ``max |r|`` and, when
    ``W`` is not empty, ``W^T d`` as two sums, over the high pieces ``d >> piece`` and the low
    pieces ``d & (2^piece - 1)``, so that ``W^T d = high 2^piece + low``.  The caller has
    checked that nothing overflows int64.
    """
    size = y.shape[0]
    scale = 2.0**s
    for i in range(size):
        d[i] = np.int64(np.rint(y[i] * scale))
        r[i] = r[i] << s
    for k in range(rows.shape[0]):
        r[rows[k]] -= vals[k] * d[cols[k]]
    rmax = np.int64(0)
    for i in range(size):
        a = r[i] if r[i] >= 0 else -r[i]
        if a > rmax:
            rmax = a
    high = np.int64(0)
    low = np.int64(0)
    if W.shape[0] > 0:
        mask = (np.int64(1) << piece) - 1
        for i in range(size):
            high += W[i] * (d[i] >> piece)
            low += W[i] * (d[i] & mask)
    return rmax, high, low


class _Stalled(Exception):
    """The float solves gain no bits: the decision goes to the rational solver."""


def _exact_threshold(threshold) -> Fraction:
    if isinstance(threshold, (bool, np.bool_)):
        raise TypeError(f"threshold must be a number (int, Fraction or float), got {threshold!r}")
    if isinstance(threshold, (int, np.integer, Fraction)):
        return Fraction(int(threshold)) if not isinstance(threshold, Fraction) else threshold
    if isinstance(threshold, (float, np.floating)):
        if not math.isfinite(threshold):
            raise ValueError(f"threshold must be finite, got {threshold!r}")
        return Fraction(float(threshold))
    raise TypeError(f"threshold must be a number (int, Fraction or float), got {threshold!r} "
                    f"({type(threshold).__name__})")


def _sign(x) -> int:
    return (x > 0) - (x < 0)


def laplacian_functional_sign(G: nx.Graph, w, b, threshold=0) -> int:
    """The exact sign of ``w^T L^+ b - threshold`` (one call of :meth:`LaplacianFunctional.compare`).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.
    w, b : sequence of int
        Integer vectors, one entry per vertex.
    threshold : int, fractions.Fraction or float, default 0

    Returns
    -------
    int
        ``1``, ``0`` or ``-1``.

    Examples
    --------
    >>> import networkx as nx
    >>> laplacian_functional_sign(nx.cycle_graph(4), [1, 0, -1, 0], [1, 0, -1, 0], threshold=1)   # R_02 = 1
    0
    """
    return LaplacianFunctional(G).compare(w, b, threshold)


def laplacian_pinv_fraction(G: nx.Graph) -> list[list[Fraction]]:
    """``L^+`` in exact rationals by plain Gauss–Jordan elimination: the reference of :class:`ExactLaplacian`.

    ``L^+ = (L + J/n)^{-1} - J/n`` (``J`` the all-ones matrix; ``L + J/n`` is positive
    definite on a connected graph, so no pivot vanishes), every entry a
    :class:`fractions.Fraction`.  ``O(n^3)`` Python operations on growing rationals: written
    to be read and checked, not to be fast (:class:`ExactLaplacian` solves with FLINT), and
    meant for graphs of a few dozen vertices.

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.

    Returns
    -------
    list of list of fractions.Fraction
        The ``n x n`` matrix ``L^+``, row by row.

    Examples
    --------
    >>> import networkx as nx
    >>> [[str(v) for v in row] for row in laplacian_pinv_fraction(nx.path_graph(3))]
    [['5/9', '-1/9', '-4/9'], ['-1/9', '2/9', '-1/9'], ['-4/9', '-1/9', '5/9']]
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    check_work(float(n) ** 3, f"laplacian_pinv_fraction on n={n} vertices (n^3 rational operations)",
               "use ExactLaplacian(G), which solves with FLINT")
    J = Fraction(1, n)
    A = [[J - (1 if u != v and G.has_edge(u, v) else 0) for v in range(n)] for u in range(n)]
    for u in range(n):
        A[u][u] = J + G.degree(u)
    inv = [[Fraction(int(u == v)) for v in range(n)] for u in range(n)]
    for col in range(n):  # A is positive definite: the diagonal pivot never vanishes
        p = A[col][col]
        A[col] = [v / p for v in A[col]]
        inv[col] = [v / p for v in inv[col]]
        for row in range(n):
            f = A[row][col]
            if row != col and f:
                A[row] = [a - f * b for a, b in zip(A[row], A[col])]
                inv[row] = [a - f * b for a, b in zip(inv[row], inv[col])]
    return [[inv[u][v] - J for v in range(n)] for u in range(n)]
