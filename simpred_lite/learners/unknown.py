"""Similarity prediction when the graph is unknown (§5): the path forest and its learners.

On trial ``t`` the adversary reveals a pair ``(i_t, j_t)`` *and* a path of ``G`` joining
them; the learner never sees ``G`` otherwise.  The learner keeps the **forest of revealed
paths** (:class:`PathForest`): edges are numbered by first disclosure and oriented from the
low to the high vertex index, and the pair is encoded by the signed indicator
``x_t in {-1, 0, 1}^(n-1)`` of the forest's own ``i_t -> j_t`` path (Figure 3).

Learners on top of the forest:

* :class:`TreeWinnow` — the warm-up of §5: ``G`` a tree whose classes are connected, so
  ``y_t = 1`` iff the path holds a cut edge, a monotone disjunction learnt by Winnow.
* :class:`RNormPerceptron` — Algorithm 1: the ``r``-norm Perceptron on
  ``vec(X_t)``, ``X_t = x_t x_t^T``, with ``r = 4 ln(n-1)`` and threshold
  ``(r-1) ||x_t||_r^4``, in ``O(|x_t|^2)`` per trial.  :class:`DenseRNormPerceptron` is
  the plain reference on ``(n-1)^2``-long vectors.

Helpers for the proof of Theorem ``t:unknown`` (appendix): :func:`fundamental_cutset_matrix`
``Q``, :func:`edge_path_vector` ``p``, :func:`class_coefficients` ``u_k`` and
:func:`complete_spanning_tree`, with which ``Q p`` is path-invariant and
``sum_k (u_k^T x_t)^2`` is ``2`` on dissimilar pairs and ``0`` on similar ones.

**Exact sparse = dense.**  ``theta`` (the dual weight) has integer entries, so both
r-norm implementations reduce a prediction to the same integers — the entries
``theta_ab x_a x_b`` on the support of ``X_t`` and the histogram ``{|theta_i|: count}`` —
and evaluate the margin from them by one canonical, order-independent formula
(:func:`rnorm_margin`, correctly rounded sums by :func:`math.fsum`, every power scaled by
``max |theta_i|`` so nothing overflows).  Hence the two make *identical* predictions,
ties on ``>=`` included, without any tolerance.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Sequence
from fractions import Fraction

import networkx as nx
import numpy as np

from ..checks import (
    check_int,
    check_memory,
    check_random_state,
    check_real,
    check_vertex,
)
from ..graphs import validate_graph, validate_labels
from .base import SimilarityLearner

__all__ = [
    "check_simple_path",
    "parse_path",
    "PathForest",
    "NaivePathForest",
    "TreeWinnow",
    "winnow_mistake_bound",
    "rnorm_exponent",
    "rnorm_margin",
    "RNormPerceptron",
    "DenseRNormPerceptron",
    "rnorm_mistake_bound",
    "rnorm_cut_bound",
    "edge_path_vector",
    "fundamental_cutset_matrix",
    "class_coefficients",
    "signed_cut_vector",
    "complete_spanning_tree",
    "target_matrix",
    "figure4_graph",
    "random_tree_with_clusters",
]


# --------------------------------------------------------------------------------------
# validation of revealed paths
# --------------------------------------------------------------------------------------
def parse_path(text: str, n: int) -> tuple[int, ...]:
    """Read a revealed path typed by hand, e.g. ``"0 3 5 2"`` or ``"0, 3, 5, 2"`` or ``"0-3-5-2"``.

    Parameters
    ----------
    text : str
        Vertex numbers separated by spaces, commas, dashes or arrows.
    n : int
        Number of vertices: the vertices are ``0 .. n-1``.

    Returns
    -------
    tuple of int
        The path, checked by :func:`check_simple_path` (pair = its two ends).

    Raises
    ------
    ValueError
        If a token is not a whole number, or the sequence is not a simple path.

    Examples
    --------
    >>> parse_path("0 3 5 2", n=6)
    (0, 3, 5, 2)
    >>> parse_path("4 -> 1, 0", n=6)
    (4, 1, 0)
    """
    if not isinstance(text, str):
        raise TypeError(f"the path must be typed as text such as '0 3 5 2', got {type(text).__name__}")
    tokens = [t for t in text.replace("->", " ").replace("→", " ").replace(",", " ").replace("-", " ").split() if t]
    bad = [t for t in tokens if not t.isdigit()]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a vertex number: type vertex numbers 0..{n - 1} separated by spaces, "
                         "e.g. '0 3 5 2'")
    if len(tokens) < 2:
        raise ValueError(f"a path needs at least two vertices, e.g. '0 3 5 2'; got {text!r}")
    vertices = [int(t) for t in tokens]
    return check_simple_path(vertices[0], vertices[-1], vertices, n)


def check_simple_path(i: int, j: int, path, n: int) -> tuple[int, ...]:
    """Check that ``path`` is a simple path ``i = v_0, ..., v_k = j`` on vertices ``0..n-1``.

    The graph is unknown, so the edges themselves cannot be checked; what can be checked
    is that the sequence is a *path*: at least one edge, the right endpoints, known
    vertices, and no vertex visited twice (so consecutive vertices are distinct too).

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> check_simple_path(0, 2, [0, 1, 2], n=3)
    (0, 1, 2)
    """
    if path is None:
        raise ValueError(f"a path from i={i} to j={j} is needed in the unknown-graph setting, got None")
    try:
        seq = list(path)
    except TypeError:
        raise TypeError(f"the path must be a sequence of vertices, got {path!r}") from None
    p = tuple(check_vertex(v, n, "path vertex") for v in seq)
    if len(p) < 2:
        raise ValueError(f"a path needs at least one edge (two vertices), got {list(p)}")
    if p[0] != i or p[-1] != j:
        raise ValueError(f"the path must start at i={i} and end at j={j}, got {list(p)}")
    for a, b in zip(p, p[1:]):
        if a == b:
            raise ValueError(f"consecutive path vertices must differ (no self-loops), got {a} twice in {list(p)}")
    if len(set(p)) != len(p):
        seen, dup = set(), None
        for v in p:
            if v in seen:
                dup = v
                break
            seen.add(v)
        raise ValueError(
            f"the revealed sequence visits vertex {dup} twice, so it is a walk, not a path: "
            f"erase its loops first (got {list(p)})"
        )
    return p


_GROW = ("disconnected", "always")


def _check_grow(grow: str) -> str:
    if grow not in _GROW:
        raise ValueError(
            f"grow must be 'disconnected' (add a revealed path only when its endpoints are not "
            f"yet connected, as §5 reads) or 'always' (process every revealed edge, as Figure 3 "
            f"draws), got {grow!r}"
        )
    return grow


def _signed_dense(n: int, idx, sgn) -> np.ndarray:
    x = np.zeros(n - 1, dtype=np.int64)
    x[np.asarray(idx, dtype=np.int64)] = np.asarray(sgn, dtype=np.int64)
    return x


# --------------------------------------------------------------------------------------
# the forest of revealed paths
# --------------------------------------------------------------------------------------
class PathForest:
    """The forest of revealed paths, built as in Figure 3 of the paper.

    Edges get the number of their first disclosure and are oriented low -> high vertex
    index.  A revealed path is processed edge by edge, in its order; an edge whose two
    endpoints are already connected in the forest would close a circuit and is skipped,
    any other edge joins two trees.  By default (``grow="disconnected"``) a path is
    processed only when its endpoints are not yet connected, as §5 reads; with
    ``grow="always"`` every revealed path is processed, as Figure 3 draws (its round 4).
    Either way, once two vertices are connected their forest path never changes, so all
    past instance vectors stay valid.

    The instance of a pair is the signed indicator ``x`` of the forest's ``i -> j`` path:
    ``x[e] = +1`` if edge ``e`` is traversed low -> high, ``-1`` if high -> low.  It may
    differ from the revealed path (which may leave the forest).

    Connectivity is a union-find; each tree is kept rooted (parent pointers and depths),
    the smaller tree being re-rooted when two merge, so a forest path costs
    ``O(its length)`` and all merges ``O(n log n)`` in total.  :class:`NaivePathForest` is
    the plain networkx reference.

    Parameters
    ----------
    n : int
        Number of vertices; the forest has at most ``n - 1`` edges.
    grow : {"disconnected", "always"}

    Examples
    --------
    Figure 3 of the paper, with its vertices ``1..7`` renamed ``0..6``:

    >>> F = PathForest(7)
    >>> F.instance(1, 2, [1, 0, 2]).tolist()
    [-1, 1, 0, 0, 0, 0]
    >>> F.instance(3, 4, [3, 0, 1, 4]).tolist()
    [1, 0, -1, 1, 0, 0]
    >>> F.edges
    [(0, 1), (0, 2), (0, 3), (1, 4)]
    """

    def __init__(self, n: int, grow: str = "disconnected"):
        self.n = check_int(n, "n", low=2)
        self.grow = _check_grow(grow)
        self.edges: list[tuple[int, int]] = []
        self._uf = list(range(self.n))
        self._size = [1] * self.n
        self._up = [-1] * self.n  # parent in the rooted tree, -1 at a root
        self._up_edge = [-1] * self.n  # number of the edge (v, up[v])
        self._depth = [0] * self.n
        self._adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]

    # -- connectivity --------------------------------------------------------------------
    def _find(self, v: int) -> int:
        uf = self._uf
        root = v
        while uf[root] != root:
            root = uf[root]
        while uf[v] != root:  # path compression
            uf[v], v = root, uf[v]
        return root

    def connected(self, u: int, v: int) -> bool:
        """Whether the forest already joins ``u`` and ``v``.

        Examples
        --------
        >>> F = PathForest(3); _ = F.instance(0, 1, [0, 1])
        >>> F.connected(0, 1), F.connected(0, 2)
        (True, False)
        """
        u = check_vertex(u, self.n, "vertex u")
        v = check_vertex(v, self.n, "vertex v")
        return self._find(u) == self._find(v)

    @property
    def num_edges(self) -> int:
        """Number of edges disclosed and kept so far (at most ``n - 1``)."""
        return len(self.edges)

    # -- paths inside the current forest ------------------------------------------------
    def _climb(self, u: int, v: int) -> tuple[list[int], list[int], list[int]]:
        """Forest path ``u -> v`` (same tree): vertices, edge numbers, signs."""
        up, up_edge, depth = self._up, self._up_edge, self._depth
        left_v, left_e, left_s = [u], [], []
        right_v, right_e, right_s = [v], [], []
        a, b = u, v
        while depth[a] > depth[b]:
            p = up[a]
            left_e.append(up_edge[a]); left_s.append(1 if a < p else -1)  # a -> p
            a = p; left_v.append(a)
        while depth[b] > depth[a]:
            p = up[b]
            right_e.append(up_edge[b]); right_s.append(1 if p < b else -1)  # p -> b
            b = p; right_v.append(b)
        while a != b:
            pa, pb = up[a], up[b]
            left_e.append(up_edge[a]); left_s.append(1 if a < pa else -1)
            right_e.append(up_edge[b]); right_s.append(1 if pb < b else -1)
            a, b = pa, pb
            left_v.append(a); right_v.append(b)
        right_v.pop()  # the meeting vertex is already on the left
        return left_v + right_v[::-1], left_e + right_e[::-1], left_s + right_s[::-1]

    def tree_path(self, i: int, j: int) -> list[int]:
        """The vertices of the forest path from ``i`` to ``j`` (they must be connected).

        Examples
        --------
        >>> F = PathForest(4); _ = F.instance(0, 3, [0, 2, 1, 3])
        >>> F.tree_path(3, 2)
        [3, 1, 2]
        """
        i = check_vertex(i, self.n, "vertex i")
        j = check_vertex(j, self.n, "vertex j")
        if self._find(i) != self._find(j):
            raise ValueError(f"vertices {i} and {j} are not connected in the forest yet")
        return self._climb(i, j)[0]

    # -- growing the forest -------------------------------------------------------------
    def _plan(self, path: tuple[int, ...]) -> list[tuple[int, int]]:
        """The revealed edges that would be added, in order (the forest is not changed)."""
        if self.grow == "disconnected" and self._find(path[0]) == self._find(path[-1]):
            return []
        merged: dict[int, int] = {}  # an overlay union-find on the roots of the real one

        def root(v: int) -> int:
            r = self._find(v)
            while r in merged:
                r = merged[r]
            return r

        plan = []
        for a, b in zip(path, path[1:]):
            ra, rb = root(a), root(b)
            if ra != rb:  # joins two trees: keep it; otherwise it would close a circuit
                plan.append((a, b))
                merged[rb] = ra
        return plan

    def _add_edge(self, a: int, b: int) -> None:
        ra, rb = self._find(a), self._find(b)
        if self._size[ra] < self._size[rb]:  # re-root the smaller tree, hanging it below the other
            a, b, ra, rb = b, a, rb, ra
        e = len(self.edges)
        self.edges.append((min(a, b), max(a, b)))
        # re-root b's tree at b and hang it below a
        up, up_edge, depth, adj = self._up, self._up_edge, self._depth, self._adj
        up[b], up_edge[b], depth[b] = a, e, depth[a] + 1
        queue = deque([b])
        while queue:
            v = queue.popleft()
            for w, f in adj[v]:
                if w != up[v]:
                    up[w], up_edge[w], depth[w] = v, f, depth[v] + 1
                    queue.append(w)
        adj[a].append((b, e))
        adj[b].append((a, e))
        self._uf[rb] = ra
        self._size[ra] += self._size[rb]

    def _route(self, i: int, j: int, plan: list[tuple[int, int]]):
        """Path ``i -> j`` in the forest plus the planned edges (numbered after the current ones)."""
        if not plan:
            return self._climb(i, j)
        # contract each current tree to its root; the planned edges form a tree on the roots
        base = len(self.edges)
        links: dict[int, list[tuple[int, int, int, int]]] = {}
        for k, (a, b) in enumerate(plan):
            ra, rb = self._find(a), self._find(b)
            links.setdefault(ra, []).append((rb, a, b, base + k))
            links.setdefault(rb, []).append((ra, b, a, base + k))
        start, goal = self._find(i), self._find(j)
        back = {start: None}
        queue = deque([start])
        while queue:
            r = queue.popleft()
            if r == goal:
                break
            for r2, a, b, e in links.get(r, ()):
                if r2 not in back:
                    back[r2] = (r, a, b, e)
                    queue.append(r2)
        hops = []
        r = goal
        while back[r] is not None:
            r_prev, a, b, e = back[r]
            hops.append((a, b, e))
            r = r_prev
        hops.reverse()
        verts, idx, sgn = [], [], []
        cur = i
        for a, b, e in hops:
            v, ei, si = self._climb(cur, a)
            verts += v; idx += ei; sgn += si
            idx.append(e); sgn.append(1 if a < b else -1)
            cur = b
        v, ei, si = self._climb(cur, j)
        verts += v; idx += ei; sgn += si
        return verts, idx, sgn

    # -- the public encoding --------------------------------------------------------------
    def preview_sparse(self, i: int, j: int, path) -> tuple[list[int], list[int], list[int]]:
        """The instance ``x_t`` as (path vertices, edge numbers, signs), *without* adding the path.

        Examples
        --------
        >>> F = PathForest(3)
        >>> F.preview_sparse(2, 0, [2, 1, 0]), F.num_edges
        (([2, 1, 0], [0, 1], [-1, -1]), 0)
        """
        p = check_simple_path(i, j, path, self.n)
        return self._route(p[0], p[-1], self._plan(p))

    def instance_sparse(self, i: int, j: int, path) -> tuple[list[int], list[int], list[int]]:
        """Add the revealed path (Figure 3) and return ``x_t`` as (vertices, edge numbers, signs).

        Examples
        --------
        >>> F = PathForest(3)
        >>> F.instance_sparse(2, 0, [2, 1, 0]), F.edges
        (([2, 1, 0], [0, 1], [-1, -1]), [(1, 2), (0, 1)])
        """
        p = check_simple_path(i, j, path, self.n)
        for a, b in self._plan(p):
            self._add_edge(a, b)
        return self._climb(p[0], p[-1])

    def instance(self, i: int, j: int, path) -> np.ndarray:
        """Add the revealed path and return ``x_t in {-1, 0, 1}^(n-1)`` (entry ``e`` = edge number ``e``).

        Examples
        --------
        >>> PathForest(3).instance(0, 2, [0, 1, 2]).tolist()
        [1, 1]
        """
        _, idx, sgn = self.instance_sparse(i, j, path)
        return _signed_dense(self.n, idx, sgn)

    def preview(self, i: int, j: int, path) -> np.ndarray:
        """Like :meth:`instance`, without changing the forest.

        Examples
        --------
        >>> F = PathForest(3); F.preview(0, 2, [0, 1, 2]).tolist(), F.num_edges
        ([1, 1], 0)
        """
        _, idx, sgn = self.preview_sparse(i, j, path)
        return _signed_dense(self.n, idx, sgn)

    def to_networkx(self) -> nx.Graph:
        """The forest as a networkx graph; edge attribute ``index`` = disclosure number.

        Examples
        --------
        >>> F = PathForest(3); _ = F.instance(0, 2, [0, 1, 2])
        >>> sorted(F.to_networkx().edges(data="index"))
        [(0, 1, 0), (1, 2, 1)]
        """
        F = nx.Graph()
        F.add_nodes_from(range(self.n))
        for e, (a, b) in enumerate(self.edges):
            F.add_edge(a, b, index=e)
        return F

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n={self.n}, edges={self.num_edges}, grow={self.grow!r})"


class NaivePathForest(PathForest):
    """Plain reference for :class:`PathForest`: a networkx forest, searched afresh each time.

    Same rules, ``O(n)`` per trial: ``nx.has_path`` decides connectivity and the unique
    forest path is ``nx.shortest_path``.

    Examples
    --------
    >>> F = NaivePathForest(7)
    >>> F.instance(1, 2, [1, 0, 2]).tolist()
    [-1, 1, 0, 0, 0, 0]
    """

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n, grow)
        self._F = nx.Graph()
        self._F.add_nodes_from(range(self.n))
        self._index: dict[tuple[int, int], int] = {}

    def connected(self, u: int, v: int) -> bool:
        return nx.has_path(self._F, check_vertex(u, self.n, "vertex u"), check_vertex(v, self.n, "vertex v"))

    def _encode(self, verts: list[int], index: dict) -> tuple[list[int], list[int], list[int]]:
        idx = [index[(min(a, b), max(a, b))] for a, b in zip(verts, verts[1:])]
        sgn = [1 if a < b else -1 for a, b in zip(verts, verts[1:])]
        return verts, idx, sgn

    def _grown(self, p: tuple[int, ...]):
        F, index = self._F.copy(), dict(self._index)
        if self.grow == "always" or not nx.has_path(F, p[0], p[-1]):
            for a, b in zip(p, p[1:]):
                if not nx.has_path(F, a, b):
                    index[(min(a, b), max(a, b))] = len(index)
                    F.add_edge(a, b)
        return F, index

    def preview_sparse(self, i, j, path):
        p = check_simple_path(i, j, path, self.n)
        F, index = self._grown(p)
        return self._encode(nx.shortest_path(F, p[0], p[-1]), index)

    def instance_sparse(self, i, j, path):
        p = check_simple_path(i, j, path, self.n)
        self._F, self._index = self._grown(p)
        self.edges = sorted(self._index, key=self._index.get)
        return self._encode(nx.shortest_path(self._F, p[0], p[-1]), self._index)

    def tree_path(self, i, j):
        return nx.shortest_path(self._F, check_vertex(i, self.n, "vertex i"), check_vertex(j, self.n, "vertex j"))


# --------------------------------------------------------------------------------------
# learners on the forest
# --------------------------------------------------------------------------------------
class _ForestLearner(SimilarityLearner):
    """A learner that encodes each pair by its path in the forest of revealed paths."""

    needs_path = True
    _forest_class = PathForest

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n)
        self.forest = self._forest_class(self.n, grow)
        self.last_instance: tuple[list[int], list[int]] | None = None

    def _check_path(self, i, j, path):
        p = super()._check_path(i, j, path)
        return check_simple_path(i, j, p, self.n)

    def _predict(self, i, j, path):
        _, idx, sgn = self.forest.preview_sparse(i, j, path)
        return self._decide(idx, sgn)

    def _learn(self, i, j, y, y_hat, path):
        _, idx, sgn = self.forest.instance_sparse(i, j, path)  # the path is kept from now on
        self.last_instance = (idx, sgn)
        if y != y_hat:
            self._update(idx, sgn, y - y_hat)


class TreeWinnow(_ForestLearner):
    """Winnow on the path indicators of the forest (the warm-up of §5).

    If ``G`` is a tree and every class is connected, there are ``K - 1`` cut edges and
    ``y_t = 1`` iff the path of the pair holds one: with ``u`` the 0/1 indicator of the
    cut edges (numbered by disclosure) and ``|x_t|`` the unsigned path indicator,
    ``y_t = [u^T |x_t| >= 1]``, a monotone disjunction of ``K - 1`` of ``n - 1`` variables.
    Littlestone's Winnow (the demoting variant, WINNOW2) learns it with ``O(K log n)``
    mistakes, see :func:`winnow_mistake_bound`:

    * predict ``1`` iff ``sum_{e in path} w_e >= threshold`` (weights start at ``1``);
    * on a missed dissimilar pair multiply the path's weights by ``alpha``, on a missed
      similar pair divide them by ``alpha``.

    Exact: the weights are ``alpha^k`` with integer exponents (kept in :attr:`exponents`).
    The float sum decides when it is farther from the threshold than its rounding error can
    be; otherwise (sum equal to the threshold is common with ``alpha = 2``) the sum is
    recomputed in exact rationals.

    On a general graph the forest is a spanning tree ``T`` of ``G`` and a class connected
    in ``G`` can be shattered in ``T`` (Figure 2(b)-(c)): the disjunction model is then
    wrong and Winnow keeps erring — the reason for :class:`RNormPerceptron`.

    Parameters
    ----------
    n : int
    alpha : float, default 2
        Promotion/demotion factor, ``> 1``.
    threshold : float, optional
        Default ``n - 1``, the number of weights.
    grow : {"disconnected", "always"}
        See :class:`PathForest`.

    Examples
    --------
    >>> learner = TreeWinnow(4)       # the path 0 - 1 - 2 - 3, classes {0, 1} and {2, 3}
    >>> learner.learn_one(0, 3, 1, path=[0, 1, 2, 3])
    >>> learner.learn_one(1, 2, 1, path=[1, 2])
    >>> learner.predict_one(1, 3, path=[1, 2, 3]), learner.predict_one(0, 1, path=[0, 1])
    (1, 0)
    """

    def __init__(self, n: int, alpha: float = 2.0, threshold: float | None = None, grow: str = "disconnected"):
        super().__init__(n, grow)
        check_real(alpha, "alpha", low=1, low_inclusive=False)
        if threshold is None:
            threshold = self.n - 1
        check_real(threshold, "threshold", low=0, low_inclusive=False)
        self.alpha = float(alpha)
        self.threshold = float(threshold)
        self.weights = np.ones(self.n - 1)
        self.exponents = np.zeros(self.n - 1, dtype=np.int64)  # w_e = alpha ** exponents[e], exactly
        self._roundings = np.zeros(self.n - 1, dtype=np.int64)  # float roundings each weight went through

    def _decide(self, idx, sgn):
        # The exact sum is sum_e alpha^k_e with alpha and the threshold exact binary fractions.
        # A float weight that went through r roundings is off by at most ~r u relatively, and
        # the sum adds at most len(idx) u: outside that band the float comparison is certain; inside
        # (ties such as sum == threshold are common with alpha = 2) decide in exact rationals.
        from ..exact import UNIT_ROUNDOFF, certified_compare

        w = self.weights[idx]
        total = float(w.sum())
        spread = float(self._roundings[idx].max(initial=0)) + len(idx) + 2
        decision = certified_compare(total, self.threshold, 1.01 * spread * UNIT_ROUNDOFF * total)
        if decision is None:
            a = Fraction(self.alpha)
            exact = sum((a ** int(k) for k in self.exponents[idx].tolist()), Fraction(0))
            return int(exact >= Fraction(self.threshold))
        return decision

    def _update(self, idx, sgn, direction):
        self.weights[idx] *= self.alpha if direction > 0 else 1.0 / self.alpha
        self.exponents[idx] += 1 if direction > 0 else -1
        self._roundings[idx] += 2  # 1/alpha and the product


def winnow_mistake_bound(n: int, k: int, alpha: float = 2.0, threshold: float | None = None) -> int:
    """Mistake bound of :class:`TreeWinnow` on a tree whose ``K = k + 1`` classes are connected.

    With ``N = n - 1`` weights and ``k`` relevant ones (the cut edges):
    a relevant weight is never demoted and is promoted only while below the threshold
    ``theta``, so there are at most ``P = k * ceil(log_alpha theta)`` promotions; the total
    weight starts at ``N``, grows by less than ``(alpha - 1) theta`` per promotion and
    drops by at least ``(1 - 1/alpha) theta`` per demotion and stays positive, so the
    demotions are ``D < (N + (alpha - 1) theta P) / ((1 - 1/alpha) theta)``.
    Returns ``P + D_max`` (exact rational arithmetic).  For ``alpha = 2``, ``theta = N``:
    ``1 + 3 k ceil(log2(n - 1))``.

    Examples
    --------
    >>> winnow_mistake_bound(1025, 2)
    61
    """
    N = n - 1
    a = Fraction(alpha)
    th = Fraction(N if threshold is None else threshold)
    steps, w = 0, Fraction(1)
    while w < th:  # doublings of one relevant weight before it reaches the threshold
        w *= a
        steps += 1
    P = k * steps
    bound = (N + (a - 1) * th * P) / ((1 - 1 / a) * th)
    D = math.ceil(bound) - 1  # D < bound
    return int(P + D)


# --------------------------------------------------------------------------------------
# the r-norm Perceptron (Algorithm 1)
# --------------------------------------------------------------------------------------
def rnorm_exponent(n: int) -> float:
    """The norm ``r = 4 ln(n - 1)`` of Algorithm 1 (natural log; needs ``n >= 3``).

    ``2 ln((n-1)^2)``: the p-norm choice for vectors of length ``(n-1)^2``.  With it,
    ``||x||_r^4 <= (n-1)^(4/r) = e`` for every ``x in {-1,0,1}^(n-1)``.

    Examples
    --------
    >>> round(rnorm_exponent(101), 4)
    18.4207
    """
    if check_int(n, "n") < 3:
        raise ValueError(f"Algorithm 1 needs n >= 3 vertices (r = 4 ln(n-1) must exceed 2), got n={n}")
    return 4.0 * math.log(n - 1)


def _scaled_norm(hist: dict[int, int], r: float) -> tuple[int, float]:
    """``(V, S)`` with ``V = max |theta_i|`` and ``S = sum_v count_v (v/V)^r``, so ``||theta||_r^r = V^r S``."""
    V = max(hist)
    return V, math.fsum(c * (v / V) ** r for v, c in hist.items())


def rnorm_margin(entries: dict[int, int], hist: dict[int, int], r: float, scaled=None) -> float:
    """``w^T vec(X_t)`` from integers, with ``w_i = sign(theta_i)|theta_i|^(r-1) / ||theta||_r^(r-2)``.

    Parameters
    ----------
    entries : dict
        ``{t: count}``: how many of the ``|x_t|^2`` entries ``(a, b)`` of the support of
        ``X_t = x_t x_t^T`` have ``theta_ab * x_a * x_b = t`` (``t != 0``).
    hist : dict
        ``{v: count}``: how many entries of ``theta`` have ``|theta_i| = v`` (``v > 0``).
    r : float
    scaled : (int, float), optional
        ``(V, S)`` as computed from ``hist`` (a cache: it changes only when ``theta`` does).

    Notes
    -----
    With ``V = max |theta_i|``, ``w^T vec(X) = V * A / S^((r-2)/r)`` where
    ``A = sum_t count_t sign(t)(|t|/V)^(r-1)`` and ``S = sum_v count_v (v/V)^r``.
    Scaling by ``V`` keeps every power in ``[0, 1]`` (no overflow), and the sums are
    :func:`math.fsum` (correctly rounded, so independent of the order of the terms).  The
    result is a function of the two integer histograms alone: the canonical evaluation
    shared by :class:`RNormPerceptron` and :class:`DenseRNormPerceptron`.

    Examples
    --------
    >>> rnorm_margin({1: 4}, {1: 4}, r=4.0)   # theta = vec(x x^T), x = (1, 1): ||x||_r^4 = 2
    2.0
    """
    if not hist:
        return 0.0  # theta = 0, so w = 0
    V, S = _scaled_norm(hist, r) if scaled is None else scaled
    A = math.fsum(math.copysign(c * (abs(t) / V) ** (r - 1), t) for t, c in entries.items() if t)
    return V * A / S ** ((r - 2) / r)


def _rnorm_decision(entries, hist, ell: int, r: float, scaled=None) -> int:
    """Algorithm 1's rule: ``1`` iff ``w^T vec(X_t) >= (r - 1) ||x_t||_r^4`` (``||x_t||_r^4 = ell^(4/r)``)."""
    return int(rnorm_margin(entries, hist, r, scaled) >= (r - 1) * ell ** (4.0 / r))


