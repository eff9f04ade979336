"""Every similarity learner of the package, importable from one place.

One protocol family (:mod:`~simpred_lite.learners.base`), one module per family:

- :mod:`~simpred_lite.learners.baselines` — :class:`AlwaysSimilar`, :class:`UnionFindLearner`
- :mod:`~simpred_lite.learners.classifiers` — class learners on a graph and their reference
- :mod:`~simpred_lite.learners.reductions` — class ↔ similarity reductions (Lemma equiv, App. A)
- :mod:`~simpred_lite.learners.matrix` — Matrix Perceptron and Matrix Winnow (Algorithm 2)
- :mod:`~simpred_lite.learners.bst_perceptron` — the fast Perceptron on a BST (§4.1)
- :mod:`~simpred_lite.learners.path_forest` — the forest of revealed paths (§5)
- :mod:`~simpred_lite.learners.unknown` — TreeWinnow and the r-norm Perceptron (§5)
- :mod:`~simpred_lite.learners.permutations` — the paired permutation learners (§7)
- :mod:`~simpred_lite.learners.bounds` — every mistake bound, named after its learner

Every efficient learner with a plain reference has it beside it, named ``…Reference``.

>>> from simpred_lite.learners import UnionFindLearner
"""

from .base import SimilarityLearner
from .baselines import AlwaysSimilar, UnionFindLearner
from .bounds import (
    PAPER_BETA,
    comparator_norm_sq,
    graph_perceptron_mistake_bound,
    matrix_perceptron_mistake_bound,
    matrix_winnow_mistake_bound,
    paired_permutation_mistake_bound,
    reduction_constant,
    rnorm_perceptron_cut_bound,
    rnorm_perceptron_mistake_bound,
    similarity_from_classifier_mistake_bound,
    tree_winnow_mistake_bound,
)
from .bst_perceptron import BSTPerceptron
from .classifiers import (
    ClassLearner,
    GraphKernel,
    GraphPerceptron,
    GraphPerceptronReference,
    HalvingClassifier,
    MemorizingClassifier,
    OneVsRest,
    adversarial_class_run,
    check_class_label,
    check_class_learner,
    labelings_with_small_cut,
    run_classifier,
)
from .matrix import MatrixPerceptron, MatrixWinnow
from .path_forest import PathForest, PathForestReference
from .permutations import (
    HalvingPermutationLearner,
    IteratedClassLearner,
    PairedPermutationClassifier,
    PairedPermutationClassLearner,
    PairedPermutationClassLearnerReference,
    TransitiveOrderLearner,
    run_class,
)
from .reductions import (
    ClassifierFromSimilarity,
    PoolLimitError,
    PrunedPoolWarning,
    SimilarityFromClassifier,
    history_tree,
)
from .unknown import RNormPerceptron, RNormPerceptronReference, TreeWinnow

__all__ = [
    # the protocol and the baselines
    "SimilarityLearner",
    "AlwaysSimilar",
    "UnionFindLearner",
    # class prediction and the class <-> similarity reductions
    "ClassLearner",
    "GraphKernel",
    "GraphPerceptron",
    "GraphPerceptronReference",
    "HalvingClassifier",
    "MemorizingClassifier",
    "OneVsRest",
    "adversarial_class_run",
    "check_class_label",
    "check_class_learner",
    "labelings_with_small_cut",
    "run_classifier",
    "ClassifierFromSimilarity",
    "PoolLimitError",
    "PrunedPoolWarning",
    "SimilarityFromClassifier",
    "history_tree",
    # known graphs
    "MatrixPerceptron",
    "MatrixWinnow",
    "BSTPerceptron",
    # unknown graphs
    "PathForest",
    "PathForestReference",
    "TreeWinnow",
    "RNormPerceptron",
    "RNormPerceptronReference",
    # paired permutations
    "PairedPermutationClassLearner",
    "PairedPermutationClassLearnerReference",
    "PairedPermutationClassifier",
    "IteratedClassLearner",
    "TransitiveOrderLearner",
    "HalvingPermutationLearner",
    "run_class",
    # mistake bounds
    "PAPER_BETA",
    "comparator_norm_sq",
    "graph_perceptron_mistake_bound",
    "matrix_perceptron_mistake_bound",
    "matrix_winnow_mistake_bound",
    "tree_winnow_mistake_bound",
    "rnorm_perceptron_mistake_bound",
    "rnorm_perceptron_cut_bound",
    "paired_permutation_mistake_bound",
    "reduction_constant",
    "similarity_from_classifier_mistake_bound",
]
