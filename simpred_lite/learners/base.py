"""The learner protocol shared by every similarity learner of the package.

A similarity learner plays the online game of the paper: on trial ``t`` it receives a pair
of vertices ``(i, j)`` (and, when the graph is unknown, a path joining them), predicts
``1`` (*dissimilar*) or ``0`` (*similar*), and is then told the true label ``y``.

The protocol is river-style::

    y_hat = learner.predict_one(i, j, path=None)   # 1 = dissimilar, 0 = similar
    learner.learn_one(i, j, y, path=None)          # mistake-driven update
    learner.mistakes                               # counted by learn_one

Subclasses implement two hooks, :meth:`SimilarityLearner._predict` and
:meth:`SimilarityLearner._learn`; the base class validates the input, counts mistakes and
remembers the last prediction so that ``predict_one`` followed by ``learn_one`` on the same
pair computes it once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from ..checks import (
    check_int,
    check_pair,
    check_path,
    check_similarity_label,
    check_vertex,
)

# check_vertex, check_pair and check_similarity_label live in simpred_lite.checks; they are
# re-exported here, where learner authors have always found them.
__all__ = ["SimilarityLearner", "check_vertex", "check_pair", "check_similarity_label"]


class SimilarityLearner(ABC):
    """Base class of online similarity learners on the vertices ``0 .. n-1``.

    Parameters
    ----------
    n : int
        Number of vertices.

    Attributes
    ----------
    n : int
        Number of vertices.
    mistakes : int
        Number of trials so far on which ``learn_one`` saw a wrong prediction.
    trials : int
        Number of calls to ``learn_one`` so far.
    """

    #: Whether the learner needs the revealed path (unknown-graph setting, §5).
    needs_path: bool = False

    def __init__(self, n: int):
        self.n = check_int(n, "n", low=2)
        self.mistakes = 0
        self.trials = 0
        self._cached: tuple | None = None

    # -- the public protocol -------------------------------------------------------------
    def predict_one(self, i: int, j: int, path: Sequence[int] | None = None) -> int:
        """Predict ``1`` (dissimilar) or ``0`` (similar) for the pair ``(i, j)``.

        Predicting never changes the learner's state.
        """
        i, j = check_pair(i, j, self.n)
        path = self._check_path(i, j, path)
        key = (i, j, path)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        y_hat = int(self._predict(i, j, path))
        self._cached = (key, y_hat)
        return y_hat

    def learn_one(self, i: int, j: int, y: int, path: Sequence[int] | None = None) -> None:
        """Receive the true label ``y`` of ``(i, j)``; count a mistake and update if wrong."""
        y = check_similarity_label(y)
        y_hat = int(self.predict_one(i, j, path))
        i, j = int(i), int(j)
        if self._cached is not None:
            key_path = self._cached[0][2]
        else:  # a subclass overrode predict_one without the cache: validate the path here
            key_path = self._check_path(*check_pair(i, j, self.n), path)
        self.trials += 1
        self._cached = None
        if y_hat != y:
            self.mistakes += 1
        self._learn(i, j, y, y_hat, key_path)

    # -- hooks for subclasses ------------------------------------------------------------
    @abstractmethod
    def _predict(self, i: int, j: int, path: tuple[int, ...] | None) -> int:
        """Return the prediction for a validated pair (and validated path)."""

    @abstractmethod
    def _learn(self, i: int, j: int, y: int, y_hat: int, path: tuple[int, ...] | None) -> None:
        """Update after the label ``y`` was revealed; ``y_hat`` is what was predicted."""

    def _check_path(self, i: int, j: int, path) -> tuple[int, ...] | None:
        """Validate the revealed path.

        Every learner checks a path it is given, whether it uses it or not: it must be a
        sequence of vertices ``0 .. n-1`` running from ``i`` to ``j`` (see
        :func:`simpred_lite.checks.check_path`), so a wrong call such as ``path=5`` or a
        path of another pair fails loudly instead of being dropped.  Adjacency in the graph
        is not checked here.  Learners of a known graph (``needs_path = False``) then drop
        the path (return None); those of an unknown graph require it and keep it.
        """
        if path is None:
            if self.needs_path:
                raise ValueError(
                    f"{type(self).__name__} works on an unknown graph and needs the path "
                    "revealed with each pair: call predict_one(i, j, path=[i, ..., j])"
                )
            return None
        p = check_path(path, i, j, self.n)
        return p if self.needs_path else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n={self.n}, mistakes={self.mistakes}, trials={self.trials})"
