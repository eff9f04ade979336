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

import networkx as nx
import numpy as np

from .checks import LearnerGaveUp, check_memory, check_work
from .graphs import validate_graph

__all__ = ["ExactLaplacian", "ExactTooLargeError", "exact_solve_cost", "pinv_error_bound", "certified_compare",
           "laplacian_pinv_fraction", "UNIT_ROUNDOFF"]

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
