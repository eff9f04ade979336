"""Adversaries: who chooses the next pair, and with which path.

One family, one protocol: an :class:`Adversary` implements ``choose(game)`` and returns
``(i, j, path)`` (``path`` is ``None`` unless the adversary reveals one).  ``game`` is
anything with the state an adversary may look at — the :class:`~simpred_lite.game.Playground`
(several learners on one labelled graph), or the one-learner state :func:`~simpred_lite.game.adaptive_run`
builds: ``rng``, ``n``, ``label(i, j)``, ``learners`` / ``names`` / ``specs``, ``path_for``,
and for the cut-biased adversary ``boundary``.

* :class:`RandomAdversary` — uniformly random pairs (nature, not an adversary)
* :class:`CutBiasedAdversary` — pairs among the vertices that touch a cut edge
* :class:`AdaptiveAdversary` — asks its target ``predict_one`` on candidate pairs and poses
  one it gets wrong
* :class:`PathRevealingAdversary` — random pairs revealed with a shortest or random-walk path
* :class:`StudentAdversary` — you choose the pair

The adversaries of the lower bounds choose the *labels* as well, after the prediction:
:class:`~simpred_lite.theory.lowerbound.ComparisonAdversary` (paired permutations, §7; a
subclass of :class:`Adversary` that lives beside the sorting strategies it drives) and
:func:`~simpred_lite.theory.similarity_lower_bound.force_lower_bound` (Proposition 1).
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np

from ..checks import check_int, check_pair, check_probability
from .trials import random_pair, random_pairs, random_walk_path, shortest_path

__all__ = [
    "Adversary",
    "RandomAdversary",
    "CutBiasedAdversary",
    "AdaptiveAdversary",
    "SLOW_CANDIDATES",
    "PathRevealingAdversary",
    "StudentAdversary",
    "ADVERSARIES",
    "make_adversary",
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
    """Pairs among the *boundary*: the vertices that touch a cut edge.

    With probability ``bias`` both vertices are drawn uniformly from the boundary, else
    the pair is uniform.  Boundary vertices sit where the graph's bias is weakest (their
    neighbourhoods mix classes), so graph-based learners find these pairs hardest.

    Parameters
    ----------
    bias : float in [0, 1]

    Examples
    --------
    >>> CutBiasedAdversary(bias=1.0)
    CutBiasedAdversary(bias=1.0)
    """

    name = "cut-biased"

    def __init__(self, bias: float = 0.8):
        self.bias = check_probability(bias, "bias")

    def choose(self, game):
        boundary = game.boundary
        if boundary.size >= 2 and game.rng.random() < self.bias:
            a, b = game.rng.choice(boundary.size, size=2, replace=False)
            return int(boundary[a]), int(boundary[b]), None
        return (*random_pair(game.rng, game.n), None)

    def __repr__(self):
        return f"CutBiasedAdversary(bias={self.bias})"


#: Candidate pairs per trial of the adaptive adversary against a learner registered as slow.
SLOW_CANDIDATES = 40


class AdaptiveAdversary(Adversary):
    """Looks for a pair the *target* learner gets wrong, then asks it.

    It goes through candidate pairs in random order, asks the target learner
    ``predict_one`` on each (predicting never changes a learner's state, so this is
    allowed: the adversary knows the learner), and picks the first pair whose prediction
    is wrong; if there is none, the first candidate.  The candidates are all pairs
    (``candidates=None``: the target errs whenever it can be made to) or that many
    uniformly random pairs: each trial may cost up to that many predictions of the target.
    In a :class:`~simpred_lite.game.Playground`, ``candidates=None`` against a target
    registered as ``slow`` (the reduction's master algorithm evaluates its whole pool per
    prediction) means :data:`SLOW_CANDIDATES` random pairs, and the target is the learner
    named ``target``, or the playground's first learner.  :func:`~simpred_lite.game.adaptive_run`
    plays it against one learner.

    Parameters
    ----------
    candidates : int, optional
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

    def __init__(self, candidates: int | None = None, target: str | None = None, pairs=None):
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
        count = self.candidates
        if count is None and game.specs[name].slow:
            count = SLOW_CANDIDATES
        pairs = self.candidate_pairs(game.rng, game.n, count)
        path_for = game.path_for if game.specs[name].needs_path else None
        return self.first_mistake(game.learners[name], pairs, game.label, path_for)

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


#: The adversaries the playground offers: name -> constructor.
ADVERSARIES: dict[str, Callable[..., Adversary]] = {
    "random": RandomAdversary,
    "cut-biased": CutBiasedAdversary,
    "adaptive": AdaptiveAdversary,
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
    AdaptiveAdversary(candidates=None, target='AlwaysSimilar')
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
