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

from .checks import check_int, check_random_state, check_vertex
from .graphs import validate_graph, validate_labels

__all__ = ["dfs_linearize", "heap_path", "BinarySupportTree"]


def _check_tree(T: nx.Graph) -> nx.Graph:
    if isinstance(T, nx.Graph) and not T.is_directed() and not T.is_multigraph() and T.number_of_nodes() > 0:
        n, m = T.number_of_nodes(), T.number_of_edges()
        if m != n - 1 or not nx.is_connected(T):
            what = "is disconnected" if not nx.is_connected(T) else "has a cycle"
            raise ValueError(
                f"T is not a tree: it {what} ({n} vertices, {m} edges; a tree is connected "
                f"with exactly n - 1 = {n - 1} edges); draw a spanning tree first, e.g. "
                "simpred_lite.spanning.wilson(G, seed)"
            )
    return validate_graph(T)


def _dfs_order(indptr: np.ndarray, indices: np.ndarray, root: int) -> list[int]:
    """Preorder of a tree given as sorted CSR neighbour lists, smallest child first."""
    ptr, idx = indptr.tolist(), indices.tolist()
    n = len(ptr) - 1
    seen = [False] * n
    seen[root] = True
    order, stack = [], [root]
    while stack:
        v = stack.pop()
        order.append(v)
        for w in reversed(idx[ptr[v] : ptr[v + 1]]):  # reversed: the smallest child is popped first
            if not seen[w]:  # in a tree the only seen neighbour is the parent
                seen[w] = True
                stack.append(w)
    return order