def _weighted_counts(values: np.ndarray, weights: np.ndarray) -> dict[int, int]:
    """``{value: total weight}`` over the nonzero ``values``."""
    nz = values != 0
    if not nz.any():
        return {}
    v, inv = np.unique(values[nz], return_inverse=True)
    c = np.bincount(inv.ravel(), weights=weights[nz])
    return {int(a): int(b) for a, b in zip(v.tolist(), c.tolist())}


class RNormPerceptron(_ForestLearner):
    """Algorithm 1: the r-norm Perceptron on ``vec(x_t x_t^T)``, in ``O(|x_t|^2)`` per trial.

    ``r = 4 ln(n-1)``, ``s = r/(r-1)``; predict ``1`` (dissimilar) iff
    ``w^T vec(X_t) >= (r-1) ||x_t||_r^4``; on a mistake the dual weight moves,
    ``theta += (y - y_hat) vec(X_t)``, and ``w = grad ||theta||_r^2 / 2``, i.e.
    ``w_i = sign(theta_i)|theta_i|^(r-1) / ||theta||_r^(r-2)`` (the inverse of
    ``f(w) = grad ||w||_s^2 / 2``).  ``x_t`` is the forest path of the pair
    (:class:`PathForest`).  Theorem ``t:unknown``: ``M = O(|Phi^G|^4 log n)``; an explicit
    constant is :func:`rnorm_mistake_bound`.

    Sparse: ``theta`` is symmetric with integer entries, so only its upper triangle is
    stored, as a dict over the entries ever touched; the histogram of ``|theta_i|`` (over the
    full matrix) is kept incrementally, so ``||theta||_r^r`` never needs a pass over
    ``theta``.  A prediction reads the ``|x_t|(|x_t|+1)/2`` upper entries of the support of
    ``X_t`` and an update writes them.  :class:`DenseRNormPerceptron` is the reference; both
    evaluate :func:`rnorm_margin` on the same integers, so predictions are identical.

    Tie-safe: the margin is a function of two integer histograms only, evaluated with
    correctly rounded sums (:func:`math.fsum`) and no BLAS, so it is the same float on every
    machine with an IEEE ``pow``; and it is compared with ``(r-1) ell^(4/r)``, where
    ``r = 4 ln(n-1)`` is transcendental, so exact ties are not a structural event as they are
    for rational scores.  ``tests/test_exact_decisions.py`` perturbs every margin by a
    relative ``1e-12`` over long runs and finds the same predictions.

    Parameters
    ----------
    n : int
        Number of vertices, ``n >= 3``.
    grow : {"disconnected", "always"}
        See :class:`PathForest`.

    Examples
    --------
    >>> learner = RNormPerceptron(5)
    >>> learner.predict_one(0, 4, path=[0, 2, 4])      # theta = 0: predicts similar
    0
    >>> for _ in range(6): learner.learn_one(0, 4, 1, path=[0, 2, 4])
    >>> learner.mistakes, round(learner.r - 1, 3)       # r - 1 mistakes on one pair, then it flips
    (5, 4.545)
    >>> learner.predict_one(0, 4, path=[0, 2, 4])
    1
    """

    _forest_class = PathForest

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n, grow)
        self.r = rnorm_exponent(self.n)
        self.s = self.r / (self.r - 1)
        self._m = self.n - 1
        self._upper: dict[int, int] = {}  # key a * (n-1) + b with a <= b  ->  theta_ab (never 0)
        self.hist: dict[int, int] = {}  # |theta_i| -> number of entries of the full matrix
        self._triu: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._scaled: tuple[int, float] | None = None  # (V, S) of the histogram, reset by updates

    @property
    def theta(self) -> dict[int, int]:
        """The nonzero entries of ``theta`` as ``{a * (n-1) + b: theta_ab}``, both triangles."""
        m, out = self._m, {}
        for k, v in self._upper.items():
            a, b = divmod(k, m)
            out[k] = v
            out[b * m + a] = v
        return out

    def _support(self, idx, sgn):
        """Upper-triangle keys of the support of ``X_t``, the signs ``x_a x_b`` and weights (2 off the diagonal)."""
        ell = len(idx)
        if ell not in self._triu:
            p, q = np.triu_indices(ell)
            self._triu[ell] = (p, q, np.where(p == q, 1, 2))
        p, q, w = self._triu[ell]
        i = np.asarray(idx, dtype=np.int64)
        s = np.asarray(sgn, dtype=np.int64)
        a, b = i[p], i[q]
        keys = np.minimum(a, b) * self._m + np.maximum(a, b)
        return keys.tolist(), s[p] * s[q], w

    def _entries(self, keys, signs, w) -> dict[int, int]:
        get = self._upper.get
        vals = np.fromiter(map(get, keys, itertools.repeat(0)), dtype=np.int64, count=len(keys))
        return _weighted_counts(vals * signs, w)

    def _norm_cache(self):
        if self._scaled is None and self.hist:
            self._scaled = _scaled_norm(self.hist, self.r)
        return self._scaled

    def _decide(self, idx, sgn):
        return _rnorm_decision(self._entries(*self._support(idx, sgn)), self.hist, len(idx), self.r, self._norm_cache())

    def _update(self, idx, sgn, direction):
        keys, signs, w = self._support(idx, sgn)
        upper, hist = self._upper, self.hist
        self._scaled = None
        old = np.fromiter(map(upper.get, keys, itertools.repeat(0)), dtype=np.int64, count=len(keys))
        new = old + direction * signs
        for v, c in _weighted_counts(np.abs(old), w).items():
            c = hist[v] - c
            if c:
                hist[v] = c
            else:
                del hist[v]
        for v, c in _weighted_counts(np.abs(new), w).items():
            hist[v] = hist.get(v, 0) + c
        upper.update(zip(keys, new.tolist()))
        for k in np.asarray(keys)[new == 0].tolist():
            del upper[k]

    def margin(self, i: int, j: int, path) -> float:
        """``w^T vec(X_t)`` for the pair, without changing the learner.

        Examples
        --------
        >>> RNormPerceptron(4).margin(0, 1, [0, 1])
        0.0
        """
        _, idx, sgn = self.forest.preview_sparse(int(i), int(j), path)
        return rnorm_margin(self._entries(*self._support(idx, sgn)), self.hist, self.r, self._norm_cache())

    def norm_r(self) -> float:
        """``||theta||_r`` from the histogram (scaled, so it never overflows).

        Examples
        --------
        >>> learner = RNormPerceptron(3); learner.learn_one(0, 2, 1, path=[0, 1, 2])
        >>> round(learner.norm_r() ** learner.r, 6)     # theta = vec(x x^T) has 4 entries +-1
        4.0
        """
        return _norm_from_hist(self.hist, self.r)


