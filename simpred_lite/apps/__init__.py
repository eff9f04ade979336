"""Interactive apps (ipywidgets) used by the notebooks: views only.

- :mod:`~simpred_lite.apps.similarity_game` — :class:`SimilarityGame`, the game by hand
- :mod:`~simpred_lite.apps.adversary_apps` — you as the adversary (or the learner) on the
  lower-bound problems; their logic is :mod:`simpred_lite.game.hand_played`
- :mod:`~simpred_lite.apps.basics_explorers` — a cut and its resistances, Wilson's walk move by
  move, a Binary Support Tree built stage by stage (notebooks 01–03)
- :mod:`~simpred_lite.apps.learner_explorers` — the class ⇄ similarity reductions trial by trial,
  the Matrix Perceptron / Winnow step by step, your data through ``evaluate`` (notebooks 04, 05, 11)
- :mod:`~simpred_lite.apps.explorers` — one BST Perceptron trial, a forest of typed paths, the
  Ising reduction splice by splice (notebooks 06–08)
- :mod:`~simpred_lite.apps.playground_app` — :class:`PlaygroundApp`, the view of
  :class:`simpred_lite.game.Playground`
- :mod:`~simpred_lite.apps.text` — plain text of the apps' HTML status lines
- :mod:`~simpred_lite.apps.controls` — input boxes that refuse a bad value with a sentence

Every app keeps its logic below it (in :mod:`simpred_lite.game` and :mod:`simpred_lite.learners`),
shows its state through widget values, and draws with :mod:`simpred_lite.viz`.  Importing
:mod:`simpred_lite` does not import this package (it loads ipywidgets and matplotlib); it is
loaded on first use of ``simpred_lite.apps``.

>>> from simpred_lite.apps import PlaygroundApp
"""

from . import (
               adversary_apps,
               basics_explorers,
               controls,
               explorers,
               learner_explorers,
               playground_app,
               similarity_game,
               text,
)
from .adversary_apps import *
from .basics_explorers import *
from .controls import *
from .explorers import *
from .learner_explorers import *
from .playground_app import *
from .similarity_game import *
from .text import *

__all__ = [*text.__all__, *controls.__all__, *similarity_game.__all__, *adversary_apps.__all__, *explorers.__all__,
           *basics_explorers.__all__,
           *learner_explorers.__all__, *playground_app.__all__]
