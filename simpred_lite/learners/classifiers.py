"""Online *class* prediction on the vertices of a graph: the learners the reductions plug in.

§2 of the paper compares two games on the same patterns (here the vertices ``0 .. n-1``):

* **class prediction** — on trial ``t`` a vertex ``x_t`` arrives, the learner predicts its
  class ``y_hat_t`` in ``0 .. K-1`` and is told the true class ``y_t``;
* **similarity prediction** — a *pair* arrives and only "similar / dissimilar" is revealed
  (the :class:`~simpred_lite.learners.base.SimilarityLearner` protocol).

The class-prediction protocol, :class:`~simpred_lite.learners.base.ClassLearner`, is the
sibling of the similarity one in :mod:`simpred_lite.learners.base`.

Every learner here is **mistake-driven** (conservative): the base class
:class:`~simpred_lite.learners.base.ClassLearner` calls the update hook only when the prediction was wrong.  This is
not a detail: the master algorithm of Lemma 7 replays *hallucinated* histories into a
classifier, and its proof counts one base-learner mistake per split of a history, which is
only true when a correctly predicted example leaves the learner unchanged.  Any learner
with mistake bound ``B`` can be made conservative without increasing ``B``.

Learners and their mistake behaviour (``f`` is the true labeling):

* :class:`HalvingClassifier` — halving over an explicit finite concept class ``H``
  (e.g. :func:`labelings_with_small_cut`); at most ``floor(log2 |H|)`` mistakes when
  ``f`` is in ``H``.  Tiny instances only.
* :class:`MemorizingClassifier` — the consistent learner that remembers the classes it
  was told; exactly at most ``#{v : f(v) != default}`` mistakes.
* :class:`GraphPerceptron` — the kernel Perceptron with the graph kernel
  ``L^+ + a 11^T`` for 2 classes; at most ``||u||^2 R^2`` mistakes (Novikoff) with
  ``||u||^2 = 4|Phi| + (sum u)^2/(a n^2)``.  Efficient: O(1) per prediction, O(n) per
  mistake.  :class:`GraphPerceptronReference` recomputes every score from scratch.
* :class:`OneVsRest` — the "Lifting 2-class to K-class" appendix: one binary learner per
  class, created when the class first appears; ``M <= sum_k M_k``, hence
  ``M <= 2c|Phi|`` from a binary bound ``c|Phi_k|``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction

import networkx as nx
import numpy as np

from ..checks import (
    check_class_label,
    check_int,
    check_real,
    check_vertex,
)
from ..exact import laplacian_pinv_fraction
from ..graphs import validate_graph, validate_labels
from .base import ClassLearner, check_class_learner

__all__ = [
    "labelings_with_small_cut",
    "HalvingClassifier",
    "MemorizingClassifier",
    "GraphKernel",
    "GraphPerceptron",
    "GraphPerceptronReference",
    "REFERENCE_PERCEPTRON_LIMIT",
    "OneVsRest",
]


def labelings_with_small_cut(G: nx.Graph, K: int, max_cut: int, *, limit: int = 500_000) -> np.ndarray:
    """Every labeling ``y`` in ``{0..K-1}^n`` with cut size ``|Phi^G(y)| <= max_cut``.

    The finite concept class of a halving learner on a tiny graph.  Vertices are labelled
    in the order ``0 .. n-1`` and a partial labeling is dropped as soon as its cut exceeds
    ``max_cut``, so the work is proportional to the answer, not to ``K^n``.

    Parameters
    ----------
    G : networkx.Graph
    K : int
        Number of classes, ``>= 2``.
    max_cut : int
        Largest cut size kept.
    limit : int, default 500000
        Raise ``ValueError`` rather than build more partial labelings than this.

    Returns
    -------
    numpy.ndarray
        Shape ``(|H|, n)``, rows in lexicographic order.

    Examples
    --------
    >>> import networkx as nx
    >>> H = labelings_with_small_cut(nx.path_graph(3), K=2, max_cut=1)
    >>> H.tolist()
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    G = validate_graph(G)
    K = check_int(K, "K", low=2)
    max_cut = check_int(max_cut, "max_cut", low=0)
    n = G.number_of_nodes()
    rows = np.arange(K, dtype=np.int64)[:, None]
    cuts = np.zeros(K, dtype=np.int64)
    for v in range(1, n):
        earlier = [u for u in G.neighbors(v) if u < v]
        if rows.shape[0] * K > limit:
            raise ValueError(
                f"more than limit={limit} partial labelings at vertex {v}: the class is too big "
                "for halving; use a smaller graph, fewer classes or a smaller max_cut"
            )
        labels = np.tile(np.arange(K, dtype=np.int64), rows.shape[0])
        rows = np.repeat(rows, K, axis=0)
        cuts = np.repeat(cuts, K) + (rows[:, earlier] != labels[:, None]).sum(axis=1)
        keep = cuts <= max_cut
        rows = np.hstack([rows[keep], labels[keep, None]])
        cuts = cuts[keep]
    return rows


