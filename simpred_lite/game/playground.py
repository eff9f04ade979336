"""The adversary playground: pick a graph, some learners and an adversary, and play.

This module is the plain-Python logic behind notebook 10 and its web app
(:mod:`simpred_lite.apps.playground_app`); it is tested without a browser.

* **Graphs** — :data:`GRAPHS`: a planted partition, a grid, a barbell and the karate club,
  each with its classes: the playground's choice from the one list of named graphs,
  :data:`simpred_lite.datasets.GRAPHS` (any name there plays too).
* **Learners** — :data:`LEARNERS`, the one registry of :mod:`simpred_lite.learners.registry`
  (``name -> LearnerSpec``), discovered from the learner classes: how to build each learner on
  a graph, whether it needs the path revealed with each pair (the unknown-graph setting of
  §5), and its mistake bound (the learner's own ``mistake_bound(G, labels)``).  The
  playground offers the learners of the settings ``"baseline"``, ``"known graph"`` and
  ``"unknown graph"``.
* **Adversaries** — :data:`ADVERSARIES`, one meaning each everywhere in the package
  (:mod:`simpred_lite.game.adversaries`): ``"random"`` pairs, ``"cut-biased"`` (half of the
  pairs are cut edges), ``"adaptive"`` (asks a target learner ``predict_one`` on 32 random
  candidate pairs *without letting it learn* and picks one it gets wrong;
  ``adversary_options={"candidates": None}`` asks every pair), the path-revealing adversaries
  (``"path-revealing"`` = ``"shortest path"``, and ``"random-walk path"``), and ``"student"``:
  the pair is yours, ``step(pair=(i, j))``.
* :class:`Playground` runs every chosen learner on the *same* trials: ``step()``,
  ``play(k)``, ``reset()``, and gives their mistake curves as :class:`~simpred_lite.game.trials.RunResult`.

Registering a learner
---------------------
A learner class of the package is registered by being one (see
:mod:`simpred_lite.learners.registry`).  Your own learner joins with one line, anywhere
before a ``Playground`` is built::

    register_learner("Adjacent => similar", lambda G, seed: AdjacentSimilar(G))
    register_learner("My learner", MyLearner)   # a class: built with MyLearner.for_graph, bound from mistake_bound

``factory(G, seed)`` gets the validated graph and an integer seed (use it for any random
spanning tree, e.g. ``BinarySupportTree.from_graph(G, seed)``).  A learner on an unknown
graph must only use ``G.number_of_nodes()`` and has ``needs_path=True``.  A learner whose
*hyper-parameter* the paper assumes known from the labeling is registered with
``needs_labels=True`` and built as ``factory(G, seed, labels)``; it must use the labels for
that parameter only.  ``bound=`` (``bound(G, labels)`` or ``bound(G, labels, learner)``)
gives a factory's learner a mistake bound; ``bound_in_expectation=True`` says it holds only
on average over the learner's randomness.  A learner that keeps a
Binary Support Tree should expose it as a ``bst`` attribute (a
:class:`~simpred_lite.bst.BinarySupportTree`) or a ``bst_path(i, j)`` method: the app then
draws the BST path of the current pair.

Every path revealed is simple (no repeated vertex).  When a chosen learner needs paths
and the adversary reveals none, the playground reveals the shortest path.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from .. import graphs as g
from ..checks import LearnerGaveUp, check_int, check_num_trials, check_pair, check_random_state
from ..datasets import GRAPHS as NAMED_GRAPHS
from ..datasets import GraphSpec
from ..learners.registry import (
    LEARNERS,
    LearnerSpec,
    learners_for,
    playable,
    register_learner,
    resolve,
)
from .adversaries import make_adversary
from .trials import RunResult, Trial, shortest_path

__all__ = [
    "GraphSpec",
    "GRAPHS",
    "PLAYGROUND_GRAPHS",
    "LearnerSpec",
    "LEARNERS",
    "register_learner",
    "learners_for",
    "StepRecord",
    "LearnerGaveUp",
    "learner_seed",
    "Playground",
]


# -- graphs -------------------------------------------------------------------------------
#: The graphs the playground offers (its app's menu): chosen from the one list of named graphs,
#: :data:`simpred_lite.datasets.GRAPHS`, which also plays by name.
PLAYGROUND_GRAPHS = ("planted partition", "grid", "barbell", "karate club")
GRAPHS: dict[str, GraphSpec] = {name: NAMED_GRAPHS[name] for name in PLAYGROUND_GRAPHS}


# -- learners -----------------------------------------------------------------------------
# The one registry (simpred_lite.learners.registry): discovered from the learner classes, each
# with its display name, needs and mistake bound; LEARNERS here *is* that registry.


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
        A key of :data:`GRAPHS` (or of :data:`simpred_lite.datasets.GRAPHS`), or your own labelled graph.
    learners : sequence of str, optional
        Names of :data:`LEARNERS` (display or class names, or learner classes); by default
        every learner of the settings "baseline", "known graph" and "unknown graph".
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
        Learners that gave up — raised :class:`~simpred_lite.checks.LearnerGaveUp` (e.g. the
        reductions' ``PoolLimitError``, a memory guard) — and why; they stop playing, the
        others go on.  Any other exception (a bug such as a ``ZeroDivisionError``, bad input)
        propagates with its traceback.

    Examples
    --------
    >>> game = Playground("karate club", ["AlwaysSimilar", "UnionFindLearner"], "adaptive", seed=0)
    >>> _ = game.play(5)
    >>> game.mistakes["AlwaysSimilar"], len(game.history)   # the target errs on every trial
    (5, 5)
    >>> game.step(pair=(0, 33)).trial
    Trial(i=0, j=33, y=1, path=None)
    """

    def __init__(self, graph: Any = "karate club", learners: Sequence[Any] | None = None, adversary: Any = "random",
                 seed: int = 0, adversary_options: dict | None = None, registry: dict | None = None):
        self.seed = check_int(seed, "seed", low=0)
        self.registry = LEARNERS if registry is None else registry
        if isinstance(graph, str):
            if graph not in NAMED_GRAPHS:
                raise ValueError(f"unknown graph {graph!r}; choose one of {list(GRAPHS)} (or another name of "
                                 "simpred_lite.datasets.GRAPHS) or pass (G, labels)")
            self.graph_name = graph
            G, labels = NAMED_GRAPHS[graph].factory(self.seed)
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
        if learners is None:
            names = playable(self.registry)
        else:
            names = list(learners)
        if not names:
            raise ValueError("choose at least one learner")
        specs = [resolve(name, registry=self.registry) for name in names]  # names, class names, classes
        names = [spec.name for spec in specs]
        if len(set(names)) != len(names):
            raise ValueError(f"a learner is listed twice in {names}")
        self.names = names
        self.specs = dict(zip(names, specs))
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

    def fresh_learner(self, name: str) -> Any:
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
        spec = NAMED_GRAPHS.get(self.graph_name)
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
            except LearnerGaveUp as err:  # the learner gives up (e.g. PoolLimitError): it stops playing
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
        bounds = {name: spec.bound_for(self.G, self.labels, self.learners[name])
                  for name, spec in self.specs.items() if spec.has_bound}
        return {name: b for name, b in bounds.items() if b is not None}

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