def _norm_from_hist(hist: dict[int, int], r: float) -> float:
    if not hist:
        return 0.0
    V, S = _scaled_norm(hist, r)
    return V * S ** (1 / r)


class DenseRNormPerceptron(RNormPerceptron):
    """Plain reference for :class:`RNormPerceptron`: ``(n-1)^2``-long dense vectors, ``O(n^2)`` per trial.

    ``theta`` is a dense integer vector of length ``(n-1)^2``; each trial builds
    ``vec(X_t)`` (columns of ``x_t x_t^T`` stacked) from the :class:`NaivePathForest`
    instance, counts the values of ``theta * vec(X_t)`` and of ``|theta|`` on the dense
    arrays, and applies the same rule.  :meth:`weights` gives the literal dense ``w``.

    Examples
    --------
    >>> learner = DenseRNormPerceptron(5)
    >>> for _ in range(6): learner.learn_one(0, 4, 1, path=[0, 2, 4])
    >>> learner.mistakes, learner.predict_one(0, 4, path=[0, 2, 4])
    (5, 1)
    """

    _forest_class = NaivePathForest

    def __init__(self, n: int, grow: str = "disconnected"):
        super().__init__(n, grow)
        check_memory(8 * self._m**2, f"DenseRNormPerceptron({self.n}) (a dense (n-1)^2 int64 theta)",
                     "use RNormPerceptron(n): the same predictions with a sparse theta")
        self._dense = np.zeros(self._m * self._m, dtype=np.int64)

    @property
    def theta(self) -> np.ndarray:
        """The dual weight ``theta`` as a dense ``(n-1)^2`` integer vector."""
        return self._dense

    def vec_instance(self, idx, sgn) -> np.ndarray:
        """``vec(x x^T)``: the ``(n-1)^2`` vector stacking the columns of ``X = x x^T``."""
        x = _signed_dense(self.n, idx, sgn)
        return np.outer(x, x).ravel(order="F")

    def _dense_hist(self) -> dict[int, int]:
        values, counts = np.unique(np.abs(self._dense[self._dense != 0]), return_counts=True)
        return {int(v): int(c) for v, c in zip(values.tolist(), counts.tolist())}

    def _dense_entries(self, idx, sgn) -> dict[int, int]:
        prod = self._dense * self.vec_instance(idx, sgn)
        values, counts = np.unique(prod[prod != 0], return_counts=True)
        return {int(v): int(c) for v, c in zip(values.tolist(), counts.tolist())}

    def _decide(self, idx, sgn):
        return _rnorm_decision(self._dense_entries(idx, sgn), self._dense_hist(), len(idx), self.r)

    def _update(self, idx, sgn, direction):
        self._dense += direction * self.vec_instance(idx, sgn)

    def margin(self, i, j, path) -> float:
        _, idx, sgn = self.forest.preview_sparse(int(i), int(j), path)
        return rnorm_margin(self._dense_entries(idx, sgn), self._dense_hist(), self.r)

    def weights(self) -> np.ndarray:
        """The primal weight ``w = sign(theta)|theta|^(r-1) / ||theta||_r^(r-2)``, literally (small n only).

        Examples
        --------
        >>> DenseRNormPerceptron(3).weights().tolist()
        [0.0, 0.0, 0.0, 0.0]
        """
        t = self._dense.astype(float)
        norm = np.sum(np.abs(t) ** self.r) ** (1 / self.r)
        if norm == 0:
            return np.zeros_like(t)
        return np.sign(t) * np.abs(t) ** (self.r - 1) / norm ** (self.r - 2)

    def norm_r(self) -> float:
        return _norm_from_hist(self._dense_hist(), self.r)