class HalvingClassifier(ClassLearner):
    """The halving algorithm over an explicit finite concept class ``H``.

    The version space ``V`` starts as ``H``.  Prediction: the class most hypotheses in ``V``
    give to ``x`` (ties to the smallest class).  On a mistake, keep only the hypotheses that
    gave ``x`` its true class — at most half of ``V``, since they got fewer votes than the
    prediction.  Hence, when the true labeling ``f`` is in ``H``,
    ``M <= floor(log2 |H|)`` (:attr:`mistake_bound`).  Exact: votes are integer counts.

    Parameters
    ----------
    hypotheses : array_like, shape (h, n)
        The concept class, one labeling per row, classes ``0 .. K-1``.
    K : int, optional
        Number of classes; by default ``max(hypotheses) + 1`` (at least 2).

    Examples
    --------
    >>> import networkx as nx
    >>> H = labelings_with_small_cut(nx.path_graph(4), K=2, max_cut=1)
    >>> clf = HalvingClassifier(H)
    >>> len(H), clf.mistake_bound()
    (8, 3)
    >>> for x, y in [(0, 1), (3, 0), (1, 1), (2, 0)]:
    ...     clf.learn_class(x, y)
    >>> clf.mistakes <= clf.mistake_bound(), [clf.predict_class(v) for v in range(4)]
    (True, [1, 1, 0, 0])
    """

    def __init__(self, hypotheses, K: int | None = None):
        H = np.asarray(hypotheses)
        if H.ndim != 2 or H.shape[0] == 0 or H.shape[1] == 0:
            raise ValueError(f"hypotheses must be a non-empty 2-d array (one labeling per row), got shape {H.shape}")
        if H.dtype.kind not in "iu":
            raise ValueError(f"hypotheses must hold integer classes 0..K-1, got dtype {H.dtype}")
        if H.min() < 0:
            raise ValueError(f"hypotheses must hold classes 0..K-1, found {H.min()}")
        K = max(2, int(H.max()) + 1) if K is None else K
        super().__init__(H.shape[1], K)
        if H.max() >= self.K:
            raise ValueError(f"a hypothesis uses class {H.max()} but K={self.K}")
        self._H = H.astype(np.int64)
        self._H.setflags(write=False)  # shared by every clone
        self._alive = np.arange(H.shape[0])
        self._votes: np.ndarray | None = None

    oracle = "|Phi|"
    description = "halving over the labelings with at most the true cut (tiny graphs)"
    bound_text = "floor(log2 |H|), when the truth is in H"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """Halving over the labelings of ``G`` whose cut is at most the labels' (the oracle)."""
        from ..graphs import cut_size

        K = max(2, int(np.max(labels)) + 1)
        return cls(labelings_with_small_cut(G, K, cut_size(G, labels)), K)

    def mistake_bound(self, G=None, labels=None) -> int | None:
        """``floor(log2 |H|)``: the halving bound, valid when the truth is in ``H`` (None if ``labels`` is not).

        Parameters
        ----------
        G : networkx.Graph, optional
            Not used: the bound depends on ``H`` only.
        labels : array_like of int, optional
            The truth; when given and not a row of ``H``, the bound does not apply (None).
        """
        from .bounds import halving_mistake_bound

        if labels is not None:
            y = np.asarray(labels)
            if y.shape != self._H.shape[1:] or not (self._H == y).all(axis=1).any():
                return None
        return halving_mistake_bound(self._H.shape[0])

    @property
    def version_space_size(self) -> int:
        """How many hypotheses are still consistent with the mistakes seen."""
        return int(self._alive.size)

    def _predict_class(self, x):
        if self._votes is None:  # one plurality vote per vertex, recomputed once per state
            V = self._H[self._alive]
            counts = (V[:, :, None] == np.arange(self.K)).sum(axis=0)
            self._votes = counts.argmax(axis=1)
        return int(self._votes[x])

    def _learn_class(self, x, y, y_hat):
        self._alive = self._alive[self._H[self._alive, x] == y]
        self._votes = None

    def copy(self):
        new = copy.copy(self)  # shares the read-only H and the (immutable) alive array
        return new

    def state_key(self):
        return self._alive.tobytes()


