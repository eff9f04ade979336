"""The ``log K`` factor is necessary: the paired permutation problem (Theorem ``thm:lognec``).

A permutation ``z`` of the ``K`` items ``0 .. K-1`` (the paper's ``1 .. K``) defines the
*paired permutation* concept on patterns ``(x', x'')``:

    y_z(x', x'') = max(z(x'), z(x'')).

* **Class prediction** (:class:`PairedPermutationClassLearner`): a weighted master over
  hallucinated histories of the *consistent predictor* errs at most
  ``(K-1) log2(2/β) / log2(2/(1+β))`` times; with the paper's ``β = 0.294`` that constant
  is ``4.4035`` (the paper prints ``4.1``, a slip: ``β = 0.294`` is the minimiser and the
  minimum is ``4.40``; see :func:`class_mistake_bound`).
* **Similarity prediction** (:func:`play_adversary`): the query ``((x', x''), (x'', x''))``
  is *similar* iff ``z(x') < z(x'')``, so each similarity label is one comparison.  An
  adversary that asks the comparisons of merge sort and answers each against the learner's
  prediction forces a mistake on every query, and merge sort asks at least
  ``(K/2) log2 K`` comparisons (``K`` a power of two; ``m 2^(m-1)``, ``m = ⌊log2 K⌋``, in
  general) whatever the answers: ``Ω(K log K)`` mistakes for *any* similarity learner.

As similarity learners (protocol of :mod:`simpred_lite.learners.base`) the patterns are
numbered ``(x', x'') -> x' K + x''``, so a learner for ``K`` items has ``n = K²`` vertices.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from itertools import permutations

import numpy as np

from ..checks import check_int, check_random_state, check_real
from ..learners.base import SimilarityLearner, check_similarity_label
from ..learners.baselines import UnionFindLearner
from ..learners.classifiers import ClassLearner
from ..game.trials import Trial

__all__ = [
    "PAPER_BETA",
    "paired_permutation_label",
    "pattern_index",
    "pattern_items",
    "random_permutation",
    "comparison_trial",
    "random_class_sequence",
    "class_mistake_bound",
    "ConsistentPredictor",
    "PairedPermutationClassLearner",
    "PlainPairedPermutationClassLearner",
    "paired_permutation_hypotheses",
    "PairedPermutationClassifier",
    "run_class",
    "merge_sort_min_comparisons",
    "binary_insertion_min_comparisons",
    "merge_sort_lower_bound",
    "log2_factorial",
    "ComparisonAdversary",
    "AdversaryResult",
    "play_adversary",
    "check_consistent",
    "TransitiveOrderLearner",
    "HalvingPermutationLearner",
    "iterate_sequences",
    "IteratedClassLearner",
    "play_iterated_adversary",
]

#: The paper's choice of the master's discount β (it minimises the constant of the bound).
PAPER_BETA = 0.294


def _check_permutation(z) -> tuple[int, ...]:
    if isinstance(z, (str, bytes)) or not hasattr(z, "__iter__"):
        raise TypeError(f"z must be a sequence, a permutation of 0..K-1, got {z!r} ({type(z).__name__})")
    z = tuple(check_int(v, "each entry of the permutation z") for v in z)
    if sorted(z) != list(range(len(z))):
        raise ValueError(f"z must be a permutation of 0..{len(z) - 1}, got {list(z)}")
    return z


def paired_permutation_label(z, x1: int, x2: int) -> int:
    """``y_z(x', x'') = max(z(x'), z(x''))``.

    Examples
    --------
    >>> z = (1, 2, 0)     # the paper's example z(1)=2, z(2)=3, z(3)=1, counted from 0
    >>> paired_permutation_label(z, 0, 1), paired_permutation_label(z, 0, 0)
    (2, 1)
    """
    z = _check_permutation(z)
    K = len(z)
    x1 = check_int(x1, "x'", low=0, high=K - 1)
    x2 = check_int(x2, "x''", low=0, high=K - 1)
    return max(z[x1], z[x2])


def pattern_index(x1: int, x2: int, K: int) -> int:
    """Number the pattern ``(x', x'')`` as the vertex ``x' K + x''`` of a similarity learner.

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


def random_permutation(K: int, seed) -> tuple[int, ...]:
    """A uniformly random permutation ``z`` of ``0 .. K-1`` (``z[x]`` = value of item ``x``).

    Examples
    --------
    >>> sorted(random_permutation(5, seed=0))
    [0, 1, 2, 3, 4]
    """
    K = check_int(K, "K", low=1)
    return tuple(int(v) for v in check_random_state(seed).permutation(K))


def comparison_trial(z, a: int, b: int) -> Trial:
    """The similarity trial ``((a, b), (b, b))``: similar (``0``) iff ``z(a) < z(b)``.

    Examples
    --------
    >>> comparison_trial((1, 2, 0), 0, 1)     # z(0)=1 < z(1)=2: max(1,2) = 2 = z(1), similar
    Trial(i=1, j=4, y=0, path=None)
    """
    z = _check_permutation(z)
    K = len(z)
    a, b = check_int(a, "a", low=0, high=K - 1), check_int(b, "b", low=0, high=K - 1)
    if a == b:
        raise ValueError(f"a comparison needs two distinct items, got a == b == {a}")
    y = int(paired_permutation_label(z, a, b) != z[b])
    return Trial(pattern_index(a, b, K), pattern_index(b, b, K), y)


def random_class_sequence(z, T: int, seed) -> list[tuple[tuple[int, int], int]]:
    """``T`` class examples ``((x', x''), y_z(x', x''))`` on uniformly random patterns.

    Examples
    --------
    >>> random_class_sequence((1, 2, 0), 2, seed=0)
    [((2, 1), 2), ((1, 0), 2)]
    """
    z = _check_permutation(z)
    K = len(z)
    T = check_int(T, "T", low=0)
    rng = check_random_state(seed)
    xs = rng.integers(K, size=(T, 2))
    return [((int(a), int(b)), max(z[a], z[b])) for a, b in xs]


def class_mistake_bound(K: int, beta: float = PAPER_BETA) -> float:
    """The proof's bound ``(K-1) log2(2/β) / log2(2/(1+β))`` on the class algorithm's mistakes.

    From ``((1+β)/2)^M >= W >= w_{s*} >= (β/2)^(K-1)``.  At ``β = 0.294`` the constant is
    ``4.4035``; the paper's ``4.1`` is a slip (no ``β`` gets below ``4.40``).

    Examples
    --------
    >>> round(class_mistake_bound(2), 4)
    4.4035
    """
    K = check_int(K, "K", low=1)
    beta = float(beta)
    if not 0 < beta < 1:
        raise ValueError(f"beta must lie in (0, 1), got {beta}")
    return (K - 1) * math.log2(2 / beta) / math.log2(2 / (1 + beta))


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
    """The class algorithm ``A`` of Theorem ``thm:lognec``: a weighted master over histories.

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


class PlainPairedPermutationClassLearner:
    """Plain reference of :class:`PairedPermutationClassLearner`, exactly as the proof writes it.

    A list of ``(history, weight)`` pairs, histories never merged, every ``A_0`` rebuilt from
    its history on each prediction.  Exponentially slower; the tests show that both make
    identical predictions and keep the same total weight.

    Examples
    --------
    >>> A = PlainPairedPermutationClassLearner(3)
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


def paired_permutation_hypotheses(K: int) -> np.ndarray:
    """The concept class ``{y_z}`` as a ``K! x K²`` matrix: row ``z``, column ``pattern_index(x', x'')``.

    Feed it to :class:`~simpred_lite.learners.HalvingClassifier` for a class learner with
    ``M <= ⌊log2 K!⌋``, and to :class:`~simpred_lite.learners.SimilarityFromClassifier`
    (Lemma equiv) for a similarity learner.  ``K <= 8``.

    Examples
    --------
    >>> H = paired_permutation_hypotheses(3)
    >>> H.shape, H[0].reshape(3, 3).tolist()      # z = identity: y(x', x'') = max(x', x'')
    ((6, 9), [[0, 1, 2], [1, 1, 2], [2, 2, 2]])
    """
    K = check_int(K, "K", low=2)
    if K > 8:
        raise ValueError(f"K! rows for K={K} are too many (at most K = 8)")
    P = np.array(list(permutations(range(K))), dtype=np.int64)
    first, second = np.repeat(np.arange(K), K), np.tile(np.arange(K), K)
    return np.maximum(P[:, first], P[:, second])


class PairedPermutationClassifier(ClassLearner):
    """:class:`PairedPermutationClassLearner` in the class-learner protocol, on pattern numbers.

    So that the reductions of :mod:`simpred_lite.learners.reductions` can use the paper's
    class algorithm as their base learner (it is conservative: it changes only on mistakes).

    Examples
    --------
    >>> clf = PairedPermutationClassifier(3)
    >>> clf.learn_class(pattern_index(0, 1, 3), 2); clf.mistakes, clf.predict_class(pattern_index(1, 0, 3))
    (1, 2)
    """

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


# -- comparison sorting: how many comparisons an adversary can always force ----------------------
def merge_sort_min_comparisons(K: int) -> int:
    """Fewest comparisons top-down merge sort makes on ``K`` items, over all answers.

    Merging sorted lists of lengths ``a <= b`` takes at least ``a`` comparisons, so
    ``C(K) = C(⌊K/2⌋) + C(⌈K/2⌉) + ⌊K/2⌋``.

    Examples
    --------
    >>> [merge_sort_min_comparisons(K) for K in (1, 2, 4, 8)]
    [0, 1, 4, 12]
    """
    return _merge_min(check_int(K, "K", low=1))


@lru_cache(maxsize=None)
def _merge_min(K: int) -> int:
    if K <= 1:
        return 0
    h = K // 2
    return _merge_min(h) + _merge_min(K - h) + h


def binary_insertion_min_comparisons(K: int) -> int:
    """Fewest comparisons binary insertion sort makes on ``K`` items: ``Σ_{j=2..K} ⌊log2 j⌋``.

    Inserting into a sorted list of length ``L`` (``L + 1`` places) takes
    ``⌊log2(L+1)⌋`` or ``⌈log2(L+1)⌉`` comparisons.  This is within ``K`` of ``log2 K!``.

    Examples
    --------
    >>> [binary_insertion_min_comparisons(K) for K in (1, 2, 4, 8)]
    [0, 1, 4, 13]
    """
    K = check_int(K, "K", low=1)
    return sum(j.bit_length() - 1 for j in range(2, K + 1))


def merge_sort_lower_bound(K: int) -> int:
    """A closed-form floor on merge sort's comparisons: ``m 2^(m-1)`` with ``m = ⌊log2 K⌋``.

    At ``K = 2^m`` this is exactly ``(K/2) log2 K`` comparisons, merge sort's fewest.  For
    other ``K`` the formula ``(K/2) ⌊log2 K⌋`` is **not** a floor (``K = 9`` can be sorted
    with 13 < 13.5 comparisons); since the fewest comparisons
    :func:`merge_sort_min_comparisons` grow with ``K``, the power of two below ``K`` gives
    ``m 2^(m-1) >= (K/4) ⌊log2 K⌋`` — still ``Ω(K log K)``.

    Examples
    --------
    >>> merge_sort_lower_bound(8), merge_sort_lower_bound(9), merge_sort_min_comparisons(9)
    (12, 12, 13)
    """
    K = check_int(K, "K", low=1)
    m = K.bit_length() - 1
    return m << (m - 1) if m else 0


def log2_factorial(K: int) -> float:
    """``log2 K!``, the information-theoretic number of comparisons to learn a permutation.

    Examples
    --------
    >>> round(log2_factorial(4), 4)
    4.585
    """
    K = check_int(K, "K", low=1)
    return math.log2(math.factorial(K))


def _merge_sort(items):
    """Top-down merge sort as a coroutine: yields ``(a, b)``, receives "z(a) < z(b)"."""
    if len(items) <= 1:
        return list(items)
    h = len(items) // 2
    left = yield from _merge_sort(items[:h])
    right = yield from _merge_sort(items[h:])
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if (yield (left[i], right[j])):
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def _binary_insertion_sort(items):
    """Binary insertion sort as a coroutine: yields ``(x, L[mid])``, receives "z(x) < z(L[mid])"."""
    out = list(items[:1])
    for x in items[1:]:
        lo, hi = 0, len(out)
        while lo < hi:
            mid = (lo + hi) // 2
            if (yield (x, out[mid])):
                hi = mid
            else:
                lo = mid + 1
        out.insert(lo, x)
    return out


_STRATEGIES = {"merge": _merge_sort, "binary_insertion": _binary_insertion_sort}


class ComparisonAdversary:
    """A similarity adversary on the paired permutation problem that asks sorting comparisons.

    It runs a comparison sort (``"merge"`` or ``"binary_insertion"``) on the items; each
    comparison ``z(a) < z(b)?`` becomes the similarity query ``((a, b), (b, b))`` (similar
    iff ``z(a) < z(b)``).  :meth:`answer` takes the learner's prediction and answers the
    opposite — always allowed, since these sorts never ask a comparison that earlier answers
    already imply — so the learner errs on **every** query.  When the sort ends, the sorted
    order defines the permutation ``z`` (:meth:`permutation`), consistent with every answer.

    Parameters
    ----------
    K : int
        Number of items (``K >= 1``).
    strategy : {"merge", "binary_insertion"}

    Examples
    --------
    >>> adv = ComparisonAdversary(2)
    >>> adv.query()                      # is z(0) < z(1)?  as the pair ((0,1), (1,1))
    (0, 1)
    >>> adv.answer(prediction=0)         # learner said similar: the adversary says dissimilar
    1
    >>> adv.done, adv.permutation()
    (True, (1, 0))
    """

    def __init__(self, K: int, strategy: str = "merge"):
        self.K = check_int(K, "K", low=1)
        if strategy not in _STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; choose one of {sorted(_STRATEGIES)}")
        self.strategy = strategy
        self._gen = _STRATEGIES[strategy](list(range(self.K)))
        self.asked: list[tuple[int, int, int]] = []  # (a, b, y)
        self._order: list[int] | None = None
        self._current: tuple[int, int] | None = None
        self._advance(None)

    def _advance(self, send):
        try:
            self._current = self._gen.send(send) if send is not None else next(self._gen)
        except StopIteration as stop:
            self._current = None
            self._order = list(stop.value)

    @property
    def done(self) -> bool:
        """True once the sort has finished (no more queries)."""
        return self._current is None

    def query(self) -> tuple[int, int] | None:
        """The items ``(a, b)`` of the next comparison, or ``None`` when done."""
        return self._current

    def query_pair(self) -> tuple[int, int] | None:
        """The next query as two pattern numbers ``((a, b), (b, b))`` for a similarity learner."""
        if self._current is None:
            return None
        a, b = self._current
        return pattern_index(a, b, self.K), pattern_index(b, b, self.K)

    def answer(self, prediction: int) -> int:
        """Answer the current query against ``prediction``; return the label ``y``."""
        if self._current is None:
            raise ValueError("the adversary has finished sorting: there is no query to answer")
        y = 1 - check_similarity_label(prediction)
        a, b = self._current
        self.asked.append((a, b, y))
        self._advance(y == 0)  # similar <=> z(a) < z(b)
        return y

    def permutation(self) -> tuple[int, ...]:
        """The permutation ``z`` revealed at the end (``z[x]`` = rank of ``x`` in the sort)."""
        if self._order is None:
            raise ValueError("the permutation is revealed only when the sort is done; keep answering queries")
        z = [0] * self.K
        for rank, x in enumerate(self._order):
            z[x] = rank
        return tuple(z)


@dataclass(frozen=True)
class AdversaryResult:
    """A learner's game against a :class:`ComparisonAdversary`.

    Attributes
    ----------
    trials : list of Trial
        The similarity trials, with the adversary's labels.
    predictions : numpy.ndarray
        The learner's predictions.
    z : tuple of int
        The permutation revealed at the end; every trial's label agrees with it.
    """

    trials: list
    predictions: np.ndarray
    z: tuple

    @property
    def mistakes(self) -> np.ndarray:
        """``1`` where the prediction was wrong."""
        return (self.predictions != np.array([t.y for t in self.trials], dtype=np.int64)).astype(np.int64)

    @property
    def total_mistakes(self) -> int:
        return int(self.mistakes.sum())


def play_adversary(learner, K: int, strategy: str = "merge") -> AdversaryResult:
    """Play a :class:`ComparisonAdversary` against a similarity learner on ``n = K²`` patterns.

    Parameters
    ----------
    learner : SimilarityLearner
        A fresh similarity learner with ``n >= K²`` vertices (patterns numbered by
        :func:`pattern_index`).
    K : int
        Number of items.
    strategy : {"merge", "binary_insertion"}

    Returns
    -------
    AdversaryResult
        Its ``total_mistakes`` is the number of comparisons asked, at least
        :func:`merge_sort_min_comparisons` for merge sort (``(K/2) log2 K`` at ``K = 2^m``).

    Examples
    --------
    >>> from simpred_lite.learners import UnionFindLearner
    >>> result = play_adversary(UnionFindLearner(16), 4)
    >>> result.total_mistakes, len(result.trials), check_consistent(result.z, result.trials)
    (4, 4, True)
    """
    K = check_int(K, "K", low=2)
    if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
        raise TypeError(f"{type(learner).__name__} is not a similarity learner (needs predict_one/learn_one)")
    if getattr(learner, "n", K * K) < K * K:
        raise ValueError(f"the learner has n={learner.n} vertices but K={K} items need n >= K*K = {K * K} patterns")
    adv = ComparisonAdversary(K, strategy)
    trials, preds = [], []
    while not adv.done:
        i, j = adv.query_pair()
        y_hat = learner.predict_one(i, j)
        y = adv.answer(y_hat)
        learner.learn_one(i, j, y)
        trials.append(Trial(i, j, y))
        preds.append(y_hat)
    return AdversaryResult(trials, np.asarray(preds, dtype=np.int64), adv.permutation())


def check_consistent(z, trials) -> bool:
    """True if every similarity trial on pattern numbers agrees with ``y_z``.

    Examples
    --------
    >>> check_consistent((1, 0), [comparison_trial((1, 0), 0, 1)])
    True
    """
    z = _check_permutation(z)
    K = len(z)
    for t in trials:
        a, b = pattern_items(t.i, K)
        c, d = pattern_items(t.j, K)
        if int(max(z[a], z[b]) != max(z[c], z[d])) != t.y:
            return False
    return True


# -- similarity learners for the paired permutation problem --------------------------------------
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

    Examples
    --------
    >>> L = HalvingPermutationLearner(3)
    >>> L.version_space_size
    6
    >>> L.learn_one(pattern_index(0, 1, 3), pattern_index(1, 1, 3), 0); L.version_space_size
    3
    """

    MAX_K = 8

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
            raise ValueError("these labels contradict every permutation: the sequence is not a paired permutation problem")
        self._perms = self._perms[keep]


def iterate_sequences(sequences) -> list:
    """The ``r``-iterated problem: conjoin ``r`` class sequences, tagging patterns with their copy.

    Each example ``(x, y)`` of sequence ``i`` becomes ``((x, i), y)``; a learner facing the
    ``r``-iterated problem is ``r`` independent learners, so the bounds become ``O(rK)``
    (class) and ``Ω(rK log K)`` (similarity).

    Examples
    --------
    >>> iterate_sequences([[((0, 1), 1)], [((1, 1), 0)]])
    [(((0, 1), 0), 1), (((1, 1), 1), 0)]
    """
    return [((x, i), y) for i, seq in enumerate(sequences) for x, y in seq]


class IteratedClassLearner:
    """The ``r``-iterated class algorithm: one :class:`PairedPermutationClassLearner` per copy.

    Patterns are ``((x', x''), i)`` with ``i`` the copy; mistakes add up, so the bound is
    ``r`` times :func:`class_mistake_bound`.

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


def play_iterated_adversary(learner, K: int, r: int, strategy: str = "merge") -> tuple[int, list]:
    """Play ``r`` comparison adversaries, one after the other, against one similarity learner.

    Copy ``c`` uses the patterns ``c K² + pattern_index(x', x'', K)``, so the learner needs
    ``n >= r K²`` vertices.  Returns the total number of mistakes (at least ``r`` times the
    merge-sort minimum) and the ``r`` permutations revealed.

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> total, zs = play_iterated_adversary(AlwaysSimilar(32), 4, r=2)
    >>> total, len(zs)
    (8, 2)
    """
    K, r = check_int(K, "K", low=2), check_int(r, "r", low=1)
    if getattr(learner, "n", r * K * K) < r * K * K:
        raise ValueError(f"the learner has n={learner.n} vertices but r={r} copies of K={K} need n >= {r * K * K}")
    total, zs = 0, []
    for c in range(r):
        adv = ComparisonAdversary(K, strategy)
        while not adv.done:
            i, j = (c * K * K + p for p in adv.query_pair())
            y_hat = learner.predict_one(i, j)
            y = adv.answer(y_hat)
            learner.learn_one(i, j, y)
            total += int(y_hat != y)
        zs.append(adv.permutation())
    return total, zs