_C_RNORM = (1 + 3 * math.e) ** 2 / 16


def rnorm_mistake_bound(n: int, target_norm_s: float) -> float:
    """An explicit form of Theorem ``t:unknown``: ``M <= ((1+3e)^2/16) (r-1) ||vec(U)||_s^2``.

    Derivation (the standard p-norm analysis, constants kept): ``F(theta) = ||theta||_r^2/2``
    is ``(r-1)``-smooth w.r.t. ``||.||_r``, so a missed dissimilar pair (``w.v < (r-1)||v||_r^2``)
    raises ``F`` by less than ``(3/2)(r-1)||v||_r^2`` and a missed similar pair
    (``w.v >= (r-1)||v||_r^2``, ``theta -= v``) lowers it by at least ``(1/2)(r-1)||v||_r^2``,
    where ``1 <= ||v||_r^2 = |x_t|^(4/r) <= e``.  Separability (``e:separ``) gives
    ``vec(U).theta = 2P`` (``P`` missed dissimilar pairs, ``D`` missed similar ones), and
    Hoelder ``2P <= ||vec U||_s ||theta||_r``.  Hence ``4P^2 <= c (3eP - D)`` with
    ``c = (r-1)||vec U||_s^2``, and ``M = P + D <= (1+3e)P - 4P^2/c <= (1+3e)^2 c / 16``.

    Examples
    --------
    >>> round(rnorm_mistake_bound(101, 4.0), 1)
    1460.0
    """
    r = rnorm_exponent(n)
    return _C_RNORM * (r - 1) * float(target_norm_s) ** 2


