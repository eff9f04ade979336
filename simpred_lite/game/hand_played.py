"""Hand-played games against similarity learners: the logic behind the adversary widgets.

The student plays the **adversary**: pick a pair, see the learner's prediction, then choose
the answer.  The referee lets the student answer anything that stays consistent with *some*
concept — a permutation on the paired permutation problem (:class:`PermutationAdversaryGame`),
a labeling of the vertices on a graph (:class:`GraphAdversaryGame`) — and forces the answer
when earlier answers already decide it.  The concept is revealed at the end, chosen
consistent with every answer.  (Playing the *learner* against the merge-sort adversary needs
no referee: see :class:`simpred_lite.theory.lowerbound.ComparisonAdversary`.)

Everything here is plain Python, tested without a browser; :mod:`simpred_lite.apps.adversary_apps` only
draws it.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..checks import check_int, check_pair, check_similarity_label
from ..graphs import cut_size, validate_graph
from ..learners.permutations import TransitiveOrderLearner, pattern_index
from ..theory.lowerbound import log2_factorial, merge_sort_min_comparisons

__all__ = ["PermutationAdversaryGame", "GraphAdversaryGame"]


class _Game:
    """Shared bookkeeping: the pending query, the history and the mistake count."""

    def __init__(self, learner):
        if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
            raise TypeError(
                f"learner must be a similarity learner (with predict_one and learn_one), got {learner!r}; "
                "e.g. UnionFindLearner(n)"
            )
        self.learner = learner
        self.history: list[dict] = []
        self.pending: dict | None = None

    @property
    def mistakes(self) -> int:
        """Mistakes of the learner so far."""
        return sum(h["prediction"] != h["answer"] for h in self.history)

    def reveal(self, y: int) -> bool:
        """Answer the pending query with ``y``; return True if the learner erred.

        Raises ``ValueError`` if there is no pending query, or if ``y`` contradicts the
        earlier answers (the message says which answer is forced).
        """
        if self.pending is None:
            raise ValueError("no pending query: ask a pair first")
        y = check_similarity_label(y)
        allowed = self.allowed_answers()
        if y not in allowed:
            raise ValueError(
                f"answer {y} contradicts the earlier answers, which force {allowed[0]} "
                f"({'dissimilar' if allowed[0] else 'similar'}) on this pair"
            )
        p = self.pending
        self.learner.learn_one(p["i"], p["j"], y)
        self._record(y)
        self.history.append({**p, "answer": y})
        self.pending = None
        return p["prediction"] != y

    def cumulative_mistakes(self) -> np.ndarray:
        """The mistake curve: mistakes after each answered query."""
        return np.cumsum([int(h["prediction"] != h["answer"]) for h in self.history], dtype=np.int64)


class PermutationAdversaryGame(_Game):
    """Play the adversary on the paired permutation problem against a similarity learner.

    Each query compares two items: ``ask(a, b)`` poses the similarity pair
    ``((a, b), (b, b))`` (similar iff ``z(a) < z(b)``) to the learner and returns its
    prediction; ``reveal(y)`` answers it.  Answers implied by transitivity of ``<`` are
    forced; at the end :meth:`permutation` returns a permutation consistent with every answer
    (the smallest item first among those allowed).

    Parameters
    ----------
    K : int
        Number of items.
    learner : SimilarityLearner, optional
        A fresh learner with ``n >= K²`` (default: :class:`TransitiveOrderLearner`).

    Examples
    --------
    >>> game = PermutationAdversaryGame(3)
    >>> game.ask(0, 1)                      # the learner's prediction: similar (z(0) < z(1))
    0
    >>> game.reveal(1), game.mistakes       # answer dissimilar: a mistake
    (True, 1)
    >>> _ = game.ask(1, 2); _ = game.reveal(1)   # z(1) > z(2)
    >>> game.ask(0, 2), game.allowed_answers()   # z(0) > z(1) > z(2) is now forced
    (1, (1,))
    """

    def __init__(self, K: int, learner=None):
        self.K = check_int(K, "K", low=2)
        learner = TransitiveOrderLearner(self.K) if learner is None else learner
        if getattr(learner, "n", self.K * self.K) < self.K * self.K:
            raise ValueError(f"the learner has n={learner.n} vertices but K={self.K} items need n >= {self.K ** 2}")
        super().__init__(learner)
        self._referee = TransitiveOrderLearner(self.K)

    def ask(self, a: int, b: int) -> int:
        """Pose "is z(a) < z(b)?" to the learner; return its prediction (0 similar = yes)."""
        a = check_int(a, "a", low=0, high=self.K - 1)
        b = check_int(b, "b", low=0, high=self.K - 1)
        if a == b:
            raise ValueError(f"a comparison needs two distinct items, got a == b == {a}")
        i, j = pattern_index(a, b, self.K), pattern_index(b, b, self.K)
        self.pending = {"a": a, "b": b, "i": i, "j": j, "prediction": int(self.learner.predict_one(i, j))}
        return self.pending["prediction"]

    def allowed_answers(self) -> tuple[int, ...]:
        """The answers that keep the game consistent with some permutation."""
        if self.pending is None:
            raise ValueError("no pending query: ask a pair first")
        a, b = self.pending["a"], self.pending["b"]
        if self._referee.less(a, b):
            return (0,)
        if self._referee.less(b, a):
            return (1,)
        return (0, 1)

    def _record(self, y):
        self._referee.learn_one(self.pending["i"], self.pending["j"], y)

    def determined(self) -> bool:
        """True when the answers fix the permutation (every two items are ordered)."""
        r = self._referee
        return all(r.less(a, b) or r.less(b, a) for a in range(self.K) for b in range(a + 1, self.K))

    def permutation(self) -> tuple[int, ...]:
        """A permutation ``z`` consistent with every answer (``z[x]`` = rank of item ``x``)."""
        order = nx.DiGraph()
        order.add_nodes_from(range(self.K))
        order.add_edges_from((a, b) for a in range(self.K) for b in self._referee._above[a])
        z = [0] * self.K
        for rank, x in enumerate(nx.lexicographical_topological_sort(order)):
            z[x] = rank
        return tuple(z)

    def bounds(self) -> dict[str, float]:
        """Reference lines: merge sort forces at least C(K) on every learner; Halving never errs more than log2 K!."""
        return {
            "C(K): merge sort forces at least this on every learner": float(merge_sort_min_comparisons(self.K)),
            "log2 K! (Halving's bound)": log2_factorial(self.K),
        }


class GraphAdversaryGame(_Game):
    """Play the adversary on a graph: the answers must fit some labeling of the vertices.

    *Similar* answers glue vertices into blocks (similarity is an equivalence); a *dissimilar*
    answer separates two blocks.  An answer is forced when the pair is in one block (similar)
    or in two blocks already separated (dissimilar).  :meth:`labeling` returns the finest
    labeling consistent with the answers — one class per block — and :meth:`cut_size` its
    cut size ``|Φ^G|``, the quantity the paper's graph learners pay for.

    Parameters
    ----------
    G : networkx.Graph
    learner : SimilarityLearner
        A fresh learner on ``G``'s vertices.

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.learners import UnionFindLearner
    >>> game = GraphAdversaryGame(nx.path_graph(4), UnionFindLearner(4))
    >>> game.ask(0, 1), game.reveal(0)      # predicted dissimilar, answered similar
    (1, True)
    >>> game.labeling().tolist(), game.cut_size()
    ([0, 0, 1, 2], 2)
    """

    def __init__(self, G, learner):
        self.G = validate_graph(G)
        n = self.G.number_of_nodes()
        if getattr(learner, "n", n) != n:
            raise ValueError(f"the learner is for {learner.n} vertices but the graph has {n}")
        super().__init__(learner)
        self.n = n
        self._blocks = nx.utils.UnionFind(range(n))
        self._apart: list[tuple[int, int]] = []

    def ask(self, i: int, j: int) -> int:
        """Pose the pair ``(i, j)`` to the learner; return its prediction."""
        i, j = check_pair(i, j, self.n)
        self.pending = {"i": i, "j": j, "prediction": int(self.learner.predict_one(i, j))}
        return self.pending["prediction"]

    def _separated(self, i, j) -> bool:
        bi, bj = self._blocks[i], self._blocks[j]
        return any({self._blocks[u], self._blocks[v]} == {bi, bj} for u, v in self._apart)

    def allowed_answers(self) -> tuple[int, ...]:
        """The answers that keep the game consistent with some labeling."""
        if self.pending is None:
            raise ValueError("no pending query: ask a pair first")
        i, j = self.pending["i"], self.pending["j"]
        if self._blocks[i] == self._blocks[j]:
            return (0,)
        if self._separated(i, j):
            return (1,)
        return (0, 1)

    def _record(self, y):
        i, j = self.pending["i"], self.pending["j"]
        if y == 0:
            self._blocks.union(i, j)
        else:
            self._apart.append((i, j))

    def labeling(self) -> np.ndarray:
        """The finest labeling consistent with the answers (classes numbered by first vertex)."""
        classes: dict = {}
        return np.array([classes.setdefault(self._blocks[v], len(classes)) for v in range(self.n)], dtype=np.int64)

    def cut_size(self) -> int:
        """``|Φ^G|`` of :meth:`labeling`."""
        return cut_size(self.G, self.labeling())
