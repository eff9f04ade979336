"""Binary Support Trees (§4): linearise a spanning tree, then balance it.

From a graph ``G``: draw a uniformly random spanning tree ``T``; visit ``T`` depth first and
list its vertices in visiting order without duplicates, giving a path ``P``; build a full
balanced binary tree ``B`` whose leaves, left to right, are the vertices of ``P``.  When
``n`` is not a power of two, ``B`` is padded with *dummy* leaves that no pair ever uses.

``B`` is stored implicitly with heap indexing: the root is ``1``, the children of ``v`` are
``2v`` and ``2v + 1``, and the ``N`` leaves are ``N .. 2N-1`` (``N`` the number of leaves
after padding).  Any two leaves are joined by a path of at most ``2 log2 N`` edges, found in
``O(log N)`` by climbing to the lowest common ancestor.

Labels extend to internal vertices by copying the *left* child's label, so every internal
vertex carries the label of its leftmost leaf.  Dummy leaves copy the label of the last
real leaf (as if ``P`` were extended by copies of its last vertex: no new cut edge), which
keeps ``|Phi^B_k| <= 2 |Phi^T_k| log2 N`` true for the padded tree.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np

from .graphs import validate_graph, validate_labels

__all__ = ["dfs_linearize", "BinarySupportTree"]


def _check_tree(T: nx.Graph) -> nx.Graph:
    T = validate_graph(T)
    if T.number_of_edges() != T.number_of_nodes() - 1:
        raise ValueError(
            f"T is not a tree: a connected graph on {T.number_of_nodes()} vertices is a tree "
            f"only with {T.number_of_nodes() - 1} edges, it has {T.number_of_edges()}; "
            "draw a spanning tree first, e.g. simpred_lite.spanning.wilson(G, seed)"
        )
    return T


def dfs_linearize(T: nx.Graph, root: int = 0) -> list[int]:
    """The depth-first visiting order of the tree ``T`` from ``root``, duplicates removed.

    Children are visited in increasing vertex order, so the result is deterministic.
    Consecutive vertices of the order are at tree distance ``d`` with the sum of all
    distances at most ``2(n-1)``: the path ``P`` crosses each tree edge at most twice, so
    ``|Phi^P| <= 2 |Phi^T|``.

    Parameters
    ----------
    T : networkx.Graph
        A tree on the vertices ``0 .. n-1``.
    root : int
        Where the visit starts.

    Returns
    -------
    list of int
        A permutation of ``0 .. n-1`` (the path ``P``).

    Examples
    --------
    >>> T = nx.Graph([(0, 1), (0, 2), (1, 3), (1, 4)])
    >>> dfs_linearize(T, root=0)
    [0, 1, 3, 4, 2]
    """
    T = _check_tree(T)
    if not (isinstance(root, (int, np.integer)) and root in T):
        raise ValueError(f"root {root!r} is not a vertex of T (0..{T.number_of_nodes() - 1})")
    order, seen, stack = [], {int(root)}, [int(root)]
    while stack:
        v = stack.pop()
        order.append(v)
        children = sorted((w for w in T.adj[v] if w not in seen), reverse=True)
        seen.update(children)
        stack.extend(children)  # reversed, so the smallest child is visited first
    return order


class BinarySupportTree:
    """A full balanced binary tree whose leaves are a linear order of the vertices.

    Parameters
    ----------
    order : sequence of int
        A permutation of ``0 .. n-1`` (usually :func:`dfs_linearize` of a spanning tree):
        the vertices as they appear, left to right, on the leaves.

    Attributes
    ----------
    n : int
        Number of real vertices.
    num_leaves : int
        ``N``, the smallest power of two ``>= n`` (``N >= 2``).
    depth : int
        ``log2 N``: the number of edges from the root to any leaf.
    order : numpy.ndarray
        The leaf order.
    tree : networkx.Graph or None
        The spanning tree it was built from, when built by :meth:`from_graph`.

    Examples
    --------
    >>> B = BinarySupportTree([2, 0, 1])
    >>> B.num_leaves, B.depth, B.leaf(2), B.leaf(1)
    (4, 2, 4, 6)
    >>> B.path(2, 1)
    [4, 2, 1, 3, 6]
    """

    def __init__(self, order: Sequence[int]):
        arr = np.asarray(order)
        if arr.ndim != 1 or arr.size < 2:
            raise ValueError(f"order must list at least 2 vertices, got {list(np.atleast_1d(arr))}")
        if arr.dtype.kind not in "iu":
            raise ValueError(f"order must hold integer vertices, got dtype {arr.dtype}")
        n = arr.size
        values, counts = np.unique(arr, return_counts=True)
        if (counts > 1).any():
            raise ValueError(f"order repeats vertex {int(values[counts > 1][0])}; each vertex must appear exactly once")
        if values[0] != 0 or values[-1] != n - 1:
            raise ValueError(f"order must be a permutation of 0..{n - 1}, got values from {values[0]} to {values[-1]}")
        self.n = int(n)
        self.order = arr.astype(np.int64)
        self.num_leaves = 1 << int(np.ceil(np.log2(n)))
        self.depth = self.num_leaves.bit_length() - 1
        self._leaf_of = np.empty(n, dtype=np.int64)
        self._leaf_of[self.order] = self.num_leaves + np.arange(n)
        self.tree: nx.Graph | None = None
        self.root: int | None = None

    @classmethod
    def from_graph(cls, G: nx.Graph, seed, root: int = 0) -> "BinarySupportTree":
        """Draw a uniform random spanning tree of ``G`` (Wilson), linearise it from ``root``, balance.

        Examples
        --------
        >>> B = BinarySupportTree.from_graph(nx.cycle_graph(6), seed=0)
        >>> B.n, B.num_leaves, nx.is_tree(B.tree)
        (6, 8, True)
        """
        from .spanning import wilson  # local import: spanning is optional for order-only use

        G = validate_graph(G)
        if not (isinstance(root, (int, np.integer)) and root in G):
            raise ValueError(f"root {root!r} is not a vertex of G (0..{G.number_of_nodes() - 1})")
        T = wilson(G, seed)
        B = cls(dfs_linearize(T, root))
        B.tree, B.root = T, int(root)
        return B

    # -- structure -----------------------------------------------------------------------
    @property
    def num_vertices(self) -> int:
        """``2N - 1``, the number of vertices of ``B`` (heap indices ``1 .. 2N-1``)."""
        return 2 * self.num_leaves - 1

    def leaf(self, v: int) -> int:
        """The heap index of the leaf holding vertex ``v``."""
        if not (isinstance(v, (int, np.integer)) and 0 <= v < self.n):
            raise ValueError(f"unknown vertex {v!r}: the BST holds the vertices 0..{self.n - 1}")
        return int(self._leaf_of[v])

    def vertex_at(self, leaf: int) -> int | None:
        """The graph vertex on heap leaf ``leaf``, or ``None`` for a dummy leaf."""
        pos = leaf - self.num_leaves
        if not 0 <= pos < self.num_leaves:
            raise ValueError(f"{leaf} is not a leaf index ({self.num_leaves}..{2 * self.num_leaves - 1})")
        return int(self.order[pos]) if pos < self.n else None

    def edges(self) -> list[tuple[int, int]]:
        """All ``2N - 2`` edges ``(parent, child)`` of ``B`` in heap order.

        Examples
        --------
        >>> BinarySupportTree([0, 1]).edges()
        [(1, 2), (1, 3)]
        """
        return [(c // 2, c) for c in range(2, 2 * self.num_leaves)]

    def path(self, u: int, v: int) -> list[int]:
        """The heap indices on the path of ``B`` from the leaf of ``u`` to the leaf of ``v``.

        ``O(log N)``: climb from both leaves until they meet at the lowest common ancestor.
        """
        a, b = self.leaf(u), self.leaf(v)
        up, down = [a], [b]
        while a != b:
            a //= 2
            b //= 2
            up.append(a)
            down.append(b)
        return up + down[-2::-1]

    def to_networkx(self) -> nx.Graph:
        """``B`` as a networkx graph on the heap indices ``1 .. 2N-1``."""
        return nx.Graph(self.edges())

    # -- labels --------------------------------------------------------------------------
    def propagate_labels(self, labels) -> np.ndarray:
        """Extend vertex labels to all of ``B``: each internal vertex copies its left child.

        Returns an array ``y`` of length ``2N`` indexed by heap index (``y[0]`` unused, set
        to ``-1``).  Dummy leaves copy the label of the last real leaf.

        Examples
        --------
        >>> B = BinarySupportTree([0, 1, 2])
        >>> B.propagate_labels([5, 7, 7]).tolist()
        [-1, 5, 5, 7, 5, 7, 7, 7]
        """
        y = validate_labels(labels, self.n)
        N = self.num_leaves
        out = np.empty(2 * N, dtype=np.int64)
        out[0] = -1
        leaves = np.full(N, y[self.order[-1]], dtype=np.int64)
        leaves[: self.n] = y[self.order]
        out[N:] = leaves
        for v in range(N - 1, 0, -1):
            out[v] = out[2 * v]
        return out

    def cut_size(self, labels, k: int | None = None) -> int:
        """``|Phi^B|`` (or ``|Phi^B_k|``) for the propagated labels.

        Examples
        --------
        >>> BinarySupportTree([0, 1, 2, 3]).cut_size([0, 1, 1, 0])   # edges 1-3, 2-5, 3-7
        3
        """
        y = self.propagate_labels(labels)
        child = np.arange(2, 2 * self.num_leaves)
        a, b = y[child // 2], y[child]
        cut = a != b
        if k is not None:
            cut &= (a == k) | (b == k)
        return int(cut.sum())

    def __repr__(self) -> str:
        return f"BinarySupportTree(n={self.n}, num_leaves={self.num_leaves}, depth={self.depth})"
