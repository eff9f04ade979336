"""Class prediction and similarity prediction reduce to each other (Theorem 1, App. A).

Two constructions, one per direction:

* :class:`SimilarityFromClassifier` — Lemma 7.  From a class learner ``A`` with
  (subsequential) mistake bound ``B``, a similarity learner with

      M <= c_K(beta) * B,   c_K(beta) = log2(K(K-1)/beta) / log2(2/(1+beta))

  (:func:`reduction_constant`).  With ``beta = 0.294``, ``c_K / log2 K`` is largest at
  ``K = 2`` (4.4035) and decreases towards ``2/log2(2/1.294) = 3.19``, so
  ``M < 5 B log2 K`` for every ``K >= 2``.  The learner is a weighted majority over a pool
  of *hallucinated histories*, and the pool grows exponentially with the mistakes.
* :class:`ClassifierFromSimilarity` — Lemma 8.  From a similarity learner with
  mistake bound ``B_s``, a class learner with ``M <= B_s + K``, as efficient as the
  similarity learner.

Why the master algorithm works (the proof, in the code's words).  Each history ``s`` in the
pool is a sequence of *guessed* class examples with a weight ``w_s``; the learner ``A(s)``
trained on it predicts the classes of ``i`` and ``j``, hence "similar" or "dissimilar", and
the master takes the weighted vote (ties: similar).  Only when the master errs, each
history that erred is replaced by its children: ``s + [(i, a), (j, b)]`` for all guesses
``(a, b)`` consistent with the revealed label — ``K(K-1)`` pairs ``a != b`` (weight
``beta w_s/(K(K-1))`` each) when the truth was *dissimilar*, ``K`` pairs ``a == b``
(weight ``beta w_s/K``) when it was *similar*.  Then:

1. the erring histories carry at least half of the total weight ``W``, and lose a factor
   ``beta``, so ``W`` shrinks by at least ``(1+beta)/2`` per master mistake;
2. the history whose guesses are the true classes is always in the pool and was split
   only when ``A`` erred on it (``A`` is conservative), so its weight is at least
   ``(beta/(K(K-1)))^B``;
3. hence ``((1+beta)/2)^M >= W >= (beta/(K(K-1)))^B`` and ``M <= c_K(beta) B``.

Weights are exact fractions, so ties are decided exactly and the compact pool (histories
with identical learner states merged, their weights added — they vote alike forever) makes
the same predictions as the literal pool (``merge=False``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..checks import LearnerGaveUp, check_int, check_real
from .base import ClassLearner, SimilarityLearner, check_class_learner
from .bounds import PAPER_BETA

__all__ = [
    "PoolLimitError",
    "PrunedPoolWarning",
    "SimilarityFromClassifier",
    "ClassifierFromSimilarity",
    "history_tree",
]


class PoolLimitError(LearnerGaveUp):
    """The pool of hallucinated histories outgrew ``max_histories``: the learner gives up.

    A :class:`~simpred_lite.checks.LearnerGaveUp` (so a ``RuntimeError``): the playground
    and :func:`~simpred_lite.game.evaluation.evaluate` retire the learner and play on.
    """


class PrunedPoolWarning(UserWarning):
    """The pool was pruned to ``max_histories``: the bound of Lemma 7 no longer holds."""


@dataclass(frozen=True)
class _Node:
    """A history as a persistent linked list: children share their parent's prefix."""

    parent: _Node | None
    examples: tuple[tuple[int, int], ...]
    length: int


@dataclass
class _Entry:
    weight: Fraction
    learner: ClassLearner
    node: _Node | None
    count: int  # how many histories of the literal pool this entry stands for


def node_history(node: _Node | None) -> list[tuple[int, int]]:
    parts = []
    while node is not None:
        parts.append(node.examples)
        node = node.parent
    return [ex for part in reversed(parts) for ex in part]


