"""Similarity prediction when the graph is unknown (§5): the path forest and its learners.

On trial ``t`` the adversary reveals a pair ``(i_t, j_t)`` *and* a path of ``G`` joining
them; the learner never sees ``G`` otherwise.  The learner keeps the **forest of revealed
paths** (:class:`PathForest`): edges are numbered by first disclosure and oriented from the
low to the high vertex index, and the pair is encoded by the signed indicator
``x_t in {-1, 0, 1}^(n-1)`` of the forest's own ``i_t -> j_t`` path (Figure 7).

Learners on top of the forest:

* :class:`TreeWinnow` — the warm-up of §5: ``G`` a tree whose classes are connected, so
  ``y_t = 1`` iff the path holds a cut edge, a monotone disjunction learnt by Winnow.
* :class:`RNormPerceptron` — Algorithm 2: the ``r``-norm Perceptron on
  ``vec(X_t)``, ``X_t = x_t x_t^T``, with ``r = 4 ln(n-1)`` and threshold
  ``(r-1) ||x_t||_r^4``, in ``O(|x_t|^2)`` per trial.  :class:`RNormPerceptronReference` is
  the plain reference on ``(n-1)^2``-long vectors.

Helpers for the proof of Theorem 5 (appendix): :func:`fundamental_cutset_matrix`
``Q``, :func:`edge_path_vector` ``p``, :func:`class_coefficients` ``u_k`` and
:func:`complete_spanning_tree`, with which ``Q p`` is path-invariant and
``sum_k (u_k^T x_t)^2`` is ``2`` on dissimilar pairs and ``0`` on similar ones.

**Exact sparse = dense.**  ``theta`` (the dual weight) has integer entries, so both
r-norm implementations reduce a prediction to the same integers — the entries
``theta_ab x_a x_b`` on the support of ``X_t`` and the histogram ``{|theta_i|: count}`` —
and evaluate the margin from them by one canonical, order-independent formula
(:func:`rnorm_margin`, correctly rounded sums by :func:`math.fsum`, every power scaled by
``max |theta_i|`` so nothing overflows).  Hence the two make *identical* predictions,
ties on ``>=`` included, without any tolerance.
"""

from __future__ import annotations

import itertools
import math
import sys
from abc import abstractmethod
from fractions import Fraction

import numpy as np

from ..checks import (
    check_int,
    check_memory,
    check_real,
    check_simple_path,
)
from .base import SimilarityLearner
from .path_forest import PathForest, PathForestReference

__all__ = [
    "TreeWinnow",
    "rnorm_exponent",
    "rnorm_margin",
    "RNormPerceptron",
    "RNormPerceptronReference",
]


# --------------------------------------------------------------------------------------
# validation of revealed paths
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# the forest of revealed paths
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# learners on the forest
# --------------------------------------------------------------------------------------
class _ForestLearner(SimilarityLearner):
    """A learner that encodes each pair by its path in the forest of revealed paths."""

    needs_path = True
    _forest_class = PathForest

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n)
        self.forest = self._forest_class(self.n, grow)
        self.last_instance: tuple[list[int], list[int]] | None = None

    def _check_path(self, i, j, path):
        p = super()._check_path(i, j, path)
        return check_simple_path(i, j, p, self.n)

    @abstractmethod
    def _decide(self, idx, sgn) -> int:
        """The learner's rule on the instance ``(idx, sgn)``."""

    @abstractmethod
    def _update(self, idx, sgn, step: int) -> None:
        """The learner's update on a mistake."""

    def _predict(self, i, j, path):
        _, idx, sgn = self.forest.preview_sparse(i, j, path)
        return self._decide(idx, sgn)

    def _learn(self, i, j, y, y_hat, path):
        _, idx, sgn = self.forest.instance_sparse(i, j, path)  # the path is kept from now on
        self.last_instance = (idx, sgn)
        if y != y_hat:
            self._update(idx, sgn, y - y_hat)