class MemorizingClassifier(ClassLearner):
    """The consistent learner that remembers each class it was told.

    Predict the remembered class of ``x``, or ``default`` for a vertex never corrected.
    It errs at most once per vertex whose class differs from ``default``, and an
    adversary can make it err on each of them:
    ``mb(f) = #{v : f(v) != default}`` exactly (:meth:`mistake_bound_for`).

    Parameters
    ----------
    n : int
        Number of vertices.
    K : int
        Number of classes.
    default : int, default 0
        The class predicted for a vertex never seen.

    Examples
    --------
    >>> clf = MemorizingClassifier(4, K=3)
    >>> clf.learn_class(2, 1); clf.learn_class(2, 1); clf.learn_class(0, 0)
    >>> clf.mistakes, clf.predict_class(2), clf.mistake_bound_for([0, 0, 1, 2])
    (1, 1, 2)
    """

    def __init__(self, n: int, K: int, default: int = 0):
        super().__init__(n, K)
        self.default = check_class_label(default, self.K)
        self._memory: dict[int, int] = {}

    oracle = "K"
    setting = "class"
    bound_text = "#{v : f(v) != default}"

    def mistake_bound(self, G, labels) -> int:
        """The exact worst case, :meth:`mistake_bound_for` (``G`` is not used)."""
        return self.mistake_bound_for(labels)

    def mistake_bound_for(self, labels) -> int:
        """The exact worst-case number of mistakes on sequences labelled by ``labels``."""
        y = validate_labels(labels, self.n, num_classes=self.K)
        return int((y != self.default).sum())

    def _predict_class(self, x):
        return self._memory.get(x, self.default)

    def _learn_class(self, x, y, y_hat):
        self._memory[x] = y

    def copy(self):
        new = copy.copy(self)
        new._memory = dict(self._memory)
        return new

    def state_key(self):
        return tuple(sorted(self._memory.items()))


