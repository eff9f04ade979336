"""Interactive apps (ipywidgets) used by the notebooks; their logic lives in :mod:`simpred_lite.game`.

Importing :mod:`simpred_lite` does not import this package (it loads ipywidgets and
matplotlib); it is loaded on first use of ``simpred_lite.apps``.

>>> from simpred_lite.apps import PlaygroundApp
"""

from . import playground_widget, widgets
from .playground_widget import *  # noqa: F403
from .widgets import *  # noqa: F403

__all__ = [*widgets.__all__, *playground_widget.__all__]