def rnorm_cut_bound(n: int, cut_size: int) -> float:
    """Theorem ``t:unknown`` in terms of the cut: ``M <= ((1+3e)^2/16)(r-1) 16 |Phi^G|^4``.

    Because ``||vec U||_s <= ||vec U||_1 <= sum_k |Phi_k^T|^2 <= (sum_k |Phi_k^G|)^2 = 4|Phi^G|^2``.

    Examples
    --------
    >>> rnorm_cut_bound(101, 1) == rnorm_mistake_bound(101, 4.0)
    True
    """
    return rnorm_mistake_bound(n, 4.0 * cut_size**2)


# --------------------------------------------------------------------------------------
# cuts and directed paths (appendix): the objects of the proof
# --------------------------------------------------------------------------------------
def _oriented(edges) -> list[tuple[int, int]]:
    return [(min(int(a), int(b)), max(int(a), int(b))) for a, b in edges]


def edge_path_vector(path: Sequence[int], edges) -> np.ndarray:
    """The signed path vector ``p`` over ``edges`` (oriented low -> high): ``+1`` along, ``-1`` against.

    Examples
    --------
    >>> edge_path_vector([2, 0, 1], [(0, 1), (0, 2), (1, 2)]).tolist()
    [1, -1, 0]
    """
    edges = _oriented(edges)
    index = {e: k for k, e in enumerate(edges)}
    p = np.zeros(len(edges), dtype=np.int64)
    for a, b in zip(path, path[1:]):
        key = (min(a, b), max(a, b))
        if key not in index:
            raise ValueError(f"the path uses ({a}, {b}), which is not among the given edges")
        p[index[key]] += 1 if a < b else -1
    return p