class GraphKernel:
    """The kernel ``L^+ + a 11^T`` of a graph, with what it takes to decide on it exactly.

    Holds the float kernel matrix (read-only, shared by every learner built on it), a rigorous
    bound :attr:`entry_error` on the error of each of its entries
    (:func:`~simpred_lite.exact.pinv_error_bound` plus the rounding of adding ``a``), and an
    :class:`~simpred_lite.exact.ExactLaplacian` for the rare decisions the floats cannot
    certify.

    Parameters
    ----------
    G : networkx.Graph
        The graph (``n <= DENSE_LIMIT``: the kernel is dense).
    a : float, default 1.0
        Weight of the constant (bias) part.  Any float is an exact binary fraction, so the
        exact kernel is ``L^+ + Fraction(a) 11^T``.
    pinv : numpy.ndarray, optional
        A float pseudoinverse to use instead of :func:`~simpred_lite.resistance.laplacian_pinv`
        (the tests pass perturbed ones); its error is bounded from its own residual.

    Examples
    --------
    >>> import networkx as nx
    >>> K = GraphKernel(nx.cycle_graph(6))
    >>> K.matrix.shape, K.entry_error < 1e-12
    ((6, 6), True)
    >>> [str(v) for v in K.exact_scores([0, 0, 1, 0, -1, 0])[:4]]
    ['0', '1/3', '2/3', '0']
    """

    def __init__(self, G: nx.Graph, a: float = 1.0, *, pinv: np.ndarray | None = None):
        from ..exact import UNIT_ROUNDOFF, pinv_error_bound
        from ..resistance import laplacian_pinv  # dense L^+, n <= DENSE_LIMIT

        G = validate_graph(G)
        self.n = G.number_of_nodes()
        self.a = check_real(a, "the bias weight a", low=0, low_inclusive=False)
        Lp = laplacian_pinv(G) if pinv is None else np.array(pinv, dtype=float)
        if Lp.shape != (self.n, self.n):
            raise ValueError(f"pinv must be the {self.n}x{self.n} pseudoinverse of G, got shape {Lp.shape}")
        matrix = Lp + self.a
        matrix = (matrix + matrix.T) / 2  # exactly symmetric, so a row and a column hold the same floats
        matrix.setflags(write=False)
        self.matrix = matrix
        self.max_entry = float(np.abs(matrix).max())
        # |matrix - (L^+ + a)| <= |Lp - L^+| + the three roundings of adding a and symmetrising
        self.entry_error = pinv_error_bound(G, Lp) * (1 + 4 * UNIT_ROUNDOFF) + 4 * UNIT_ROUNDOFF * self.max_entry
        # the edge set, kept (a frozen copy: later edits of the caller's graph change nothing) to
        # check that a learner is given the kernel of its own graph, and for the exact solver
        self.edges = frozenset((min(u, v), max(u, v)) for u, v in G.edges)
        self._graph = nx.freeze(G.copy())
        self._exact = None  # ExactLaplacian, built on the first undecided score (it checks its cost then)
        self._functional = None  # LaplacianFunctional, likewise, for one exact decision at a time
        self._a_exact = Fraction(self.a)

    def same_graph(self, G: nx.Graph) -> bool:
        """Whether ``G`` (vertices ``0 .. n-1``) is the graph this kernel was built on.

        Parameters
        ----------
        G : networkx.Graph

        Examples
        --------
        >>> import networkx as nx
        >>> K = GraphKernel(nx.cycle_graph(5))
        >>> K.same_graph(nx.cycle_graph(5)), K.same_graph(nx.path_graph(5))
        (True, False)
        """
        return G.number_of_nodes() == self.n and self.edges == frozenset((min(u, v), max(u, v)) for u, v in G.edges)

    def score_error(self, updates: int) -> float:
        """Bound on ``|s - exact s|`` for a score summed from ``updates`` signed kernel entries.

        Each entry is off by at most :attr:`entry_error`, and each of the ``updates`` float
        additions rounds by at most ``u`` times a partial sum bounded by
        ``updates * max_entry`` (``u = 2^-53``).
        """
        from ..exact import UNIT_ROUNDOFF

        k = float(updates)
        return 1.01 * (k * self.entry_error + k * k * UNIT_ROUNDOFF * self.max_entry)

    def exact_scores(self, alpha) -> list[Fraction]:
        """Exact ``(L^+ + a 11^T) alpha`` for an integer vector ``alpha`` (one solve).

        Parameters
        ----------
        alpha : sequence of int
            One integer coefficient per vertex.
        """
        from ..exact import ExactLaplacian

        if self._exact is None:
            self._exact = ExactLaplacian(self._graph)  # ExactTooLargeError on a graph too large for it
        bias = self._a_exact * int(np.sum(alpha))
        return [phi + bias for phi in self._exact.potentials(alpha)]

    def exact_sign(self, alpha, x: int) -> int:
        """The exact sign (``1``, ``0``, ``-1``) of the score ``((L^+ + a 11^T) alpha)[x]``.

        One linear functional of ``L^+`` (:class:`~simpred_lite.exact.LaplacianFunctional`,
        built on the first call and kept): milliseconds where :meth:`exact_scores` solves for
        every vertex in rationals.

        Parameters
        ----------
        alpha : sequence of int
            One integer coefficient per vertex.
        x : int
            The vertex whose score is compared with 0.
        """
        from ..exact import LaplacianFunctional

        if self._functional is None:
            self._functional = LaplacianFunctional(self._graph)  # ExactTooLargeError beyond its limits
        e_x = np.zeros(self.n, dtype=np.int64)
        e_x[x] = 1
        return self._functional.compare(e_x, alpha, threshold=-self._a_exact * int(np.sum(alpha)))


