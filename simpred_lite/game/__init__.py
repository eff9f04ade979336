"""The game of online similarity prediction: trials, adversaries, and the loops that play them.

- :mod:`~simpred_lite.game.trials` — a trial, a run's result, the run loop, trial sequences
- :mod:`~simpred_lite.game.evaluation` — several learners on one sequence (``evaluate``), sweeps
- :mod:`~simpred_lite.game.playground` — the adversary playground (graphs, learner registry,
  adversaries, :class:`Playground`)
- :mod:`~simpred_lite.game.hand_played` — adversary games played by hand (logic of the apps)

Nothing here imports matplotlib or ipywidgets; the views live in :mod:`simpred_lite.apps`.

>>> from simpred_lite.game import run, random_trials
"""

from . import evaluation, hand_played, playground, trials
from .evaluation import *  # noqa: F403
from .hand_played import *  # noqa: F403
from .playground import *  # noqa: F403
from .trials import *  # noqa: F403

__all__ = [*trials.__all__, *evaluation.__all__, *playground.__all__, *hand_played.__all__]
