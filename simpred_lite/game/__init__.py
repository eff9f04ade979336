"""The game of online similarity prediction: trials, adversaries, and the loops that play them.

- :mod:`~simpred_lite.game.trials` — a trial, a run's result, random pairs, trial sequences
- :mod:`~simpred_lite.game.adversaries` — one :class:`Adversary` family and vocabulary (random,
  cut-biased, adaptive, path-revealing, student), :func:`cut_biased_trials`
- :mod:`~simpred_lite.game.play` — the run loop (:func:`play_trials`, :func:`run`) and
  :func:`adaptive_run`
- :mod:`~simpred_lite.game.evaluation` — several learners on one sequence (:func:`evaluate`), sweeps
- :mod:`~simpred_lite.game.batch_anchor` — a batch semi-supervised classifier (scikit-learn's
  LabelSpreading) beside the online learners, in two information settings
  (:func:`~simpred_lite.game.batch_anchor.label_spreading_anchor`)
- :mod:`~simpred_lite.game.playground` — the :class:`Playground` (its learners come from the one
  registry, :mod:`simpred_lite.learners.registry`)
- :mod:`~simpred_lite.game.hand_played` — adversary games played by hand (logic of the apps)

Nothing here imports matplotlib or ipywidgets; the views live in :mod:`simpred_lite.apps`.

>>> from simpred_lite.game import random_trials, run
"""

from . import adversaries, batch_anchor, evaluation, hand_played, play, playground, trials
from .adversaries import *
from .batch_anchor import *
from .evaluation import *
from .hand_played import *
from .play import *
from .playground import *
from .trials import *

__all__ = [*trials.__all__, *adversaries.__all__, *play.__all__, *evaluation.__all__, *batch_anchor.__all__,
           *playground.__all__,
           *hand_played.__all__]