def _tree_sides(tree_edges: list[tuple[int, int]], n: int) -> list[np.ndarray]:
    """For each branch ``(lo, hi)``: boolean mask of the side of ``hi`` once the branch is removed."""
    T = nx.Graph()
    T.add_nodes_from(range(n))
    T.add_edges_from(tree_edges)
    sides = []
    for lo, hi in tree_edges:
        T.remove_edge(lo, hi)
        mask = np.zeros(n, dtype=bool)
        mask[list(nx.node_connected_component(T, hi))] = True
        T.add_edge(lo, hi)
        sides.append(mask)
    return sides


def fundamental_cutset_matrix(tree_edges, edges, n: int | None = None) -> np.ndarray:
    """The fundamental cutset matrix ``Q`` of a spanning tree (rows: branches, columns: ``edges``).

    Removing branch ``b = (lo, hi)`` splits ``T`` into the side of ``lo`` and the side of
    ``hi``; the cut is oriented like the branch.  ``Q[b, e] = +1`` if edge ``e``
    (oriented low -> high) crosses from the ``lo`` side to the ``hi`` side, ``-1`` the other
    way, ``0`` if it does not cross.  ``Q p`` is then the signed tree path of any path
    ``p`` (path invariance), and ``Q^T u_k`` is the signed cut of class ``k``.

    Examples
    --------
    >>> fundamental_cutset_matrix([(0, 1), (1, 2)], [(0, 1), (1, 2), (0, 2)]).tolist()
    [[1, 0, 1], [0, 1, 1]]
    """
    tree_edges, edges = _oriented(tree_edges), _oriented(edges)
    if n is None:
        n = 1 + max(max(e) for e in tree_edges + edges)
    if len(tree_edges) != n - 1 or not nx.is_tree(nx.Graph(tree_edges)) or len(nx.Graph(tree_edges)) != n:
        raise ValueError(f"tree_edges must be the n - 1 = {n - 1} edges of a spanning tree on 0..{n - 1}")
    Q = np.zeros((n - 1, len(edges)), dtype=np.int64)
    lo = np.array([a for a, _ in edges], dtype=np.int64)
    hi = np.array([b for _, b in edges], dtype=np.int64)
    for row, side in enumerate(_tree_sides(tree_edges, n)):
        Q[row] = side[hi].astype(np.int64) - side[lo].astype(np.int64)
    return Q


