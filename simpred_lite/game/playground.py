"""The adversary playground: pick a graph, some learners and an adversary, and play.

This module is the plain-Python logic behind notebook 10 and its web app
(:mod:`simpred_lite.apps.playground_app`); it is tested without a browser.

* **Graphs** — :data:`GRAPHS`: a planted partition, a grid, a barbell and the karate club,
  each with its classes.
* **Learners** — :data:`LEARNERS`, a registry ``name -> LearnerSpec``: how to build the
  learner on a graph (``factory(G, seed)``), whether it needs the path revealed with each
  pair (the unknown-graph setting of §5), and optionally its mistake bound
  ``bound(G, labels[, learner])``.
* **Adversaries** — :data:`ADVERSARIES`: ``"random"`` pairs, ``"cut-biased"`` pairs among the
  vertices touching a cut edge, ``"adaptive"`` (asks a target learner ``predict_one`` on
  candidate pairs *without letting it learn* and picks one it gets wrong), two
  path-revealing adversaries (``"shortest path"`` and ``"random-walk path"``), and
  ``"student"``: the pair is yours, ``step(pair=(i, j))``.
* :class:`Playground` runs every chosen learner on the *same* trials: ``step()``,
  ``play(k)``, ``reset()``, and gives their mistake curves as :class:`~simpred_lite.game.trials.RunResult`.

Registering a learner
---------------------
One line per learner, at the end of this module (or anywhere before a ``Playground`` is
built)::

    register_learner("Matrix Perceptron", lambda G, seed: MatrixPerceptron(G),
                     bound=matrix_perceptron_bound, setting="known graph")
    register_learner("TreeWinnow", TreeWinnow, setting="unknown graph")

``factory(G, seed)`` gets the validated graph and an integer seed (use it for any random
spanning tree, e.g. ``BinarySupportTree.from_graph(G, seed)``); a class whose constructor
takes ``n`` alone may be passed as is.  A learner on an unknown graph must only use
``G.number_of_nodes()`` and has ``needs_path=True`` (the class attribute ``needs_path`` is
used when the argument is omitted).  A learner whose *hyper-parameter* the paper assumes
known from the labeling (Matrix Winnow's threshold needs ``|Phi|``) is registered with
``needs_labels=True`` and built as ``factory(G, seed, labels)``; it must use the labels for
that parameter only.  ``bound(G, labels)`` returns the learner's mistake bound for that
labelled graph; ``bound(G, labels, learner)`` (three parameters) also gets the learner
built for this game, for bounds that depend on its own random draws (its BST's ``R``,
say).  Pass ``bound_in_expectation=True`` when the bound holds only on average over the
learner's randomness, so checks do not assert it run by run.  A learner that keeps a
Binary Support Tree should expose it as a ``bst`` attribute (a
:class:`~simpred_lite.bst.BinarySupportTree`) or a ``bst_path(i, j)`` method: the app then
draws the BST path of the current pair.

Every path revealed is simple (no repeated vertex).  When a chosen learner needs paths
and the adversary reveals none, the playground reveals the shortest path.
"""

from __future__ import annotations

import inspect
import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from .. import graphs as g
from ..bst import BinarySupportTree
from ..checks import check_int, check_num_trials, check_pair, check_random_state
from ..learners import (
    AlwaysSimilar,
    BSTPerceptron,
    GraphKernel,
    GraphPerceptron,
    MatrixPerceptron,
    MatrixWinnow,
    OneVsRest,
    RNormPerceptron,
    SimilarityFromClassifier,
    TreeWinnow,
    UnionFindLearner,
)
from ..learners.bounds import (
    certified_bound,
    comparator_norm_sq,
    matrix_perceptron_mistake_bound,
    matrix_winnow_mistake_bound,
    rnorm_perceptron_cut_bound,
    similarity_from_classifier_mistake_bound,
)
from .adversaries import make_adversary
from .trials import RunResult, Trial, shortest_path

__all__ = [
    "GraphSpec",
    "GRAPHS",
    "LearnerSpec",
    "LEARNERS",
    "register_learner",
    "learners_for",
    "StepRecord",
    "RETIRE_ON",
    "learner_seed",
    "Playground",
]