class SimilarityFromClassifier(SimilarityLearner):
    """Similarity prediction from class prediction: the master algorithm of Lemma 7.

    Parameters
    ----------
    make_classifier : callable
        ``make_classifier()`` returns a fresh, conservative class learner (see
        :class:`~simpred_lite.learners.ClassLearner`) on the vertices, labels ``0 .. K-1``.
    K : int
        Number of classes, ``>= 2``.
    beta : float, default 0.294
        Weight factor of a split, in ``(0, 1)``.
    max_histories : int, default 2000
        Largest pool allowed.  Past it, :class:`PoolLimitError` is raised — unless
        ``prune=True``.
    prune : bool, default False
        Keep only the ``max_histories`` heaviest histories instead of raising; warns with
        :class:`PrunedPoolWarning`, since the mistake bound then no longer holds.
    merge : bool, default True
        Merge histories whose learners are in the same state (when the learner provides
        ``state_key()``): same predictions, far smaller pool.  ``merge=False`` is the
        literal algorithm of the paper (the reference).

    Attributes
    ----------
    pool_sizes : list of int
        Entries in the pool after each trial.
    histories_represented : list of int
        Histories of the literal (unmerged) pool after each trial.
    total_weights : list of Fraction
        Total weight ``W`` after each trial (exact).

    Notes
    -----
    Exact: the weights are :class:`fractions.Fraction` (``beta`` taken as the decimal it
    prints as, ``0.294 = 147/500``), so the weighted vote, ties included, is decided exactly;
    the votes themselves are the base learners' predictions (exact for every learner here).

    The base learner must be conservative (every :class:`ClassLearner` is): the proof
    charges one base mistake to each split of the true history.  The running time and
    memory are proportional to the pool, which can grow by a factor ``K(K-1)`` per master
    mistake — exponential by nature.  When :class:`PoolLimitError` is raised the pool is
    left as it was before the update (the master's mistake is still counted).

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.learners import HalvingClassifier, labelings_with_small_cut
    >>> from simpred_lite.learners.bounds import similarity_from_classifier_mistake_bound
    >>> H = labelings_with_small_cut(nx.path_graph(5), K=2, max_cut=1)
    >>> sim = SimilarityFromClassifier(lambda: HalvingClassifier(H), K=2)
    >>> for i, j, y in [(0, 4, 1), (0, 1, 0), (1, 3, 1), (2, 4, 1), (0, 2, 0)]:
    ...     sim.learn_one(i, j, y)
    >>> sim.mistakes, sim.pool_sizes
    (2, [2, 2, 2, 3, 3])
    >>> sim.mistakes <= similarity_from_classifier_mistake_bound(HalvingClassifier(H).mistake_bound(), K=2)
    True
    """

    display_name = "Similarity from class"
    needs_graph = True
    oracle = "K"
    slow = True
    description = ("Lemma 7: weighted majority over hallucinated histories of a class learner "
                   "(on a graph: one-vs-rest graph Perceptrons); retires when its pool outgrows max_histories")
    bound_text = "c_K B (Lemma 7), B the base class learner's bound"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """Lemma 7's master over one-vs-rest graph Perceptrons sharing one kernel (``K`` from the labels)."""
        from functools import partial

        from .classifiers import GraphKernel, GraphPerceptron, OneVsRest

        K = 2 if labels is None else max(2, int(np.unique(np.asarray(labels)).size))
        kernel = GraphKernel(G)  # computed once, shared by every binary learner of the pool
        # partials of classes rather than lambdas, so that the learner pickles
        return cls(partial(OneVsRest, partial(GraphPerceptron, G, kernel=kernel), K=K), K)

    def mistake_bound(self, G, labels):
        """``c_K B`` (:func:`~simpred_lite.learners.bounds.similarity_from_classifier_mistake_bound`),
        ``B`` the bound of a fresh base learner on the labels; None if it states none."""
        from .bounds import similarity_from_classifier_mistake_bound

        args, kwargs = self._init_params
        make = kwargs.get("make_classifier", args[0] if args else None)
        bound = getattr(make(), "mistake_bound", None) if callable(make) else None
        B = bound(G, labels) if callable(bound) else None
        return None if B is None else similarity_from_classifier_mistake_bound(int(B), self.K, self.beta)

    def __init__(
        self,
        make_classifier: Callable[[], ClassLearner],
        K: int,
        beta: float = PAPER_BETA,
        *,
        max_histories: int = 2000,
        prune: bool = False,
        merge: bool = True,
    ):
        if not callable(make_classifier):
            raise TypeError(
                "make_classifier must be a function returning a fresh class learner, got "
                f"{type(make_classifier).__name__}; e.g. lambda: HalvingClassifier(H)"
            )
        self.K = check_int(K, "K", low=2)
        self.beta = check_real(beta, "beta", low=0, high=1, low_inclusive=False, high_inclusive=False)
        self.max_histories = check_int(max_histories, "max_histories", low=1)
        root = check_class_learner(make_classifier(), "make_classifier()")
        base_K = getattr(root, "K", None)
        if base_K is not None and base_K < self.K:
            raise ValueError(
                f"the base classifier knows only {base_K} classes but K={self.K}: the hallucinated "
                "histories use every label 0..K-1"
            )
        super().__init__(root.n)
        self.prune = bool(prune)
        self.merge = bool(merge)
        self._beta = Fraction(repr(self.beta))  # 0.294 -> 147/500 exactly
        self._pool = [_Entry(Fraction(1), root, None, 1)]
        self._votes: tuple | None = None
        self._warned = False
        self.pool_sizes: list[int] = []
        self.histories_represented: list[int] = []
        self.total_weights: list[Fraction] = []

    # -- inspection ----------------------------------------------------------------------
    @property
    def pool_size(self) -> int:
        """Entries in the pool now."""
        return len(self._pool)

    @property
    def total_weight(self) -> Fraction:
        """``W = sum_s w_s`` now (exact)."""
        return sum((e.weight for e in self._pool), Fraction(0))

    def pool(self) -> list[tuple[Fraction, int, list[tuple[int, int]]]]:
        """The pool as ``(weight, count, history)`` triples, heaviest first.

        ``history`` is a list of guessed examples ``(vertex, class)``; ``count`` is the
        number of literal histories merged into the entry (the history shown is one of them).
        """
        order = sorted(range(len(self._pool)), key=lambda k: -self._pool[k].weight)
        return [(self._pool[k].weight, self._pool[k].count, node_history(self._pool[k].node)) for k in order]

    # -- the protocol hooks ----------------------------------------------------------------
    def _entry_votes(self, i: int, j: int) -> np.ndarray:
        if self._votes is not None and self._votes[0] == (i, j):
            return self._votes[1]
        same = np.array([e.learner.predict_class(i) == e.learner.predict_class(j) for e in self._pool])
        self._votes = ((i, j), same)
        return same

    def _predict(self, i, j, path):
        same = self._entry_votes(i, j)
        w_same = sum((e.weight for e, s in zip(self._pool, same) if s), Fraction(0))
        w_diff = sum((e.weight for e, s in zip(self._pool, same) if not s), Fraction(0))
        return 0 if w_same >= w_diff else 1

    def _learn(self, i, j, y, y_hat, path):
        if y != y_hat:
            same = self._entry_votes(i, j)
            if y == 1:  # predicted similar, truth dissimilar: guess every a != b
                guesses = [(a, b) for a in range(self.K) for b in range(self.K) if a != b]
            else:  # predicted dissimilar, truth similar: guess every a == b
                guesses = [(a, a) for a in range(self.K)]
            factor = self._beta / len(guesses)
            erred = same if y == 1 else ~same
            n_err = int(erred.sum())
            literal = len(self._pool) - n_err + n_err * len(guesses)
            if not self.merge and not self.prune and literal > self.max_histories:
                self._too_many(len(self._pool), literal)  # before any work: nothing changes
            new: list[_Entry] = []
            for entry, wrong in zip(self._pool, erred):
                if not wrong:
                    new.append(entry)
                    continue
                length = (entry.node.length if entry.node else 0) + 2
                for a, b in guesses:
                    child = entry.learner.copy()
                    child.learn_class(i, a)
                    child.learn_class(j, b)
                    node = _Node(entry.node, ((i, a), (j, b)), length)
                    new.append(_Entry(entry.weight * factor, child, node, entry.count))
            if self.merge:
                new = self._merged(new)
            if len(new) > self.max_histories:
                if not self.prune:
                    self._too_many(len(self._pool), len(new))
                new = self._pruned(new)
            self._pool = new
        self._votes = None
        self.pool_sizes.append(len(self._pool))
        self.histories_represented.append(sum(e.count for e in self._pool))
        self.total_weights.append(self.total_weight)

    # -- pool management -------------------------------------------------------------------
    def _merged(self, entries: list[_Entry]) -> list[_Entry]:
        by_key: dict = {}
        out: list[_Entry] = []
        for e in entries:
            key = e.learner.state_key() if hasattr(e.learner, "state_key") else None
            if key is None:
                out.append(e)
            elif key in by_key:
                kept = by_key[key]
                kept.weight += e.weight
                kept.count += e.count
            else:
                e = _Entry(e.weight, e.learner, e.node, e.count)  # never alias a parent's entry
                by_key[key] = e
                out.append(e)
        return out

    def _pruned(self, entries: list[_Entry]) -> list[_Entry]:
        if not self._warned:
            warnings.warn(
                f"the pool of histories was pruned to max_histories={self.max_histories}: the mistake "
                "bound of Lemma 7 no longer holds for this run",
                PrunedPoolWarning,
                stacklevel=4,
            )
            self._warned = True
        order = sorted(range(len(entries)), key=lambda k: -entries[k].weight)[: self.max_histories]
        return [entries[k] for k in sorted(order)]

    def _too_many(self, old: int, new: int):
        raise PoolLimitError(
            f"trial {self.trials}: the pool of hallucinated histories would grow from {old} to {new} "
            f"entries, more than max_histories={self.max_histories}. The pool is exponential in the "
            "number of mistakes: use a smaller instance, raise max_histories, or pass prune=True "
            "(then the mistake bound no longer holds)"
        )


