"""The online similarity game: trials, the run loop and trial sequences.

On trial ``t`` the learner sees a pair ``(i_t, j_t)`` (plus a path in the unknown-graph
setting of §5), predicts, and is told ``y_t`` (``1`` dissimilar, ``0`` similar).  The
quantity of interest is the number of mistakes, ``M = sum_t [y_hat_t != y_t]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from .graphs import _rng, validate_graph, validate_labels
from .learners.base import check_pair, check_similarity_label, check_vertex

__all__ = ["Trial", "RunResult", "run", "random_trials", "trials_from_pairs"]


@dataclass(frozen=True)
class Trial:
    """One round of the game: the pair ``(i, j)``, its label ``y`` and maybe a path.

    Parameters
    ----------
    i, j : int
        Two distinct vertices.
    y : int
        ``1`` if ``i`` and ``j`` are in different classes (dissimilar), ``0`` if similar.
    path : tuple of int, optional
        A path ``i = v_0, v_1, ..., v_k = j`` in the graph, revealed with the pair when the
        graph is unknown (§5).

    Examples
    --------
    >>> Trial(0, 5, 1)
    Trial(i=0, j=5, y=1, path=None)
    """

    i: int
    j: int
    y: int
    path: tuple[int, ...] | None = field(default=None)

    def __post_init__(self):
        for name in ("i", "j"):
            v = getattr(self, name)
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"Trial.{name} must be an integer vertex, got {v!r}")
            if v < 0:
                raise ValueError(f"Trial.{name} must be a vertex index >= 0, got {v}")
            object.__setattr__(self, name, int(v))
        if self.i == self.j:
            raise ValueError(f"a trial needs two distinct vertices, got i == j == {self.i}")
        object.__setattr__(self, "y", check_similarity_label(self.y))
        if self.path is not None:
            p = tuple(int(v) for v in self.path)
            if len(p) < 2 or p[0] != self.i or p[-1] != self.j:
                raise ValueError(f"Trial.path must run from i={self.i} to j={self.j}, got {list(p)}")
            object.__setattr__(self, "path", p)


@dataclass(frozen=True)
class RunResult:
    """What happened in a run of a learner over a trial sequence.

    Attributes
    ----------
    predictions : numpy.ndarray
        ``y_hat_t`` for each trial.
    mistakes : numpy.ndarray
        ``1`` where ``y_hat_t != y_t``, else ``0``.
    cumulative : numpy.ndarray
        ``cumulative[t]`` = mistakes on trials ``0 .. t`` (the mistake curve).
    """

    predictions: np.ndarray
    mistakes: np.ndarray
    cumulative: np.ndarray

    @property
    def total_mistakes(self) -> int:
        """The number of mistakes ``M`` over the whole run."""
        return int(self.cumulative[-1]) if self.cumulative.size else 0

    def __len__(self) -> int:
        return int(self.predictions.size)


def run(learner, trials: Iterable[Trial]) -> RunResult:
    """Play ``trials`` against ``learner``: predict, then reveal, trial by trial.

    Parameters
    ----------
    learner : SimilarityLearner
        Anything with ``predict_one(i, j, path=None)`` and ``learn_one(i, j, y, path=None)``.
    trials : iterable of Trial

    Returns
    -------
    RunResult

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> result = run(AlwaysSimilar(3), [Trial(0, 1, 0), Trial(0, 2, 1)])
    >>> result.mistakes.tolist(), result.total_mistakes
    ([0, 1], 1)
    """
    if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
        raise TypeError(
            f"{type(learner).__name__} is not a similarity learner: it needs "
            "predict_one(i, j, path=None) and learn_one(i, j, y, path=None)"
        )
    preds, wrong = [], []
    for t in trials:
        if not isinstance(t, Trial):
            raise TypeError(f"run() takes Trial objects, got {type(t).__name__}; build them with Trial(i, j, y)")
        y_hat = learner.predict_one(t.i, t.j, t.path)
        learner.learn_one(t.i, t.j, t.y, t.path)
        preds.append(y_hat)
        wrong.append(int(y_hat != t.y))
    mistakes = np.asarray(wrong, dtype=np.int64)
    return RunResult(np.asarray(preds, dtype=np.int64), mistakes, np.cumsum(mistakes))


def trials_from_pairs(labels, pairs: Iterable[Sequence[int]]) -> list[Trial]:
    """Label each pair with the truth given by ``labels``.

    Examples
    --------
    >>> trials_from_pairs([0, 0, 1], [(0, 1), (1, 2)])
    [Trial(i=0, j=1, y=0, path=None), Trial(i=1, j=2, y=1, path=None)]
    """
    y = np.asarray(labels)
    n = y.shape[0]
    out = []
    for i, j in pairs:
        i, j = check_pair(i, j, n)
        out.append(Trial(i, j, int(y[i] != y[j])))
    return out


def random_trials(G: nx.Graph, labels, T: int, seed) -> list[Trial]:
    """``T`` trials on pairs drawn uniformly among all pairs of distinct vertices.

    Parameters
    ----------
    G : networkx.Graph
        The (validated) graph; only its vertex set is used.
    labels : array_like of int
        Class of each vertex; gives the true similarity labels.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator

    Examples
    --------
    >>> import networkx as nx
    >>> trials = random_trials(nx.path_graph(5), [0, 0, 0, 1, 1], 3, seed=1)
    >>> len(trials), all(t.i != t.j for t in trials)
    (3, True)
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    if n < 2:
        raise ValueError("random pairs need a graph with at least two vertices")
    y = validate_labels(labels, n)
    if T < 0:
        raise ValueError(f"T must be a non-negative number of trials, got {T}")
    rng = _rng(seed)
    i = rng.integers(n, size=T)
    j = (i + rng.integers(1, n, size=T)) % n  # uniform over the other n-1 vertices
    return [Trial(int(a), int(b), int(y[a] != y[b])) for a, b in zip(i, j)]


