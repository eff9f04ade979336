"""Learners for the paired permutation problem of Theorem 9 (§7).

The concept, its patterns and the adversaries live in :mod:`simpred_lite.theory.lowerbound`;
the learners live here, beside every other learner:

Patterns ``(x', x'')`` are numbered ``x' K + x''`` (:func:`pattern_index`, :func:`pattern_items`).

* :class:`PairedPermutationClassLearner` — the class algorithm ``A`` of the proof (a weighted
  master over hallucinated histories of the :class:`ConsistentPredictor`), with its plain
  :class:`PairedPermutationClassLearnerReference`.
* :class:`IteratedClassLearner` — one class learner per copy of the ``r``-iterated problem.
* :class:`TransitiveOrderLearner`, :class:`HalvingPermutationLearner` — similarity learners
  (:class:`~simpred_lite.learners.base.SimilarityLearner`) on pattern numbers ``x' K + x''``:
  they play the similarity game of §7, where a *pair of patterns* arrives.

The three class learners are :class:`~simpred_lite.learners.base.ClassLearner` objects
(``predict_class``, ``learn_class``, ``mistakes``, ``clone()``), discovered by the registry under
the setting ``"paired permutations"`` (the reference under ``"reference"``).  Their patterns are
the pairs ``(x', x'')`` (``((x', x''), copy)`` when iterated) *or* the pattern numbers: the one
hook :meth:`~simpred_lite.learners.base.ClassLearner._check_pattern` accepts both.  Play them
with :func:`simpred_lite.game.run_class`.

The mistake bound of the class algorithm is
:func:`~simpred_lite.learners.bounds.paired_permutation_mistake_bound`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from itertools import permutations
from typing import Any, ClassVar

import numpy as np

from ..checks import check_int, check_real, check_vertex
from .base import ClassLearner, SimilarityLearner
from .baselines import UnionFindLearner
from .bounds import PAPER_BETA, paired_permutation_mistake_bound

__all__ = [
    "pattern_index",
    "pattern_items",
    "ConsistentPredictor",
    "PairedPermutationClassLearner",
    "PairedPermutationClassLearnerReference",
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
    a *new* item, so a consistent history errs at most ``K - 1`` times (notebook 09 asks why
    another choice of unused value breaks this).

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


def _pair_pattern(x: Any, K: int) -> tuple[int, int]:
    """A pattern of the paired permutation problem: the pair ``(x', x'')`` or its number ``x' K + x''``."""
    if isinstance(x, (tuple, list)) or (isinstance(x, np.ndarray) and x.ndim == 1):
        if len(x) != 2:
            raise ValueError(f"a pattern is a pair (x', x'') of items (or its number x' K + x''), got {x!r}")
        a = check_int(x[0], "x'", low=0, high=K - 1)
        return a, check_int(x[1], "x''", low=0, high=K - 1)
    p = check_vertex(x, K * K, "pattern x (a pair (x', x'') or its number x' K + x'')")
    return p // K, p % K


class _PairedPatterns(ClassLearner):
    """What the class learners of the paired permutation problem share: ``K²`` patterns, ``K`` classes.

    A pattern is a pair ``(x', x'')`` or its number ``x' K + x''`` (see :class:`ClassLearner`,
    "Patterns"); the hooks receive the pair.
    """

    setting: ClassVar[str] = "paired permutations"
    problem: ClassVar[str] = "paired permutations"
    K: int  # never None: K items, K classes

    def __init__(self, K: int):
        K = check_int(K, "K", low=2)
        super().__init__(K * K, K)

    @classmethod
    def for_graph(cls, G: Any, seed: int = 0, labels: Any = None) -> Any:
        """The learner on the ``K²`` patterns of a paired permutation problem (``G`` has ``K²`` vertices).

        Parameters
        ----------
        G : networkx.Graph
            ``K²`` vertices, the patterns (only their number is used).
        seed : int, default 0
            Unused (the learner is deterministic).
        labels : array_like of int, optional
            Unused.

        Examples
        --------
        >>> import networkx as nx
        >>> PairedPermutationClassLearner.for_graph(nx.empty_graph(9)).K
        3
        """
        return cls(_items_of(G.number_of_nodes()))

    def _check_pattern(self, x: Any) -> tuple[int, int]:
        return _pair_pattern(x, self.K)


class PairedPermutationClassLearner(_PairedPatterns):
    """The class algorithm ``A`` of Theorem 9: a weighted master over histories.

    A pool of hallucinated histories of the consistent predictor ``A_0``, started with the
    empty history of weight 1.  On ``(x', x'')`` it predicts the weighted-majority value of
    ``max(A_0(s)(x'), A_0(s)(x''))`` (ties: the smallest value).  On a mistake of the master,
    every history ``s`` that erred is replaced by ``s + (x', y)`` and ``s + (x'', y)``, each
    with weight ``(β/2) w_s``.

    Exact implementation details: weights are Fractions (``β`` read as the decimal it is
    written as), and histories whose ``A_0`` states coincide are merged by adding their
    weights, which changes no vote and no future split (the pool is linear in the weights).

    A :class:`~simpred_lite.learners.base.ClassLearner` on the ``K²`` patterns: a pattern is
    the pair ``(x', x'')`` or its number ``x' K + x''``.

    Mistake bound (the proof): ``M <= (K-1) log2(2/β)/log2(2/(1+β)) = 4.4035 (K-1)``.

    Parameters
    ----------
    K : int
        Number of items (and of classes), at least 2.
    beta : float, default 0.294

    Examples
    --------
    >>> A = PairedPermutationClassLearner(3)
    >>> A.predict_class((0, 1))
    0
    >>> A.learn_class((0, 1), 2); A.mistakes, A.pool_size
    (1, 2)
    >>> A.predict_class((0, 1)), A.predict_class(pattern_index(1, 0, 3))
    (2, 2)
    """

    description = "Theorem 9's class algorithm (a weighted master over consistent histories)"
    bound_text = "4.4035 (K - 1) (Theorem 9)"

    def __init__(self, K: int, beta: float = PAPER_BETA):
        super().__init__(K)
        self.beta = check_real(beta, "beta", low=0, high=1, low_inclusive=False,
                               high_inclusive=False)
        self._half_beta = (Fraction(beta) if isinstance(beta, Fraction) else Fraction(str(float(beta)))) / 2
        self._pool: dict[tuple, tuple[ConsistentPredictor, Fraction]] = {}
        A0 = ConsistentPredictor(self.K)
        self._pool[A0.state()] = (A0, Fraction(1))

    def mistake_bound(self, G: Any = None, labels: Any = None) -> float:
        """:func:`~simpred_lite.learners.bounds.paired_permutation_mistake_bound` (any paired permutation sequence).

        Parameters
        ----------
        G, labels : optional
            Unused: the bound holds on every paired permutation sequence.

        Examples
        --------
        >>> round(PairedPermutationClassLearner(3).mistake_bound(), 3)
        8.807
        """
        return paired_permutation_mistake_bound(self.K, self.beta)

    @property
    def pool_size(self) -> int:
        """Number of (merged) histories in the pool."""
        return len(self._pool)

    @property
    def total_weight(self) -> Fraction:
        """``W``, the total weight of the pool."""
        return sum((w for _, w in self._pool.values()), Fraction(0))

    def histories(self) -> list[tuple[dict[int, int], Fraction]]:
        """``(known values, weight)`` of each history in the pool."""
        return [(dict(A0.known), w) for A0, w in self._pool.values()]

    def votes(self, x: Any) -> list[Fraction]:
        """Weight of the histories voting for each value ``0 .. K-1`` on pattern ``x``.

        Parameters
        ----------
        x : (int, int) or int
            The pattern ``(x', x'')`` or its number.

        Examples
        --------
        >>> PairedPermutationClassLearner(2).votes((0, 1))
        [Fraction(1, 1), Fraction(0, 1)]
        """
        return self._votes(self._check_pattern(x))

    def _votes(self, pattern: tuple[int, int]) -> list[Fraction]:
        a, b = pattern
        votes = [Fraction(0)] * self.K
        for A0, w in self._pool.values():
            votes[max(A0.predict(a), A0.predict(b))] += w
        return votes

    def _predict_class(self, x: tuple[int, int]) -> int:
        votes = self._votes(x)
        return max(range(self.K), key=lambda k: (votes[k], -k))

    def _learn_class(self, x: tuple[int, int], y: int, y_hat: int) -> None:
        """On a mistake, split every mistaken history into its two hallucinated continuations."""
        a, b = x
        new: dict[tuple, tuple[ConsistentPredictor, Fraction]] = {}

        def put(A0: ConsistentPredictor, w: Fraction) -> None:
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

    def state_key(self) -> tuple:
        return tuple(sorted((key, w) for key, (_, w) in self._pool.items()))


class PairedPermutationClassLearnerReference(_PairedPatterns):
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
    >>> A.learn_class((0, 1), 2); A.mistakes, len(A.pool)
    (1, 2)
    """

    setting: ClassVar[str] = "reference"
    description = "plain reference of Theorem 9's class algorithm (histories never merged)"
    bound_text = "4.4035 (K - 1) (Theorem 9)"

    def __init__(self, K: int, beta: float = PAPER_BETA):
        super().__init__(K)
        self.beta = check_real(beta, "beta", low=0, high=1, low_inclusive=False, high_inclusive=False)
        self._half_beta = Fraction(str(float(beta))) / 2
        self.pool: list[tuple[tuple, Fraction]] = [((), Fraction(1))]

    def mistake_bound(self, G: Any = None, labels: Any = None) -> float:
        """The bound of :class:`PairedPermutationClassLearner` (the same predictions).

        Examples
        --------
        >>> round(PairedPermutationClassLearnerReference(3).mistake_bound(), 3)
        8.807
        """
        return paired_permutation_mistake_bound(self.K, self.beta)

    def _predict_with(self, history: tuple, x: tuple[int, int]) -> int:
        A0 = ConsistentPredictor(self.K, history)
        return max(A0.predict(x[0]), A0.predict(x[1]))

    def _predict_class(self, x: tuple[int, int]) -> int:
        votes = [Fraction(0)] * self.K
        for h, w in self.pool:
            votes[self._predict_with(h, x)] += w
        return max(range(self.K), key=lambda k: (votes[k], -k))

    def _learn_class(self, x: tuple[int, int], y: int, y_hat: int) -> None:
        new = []
        for h, w in self.pool:
            if self._predict_with(h, x) == y:
                new.append((h, w))
            else:
                new += [(h + ((x[0], y),), self._half_beta * w), (h + ((x[1], y),), self._half_beta * w)]
        self.pool = new


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
    problem = "paired permutations"
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
    problem = "paired permutations"
    description = "halving over all K! permutations (K <= 8)"
    bound_text = "log2 K!"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The learner on the ``K²`` patterns of a paired permutation problem (``G`` has ``K²`` vertices)."""
        return cls(_items_of(G.number_of_nodes()))

    def mistake_bound(self, G: Any = None, labels: Any = None) -> float:
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


class IteratedClassLearner(ClassLearner):
    """The ``r``-iterated class algorithm: one :class:`PairedPermutationClassLearner` per copy.

    A :class:`~simpred_lite.learners.base.ClassLearner` on ``r K²`` patterns: a pattern is
    ``((x', x''), i)`` with ``i`` the copy, or its number ``i K² + x' K + x''``.  Mistakes add
    up over the copies, so the bound is ``r`` times :func:`paired_permutation_mistake_bound`.

    Parameters
    ----------
    K : int
        Number of items of each copy, at least 2.
    r : int
        Number of copies.
    beta : float, default 0.294

    Examples
    --------
    >>> from simpred_lite.game import run_class
    >>> A = IteratedClassLearner(3, r=2)
    >>> run_class(A, [(((0, 1), 0), 2), (((0, 1), 1), 2)]).tolist(), A.mistakes
    ([1, 1], 2)
    """

    setting: ClassVar[str] = "paired permutations"
    problem: ClassVar[str] = "paired permutations"
    description = "one Theorem 9 class algorithm per copy of the r-iterated problem"
    bound_text = "r 4.4035 (K - 1)"
    K: int  # never None: K items, K classes

    def __init__(self, K: int, r: int, beta: float = PAPER_BETA):
        K = check_int(K, "K", low=2)
        self.r = check_int(r, "r", low=1)
        super().__init__(self.r * K * K, K)
        self.copies = [PairedPermutationClassLearner(K, beta) for _ in range(self.r)]

    @classmethod
    def for_graph(cls, G: Any, seed: int = 0, labels: Any = None) -> IteratedClassLearner:
        """The learner on ``r K²`` patterns: ``K`` from the labels (else ``r = 1``).

        Parameters
        ----------
        G : networkx.Graph
            ``r K²`` vertices, the patterns (only their number is used).
        seed : int, default 0
            Unused.
        labels : array_like of int, optional
            The classes ``0 .. K-1`` of the patterns; ``K`` is their largest value plus one.

        Examples
        --------
        >>> import networkx as nx
        >>> A = IteratedClassLearner.for_graph(nx.empty_graph(18), labels=[0, 1, 2] * 6)
        >>> A.K, A.r
        (3, 2)
        """
        n = G.number_of_nodes()
        if labels is None:
            return cls(_items_of(n), 1)
        K = max(2, int(np.max(np.asarray(labels))) + 1)
        if n % (K * K):
            raise ValueError(f"an r-iterated paired permutation problem with K={K} items has r K² patterns, but the "
                             f"graph has n={n} vertices; use n = r * {K * K}")
        return cls(K, n // (K * K))

    def mistake_bound(self, G: Any = None, labels: Any = None) -> float:
        """``r`` times the bound of one copy (mistakes add up over the copies).

        Examples
        --------
        >>> round(IteratedClassLearner(3, 2).mistake_bound(), 3)
        17.614
        """
        return self.r * self.copies[0].mistake_bound()

    def _check_pattern(self, x: Any) -> tuple[tuple[int, int], int]:
        K2 = self.K * self.K
        if isinstance(x, (tuple, list)):
            if len(x) != 2:
                raise ValueError(f"an iterated pattern is ((x', x''), copy) or its number copy K² + x' K + x'', "
                                 f"got {x!r}")
            pattern, i = x
            return _pair_pattern(pattern, self.K), check_int(i, "the copy index", low=0, high=self.r - 1)
        p = check_vertex(x, self.n, "pattern x (((x', x''), copy) or its number copy K² + x' K + x'')")
        return _pair_pattern(p % K2, self.K), p // K2

    def _predict_class(self, x: tuple[tuple[int, int], int]) -> int:
        pattern, i = x
        return self.copies[i].predict_class(pattern)

    def _learn_class(self, x: tuple[tuple[int, int], int], y: int, y_hat: int) -> None:
        pattern, i = x
        self.copies[i].learn_class(pattern, y)

    def state_key(self) -> tuple:
        return tuple(c.state_key() for c in self.copies)