def history_tree(sim: SimilarityFromClassifier):
    """The genealogy of the current pool: every history and the splits that made it.

    Node ``0`` is the empty history; every other node is a history obtained from its
    parent by appending one guessed pair ``((i, a), (j, b))``.  Node attributes: ``depth``
    (number of splits), ``guess`` (the appended examples), ``alive`` (in the pool now),
    ``weight`` (its exact weight, for live nodes).  With ``merge=True`` only one
    representative history per entry is shown.

    Parameters
    ----------
    sim : SimilarityFromClassifier
        The learner whose pool of hallucinated histories is drawn as a genealogy.

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.learners import HalvingClassifier, labelings_with_small_cut
    >>> H = labelings_with_small_cut(nx.path_graph(4), K=2, max_cut=1)
    >>> sim = SimilarityFromClassifier(lambda: HalvingClassifier(H), K=2, merge=False)
    >>> sim.learn_one(0, 3, 1)
    >>> T = history_tree(sim)
    >>> T.number_of_nodes(), sorted(T.nodes[v]["guess"] for v in T.successors(0))
    (3, [((0, 0), (3, 1)), ((0, 1), (3, 0))])
    """
    if not isinstance(sim, SimilarityFromClassifier):
        raise TypeError(f"history_tree takes a SimilarityFromClassifier, got {type(sim).__name__}")
    import networkx as nx

    T = nx.DiGraph()
    T.add_node(0, depth=0, guess=(), alive=False, weight=None)
    ids: dict[int, int] = {}

    def node_id(node: _Node | None) -> int:
        if node is None:
            return 0
        key = id(node)
        if key not in ids:
            parent = node_id(node.parent)
            ids[key] = T.number_of_nodes()
            T.add_node(ids[key], depth=T.nodes[parent]["depth"] + 1, guess=node.examples, alive=False, weight=None)
            T.add_edge(parent, ids[key])
        return ids[key]

    for entry in sim._pool:
        v = node_id(entry.node)
        T.nodes[v]["alive"] = True
        T.nodes[v]["weight"] = entry.weight
    return T


