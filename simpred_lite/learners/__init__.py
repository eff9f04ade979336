"""Every similarity learner of the package, importable from one place.

>>> from simpred_lite.learners import UnionFindLearner
"""

from .base import SimilarityLearner
from .baselines import AlwaysSimilar, UnionFindLearner

__all__ = ["SimilarityLearner", "AlwaysSimilar", "UnionFindLearner"]

# class prediction and the class <-> similarity reductions (Thm. doubleequiv, App. A)
from .classifiers import (  # noqa: E402
    ClassLearner,
    GraphKernel,
    GraphPerceptron,
    GraphPerceptronReference,
    HalvingClassifier,
    MemorizingClassifier,
    OneVsRest,
    check_class_label,
    check_class_learner,
    labelings_with_small_cut,
    perceptron_mistake_bound,
    adversarial_class_run,
    run_classifier,
)
from .reductions import (  # noqa: E402
    ClassifierFromSimilarity,
    PoolLimitError,
    PrunedPoolWarning,
    SimilarityFromClassifier,
    history_tree,
    reduction_constant,
    similarity_mistake_bound,
)

__all__ += [
    "ClassLearner",
    "GraphKernel",
    "GraphPerceptron",
    "GraphPerceptronReference",
    "HalvingClassifier",
    "MemorizingClassifier",
    "OneVsRest",
    "check_class_label",
    "check_class_learner",
    "labelings_with_small_cut",
    "perceptron_mistake_bound",
    "adversarial_class_run",
    "run_classifier",
    "ClassifierFromSimilarity",
    "PoolLimitError",
    "PrunedPoolWarning",
    "SimilarityFromClassifier",
    "history_tree",
    "reduction_constant",
    "similarity_mistake_bound",
]

# unknown graphs (§5): the forest of revealed paths, Winnow on a tree, Algorithm 1
from .unknown import DenseRNormPerceptron, NaivePathForest, PathForest, RNormPerceptron, TreeWinnow  # noqa: E402

__all__ += ["PathForest", "NaivePathForest", "TreeWinnow", "RNormPerceptron", "DenseRNormPerceptron"]
from .matrix import MatrixPerceptron, MatrixWinnow
from .bst_perceptron import BSTPerceptron

__all__ += ["MatrixPerceptron", "MatrixWinnow", "BSTPerceptron"]
