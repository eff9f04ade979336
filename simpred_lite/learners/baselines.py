"""Two baseline similarity learners, so the protocol has something honest to run.

Neither uses the graph: they are the yardstick the paper's graph learners must beat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from networkx.utils import UnionFind

from ..checks import check_memory
from .base import SimilarityLearner
from .bounds import union_find_mistake_bound

__all__ = ["AlwaysSimilar", "UnionFindLearner"]


class AlwaysSimilar(SimilarityLearner):
    """Predict *similar* (``0``) on every pair.

    Mistake behaviour: it errs exactly on the dissimilar pairs of the sequence, so with
    ``K`` balanced classes and uniformly random pairs it errs on about a fraction
    ``1 - 1/K`` of the trials, forever. It never learns.

    Parameters
    ----------
    n : int
        Number of vertices (pairs are checked against it).

    Examples
    --------
    >>> learner = AlwaysSimilar(4)
    >>> learner.predict_one(0, 3)
    0
    >>> learner.learn_one(0, 3, 1); learner.mistakes
    1
    """

    setting = "baseline"
    description = "predicts similar on every pair; errs on every dissimilar pair"

    def _predict(self, i, j, path):
        return 0

    def _learn(self, i, j, y, y_hat, path):
        pass  # nothing to learn: the prediction never changes


class UnionFindLearner(SimilarityLearner):
    """Remember what was revealed, and reason only by transitivity of *similar*.

    Observed similar pairs are merged in a union-find structure (similarity is an
    equivalence relation); observed dissimilar pairs are recorded between the
    components they separate.  Prediction for ``(i, j)``:

    * ``0`` (similar) if ``i`` and ``j`` are in the same component;
    * ``1`` (dissimilar) if an observed dissimilar pair joins their two components;
    * otherwise ``default`` (``1`` by default: with ``K`` balanced classes a fresh pair
      is dissimilar with probability ``1 - 1/K``).

    Mistake behaviour on a sequence consistent with a ``K``-class labeling: with
    ``default=1`` every mistake is a truly similar pair predicted dissimilar, whose two
    components then merge. ``n`` vertices can merge at most ``n - K`` times without
    mixing classes, so **M <= n - K** — a bound that ignores the graph entirely, and the
    reason the paper's bounds in terms of the cut size ``|Phi|`` are interesting.

    Parameters
    ----------
    n : int
        Number of vertices.
    default : {0, 1}, default 1
        Prediction for pairs about which nothing is known.

    Examples
    --------
    >>> learner = UnionFindLearner(4)
    >>> learner.learn_one(0, 1, 0); learner.learn_one(1, 2, 0)
    >>> learner.predict_one(0, 2)          # similar by transitivity
    0
    >>> learner.learn_one(2, 3, 1)
    >>> learner.predict_one(0, 3)          # dissimilar: 0 ~ 2 and 2 != 3
    1
    """

    setting = "baseline"
    description = "transitivity of revealed similar pairs"
    bound_text = "n - K (default=1)"

    def mistake_bound(self, G: Any, labels: Any) -> float | None:
        """``n - K`` (:func:`~simpred_lite.learners.bounds.union_find_mistake_bound`), with ``default=1``."""
        if self.default != 1:
            return None
        return float(union_find_mistake_bound(self.n, int(np.unique(np.asarray(labels)).size)))

    def __init__(self, n: int, default: int = 1):
        super().__init__(n)
        if default not in (0, 1):
            raise ValueError(f"default must be 0 (similar) or 1 (dissimilar), got {default!r}")
        self.default = int(default)
        check_memory(250 * self.n, f"UnionFindLearner({self.n}): a union-find over n vertices (~250 bytes a vertex)",
                     "use at most a few million vertices; its bound n - K grows with n anyway")
        self._sets = UnionFind(range(self.n))  # networkx's union-find: root of each component
        self._apart: dict[int, set[int]] = {}  # component root -> roots known to differ

    def components(self) -> int:
        """Number of components of the similar-pairs forest (vertices known alike)."""
        return len({self._sets[v] for v in range(self.n)})

    def _predict(self, i, j, path):
        ri, rj = self._sets[i], self._sets[j]
        if ri == rj:
            return 0
        if rj in self._apart.get(ri, ()):
            return 1
        return self.default

    def _learn(self, i, j, y, y_hat, path):
        ri, rj = self._sets[i], self._sets[j]
        if y == 1:
            if ri != rj:  # a contradiction (same component) is ignored: the data is noisy
                self._apart.setdefault(ri, set()).add(rj)
                self._apart.setdefault(rj, set()).add(ri)
            return
        if ri == rj:
            return
        self._sets.union(ri, rj)
        root = self._sets[ri]  # the union keeps one of the two roots
        merged = (self._apart.pop(ri, set()) | self._apart.pop(rj, set())) - {ri, rj}
        for other in merged:
            peers = self._apart[other]
            peers.discard(ri)
            peers.discard(rj)
            peers.add(root)
        if merged:
            self._apart[root] = merged
