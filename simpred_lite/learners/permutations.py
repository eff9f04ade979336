"""Learners for the paired permutation problem of Theorem 9 (``thm:lognec``, §7).

The concept, its patterns and the adversaries live in :mod:`simpred_lite.theory.lowerbound`;
the learners live here, beside every other learner:

Patterns ``(x', x'')`` are numbered ``x' K + x''`` (:func:`pattern_index`, :func:`pattern_items`).

* :class:`PairedPermutationClassLearner` — the class algorithm ``A`` of the proof (a weighted
  master over hallucinated histories of the :class:`ConsistentPredictor`), with its plain
  :class:`PairedPermutationClassLearnerReference`; patterns are pairs ``(x', x'')``.
* :class:`PairedPermutationClassifier` — the same learner in the class-learner protocol of
  :mod:`simpred_lite.learners.classifiers`, on pattern numbers.
* :class:`IteratedClassLearner` — one class learner per copy of the ``r``-iterated problem.
* :class:`TransitiveOrderLearner`, :class:`HalvingPermutationLearner` — similarity learners
  (protocol of :mod:`simpred_lite.learners.base`) on pattern numbers ``x' K + x''``.

The mistake bound of the class algorithm is
:func:`~simpred_lite.learners.bounds.paired_permutation_mistake_bound`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from itertools import permutations

import numpy as np

from ..checks import check_int, check_real
from .base import ClassLearner, SimilarityLearner
from .baselines import UnionFindLearner
from .bounds import PAPER_BETA, paired_permutation_mistake_bound

__all__ = [
    "pattern_index",
    "pattern_items",
    "ConsistentPredictor",
    "PairedPermutationClassLearner",
    "PairedPermutationClassLearnerReference",
    "PairedPermutationClassifier",
    "run_class",
    "TransitiveOrderLearner",
    "HalvingPermutationLearner",
    "IteratedClassLearner",
]


def _items_of(n: int) -> int:
    """``K`` for ``n = K²`` pattern vertices."""
    K = math.isqrt(n)
    if K * K != n:
        raise ValueError(f"a paired permutation learner lives on K² patterns, but the graph has n={n} vertices, "
                         "not a square; use n = K * K vertices (patterns numbered x' K + x'')")
    return K


def pattern_index(x1: int, x2: int, K: int) -> int:
    """Number the pattern ``(x', x'')`` as the vertex ``x' K + x''`` of a similarity learner.

    Parameters
    ----------
    x1, x2 : int
        The items ``x'`` and ``x''``, in ``0 .. K-1``.
    K : int
        Number of items.

    Examples
    --------
    >>> pattern_index(2, 1, 3), pattern_items(7, 3)
    (7, (2, 1))
    """
    K = check_int(K, "K", low=1)
    x1 = check_int(x1, "x'", low=0, high=K - 1)
    return x1 * K + check_int(x2, "x''", low=0, high=K - 1)


def pattern_items(p: int, K: int) -> tuple[int, int]:
    """The pattern ``(x', x'')`` numbered ``p`` (inverse of :func:`pattern_index`)."""
    K = check_int(K, "K", low=1)
    p = check_int(p, "pattern number p", low=0, high=K * K - 1)
    return p // K, p % K


class ConsistentPredictor:
    """The *consistent predictor* ``A_0`` of the proof, for the permutation concept ``z``.

    On item ``x`` it predicts the value recorded for ``x`` in its history (the first one,
    should a history repeat ``x``), otherwise the **smallest** value not in its history.
    The paper says "a ``y`` not in its history"; the smallest one is needed for the proof:
    with it, every mistake of a history consistent with ``z`` on a pair reveals the value of
    a *new* item, so a consistent history errs at most ``K - 1`` times (with e.g. the
    largest unused value, a consistent history can err on ``(x', x'')`` with ``x'`` known
    and ``z(x'') < z(x')`` without learning anything new).

    Parameters
    ----------
    K : int
        Number of items.
    history : iterable of (int, int), optional
        Examples ``(x, value)``.

    Examples
    --------
    >>> A0 = ConsistentPredictor(4, [(2, 0)])
    >>> A0.predict(2), A0.predict(1)
    (0, 1)
    """

    def __init__(self, K: int, history: Iterable = ()):
        self.K = check_int(K, "K", low=1)
        self.known: dict[int, int] = {}
        self.used: set[int] = set()
        for x, y in history:
            self.add(x, y)

    def add(self, x: int, y: int) -> None:
        """Append the example ``(x, y)`` to the history."""
        x = check_int(x, "x", low=0, high=self.K - 1)
        y = check_int(y, "value", low=0, high=self.K - 1)
        self.known.setdefault(x, y)
        self.used.add(y)

    def predict(self, x: int) -> int:
        """The predicted value of item ``x``."""
        if x in self.known:
            return self.known[x]
        return next((v for v in range(self.K) if v not in self.used), self.K - 1)

    def state(self) -> tuple:
        """What determines every future prediction (histories with equal states act alike)."""
        return tuple(sorted(self.known.items())), tuple(sorted(self.used))


class PairedPermutationClassLearner:
    """The class algorithm ``A`` of Theorem 9 (``thm:lognec``): a weighted master over histories.

    A pool of hallucinated histories of the consistent predictor ``A_0``, started with the
    empty history of weight 1.  On ``(x', x'')`` it predicts the weighted-majority value of
    ``max(A_0(s)(x'), A_0(s)(x''))`` (ties: the smallest value).  On a mistake of the master,
    every history ``s`` that erred is replaced by ``s + (x', y)`` and ``s + (x'', y)``, each
    with weight ``(β/2) w_s``.

    Exact implementation details: weights are Fractions (``β`` read as the decimal it is
    written as), and histories whose ``A_0`` states coincide are merged by adding their
    weights, which changes no vote and no future split (the pool is linear in the weights).

    Mistake bound (the proof): ``M <= (K-1) log2(2/β)/log2(2/(1+β)) = 4.4035 (K-1)``.

    Parameters
    ----------
    K : int
        Number of items.
    beta : float, default 0.294

    Examples
    --------
    >>> A = PairedPermutationClassLearner(3)
    >>> A.predict_one((0, 1))
    0
    >>> A.learn_one((0, 1), 2); A.mistakes, A.pool_size
    (1, 2)
    >>> A.predict_one((0, 1))
    2
    """

    def __init__(self, K: int, beta: float = PAPER_BETA):
        self.K = check_int(K, "K", low=1)
        self.beta = check_real(beta, "beta", low=0, high=1, low_inclusive=False,
                               high_inclusive=False)
        self._half_beta = (Fraction(beta) if isinstance(beta, Fraction) else Fraction(str(float(beta)))) / 2
        self._pool: dict[tuple, tuple[ConsistentPredictor, Fraction]] = {}
        A0 = ConsistentPredictor(self.K)
        self._pool[A0.state()] = (A0, Fraction(1))
        self.mistakes = 0
        self.trials = 0

    @property
    def pool_size(self) -> int:
        """Number of (merged) histories in the pool."""
        return len(self._pool)

    @property
    def total_weight(self) -> Fraction:
        """``W``, the total weight of the pool."""
        return sum((w for _, w in self._pool.values()), Fraction(0))

    def histories(self):
        """``(known values, weight)`` of each history in the pool."""
        return [(dict(A0.known), w) for A0, w in self._pool.values()]

    def _check_pattern(self, x):
        try:
            a, b = x
        except (TypeError, ValueError):
            raise ValueError(f"a pattern is a pair (x', x'') of items, got {x!r}") from None
        a = check_int(a, "x'", low=0, high=self.K - 1)
        return a, check_int(b, "x''", low=0, high=self.K - 1)

    def votes(self, x) -> list[Fraction]:
        """Weight of the histories voting for each value ``0 .. K-1`` on pattern ``x``."""
        a, b = self._check_pattern(x)
        votes = [Fraction(0)] * self.K
        for A0, w in self._pool.values():
            votes[max(A0.predict(a), A0.predict(b))] += w
        return votes

    def predict_one(self, x) -> int:
        """Predicted class ``y`` of pattern ``x = (x', x'')``."""
        votes = self.votes(x)
        return max(range(self.K), key=lambda k: (votes[k], -k))

    def learn_one(self, x, y: int) -> None:
        """Receive the class ``y`` of ``x``; on a mistake split every mistaken history."""
        a, b = self._check_pattern(x)
        y = check_int(y, "class y", low=0, high=self.K - 1)
        y_hat = self.predict_one((a, b))
        self.trials += 1
        if y_hat == y:
            return
        self.mistakes += 1
        new: dict[tuple, tuple[ConsistentPredictor, Fraction]] = {}

        def put(A0, w):
            key = A0.state()
            old = new.get(key)
            new[key] = (A0, w if old is None else old[1] + w)

        for A0, w in self._pool.values():
            if max(A0.predict(a), A0.predict(b)) == y:
                put(A0, w)
                continue
            for item in (a, b):  # the two hallucinated continuations
                child = ConsistentPredictor(self.K)
                child.known, child.used = dict(A0.known), set(A0.used)
                child.add(item, y)
                put(child, self._half_beta * w)
        self._pool = new


class PairedPermutationClassLearnerReference:
    """Plain reference of :class:`PairedPermutationClassLearner`, exactly as the proof writes it.

    A list of ``(history, weight)`` pairs, histories never merged, every ``A_0`` rebuilt from
    its history on each prediction.  Exponentially slower; the tests show that both make
    identical predictions and keep the same total weight.

    Parameters
    ----------
    K : int
        Number of items.
    beta : float, default 0.294
        The master's discount.

    Examples
    --------
    >>> A = PairedPermutationClassLearnerReference(3)
    >>> A.learn_one((0, 1), 2); A.mistakes, len(A.pool)
    (1, 2)
    """

    def __init__(self, K: int, beta: float = PAPER_BETA):
        self.K = check_int(K, "K", low=1)
        self._half_beta = Fraction(str(float(beta))) / 2
        self.pool: list[tuple[tuple, Fraction]] = [((), Fraction(1))]
        self.mistakes = 0

    def _predict_with(self, history, x) -> int:
        A0 = ConsistentPredictor(self.K, history)
        return max(A0.predict(x[0]), A0.predict(x[1]))

    def predict_one(self, x) -> int:
        votes = [Fraction(0)] * self.K
        for h, w in self.pool:
            votes[self._predict_with(h, x)] += w
        return max(range(self.K), key=lambda k: (votes[k], -k))

    def learn_one(self, x, y: int) -> None:
        if self.predict_one(x) == y:
            return
        self.mistakes += 1
        new = []
        for h, w in self.pool:
            if self._predict_with(h, x) == y:
                new.append((h, w))
            else:
                new += [(h + ((x[0], y),), self._half_beta * w), (h + ((x[1], y),), self._half_beta * w)]
        self.pool = new


class PairedPermutationClassifier(ClassLearner):
    """:class:`PairedPermutationClassLearner` in the class-learner protocol, on pattern numbers.

    So that the reductions of :mod:`simpred_lite.learners.reductions` can use the paper's
    class algorithm as their base learner (it is conservative: it changes only on mistakes).

    Parameters
    ----------
    K : int
        Number of items (``K²`` patterns).
    beta : float, default 0.294

    Examples
    --------
    >>> clf = PairedPermutationClassifier(3)
    >>> clf.learn_class(pattern_index(0, 1, 3), 2); clf.mistakes, clf.predict_class(pattern_index(1, 0, 3))
    (1, 2)
    """

    setting = "paired permutations"
    description = "Theorem 9's class algorithm on pattern numbers x' K + x''"
    bound_text = "4.4035 (K - 1) (Theorem 9)"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The learner on the ``K²`` patterns of a paired permutation problem (``G`` has ``K²`` vertices)."""
        return cls(_items_of(G.number_of_nodes()))

    def mistake_bound(self, G=None, labels=None) -> float:
        """:func:`~simpred_lite.learners.bounds.paired_permutation_mistake_bound` (any paired permutation sequence)."""
        return paired_permutation_mistake_bound(self.K, self.inner.beta)

    def __init__(self, K: int, beta: float = PAPER_BETA):
        K = check_int(K, "K", low=2)
        super().__init__(K * K, K)
        self.inner = PairedPermutationClassLearner(K, beta)

    def _predict_class(self, x):
        return self.inner.predict_one(pattern_items(x, self.K))

    def _learn_class(self, x, y, y_hat):
        self.inner.learn_one(pattern_items(x, self.K), y)

    def state_key(self):
        return tuple(sorted((key, w) for key, (_, w) in self.inner._pool.items()))


def run_class(learner, examples) -> np.ndarray:
    """Play class examples ``((x', x''), y)`` against a class learner; return the mistake flags.

    Parameters
    ----------
    learner : PairedPermutationClassLearner or IteratedClassLearner
    examples : iterable of (pattern, int)
        ``((x', x''), y)`` pairs, in order.

    Examples
    --------
    >>> run_class(PairedPermutationClassLearner(3), [((0, 1), 2), ((0, 1), 2)]).tolist()
    [1, 0]
    """
    flags = []
    for x, y in examples:
        flags.append(int(learner.predict_one(x) != y))
        learner.learn_one(x, y)
    return np.asarray(flags, dtype=np.int64)


class TransitiveOrderLearner(SimilarityLearner):
    """A smart similarity learner for paired permutations: it reasons with the order of ``z``.

    It recognises comparisons ``((a, b), (b, b))`` (or ``((b, a), (b, b))``, either order),
    learns ``z(a) < z(b)`` or ``z(a) > z(b)`` from their labels, and predicts a comparison
    implied by transitivity of ``<``; two diagonal patterns ``(a, a), (b, b)`` are always
    dissimilar.  Anything else falls back on a :class:`UnionFindLearner` over the patterns
    (transitivity of *similar*).  Unknown comparisons get ``default``.

    Parameters
    ----------
    K : int
        Number of items; the learner has ``n = K²`` vertices.
    default : {0, 1}, default 0

    Examples
    --------
    >>> L = TransitiveOrderLearner(3)
    >>> L.learn_one(pattern_index(0, 1, 3), pattern_index(1, 1, 3), 0)   # z(0) < z(1)
    >>> L.learn_one(pattern_index(1, 2, 3), pattern_index(2, 2, 3), 0)   # z(1) < z(2)
    >>> L.predict_one(pattern_index(2, 0, 3), pattern_index(0, 0, 3))    # z(2) > z(0)
    1
    """

    setting = "paired permutations"
    description = "transitivity of z's order, else of similar (UnionFind on patterns)"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The learner on the ``K²`` patterns of a paired permutation problem (``G`` has ``K²`` vertices)."""
        return cls(_items_of(G.number_of_nodes()))

    def __init__(self, K: int, default: int = 0):
        self.K = check_int(K, "K", low=2)
        super().__init__(self.K * self.K)
        if default not in (0, 1):
            raise ValueError(f"default must be 0 (similar) or 1 (dissimilar), got {default!r}")
        self.default = int(default)
        self._above: dict[int, set[int]] = {x: set() for x in range(self.K)}  # a -> {b: z(a) < z(b)}
        self._fallback = UnionFindLearner(self.n, default=self.default)

    def _comparison(self, i, j):
        """``(a, b)`` if the pair asks "z(a) < z(b)?", else ``None``."""
        (a, b), (c, d) = pattern_items(i, self.K), pattern_items(j, self.K)
        if c == d and a != b and c in (a, b):
            return (b if a == c else a), c
        if a == b and c != d and a in (c, d):
            return (d if c == a else c), a
        return None

    def less(self, a: int, b: int) -> bool:
        """True if the answers so far imply ``z(a) < z(b)``."""
        seen, stack = {a}, [a]
        while stack:
            for w in self._above[stack.pop()]:
                if w == b:
                    return True
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        return False

    def _predict(self, i, j, path):
        (a, b), (c, d) = pattern_items(i, self.K), pattern_items(j, self.K)
        if a == b and c == d:
            return 1  # z is a bijection: z(a) != z(c)
        comp = self._comparison(i, j)
        if comp is not None:
            x, w = comp
            if self.less(x, w):
                return 0
            if self.less(w, x):
                return 1
            return self.default
        return self._fallback.predict_one(i, j)

    def _learn(self, i, j, y, y_hat, path):
        comp = self._comparison(i, j)
        if comp is not None:
            x, w = comp
            if y == 0:
                self._above[x].add(w)
            else:
                self._above[w].add(x)
        self._fallback.learn_one(i, j, y)


class HalvingPermutationLearner(SimilarityLearner):
    """The Halving algorithm over all ``K!`` permutations (a Bayes-style learner, ``K <= 8``).

    It keeps every permutation consistent with the labels seen and predicts the majority
    label (ties: similar).  Each mistake removes at least half of them, so it errs at most
    ``log2 K!`` times on *any* paired permutation sequence — against the merge-sort
    adversary this is squeezed between :func:`merge_sort_min_comparisons` and ``log2 K!``.

    Parameters
    ----------
    K : int
        Number of items, at most :attr:`MAX_K`.

    Examples
    --------
    >>> L = HalvingPermutationLearner(3)
    >>> L.version_space_size
    6
    >>> L.learn_one(pattern_index(0, 1, 3), pattern_index(1, 1, 3), 0); L.version_space_size
    3
    """

    MAX_K = 8
    setting = "paired permutations"
    description = "halving over all K! permutations (K <= 8)"
    bound_text = "log2 K!"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The learner on the ``K²`` patterns of a paired permutation problem (``G`` has ``K²`` vertices)."""
        return cls(_items_of(G.number_of_nodes()))

    def mistake_bound(self, G=None, labels=None) -> float:
        """``log2 K!``: halving over the ``K!`` permutations, on any paired permutation sequence."""
        return math.log2(math.factorial(self.K))

    def __init__(self, K: int):
        self.K = check_int(K, "K", low=2)
        if self.K > self.MAX_K:
            raise ValueError(
                f"the Halving learner enumerates all K! permutations; K={self.K} is too many "
                f"(at most {self.MAX_K}); use TransitiveOrderLearner for larger K"
            )
        super().__init__(self.K * self.K)
        self._perms = np.array(list(permutations(range(self.K))), dtype=np.int64)

    @property
    def version_space_size(self) -> int:
        """Number of permutations consistent with every label so far."""
        return int(self._perms.shape[0])

    def _dissimilar(self, i, j):
        (a, b), (c, d) = pattern_items(i, self.K), pattern_items(j, self.K)
        P = self._perms
        return np.maximum(P[:, a], P[:, b]) != np.maximum(P[:, c], P[:, d])

    def _predict(self, i, j, path):
        dis = self._dissimilar(i, j)
        return int(2 * int(dis.sum()) > dis.size)

    def _learn(self, i, j, y, y_hat, path):
        keep = self._dissimilar(i, j) == bool(y)
        if not keep.any():
            raise ValueError("these labels contradict every permutation: the sequence is not a paired permutation "
                             "problem")
        self._perms = self._perms[keep]


class IteratedClassLearner:
    """The ``r``-iterated class algorithm: one :class:`PairedPermutationClassLearner` per copy.

    Patterns are ``((x', x''), i)`` with ``i`` the copy; mistakes add up, so the bound is
    ``r`` times :func:`paired_permutation_mistake_bound`.

    Parameters
    ----------
    K : int
        Number of items of each copy.
    r : int
        Number of copies.
    beta : float, default 0.294

    Examples
    --------
    >>> A = IteratedClassLearner(3, r=2)
    >>> run_class(A, [(((0, 1), 0), 2), (((0, 1), 1), 2)]).tolist(), A.mistakes
    ([1, 1], 2)
    """

    def __init__(self, K: int, r: int, beta: float = PAPER_BETA):
        self.K = check_int(K, "K", low=1)
        self.r = check_int(r, "r", low=1)
        self.copies = [PairedPermutationClassLearner(self.K, beta) for _ in range(self.r)]

    def _split(self, x):
        try:
            pattern, i = x
        except (TypeError, ValueError):
            raise ValueError(f"an iterated pattern is ((x', x''), copy), got {x!r}") from None
        return pattern, self.copies[check_int(i, "the copy index", low=0, high=self.r - 1)]

    @property
    def mistakes(self) -> int:
        return sum(c.mistakes for c in self.copies)

    def predict_one(self, x) -> int:
        pattern, learner = self._split(x)
        return learner.predict_one(pattern)

    def learn_one(self, x, y: int) -> None:
        pattern, learner = self._split(x)
        learner.learn_one(pattern, y)
