"""Every mistake bound of the package, named after its learner, and their ingredients.

``comparator_norm_sq`` computes a bound's ingredient from cut counts, without ``m x m`` matrices.

The Perceptron bound of Proposition 2 is ``R^2 ||U||_F^2`` with the comparator
``U = Psi (sum_k u_k u_k^T) Psi^T`` (:func:`~simpred_lite.learners.instances.comparator_matrix`,
dense ``m x m``).  With ``A = Psi [u_1 ... u_K]`` (``m x K``, row ``e`` is ``+1`` / ``-1`` in
the columns of the two classes a cut edge joins, zero on other edges),
``||U||_F^2 = ||A A^T||_F^2 = ||A^T A||_F^2`` and ``A^T A`` is the ``K x K`` matrix with
``|Phi_k|`` on the diagonal (cut edges touching class ``k``) and ``-|Phi_kl|`` off it (cut
edges between ``k`` and ``l``).  Hence

    ||U||_F^2 = sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2,

an ``O(m + K^2)`` count instead of ``O(m^2)`` memory.
"""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import numpy as np

from ..bst import BinarySupportTree
from ..checks import check_int, check_real
from ..graphs import cut_size, validate_graph, validate_labels
from .classifiers import GraphKernel
from .unknown import rnorm_exponent

__all__ = [
    "PAPER_BETA",
    "comparator_norm_sq",
    "bst_comparator_norm_sq",
    "union_find_mistake_bound",
    "certified_matrix_perceptron_bound",
    "certified_matrix_winnow_bound",
    "bst_perceptron_mistake_bound",
    "certified_graph_perceptron_bound",
    "halving_mistake_bound",
    "BOUND_DIGITS",
    "certified_bound",
    "graph_perceptron_mistake_bound",
    "matrix_perceptron_mistake_bound",
    "matrix_winnow_mistake_bound",
    "tree_winnow_mistake_bound",
    "rnorm_perceptron_mistake_bound",
    "rnorm_perceptron_cut_bound",
    "paired_permutation_mistake_bound",
    "reduction_constant",
    "similarity_from_classifier_mistake_bound",
]

#: The paper's discount β of the weighted masters (reductions, paired permutations): it
#: minimises ``c_2(β)``, the worst case of :func:`reduction_constant` over ``K >= 2``.
PAPER_BETA = 0.294


def comparator_norm_sq(G: nx.Graph, labels) -> int:
    """``||U||_F^2`` of Proposition 2's comparator, from cut counts in ``O(m + K^2)``.

    Parameters
    ----------
    G : networkx.Graph
        Connected, unweighted, vertices ``0 .. n-1``.
    labels : array_like of int
        Class of each vertex.

    Returns
    -------
    int
        ``sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2`` (ordered pairs ``k != l``).

    Examples
    --------
    >>> comparator_norm_sq(nx.path_graph(4), [0, 0, 1, 1])     # one cut edge: 1 + 1 + 2 * 1
    4
    >>> comparator_norm_sq(nx.path_graph(3), [0, 1, 2])        # |Phi_1| = 2: 1 + 4 + 1 + 2 * (1 + 1)
    10
    """
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    edges = np.array(list(G.edges), dtype=np.int64).reshape(-1, 2)
    a, b = y[edges[:, 0]], y[edges[:, 1]]
    cut = a != b
    K = int(y.max()) + 1
    between = np.zeros((K, K), dtype=np.int64)
    np.add.at(between, (a[cut], b[cut]), 1)
    between = between + between.T  # |Phi_kl|, symmetric, zero diagonal
    touching = between.sum(axis=1)  # |Phi_k|
    return int((touching**2).sum() + (between**2).sum())


