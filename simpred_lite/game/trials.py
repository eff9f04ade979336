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
    check_num_trials,
    check_pair,
    check_path,
    check_random_state,
    check_similarity_label,
    check_trial_vertices,
)
from ..graphs import validate_graph, validate_labels
from ..spanning import loop_erase

__all__ = [
    "Trial",
    "RunResult",
    "random_pair",
    "random_pairs",
    "trials_from_pairs",
    "random_trials",
    "shortest_path",
    "random_walk_path",
    "shortest_path_trials",
    "random_walk_trials",
    "cut_crossing_trials",
    "check_trial_vertices",
    "shortest_path",
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

    @classmethod
    def from_predictions(cls, predictions, labels) -> RunResult:
        """The result of a run from its predictions ``y_hat_t`` and labels ``y_t``.

        Parameters
        ----------
        predictions, labels : sequence of int

        Returns
        -------
        RunResult

        Examples
        --------
        >>> RunResult.from_predictions([0, 1, 1], [0, 0, 1]).cumulative.tolist()
        [0, 1, 1]
        """
        preds = np.asarray(predictions, dtype=np.int64)
        mistakes = (preds != np.asarray(labels, dtype=np.int64)).astype(np.int64)
        return cls(preds, mistakes, np.cumsum(mistakes))


def trials_from_pairs(labels, pairs: Iterable[Sequence[int]]) -> list[Trial]:
    """Label each pair with the truth given by ``labels``.

    Parameters
    ----------
    labels : array_like of int
        The class of each vertex.
    pairs : iterable of (int, int)
        The pairs, in order.

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


def random_pair(rng: np.random.Generator, n: int) -> tuple[int, int]:
    """One pair ``(i, j)`` drawn uniformly among the ordered pairs of distinct vertices.

    ``i`` is uniform on ``0 .. n-1`` and ``j`` uniform on the other ``n - 1`` vertices (two
    draws from ``rng``, in that order).

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Number of vertices, at least 2.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> i, j = random_pair(np.random.default_rng(0), 5)
    >>> 0 <= i < 5 and 0 <= j < 5 and i != j
    True
    """
    i = int(rng.integers(n))
    return i, int((i + rng.integers(1, n)) % n)


def random_pairs(rng: np.random.Generator, n: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` pairs drawn as :func:`random_pair`, vectorised (all ``i`` first, then all ``j``).

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Number of vertices, at least 2.
    size : int
        Number of pairs.

    Returns
    -------
    i, j : numpy.ndarray of int

    Examples
    --------
    >>> i, j = random_pairs(np.random.default_rng(0), 5, size=100)
    >>> bool((i != j).all()), i.shape
    (True, (100,))
    """
    i = rng.integers(n, size=size)
    return i, (i + rng.integers(1, n, size=size)) % n


def _random_pairs(G: nx.Graph, labels, T: int, seed):
    """Validate, then draw ``T`` pairs uniformly among ordered pairs of distinct vertices."""
    G = validate_graph(G)
    n = G.number_of_nodes()
    if n < 2:
        raise ValueError("random pairs need a graph with at least two vertices")
    y = validate_labels(labels, n)
    T = check_num_trials(T)
    rng = check_random_state(seed)
    i, j = random_pairs(rng, n, T)
    return G, n, y, rng, i.tolist(), j.tolist()


# --------------------------------------------------------------------------------------
# trial sequences that reveal paths (the unknown-graph setting of §5)
# --------------------------------------------------------------------------------------


def shortest_path_trials(G: nx.Graph, labels, T: int, seed) -> list[Trial]:
    """``T`` uniformly random pairs, each revealed with a shortest path of ``G`` (BFS).

    Parameters
    ----------
    G, labels, T, seed
        As in :func:`random_trials`.

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

    Parameters
    ----------
    G : networkx.Graph
    i, j : int
        The two ends.
    seed : int or numpy.random.Generator
    max_steps : int, optional
        Give up (``ValueError``) after this many steps of the walk.

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
    ``|Phi^T|`` large in the bound of Theorem 5.

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


# -- trial sequences that stress a learner ------------------------------------------


def shortest_path(G: nx.Graph, i: int, j: int) -> tuple[int, ...]:
    """A shortest path from ``i`` to ``j`` (breadth first, deterministic).

    Parameters
    ----------
    G : networkx.Graph
    i, j : int
        Two vertices of ``G``.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> shortest_path(nx.path_graph(4), 0, 3)
    (0, 1, 2, 3)
    """
    return tuple(int(v) for v in nx.shortest_path(G, i, j))
