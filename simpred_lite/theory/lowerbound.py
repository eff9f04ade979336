"""The ``log K`` factor is necessary: the paired permutation problem (Theorem 9).

A permutation ``z`` of the ``K`` items ``0 .. K-1`` (the paper's ``1 .. K``) defines the
*paired permutation* concept on patterns ``(x', x'')``:

    y_z(x', x'') = max(z(x'), z(x'')).

* **Class prediction** (:class:`~simpred_lite.learners.PairedPermutationClassLearner`): a weighted master over
  hallucinated histories of the *consistent predictor* errs at most
  ``(K-1) log2(2/β) / log2(2/(1+β))`` times; with the paper's ``β = 0.294`` that constant
  is ``4.4035`` (the paper prints ``4.1``, a slip: ``β = 0.294`` is the minimiser and the
  minimum is ``4.40``; see :func:`~simpred_lite.learners.bounds.paired_permutation_mistake_bound`).
  :func:`version_space_class_run` is a greedy adversary against it that chooses the labels.
* **Similarity prediction** (:func:`play_adversary`): the query ``((x', x''), (x'', x''))``
  is *similar* iff ``z(x') < z(x'')``, so each similarity label is one comparison.  An
  adversary that asks the comparisons of merge sort and answers each against the learner's
  prediction forces a mistake on every query, and merge sort asks at least
  ``(K/2) log2 K`` comparisons (``K`` a power of two; ``m 2^(m-1)``, ``m = ⌊log2 K⌋``, in
  general) whatever the answers: ``Ω(K log K)`` mistakes for *any* similarity learner.

As similarity learners (protocol of :mod:`simpred_lite.learners.base`) the patterns are
numbered ``(x', x'') -> x' K + x''``, so a learner for ``K`` items has ``n = K²`` vertices.
The learners of this problem live in :mod:`simpred_lite.learners.permutations`; this module
holds the concept, the counts and the adversaries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import Any

import numpy as np

from ..checks import (
    check_class_learner,
    check_int,
    check_memory,
    check_num_trials,
    check_random_state,
    check_similarity_label,
)
from ..game.adversaries import Adversary
from ..game.trials import Trial
from ..learners.permutations import pattern_index, pattern_items

__all__ = [
    "paired_permutation_label",
    "random_permutation",
    "comparison_trial",
    "random_class_sequence",
    "paired_permutation_hypotheses",
    "merge_sort_min_comparisons",
    "binary_insertion_min_comparisons",
    "merge_sort_lower_bound",
    "log2_factorial",
    "ComparisonAdversary",
    "AdversaryResult",
    "play_adversary",
    "check_consistent",
    "iterate_sequences",
    "play_iterated_adversary",
    "version_space_class_run",
]


def _check_permutation(z) -> tuple[int, ...]:
    if isinstance(z, (str, bytes)) or not hasattr(z, "__iter__"):
        raise TypeError(f"z must be a sequence, a permutation of 0..K-1, got {z!r} ({type(z).__name__})")
    z = tuple(check_int(v, "each entry of the permutation z") for v in z)
    if sorted(z) != list(range(len(z))):
        raise ValueError(f"z must be a permutation of 0..{len(z) - 1}, got {list(z)}")
    return z


def paired_permutation_label(z, x1: int, x2: int) -> int:
    """``y_z(x', x'') = max(z(x'), z(x''))``.

    Parameters
    ----------
    z : sequence of int
        A permutation of ``0 .. K-1`` (``z[x]`` is the value of item ``x``).
    x1, x2 : int
        The pattern's items ``x'`` and ``x''``.

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


def random_permutation(K: int, seed) -> tuple[int, ...]:
    """A uniformly random permutation ``z`` of ``0 .. K-1`` (``z[x]`` = value of item ``x``).

    Parameters
    ----------
    K : int
        Number of items; the permutation is of ``0 .. K-1``.
    seed : int or numpy.random.Generator

    Examples
    --------
    >>> sorted(random_permutation(5, seed=0))
    [0, 1, 2, 3, 4]
    """
    K = check_int(K, "K", low=1)
    check_memory(40.0 * K, f"random_permutation({K}): a tuple of K Python ints (~40 bytes each)",
                 "use a smaller K (the lower bound grows like K log K: K = 10**4 already shows it)")
    return tuple(int(v) for v in check_random_state(seed).permutation(K))


def comparison_trial(z, a: int, b: int) -> Trial:
    """The similarity trial ``((a, b), (b, b))``: similar (``0``) iff ``z(a) < z(b)``.

    Parameters
    ----------
    z : sequence of int
        The hidden permutation.
    a, b : int
        The compared items: is ``z(a) < z(b)``?

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

    Parameters
    ----------
    z : sequence of int
        The permutation the labels come from.
    T : int
        Number of examples.
    seed : int or numpy.random.Generator

    Examples
    --------
    >>> random_class_sequence((1, 2, 0), 2, seed=0)
    [((2, 1), 2), ((1, 0), 2)]
    """
    z = _check_permutation(z)
    K = len(z)
    T = check_num_trials(T)
    rng = check_random_state(seed)
    xs = rng.integers(K, size=(T, 2))
    return [((int(a), int(b)), max(z[a], z[b])) for a, b in xs]


