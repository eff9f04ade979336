"""Uniform random spanning trees (§4): Wilson's algorithm.

A spanning tree drawn *uniformly* from all spanning trees of ``G`` contains each edge
``(i, j)`` with probability exactly ``R_ij``, its effective resistance; this is what turns
the cut size of the tree into the resistance-weighted cut size in expectation
(Lemma l:expected).

Wilson's algorithm: fix a root; for each vertex not yet in the tree, run a random walk
until it hits the tree, erase its loops, and graft the loop-erased path onto the tree.
Overwriting ``next[u]`` each time the walk leaves ``u`` performs the loop erasure
implicitly.  The resulting tree is uniform, whatever the root and the order of starts.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .graphs import _rng, validate_graph

__all__ = ["wilson"]

_CHUNK = 1 << 16  # uniform draws fetched from the generator at a time


def _adjacency_arrays(G: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    """CSR neighbour lists (``indptr``, ``indices``), neighbours sorted, weights ignored."""
    n = G.number_of_nodes()
    deg = np.fromiter((G.degree(v) for v in range(n)), dtype=np.int64, count=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(deg, out=indptr[1:])
    indices = np.empty(indptr[-1], dtype=np.int64)
    for v in range(n):
        indices[indptr[v] : indptr[v + 1]] = sorted(G.adj[v])
    return indptr, indices


def wilson_parents(G: nx.Graph, seed, root: int | None = None) -> np.ndarray:
    """Wilson's algorithm, returning the tree as a parent array (``parent[root] == -1``).

    Parameters
    ----------
    G : networkx.Graph
        Connected, undirected, simple graph on ``0 .. n-1``.
    seed : int or numpy.random.Generator
    root : int, optional
        Root of the tree; drawn uniformly with the generator when omitted.

    Examples
    --------
    >>> parent = wilson_parents(nx.cycle_graph(5), seed=0, root=0)
    >>> int(parent[0]), int((parent >= 0).sum())
    (-1, 4)
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    rng = _rng(seed)
    if root is None:
        root = int(rng.integers(n))
    elif not (isinstance(root, (int, np.integer)) and 0 <= root < n):
        raise ValueError(f"root {root!r} is not a vertex of the graph (0..{n - 1})")
    indptr, indices = _adjacency_arrays(G)
    deg = np.diff(indptr).tolist()
    start = indptr[:-1].tolist()
    idx = indices.tolist()
    in_tree = [False] * n
    nxt = [-1] * n
    in_tree[root] = True
    draws = rng.random(_CHUNK).tolist()
    k = 0
    for s in range(n):
        u = s
        while not in_tree[u]:  # random walk until the tree is hit; nxt keeps the last exit
            if k == _CHUNK:
                draws = rng.random(_CHUNK).tolist()
                k = 0
            nxt[u] = idx[start[u] + int(draws[k] * deg[u])]
            k += 1
            u = nxt[u]
        u = s
        while not in_tree[u]:  # graft the loop-erased path
            in_tree[u] = True
            u = nxt[u]
    parent = np.asarray(nxt, dtype=np.int64)
    parent[root] = -1
    return parent


def wilson(G: nx.Graph, seed, root: int | None = None) -> nx.Graph:
    """A uniformly random spanning tree of ``G`` by Wilson's algorithm.

    Parameters
    ----------
    G : networkx.Graph
        Connected, undirected, simple graph on ``0 .. n-1`` (weights ignored).
    seed : int or numpy.random.Generator
    root : int, optional
        Root used by the algorithm (does not affect the distribution).

    Returns
    -------
    networkx.Graph
        A tree on the same vertices.

    Examples
    --------
    >>> T = wilson(nx.complete_graph(6), seed=1)
    >>> nx.is_tree(T), sorted(T.nodes) == list(range(6))
    (True, True)
    """
    parent = wilson_parents(G, seed, root)
    T = nx.Graph()
    T.add_nodes_from(range(parent.size))
    T.add_edges_from((int(v), int(p)) for v, p in enumerate(parent) if p >= 0)
    return T
