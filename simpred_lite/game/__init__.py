"""The game of online similarity prediction: trials, adversaries, and the loops that play them.

- :mod:`~simpred_lite.game.trials` — a trial, a run's result, random pairs, trial sequences
- :mod:`~simpred_lite.game.adversaries` — one :class:`Adversary` family (random, cut-biased,
  adaptive, path-revealing, student)
- :mod:`~simpred_lite.game.play` — the run loop (:func:`play_trials`, :func:`run`) and
  :func:`adaptive_run`
- :mod:`~simpred_lite.game.evaluation` — several learners on one sequence (:func:`evaluate`), sweeps
- :mod:`~simpred_lite.game.playground` — the learner registry and the :class:`Playground`
- :mod:`~simpred_lite.game.hand_played` — adversary games played by hand (logic of the apps)

Nothing here imports matplotlib or ipywidgets; the views live in :mod:`simpred_lite.apps`.

>>> from simpred_lite.game import random_trials, run
"""

from .adversaries import (
    ADVERSARIES,
    SLOW_CANDIDATES,
    AdaptiveAdversary,
    Adversary,
    CutBiasedAdversary,
    PathRevealingAdversary,
    RandomAdversary,
    StudentAdversary,
    make_adversary,
)
from .evaluation import TRIAL_KINDS, Evaluation, LearnerResult, Sweep, evaluate, evaluate_sweep
from .hand_played import GraphAdversaryGame, PermutationAdversaryGame
from .play import adaptive_run, adversarial_run, play_trials, run
from .playground import (
    GRAPHS,
    LEARNERS,
    RETIRE_ON,
    GraphSpec,
    LearnerSpec,
    Playground,
    StepRecord,
    learners_for,
    register_learner,
)
from .trials import (
    RunResult,
    Trial,
    check_trial_vertices,
    cut_biased_trials,
    cut_crossing_trials,
    loop_erase,
    random_pair,
    random_pairs,
    random_trials,
    random_walk_path,
    random_walk_trials,
    shortest_path,
    shortest_path_trials,
    trials_from_pairs,
)

__all__ = [
    "ADVERSARIES",
    "SLOW_CANDIDATES",
    "AdaptiveAdversary",
    "Adversary",
    "CutBiasedAdversary",
    "PathRevealingAdversary",
    "RandomAdversary",
    "StudentAdversary",
    "make_adversary",
    "TRIAL_KINDS",
    "Evaluation",
    "LearnerResult",
    "Sweep",
    "evaluate",
    "evaluate_sweep",
    "GraphAdversaryGame",
    "PermutationAdversaryGame",
    "adaptive_run",
    "adversarial_run",
    "play_trials",
    "run",
    "GRAPHS",
    "LEARNERS",
    "RETIRE_ON",
    "GraphSpec",
    "LearnerSpec",
    "Playground",
    "StepRecord",
    "learners_for",
    "register_learner",
    "RunResult",
    "Trial",
    "check_trial_vertices",
    "cut_biased_trials",
    "cut_crossing_trials",
    "loop_erase",
    "random_pair",
    "random_pairs",
    "random_trials",
    "random_walk_path",
    "random_walk_trials",
    "shortest_path",
    "shortest_path_trials",
    "trials_from_pairs",
]
