"""The forest of revealed paths (§5): the data structure behind the unknown-graph learners.

Each trial of the unknown-graph setting reveals a path between the pair; the learners of
:mod:`simpred_lite.learners.unknown` keep the union of the revealed paths as a forest whose
edges are numbered by first disclosure and oriented from the lower to the higher vertex.
:class:`PathForest` answers "connected?", "tree path?" and the signed instance of a trial in
time linear in the path; :class:`PathForestReference` is the plain networkx version the tests
compare it with.
"""

from __future__ import annotations

import re
from collections import deque

import networkx as nx
import numpy as np
from networkx.utils import UnionFind

from ..checks import check_int, check_memory, check_simple_path, check_vertex

__all__ = ["check_simple_path", "parse_path", "PathForest", "PathForestReference"]


_GROW = ("disconnected", "always")


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
        If a token is not a whole number written with the ASCII digits ``0-9`` (a negative number
        such as ``"-1 2"`` included: it is refused, not read as ``(1, 2)``; so is ``"٣ 4"``, whose
        Arabic-Indic digit ``str.isdigit`` would accept), or the sequence is not a simple path.

    Examples
    --------
    >>> parse_path("0 3 5 2", n=6)
    (0, 3, 5, 2)
    >>> parse_path("4 -> 1, 0", n=6)
    (4, 1, 0)
    """
    if not isinstance(text, str):
        raise TypeError(f"the path must be typed as text such as '0 3 5 2', got {type(text).__name__}")
    # a dash separates two vertex numbers ("0-3-5-2"); a dash with no number before it is a
    # minus sign ("-1 2", "0, -3"), and a negative number is refused, not read as its digits
    # ("0 -3" too: the dash sticks to the number, not to the one before it)
    negative = re.search(r"(?:^|[,>→])\s*(-\s*[0-9]+)|(?<=\s)(-[0-9]+)", text.replace("->", ">"))
    if negative is not None:
        number = re.sub(r"\s+", "", negative.group(1) or negative.group(2))
        raise ValueError(f"{number!r} is not a vertex number: the vertices are 0..{n - 1}, never negative; "
                         "type vertex numbers separated by spaces, e.g. '0 3 5 2'")
    tokens = [t for t in text.replace("->", " ").replace("→", " ").replace(",", " ").replace("-", " ").split() if t]
    # ASCII digits only: str.isdigit also accepts other scripts' digits (Arabic-Indic '٣', superscripts)
    bad = [t for t in tokens if not re.fullmatch(r"[0-9]+", t)]
    if bad:
        other = "" if bad[0].isascii() else " (write it with the digits 0-9)"
        raise ValueError(f"{bad[0]!r} is not a vertex number{other}: type vertex numbers 0..{n - 1} separated by "
                         "spaces, e.g. '0 3 5 2'")
    if len(tokens) < 2:
        raise ValueError(f"a path needs at least two vertices, e.g. '0 3 5 2'; got {text!r}")
    vertices = [int(t) for t in tokens]
    return check_simple_path(vertices[0], vertices[-1], vertices, n)


def _check_grow(grow: str) -> str:
    if grow not in _GROW:
        raise ValueError(
            f"grow must be 'disconnected' (add a revealed path only when its endpoints are not "
            f"yet connected, as §5 reads) or 'always' (process every revealed edge, as Figure 7 "
            f"draws), got {grow!r}"
        )
    return grow


def _signed_dense(n: int, idx, sgn) -> np.ndarray:
    x = np.zeros(n - 1, dtype=np.int64)
    x[np.asarray(idx, dtype=np.int64)] = np.asarray(sgn, dtype=np.int64)
    return x


class PathForest:
    """The forest of revealed paths, built as in Figure 7 of the paper.

    Edges get the number of their first disclosure and are oriented low -> high vertex
    index.  A revealed path is processed edge by edge, in its order; an edge whose two
    endpoints are already connected in the forest would close a circuit and is skipped,
    any other edge joins two trees.  By default (``grow="disconnected"``) a path is
    processed only when its endpoints are not yet connected, as §5 reads; with
    ``grow="always"`` every revealed path is processed, as Figure 7 draws (its round 4).
    Either way, once two vertices are connected their forest path never changes, so all
    past instance vectors stay valid.

    The instance of a pair is the signed indicator ``x`` of the forest's ``i -> j`` path:
    ``x[e] = +1`` if edge ``e`` is traversed low -> high, ``-1`` if high -> low.  It may
    differ from the revealed path (which may leave the forest).

    Connectivity is a union-find; each tree is kept rooted (parent pointers and depths),
    the smaller tree being re-rooted when two merge, so a forest path costs
    ``O(its length)`` and all merges ``O(n log n)`` in total.  :class:`PathForestReference` is
    the plain networkx reference.

    Parameters
    ----------
    n : int
        Number of vertices; the forest has at most ``n - 1`` edges.
    grow : {"disconnected", "always"}

    Examples
    --------
    Figure 7 of the paper, with its vertices ``1..7`` renamed ``0..6``:

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
        # a union-find dict and four per-vertex lists of Python objects: ~400 bytes a vertex
        check_memory(400 * self.n, f"a forest of revealed paths on n={self.n} vertices (~400 bytes a vertex)",
                     "the unknown-graph learners keep per-vertex Python structures; use at most a few million "
                     "vertices (the paper's bounds grow with log n: n = 10**5 already shows them)")
        self.grow = _check_grow(grow)
        self.edges: list[tuple[int, int]] = []
        self._uf = UnionFind(range(self.n))  # networkx's union-find: which tree holds a vertex
        self._up = [-1] * self.n  # parent in the rooted tree, -1 at a root
        self._up_edge = [-1] * self.n  # number of the edge (v, up[v])
        self._depth = [0] * self.n
        self._adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]

    # -- connectivity --------------------------------------------------------------------
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
        return self._uf[u] == self._uf[v]

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
        if self._uf[i] != self._uf[j]:
            raise ValueError(f"vertices {i} and {j} are not connected in the forest yet")
        return self._climb(i, j)[0]

    # -- growing the forest -------------------------------------------------------------
    def _plan(self, path: tuple[int, ...]) -> list[tuple[int, int]]:
        """The revealed edges that would be added, in order (the forest is not changed)."""
        if self.grow == "disconnected" and self._uf[path[0]] == self._uf[path[-1]]:
            return []
        merged: dict[int, int] = {}  # an overlay union-find on the roots of the real one

        def root(v: int) -> int:
            r = self._uf[v]
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
        ra, rb = self._uf[a], self._uf[b]
        if self._uf.weights[ra] < self._uf.weights[rb]:  # re-root the smaller tree, hanging it below the other
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
        self._uf.union(ra, rb)

    def _route(self, i: int, j: int, plan: list[tuple[int, int]]):
        """Path ``i -> j`` in the forest plus the planned edges (numbered after the current ones)."""
        if not plan:
            return self._climb(i, j)
        # contract each current tree to its root; the planned edges form a tree on the roots
        base = len(self.edges)
        links: dict[int, list[tuple[int, int, int, int]]] = {}
        for k, (a, b) in enumerate(plan):
            ra, rb = self._uf[a], self._uf[b]
            links.setdefault(ra, []).append((rb, a, b, base + k))
            links.setdefault(rb, []).append((ra, b, a, base + k))
        start, goal = self._uf[i], self._uf[j]
        back: dict[int, tuple[int, int, int, int] | None] = {start: None}
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
        while (step := back[r]) is not None:
            r_prev, a, b, e = step
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
        """Add the revealed path (Figure 7) and return ``x_t`` as (vertices, edge numbers, signs).

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


class PathForestReference(PathForest):
    """Plain reference for :class:`PathForest`: a networkx forest, searched afresh each time.

    Same rules, ``O(n)`` per trial: ``nx.has_path`` decides connectivity and the unique
    forest path is ``nx.shortest_path``.

    Parameters
    ----------
    n : int
        Number of vertices.
    grow : {"disconnected", "always"}, default "disconnected"
        As in :class:`PathForest`.

    Examples
    --------
    >>> F = PathForestReference(7)
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
        self.edges = sorted(self._index, key=self._index.__getitem__)
        return self._encode(nx.shortest_path(self._F, p[0], p[-1]), self._index)

    def tree_path(self, i, j):
        return nx.shortest_path(self._F, check_vertex(i, self.n, "vertex i"), check_vertex(j, self.n, "vertex j"))