class ClassifierFromSimilarity(ClassLearner):
    """Class prediction from similarity prediction: Lemma 8.

    Keeps a set ``P`` of representatives, at most one vertex per class, grown on demand.
    To classify ``x``: ask the similarity learner about every pair ``(p, x)``, ``p`` in
    ``P``; predict the class of the one representative judged similar (if none or several
    are, guess: the smallest such class, else the smallest class without a representative).
    On a mistake:

    * if no representative has the true class ``y``, ``x`` becomes its representative
      (at most ``K`` such mistakes);
    * otherwise the ``|P|`` true examples ``((p, x), [class(p) != y])`` are given to the
      similarity learner, first a pair it got wrong — one exists, else the prediction
      would have been right — so the similarity learner errs at least once.

    Hence ``M <= M_s + |P| <= B_s + K`` with ``B_s`` the similarity learner's bound on
    sequences consistent with the labeling.  The similarity learner must not need paths.

    Parameters
    ----------
    sim_learner : SimilarityLearner
        A fresh similarity learner on the same vertices.
    K : int
        Number of classes, ``>= 2``.

    Examples
    --------
    >>> from simpred_lite.learners import UnionFindLearner
    >>> clf = ClassifierFromSimilarity(UnionFindLearner(5), K=2)
    >>> for x, y in [(0, 0), (1, 0), (4, 1), (2, 0), (3, 1)]:
    ...     clf.learn_class(x, y)
    >>> clf.mistakes, clf.representatives, clf.sim_learner.mistakes
    (2, {1: 4}, 1)
    """

    oracle = "K"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The class learner over a :class:`~simpred_lite.learners.UnionFindLearner` (``K`` from the labels)."""
        from .baselines import UnionFindLearner

        K = 2 if labels is None else max(2, int(np.max(labels)) + 1)
        return cls(UnionFindLearner(G.number_of_nodes()), K)

    def __init__(self, sim_learner, K: int):
        if not all(hasattr(sim_learner, a) for a in ("predict_one", "learn_one", "n")):
            raise TypeError(
                f"sim_learner must be a similarity learner (predict_one, learn_one, n), got "
                f"{type(sim_learner).__name__}"
            )
        if getattr(sim_learner, "needs_path", False):
            raise ValueError(
                f"{type(sim_learner).__name__} needs a path with each pair, but a class learner "
                "has no paths to give it: use a known-graph similarity learner"
            )
        super().__init__(sim_learner.n, check_int(K, "K", low=2))
        self.sim_learner = sim_learner
        self._rep: dict[int, int] = {}  # class -> its representative vertex
        self._asked: tuple | None = None

    @property
    def representatives(self) -> dict[int, int]:
        """The set ``P`` as ``{class: vertex}``."""
        return dict(self._rep)

    def _answers(self, x: int) -> list[tuple[int, int, int]]:
        """``(class, p, similarity prediction)`` for every representative ``p != x``."""
        if self._asked is not None and self._asked[0] == (x, self.sim_learner.trials):
            return self._asked[1]
        ans = [(k, p, self.sim_learner.predict_one(p, x)) for k, p in sorted(self._rep.items()) if p != x]
        self._asked = ((x, self.sim_learner.trials), ans)
        return ans

    def _predict_class(self, x):
        for k, p in self._rep.items():
            if p == x:
                return k
        similar = [k for k, _, s in self._answers(x) if s == 0]
        if similar:
            return min(similar)
        return next((k for k in range(self.K) if k not in self._rep), 0)

    def _learn_class(self, x, y, y_hat):
        if y not in self._rep:
            self._rep[y] = x
            return
        examples = [(p, x, int(k != y), s) for k, p, s in self._answers(x)]
        examples.sort(key=lambda e: e[2] == e[3])  # a mistaken pair first (stable otherwise)
        for p, v, label, _ in examples:
            self.sim_learner.learn_one(p, v, label)
        self._asked = None
