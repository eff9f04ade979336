"""The learner protocol family: :class:`SimilarityLearner`, its sibling :class:`ClassLearner`.

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

Its sibling :class:`ClassLearner` plays the *class* game of §2 (a vertex arrives, the learner
predicts its class ``0 .. K-1``): ``predict_class(x)``, ``learn_class(x, y)``, ``mistakes``.

Both bases carry what the registry (:mod:`~simpred_lite.learners.registry`) needs to offer a
learner by name, on the learner class itself: a :attr:`~SimilarityLearner.display_name`, its
:attr:`~SimilarityLearner.setting`, what it needs (the known graph, revealed paths, an *oracle*
hyper-parameter taken from the labels such as Matrix Winnow's ``|Phi|``), whether its bound
holds only in expectation, how to build it on a labelled graph (:meth:`~SimilarityLearner.for_graph`)
and its mistake bound (:meth:`~SimilarityLearner.mistake_bound`, delegating to
:mod:`~simpred_lite.learners.bounds`).  ``clone()`` is river's: a fresh learner with the same
constructor parameters.  A learner that legitimately gives up (a pool limit, a memory guard)
raises :class:`LearnerGaveUp`; the playground and ``evaluate`` retire it, and only it.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from ..checks import (
    LearnerGaveUp,
    check_class_label,
    check_class_learner,
    check_int,
    check_pair,
    check_path,
    check_similarity_label,
    check_vertex,
)

# The checks live in simpred_lite.checks; they are re-exported here, where learner authors
# have always found them.
__all__ = ["SimilarityLearner", "ClassLearner", "LearnerGaveUp", "SETTINGS", "check_class_learner",
           "check_vertex", "check_pair", "check_similarity_label", "check_class_label"]

#: The settings a learner declares (:attr:`SimilarityLearner.setting`).  The playground offers
#: the first three; ``"class"`` learners play the class game of §2, ``"paired permutations"``
#: learners live on the ``K²`` patterns of §7, and ``"reference"`` marks the plain references
#: the fast learners are tested against.
SETTINGS = ("baseline", "known graph", "unknown graph", "class", "paired permutations", "reference")


class _LearnerInfo:
    """What the registry reads on a learner class, and ``clone()``: shared by both protocols."""

    #: The name of the learner in the registry, the playground and ``evaluate`` tables
    #: (default: the class name).
    display_name: ClassVar[str | None] = None
    #: One of :data:`SETTINGS`.
    setting: ClassVar[str] = "known graph"
    #: Whether the learner needs the known graph (beyond its number of vertices).
    needs_graph: ClassVar[bool] = False
    #: Whether the learner needs the revealed path (unknown-graph setting, §5).
    needs_path: ClassVar[bool] = False
    #: The hyper-parameter the paper assumes known and :meth:`for_graph` takes from the labels
    #: (``"|Phi|"`` for Matrix Winnow, ``"K"`` for the reduction), or None.
    oracle: ClassVar[str | None] = None
    #: Whether :meth:`mistake_bound` holds only on average over the learner's own randomness.
    bound_in_expectation: ClassVar[bool] = False
    #: Predictions are expensive (an adaptive adversary should not ask too many).
    slow: ClassVar[bool] = False
    #: One line for the registry's listing.
    description: ClassVar[str] = ""
    #: The mistake bound in words, for the registry's listing ("" without one).
    bound_text: ClassVar[str] = ""
    #: The kind of instance the learner is built for: ``"graph"`` (a labelled graph), or
    #: ``"paired permutations"`` (the ``K²`` patterns of §7, labels ``max(z(x'), z(x''))``);
    #: :func:`~simpred_lite.learners.check_learner` builds its default problem from it.
    problem: ClassVar[str] = "graph"
    #: The constructor's arguments, kept by ``__new__`` for :meth:`clone`.
    _init_params: tuple[tuple[Any, ...], dict[str, Any]]

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        self = super().__new__(cls)
        self._init_params = (args, kwargs)  # for clone(): river's "same parameters, fresh state"
        return self

    @classmethod
    def name(cls) -> str:
        """The registry name: :attr:`display_name`, or the class name."""
        return cls.display_name or cls.__name__

    @classmethod
    def for_graph(cls, G: Any, seed: int = 0, labels: Any = None) -> Any:
        """A fresh learner for the game on the labelled graph ``G`` (how the registry builds it).

        The default builds ``cls(n)``; learners that need the graph, a random draw (``seed``,
        e.g. a random spanning tree) or an oracle hyper-parameter from ``labels`` override it.

        Parameters
        ----------
        G : networkx.Graph
            The graph, vertices ``0 .. n-1``.
        seed : int, default 0
            Seed of the learner's own randomness.
        labels : array_like of int, optional
            The classes; used only for the :attr:`oracle` hyper-parameter.

        Examples
        --------
        >>> import networkx as nx
        >>> from simpred_lite.learners import UnionFindLearner
        >>> UnionFindLearner.for_graph(nx.path_graph(3))
        UnionFindLearner(n=3, mistakes=0, trials=0)
        """
        return cls(G.number_of_nodes())

    def mistake_bound(self, G: Any, labels: Any) -> float | None:
        """This learner's mistake bound on the labelled graph ``(G, labels)``, or None.

        It may use the learner's own draws (its BST's ``R``); the formulas live in
        :mod:`simpred_lite.learners.bounds`, named after the learner.

        Parameters
        ----------
        G : networkx.Graph
        labels : array_like of int

        Examples
        --------
        >>> import networkx as nx
        >>> from simpred_lite.learners import AlwaysSimilar, UnionFindLearner
        >>> AlwaysSimilar(4).mistake_bound(nx.path_graph(4), [0, 0, 1, 1]) is None
        True
        >>> UnionFindLearner(4).mistake_bound(nx.path_graph(4), [0, 0, 1, 1])
        2.0
        """
        return None

    @classmethod
    def has_bound(cls) -> bool:
        """Whether the class states a mistake bound (overrides :meth:`mistake_bound`)."""
        return cls.mistake_bound is not _LearnerInfo.mistake_bound

    def clone(self):
        """A fresh learner with the same constructor parameters (river's ``clone``).

        The parameters are shared, not copied (a learner never modifies its constructor
        arguments), except a learner passed as a parameter, which is cloned in turn.  To copy
        a learner *with* its state, use :func:`copy.deepcopy`.

        Examples
        --------
        >>> from simpred_lite.learners import UnionFindLearner
        >>> uf = UnionFindLearner(4, default=0)
        >>> uf.learn_one(0, 1, 1)
        >>> twin = uf.clone()
        >>> twin.default, twin.mistakes, uf.mistakes
        (0, 0, 1)
        """
        args, kwargs = getattr(self, "_init_params", ((), {}))

        def fresh(value):
            return value.clone() if isinstance(value, _LearnerInfo) else value

        return type(self)(*[fresh(a) for a in args], **{k: fresh(v) for k, v in kwargs.items()})


class SimilarityLearner(_LearnerInfo, ABC):
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

    def __init__(self, n: int):
        self.n = check_int(n, "n", low=2)
        self.mistakes = 0
        self.trials = 0
        self._cached: tuple | None = None

    # -- the public protocol -------------------------------------------------------------
    def predict_one(self, i: int, j: int, path: Sequence[int] | None = None) -> int:
        """Predict ``1`` (dissimilar) or ``0`` (similar) for the pair ``(i, j)``.

        Predicting never changes the learner's state.  Plain ints that are two distinct
        vertices (what a :class:`~simpred_lite.game.trials.Trial` holds) skip the checks;
        anything else goes through :func:`~simpred_lite.checks.check_pair`, which names the
        bad argument.
        """
        n = self.n
        # the fast path: exactly int (not bool, not numpy), in range, distinct
        if not (type(i) is int and type(j) is int and 0 <= i < n and 0 <= j < n and i != j):
            i, j = check_pair(i, j, n)
        if path is not None or self.needs_path:
            path = self._check_path(i, j, path)
        key = (i, j, path)
        cached = self._cached
        if cached is not None and cached[0] == key:
            return cached[1]
        y_hat = int(self._predict(i, j, path))
        self._cached = (key, y_hat)
        return y_hat

    def learn_one(self, i: int, j: int, y: int, path: Sequence[int] | None = None) -> None:
        """Receive the true label ``y`` of ``(i, j)``; count a mistake and update if wrong."""
        if not (type(y) is int and (y == 0 or y == 1)):  # the fast path: the plain ints 0 and 1
            y = check_similarity_label(y)
        y_hat = int(self.predict_one(i, j, path))
        if not (type(i) is int and type(j) is int):
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

    def _check_path(self, i: int, j: int, path: Any) -> tuple[int, ...] | None:
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


class ClassLearner(_LearnerInfo, ABC):
    """Base class of online class predictors on the patterns (vertices) ``0 .. n-1``.

    The sibling of :class:`SimilarityLearner` for the class game of §2::

        y_hat = clf.predict_class(x)     # an int in 0 .. K-1; never changes the state
        clf.learn_class(x, y)            # the true class y; counts a mistake if y_hat != y
        clf.mistakes                     # number of mistakes so far
        clf.copy()                       # an independent copy of the current state
        clf.clone()                      # a fresh learner with the same parameters
        clf.state_key()                  # hashable summary of the state, or None

    Subclasses implement :meth:`_predict_class` and :meth:`_learn_class`; the base class
    validates the input, counts mistakes, and calls ``_learn_class`` **only on mistakes**,
    so every learner is conservative by construction (the master algorithm of Lemma 7
    relies on it).

    *Patterns.*  The patterns of a graph's class game are its vertices ``0 .. n-1``.  A class
    learner whose patterns are structured (the pairs ``(x', x'')`` of the paired permutation
    problem of §7, or ``((x', x''), copy)`` of its ``r``-iterated form) overrides the one hook
    :meth:`_check_pattern`, which validates a pattern and turns it into what the learner
    works with.  Such a learner must still accept the pattern *numbers* ``0 .. n-1`` (so a run
    loop over vertices, the reductions and :func:`~simpred_lite.learners.check_learner` can
    pose any pattern); its natural form is a convenience on top.  This is the only extension
    the pattern-based learners need: predictions, labels, mistakes and ``clone()`` stay those
    of this class.

    Parameters
    ----------
    n : int
        Number of patterns (vertices).
    K : int or None
        Number of classes (labels ``0 .. K-1``), or None when any label ``>= 0`` is fine.

    Attributes
    ----------
    mistakes, trials : int
        Mistakes and calls to :meth:`learn_class` so far.

    Examples
    --------
    >>> class Constant(ClassLearner):
    ...     def _predict_class(self, x):
    ...         return 0
    ...     def _learn_class(self, x, y, y_hat):
    ...         pass
    >>> clf = Constant(3, K=2)
    >>> clf.learn_class(1, 1); clf.mistakes, clf.clone().mistakes
    (1, 0)
    """

    setting: ClassVar[str] = "class"

    def __init__(self, n: int, K: int | None):
        self.n = check_int(n, "n", low=1)
        self.K = None if K is None else check_int(K, "K", low=2)
        self.mistakes = 0
        self.trials = 0

    @classmethod
    def for_graph(cls, G: Any, seed: int = 0, labels: Any = None) -> Any:
        """A fresh class learner on the labelled graph (default ``cls(n, K)``, ``K`` from the labels).

        See :meth:`SimilarityLearner.for_graph`.
        """
        import numpy as np

        K = 2 if labels is None else max(2, int(np.max(labels)) + 1)
        return cls(G.number_of_nodes(), K)

    def predict_class(self, x: Any) -> int:
        """Predict the class of pattern (vertex) ``x``; never changes the state."""
        return int(self._predict_class(self._check_pattern(x)))

    def learn_class(self, x: Any, y: int) -> None:
        """Receive the true class ``y`` of ``x``; on a mistake count it and update."""
        y = check_class_label(y, self.K)
        x = self._check_pattern(x)
        y_hat = int(self._predict_class(x))
        self.trials += 1
        if y_hat != y:
            self.mistakes += 1
            self._learn_class(x, y, y_hat)

    def _check_pattern(self, x: Any) -> Any:
        """Validate a pattern and return it in the form the hooks take (default: a vertex ``0 .. n-1``).

        Learners with structured patterns override this (see the class docstring); whatever
        it returns is what :meth:`_predict_class` and :meth:`_learn_class` receive.
        """
        return check_vertex(x, self.n, "pattern x")

    def copy(self) -> ClassLearner:
        """An independent copy of the current state (subclasses share immutable data, e.g. a kernel)."""
        return copy.deepcopy(self)

    def state_key(self):
        """A hashable value equal for two learners iff they predict alike forever (or None)."""
        return None

    @abstractmethod
    def _predict_class(self, x: Any) -> int:
        """Predict for a validated pattern (a vertex, unless :meth:`_check_pattern` says otherwise)."""

    @abstractmethod
    def _learn_class(self, x: Any, y: int, y_hat: int) -> None:
        """Update after a mistake (``y_hat != y``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n={self.n}, K={self.K}, mistakes={self.mistakes})"
