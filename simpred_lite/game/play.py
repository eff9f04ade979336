"""Playing the game: the run loop, and runs against an adaptive adversary.

:func:`play_trials` is the one loop of the package — predict, then reveal, trial by trial; it yields
``(prediction, label)`` so callers that must keep a partial run (a learner that gives up, in
:func:`~simpred_lite.game.evaluation.evaluate`) consume the same loop as :func:`run`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from ..checks import check_int, check_num_trials, check_random_state
from ..graphs import validate_labels
from .adversaries import AdaptiveAdversary
from .trials import RunResult, Trial

__all__ = ["play_trials", "run", "adaptive_run", "adversarial_run"]


def play_trials(learner, trials: Iterable[Trial]) -> Iterator[tuple[int, int]]:
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


def run(learner, trials: Iterable[Trial]) -> RunResult:
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
    if getattr(learner, "needs_path", False):
        raise ValueError("adversarial_run poses pairs without paths; the learner needs paths")
    return adaptive_run(learner, labels, T, seed, num_candidates=candidates)


def adaptive_run(
    learner, labels, T: int, seed, num_candidates: int | None = 32, pairs=None
) -> tuple[list[Trial], RunResult]:
    """Play ``T`` rounds of :class:`AdaptiveAdversary` against ``learner``.

    Parameters
    ----------
    learner : SimilarityLearner
        A learner on ``n`` vertices that needs no paths.
    labels : array_like of int
        The true class of each vertex.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    num_candidates : int or None, default 32
        Candidate pairs examined per trial; ``None``: all pairs, in a random order.
    pairs : sequence of (int, int), optional
        The pool candidates are drawn from (default: all pairs of distinct vertices).

    Returns
    -------
    trials : list of Trial
        The trials served (replay them on another learner with :func:`run`).
    result : RunResult

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> trials, result = adaptive_run(AlwaysSimilar(4), [0, 0, 1, 1], T=5, seed=0)
    >>> result.total_mistakes
    5
    """
    T = check_num_trials(T)
    y = np.asarray(labels)
    labels = validate_labels(labels, y.shape[0] if y.ndim == 1 else -1)
    n = labels.shape[0]
    if n < 2:
        raise ValueError("an adversary needs at least two vertices")
    if num_candidates is not None:
        num_candidates = check_int(num_candidates, "num_candidates", low=1)
    adv = AdaptiveAdversary(candidates=num_candidates, pairs=pairs)
    adv.check_pairs(n)
    rng = check_random_state(seed)
    trials: list[Trial] = []

    def label(i, j):
        return int(labels[i] != labels[j])

    def serve():  # lazily: each pair is chosen against the learner as it is *now*
        if T and getattr(learner, "n", n) != n:
            raise ValueError(f"the learner has n={learner.n} vertices but the labels have {n}")
        for _ in range(T):
            i, j, _path = adv.first_mistake(learner, adv.candidate_pairs(rng, n, adv.candidates), label)
            trials.append(Trial(i, j, label(i, j)))
            yield trials[-1]

    return trials, run(learner, serve())