def check_trial_vertices(trials: Iterable[Trial], n: int) -> None:
    """Raise ``ValueError`` if a trial names a vertex outside ``0 .. n-1``."""
    for t in trials:
        check_vertex(t.i, n, "vertex i")
        check_vertex(t.j, n, "vertex j")


# -- trial sequences that stress a learner (issue 4) ------------------------------------------
__all__ += ["cut_biased_trials", "AdaptiveAdversary", "adaptive_run"]


def cut_biased_trials(G: nx.Graph, labels, T: int, seed, p_cut: float = 0.5) -> list[Trial]:
    """``T`` trials where each pair is, with probability ``p_cut``, the two ends of a cut edge.

    Otherwise the pair is uniform among all pairs of distinct vertices.  Cut edges are the
    hardest pairs for graph learners: adjacent yet dissimilar.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    p_cut : float, default 0.5
        Probability of drawing a cut edge (in a random orientation).

    Examples
    --------
    >>> trials = cut_biased_trials(nx.path_graph(6), [0, 0, 0, 1, 1, 1], 4, seed=0, p_cut=1.0)
    >>> sorted({(min(t.i, t.j), max(t.i, t.j), t.y) for t in trials})
    [(2, 3, 1)]
    """
    from .graphs import cut_edges

    G = validate_graph(G)
    n = G.number_of_nodes()
    y = validate_labels(labels, n)
    if not (isinstance(T, (int, np.integer)) and T >= 0):
        raise ValueError(f"T must be a non-negative number of trials, got {T!r}")
    if not (isinstance(p_cut, (int, float)) and 0.0 <= p_cut <= 1.0):
        raise ValueError(f"p_cut must be a probability in [0, 1], got {p_cut!r}")
    cut = np.array(cut_edges(G, y), dtype=np.int64).reshape(-1, 2)
    if len(cut) == 0 and p_cut > 0:
        raise ValueError("the labeling has no cut edge (one class?): use random_trials, or p_cut=0")
    rng = _rng(seed)
    out = []
    for _ in range(int(T)):
        if rng.random() < p_cut:
            a, b = cut[rng.integers(len(cut))]
            if rng.random() < 0.5:
                a, b = b, a
        else:
            a = rng.integers(n)
            b = (a + rng.integers(1, n)) % n
        out.append(Trial(int(a), int(b), int(y[a] != y[b])))
    return out