def paired_permutation_hypotheses(K: int) -> np.ndarray:
    """The concept class ``{y_z}`` as a ``K! x K²`` matrix: row ``z``, column ``pattern_index(x', x'')``.

    Feed it to :class:`~simpred_lite.learners.HalvingClassifier` for a class learner with
    ``M <= ⌊log2 K!⌋``, and to :class:`~simpred_lite.learners.SimilarityFromClassifier`
    (Lemma 7) for a similarity learner.  ``K <= 8``.

    Parameters
    ----------
    K : int
        Number of items, ``2 <= K <= 8``.

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


# -- comparison sorting: how many comparisons an adversary can always force ----------------------
def merge_sort_min_comparisons(K: int) -> int:
    """Fewest comparisons top-down merge sort makes on ``K`` items, over all answers.

    Merging sorted lists of lengths ``a <= b`` takes at least ``a`` comparisons, so
    ``C(K) = C(⌊K/2⌋) + C(⌈K/2⌉) + ⌊K/2⌋``.

    Parameters
    ----------
    K : int
        Number of items to sort.

    Examples
    --------
    >>> [merge_sort_min_comparisons(K) for K in (1, 2, 4, 8)]
    [0, 1, 4, 12]
    """
    return _merge_min(check_int(K, "K", low=1))


@cache
def _merge_min(K: int) -> int:
    if K <= 1:
        return 0
    h = K // 2
    return _merge_min(h) + _merge_min(K - h) + h


def binary_insertion_min_comparisons(K: int) -> int:
    """Fewest comparisons binary insertion sort makes on ``K`` items: ``Σ_{j=2..K} ⌊log2 j⌋``.

    Inserting into a sorted list of length ``L`` (``L + 1`` places) takes
    ``⌊log2(L+1)⌋`` or ``⌈log2(L+1)⌉`` comparisons.  This is within ``K`` of ``log2 K!``.

    Parameters
    ----------
    K : int
        Number of items inserted one by one.

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

    Parameters
    ----------
    K : int
        Number of items (the bound uses the power of two below it).

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

    Parameters
    ----------
    K : int
        ``K!`` orders of ``K`` items.

    Examples
    --------
    >>> round(log2_factorial(4), 4)
    4.585
    """
    K = check_int(K, "K", low=1)
    return math.log2(math.factorial(K))


def merge_sort_coroutine(items):
    """Top-down merge sort as a coroutine: yields ``(a, b)``, receives "z(a) < z(b)"."""
    if len(items) <= 1:
        return list(items)
    h = len(items) // 2
    left = yield from merge_sort_coroutine(items[:h])
    right = yield from merge_sort_coroutine(items[h:])
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if (yield (left[i], right[j])):
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def binary_insertion_sort_coroutine(items):
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


_STRATEGIES = {"merge": merge_sort_coroutine, "binary_insertion": binary_insertion_sort_coroutine}


class ComparisonAdversary(Adversary):
    """A similarity adversary on the paired permutation problem that asks sorting comparisons.

    One of the :class:`~simpred_lite.game.Adversary` family (``choose(game)`` poses the
    current comparison), and one of the adversaries of the lower bounds that also choose the
    *label*, after the prediction (:meth:`answer`).

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

    name = "comparison"

    def choose(self, game=None):
        """The current comparison as a pair of pattern numbers, with no path."""
        pair = self.query_pair()
        if pair is None:
            raise ValueError("the comparison adversary is done: the permutation is determined")
        return (*pair, None)

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
        pair = adv.query_pair()
        assert pair is not None  # the adversary is not done
        i, j = pair
        y_hat = learner.predict_one(i, j)
        y = adv.answer(y_hat)
        learner.learn_one(i, j, y)
        trials.append(Trial(i, j, y))
        preds.append(y_hat)
    return AdversaryResult(trials, np.asarray(preds, dtype=np.int64), adv.permutation())