class GraphPerceptron(ClassLearner):
    """The kernel Perceptron on a graph for 2 classes (1 = "in the class", 0 = "rest").

    Kernel ``Kmat = L^+ + a 11^T`` (``L^+`` the Laplacian pseudoinverse).  With
    ``alpha_v`` the signed count of mistakes at ``v`` the score is ``s = Kmat @ alpha``; the
    learner predicts ``1`` iff ``s[x] > 0`` (so a fresh learner predicts ``0`` everywhere),
    and on a mistake adds ``+-Kmat[:, x]``.

    Mistake bound (Novikoff, margin 1): for ``u = 2y - 1`` in ``{-1, 1}^n``,
    ``M <= ||u||^2 R^2`` with ``||u||^2 = u^T Kmat^{-1} u = 4|Phi^G(y)| + (sum u)^2/(a n^2)``
    and ``R^2 = max_v Kmat[v, v]`` (:func:`graph_perceptron_mistake_bound`).

    **Exact decisions.**  The score is a rational number, and on graphs with symmetry it is
    often exactly ``0``, where a float lands on either side depending on the BLAS kernel.
    The learner keeps float scores for speed and a rigorous bound on their error
    (:meth:`GraphKernel.score_error`); when a score is within that bound of ``0`` the sign is
    taken from the exact sign of that one score (:meth:`GraphKernel.exact_sign`, one linear
    functional of ``L^+``, counted in :attr:`exact_decisions`).  Predictions are therefore those of exact
    arithmetic, on every machine.

    Parameters
    ----------
    G : networkx.Graph
        The graph (``n <= 4000``: the kernel is dense).
    a : float, default 1.0
        Weight of the constant (bias) part of the kernel.
    kernel : GraphKernel, optional
        A kernel of ``G`` built once and shared by many learners (its ``a`` is used).

    Examples
    --------
    >>> import networkx as nx
    >>> clf = GraphPerceptron(nx.path_graph(6))
    >>> for x, y in [(5, 1), (0, 0), (4, 1), (1, 0)]:
    ...     clf.learn_class(x, y)
    >>> [clf.predict_class(v) for v in range(6)], clf.mistakes
    ([0, 0, 0, 1, 1, 1], 2)

    On the 6-cycle, a mistake at 2 and one at 4 leave vertex 3 with score exactly 0:

    >>> clf = GraphPerceptron(nx.cycle_graph(6)); clf.learn_class(2, 1); clf.learn_class(4, 0)
    >>> clf.predict_class(3), clf.exact_decisions
    (0, 1)
    """

    needs_graph = True
    description = "the kernel Perceptron with L^+ + a 11^T, 2 classes"
    bound_text = "||u||^2 R^2 (Novikoff)"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The graph Perceptron on ``G`` (two classes)."""
        return cls(G)

    def mistake_bound(self, G, labels) -> int:
        """``floor(||u||^2 R^2)``, certified (:func:`~.bounds.certified_graph_perceptron_bound`)."""
        from .bounds import certified_graph_perceptron_bound

        return certified_graph_perceptron_bound(self._kernel, G, labels)

    def __init__(self, G: nx.Graph, a: float = 1.0, *, kernel: GraphKernel | None = None):
        G = validate_graph(G)
        super().__init__(G.number_of_nodes(), 2)
        if kernel is None:
            kernel = GraphKernel(G, a)
        elif not isinstance(kernel, GraphKernel):
            raise TypeError(
                f"kernel must be a GraphKernel, got {type(kernel).__name__}; build one with "
                "GraphKernel(G, a) (or GraphPerceptron(G).graph_kernel) and share it"
            )
        elif not kernel.same_graph(G):
            raise ValueError(
                f"kernel was built on another graph ({kernel.n} vertices, {len(kernel.edges)} edges) than G "
                f"({self.n} vertices, {G.number_of_edges()} edges); pass kernel=GraphKernel(G) built on this G"
            )
        self._kernel = kernel
        self.a = kernel.a
        self._scores = np.zeros(self.n)
        self._alpha: dict[int, int] = {}
        self._updates = 0
        self._error = 0.0
        self.exact_decisions = 0

    @property
    def kernel(self) -> np.ndarray:
        """The (read-only) float kernel matrix ``L^+ + a 11^T``."""
        return self._kernel.matrix

    @property
    def graph_kernel(self) -> GraphKernel:
        """The :class:`GraphKernel`, to share with other learners on the same graph."""
        return self._kernel

    def _alpha_vector(self) -> np.ndarray:
        alpha = np.zeros(self.n, dtype=np.int64)
        for v, c in self._alpha.items():
            alpha[v] = c
        return alpha

    def _predict_class(self, x):
        from ..exact import certified_compare

        if not self._alpha:
            return 0  # every score is exactly 0
        decision = certified_compare(float(self._scores[x]), 0.0, self._error)
        if decision is None:
            self.exact_decisions += 1
            decision = int(self._kernel.exact_sign(self._alpha_vector(), x) > 0)
        return decision

    def _learn_class(self, x, y, y_hat):
        sign = 1 if y == 1 else -1
        self._scores = self._scores + sign * self._kernel.matrix[:, x]  # replaced, never modified in place
        alpha = dict(self._alpha)
        alpha[x] = alpha.get(x, 0) + sign
        if alpha[x] == 0:
            del alpha[x]
        self._alpha = alpha
        self._updates += 1
        self._error = self._kernel.score_error(self._updates)

    def copy(self):
        return copy.copy(self)  # every piece of state is replaced on update, never modified

    def state_key(self):
        # decisions are exact functions of the integer mistake counts alpha
        return tuple(sorted(self._alpha.items()))


#: Largest graph :class:`GraphPerceptronReference` accepts (it inverts the Laplacian in Fractions).
REFERENCE_PERCEPTRON_LIMIT = 60


class GraphPerceptronReference(ClassLearner):
    """Plain exact reference for :class:`GraphPerceptron`, in rational arithmetic.

    ``L^+`` is computed once by Gauss–Jordan elimination in :class:`fractions.Fraction`, and
    every prediction recomputes ``s(x) = sum_t sign_t (L^+[x_t, x] + a)`` from the list of
    mistakes, exactly: no floating point anywhere, so equal predictions prove that the fast
    learner's certified decisions are the exact ones.  Small graphs only
    (``n <= REFERENCE_PERCEPTRON_LIMIT``).

    Parameters
    ----------
    G : networkx.Graph
    a : float, default 1.0

    Examples
    --------
    >>> import networkx as nx
    >>> ref = GraphPerceptronReference(nx.cycle_graph(6))
    >>> ref.learn_class(2, 1); ref.learn_class(4, 0); ref.predict_class(3), ref.score(3)
    (0, Fraction(0, 1))
    """

    setting = "reference"
    needs_graph = True

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The exact reference on ``G``."""
        return cls(G)

    def __init__(self, G: nx.Graph, a: float = 1.0):
        G = validate_graph(G)
        n = G.number_of_nodes()
        if n > REFERENCE_PERCEPTRON_LIMIT:
            raise ValueError(
                f"GraphPerceptronReference inverts the Laplacian in exact rationals and is limited to "
                f"n <= {REFERENCE_PERCEPTRON_LIMIT} vertices, got n={n}; use GraphPerceptron, whose "
                "decisions are certified exact at any size"
            )
        super().__init__(n, 2)
        self.a = check_real(a, "the bias weight a", low=0, low_inclusive=False)
        bias = Fraction(self.a)
        self._kernel = [[v + bias for v in row] for row in laplacian_pinv_fraction(G)]
        self._mistakes_at: list[tuple[int, int]] = []

    def score(self, x: int) -> Fraction:
        """The exact score of vertex ``x``."""
        x = check_vertex(x, self.n, "pattern x")
        return sum((sign * self._kernel[v][x] for v, sign in self._mistakes_at), Fraction(0))

    def _predict_class(self, x):
        return int(self.score(x) > 0)

    def _learn_class(self, x, y, y_hat):
        self._mistakes_at.append((x, 1 if y == 1 else -1))


