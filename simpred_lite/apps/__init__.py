"""Interactive apps (ipywidgets) used by the notebooks: views only.

- :mod:`~simpred_lite.apps.similarity_game` — :class:`SimilarityGame`, the game by hand
- :mod:`~simpred_lite.apps.adversary_apps` — you as the adversary (or the learner) on the
  lower-bound problems; their logic is :mod:`simpred_lite.game.hand_played`
- :mod:`~simpred_lite.apps.playground_app` — :class:`PlaygroundApp`, the view of
  :class:`simpred_lite.game.Playground`
- :mod:`~simpred_lite.apps.text` — plain text of the apps' HTML status lines

Every app keeps its logic below it (in :mod:`simpred_lite.game` and :mod:`simpred_lite.learners`),
shows its state through widget values, and draws with :mod:`simpred_lite.viz`.  Importing
:mod:`simpred_lite` does not import this package (it loads ipywidgets and matplotlib); it is
loaded on first use of ``simpred_lite.apps``.

>>> from simpred_lite.apps import PlaygroundApp
"""

from .adversary_apps import PERMUTATION_LEARNERS, GraphAdversaryApp, MergeSortLearnerApp, PermutationAdversaryApp
from .playground_app import PlaygroundApp
from .similarity_game import SimilarityGame
from .text import label_word, plain_text

__all__ = [
    "SimilarityGame",
    "PERMUTATION_LEARNERS",
    "PermutationAdversaryApp",
    "GraphAdversaryApp",
    "MergeSortLearnerApp",
    "PlaygroundApp",
    "plain_text",
    "label_word",
]