def class_coefficients(tree_edges, labels) -> np.ndarray:
    """The vectors ``u_k in {-1, 0, 1}^(n-1)`` of the proof: one row per class.

    ``u_k[b] = +1`` if branch ``b = (lo, hi)`` leaves class ``k`` (``lo`` in it, ``hi`` not),
    ``-1`` if it enters it, ``0`` otherwise; so ``||u_k||_1 = |Phi_k^T|``.  A disconnected
    class is the sum of the vectors of its pieces.

    Examples
    --------
    >>> class_coefficients([(0, 1), (1, 2)], [0, 1, 0]).tolist()
    [[1, -1], [-1, 1]]
    """
    tree_edges = _oriented(tree_edges)
    y = validate_labels(labels, len(labels))
    K = int(y.max()) + 1
    U = np.zeros((K, len(tree_edges)), dtype=np.int64)
    for b, (lo, hi) in enumerate(tree_edges):
        if y[lo] != y[hi]:
            U[y[lo], b] = 1
            U[y[hi], b] = -1
    return U


def signed_cut_vector(edges, labels, k: int) -> np.ndarray:
    """The cut of class ``k`` as a signed vector over ``edges``: ``+1`` leaving ``k``, ``-1`` entering.

    Examples
    --------
    >>> signed_cut_vector([(0, 1), (1, 2), (0, 2)], [0, 1, 0], 1).tolist()
    [-1, 1, 0]
    """
    y = validate_labels(labels, len(labels))
    return np.array([int(y[a] == k) - int(y[b] == k) for a, b in _oriented(edges)], dtype=np.int64)