def bst_comparator_norm_sq(bst: BinarySupportTree, labels) -> int:
    """``||U_B||_F^2`` of Proposition 2's comparator on the Binary Support Tree ``bst``.

    The same count as :func:`comparator_norm_sq`, read straight from the heap arrays (the
    edge of heap vertex ``c`` runs to ``c // 2``): no networkx copy of the tree, so it costs
    ``O(N + K^2)`` for ``N`` leaves.  ``u_k`` is the indicator of class ``k`` on the vertices of
    ``B`` (labels propagated as in :meth:`BinarySupportTree.propagate_labels`), and
    ``||U_B||_F^2 = sum_k |Phi^B_k|^2 + sum_{k != l} |Phi^B_kl|^2 <= 4 |Phi^B|^2``.

    Parameters
    ----------
    bst : BinarySupportTree
    labels : array_like of int
        Class of each graph vertex ``0 .. n-1``.

    Returns
    -------
    int

    Examples
    --------
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> B.cut_size([0, 0, 1, 1]), bst_comparator_norm_sq(B, [0, 0, 1, 1])   # 2 classes: 4|Phi|^2
    (1, 4)
    """
    if not isinstance(bst, BinarySupportTree):
        raise TypeError(f"bst must be a BinarySupportTree, got {type(bst).__name__}")
    y = np.asarray(bst.propagate_labels(labels), dtype=np.int64)
    child = np.arange(2, 2 * bst.num_leaves)
    a, b = y[child // 2], y[child]
    cut = a != b
    _, codes = np.unique(y[1:], return_inverse=True)  # classes 0..K-1 of the heap vertices 1..2N-1
    code = np.concatenate([[0], codes.reshape(-1)])
    K = int(codes.max()) + 1
    between = np.zeros((K, K), dtype=np.int64)
    np.add.at(between, (code[child // 2][cut], code[child][cut]), 1)
    between = between + between.T
    touching = between.sum(axis=1)
    return int((touching**2).sum() + (between**2).sum())


def union_find_mistake_bound(n: int, K: int) -> int:
    """``n - K``: the bound of :class:`~simpred_lite.learners.UnionFindLearner` (``default=1``).

    Parameters
    ----------
    n : int
        Number of vertices.
    K : int
        Number of classes present.

    Examples
    --------
    >>> union_find_mistake_bound(34, 2)
    32
    """
    return check_int(n, "n", low=1) - check_int(K, "K", low=1)


def certified_matrix_perceptron_bound(learner, on, labels) -> float:
    """Proposition 2's ``R^2 ||U||_F^2`` for a Matrix Perceptron, to the digits that are the same everywhere.

    Parameters
    ----------
    learner : MatrixPerceptron
        Gives ``R``, its rigorous error ``R_error`` and the exact ``R^2`` (:func:`certified_bound`).
    on : networkx.Graph or BinarySupportTree
        What the learner runs on: ``U`` is the comparator there.
    labels : array_like of int

    Examples
    --------
    >>> from simpred_lite.learners import MatrixPerceptron
    >>> G = nx.path_graph(4)
    >>> certified_matrix_perceptron_bound(MatrixPerceptron(G), G, [0, 0, 1, 1])   # R^2 = 9, ||U||^2 = 4
    36.0
    """
    U = bst_comparator_norm_sq(on, labels) if isinstance(on, BinarySupportTree) else comparator_norm_sq(on, labels)
    return certified_bound(lambda R: matrix_perceptron_mistake_bound(R, U), learner.R, learner.R_error,
                           exact=lambda: learner.exact_R2() * U)


def certified_matrix_winnow_bound(learner, on, labels) -> float | None:
    """Proposition 2's ``(e^eta + 1)/eta R |Phi| ln m`` for a Matrix Winnow, certified digits.

    ``None`` when the learner's threshold was set with another ``|Phi|`` than the labels'
    (an oracle guessed wrong: the proposition then promises nothing).

    Parameters
    ----------
    learner : MatrixWinnow
    on : networkx.Graph or BinarySupportTree
        What the learner runs on (``|Phi|`` is counted there).
    labels : array_like of int

    Examples
    --------
    >>> from simpred_lite.learners import MatrixWinnow
    >>> G = nx.path_graph(4)
    >>> certified_matrix_winnow_bound(MatrixWinnow(G, cut_size=1), G, [0, 0, 1, 1])
    11.83576
    >>> certified_matrix_winnow_bound(MatrixWinnow(G, cut_size=4), G, [0, 0, 1, 1]) is None
    True
    """
    cut = on.cut_size(labels) if isinstance(on, BinarySupportTree) else cut_size(on, labels)
    if cut != learner.cut_size:
        return None

    def bound_at(R):
        return matrix_winnow_mistake_bound(R, cut, learner.m, learner.eta)

    return certified_bound(bound_at, learner.R, learner.R_error,
                           exact=lambda: bound_at(math.sqrt(float(learner.exact_R2()))))


def bst_perceptron_mistake_bound(bst: BinarySupportTree, labels) -> float:
    """``R^2 ||U_B||_F^2`` with ``R = 2 depth(B)``: the BST Perceptron's bound for *its* BST.

    Parameters
    ----------
    bst : BinarySupportTree
    labels : array_like of int

    Examples
    --------
    >>> bst_perceptron_mistake_bound(BinarySupportTree([0, 1, 2, 3]), [0, 0, 1, 1])   # R = 4
    64.0
    """
    return matrix_perceptron_mistake_bound(2 * bst.depth, bst_comparator_norm_sq(bst, labels))


def certified_graph_perceptron_bound(kernel: GraphKernel, G: nx.Graph, labels) -> int:
    """``floor(||u||^2 R^2)`` for :class:`~simpred_lite.learners.GraphPerceptron` on a 0/1 labeling, certified.

    ``R^2 = max_v (L^+_vv + a)`` comes from a float ``L^+``: the floor is certified with the
    kernel's rigorous entry error (:func:`certified_bound`, exact diagonal entries in the
    rare undecided case), so it is the same on every machine.  Mistakes are integers, so
    ``M <= ||u||^2 R^2`` iff ``M`` is at most this floor.

    Parameters
    ----------
    kernel : GraphKernel
        The kernel of ``G`` the learner uses.
    G : networkx.Graph
    labels : array_like of {0, 1}

    Examples
    --------
    >>> certified_graph_perceptron_bound(GraphKernel(nx.path_graph(4)), nx.path_graph(4), [0, 0, 1, 1])
    7
    """
    y = validate_labels(labels, G.number_of_nodes(), num_classes=2)
    n = len(y)
    diag = kernel.matrix.diagonal()
    R2 = float(diag.max())

    def exact_R2():
        near = np.flatnonzero(diag >= R2 - 2 * kernel.entry_error).tolist()
        return max(kernel.exact_scores(np.eye(n, dtype=np.int64)[v])[v] for v in near)

    u_sum = int((2 * y - 1).sum())
    norm2 = 4 * cut_size(G, y) + Fraction(u_sum * u_sum) / (Fraction(kernel.a) * n * n)  # ||u||^2, exact
    return certified_bound(lambda r2: float(norm2) * r2, R2, kernel.entry_error,
                           exact=lambda: norm2 * exact_R2(), digits=None)


def halving_mistake_bound(num_hypotheses: int) -> int:
    """``floor(log2 |H|)``: the halving algorithm's bound when the truth is in ``H``.

    Parameters
    ----------
    num_hypotheses : int
        ``|H|``.

    Examples
    --------
    >>> halving_mistake_bound(8), halving_mistake_bound(720)
    (3, 9)
    """
    return int(math.floor(math.log2(check_int(num_hypotheses, "num_hypotheses", low=1))))


#: Significant digits of a bound reported by :func:`certified_bound` (rounded down).
BOUND_DIGITS = 7


def _round_down(x, digits: int | None) -> tuple[int, int]:
    """``(q, e)`` with ``q 10^e`` = ``x`` rounded down to ``digits`` significant digits (an integer floor for None)."""
    x = Fraction(x)
    if digits is None or x <= 0:
        return math.floor(x), 0
    e = math.floor(math.log10(float(x)))
    while Fraction(10) ** (e + 1) <= x:  # the exact decimal magnitude, not the float log's
        e += 1
    while Fraction(10) ** e > x:
        e -= 1
    e -= digits - 1
    return math.floor(x / Fraction(10) ** e), e


def certified_bound(bound_at, R: float, R_error: float | None, exact=None, digits: int | None = BOUND_DIGITS):
    """A mistake bound ``B(R)`` rounded down to the digits its computation guarantees: the same on every machine.

    ``B`` is increasing in the resistance diameter ``R``, and the float ``R`` comes from a
    floating-point ``L^+`` whose last digits depend on the BLAS kernel and thread count
    (``69894.19268855629`` on one machine, ``...716`` on another, ``n_jobs=1`` against
    ``n_jobs=2``).  With ``R_error`` a rigorous bound on ``|R - exact R|``, ``B`` is evaluated
    at ``R - R_error`` and ``R + R_error`` (widened by ``1e-13`` relatively for the rounding of
    the formula itself) and both ends are rounded *down* to ``digits`` significant digits
    (default :data:`BOUND_DIGITS` = 7; the certified relative error of ``R`` is ``1e-12`` on
    the karate club and ``3.5e-8`` on the 1797-vertex digits graph, so these digits are
    guaranteed).  When both ends agree, that is the exact bound rounded down, on every machine.
    Otherwise (a rounding point lies inside the band: a chance of about the band's relative
    width times ``10^7``) ``exact()`` decides; without it, or when it
    raises :class:`~simpred_lite.exact.ExactTooLargeError` (graphs beyond about 2000
    vertices) or :class:`~simpred_lite.checks.WorkLimitError` (a sparse kernel whose ``R``
    cannot be certified within the work limit), the lower end is reported, at most the band's
    width below the exact bound.  Rounding down keeps it a bound.

    Parameters
    ----------
    bound_at : callable ``R -> float``
        The bound as a function of ``R`` (non-decreasing).
    R : float
        The float resistance diameter.
    R_error : float or None
        A rigorous bound on ``|R - exact R|`` (``0.0`` when ``R`` is exact); ``None`` when
        unknown (then ``bound_at(R)`` rounded down, not certified).
    exact : callable ``() -> number``, optional
        The bound computed exactly (e.g. a Fraction from an exact ``R^2``), for the rare
        undecided case.
    digits : int or None, default BOUND_DIGITS
        Significant digits kept; ``None`` reports the integer ``floor(B)`` (mistakes are
        integers, so ``M <= B`` iff ``M <= floor(B)``).

    Returns
    -------
    float, or int when ``digits`` is None

    Examples
    --------
    >>> certified_bound(lambda R: 4 * R * R, 3.1234567891, 1e-12)
    39.02392
    >>> certified_bound(lambda R: 4 * R * R, 3.1234567891, 1e-12, digits=None)
    39
    >>> certified_bound(lambda R: 4 * R * R, 2.9999999999999996, 1e-12)   # 36 inside the band, no exact value
    35.99999
    >>> certified_bound(lambda R: 4 * R * R, 2.9999999999999996, 1e-12, exact=lambda: Fraction(36))
    36.0
    """
    if R_error is None:
        q, e = _round_down(bound_at(float(R)), digits)
    else:
        R_error = check_real(R_error, "R_error", low=0)
        lo = _round_down(bound_at(max(float(R) - R_error, 0.0)) * (1 - 1e-13), digits)
        hi = _round_down(bound_at(float(R) + R_error) * (1 + 1e-13), digits)
        q, e = lo
        if lo != hi and exact is not None:
            from ..checks import WorkLimitError
            from ..exact import ExactTooLargeError

            try:
                q, e = _round_down(exact(), digits)
            except (ExactTooLargeError, WorkLimitError):  # the exact value is out of reach: keep the lower end
                pass
    if digits is None:
        return int(q)
    return float(f"{q}e{e}")  # the decimal, correctly rounded: its repr shows just these digits


def graph_perceptron_mistake_bound(G: nx.Graph, labels, a: float = 1.0) -> float:
    """Novikoff's bound ``||u||^2 R^2`` for :class:`GraphPerceptron` on a 0/1 labeling.

    ``||u||^2 = 4 |Phi^G(y)| + (sum_v u_v)^2 / (a n^2)`` with ``u = 2y - 1`` and
    ``R^2 = max_v (L^+_vv + a)``.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of {0, 1}
        A two-class labeling of the vertices.
    a : float, default 1.0
        The kernel's bias (``L^+ + a 11^T``), as in :class:`~simpred_lite.learners.GraphPerceptron`.

    Examples
    --------
    >>> import networkx as nx
    >>> round(graph_perceptron_mistake_bound(nx.path_graph(4), [0, 0, 1, 1]), 4)
    7.5
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    y = validate_labels(labels, n, num_classes=2)
    kernel = GraphKernel(G, a).matrix
    u_sum = float((2 * y - 1).sum())
    norm2 = 4 * cut_size(G, y) + u_sum**2 / (float(a) * n * n)
    return float(norm2 * kernel.diagonal().max())


def matrix_perceptron_mistake_bound(R: float, U_norm_sq: float) -> float:
    """``R^2 ||U||_F^2``: the mistake bound of Algorithm 1's Perceptron (threshold ``R^2``).

    Proof (Novikoff with a threshold): with ``Delta = ||W - R^2 U||^2``, a mistake on a
    dissimilar pair (``<W,X> <= R^2``, ``<U,X> = 2``) changes ``Delta`` by
    ``2<W,X> - 4R^2 + ||X||^2 <= -R^2``; one on a similar pair (``<W,X> > R^2``,
    ``<U,X> = 0``) by ``-2<W,X> + ||X||^2 < -R^2``.  ``Delta`` starts at
    ``R^4 ||U||^2`` and stays ``>= 0``.

    Parameters
    ----------
    R : float
        The instances' radius (``R^2`` is the threshold).
    U_norm_sq : float
        ``||U||_F^2`` of the comparator (:func:`comparator_norm_sq`).

    Examples
    --------
    >>> matrix_perceptron_mistake_bound(3.0, 4.0)
    36.0
    """
    return float(R) ** 2 * float(U_norm_sq)


def matrix_winnow_mistake_bound(R: float, cut: float, m: int, eta: float = 1.28) -> float:
    """``(e^eta + 1) / eta * R |Phi| ln m``: the mistake bound of Algorithm 1's Matrix Winnow.

    Proof (Warmuth's relative-entropy argument, unnormalised): the comparator
    ``U / tr U`` (``tr U = 2|Phi|``) has ``<U/trU, X^w> >= delta = 1/(R|Phi|)`` on dissimilar
    pairs and ``0`` on similar ones.  By Golden–Thompson and ``e^{aX} <= I + (e^a - 1) X``,
    a promotion gains at least ``eta delta - (e^eta - 1) theta`` and a demotion at least
    ``(1 - e^-eta) theta`` of relative entropy; the threshold ``theta = eta delta /
    (e^eta - e^-eta)`` equalises both at ``eta delta / (e^eta + 1)``, and the entropy starts
    below ``ln m``.  ``eta = 1.28`` (the root of ``e^eta (eta - 1) = 1``) minimises the constant.

    Parameters
    ----------
    R : float
        The instances' radius.
    cut : float
        The cut size ``|Phi|`` of the labeling.
    m : int
        Number of edges (the weight matrix is ``m x m``).
    eta : float, default 1.28
        Matrix Winnow's learning rate.

    Examples
    --------
    >>> round(matrix_winnow_mistake_bound(2.0, 1, 7), 3)   # 3.591 * 2 * 1 * ln 7
    13.976
    """
    return (math.exp(eta) + 1.0) / eta * float(R) * float(cut) * math.log(m)


def tree_winnow_mistake_bound(n: int, k: int, alpha: float = 2.0, threshold: float | None = None) -> int:
    """Mistake bound of :class:`TreeWinnow` on a tree whose ``K = k + 1`` classes are connected.

    With ``N = n - 1`` weights and ``k`` relevant ones (the cut edges):
    a relevant weight is never demoted and is promoted only while below the threshold
    ``theta``, so there are at most ``P = k * ceil(log_alpha theta)`` promotions; the total
    weight starts at ``N``, grows by less than ``(alpha - 1) theta`` per promotion and
    drops by at least ``(1 - 1/alpha) theta`` per demotion and stays positive, so the
    demotions are ``D < (N + (alpha - 1) theta P) / ((1 - 1/alpha) theta)``.
    Returns ``P + D_max`` (exact rational arithmetic).  For ``alpha = 2``, ``theta = N``:
    ``1 + 3 k ceil(log2(n - 1))``.

    Parameters
    ----------
    n : int
        Number of vertices of the tree (``n - 1`` weights).
    k : int
        Number of relevant weights (the cut edges).
    alpha : float, default 2.0
        The promotion factor.
    threshold : float, optional
        ``theta``; ``n - 1`` by default.

    Examples
    --------
    >>> tree_winnow_mistake_bound(1025, 2)
    61
    """
    N = n - 1
    a = Fraction(alpha)
    th = Fraction(N if threshold is None else threshold)
    steps, w = 0, Fraction(1)
    while w < th:  # doublings of one relevant weight before it reaches the threshold
        w *= a
        steps += 1
    P = k * steps
    bound = (N + (a - 1) * th * P) / ((1 - 1 / a) * th)
    D = math.ceil(bound) - 1  # D < bound
    return int(P + D)


_C_RNORM = (1 + 3 * math.e) ** 2 / 16


def rnorm_perceptron_mistake_bound(n: int, target_norm_s: float) -> float:
    """An explicit form of Theorem 5: ``M <= ((1+3e)^2/16) (r-1) ||vec(U)||_s^2``.

    Derivation (the standard p-norm analysis, constants kept): ``F(theta) = ||theta||_r^2/2``
    is ``(r-1)``-smooth w.r.t. ``||.||_r``, so a missed dissimilar pair (``w.v < (r-1)||v||_r^2``)
    raises ``F`` by less than ``(3/2)(r-1)||v||_r^2`` and a missed similar pair
    (``w.v >= (r-1)||v||_r^2``, ``theta -= v``) lowers it by at least ``(1/2)(r-1)||v||_r^2``,
    where ``1 <= ||v||_r^2 = |x_t|^(4/r) <= e``.  Separability (equation (9)) gives
    ``vec(U).theta = 2P`` (``P`` missed dissimilar pairs, ``D`` missed similar ones), and
    Hoelder ``2P <= ||vec U||_s ||theta||_r``.  Hence ``4P^2 <= c (3eP - D)`` with
    ``c = (r-1)||vec U||_s^2``, and ``M = P + D <= (1+3e)P - 4P^2/c <= (1+3e)^2 c / 16``.

    Parameters
    ----------
    n : int
        Number of vertices (``r = 4 ln(n - 1)``).
    target_norm_s : float
        ``||vec(U)||_s`` of the comparator, ``1/r + 1/s = 1``.

    Examples
    --------
    >>> round(rnorm_perceptron_mistake_bound(101, 4.0), 1)
    1460.0
    """
    r = rnorm_exponent(n)
    return _C_RNORM * (r - 1) * float(target_norm_s) ** 2


def rnorm_perceptron_cut_bound(n: int, cut_size: int) -> float:
    """Theorem 5 in terms of the cut: ``M <= ((1+3e)^2/16)(r-1) 16 |Phi^G|^4``.

    Because ``||vec U||_s <= ||vec U||_1 <= sum_k |Phi_k^T|^2 <= (sum_k |Phi_k^G|)^2 = 4|Phi^G|^2``.

    Parameters
    ----------
    n : int
        Number of vertices.
    cut_size : int
        ``|Phi^G|`` of the labeling.

    Examples
    --------
    >>> rnorm_perceptron_cut_bound(101, 1) == rnorm_perceptron_mistake_bound(101, 4.0)
    True
    """
    return rnorm_perceptron_mistake_bound(n, 4.0 * cut_size**2)


def paired_permutation_mistake_bound(K: int, beta: float = PAPER_BETA) -> float:
    """The proof's bound ``(K-1) log2(2/β) / log2(2/(1+β))`` on the class algorithm's mistakes.

    From ``((1+β)/2)^M >= W >= w_{s*} >= (β/2)^(K-1)``.  At ``β = 0.294`` the constant is
    ``4.4035``; the paper's ``4.1`` is a slip (no ``β`` gets below ``4.40``).

    Parameters
    ----------
    K : int
        Number of items.
    beta : float, default PAPER_BETA
        The master's discount, in ``(0, 1)``.

    Examples
    --------
    >>> round(paired_permutation_mistake_bound(2), 4)
    4.4035
    """
    K = check_int(K, "K", low=1)
    beta = check_real(beta, "beta", low=0, high=1, low_inclusive=False, high_inclusive=False)
    return (K - 1) * math.log2(2 / beta) / math.log2(2 / (1 + beta))


def similarity_from_classifier_mistake_bound(B: int, K: int, beta: float = PAPER_BETA) -> float:
    """The bound of Lemma 7, ``c_K(beta) * B``, for a base learner with bound ``B``.

    Parameters
    ----------
    B : int
        The base class learner's mistake bound.
    K : int
        Number of classes.
    beta : float, default PAPER_BETA

    Examples
    --------
    >>> round(similarity_from_classifier_mistake_bound(3, K=3), 3)
    20.78
    """
    B = check_int(B, "B", low=0)
    return reduction_constant(K, beta) * B


def reduction_constant(K: int, beta: float = PAPER_BETA) -> float:
    """``c_K(beta) = log2(K(K-1)/beta) / log2(2/(1+beta))``: mistakes per base mistake.

    Lemma 7 gives ``M <= c_K(beta) * B``.  The paper states ``c_K <= c log2 K`` with
    ``c < 5``; with ``beta = 0.294`` the ratio ``c_K/log2 K`` is 4.4035 at ``K = 2`` and
    decreases with ``K``, so the claim holds for every ``K >= 2``.

    Parameters
    ----------
    K : int
        Number of classes, at least 2.
    beta : float, default PAPER_BETA
        The master's discount, in ``(0, 1)``.

    Examples
    --------
    >>> round(reduction_constant(2), 4), round(reduction_constant(2) / 1.0, 4) < 5
    (4.4035, True)
    >>> round(reduction_constant(5) / math.log2(5), 4)
    4.174
    """
    K = check_int(K, "K", low=2)
    beta = check_real(beta, "beta", low=0, high=1, low_inclusive=False, high_inclusive=False)
    return math.log2(K * (K - 1) / beta) / math.log2(2 / (1 + beta))