def _tree_csr(parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted CSR neighbour lists of the tree with parent array ``parent``."""
    n = parent.size
    child = np.flatnonzero(parent >= 0)
    src = np.concatenate([child, parent[child]])
    dst = np.concatenate([parent[child], child])
    order = np.lexsort((dst, src))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order]


def dfs_linearize(T: nx.Graph, root: int = 0) -> list[int]:
    """The depth-first visiting order of the tree ``T`` from ``root``, duplicates removed.

    Children are visited in increasing vertex order, so the result is deterministic.
    The path ``P`` (consecutive vertices of the order joined by an edge) follows the closed
    depth-first walk of ``T`` with its repeated vertices skipped, and that walk crosses each
    tree edge exactly twice.  So the ``T``-paths between consecutive vertices of ``P`` use
    each tree edge at most twice, and ``|Phi^P_k| <= 2 |Phi^T_k|`` for every class ``k``.

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

    Raises
    ------
    ValueError
        If ``T`` is not a tree on ``0 .. n-1`` or ``root`` is not one of its vertices.

    Examples
    --------
    >>> T = nx.Graph([(0, 1), (0, 2), (1, 3), (1, 4)])
    >>> dfs_linearize(T, root=0)
    [0, 1, 3, 4, 2]
    >>> dfs_linearize(T, root=3)
    [3, 1, 0, 2, 4]
    """
    T = _check_tree(T)
    n = T.number_of_nodes()
    root = check_vertex(root, n, "root")
    from .spanning import adjacency_arrays

    indptr, indices = adjacency_arrays(T)
    return _dfs_order(indptr, indices, root)


def heap_path(a: int, b: int) -> list[int]:
    """The path between two vertices ``a`` and ``b`` at the same depth of a heap-indexed tree.

    Climb from both until they meet at the lowest common ancestor: ``O(depth)``. The path
    has ``2k + 1`` vertices, the ancestor in the middle, ``k`` edges up on each side.

    Parameters
    ----------
    a, b : int
        Two heap indices at the same depth (the root is 1, the children of ``h`` are ``2h`` and
        ``2h + 1``).

    Examples
    --------
    >>> heap_path(4, 6)
    [4, 2, 1, 3, 6]
    """
    up, down = [a], [b]
    while a != b:
        a //= 2
        b //= 2
        up.append(a)
        down.append(b)
    return up + down[-2::-1]


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
        The spanning tree it was built from, when built by :meth:`from_graph` or
        :meth:`from_tree` (after :meth:`from_graph`, built on first access from
        ``tree_parent``, so a 10^6-vertex BST does not pay for a networkx tree it never uses).
    tree_parent : numpy.ndarray or None
        After :meth:`from_graph`: the spanning tree as a parent array (``-1`` at Wilson's root).
    root : int or None
        The vertex the depth-first visit started from.

    Examples
    --------
    >>> B = BinarySupportTree([2, 0, 1])
    >>> B.num_leaves, B.depth, B.leaf(2), B.leaf(1)
    (4, 2, 4, 6)
    >>> B.path(2, 1)
    [4, 2, 1, 3, 6]
    """

    def __init__(self, order: Sequence[int]):
        if isinstance(order, (str, bytes)):
            raise TypeError(f"order must be a sequence of integer vertices, got the string {order!r}")
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
        self.num_leaves = 1 << (n - 1).bit_length()  # smallest power of two >= n
        self.depth = self.num_leaves.bit_length() - 1
        self._leaf_of = np.empty(n, dtype=np.int64)
        self._leaf_of[self.order] = self.num_leaves + np.arange(n)
        self._tree: nx.Graph | None = None
        self.tree_parent: np.ndarray | None = None
        self.root: int | None = None

    @classmethod
    def from_graph(cls, G: nx.Graph, seed, root: int = 0) -> BinarySupportTree:
        """Draw a uniform random spanning tree of ``G`` (Wilson), linearise it from ``root``, balance.

        Parameters
        ----------
        G : networkx.Graph
            Connected, undirected, simple, on ``0 .. n-1`` (``n >= 2``).
        seed : int or numpy.random.Generator
            Randomness of the spanning tree.
        root : int, default 0
            Where the depth-first visit of the tree starts.

        Returns
        -------
        BinarySupportTree
            With ``tree`` (the spanning tree ``T``) and ``root`` set.

        Raises
        ------
        ValueError
            If ``G`` is disconnected (no spanning tree) or ``root`` is not a vertex.

        Examples
        --------
        >>> B = BinarySupportTree.from_graph(nx.cycle_graph(6), seed=0)
        >>> B.n, B.num_leaves, nx.is_tree(B.tree)
        (6, 8, True)
        """
        from .spanning import adjacency_arrays, wilson_arrays  # local import: no cycle at load time

        G = validate_graph(G)
        n = G.number_of_nodes()
        root = check_vertex(root, n, "root")
        rng = check_random_state(seed)
        # = wilson_parents(G, seed), without validating the (possibly huge) graph twice
        parent = wilson_arrays(*adjacency_arrays(G), rng, int(rng.integers(n)))
        # the tree is built from arrays: no re-validation, linear time at 10^6 vertices
        B = cls(_dfs_order(*_tree_csr(parent), root))
        B.tree_parent, B.root = parent, root
        return B

    @classmethod
    def from_tree(cls, T: nx.Graph, root: int = 0) -> BinarySupportTree:
        """The BST of a given spanning tree ``T``: ``BinarySupportTree(dfs_linearize(T, root))``.

        Examples
        --------
        >>> B = BinarySupportTree.from_tree(nx.star_graph(4), root=0)
        >>> B.order.tolist(), B.root
        ([0, 1, 2, 3, 4], 0)
        """
        B = cls(dfs_linearize(T, root))
        B.tree, B.root = T, int(root)
        return B

    @property
    def tree(self) -> nx.Graph | None:
        """The spanning tree ``T`` (networkx), or ``None`` for a BST built from an order."""
        if self._tree is None and self.tree_parent is not None:
            from .spanning import tree_from_parents

            self._tree = tree_from_parents(self.tree_parent)
        return self._tree

    @tree.setter
    def tree(self, T: nx.Graph | None) -> None:
        self._tree = T

    # -- structure -----------------------------------------------------------------------
    @property
    def num_vertices(self) -> int:
        """``2N - 1``, the number of vertices of ``B`` (heap indices ``1 .. 2N-1``)."""
        return 2 * self.num_leaves - 1

    def leaf(self, v: int) -> int:
        """The heap index of the leaf holding vertex ``v``."""
        return int(self._leaf_of[check_vertex(v, self.n)])

    def vertex_at(self, leaf: int) -> int | None:
        """The graph vertex on heap leaf ``leaf``, or ``None`` for a dummy leaf."""
        N = self.num_leaves
        pos = check_int(leaf, "leaf", low=N, high=2 * N - 1) - N
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
        return heap_path(self.leaf(u), self.leaf(v))

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
        width = N // 2  # N is a power of two: level by level, each vertex copies its left child
        while width >= 1:
            out[width:2 * width] = out[2 * width:4 * width:2]
            width //= 2
        return out

    def cut_size(self, labels, k: int | None = None) -> int:
        """``|Phi^B|`` (or ``|Phi^B_k|``) for the propagated labels.

        Why ``|Phi^B_k| <= |Phi^P_k| log2 N <= 2 |Phi^T_k| log2 N`` (the HLP09 argument of
        §4): a left edge is never cut (the parent copies its left child).  If the right
        edge ``(p, c)`` is cut and one of the labels is ``k``, then between the leftmost leaf
        of ``p`` (label of ``p``) and the leftmost leaf of ``c`` (label of ``c``) the leaf
        sequence leaves or enters class ``k``: there is an edge of ``Phi^P_k`` between two
        consecutive leaves below ``p``.  Charge the cut to it.  Each internal vertex charges
        one edge, and an edge of ``P`` lies below at most ``log2 N`` internal vertices (the
        common ancestors of two leaves), so at most ``log2 N`` cuts are charged to it.  The
        second inequality is :func:`dfs_linearize`'s ``|Phi^P_k| <= 2 |Phi^T_k|``.

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
            k = check_int(k, "k", low=0)
            cut &= (a == k) | (b == k)
        return int(cut.sum())

    def path_cut_size(self, labels, k: int | None = None) -> int:
        """``|Phi^P|`` (or ``|Phi^P_k|``): cut edges of the path ``P`` of the leaf order.

        ``P`` joins consecutive real leaves; the dummy leaves add no edge.

        Examples
        --------
        >>> BinarySupportTree([0, 1, 2, 3]).path_cut_size([0, 1, 1, 0])   # 0|1 and 2|3
        2
        >>> BinarySupportTree([0, 1, 2, 3]).path_cut_size([0, 1, 1, 2], k=2)
        1
        """
        y = validate_labels(labels, self.n)[self.order]
        a, b = y[:-1], y[1:]
        cut = a != b
        if k is not None:
            k = check_int(k, "k", low=0)
            cut &= (a == k) | (b == k)
        return int(cut.sum())

    def __repr__(self) -> str:
        return f"BinarySupportTree(n={self.n}, num_leaves={self.num_leaves}, depth={self.depth})"