class TreeWinnow(_ForestLearner):
    """Winnow on the path indicators of the forest (the warm-up of §5).

    If ``G`` is a tree and every class is connected, there are ``K - 1`` cut edges and
    ``y_t = 1`` iff the path of the pair holds one: with ``u`` the 0/1 indicator of the
    cut edges (numbered by disclosure) and ``|x_t|`` the unsigned path indicator,
    ``y_t = [u^T |x_t| >= 1]``, a monotone disjunction of ``K - 1`` of ``n - 1`` variables.
    Littlestone's Winnow (the demoting variant, WINNOW2) learns it with ``O(K log n)``
    mistakes, see :func:`tree_winnow_mistake_bound`:

    * predict ``1`` iff ``sum_{e in path} w_e >= threshold`` (weights start at ``1``);
    * on a missed dissimilar pair multiply the path's weights by ``alpha``, on a missed
      similar pair divide them by ``alpha``.

    Exact: the weights are ``alpha^k`` with integer exponents (kept in :attr:`exponents`).
    The float sum decides when it is farther from the threshold than its rounding error can
    be; otherwise (sum equal to the threshold is common with ``alpha = 2``) the sum is
    recomputed in exact rationals.

    On a general graph the forest is a spanning tree ``T`` of ``G`` and a class connected
    in ``G`` can be shattered in ``T`` (Figure 3(b)-(c)): the disjunction model is then
    wrong and Winnow keeps erring — the reason for :class:`RNormPerceptron`.

    Parameters
    ----------
    n : int
    alpha : float, default 2
        Promotion/demotion factor, ``1 < alpha <= 2^64``.
    threshold : float, optional
        Default ``n - 1``, the number of weights; ``2^-1000 <= threshold <= 2^1000`` (so that
        it and the weights near it are normal floats; a run whose weights still leave the
        normal float range is decided in exact rationals).
    grow : {"disconnected", "always"}
        See :class:`PathForest`.

    Examples
    --------
    >>> learner = TreeWinnow(4)       # the path 0 - 1 - 2 - 3, classes {0, 1} and {2, 3}
    >>> learner.learn_one(0, 3, 1, path=[0, 1, 2, 3])
    >>> learner.learn_one(1, 2, 1, path=[1, 2])
    >>> learner.predict_one(1, 3, path=[1, 2, 3]), learner.predict_one(0, 1, path=[0, 1])
    (1, 0)
    """

    setting = "unknown graph"
    description = "Winnow on the revealed paths' forest (§5 warm-up); bounded only on trees"

    def __init__(self, n: int, alpha: float = 2.0, threshold: float | None = None, grow: str = "disconnected"):
        super().__init__(n, grow)
        # weights alpha^k and the threshold must be normal floats for the certified float decision
        # (a subnormal or zero weight loses its relative accuracy): alpha in (1, 2^64], threshold in
        # [2^-1000, 2^1000]; the exponents k then stay far inside the float range on any run
        check_real(alpha, "alpha", low=1, low_inclusive=False, high=2.0**64)
        if threshold is None:
            threshold = self.n - 1
        check_real(threshold, "threshold", low=2.0**-1000, high=2.0**1000)
        self.alpha = float(alpha)
        self.threshold = float(threshold)
        self.weights = np.ones(self.n - 1)
        self.exponents = np.zeros(self.n - 1, dtype=np.int64)  # w_e = alpha ** exponents[e], exactly
        self._roundings = np.zeros(self.n - 1, dtype=np.int64)  # float roundings each weight went through

    def _decide(self, idx, sgn):
        # The exact sum is sum_e alpha^k_e with alpha and the threshold exact binary fractions.
        # A float weight that went through r roundings is off by at most ~r u relatively, and
        # the sum adds at most len(idx) u: outside that band the float comparison is certain; inside
        # (ties such as sum == threshold are common with alpha = 2) decide in exact rationals.
        from ..exact import UNIT_ROUNDOFF, certified_compare

        w = self.weights[idx]
        total = float(w.sum())
        spread = float(self._roundings[idx].max(initial=0)) + len(idx) + 2
        decision = certified_compare(total, self.threshold, 1.01 * spread * UNIT_ROUNDOFF * total)
        if w.size and not (w.min() >= sys.float_info.min and total < math.inf):
            decision = None  # a weight underflowed (subnormal or 0) or the sum overflowed: floats cannot certify
        if decision is None:
            a = Fraction(self.alpha)
            exact = sum((a ** int(k) for k in self.exponents[idx].tolist()), Fraction(0))
            return int(exact >= Fraction(self.threshold))
        return decision

    def _update(self, idx, sgn, direction):
        self.weights[idx] *= self.alpha if direction > 0 else 1.0 / self.alpha
        self.exponents[idx] += 1 if direction > 0 else -1
        self._roundings[idx] += 2  # 1/alpha and the product