def check_consistent(z, trials) -> bool:
    """True if every similarity trial on pattern numbers agrees with ``y_z``.

    Parameters
    ----------
    z : sequence of int
        The permutation to check the trials against.
    trials : iterable of Trial
        Similarity trials on pattern numbers.

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


def iterate_sequences(sequences) -> list:
    """The ``r``-iterated problem: conjoin ``r`` class sequences, tagging patterns with their copy.

    Each example ``(x, y)`` of sequence ``i`` becomes ``((x, i), y)``; a learner facing the
    ``r``-iterated problem is ``r`` independent learners, so the bounds become ``O(rK)``
    (class) and ``Ω(rK log K)`` (similarity).

    Parameters
    ----------
    sequences : sequence of sequences of (pattern, int)
        One class sequence per copy.

    Examples
    --------
    >>> iterate_sequences([[((0, 1), 1)], [((1, 1), 0)]])
    [(((0, 1), 0), 1), (((1, 1), 1), 0)]
    """
    return [((x, i), y) for i, seq in enumerate(sequences) for x, y in seq]


def play_iterated_adversary(learner, K: int, r: int, strategy: str = "merge") -> tuple[int, list]:
    """Play ``r`` comparison adversaries, one after the other, against one similarity learner.

    Copy ``c`` uses the patterns ``c K² + pattern_index(x', x'', K)``, so the learner needs
    ``n >= r K²`` vertices.  Returns the total number of mistakes (at least ``r`` times the
    merge-sort minimum) and the ``r`` permutations revealed.

    Parameters
    ----------
    learner : SimilarityLearner
        On at least ``r K²`` vertices.
    K : int
        Number of items of each copy.
    r : int
        Number of copies.
    strategy : {"merge", "binary_insertion"}, default "merge"

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
            pair = adv.query_pair()
            assert pair is not None  # the adversary is not done
            i, j = (c * K * K + p for p in pair)
            y_hat = learner.predict_one(i, j)
            y = adv.answer(y_hat)
            learner.learn_one(i, j, y)
            total += int(y_hat != y)
        zs.append(adv.permutation())
    return total, zs


def version_space_class_run(learner: Any, K: int, seed: Any,
                            max_trials: int | None = None) -> tuple[list[tuple[tuple[int, int], int]], tuple[int, ...]]:
    """The greedy version-space adversary of the class side of Theorem 9 (paired permutations).

    Unlike the ``"adaptive"`` adversary of the class game
    (:func:`simpred_lite.game.adaptive_class_run`), which poses patterns of a *fixed* labelling,
    this one *chooses the labels* as it goes: any paired permutation consistent with its
    answers so far may turn out to be the concept, as in a lower-bound proof.  It keeps the
    version space ``V`` of permutations consistent with its answers (all ``K!`` at the start,
    ``K <= 8``).  On each trial it asks the learner's prediction on
    every pattern ``(x', x'')``; among the patterns where some ``z`` in ``V`` disagrees with the
    prediction it poses the one, with the wrong label, that keeps ``V`` largest (ties broken by
    a seeded random order), so every trial is a mistake and the game lasts as long as it can
    greedily.  It stops when the learner is right on every pattern for every ``z`` in ``V``.

    Parameters
    ----------
    learner : ClassLearner
        A class learner on the ``K²`` patterns that takes the pairs ``(x', x'')``, e.g.
        :class:`~simpred_lite.learners.PairedPermutationClassLearner`.
    K : int
        Number of items, ``2 <= K <= 8``.
    seed : int or numpy.random.Generator
    max_trials : int, optional
        Stop after this many trials.

    Returns
    -------
    examples : list of ((int, int), int)
        The sequence played; every example is a mistake of the learner.
    z : tuple of int
        A permutation consistent with every example (the first left in ``V``).

    Examples
    --------
    >>> from simpred_lite.learners import PairedPermutationClassLearner
    >>> A = PairedPermutationClassLearner(3)
    >>> examples, z = version_space_class_run(A, 3, seed=0)
    >>> A.mistakes == len(examples) <= 2 * 4.4035
    True
    >>> all(paired_permutation_label(z, a, b) == y for (a, b), y in examples)
    True
    """
    check_class_learner(learner, "learner")
    K = check_int(K, "K", low=1)
    if not 2 <= K <= 8:
        raise ValueError(f"K must lie in 2..8 (the adversary enumerates all K! permutations), got {K}")
    if learner.n != K * K:
        raise ValueError(f"the learner has n={learner.n} patterns, the paired permutation problem with K={K} items "
                         f"has K² = {K * K}; build the learner for K={K}")
    if max_trials is not None:
        max_trials = check_int(max_trials, "max_trials", low=1)
    rng = check_random_state(seed)
    H = paired_permutation_hypotheses(K)           # K! x K^2 labels y_z(x', x'')
    perms = np.array(list(permutations(range(K))), dtype=np.int64)   # the row order of H
    alive = np.ones(len(H), dtype=bool)
    examples: list[tuple[tuple[int, int], int]] = []
    while max_trials is None or len(examples) < max_trials:
        best = None
        for p in rng.permutation(K * K):
            x = (int(p) // K, int(p) % K)
            y_hat = learner.predict_class(x)
            values, counts = np.unique(H[alive, p], return_counts=True)
            for v, c in zip(values, counts):
                if v != y_hat and (best is None or c > best[0]):
                    best = (int(c), x, int(v), int(p))
        if best is None:
            break
        _, x, y, p = best
        learner.learn_class(x, y)
        alive &= H[:, p] == y
        examples.append((x, y))
    z = tuple(int(v) for v in perms[np.flatnonzero(alive)[0]])
    return examples, z
