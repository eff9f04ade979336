"""Playing the games: one run loop per protocol, and runs against the adaptive adversary.

* The similarity game (:class:`~simpred_lite.learners.SimilarityLearner`): :func:`play_trials` is its
  one loop — predict, then reveal, trial by trial; it yields ``(prediction, label)`` so callers that
  must keep a partial run (a learner that gives up, in :func:`~simpred_lite.game.evaluation.evaluate`)
  consume the same loop as :func:`run`.  :func:`adaptive_run` plays the ``"adaptive"`` adversary.
* The class game of §2 (:class:`~simpred_lite.learners.ClassLearner`): :func:`run_class` is its one
  loop, on examples ``(pattern, class)``; :func:`adaptive_class_run` plays the ``"adaptive"``
  adversary of the class game (the labels fixed, the next pattern one the learner gets wrong).

The adversary of the lower bound of Theorem 9, which *chooses the labels* as it goes (any paired
permutation consistent with its answers), is another thing: it lives with the theorem, as
:func:`simpred_lite.theory.lowerbound.version_space_class_run`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ..checks import check_class_learner, check_int, check_num_trials, check_random_state
from ..graphs import validate_labels
from .adversaries import ADAPTIVE_CANDIDATES, AdaptiveAdversary, GameState, play_adversary
from .trials import RunResult, Trial

__all__ = ["play_trials", "run", "adaptive_run", "run_class", "adaptive_class_run"]


def play_trials(learner: Any, trials: Iterable[Trial]) -> Iterator[tuple[int, int]]:
    """The game loop: for each trial, ``learner`` predicts, then learns the label.

    Yields ``(prediction, label)`` after each trial, so a caller can stop, or keep the part
    played before a learner raised.

    Parameters
    ----------
    learner : SimilarityLearner
        Anything with ``predict_one(i, j, path=None)`` and ``learn_one(i, j, y, path=None)``.
    trials : iterable of Trial

    Yields
    ------
    (int, int)
        The prediction ``y_hat_t`` and the label ``y_t``.

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> list(play_trials(AlwaysSimilar(3), [Trial(0, 1, 0), Trial(0, 2, 1)]))
    [(0, 0), (0, 1)]
    """
    if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
        raise TypeError(
            f"{type(learner).__name__} is not a similarity learner: it needs "
            "predict_one(i, j, path=None) and learn_one(i, j, y, path=None)"
        )
    for t in trials:
        if not isinstance(t, Trial):
            raise TypeError(f"run() takes Trial objects, got {type(t).__name__}; build them with Trial(i, j, y)")
        y_hat = learner.predict_one(t.i, t.j, t.path)
        learner.learn_one(t.i, t.j, t.y, t.path)
        yield y_hat, t.y


def run(learner: Any, trials: Iterable[Trial]) -> RunResult:
    """Play ``trials`` against ``learner``: predict, then reveal, trial by trial.

    Parameters
    ----------
    learner, trials
        As in :func:`play_trials`.

    Returns
    -------
    RunResult
        Predictions, mistakes and the mistake curve.

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> result = run(AlwaysSimilar(3), [Trial(0, 1, 0), Trial(0, 2, 1)])
    >>> result.mistakes.tolist(), result.total_mistakes
    ([0, 1], 1)
    """
    preds, truth = [], []
    for y_hat, y in play_trials(learner, trials):
        preds.append(y_hat)
        truth.append(y)
    return RunResult.from_predictions(preds, truth)


def adaptive_run(learner: Any, labels: Any, T: int, seed: Any, *, candidates: int | None = ADAPTIVE_CANDIDATES,
                 pairs: Any = None, G: Any = None) -> tuple[list[Trial], RunResult]:
    """Play ``T`` trials of the ``"adaptive"`` adversary (:class:`AdaptiveAdversary`) against ``learner``.

    On each trial the adversary draws ``candidates`` random pairs (all pairs with
    ``candidates=None``), asks the learner ``predict_one`` on them — predicting never changes
    a learner's state, so it may ask — and poses the first one the learner gets wrong, else
    the first candidate.  The labels stay consistent with ``labels``, so every mistake bound
    of the paper still applies: this is how the tests and notebooks push learners towards
    their worst case (``candidates=None`` makes the learner err whenever it can be made to).

    Parameters
    ----------
    learner : SimilarityLearner
        A learner on the vertices ``0 .. n-1``.
    labels : array_like of int
        The true class of each vertex.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    candidates : int or None, default 32
        Candidate pairs examined per trial (:data:`ADAPTIVE_CANDIDATES`, the meaning of
        ``"adaptive"`` everywhere); ``None``: all pairs, in a fresh random order.
    pairs : sequence of (int, int), optional
        The pool candidates are drawn from (default: all pairs of distinct vertices).
    G : networkx.Graph, optional
        The graph, to reveal a shortest path with each pair to a learner that needs paths.

    Returns
    -------
    trials : list of Trial
        The trials served (replay them on another learner with :func:`run`).
    result : RunResult

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar, UnionFindLearner
    >>> trials, result = adaptive_run(AlwaysSimilar(4), [0, 0, 1, 1], T=5, seed=0)
    >>> result.total_mistakes
    5
    >>> trials, res = adaptive_run(UnionFindLearner(4), [0, 0, 1, 1], 6, seed=0, candidates=None)
    >>> res.total_mistakes   # UnionFindLearner errs at most n - K = 2 times
    2
    """
    if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
        raise TypeError(f"{type(learner).__name__} is not a similarity learner: it needs "
                        "predict_one(i, j, path=None) and learn_one(i, j, y, path=None)")
    T = check_num_trials(T)
    if candidates is not None:
        candidates = check_int(candidates, "candidates", low=1)
    state = GameState(labels, seed, G=G, learner=learner)
    if T and getattr(learner, "n", state.n) != state.n:
        raise ValueError(f"the learner has n={learner.n} vertices but the labels have {state.n}")
    if getattr(learner, "needs_path", False) and G is None:
        raise ValueError(f"{type(learner).__name__} needs the path revealed with each pair: pass the graph, "
                         "adaptive_run(..., G=G), to reveal shortest paths")
    adversary = AdaptiveAdversary(candidates=candidates, pairs=pairs)
    adversary.check_pairs(state.n)
    trials, preds = [], []
    for trial, y_hat in play_adversary(adversary, state, T, learner):
        trials.append(trial)
        preds.append(y_hat)
    return trials, RunResult.from_predictions(preds, [t.y for t in trials])


def run_class(learner: Any, examples: Iterable[tuple[Any, int]]) -> np.ndarray:
    """The class game's loop: for each example ``(x, y)``, ``learner`` predicts ``x``'s class, then learns ``y``.

    Parameters
    ----------
    learner : ClassLearner
        Anything with ``predict_class(x)``, ``learn_class(x, y)``, ``mistakes`` and ``n``.
    examples : iterable of (pattern, int)
        The examples in order: a pattern (a vertex; for the paired permutation learners also a
        pair ``(x', x'')``) and its class.  To pose the vertices ``xs`` of a labelling ``y``,
        pass ``[(x, y[x]) for x in xs]``.

    Returns
    -------
    numpy.ndarray
        The 0/1 mistake indicator of each example.

    Examples
    --------
    >>> from simpred_lite.learners import MemorizingClassifier, PairedPermutationClassLearner
    >>> y = [0, 1, 1]
    >>> run_class(MemorizingClassifier(3, 2), [(x, y[x]) for x in [2, 2, 0, 1]]).tolist()
    [1, 0, 0, 1]
    >>> run_class(PairedPermutationClassLearner(3), [((0, 1), 2), ((0, 1), 2)]).tolist()
    [1, 0]
    """
    check_class_learner(learner, "learner")
    flags = []
    for example in examples:
        try:
            x, y = example
        except (TypeError, ValueError):
            raise TypeError(f"run_class takes examples (pattern, class), got {example!r}") from None
        y_hat = learner.predict_class(x)
        learner.learn_class(x, y)
        flags.append(int(y_hat != y))
    return np.asarray(flags, dtype=np.int64)


def adaptive_class_run(learner: Any, labels: Any, T: int, seed: Any, *,
                       candidates: int | None = None) -> tuple[list[int], np.ndarray]:
    """Play ``T`` trials of the class game's ``"adaptive"`` adversary against ``learner``.

    The same adversary as :func:`adaptive_run`, on the class game: the labels stay those of
    ``labels`` (so every mistake bound applies) and on each trial the adversary asks the
    learner's prediction on candidate patterns (predicting never changes a learner) and poses
    the first one it gets wrong, else the first candidate.  The candidates are all ``n``
    patterns in a fresh random order (``candidates=None``, the default: the class game has
    only ``n`` patterns, so the learner errs whenever it can be made to), or ``candidates``
    patterns drawn uniformly.

    Parameters
    ----------
    learner : ClassLearner
    labels : array_like of int
        The class of each pattern ``0 .. n-1``.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    candidates : int or None, default None
        Candidate patterns examined per trial; None: all of them, in a fresh random order.

    Returns
    -------
    patterns : list of int
        The patterns posed (replay them with :func:`run_class`).
    mistakes : numpy.ndarray
        0/1 mistake indicators.

    Examples
    --------
    >>> from simpred_lite.learners import MemorizingClassifier
    >>> xs, m = adaptive_class_run(MemorizingClassifier(4, 3), [0, 2, 1, 0], 5, seed=0)
    >>> int(m.sum())        # one mistake per vertex not in class 0
    2
    """
    check_class_learner(learner, "learner")
    y = validate_labels(labels, learner.n)
    T = check_num_trials(T)
    if candidates is not None:
        candidates = check_int(candidates, "candidates", low=1)
    rng = check_random_state(seed)
    xs, out = [], []
    for _ in range(int(T)):
        pool = rng.permutation(learner.n) if candidates is None else rng.integers(learner.n, size=candidates)
        x = next((int(v) for v in pool if learner.predict_class(int(v)) != y[v]), int(pool[0]))
        out.append(int(learner.predict_class(x) != y[x]))
        learner.learn_class(x, int(y[x]))
        xs.append(x)
    return xs, np.asarray(out, dtype=np.int64)
