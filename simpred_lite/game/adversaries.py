"""Adversaries: who chooses the next pair, and with which path.

One family, one protocol: an :class:`Adversary` implements ``choose(game)`` and returns
``(i, j, path)`` (``path`` is ``None`` unless the adversary reveals one).  ``game`` is
anything with the state an adversary may look at — the :class:`~simpred_lite.game.Playground`
(several learners on one labelled graph), or the one-learner :class:`GameState` that
:func:`play_adversary` (and so :func:`~simpred_lite.game.adaptive_run`, :func:`cut_biased_trials`
and :func:`~simpred_lite.game.evaluate`) builds: ``rng``, ``n``, ``G``, ``label(i, j)``,
``cut``, ``learners`` / ``names`` / ``retired``, ``path_for``.

**One vocabulary.**  Each name means one distribution, the same in the playground,
:func:`~simpred_lite.game.evaluate`, the apps and the notebooks (:data:`ADVERSARIES`):

* ``"random"`` — :class:`RandomAdversary`: uniformly random pairs of distinct vertices
  (nature, not an adversary);
* ``"cut-biased"`` — :class:`CutBiasedAdversary`: with probability ``p_cut = 0.5`` the two
  ends of a uniformly random cut edge (in a random order), else a uniform pair;
* ``"adaptive"`` — :class:`AdaptiveAdversary`: each trial it draws
  :data:`ADAPTIVE_CANDIDATES` ``= 32`` uniformly random candidate pairs, asks its target
  ``predict_one`` on them and poses the first one it gets wrong (else the first candidate);
* ``"path-revealing"`` (also ``"shortest path"``) — :class:`PathRevealingAdversary`: uniform
  pairs revealed with a shortest path; ``"random-walk path"`` reveals a loop-erased random walk;
* ``"student"`` — :class:`StudentAdversary`: you choose the pair.

The adversaries of the lower bounds choose the *labels* as well, after the prediction:
:class:`~simpred_lite.theory.lowerbound.ComparisonAdversary` (paired permutations, §7; a
subclass of :class:`Adversary` that lives beside the sorting strategies it drives) and
:func:`~simpred_lite.theory.similarity_lower_bound.force_lower_bound` (Proposition 1).
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

from ..checks import check_int, check_num_trials, check_pair, check_probability, check_random_state
from ..graphs import cut_edges, validate_graph, validate_labels
from .trials import Trial, random_pair, random_pairs, random_walk_path, shortest_path

__all__ = [
    "Adversary",
    "RandomAdversary",
    "CutBiasedAdversary",
    "AdaptiveAdversary",
    "ADAPTIVE_CANDIDATES",
    "PathRevealingAdversary",
    "StudentAdversary",
    "ADVERSARIES",
    "make_adversary",
    "GameState",
    "play_adversary",
    "cut_biased_trials",
]


class Adversary(ABC):
    """Chooses the next pair; subclasses implement :meth:`choose`.

    ``choose(game)`` returns ``(i, j, path)`` where ``path`` is ``None`` unless the
    adversary reveals one; ``game`` is the :class:`~simpred_lite.game.Playground` (its graph,
    labels, learners and random generator ``game.rng``).

    Examples
    --------
    >>> class FirstPair(Adversary):
    ...     def choose(self, game):
    ...         return 0, 1, None
    >>> FirstPair().choose(None)
    (0, 1, None)
    """

    name = "adversary"
    reveals_path = False

    @abstractmethod
    def choose(self, game) -> tuple[int, int, tuple[int, ...] | None]:
        """The next pair ``(i, j)`` and the path revealed with it (or ``None``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAdversary(Adversary):
    """Uniformly random pairs of distinct vertices (nature, not an adversary).

    Examples
    --------
    A random pair of the barbell, with no path:

    >>> from simpred_lite.game import Playground
    >>> game = Playground("barbell", ["AlwaysSimilar"], RandomAdversary(), seed=0)
    >>> i, j, path = game.adversary.choose(game)
    >>> i != j and path is None
    True
    """

    name = "random"

    def choose(self, game):
        return (*random_pair(game.rng, game.n), None)


class CutBiasedAdversary(Adversary):
    """Pairs biased towards the cut: the two ends of a cut edge with probability ``p_cut``.

    With probability ``p_cut`` the pair is a uniformly random cut edge, its two ends in a
    random order; otherwise the pair is uniform among all pairs of distinct vertices.  Cut
    edges are the hardest pairs for graph learners: adjacent yet dissimilar.  The same
    distribution everywhere ``"cut-biased"`` is said (:func:`cut_biased_trials`,
    ``evaluate(trials="cut-biased")``, the playground).

    Parameters
    ----------
    p_cut : float in [0, 1], default 0.5

    Examples
    --------
    >>> CutBiasedAdversary(p_cut=1.0)
    CutBiasedAdversary(p_cut=1.0)
    """

    name = "cut-biased"

    def __init__(self, p_cut: float = 0.5):
        self.p_cut = check_probability(p_cut, "p_cut")
        self._cut: tuple[Any, Any] = (None, None)  # (the game's cut, as an array), cached per game

    def _cut_array(self, game) -> np.ndarray:
        if self._cut[0] is not game.cut:  # computed once per game (the cut of a big graph is long)
            self._cut = (game.cut, np.asarray(game.cut, dtype=np.int64).reshape(-1, 2))
        return self._cut[1]

    def choose(self, game):
        rng = game.rng
        if rng.random() < self.p_cut:
            cut = self._cut_array(game)
            if len(cut) == 0:
                raise ValueError("the labeling has no cut edge (one class?): use the random adversary, or p_cut=0")
            a, b = cut[rng.integers(len(cut))]
            if rng.random() < 0.5:
                a, b = b, a
            return int(a), int(b), None
        return (*random_pair(rng, game.n), None)

    def __repr__(self):
        return f"CutBiasedAdversary(p_cut={self.p_cut})"


#: Candidate pairs per trial of the ``"adaptive"`` adversary (:class:`AdaptiveAdversary`).
ADAPTIVE_CANDIDATES = 32


class AdaptiveAdversary(Adversary):
    """Looks for a pair the *target* learner gets wrong, then asks it.

    Each trial it draws ``candidates`` uniformly random pairs (default
    :data:`ADAPTIVE_CANDIDATES` = 32, the meaning of ``"adaptive"`` everywhere), asks the
    target learner ``predict_one`` on each (predicting never changes a learner's state, so
    this is allowed: the adversary knows the learner), and poses the first pair whose
    prediction is wrong; if there is none, the first candidate.  Each trial costs at most
    ``candidates`` predictions of the target.  ``candidates=None`` is the exhaustive
    adversary: every pair in a fresh random order, so the target errs whenever it can be
    made to (``n(n-1)/2`` predictions per trial: small graphs only).  In a
    :class:`~simpred_lite.game.Playground` the target is the learner named ``target``, or the
    playground's first learner.  :func:`~simpred_lite.game.adaptive_run` plays it against one
    learner.

    Parameters
    ----------
    candidates : int or None, default 32
        Candidate pairs examined per trial; ``None`` examines every pair (of ``pairs``, or all
        ``n(n-1)/2`` pairs) in a fresh random order.
    target : str, optional
        The name of the learner to play against (in a playground).
    pairs : sequence of (int, int), optional
        The pool candidates are drawn from (default: all pairs of distinct vertices).

    Examples
    --------
    >>> adv = AdaptiveAdversary(candidates=8)
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> i, j, path = adv.first_mistake(AlwaysSimilar(4), [(0, 1), (0, 2)], lambda i, j: int(i // 2 != j // 2))
    >>> (i, j, path)                     # AlwaysSimilar errs on the dissimilar pair
    (0, 2, None)
    """

    name = "adaptive"

    def __init__(self, candidates: int | None = ADAPTIVE_CANDIDATES, target: str | None = None, pairs=None):
        self.candidates = None if candidates is None else check_int(candidates, "candidates", low=1)
        self.target = target
        self.pairs = None if pairs is None else list(pairs)
        if self.pairs is not None and not self.pairs:
            raise ValueError("pairs is empty: give at least one candidate pair, or None for all pairs")
        self._pairs_checked_for = None

    def check_pairs(self, n: int) -> None:
        """Check the candidate pool (if any) against ``n`` vertices; raises on a bad pair."""
        if self.pairs is not None and self._pairs_checked_for != n:
            self.pairs = [check_pair(i, j, n) for i, j in self.pairs]
            self._pairs_checked_for = n

    def candidate_pairs(self, rng: np.random.Generator, n: int, count: int | None) -> list[tuple[int, int]]:
        """This trial's candidates: ``count`` random pairs, or all of them (``None``) shuffled."""
        self.check_pairs(n)
        if count is None:  # exhaustive: every pair, in a fresh random order
            if self.pairs is not None:
                return [self.pairs[k] for k in rng.permutation(len(self.pairs))]
            i, j = np.triu_indices(n, 1)
            order = rng.permutation(i.size)
            return list(zip(i[order].tolist(), j[order].tolist()))
        if self.pairs is not None:
            return [self.pairs[k] for k in rng.integers(len(self.pairs), size=count)]
        i, j = random_pairs(rng, n, count)
        return list(zip(i.tolist(), j.tolist()))

    @staticmethod
    def first_mistake(learner, pairs, label, path_for=None) -> tuple[int, int, tuple[int, ...] | None]:
        """The first of ``pairs`` that ``learner`` gets wrong (else the first pair, no path).

        ``label(i, j)`` is the true label; ``path_for(i, j)``, if given, the path revealed with
        the pair (for learners on unknown graphs).
        """
        for i, j in pairs:
            path = None if path_for is None else path_for(i, j)
            if learner.predict_one(i, j, path) != label(i, j):
                return i, j, path
        i, j = pairs[0]
        return i, j, None

    def choose(self, game):
        name = self.target if self.target is not None else game.names[0]
        if name not in game.learners:
            raise ValueError(f"the adaptive adversary targets {name!r}, which is not playing; choose one of "
                             f"{game.names}")
        if name in game.retired:
            raise ValueError(f"the adaptive adversary's target {name!r} has {game.retired[name]}; choose "
                             "another target")
        learner = game.learners[name]
        pairs = self.candidate_pairs(game.rng, game.n, self.candidates)
        path_for = game.path_for if getattr(learner, "needs_path", False) else None
        return self.first_mistake(learner, pairs, game.label, path_for)

    def __repr__(self):
        return f"AdaptiveAdversary(candidates={self.candidates}, target={self.target!r})"


class PathRevealingAdversary(Adversary):
    """Uniformly random pairs revealed together with a path (the unknown-graph game, §5).

    Parameters
    ----------
    kind : {"shortest", "random walk"}
        A shortest path, or a loop-erased random walk (a random simple path).

    Examples
    --------
    >>> from simpred_lite.game import Playground
    >>> game = Playground("barbell", ["TreeWinnow"], PathRevealingAdversary("shortest"), seed=0)
    >>> i, j, path = game.adversary.choose(game)
    >>> path[0] == i and path[-1] == j
    True
    """

    reveals_path = True

    def __init__(self, kind: str = "shortest"):
        if kind not in ("shortest", "random walk"):
            raise ValueError(f"kind must be 'shortest' or 'random walk', got {kind!r}")
        self.kind = kind
        self.name = "shortest path" if kind == "shortest" else "random-walk path"

    def choose(self, game):
        i, j = random_pair(game.rng, game.n)
        if self.kind == "shortest":
            return i, j, shortest_path(game.G, i, j)
        return i, j, random_walk_path(game.G, i, j, game.rng)

    def __repr__(self):
        return f"PathRevealingAdversary(kind={self.kind!r})"


class StudentAdversary(Adversary):
    """You are the adversary: every step needs a pair, ``step(pair=(i, j))``.

    Examples
    --------
    >>> from simpred_lite.game import Playground
    >>> game = Playground("barbell", ["AlwaysSimilar"], StudentAdversary(), seed=0)
    >>> game.step(pair=(0, 17)).trial.y
    1
    """

    name = "student"

    def choose(self, game):
        raise ValueError("the 'student' adversary needs your pair: call step(pair=(i, j))")


#: The adversaries by name (the one vocabulary, see the module docstring): name -> constructor.
ADVERSARIES: dict[str, Callable[..., Adversary]] = {
    "random": RandomAdversary,
    "cut-biased": CutBiasedAdversary,
    "adaptive": AdaptiveAdversary,
    "path-revealing": lambda **kw: PathRevealingAdversary("shortest", **kw),
    "shortest path": lambda **kw: PathRevealingAdversary("shortest", **kw),
    "random-walk path": lambda **kw: PathRevealingAdversary("random walk", **kw),
    "student": StudentAdversary,
}


def make_adversary(name: str, **options) -> Adversary:
    """Build the adversary called ``name`` (a key of :data:`ADVERSARIES`).

    Parameters
    ----------
    name : str or Adversary
        A key of :data:`ADVERSARIES`; an adversary object is returned as it is.
    **options
        Keyword arguments of that adversary's constructor.

    Returns
    -------
    Adversary

    Examples
    --------
    >>> make_adversary("adaptive", target="AlwaysSimilar")
    AdaptiveAdversary(candidates=32, target='AlwaysSimilar')
    """
    if isinstance(name, Adversary):
        return name
    if name not in ADVERSARIES:
        raise ValueError(f"unknown adversary {name!r}; choose one of {list(ADVERSARIES)}")
    factory = ADVERSARIES[name]
    params = inspect.signature(factory).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        unknown = sorted(set(options) - set(params))
        if unknown:
            raise TypeError(
                f"unknown option(s) {unknown} for the {name!r} adversary; it takes {sorted(params) or 'no options'}"
            )
    return factory(**options)


class GameState:
    """What an adversary may look at when it plays one learner (or none) outside a playground.

    Parameters
    ----------
    labels : array_like of int
        The class of each vertex.
    seed : int or numpy.random.Generator
        The adversary's randomness (``rng``).
    G : networkx.Graph, optional
        The graph (needed by the cut-biased and path-revealing adversaries).
    learner : SimilarityLearner, optional
        The learner an adaptive adversary targets (named ``"target"``).

    Examples
    --------
    >>> state = GameState([0, 0, 1], seed=0)
    >>> state.n, state.label(0, 2)
    (3, 1)
    """

    def __init__(self, labels, seed, G=None, learner=None):
        y = np.asarray(labels)
        if G is not None:
            G = validate_graph(G)
        n = G.number_of_nodes() if G is not None else (y.shape[0] if y.ndim == 1 else -1)
        self.labels = validate_labels(labels, n)
        self.n = int(self.labels.shape[0])
        if self.n < 2:
            raise ValueError("an adversary needs at least two vertices")
        self.G = G
        self.rng = check_random_state(seed)
        self.cut = cut_edges(G, self.labels) if G is not None else []
        self.names = ["target"]
        self.learners = {} if learner is None else {"target": learner}
        self.retired: dict[str, str] = {}

    def label(self, i: int, j: int) -> int:
        """The true label of ``(i, j)``: ``1`` dissimilar, ``0`` similar."""
        return int(self.labels[i] != self.labels[j])

    def path_for(self, i: int, j: int) -> tuple[int, ...]:
        """The path revealed when a learner needs one: a shortest path of ``G``."""
        if self.G is None:
            raise ValueError("a learner needs paths, but no graph was given to reveal them from")
        return shortest_path(self.G, i, j)


def play_adversary(adversary: Adversary, state: GameState, T: int, learner=None):
    """Let ``adversary`` choose ``T`` trials; with ``learner``, it predicts and learns each one as it comes.

    The one loop behind every adversary-made sequence: an adaptive adversary sees the learner
    as it is *now*, so the trials are served lazily.

    Parameters
    ----------
    adversary : Adversary
    state : GameState
        The labelled graph and the adversary's randomness.
    T : int
        Number of trials.
    learner : SimilarityLearner, optional
        Played on each trial (an adaptive adversary's target must be ``state.learners["target"]``).

    Yields
    ------
    (Trial, int or None)
        Each trial and the learner's prediction (None without a learner).

    Examples
    --------
    >>> import networkx as nx
    >>> state = GameState([0, 0, 1, 1], seed=0, G=nx.path_graph(4))
    >>> [t.y for t, _ in play_adversary(CutBiasedAdversary(p_cut=1.0), state, 3)]
    [1, 1, 1]
    """
    T = check_num_trials(T)
    for _ in range(T):
        i, j, path = adversary.choose(state)
        if path is None and learner is not None and getattr(learner, "needs_path", False):
            path = state.path_for(i, j)
        trial = Trial(i, j, state.label(i, j), path)
        y_hat = None
        if learner is not None:
            p = trial.path if getattr(learner, "needs_path", False) else None
            y_hat = learner.predict_one(i, j, p)
            learner.learn_one(i, j, trial.y, p)
        yield trial, y_hat


def cut_biased_trials(G, labels, T: int, seed, p_cut: float = 0.5) -> list[Trial]:
    """``T`` trials of the ``"cut-biased"`` adversary (:class:`CutBiasedAdversary`).

    Each pair is, with probability ``p_cut``, the two ends of a uniformly random cut edge (in
    a random order), otherwise uniform among all pairs of distinct vertices.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    p_cut : float, default 0.5
        Probability of drawing a cut edge.

    Examples
    --------
    >>> import networkx as nx
    >>> trials = cut_biased_trials(nx.path_graph(6), [0, 0, 0, 1, 1, 1], 4, seed=0, p_cut=1.0)
    >>> sorted({(min(t.i, t.j), max(t.i, t.j), t.y) for t in trials})
    [(2, 3, 1)]
    """
    adversary = CutBiasedAdversary(p_cut)
    state = GameState(labels, seed, G=G)
    T = check_num_trials(T)
    if not state.cut and adversary.p_cut > 0:
        raise ValueError("the labeling has no cut edge (one class?): use random_trials, or p_cut=0")
    return [t for t, _ in play_adversary(adversary, state, T)]
