"""Every similarity learner of the package, importable from one place.

>>> from simpred_lite.learners import UnionFindLearner
"""

from .base import SimilarityLearner
from .baselines import AlwaysSimilar, UnionFindLearner

__all__ = ["SimilarityLearner", "AlwaysSimilar", "UnionFindLearner"]
from .matrix import MatrixPerceptron, MatrixWinnow
from .bst_perceptron import BSTPerceptron

__all__ += ["MatrixPerceptron", "MatrixWinnow", "BSTPerceptron"]