# --------------------------------------------------------------------------------------
# the r-norm Perceptron (Algorithm 2)
# --------------------------------------------------------------------------------------
def rnorm_exponent(n: int) -> float:
    """The norm ``r = 4 ln(n - 1)`` of Algorithm 2 (natural log; needs ``n >= 3``).

    ``2 ln((n-1)^2)``: the p-norm choice for vectors of length ``(n-1)^2``.  With it,
    ``||x||_r^4 <= (n-1)^(4/r) = e`` for every ``x in {-1,0,1}^(n-1)``.

    Parameters
    ----------
    n : int
        Number of vertices (``n >= 3``).

    Examples
    --------
    >>> round(rnorm_exponent(101), 4)
    18.4207
    """
    if check_int(n, "n") < 3:
        raise ValueError(f"Algorithm 2 needs n >= 3 vertices (r = 4 ln(n-1) must exceed 2), got n={n}")
    return 4.0 * math.log(n - 1)


def _scaled_norm(hist: dict[int, int], r: float) -> tuple[int, float]:
    """``(V, S)`` with ``V = max |theta_i|`` and ``S = sum_v count_v (v/V)^r``, so ``||theta||_r^r = V^r S``."""
    V = max(hist)
    return V, math.fsum(c * (v / V) ** r for v, c in hist.items())


def rnorm_margin(entries: dict[int, int], hist: dict[int, int], r: float, scaled=None) -> float:
    """``w^T vec(X_t)`` from integers, with ``w_i = sign(theta_i)|theta_i|^(r-1) / ||theta||_r^(r-2)``.

    Parameters
    ----------
    entries : dict
        ``{t: count}``: how many of the ``|x_t|^2`` entries ``(a, b)`` of the support of
        ``X_t = x_t x_t^T`` have ``theta_ab * x_a * x_b = t`` (``t != 0``).
    hist : dict
        ``{v: count}``: how many entries of ``theta`` have ``|theta_i| = v`` (``v > 0``).
    r : float
    scaled : (int, float), optional
        ``(V, S)`` as computed from ``hist`` (a cache: it changes only when ``theta`` does).

    Notes
    -----
    With ``V = max |theta_i|``, ``w^T vec(X) = V * A / S^((r-2)/r)`` where
    ``A = sum_t count_t sign(t)(|t|/V)^(r-1)`` and ``S = sum_v count_v (v/V)^r``.
    Scaling by ``V`` keeps every power in ``[0, 1]`` (no overflow), and the sums are
    :func:`math.fsum` (correctly rounded, so independent of the order of the terms).  The
    result is a function of the two integer histograms alone: the canonical evaluation
    shared by :class:`RNormPerceptron` and :class:`RNormPerceptronReference`.

    Examples
    --------
    >>> rnorm_margin({1: 4}, {1: 4}, r=4.0)   # theta = vec(x x^T), x = (1, 1): ||x||_r^4 = 2
    2.0
    """
    if not hist:
        return 0.0  # theta = 0, so w = 0
    V, S = _scaled_norm(hist, r) if scaled is None else scaled
    A = math.fsum(math.copysign(c * (abs(t) / V) ** (r - 1), t) for t, c in entries.items() if t)
    return V * A / S ** ((r - 2) / r)


def _rnorm_threshold(ell: int, r: float) -> float:
    """Algorithm 2's threshold ``(r - 1) ||x_t||_r^4 = (r - 1) ell^(4/r)`` for a path of ``ell`` edges."""
    return (r - 1) * ell ** (4.0 / r)


def rnorm_decision(entries, hist, ell: int, r: float, scaled=None) -> int:
    """Algorithm 2's rule: ``1`` iff ``w^T vec(X_t) >= (r - 1) ||x_t||_r^4`` (``||x_t||_r^4 = ell^(4/r)``)."""
    return int(rnorm_margin(entries, hist, r, scaled) >= _rnorm_threshold(ell, r))


