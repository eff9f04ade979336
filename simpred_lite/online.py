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

__all__ = ["Trial", "RunResult", "run", "random_trials", "trials_from_pairs", "adversarial_run"]


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


def adversarial_run(learner, labels, T: int, seed, *, candidates: int | None = None) -> tuple[list[Trial], RunResult]:
    """Play ``T`` trials chosen greedily against ``learner``: a mistake whenever possible.

    On each trial the adversary looks at the pairs of distinct vertices (all of them, or
    ``candidates`` pairs drawn at random) in a random order and poses the first one the
    learner would get wrong — predicting never changes a learner's state, so it may ask.
    If the learner is right on every candidate, a random candidate is posed.  The labels
    stay consistent with ``labels``, so every mistake bound of the paper still applies:
    this is how the tests and notebooks push learners towards their worst case.

    Parameters
    ----------
    learner : SimilarityLearner
        A learner on the vertices ``0 .. n-1`` that does not need paths.
    labels : array_like of int
        The true class of each vertex.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    candidates : int, optional
        Pairs examined per trial; all ``n(n-1)/2`` pairs by default.

    Returns
    -------
    trials : list of Trial
        The trials posed.
    result : RunResult

    Examples
    --------
    >>> from simpred_lite.learners import UnionFindLearner
    >>> trials, res = adversarial_run(UnionFindLearner(4), [0, 0, 1, 1], 6, seed=0)
    >>> res.total_mistakes   # UnionFindLearner errs at most n - K = 2 times
    2
    """
    y = validate_labels(labels, len(labels))
    n = y.shape[0]
    if n < 2:
        raise ValueError("an adversary needs at least two vertices")
    if T < 0:
        raise ValueError(f"T must be a non-negative number of trials, got {T}")
    if getattr(learner, "needs_path", False):
        raise ValueError("adversarial_run poses pairs without paths; the learner needs paths")
    rng = _rng(seed)
    iu, ju = np.triu_indices(n, k=1)
    trials, preds, wrong = [], [], []
    for _ in range(T):
        if candidates is None:
            order = rng.permutation(iu.size)
        else:
            order = rng.integers(iu.size, size=int(candidates))
        pick = None
        for k in order:
            i, j = int(iu[k]), int(ju[k])
            if learner.predict_one(i, j) != int(y[i] != y[j]):
                pick = (i, j)
                break
        if pick is None:
            k = order[0]
            pick = (int(iu[k]), int(ju[k]))
        t = Trial(pick[0], pick[1], int(y[pick[0]] != y[pick[1]]))
        y_hat = learner.predict_one(t.i, t.j)
        learner.learn_one(t.i, t.j, t.y)
        trials.append(t)
        preds.append(y_hat)
        wrong.append(int(y_hat != t.y))
    mistakes = np.asarray(wrong, dtype=np.int64)
    return trials, RunResult(np.asarray(preds, dtype=np.int64), mistakes, np.cumsum(mistakes))
