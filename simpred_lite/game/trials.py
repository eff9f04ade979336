"""The online similarity game: trials, the run loop and trial sequences.

On trial ``t`` the learner sees a pair ``(i_t, j_t)`` (plus a path in the unknown-graph
setting of §5), predicts, and is told ``y_t`` (``1`` dissimilar, ``0`` similar).  The
quantity of interest is the number of mistakes, ``M = sum_t [y_hat_t != y_t]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from ..checks import (
    check_int,
    check_pair,
    check_path,
    check_probability,
    check_random_state,
    check_similarity_label,
    check_vertex,
)
from ..graphs import validate_graph, validate_labels

__all__ = [
    "Trial",
    "RunResult",
    "run",
    "random_trials",
    "trials_from_pairs",
    "loop_erase",
    "shortest_path_trials",
    "random_walk_trials",
    "random_walk_path",
    "cut_crossing_trials",
    "adversarial_run",
]


@dataclass(frozen=True)
class Trial:
    """One round of the game: the pair ``(i, j)``, its label ``y`` and maybe a path.

    Parameters
    ----------
    i, j : int
        Two distinct vertices.
    y : int
        ``1`` if ``i`` and ``j`` are in different classes (dissimilar), ``0`` if similar.
    path : tuple of int, optional
        A path ``i = v_0, v_1, ..., v_k = j`` in the graph, revealed with the pair when the
        graph is unknown (§5).

    Examples
    --------
    >>> Trial(0, 5, 1)
    Trial(i=0, j=5, y=1, path=None)
    """

    i: int
    j: int
    y: int
    path: tuple[int, ...] | None = field(default=None)

    def __post_init__(self):
        for name in ("i", "j"):
            object.__setattr__(self, name, check_int(getattr(self, name), f"Trial.{name}", low=0))
        if self.i == self.j:
            raise ValueError(f"a trial needs two distinct vertices, got i == j == {self.i}")
        object.__setattr__(self, "y", check_similarity_label(self.y))
        if self.path is not None:
            # the number of vertices is unknown here: run() checks the vertices against the learner
            object.__setattr__(self, "path", check_path(self.path, self.i, self.j, None, "Trial.path"))


@dataclass(frozen=True)
class RunResult:
    """What happened in a run of a learner over a trial sequence.

    Attributes
    ----------
    predictions : numpy.ndarray
        ``y_hat_t`` for each trial.
    mistakes : numpy.ndarray
        ``1`` where ``y_hat_t != y_t``, else ``0``.
    cumulative : numpy.ndarray
        ``cumulative[t]`` = mistakes on trials ``0 .. t`` (the mistake curve).
    """

    predictions: np.ndarray
    mistakes: np.ndarray
    cumulative: np.ndarray

    @property
    def total_mistakes(self) -> int:
        """The number of mistakes ``M`` over the whole run."""
        return int(self.cumulative[-1]) if self.cumulative.size else 0

    def __len__(self) -> int:
        return int(self.predictions.size)


def run(learner, trials: Iterable[Trial]) -> RunResult:
    """Play ``trials`` against ``learner``: predict, then reveal, trial by trial.

    Parameters
    ----------
    learner : SimilarityLearner
        Anything with ``predict_one(i, j, path=None)`` and ``learn_one(i, j, y, path=None)``.
    trials : iterable of Trial

    Returns
    -------
    RunResult

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> result = run(AlwaysSimilar(3), [Trial(0, 1, 0), Trial(0, 2, 1)])
    >>> result.mistakes.tolist(), result.total_mistakes
    ([0, 1], 1)
    """
    if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
        raise TypeError(
            f"{type(learner).__name__} is not a similarity learner: it needs "
            "predict_one(i, j, path=None) and learn_one(i, j, y, path=None)"
        )
    preds, wrong = [], []
    for t in trials:
        if not isinstance(t, Trial):
            raise TypeError(f"run() takes Trial objects, got {type(t).__name__}; build them with Trial(i, j, y)")
        y_hat = learner.predict_one(t.i, t.j, t.path)
        learner.learn_one(t.i, t.j, t.y, t.path)
        preds.append(y_hat)
        wrong.append(int(y_hat != t.y))
    mistakes = np.asarray(wrong, dtype=np.int64)
    return RunResult(np.asarray(preds, dtype=np.int64), mistakes, np.cumsum(mistakes))


def trials_from_pairs(labels, pairs: Iterable[Sequence[int]]) -> list[Trial]:
    """Label each pair with the truth given by ``labels``.

    Examples
    --------
    >>> trials_from_pairs([0, 0, 1], [(0, 1), (1, 2)])
    [Trial(i=0, j=1, y=0, path=None), Trial(i=1, j=2, y=1, path=None)]
    """
    y = np.asarray(labels)
    n = y.shape[0] if y.ndim == 1 else -1
    y = validate_labels(labels, n)
    out = []
    for i, j in pairs:
        i, j = check_pair(i, j, n)
        out.append(Trial(i, j, int(y[i] != y[j])))
    return out


def random_trials(G: nx.Graph, labels, T: int, seed) -> list[Trial]:
    """``T`` trials on pairs drawn uniformly among all pairs of distinct vertices.

    Parameters
    ----------
    G : networkx.Graph
        The (validated) graph; only its vertex set is used.
    labels : array_like of int
        Class of each vertex; gives the true similarity labels.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator

    Examples
    --------
    >>> import networkx as nx
    >>> trials = random_trials(nx.path_graph(5), [0, 0, 0, 1, 1], 3, seed=1)
    >>> len(trials), all(t.i != t.j for t in trials)
    (3, True)
    """
    G, n, y, rng, I, J = _random_pairs(G, labels, T, seed)
    return [Trial(a, b, int(y[a] != y[b])) for a, b in zip(I, J)]


def check_trial_vertices(trials: Iterable[Trial], n: int) -> None:
    """Raise ``ValueError`` if a trial names a vertex outside ``0 .. n-1``."""
    for t in trials:
        check_vertex(t.i, n, "vertex i")
        check_vertex(t.j, n, "vertex j")


def _random_pairs(G: nx.Graph, labels, T: int, seed):
    """Validate, then draw ``T`` pairs uniformly among ordered pairs of distinct vertices."""
    G = validate_graph(G)
    n = G.number_of_nodes()
    if n < 2:
        raise ValueError("random pairs need a graph with at least two vertices")
    y = validate_labels(labels, n)
    T = check_int(T, "T", low=0)
    rng = check_random_state(seed)
    i = rng.integers(n, size=T)
    j = (i + rng.integers(1, n, size=T)) % n  # uniform over the other n-1 vertices
    return G, n, y, rng, i.tolist(), j.tolist()


# --------------------------------------------------------------------------------------
# trial sequences that reveal paths (the unknown-graph setting of §5)
# --------------------------------------------------------------------------------------


def loop_erase(walk: Sequence[int]) -> list[int]:
    """Chronological loop erasure of a walk: the simple path it leaves behind.

    Examples
    --------
    >>> loop_erase([0, 1, 2, 1, 3, 0, 4])
    [0, 4]
    """
    path: list[int] = []
    where: dict[int, int] = {}
    for v in walk:
        v = int(v)
        if v in where:  # a loop closed at v: erase it
            for u in path[where[v] + 1 :]:
                del where[u]
            del path[where[v] + 1 :]
        else:
            where[v] = len(path)
            path.append(v)
    return path


def shortest_path_trials(G: nx.Graph, labels, T: int, seed) -> list[Trial]:
    """``T`` uniformly random pairs, each revealed with a shortest path of ``G`` (BFS).

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
    T : int
    seed : int or numpy.random.Generator

    Examples
    --------
    >>> t = shortest_path_trials(nx.cycle_graph(6), [0, 0, 0, 1, 1, 1], 2, seed=0)
    >>> all(len(x.path) - 1 == min(abs(x.i - x.j), 6 - abs(x.i - x.j)) for x in t)
    True
    """
    G, n, y, rng, I, J = _random_pairs(G, labels, T, seed)
    return [Trial(a, b, int(y[a] != y[b]), tuple(nx.shortest_path(G, a, b))) for a, b in zip(I, J)]


def random_walk_trials(G: nx.Graph, labels, T: int, seed, max_steps: int | None = None) -> list[Trial]:
    """``T`` uniformly random pairs ``(i, j)``, each revealed with the loop-erased random walk from ``i`` to ``j``.

    The walk starts at ``i`` and stops when it first hits ``j``; erasing its loops in
    order leaves a simple path (the construction of Wilson's algorithm).  The expected cost
    is the hitting time, ``O(n)`` steps on expanders, more on paths and barbells.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
    T : int
    seed : int or numpy.random.Generator
    max_steps : int, optional
        Give up (``ValueError``) if one walk takes longer; default ``1000 * n``.

    Examples
    --------
    >>> t = random_walk_trials(nx.cycle_graph(5), [0, 0, 1, 1, 1], 3, seed=0)
    >>> [len(set(x.path)) == len(x.path) for x in t]
    [True, True, True]
    """
    G, n, y, rng, I, J = _random_pairs(G, labels, T, seed)
    nbrs = [sorted(G.adj[v]) for v in range(n)]
    cap = 1000 * n if max_steps is None else check_int(max_steps, "max_steps", low=1)
    return [Trial(a, b, int(y[a] != y[b]), _loop_erased_walk(nbrs, a, b, rng, cap)) for a, b in zip(I, J)]


def _loop_erased_walk(nbrs: list[list[int]], a: int, b: int, rng: np.random.Generator, cap: int) -> tuple[int, ...]:
    """Walk from ``a`` to uniformly random neighbours until ``b`` is hit; erase the loops."""
    walk, v, steps = [a], a, 0
    while v != b:
        if steps >= cap:
            raise ValueError(
                f"the random walk from {a} did not reach {b} within max_steps={cap} steps; "
                "raise max_steps or use shortest_path_trials"
            )
        for x in rng.random(64):  # draw in batches: one Generator call per 64 steps
            nb = nbrs[v]
            v = nb[int(x * len(nb))]
            walk.append(v)
            steps += 1
            if v == b or steps >= cap:
                break
    return tuple(loop_erase(walk))


def random_walk_path(G: nx.Graph, i: int, j: int, seed, max_steps: int | None = None) -> tuple[int, ...]:
    """A loop-erased random walk from ``i`` until it hits ``j``: a random *simple* path of ``G``.

    Examples
    --------
    >>> p = random_walk_path(nx.cycle_graph(6), 0, 3, seed=0)
    >>> p[0], p[-1], len(set(p)) == len(p)
    (0, 3, True)
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    i, j = check_pair(i, j, n)
    cap = 1000 * n if max_steps is None else check_int(max_steps, "max_steps", low=1)
    return _loop_erased_walk([sorted(G.adj[v]) for v in range(n)], i, j, check_random_state(seed), cap)


def cut_crossing_trials(G: nx.Graph, labels, T: int, seed, tries: int = 10) -> list[Trial]:
    """``T`` uniformly random pairs revealed with *adversarial* paths that go through a cut edge.

    For the pair ``(i, j)`` the adversary picks a random cut edge ``{a, b}`` and reveals a
    shortest path ``i -> a``, the edge ``a -> b``, then a shortest path ``b -> j`` that
    avoids the first half (so the result is a simple path through the cut edge); if there
    is none it tries the other orientation and up to ``tries`` cut edges, and failing that
    reveals the loop-erased concatenation.  Similar pairs are thus shown paths that leave their class
    and come back: the revealed forest collects many cut edges, which is what makes
    ``|Phi^T|`` large in the bound of Theorem ``t:unknown``.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
        Must have at least one cut edge.
    T : int
    seed : int or numpy.random.Generator
    tries : int, default 10

    Examples
    --------
    On a cycle with two arcs every pair can be joined through one of the two cut edges:

    >>> G = nx.cycle_graph(6); y = [0, 0, 0, 1, 1, 1]
    >>> t = cut_crossing_trials(G, y, 5, seed=0)
    >>> cut = {(2, 3), (3, 2), (5, 0), (0, 5)}
    >>> all(any(e in cut for e in zip(x.path, x.path[1:])) for x in t)
    True
    """
    from ..graphs import cut_edges

    tries = check_int(tries, "tries", low=1)
    G, n, y, rng, I, J = _random_pairs(G, labels, T, seed)
    cuts = cut_edges(G, y)
    if not cuts:
        raise ValueError("cut_crossing_trials needs labels with at least one cut edge; this labeling has none")
    nbrs = [sorted(G.adj[v]) for v in range(n)]
    sp = dict()

    def shortest(u, v):  # BFS trees from each source, cached: O(n) per distinct source
        if u not in sp:
            sp[u] = nx.single_source_shortest_path(G, u)
        return sp[u][v]

    def avoiding(u, v, blocked):  # BFS u -> v through vertices not in `blocked`
        if u in blocked or v in blocked:
            return None
        back = {u: None}
        frontier = [u]
        while frontier and v not in back:
            nxt = []
            for w in frontier:
                for z in nbrs[w]:
                    if z not in back and z not in blocked:
                        back[z] = w
                        nxt.append(z)
            frontier = nxt
        if v not in back:
            return None
        path = [v]
        while back[path[-1]] is not None:
            path.append(back[path[-1]])
        return path[::-1]

    out = []
    for a0, b0 in zip(I, J):
        path = None
        for c in rng.integers(len(cuts), size=tries).tolist():
            for a, b in (cuts[c], cuts[c][::-1]):
                left = shortest(a0, a)  # i -> a, then b -> j avoiding it
                right = avoiding(b, b0, set(left))
                if right is not None:
                    path = left + right
                    break
            if path is not None:
                break
        if path is None:
            a, b = cuts[c]
            path = loop_erase(shortest(a0, a) + shortest(b, b0))
        out.append(Trial(a0, b0, int(y[a0] != y[b0]), tuple(path)))
    return out


def adversarial_run(learner, labels, T: int, seed, *, candidates: int | None = None) -> tuple[list[Trial], RunResult]:
    """Play ``T`` trials chosen greedily against ``learner``: a mistake whenever possible.

    On each trial the adversary looks at the pairs of distinct vertices (all of them, or
    ``candidates`` pairs drawn at random) in a random order and poses the first one the
    learner would get wrong — predicting never changes a learner's state, so it may ask.
    If the learner is right on every candidate, a random candidate is posed.  The labels
    stay consistent with ``labels``, so every mistake bound of the paper still applies:
    this is how the tests and notebooks push learners towards their worst case.

    Parameters
    ----------
    learner : SimilarityLearner
        A learner on the vertices ``0 .. n-1`` that does not need paths.
    labels : array_like of int
        The true class of each vertex.
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    candidates : int, optional
        Pairs examined per trial; all ``n(n-1)/2`` pairs by default.

    Returns
    -------
    trials : list of Trial
        The trials posed.
    result : RunResult

    Examples
    --------
    >>> from simpred_lite.learners import UnionFindLearner
    >>> trials, res = adversarial_run(UnionFindLearner(4), [0, 0, 1, 1], 6, seed=0)
    >>> res.total_mistakes   # UnionFindLearner errs at most n - K = 2 times
    2
    """
    if getattr(learner, "needs_path", False):
        raise ValueError("adversarial_run poses pairs without paths; the learner needs paths")
    return adaptive_run(learner, labels, T, seed, num_candidates=candidates)


# -- trial sequences that stress a learner ------------------------------------------
__all__ += ["cut_biased_trials", "AdaptiveAdversary", "adaptive_run"]


def cut_biased_trials(G: nx.Graph, labels, T: int, seed, p_cut: float = 0.5) -> list[Trial]:
    """``T`` trials where each pair is, with probability ``p_cut``, the two ends of a cut edge.

    Otherwise the pair is uniform among all pairs of distinct vertices.  Cut edges are the
    hardest pairs for graph learners: adjacent yet dissimilar.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
    T : int
        Number of trials.
    seed : int or numpy.random.Generator
    p_cut : float, default 0.5
        Probability of drawing a cut edge (in a random orientation).

    Examples
    --------
    >>> trials = cut_biased_trials(nx.path_graph(6), [0, 0, 0, 1, 1, 1], 4, seed=0, p_cut=1.0)
    >>> sorted({(min(t.i, t.j), max(t.i, t.j), t.y) for t in trials})
    [(2, 3, 1)]
    """
    from ..graphs import cut_edges

    G = validate_graph(G)
    n = G.number_of_nodes()
    y = validate_labels(labels, n)
    T = check_int(T, "T", low=0)
    p_cut = check_probability(p_cut, "p_cut")
    cut = np.array(cut_edges(G, y), dtype=np.int64).reshape(-1, 2)
    if len(cut) == 0 and p_cut > 0:
        raise ValueError("the labeling has no cut edge (one class?): use random_trials, or p_cut=0")
    rng = check_random_state(seed)
    out = []
    for _ in range(int(T)):
        if rng.random() < p_cut:
            a, b = cut[rng.integers(len(cut))]
            if rng.random() < 0.5:
                a, b = b, a
        else:
            a = rng.integers(n)
            b = (a + rng.integers(1, n)) % n
        out.append(Trial(int(a), int(b), int(y[a] != y[b])))
    return out


class AdaptiveAdversary:
    """An adversary that looks at the learner before choosing the pair.

    Each round it draws ``num_candidates`` pairs (uniformly, or from ``pairs``), asks the
    learner's ``predict_one`` on each — which never changes the learner — and serves the
    first one the learner would get wrong; if there is none, a random candidate.  Used to
    show worst cases and to drive equivalence tests through the states mistakes create.

    Parameters
    ----------
    labels : array_like of int
        The true classes, ``labels[v]`` for each vertex.
    seed : int or numpy.random.Generator
    num_candidates : int or None, default 32
        Candidates examined per round; ``None`` examines every pair (of ``pairs``, or all
        ``n(n-1)/2`` pairs) in a random order, so a mistake is forced whenever one exists.
    pairs : sequence of (int, int), optional
        The pool candidates are drawn from (default: all pairs of distinct vertices).

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> adv = AdaptiveAdversary([0, 0, 1, 1], seed=0)
    >>> t = adv.next_trial(AlwaysSimilar(4)); t.y     # AlwaysSimilar errs on dissimilar pairs
    1
    """

    def __init__(self, labels, seed, num_candidates: int = 32, pairs=None):
        y = np.asarray(labels)
        self.labels = validate_labels(labels, y.shape[0] if y.ndim == 1 else -1)
        self.n = self.labels.shape[0]
        if self.n < 2:
            raise ValueError("an adversary needs at least two vertices")
        self.num_candidates = (
            None if num_candidates is None else check_int(num_candidates, "num_candidates", low=1)
        )
        self.pairs = None if pairs is None else [check_pair(i, j, self.n) for i, j in pairs]
        if self.pairs is not None and not self.pairs:
            raise ValueError("pairs is empty: give at least one candidate pair, or None for all pairs")
        self._rng = check_random_state(seed)

    def _candidates(self):
        rng, n, c = self._rng, self.n, self.num_candidates
        if c is None:  # exhaustive: every pair, in a fresh random order
            if self.pairs is not None:
                return [self.pairs[k] for k in rng.permutation(len(self.pairs))]
            iu, ju = np.triu_indices(n, k=1)
            order = rng.permutation(iu.size)
            return list(zip(iu[order].tolist(), ju[order].tolist()))
        if self.pairs is not None:
            return [self.pairs[k] for k in rng.integers(len(self.pairs), size=c)]
        i = rng.integers(n, size=c)
        j = (i + rng.integers(1, n, size=c)) % n
        return list(zip(i.tolist(), j.tolist()))

    def next_trial(self, learner) -> Trial:
        """The next pair, chosen against ``learner``'s current predictions."""
        if getattr(learner, "n", self.n) != self.n:
            raise ValueError(f"the learner has n={learner.n} vertices but the labels have {self.n}")
        cands = self._candidates()
        for i, j in cands:
            y = int(self.labels[i] != self.labels[j])
            if learner.predict_one(i, j) != y:
                return Trial(i, j, y)
        i, j = cands[0]
        return Trial(i, j, int(self.labels[i] != self.labels[j]))


def adaptive_run(learner, labels, T: int, seed, num_candidates: int | None = 32, pairs=None) -> tuple[list[Trial], RunResult]:
    """Play ``T`` rounds of :class:`AdaptiveAdversary` against ``learner``.

    Returns the trials served (replay them on another learner with :func:`run`) and the
    :class:`RunResult`.

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> trials, result = adaptive_run(AlwaysSimilar(4), [0, 0, 1, 1], T=5, seed=0)
    >>> result.total_mistakes
    5
    """
    T = check_int(T, "T", low=0)
    adv = AdaptiveAdversary(labels, seed, num_candidates=num_candidates, pairs=pairs)
    trials: list[Trial] = []

    def serve():  # lazily: each pair is chosen against the learner as it is *now*
        for _ in range(int(T)):
            trials.append(adv.next_trial(learner))
            yield trials[-1]

    return trials, run(learner, serve())