def complete_spanning_tree(G: nx.Graph, forest_edges) -> list[tuple[int, int]]:
    """The forest's edges, in order, followed by edges of ``G`` completing it to a spanning tree.

    The proof's footnote: if fewer than ``n - 1`` edges were revealed, ``T`` is any
    spanning tree of ``G`` containing them; its extra branches come after the revealed
    ones, so the instance vectors ``x_t`` keep their meaning.

    Examples
    --------
    >>> complete_spanning_tree(nx.cycle_graph(4), [(1, 2)])
    [(1, 2), (0, 1), (0, 3)]
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    forest_edges = _oriented(forest_edges)
    for a, b in forest_edges:
        if not G.has_edge(a, b):
            raise ValueError(f"forest edge ({a}, {b}) is not an edge of G")
    components = nx.utils.UnionFind(range(n))
    out = []
    for k, (a, b) in enumerate(forest_edges + sorted(_oriented(G.edges))):
        if components[a] != components[b]:
            components.union(a, b)
            out.append((a, b))
        elif k < len(forest_edges):
            raise ValueError(f"forest edge ({a}, {b}) closes a circuit: the edges do not form a forest")
    return out


def target_matrix(U_rows: np.ndarray) -> np.ndarray:
    """``U = sum_k u_k u_k^T``, the (rank ``<= K``) separator of ``e:separ``.

    Examples
    --------
    >>> target_matrix(np.array([[1, -1], [-1, 1]])).tolist()
    [[2, -2], [-2, 2]]
    """
    U_rows = np.asarray(U_rows, dtype=np.int64)
    return U_rows.T @ U_rows


def figure4_graph() -> tuple[nx.Graph, list[tuple[int, int]], list[tuple[int, int]], np.ndarray]:
    """The 7-vertex graph of Figures 2(b)-(c) and 4, rebuilt from the captions (vertices ``v - 1``).

    The paper's image is not in its source; the captions pin it down: branches
    ``e1..e6 = (1,2), (1,3), (1,4), (1,5), (2,7), (3,6)`` (the thick spanning tree) and
    chords ``e7..e12 = (2,4), (3,7), (4,6), (4,7), (4,5), (5,7)`` (``e7`` could also be
    ``(2,5)``: no caption tells them apart).  Classes: blue ``{4,5,6,7}``, green ``{1}``,
    red ``{2,3}`` (disconnected).  Here vertex ``v`` of the paper is ``v - 1``.

    Returns
    -------
    G : networkx.Graph
    edges : list of (int, int)
        ``e1 .. e12`` in the paper's order (0-based vertices, low -> high).
    tree_edges : list of (int, int)
        The branches ``e1 .. e6``.
    labels : numpy.ndarray
        ``0`` blue, ``1`` green, ``2`` red.

    Examples
    --------
    >>> G, edges, tree, labels = figure4_graph()
    >>> G.number_of_nodes(), G.number_of_edges(), labels.tolist()
    (7, 12, [1, 2, 2, 0, 0, 0, 0])
    """
    paper = [(1, 2), (1, 3), (1, 4), (1, 5), (2, 7), (3, 6), (2, 4), (3, 7), (4, 6), (4, 7), (4, 5), (5, 7)]
    edges = [(a - 1, b - 1) for a, b in paper]
    G = nx.Graph()
    G.add_nodes_from(range(7))
    G.add_edges_from(edges)
    labels = np.array([1, 2, 2, 0, 0, 0, 0], dtype=np.int64)
    return G, edges, edges[:6], labels


def random_tree_with_clusters(n: int, K: int, seed) -> tuple[nx.Graph, np.ndarray]:
    """The warm-up instance of §5: a uniformly random tree cut into ``K`` connected clusters.

    The tree is a uniform spanning tree of the complete graph (Wilson's algorithm); ``K - 1``
    of its edges, chosen at random, are the cut edges and the clusters are the components
    left when they are removed.  Every class is connected and ``|Phi^G| = K - 1``.

    Examples
    --------
    >>> T, labels = random_tree_with_clusters(30, 4, seed=0)
    >>> nx.is_tree(T), len(set(labels.tolist())), sum(int(labels[a] != labels[b]) for a, b in T.edges)
    (True, 4, 3)
    """
    from ..spanning import wilson

    n = check_int(n, "n", low=1)
    K = check_int(K, "K", low=1, high=n)
    rng = check_random_state(seed)
    T = wilson(nx.complete_graph(n), seed=rng)
    edges = sorted((min(e), max(e)) for e in T.edges)
    cut = [edges[k] for k in rng.choice(len(edges), K - 1, replace=False)]
    H = T.copy()
    H.remove_edges_from(cut)
    labels = np.zeros(n, dtype=np.int64)
    for c, comp in enumerate(sorted(nx.connected_components(H), key=min)):
        labels[sorted(comp)] = c
    return T, labels