def _weighted_counts(values: np.ndarray, weights: np.ndarray) -> dict[int, int]:
    """``{value: total weight}`` over the nonzero ``values``."""
    nz = values != 0
    if not nz.any():
        return {}
    v, inv = np.unique(values[nz], return_inverse=True)
    c = np.bincount(inv.ravel(), weights=weights[nz])
    return {int(a): int(b) for a, b in zip(v.tolist(), c.tolist())}


class RNormPerceptron(_ForestLearner):
    """Algorithm 2: the r-norm Perceptron on ``vec(x_t x_t^T)``, in ``O(|x_t|^2)`` per trial.

    ``r = 4 ln(n-1)``, ``s = r/(r-1)``; predict ``1`` (dissimilar) iff
    ``w^T vec(X_t) >= (r-1) ||x_t||_r^4``; on a mistake the dual weight moves,
    ``theta += (y - y_hat) vec(X_t)``, and ``w = grad ||theta||_r^2 / 2``, i.e.
    ``w_i = sign(theta_i)|theta_i|^(r-1) / ||theta||_r^(r-2)`` (the inverse of
    ``f(w) = grad ||w||_s^2 / 2``).  ``x_t`` is the forest path of the pair
    (:class:`PathForest`).  Theorem 5: ``M = O(|Phi^G|^4 log n)``; an explicit
    constant is :func:`rnorm_perceptron_mistake_bound`.

    Sparse: ``theta`` is symmetric with integer entries, so only its upper triangle is
    stored, as a dict over the entries ever touched; the histogram of ``|theta_i|`` (over the
    full matrix) is kept incrementally, so ``||theta||_r^r`` never needs a pass over
    ``theta``.  A prediction reads the ``|x_t|(|x_t|+1)/2`` upper entries of the support of
    ``X_t`` and an update writes them.  :class:`RNormPerceptronReference` is the reference; both
    evaluate :func:`rnorm_margin` on the same integers, so predictions are identical.

    Tie-safe: the margin is a function of two integer histograms only, evaluated with
    correctly rounded sums (:func:`math.fsum`) and no BLAS, so it is the same float on every
    machine with an IEEE ``pow``; and it is compared with ``(r-1) ell^(4/r)``, where
    ``r = 4 ln(n-1)`` is transcendental, so exact ties are not a structural event as they are
    for rational scores.  ``tests/test_exact_decisions.py`` perturbs every margin by a
    relative ``1e-12`` over long runs and finds the same predictions.

    Parameters
    ----------
    n : int
        Number of vertices, ``n >= 3``.
    grow : {"disconnected", "always"}
        See :class:`PathForest`.

    Examples
    --------
    >>> learner = RNormPerceptron(5)
    >>> learner.predict_one(0, 4, path=[0, 2, 4])      # theta = 0: predicts similar
    0
    >>> for _ in range(6): learner.learn_one(0, 4, 1, path=[0, 2, 4])
    >>> learner.mistakes, round(learner.r - 1, 3)       # r - 1 mistakes on one pair, then it flips
    (5, 4.545)
    >>> learner.predict_one(0, 4, path=[0, 2, 4])
    1
    """

    _forest_class = PathForest
    display_name = "r-norm Perceptron"
    setting = "unknown graph"
    description = "Algorithm 2 on the revealed paths' forest"
    bound_text = "Theorem 5, M = O(|Phi|^4 log n), explicit constant"

    def mistake_bound(self, G, labels):
        """Theorem 5 with explicit constants (:func:`~simpred_lite.learners.bounds.rnorm_perceptron_cut_bound`)."""
        from ..graphs import cut_size
        from .bounds import rnorm_perceptron_cut_bound

        return float(rnorm_perceptron_cut_bound(self.n, cut_size(G, labels)))

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n, grow)
        self.r = rnorm_exponent(self.n)
        self.s = self.r / (self.r - 1)
        self._m = self.n - 1
        self._upper: dict[int, int] = {}  # key a * (n-1) + b with a <= b  ->  theta_ab (never 0)
        self.hist: dict[int, int] = {}  # |theta_i| -> number of entries of the full matrix
        self._triu: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._scaled: tuple[int, float] | None = None  # (V, S) of the histogram, reset by updates

    @property
    def theta(self) -> dict[int, int]:
        """The nonzero entries of ``theta`` as ``{a * (n-1) + b: theta_ab}``, both triangles."""
        m, out = self._m, {}
        for k, v in self._upper.items():
            a, b = divmod(k, m)
            out[k] = v
            out[b * m + a] = v
        return out

    def _support(self, idx, sgn):
        """Upper-triangle keys of the support of ``X_t``, the signs ``x_a x_b`` and weights (2 off the diagonal)."""
        ell = len(idx)
        if ell not in self._triu:
            p, q = np.triu_indices(ell)
            self._triu[ell] = (p, q, np.where(p == q, 1, 2))
        p, q, w = self._triu[ell]
        i = np.asarray(idx, dtype=np.int64)
        s = np.asarray(sgn, dtype=np.int64)
        a, b = i[p], i[q]
        keys = np.minimum(a, b) * self._m + np.maximum(a, b)
        return keys.tolist(), s[p] * s[q], w

    def _entries(self, keys, signs, w) -> dict[int, int]:
        get = self._upper.get
        vals = np.fromiter(map(get, keys, itertools.repeat(0)), dtype=np.int64, count=len(keys))
        return _weighted_counts(vals * signs, w)

    def _norm_cache(self):
        if self._scaled is None and self.hist:
            self._scaled = _scaled_norm(self.hist, self.r)
        return self._scaled

    def decision_threshold(self, ell: int) -> float:
        """The threshold the margin is compared with: ``(r - 1) ||x_t||_r^4 = (r - 1) ell^(4/r)``.

        The override point for a variant of Algorithm 2 with another threshold: a subclass
        that returns ``c (r - 1) ell^(4/r)`` predicts dissimilar iff
        ``w^T vec(X_t) >= c (r - 1) ||x_t||_r^4``.  Algorithm 2 is ``c = 1``.

        Parameters
        ----------
        ell : int
            ``|x_t|``, the number of edges on the pair's forest path (``ell >= 1``).

        Returns
        -------
        float

        Examples
        --------
        >>> learner = RNormPerceptron(10)
        >>> learner.decision_threshold(1) == learner.r - 1       # ||x_t||_r^4 = 1 for one edge
        True
        """
        return _rnorm_threshold(ell, self.r)

    def _margin_sparse(self, idx, sgn) -> float:
        return rnorm_margin(self._entries(*self._support(idx, sgn)), self.hist, self.r, self._norm_cache())

    def _decide(self, idx, sgn):
        return int(self._margin_sparse(idx, sgn) >= self.decision_threshold(len(idx)))

    def _update(self, idx, sgn, direction):
        keys, signs, w = self._support(idx, sgn)
        upper, hist = self._upper, self.hist
        self._scaled = None
        old = np.fromiter(map(upper.get, keys, itertools.repeat(0)), dtype=np.int64, count=len(keys))
        new = old + direction * signs
        for v, c in _weighted_counts(np.abs(old), w).items():
            c = hist[v] - c
            if c:
                hist[v] = c
            else:
                del hist[v]
        for v, c in _weighted_counts(np.abs(new), w).items():
            hist[v] = hist.get(v, 0) + c
        upper.update(zip(keys, new.tolist()))
        for k in np.asarray(keys)[new == 0].tolist():
            del upper[k]

    def margin(self, i: int, j: int, path) -> float:
        """``w^T vec(X_t)`` for the pair, without changing the learner.

        Examples
        --------
        >>> RNormPerceptron(4).margin(0, 1, [0, 1])
        0.0
        """
        _, idx, sgn = self.forest.preview_sparse(int(i), int(j), path)
        return self._margin_sparse(idx, sgn)

    def norm_r(self) -> float:
        """``||theta||_r`` from the histogram (scaled, so it never overflows).

        Examples
        --------
        >>> learner = RNormPerceptron(3); learner.learn_one(0, 2, 1, path=[0, 1, 2])
        >>> round(learner.norm_r() ** learner.r, 6)     # theta = vec(x x^T) has 4 entries +-1
        4.0
        """
        return _norm_from_hist(self.hist, self.r)


