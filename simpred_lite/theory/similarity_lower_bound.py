"""The lower bound of Proposition 1, played against real learners.

Proposition 1 of the paper says: for every ``phi >= 0`` there is a ``K``-class labeling
``y`` of ``G`` on which *any* similarity algorithm makes at least ``phi/2 - K`` mistakes
while the resistance-weighted cut ``E|Phi^T(y)| = sum_{(i,j) in Phi^G(y)} R_ij`` is below
``phi``.  The paper obtains it from a class-prediction lower bound (CGV09b) and the
reduction of Theorem 1.  Here the argument is made direct and
constructive, so that it can be run against a learner:

* the *resistance degree* of a vertex, ``r(v) = sum_{u ~ v} R_uv``, is the expected
  degree of ``v`` in a uniform random spanning tree; by Foster's theorem
  ``sum_v r(v) = 2(n - 1)``, so the average is below 2;
* take the vertices with the smallest ``r`` (never the *anchor*, the vertex with the largest
  ``r``) as long as their resistance degrees sum to less than ``phi``: a set ``S`` with
  ``|S| > phi/2 - 1`` (a prefix of a sorted list has average at most the overall
  average, ``< 2``);
* every vertex outside ``S`` is in class 0, like the anchor.  For each ``v`` in ``S`` the
  adversary asks ``(anchor, v)`` and *then* decides the class of ``v``: class 0 if the
  learner said *dissimilar*, another class if it said *similar*.  Every trial is a mistake.

Every cut edge of the final labeling has an endpoint in ``S``, so
``E|Phi^T| <= sum_{v in S} r(v) < phi``, and the learner made ``|S| >= phi/2 - 1`` mistakes
(``>= phi/2 - K`` for every ``K >= 1``).  On a fixed graph this needs ``phi`` small enough:
once ``phi > 2(n - 1) - r(anchor)`` the set ``S`` holds every vertex but the anchor, ``M = n - 1``,
and ``M >= phi/2 - K`` holds only up to ``phi = 2(n - 1 + K)`` (:func:`force_lower_bound`
refuses a larger ``phi``); the paper's "for any phi >= 0" needs the graph to grow with ``phi``.
For a deterministic learner the labeling and the
sequence found this way are fixed in hindsight: replaying them on a fresh copy gives the
same mistakes, which is what "a labeling exists" means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from ..checks import check_real
from ..game.play import run
from ..game.trials import RunResult, Trial
from ..graphs import cut_edges, validate_graph
from ..resistance import edge_list, effective_resistance

#: Resistance degrees are compared after rounding to this many decimals, so that vertices with
#: mathematically equal ``r(v)`` are ordered by index on every machine.
_TIE_DECIMALS = 9

__all__ = [
    "resistance_degrees",
    "lower_bound_vertices",
    "LowerBoundGame",
    "force_lower_bound",
]


def resistance_degrees(G: nx.Graph) -> np.ndarray:
    """``r(v) = sum over neighbours u of R_uv``: the expected degree of ``v`` in a uniform spanning tree.

    Parameters
    ----------
    G : networkx.Graph
        Connected, vertices ``0 .. n-1`` (weights ignored).

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)``; it sums to ``2(n - 1)`` (Foster's theorem), and ``r(v) >= 1``.

    Examples
    --------
    >>> r = resistance_degrees(nx.complete_graph(4))   # every edge has R = 2/4
    >>> r.round(6).tolist(), round(float(r.sum()), 6)
    ([1.5, 1.5, 1.5, 1.5], 6.0)
    """
    G = validate_graph(G)
    edges = edge_list(G)
    R = effective_resistance(G, pairs=edges)
    r = np.zeros(G.number_of_nodes())
    ends = np.asarray(edges, dtype=np.int64)
    np.add.at(r, ends[:, 0], R)
    np.add.at(r, ends[:, 1], R)
    return r


def lower_bound_vertices(G: nx.Graph, phi: float) -> tuple[int, list[int]]:
    """The anchor and the set ``S`` of the adversary: smallest resistance degrees, total ``< phi``.

    Parameters
    ----------
    G : networkx.Graph
    phi : float
        Target resistance-weighted cut, ``>= 0``.

    Returns
    -------
    anchor : int
        The vertex with the largest resistance degree (smallest index on ties).
    S : list of int
        Vertices other than the anchor, by increasing ``r(v)`` (then index), taken while the
        running sum of ``r`` stays ``< phi``.  If ``|S| < n - 1`` then ``|S| > phi/2 - 1``.

    Examples
    --------
    >>> anchor, S = lower_bound_vertices(nx.star_graph(5), phi=3.5)   # leaves have r = 1
    >>> anchor, S
    (0, [1, 2, 3])
    """
    phi = check_real(phi, "phi", low=0)
    r = resistance_degrees(G)
    key = np.round(r, _TIE_DECIMALS)  # equal resistance degrees tie exactly, whatever the rounding
    anchor = int(np.argmax(key))
    order = [int(v) for v in np.lexsort((np.arange(r.size), key)) if v != anchor]
    S, total = [], 0.0
    for v in order:
        if total + r[v] >= phi:
            break
        S.append(v)
        total += r[v]
    return anchor, S


@dataclass(frozen=True)
class LowerBoundGame:
    """What :func:`force_lower_bound` did to a learner.

    Attributes
    ----------
    labels : numpy.ndarray
        The labeling the adversary settled on (classes ``0 .. K-1``).
    trials : list of Trial
        The pairs asked, with their true labels under ``labels``.
    result : RunResult
        The learner's predictions and mistakes (a mistake on every trial).
    phi : float
        The target: ``expected_tree_cut < phi`` is guaranteed.
    K : int
        Number of classes allowed.
    expected_tree_cut : float
        ``E|Phi^T| = sum of R over the cut edges of labels`` (exact, not sampled).
    budget : float
        ``sum_{v in S} r(v)``, the guaranteed upper bound on ``expected_tree_cut``.
    """

    labels: np.ndarray
    trials: list
    result: RunResult
    phi: float
    K: int
    expected_tree_cut: float
    budget: float

    @property
    def mistakes(self) -> int:
        """Mistakes the learner made (= number of trials)."""
        return self.result.total_mistakes

    @property
    def lower_bound(self) -> float:
        """Proposition 1's guarantee ``phi/2 - K``."""
        return self.phi / 2 - self.K


def force_lower_bound(learner: Any, G: nx.Graph, phi: float, K: int = 2) -> LowerBoundGame:
    """Play Proposition 1's lower-bound adversary against ``learner`` on ``G``.

    The learner is asked ``(anchor, v)`` for each ``v`` of :func:`lower_bound_vertices`;
    after its prediction the adversary fixes ``v``'s class so that the prediction is wrong
    (class 0 when it said *dissimilar*; classes ``1 .. K-1`` in turn when it said *similar*),
    then reveals the label through ``learn_one``.  All other vertices are in class 0.

    Parameters
    ----------
    learner : SimilarityLearner
        A fresh learner on the vertices of ``G`` that does not need paths.
    G : networkx.Graph
    phi : float
        Target resistance-weighted cut.
    K : int, default 2
        Number of classes the labeling may use, ``>= 2``.

    Returns
    -------
    LowerBoundGame

    Raises
    ------
    ValueError
        If ``K < 2``, ``phi < 0``, the learner needs paths or has another number of vertices, or
        ``phi > 2(n - 1 + K)`` (checked before any trial is played).  On a fixed graph ``S`` runs
        out of vertices once ``phi > 2(n - 1) - r(anchor)``: then ``M = n - 1``, which is
        ``>= phi/2 - K`` only up to ``phi = 2(n - 1 + K)``.  A larger ``phi`` needs a larger graph.

    Examples
    --------
    >>> from simpred_lite.learners import UnionFindLearner
    >>> G = nx.path_graph(10)
    >>> game = force_lower_bound(UnionFindLearner(10), G, phi=6.0)
    >>> game.mistakes, len(game.trials), bool(game.expected_tree_cut < 6.0 <= 2 * game.mistakes + 2)
    (3, 3, True)
    >>> force_lower_bound(UnionFindLearner(10), G, phi=30.0)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: phi=30.0 is too large for this graph: S runs out of vertices ...
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    if isinstance(K, (bool, np.bool_)) or not isinstance(K, (int, np.integer)):
        raise TypeError(f"K must be an integer number of classes, got {K!r}")
    if K < 2:
        raise ValueError(f"K must be >= 2 (with one class there is nothing to predict), got {K}")
    if getattr(learner, "needs_path", False):
        raise ValueError("the adversary asks pairs without paths; this learner needs paths")
    if getattr(learner, "n", n) != n:
        raise ValueError(f"the learner has n={learner.n} vertices but the graph has {n}")
    anchor, S = lower_bound_vertices(G, phi)
    if phi > 2 * (n - 1 + K):  # checked before any trial: S runs out and M = n - 1 < phi/2 - K
        r = resistance_degrees(G)
        raise ValueError(
            f"phi={float(phi)} is too large for this graph: S runs out of vertices (all {n - 1} non-anchor "
            f"vertices, sum of r = {float(r[S].sum()):.4g} < phi), so M = {n - 1}, and M >= phi/2 - K holds "
            f"only for phi <= 2(n - 1 + K) = {2 * (n - 1 + K)}; a larger phi needs a larger graph")
    labels = np.zeros(n, dtype=np.int64)
    trials, next_class = [], 1
    for v in S:
        if learner.predict_one(anchor, v) == 0:  # said "similar": make it dissimilar
            labels[v] = next_class
            next_class = next_class % (K - 1) + 1
        trials.append(Trial(anchor, v, int(labels[v] != labels[anchor])))
        learner.learn_one(anchor, v, trials[-1].y)
    preds = np.array([1 - t.y for t in trials], dtype=np.int64)
    wrong = np.ones(len(trials), dtype=np.int64)
    result = RunResult(preds, wrong, np.cumsum(wrong))
    cut = cut_edges(G, labels)
    tree_cut = float(effective_resistance(G, pairs=cut).sum()) if cut else 0.0
    r = resistance_degrees(G)
    return LowerBoundGame(labels, trials, result, float(phi), int(K), tree_cut, float(r[S].sum()) if S else 0.0)


def replay(game: LowerBoundGame, learner: Any) -> RunResult:
    """Replay the game's fixed sequence on a fresh ``learner`` (the labeling exists in hindsight).

    Parameters
    ----------
    game : LowerBoundGame
        A game played by :func:`force_lower_bound`.
    learner : SimilarityLearner
        Another learner, on the same vertices.

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> game = force_lower_bound(AlwaysSimilar(6), nx.cycle_graph(6), phi=4.0)
    >>> replay(game, AlwaysSimilar(6)).total_mistakes == game.mistakes
    True
    """
    return run(learner, game.trials)


__all__ += ["replay"]
