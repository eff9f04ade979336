"""Every similarity learner of the package, importable from one place.

One protocol family (:mod:`~simpred_lite.learners.base`), one module per family:

- :mod:`~simpred_lite.learners.baselines` — :class:`AlwaysSimilar`, :class:`UnionFindLearner`
- :mod:`~simpred_lite.learners.classifiers` — class learners on a graph and their reference
- :mod:`~simpred_lite.learners.reductions` — class ↔ similarity reductions (Lemma 7, App. A)
- :mod:`~simpred_lite.learners.matrix_perceptron` — Matrix Perceptron (Algorithm 1) and its reference
- :mod:`~simpred_lite.learners.matrix_winnow` — Matrix Winnow (Algorithm 1), a low-rank form, its reference
- :mod:`~simpred_lite.learners.instances` — the instances ``X_t = psi psi^T`` and the comparator ``U``
- :mod:`~simpred_lite.learners.kernels`, :mod:`~simpred_lite.learners.certification` — the kernel
  form and the certified decisions behind the two matrix learners
- :mod:`~simpred_lite.learners.bst_perceptron` — the fast Perceptron on a BST (§4.1)
- :mod:`~simpred_lite.learners.path_forest` — the forest of revealed paths (§5)
- :mod:`~simpred_lite.learners.unknown` — TreeWinnow and the r-norm Perceptron (§5)
- :mod:`~simpred_lite.learners.permutations` — the paired permutation learners (§7), class and similarity
- :mod:`~simpred_lite.learners.bounds` — every mistake bound, named after its learner
- :mod:`~simpred_lite.learners.registry` — the one registry, discovered from the classes
  (:func:`available` lists it, :func:`resolve` turns a name, class or instance into a spec)
- :mod:`~simpred_lite.learners.checking` — :func:`check_learner`, the conformance check

Every efficient learner with a plain reference has it beside it, named ``…Reference``.

>>> from simpred_lite.learners import UnionFindLearner
"""

from . import (
    base,
    baselines,
    bounds,
    bst_perceptron,
    classifiers,
    instances,
    matrix_perceptron,
    matrix_winnow,
    path_forest,
    permutations,
    reductions,
    unknown,
)
from .base import *
from .baselines import *
from .bounds import *
from .bst_perceptron import *
from .classifiers import *
from .instances import *
from .matrix_perceptron import *
from .matrix_winnow import *
from .path_forest import *
from .permutations import *
from .reductions import *
from .unknown import *

__all__ = [*base.__all__, *baselines.__all__, *classifiers.__all__, *path_forest.__all__, *unknown.__all__,
           *bounds.__all__, *reductions.__all__, *instances.__all__, *matrix_perceptron.__all__,
           *matrix_winnow.__all__, *bst_perceptron.__all__, *permutations.__all__]

# the registry discovers the learner classes listed above: imported last
from . import registry  # noqa: E402
from .checking import check_learner  # noqa: E402
from .registry import *  # noqa: E402

__all__ += [*registry.__all__, "check_learner"]



def __getattr__(name: str) -> object:
    # The batch baseline (scikit-learn's LabelSpreading refit every R trials) is a similarity
    # learner but not an online learner of the paper: it lives in simpred_lite.game.batch_anchor
    # (it needs evaluate's machinery) and is reachable here by name, outside __all__ and the registry.
    if name == "BatchLabelSpreading":
        from ..game.batch_anchor import BatchLabelSpreading

        return BatchLabelSpreading
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
