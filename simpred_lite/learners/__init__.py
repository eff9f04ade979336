"""Every similarity learner of the package, importable from one place.

>>> from simpred_lite.learners import UnionFindLearner
"""

from .base import SimilarityLearner
from .baselines import AlwaysSimilar, UnionFindLearner

__all__ = ["SimilarityLearner", "AlwaysSimilar", "UnionFindLearner"]
from .unknown import DenseRNormPerceptron, PathForest, NaivePathForest, RNormPerceptron, TreeWinnow

__all__ += ["PathForest", "NaivePathForest", "TreeWinnow", "RNormPerceptron", "DenseRNormPerceptron"]