# -- graphs -------------------------------------------------------------------------------
@dataclass(frozen=True)
class GraphSpec:
    """A graph the playground offers: ``factory(seed) -> (G, labels)``, a description, and
    optionally its natural drawing ``layout(G) -> {vertex: (x, y)}`` (else a spring layout)."""

    name: str
    factory: Callable[[int], tuple[nx.Graph, np.ndarray]]
    description: str
    layout: Callable[[nx.Graph], dict] | None = None


GRAPHS: dict[str, GraphSpec] = {
    spec.name: spec
    for spec in (
        GraphSpec("planted partition", lambda seed: g.planted_partition(36, 3, 0.35, 0.03, seed=seed),
                  "36 vertices in 3 classes; p_in = 0.35, p_out = 0.03"),
        GraphSpec("grid", lambda seed: g.grid_graph(5, 8, K=2), "5 x 8 grid, 2 classes in vertical bands",
                  layout=lambda G: {v: np.array([v % 8, -(v // 8)], dtype=float) for v in G}),
        GraphSpec("barbell", lambda seed: g.barbell_graph(8, 2), "two 8-cliques joined by a 2-vertex bridge"),
        GraphSpec("karate club", lambda seed: g.karate_club(), "Zachary's karate club, its two factions"),
    )
}


# -- learners -----------------------------------------------------------------------------
@dataclass(frozen=True)
class LearnerSpec:
    """How the playground builds and judges one learner.

    Attributes
    ----------
    name : str
    factory : callable ``(G, seed) -> learner`` (``(G, seed, labels)`` if ``needs_labels``)
    needs_path : bool
        The learner plays the unknown-graph game and needs the path revealed with each pair.
    bound : callable ``(G, labels) -> float`` or ``(G, labels, learner) -> float``, optional
        Its mistake bound on that labelled graph (for that learner).
    bound_in_expectation : bool
        The bound holds on average over the learner's randomness, not on every run.
    setting : str
        ``"baseline"``, ``"known graph"`` or ``"unknown graph"`` (for display).
    description : str
    needs_labels : bool
        The factory is called as ``factory(G, seed, labels)`` (a hyper-parameter such as
        Matrix Winnow's cut size comes from the labeling).
    slow : bool
        Predictions are expensive: an adaptive adversary targeting it asks
        :data:`SLOW_CANDIDATES` random pairs per trial instead of all pairs.
    """

    name: str
    factory: Callable
    needs_path: bool = False
    bound: Callable | None = None
    bound_in_expectation: bool = False
    setting: str = "known graph"
    description: str = ""
    needs_labels: bool = False
    slow: bool = False

    def build(self, G: nx.Graph, seed: int, labels):
        """A new learner on ``G`` from the factory, checked to be a similarity learner on ``n`` vertices.

        Parameters
        ----------
        G : networkx.Graph
        seed : int
        labels : numpy.ndarray
            Passed to the factory only if ``needs_labels``.

        Returns
        -------
        SimilarityLearner

        Examples
        --------
        >>> LEARNERS["UnionFindLearner"].build(nx.path_graph(3), 0, None)
        UnionFindLearner(n=3, mistakes=0, trials=0)
        """
        learner = self.factory(G, seed, labels) if self.needs_labels else self.factory(G, seed)
        if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
            raise TypeError(f"the factory of {self.name!r} returned {learner!r}, which is not a similarity learner")
        n = G.number_of_nodes()
        if getattr(learner, "n", n) != n:
            raise ValueError(f"the factory of {self.name!r} built a learner for {learner.n} vertices, "
                             f"the graph has {n}")
        return learner

    def bound_for(self, G: nx.Graph, labels, learner) -> float | None:
        """The learner's mistake bound on this labelled graph (``None`` without one).

        Parameters
        ----------
        G : networkx.Graph
        labels : numpy.ndarray
        learner : SimilarityLearner
            The learner built for this game, for bounds that depend on its random draws.

        Returns
        -------
        float or None

        Examples
        --------
        >>> G, y = nx.path_graph(4), np.array([0, 0, 1, 1])
        >>> spec = LEARNERS["UnionFindLearner"]
        >>> spec.bound_for(G, y, spec.build(G, 0, y))
        2.0
        """
        if self.bound is None:
            return None
        if _positional_arity(self.bound) >= 3:  # the bound depends on this learner's draws
            return float(self.bound(G, labels, learner))
        return float(self.bound(G, labels))


#: The learners the playground offers, by name (add more with :func:`register_learner`).
LEARNERS: dict[str, LearnerSpec] = {}

_SETTINGS = ("baseline", "known graph", "unknown graph")


def register_learner(
    name: str,
    factory: Callable,
    *,
    needs_path: bool | None = None,
    bound: Callable | None = None,
    bound_in_expectation: bool = False,
    setting: str = "known graph",
    description: str = "",
    needs_labels: bool = False,
    slow: bool = False,
    replace: bool = False,
) -> LearnerSpec:
    """Offer a learner in the playground (one line per learner).

    Parameters
    ----------
    name : str
        The name shown in the app and used as key in :data:`LEARNERS`.
    factory : callable ``(G, seed) -> learner``
        Builds a fresh learner for the graph ``G``; ``seed`` is an int for its randomness.
        A class may be passed directly when its constructor takes ``n`` only.  With
        ``needs_labels=True`` it is called as ``factory(G, seed, labels)``.
    needs_path : bool, optional
        Whether the learner needs revealed paths; default: the class attribute
        ``needs_path`` of ``factory`` if it is a class, else ``False``.
    bound : callable ``(G, labels) -> float`` or ``(G, labels, learner) -> float``, optional
        The learner's mistake bound on that labelled graph (with three parameters it also
        gets the learner built for the game).
    bound_in_expectation : bool
        The bound holds on average over the learner's own randomness only.
    setting : {"baseline", "known graph", "unknown graph"}
    description : str
    needs_labels : bool
        The factory needs the labels for a hyper-parameter the paper assumes known
        (Matrix Winnow's cut size); it is called as ``factory(G, seed, labels)``.
    slow : bool
        Predictions are expensive (the adaptive adversary then samples candidate pairs).
    replace : bool
        Allow overwriting an existing entry.

    Returns
    -------
    LearnerSpec

    Examples
    --------
    >>> spec = register_learner("always similar (demo)", AlwaysSimilar, setting="baseline")
    >>> spec.needs_path, "always similar (demo)" in LEARNERS
    (False, True)
    >>> del LEARNERS["always similar (demo)"]
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a learner needs a non-empty name, got {name!r}")
    if not callable(factory):
        raise TypeError(f"factory must be callable as factory(G, seed) -> learner, got {factory!r}")
    if bound is not None and not callable(bound):
        raise TypeError(f"bound must be callable as bound(G, labels[, learner]) -> float, got {bound!r}")
    if setting not in _SETTINGS:
        raise ValueError(f"setting must be one of {_SETTINGS}, got {setting!r}")
    if name in LEARNERS and not replace:
        raise ValueError(f"a learner named {name!r} is already registered; pass replace=True to overwrite it")
    if isinstance(factory, type):
        cls = factory
        if needs_path is None:
            needs_path = bool(getattr(cls, "needs_path", False))
        factory = lambda G, seed: cls(G.number_of_nodes())  # noqa: E731 - the n-only constructor
    spec = LearnerSpec(name, factory, bool(needs_path), bound, bool(bound_in_expectation), setting, description,
                       bool(needs_labels), bool(slow))
    LEARNERS[name] = spec
    return spec


def _positional_arity(fn: Callable) -> int:
    """How many positional arguments ``fn`` accepts (a large number for ``*args``)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 2
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return 99
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def _union_find_bound(G: nx.Graph, labels) -> float:
    return float(G.number_of_nodes() - len(np.unique(labels)))


def _num_classes(labels) -> int:
    return max(2, int(np.unique(labels).size))


def _similarity_from_graph_perceptron(G: nx.Graph, seed: int, labels) -> SimilarityFromClassifier:
    """Lemma 7's master algorithm over one-vs-rest graph Perceptrons (K from the labels)."""
    K = _num_classes(labels)  # the master needs K: a hyper-parameter, the labels are not used otherwise
    kernel = GraphKernel(G)  # computed once, shared by every binary learner of the pool
    return SimilarityFromClassifier(lambda: OneVsRest(lambda: GraphPerceptron(G, kernel=kernel), K=K), K)


def _similarity_from_graph_perceptron_bound(G: nx.Graph, labels) -> float:
    """``c_K B`` with ``B = sum_k floor(||u_k||^2 R^2)``, the one-vs-rest Perceptrons' bound.

    ``R^2 = max_v (L^+_vv + 1)`` comes from a float ``L^+``: each floor is certified with the
    kernel's rigorous entry error (:func:`certified_bound`, exact diagonal entries in the rare
    undecided case), so ``B`` and the bound are the same on every machine.
    """
    from fractions import Fraction

    y = np.asarray(labels)
    n = len(y)
    kernel = GraphKernel(G)  # a = 1
    diag = kernel.matrix.diagonal()
    R2 = float(diag.max())

    def exact_R2():
        near = np.flatnonzero(diag >= R2 - 2 * kernel.entry_error).tolist()
        return max(kernel.exact_scores(np.eye(n, dtype=np.int64)[v])[v] for v in near)

    B = 0
    for k in np.unique(y):
        yk = (y == k).astype(np.int64)
        u_sum = int((2 * yk - 1).sum())
        norm2 = 4 * g.cut_size(G, yk) + Fraction(u_sum * u_sum, n * n)  # ||u||^2, exact (a = 1)
        B += certified_bound(lambda r2, c=float(norm2): c * r2, R2, kernel.entry_error,
                             exact=lambda c=norm2: c * exact_R2(), digits=None)
    return similarity_from_classifier_mistake_bound(int(B), _num_classes(y))


def _comparator_norm_sq(G: nx.Graph, labels) -> float:
    """``||U||_F^2`` of the comparator of Proposition 2 on ``G``, from cut counts in ``O(m)``."""
    return float(comparator_norm_sq(G, labels))


def _bst_comparator_norm_sq(bst: BinarySupportTree, labels) -> float:
    """``||U_B||_F^2`` on the Binary Support Tree, its internal vertices labelled by propagation."""
    B = nx.relabel_nodes(bst.to_networkx(), lambda v: v - 1)  # heap indices 1..2N-1 -> 0..2N-2
    return _comparator_norm_sq(B, bst.propagate_labels(labels)[1:])


register_learner("AlwaysSimilar", AlwaysSimilar, setting="baseline",
                 description="predicts similar on every pair; errs on every dissimilar pair")
register_learner("UnionFindLearner", UnionFindLearner, bound=_union_find_bound, setting="baseline",
                 description="transitivity of revealed similar pairs; M <= n - K")
register_learner("Similarity from class", _similarity_from_graph_perceptron, needs_labels=True, slow=True,
                 bound=_similarity_from_graph_perceptron_bound, setting="known graph",
                 description="Lemma 7: weighted majority over hallucinated histories of one-vs-rest "
                             "graph Perceptrons; retires when its pool outgrows 2000 histories")
def _matrix_perceptron_bound(G: nx.Graph, labels, learner) -> float:
    """``R^2 ||U||_F^2`` rounded down to the digits that are the same on every machine (:func:`certified_bound`)."""
    U = comparator_norm_sq(G, labels)
    return certified_bound(lambda R: matrix_perceptron_mistake_bound(R, U), learner.R, learner.R_error,
                       exact=lambda: learner.exact_R2() * U)


def _matrix_winnow_bound(G: nx.Graph, labels, learner) -> float:
    """``(e^eta + 1)/eta R |Phi| ln m`` rounded down to the digits that are the same on every machine."""
    cut = g.cut_size(G, labels)

    def bound_at(R):
        return matrix_winnow_mistake_bound(R, cut, learner.m, learner.eta)

    return certified_bound(bound_at, learner.R, learner.R_error,
                       exact=lambda: bound_at(math.sqrt(float(learner.exact_R2()))))


register_learner("Matrix Perceptron", lambda G, seed: MatrixPerceptron(G), bound=_matrix_perceptron_bound,
                 description="Algorithm 1 on G (kernel form); Proposition 2, M <= R^2 ||U||_F^2")
register_learner("Matrix Winnow", lambda G, seed, y: MatrixWinnow(G, cut_size=g.cut_size(G, y)), needs_labels=True,
                 bound=_matrix_winnow_bound,
                 description="Algorithm 1 on G (kernel form); its threshold needs |Phi|; Proposition 2")
register_learner("BST Perceptron", lambda G, seed: BSTPerceptron(BinarySupportTree.from_graph(G, seed)),
                 bound=lambda G, y, L: matrix_perceptron_mistake_bound(L.R, _bst_comparator_norm_sq(L.bst, y)),
                 description="the O(log^2 n) Matrix Perceptron on a Binary Support Tree (§4.1); "
                             "R^2 ||U_B||_F^2 for its BST")
register_learner("TreeWinnow", TreeWinnow, setting="unknown graph",
                 description="Winnow on the revealed paths' forest (§5 warm-up); bounded only on trees")
register_learner("r-norm Perceptron", RNormPerceptron, setting="unknown graph",
                 bound=lambda G, y: rnorm_perceptron_cut_bound(G.number_of_nodes(), g.cut_size(G, y)),
                 description="Algorithm 2; Theorem 5, M = O(|Phi|^4 log n)")
# A new learner joins with one more line (see the module docstring).


def learners_for(setting: str) -> list[str]:
    """The registered learners that fit a setting: its own learners and the baselines.

    Parameters
    ----------
    setting : {"baseline", "known graph", "unknown graph"}

    Examples
    --------
    >>> learners_for("unknown graph")[:2]
    ['AlwaysSimilar', 'UnionFindLearner']
    """
    if setting not in _SETTINGS:
        raise ValueError(f"setting must be one of {_SETTINGS}, got {setting!r}")
    return [name for name, spec in LEARNERS.items() if spec.setting in ("baseline", setting)]


# -- paths --------------------------------------------------------------------------------


# -- adversaries --------------------------------------------------------------------------


# -- the game -----------------------------------------------------------------------------
def learner_seed(seed: int, name: str) -> int:
    """The seed of learner ``name`` in a game seeded ``seed``: from the seed and the name alone.

    A learner's randomness (the random spanning tree of the BST Perceptron, say) therefore
    does not depend on which other learners play or on its place in the list.  The name
    enters through its CRC-32 (stable across runs and machines, unlike Python's salted
    ``hash``), and :class:`numpy.random.SeedSequence` mixes the two into one 32-bit seed.

    Parameters
    ----------
    seed : int
        The game's seed (non-negative).
    name : str
        The learner's name, as listed.

    Returns
    -------
    int
        A seed in ``0 .. 2**32 - 1``.

    Examples
    --------
    >>> learner_seed(0, "BST Perceptron") == learner_seed(0, "BST Perceptron")
    True
    >>> learner_seed(0, "BST Perceptron") != learner_seed(1, "BST Perceptron")
    True
    """
    seed = check_int(seed, "seed", low=0)
    if not isinstance(name, str):
        raise TypeError(f"name must be the learner's name (a str), got {name!r}")
    mixed = np.random.SeedSequence(entropy=seed, spawn_key=(zlib.crc32(name.encode("utf-8")),))
    return int(mixed.generate_state(1, dtype=np.uint32)[0])


#: Exceptions by which a learner gives up (its pool or memory ran out, a number overflowed):
#: the playground retires it and plays on with the others.
RETIRE_ON = (RuntimeError, MemoryError, ArithmeticError)

@dataclass(frozen=True)
class StepRecord:
    """One step of the playground: the trial and what each learner predicted."""

    trial: Trial
    predictions: dict[str, int] = field(default_factory=dict)

    @property
    def wrong(self) -> dict[str, bool]:
        """``name -> True`` for the learners that erred on this trial."""
        return {name: y_hat != self.trial.y for name, y_hat in self.predictions.items()}


class Playground:
    """Several learners against one adversary on one labelled graph, trial by trial.

    Every learner sees the same trials; each step the adversary chooses a pair (or you
    do), every learner predicts, then learns the truth.

    Parameters
    ----------
    graph : str or (networkx.Graph, labels)
        A key of :data:`GRAPHS`, or your own labelled graph.
    learners : sequence of str, optional
        Keys of :data:`LEARNERS`; all registered learners by default.
    adversary : str or Adversary
        A key of :data:`ADVERSARIES` (or an adversary object).
    seed : int
        Seeds the graph (planted partition), the learners and the adversary; learner ``name``
        gets :func:`learner_seed(seed, name) <learner_seed>`, whatever its place in the list.
    adversary_options : dict, optional
        Keyword arguments of the adversary (e.g. ``{"target": "AlwaysSimilar"}``).
    registry : dict, optional
        The learner registry to use (default :data:`LEARNERS`).

    Attributes
    ----------
    G, labels, n, K
        The labelled graph.
    learners : dict name -> learner
    specs : dict name -> LearnerSpec
    history : list of StepRecord
    retired : dict name -> str
        Learners that gave up — raised one of :data:`RETIRE_ON` (e.g. the reductions'
        ``PoolLimitError``, a ``RuntimeError``) — and why; they stop playing, the others go
        on.  Any other exception (a bug, bad input) propagates.

    Examples
    --------
    >>> game = Playground("karate club", ["AlwaysSimilar", "UnionFindLearner"], "adaptive", seed=0)
    >>> _ = game.play(5)
    >>> game.mistakes["AlwaysSimilar"], len(game.history)   # the target errs on every trial
    (5, 5)
    >>> game.step(pair=(0, 33)).trial
    Trial(i=0, j=33, y=1, path=None)
    """

    def __init__(self, graph="karate club", learners: Sequence[str] | None = None, adversary="random",
                 seed: int = 0, adversary_options: dict | None = None, registry: dict | None = None):
        self.seed = check_int(seed, "seed", low=0)
        self.registry = LEARNERS if registry is None else registry
        if isinstance(graph, str):
            if graph not in GRAPHS:
                raise ValueError(f"unknown graph {graph!r}; choose one of {list(GRAPHS)} or pass (G, labels)")
            self.graph_name = graph
            G, labels = GRAPHS[graph].factory(self.seed)
        else:
            try:
                G, labels = graph
            except (TypeError, ValueError):
                raise TypeError("graph must be a name from GRAPHS or a pair (G, labels)") from None
            self.graph_name = "custom graph"
        G = g.validate_graph(G)
        # a copy whose vertices iterate in the order 0..n-1: figures colour vertices in
        # iteration order, and e.g. the grid's generator inserts them in another order
        self.G = nx.Graph()
        self.G.add_nodes_from(range(G.number_of_nodes()))
        self.G.add_edges_from(G.edges)
        self.n = self.G.number_of_nodes()
        self.labels = g.validate_labels(labels, self.n)
        self.K = int(np.unique(self.labels).size)
        self.cut = g.cut_edges(self.G, self.labels)
        self.boundary = np.unique(np.asarray(self.cut, dtype=np.int64).reshape(-1))
        if isinstance(learners, str):
            raise TypeError(f"learners must be a list of learner names, got the string {learners!r}; e.g. "
                            f"[{learners!r}]")
        names = list(self.registry) if learners is None else list(learners)
        if not names:
            raise ValueError("choose at least one learner")
        unknown = [s for s in names if s not in self.registry]
        if unknown:
            raise ValueError(f"unknown learner(s) {unknown}; registered: {list(self.registry)}")
        if len(set(names)) != len(names):
            raise ValueError(f"a learner is listed twice in {names}")
        self.names = names
        self.specs = {name: self.registry[name] for name in names}
        self.adversary = make_adversary(adversary, **(adversary_options or {}))
        self.reset()

    # -- state ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Fresh learners and adversary randomness; with ``seed``, a new seed for both.

        The graph stays the same (build a new playground for another graph).
        """
        if seed is not None:
            self.seed = check_int(seed, "seed", low=0)
        self.rng = check_random_state(self.seed)
        self.learners = {name: self.fresh_learner(name) for name in self.names}
        self.history: list[StepRecord] = []
        self.retired: dict[str, str] = {}

    def fresh_learner(self, name: str):
        """A new learner ``name`` exactly as this game builds it (same graph, seed, labels).

        Examples
        --------
        >>> game = Playground("barbell", ["UnionFindLearner"], seed=0)
        >>> game.fresh_learner("UnionFindLearner")
        UnionFindLearner(n=18, mistakes=0, trials=0)
        """
        if name not in self.specs:
            raise ValueError(f"{name!r} is not playing; the learners are {self.names}")
        return self.specs[name].build(self.G, learner_seed(self.seed, name), self.labels)

    @property
    def needs_path(self) -> bool:
        """Whether some learner playing needs the revealed paths."""
        return any(spec.needs_path for spec in self.specs.values())

    def layout(self) -> dict:
        """Vertex positions for figures: the graph's natural drawing, or a seeded spring layout."""
        spec = GRAPHS.get(self.graph_name)
        if spec is not None and spec.layout is not None:
            return spec.layout(self.G)
        from ..viz.graphs import graph_layout  # plotting pulls in matplotlib: only when drawing

        return graph_layout(self.G, seed=0)

    def label(self, i: int, j: int) -> int:
        """The true similarity label of ``(i, j)``: ``1`` dissimilar, ``0`` similar."""
        return int(self.labels[i] != self.labels[j])

    def path_for(self, i: int, j: int) -> tuple[int, ...]:
        """The path revealed by default when a learner needs one: a shortest path."""
        return shortest_path(self.G, i, j)

    # -- playing -------------------------------------------------------------------------
    def step(self, pair: tuple[int, int] | None = None) -> StepRecord:
        """Play one trial: the adversary's pair (or ``pair``), predictions, then the truth."""
        if pair is not None:
            try:
                i, j = pair
            except (TypeError, ValueError):
                raise TypeError(f"pair must be two vertices (i, j), got {pair!r}") from None
            i, j = check_pair(i, j, self.n)
            path = None
        else:
            i, j, path = self.adversary.choose(self)
        if path is None and self.needs_path:
            path = self.path_for(i, j)
        trial = Trial(i, j, self.label(i, j), path)
        predictions = {}
        for name, learner in self.learners.items():
            if name in self.retired:
                continue
            p = trial.path if self.specs[name].needs_path else None
            try:
                predictions[name] = int(learner.predict_one(i, j, p))
                learner.learn_one(i, j, trial.y, p)
            except RETIRE_ON as err:  # the learner gives up (e.g. PoolLimitError): it stops playing
                why = str(err).split(". ")[0].rstrip(".")  # the first sentence says enough
                self.retired[name] = f"retired at trial {len(self.history) + 1}: {type(err).__name__}: {why}"
        record = StepRecord(trial, predictions)
        self.history.append(record)
        return record

    def play(self, k: int, progress: bool = False) -> list[StepRecord]:
        """Play ``k`` trials; ``progress=True`` shows a tqdm bar (for long runs)."""
        k = check_num_trials(k, "k", already=len(self.history))
        steps = range(int(k))
        if not progress:
            return [self.step() for _ in steps]
        from tqdm.auto import tqdm

        bar = tqdm(steps, desc=f"{self.adversary.name} adversary", leave=False)
        try:
            return [self.step() for _ in bar]
        finally:
            # in a notebook the bar is a widget, and a notebook saves the state of every widget
            # it ever showed: hide it, so the saved page shows no bar frozen at its last value
            container = getattr(bar, "container", None)
            if container is not None:
                container.layout.display = "none"
            bar.close()

    # -- what happened -------------------------------------------------------------------
    @property
    def current(self) -> StepRecord | None:
        """The last step played, or ``None``."""
        return self.history[-1] if self.history else None

    @property
    def mistakes(self) -> dict[str, int]:
        """``name -> number of mistakes so far``."""
        return {name: int(sum(r.predictions[name] != r.trial.y for r in self.history if name in r.predictions))
                for name in self.names}

    def results(self) -> dict[str, RunResult]:
        """``name -> RunResult`` of the trials so far (mistake curves in ``.cumulative``).

        A retired learner's result covers the trials it predicted on.
        """
        out = {}
        for name in self.names:
            played = [r for r in self.history if name in r.predictions]
            preds = np.array([r.predictions[name] for r in played], dtype=np.int64)
            wrong = (preds != np.array([r.trial.y for r in played], dtype=np.int64)).astype(np.int64)
            out[name] = RunResult(preds, wrong, np.cumsum(wrong))
        return out

    def bounds(self) -> dict[str, float]:
        """``name -> mistake bound`` for the learners registered with a bound."""
        return {name: spec.bound_for(self.G, self.labels, self.learners[name])
                for name, spec in self.specs.items() if spec.bound is not None}

    def bst_path(self, name: str, pair: tuple[int, int] | None = None) -> list[int] | None:
        """The BST path of ``pair`` (default: the current pair) in learner ``name``'s Binary
        Support Tree, or ``None`` if that learner exposes no BST.

        The hook: a learner exposes ``bst_path(i, j)`` or a ``bst`` attribute with a
        ``path(i, j)`` method (a :class:`~simpred_lite.bst.BinarySupportTree`).
        """
        learner = self.learners[name]
        if pair is None:
            if self.current is None:
                return None
            pair = (self.current.trial.i, self.current.trial.j)
        if callable(getattr(learner, "bst_path", None)):
            return list(learner.bst_path(*pair))
        bst = getattr(learner, "bst", None)
        if bst is not None and callable(getattr(bst, "path", None)):
            return list(bst.path(*pair))
        return None

    def bst_learner(self) -> str | None:
        """The first learner playing that exposes a Binary Support Tree, or ``None``."""
        for name in self.names:
            learner = self.learners[name]
            if callable(getattr(learner, "bst_path", None)) or getattr(learner, "bst", None) is not None:
                return name
        return None

    def blocked(self) -> str | None:
        """Why the adversary cannot choose the next trial by itself, or ``None`` if it can.

        An app disables its **Play** button while this is not ``None``.

        Returns
        -------
        str or None
            The reason, in words: the adversary is the student (who must give the pair),
            the adaptive adversary's target has retired, or every learner has retired.

        Examples
        --------
        >>> Playground("barbell", ["AlwaysSimilar"], "random", seed=0).blocked() is None
        True
        >>> Playground("barbell", ["AlwaysSimilar"], "student", seed=0).blocked()
        'the student adversary is you: pick a pair and press Step'
        """
        if len(self.retired) == len(self.names):
            return "every learner has retired: press Reset or change a setting"
        if self.adversary.name == "student":
            return "the student adversary is you: pick a pair and press Step"
        if self.adversary.name == "adaptive":
            target = getattr(self.adversary, "target", None) or self.names[0]
            if target in self.retired:
                return f"the adaptive adversary's target {target!r} has retired: choose another target"
        return None

    def summary(self) -> str:
        """One line: trials played and each learner's mistakes (what the app's counter shows).

        Examples
        --------
        >>> Playground("grid", ["AlwaysSimilar"], seed=0).summary()
        'trials: 0 | mistakes: AlwaysSimilar 0'
        """
        counts = ", ".join(f"{name} {m}" + (" (retired)" if name in self.retired else "")
                           for name, m in self.mistakes.items())
        return f"trials: {len(self.history)} | mistakes: {counts}"

    def __repr__(self) -> str:
        return (f"Playground({self.graph_name!r}, n={self.n}, K={self.K}, learners={self.names}, "
                f"adversary={self.adversary.name!r}, trials={len(self.history)})")