class OneVsRest(ClassLearner):
    """Lift a 2-class learner to ``K`` classes ("Lifting 2-class to K-class", App.).

    One binary learner per class ``k`` learns "is ``x`` in class ``k``?" (1) versus "rest"
    (0); it is created when class ``k`` first appears.  Prediction: the class of the one
    learner that claims ``x``; if none or several claim it we "assume a mistake" and guess
    (the smallest claimant, else the smallest class not seen yet, else 0).

    Why ``M <= sum_k M_k``: a mistake on a trial of class ``k`` means learner ``k``
    answered 0 or another learner answered 1 — a mistake of a binary learner.  A learner
    created late behaves as if it had existed from the start, because a fresh binary
    learner must predict 0 ("rest") everywhere (checked when it is created) and is
    conservative.  Learner ``k`` sees a sequence labelled by class ``k`` versus rest, whose
    cut is ``Phi_k``; from a binary bound ``M_k <= c |Phi_k|`` and
    ``sum_k |Phi_k| = 2|Phi|`` follows ``M <= 2c|Phi|``.

    Parameters
    ----------
    make_binary : callable
        ``make_binary()`` returns a fresh binary :class:`ClassLearner` (classes 0/1).
    K : int, optional
        Number of classes, if known (only used to validate labels).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(6)
    >>> clf = OneVsRest(lambda: GraphPerceptron(G), K=3)
    >>> for x, y in [(0, 0), (5, 2), (2, 1), (1, 0), (4, 2), (3, 1)]:
    ...     clf.learn_class(x, y)
    >>> clf.mistakes <= sum(clf.binary_mistakes.values()), sorted(clf.binary_mistakes)
    (True, [0, 1, 2])
    """

    needs_graph = True
    oracle = "K"
    description = "one binary graph Perceptron per class (appendix, lifting 2-class to K-class)"
    bound_text = "sum_k M_k of the binary learners' bounds"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """One :class:`GraphPerceptron` per class, sharing one kernel (``K`` from the labels)."""
        from functools import partial

        K = 2 if labels is None else max(2, int(np.max(labels)) + 1)
        return cls(partial(GraphPerceptron, G, kernel=GraphKernel(G)), K)  # a partial pickles, a lambda not

    def mistake_bound(self, G, labels):
        """``sum_k B_k``: each class's binary bound on "class k versus rest" (None if one has none)."""
        y = np.asarray(labels)
        total = 0
        for k in np.unique(y):
            bound = getattr(self._make_binary(), "mistake_bound", None)
            B = bound(G, (y == k).astype(np.int64)) if callable(bound) else None
            if B is None:
                return None
            total += B
        return total

    def __init__(self, make_binary: Callable[[], ClassLearner], K: int | None = None):
        if not callable(make_binary):
            raise TypeError(
                f"make_binary must be a function returning a fresh binary learner, got "
                f"{type(make_binary).__name__}; e.g. OneVsRest(lambda: GraphPerceptron(G))"
            )
        probe = check_class_learner(make_binary(), "make_binary()")
        if getattr(probe, "K", 2) != 2:
            raise ValueError(f"make_binary() must build a 2-class learner, got one with K={probe.K}")
        super().__init__(probe.n, K)
        self._make_binary = make_binary
        self._binary: dict[int, ClassLearner] = {}

    @property
    def binary_mistakes(self) -> dict[int, int]:
        """Mistakes of each class's binary learner, ``{k: M_k}``."""
        return {k: clf.mistakes for k, clf in self._binary.items()}

    def _guess_unseen(self) -> int:
        k = 0
        while k in self._binary:
            k += 1
        return k if self.K is None or k < self.K else 0

    def _predict_class(self, x):
        claims = [k for k, clf in self._binary.items() if clf.predict_class(x) == 1]
        if len(claims) >= 1:
            return min(claims)
        return self._guess_unseen()

    def _learn_class(self, x, y, y_hat):
        if y not in self._binary:
            fresh = check_class_learner(self._make_binary(), "make_binary()")
            if fresh.predict_class(x) != 0:
                raise ValueError(
                    "a fresh binary learner must predict 0 ('rest') everywhere, or the lifting "
                    f"bound fails; {type(fresh).__name__} predicted 1 at vertex {x}"
                )
            self._binary[y] = fresh
        for k in sorted(self._binary):
            self._binary[k].learn_class(x, int(k == y))

    def copy(self):
        new = copy.copy(self)
        new._binary = {k: clf.copy() for k, clf in self._binary.items()}
        return new

    def state_key(self):
        keys = tuple((k, self._binary[k].state_key()) for k in sorted(self._binary))
        return None if any(key is None for _, key in keys) else keys