def _norm_from_hist(hist: dict[int, int], r: float) -> float:
    if not hist:
        return 0.0
    V, S = _scaled_norm(hist, r)
    return V * S ** (1 / r)


class RNormPerceptronReference(RNormPerceptron):
    """Plain reference for :class:`RNormPerceptron`: ``(n-1)^2``-long dense vectors, ``O(n^2)`` per trial.

    ``theta`` is a dense integer vector of length ``(n-1)^2``; each trial builds
    ``vec(X_t)`` (columns of ``x_t x_t^T`` stacked) from the :class:`PathForestReference`
    instance, counts the values of ``theta * vec(X_t)`` and of ``|theta|`` on the dense
    arrays, and applies the same rule.  :meth:`weights` gives the literal dense ``w``.

    Parameters
    ----------
    n : int
        Number of vertices.
    grow : {"disconnected", "always"}, default "disconnected"
        As in :class:`~simpred_lite.learners.PathForest`.

    Examples
    --------
    >>> learner = RNormPerceptronReference(5)
    >>> for _ in range(6): learner.learn_one(0, 4, 1, path=[0, 2, 4])
    >>> learner.mistakes, learner.predict_one(0, 4, path=[0, 2, 4])
    (5, 1)
    """

    display_name = "RNormPerceptronReference"
    setting = "reference"
    description = "plain reference of the r-norm Perceptron (dense vectors)"

    _forest_class = PathForestReference

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n, grow)
        check_memory(8 * self._m**2, f"RNormPerceptronReference({self.n}) (a dense (n-1)^2 int64 theta)",
                     "use RNormPerceptron(n): the same predictions with a sparse theta")
        self._dense = np.zeros(self._m * self._m, dtype=np.int64)

    @property
    def theta(self) -> np.ndarray:
        """The dual weight ``theta`` as a dense ``(n-1)^2`` integer vector."""
        return self._dense

    def vec_instance(self, idx, sgn) -> np.ndarray:
        """``vec(x x^T)``: the ``(n-1)^2`` vector stacking the columns of ``X = x x^T``."""
        x = np.zeros(self.n - 1, dtype=np.int64)
        x[np.asarray(idx, dtype=np.int64)] = np.asarray(sgn, dtype=np.int64)
        return np.outer(x, x).ravel(order="F")

    def _dense_hist(self) -> dict[int, int]:
        values, counts = np.unique(np.abs(self._dense[self._dense != 0]), return_counts=True)
        return {int(v): int(c) for v, c in zip(values.tolist(), counts.tolist())}

    def _dense_entries(self, idx, sgn) -> dict[int, int]:
        prod = self._dense * self.vec_instance(idx, sgn)
        values, counts = np.unique(prod[prod != 0], return_counts=True)
        return {int(v): int(c) for v, c in zip(values.tolist(), counts.tolist())}

    def _margin_sparse(self, idx, sgn) -> float:
        return rnorm_margin(self._dense_entries(idx, sgn), self._dense_hist(), self.r)

    def _decide(self, idx, sgn):
        return int(self._margin_sparse(idx, sgn) >= self.decision_threshold(len(idx)))

    def _update(self, idx, sgn, direction):
        self._dense += direction * self.vec_instance(idx, sgn)

    def margin(self, i, j, path) -> float:
        _, idx, sgn = self.forest.preview_sparse(int(i), int(j), path)
        return self._margin_sparse(idx, sgn)

    def weights(self) -> np.ndarray:
        """The primal weight ``w = sign(theta)|theta|^(r-1) / ||theta||_r^(r-2)``, literally (small n only).

        Examples
        --------
        >>> RNormPerceptronReference(3).weights().tolist()
        [0.0, 0.0, 0.0, 0.0]
        """
        t = self._dense.astype(float)
        norm = np.sum(np.abs(t) ** self.r) ** (1 / self.r)
        if norm == 0:
            return np.zeros_like(t)
        return np.sign(t) * np.abs(t) ** (self.r - 1) / norm ** (self.r - 2)

    def norm_r(self) -> float:
        return _norm_from_hist(self._dense_hist(), self.r)