class AdaptiveAdversary:
    """An adversary that looks at the learner before choosing the pair.

    Each round it draws ``num_candidates`` pairs (uniformly, or from ``pairs``), asks the
    learner's ``predict_one`` on each — which never changes the learner — and serves the
    first one the learner would get wrong; if there is none, a random candidate.  Used to
    show worst cases and to drive equivalence tests through the states mistakes create.

    Parameters
    ----------
    labels : array_like of int
        The true classes, ``labels[v]`` for each vertex.
    seed : int or numpy.random.Generator
    num_candidates : int, default 32
    pairs : sequence of (int, int), optional
        The pool candidates are drawn from (default: all pairs of distinct vertices).

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> adv = AdaptiveAdversary([0, 0, 1, 1], seed=0)
    >>> t = adv.next_trial(AlwaysSimilar(4)); t.y     # AlwaysSimilar errs on dissimilar pairs
    1
    """

    def __init__(self, labels, seed, num_candidates: int = 32, pairs=None):
        y = np.asarray(labels)
        self.labels = validate_labels(labels, y.shape[0] if y.ndim == 1 else -1)
        self.n = self.labels.shape[0]
        if self.n < 2:
            raise ValueError("an adversary needs at least two vertices")
        if isinstance(num_candidates, bool) or not isinstance(num_candidates, (int, np.integer)) or num_candidates < 1:
            raise ValueError(f"num_candidates must be a positive integer, got {num_candidates!r}")
        self.num_candidates = int(num_candidates)
        self.pairs = None if pairs is None else [check_pair(i, j, self.n) for i, j in pairs]
        if self.pairs is not None and not self.pairs:
            raise ValueError("pairs is empty: give at least one candidate pair, or None for all pairs")
        self._rng = _rng(seed)

    def _candidates(self):
        rng, n, c = self._rng, self.n, self.num_candidates
        if self.pairs is not None:
            return [self.pairs[k] for k in rng.integers(len(self.pairs), size=c)]
        i = rng.integers(n, size=c)
        j = (i + rng.integers(1, n, size=c)) % n
        return list(zip(i.tolist(), j.tolist()))

    def next_trial(self, learner) -> Trial:
        """The next pair, chosen against ``learner``'s current predictions."""
        if getattr(learner, "n", self.n) != self.n:
            raise ValueError(f"the learner has n={learner.n} vertices but the labels have {self.n}")
        cands = self._candidates()
        for i, j in cands:
            y = int(self.labels[i] != self.labels[j])
            if learner.predict_one(i, j) != y:
                return Trial(i, j, y)
        i, j = cands[0]
        return Trial(i, j, int(self.labels[i] != self.labels[j]))


def adaptive_run(learner, labels, T: int, seed, num_candidates: int = 32, pairs=None) -> tuple[list[Trial], RunResult]:
    """Play ``T`` rounds of :class:`AdaptiveAdversary` against ``learner``.

    Returns the trials served (replay them on another learner with :func:`run`) and the
    :class:`RunResult`.

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> trials, result = adaptive_run(AlwaysSimilar(4), [0, 0, 1, 1], T=5, seed=0)
    >>> result.total_mistakes
    5
    """
    if not (isinstance(T, (int, np.integer)) and T >= 0):
        raise ValueError(f"T must be a non-negative number of trials, got {T!r}")
    adv = AdaptiveAdversary(labels, seed, num_candidates=num_candidates, pairs=pairs)
    trials, preds, wrong = [], [], []
    for _ in range(int(T)):
        t = adv.next_trial(learner)  # chosen against the learner as it is now
        y_hat = learner.predict_one(t.i, t.j)
        learner.learn_one(t.i, t.j, t.y)
        trials.append(t)
        preds.append(y_hat)
        wrong.append(int(y_hat != t.y))
    mistakes = np.asarray(wrong, dtype=np.int64)
    return trials, RunResult(np.asarray(preds, dtype=np.int64), mistakes, np.cumsum(mistakes))
