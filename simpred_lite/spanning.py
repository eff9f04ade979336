"""Uniform random spanning trees (§4): Wilson, Aldous–Broder, Kirchhoff's count.

A spanning tree drawn *uniformly* from all spanning trees of ``G`` contains each edge
``(i, j)`` with probability exactly ``R_ij``, its effective resistance; this is what turns
the cut size of the tree into the resistance-weighted cut size in expectation
(Lemma 10).

Two samplers, both exactly uniform:

* **Wilson** (loop-erased random walks): fix a root; for each vertex not yet in the tree,
  run a random walk until it hits the tree, erase its loops, and graft the loop-erased path
  onto the tree.  Overwriting ``next[u]`` each time the walk leaves ``u`` performs the loop
  erasure implicitly.  Expected time: the mean hitting time of the root, ``O(n)`` for
  "most" graphs.
* **Aldous–Broder**: one random walk until every vertex has been visited; the edge along
  which each vertex is entered *for the first time* is its tree edge.  Expected time: the
  cover time, often ``n log n`` or more — slower, but a beautifully simple reference.

Kirchhoff's matrix-tree theorem counts the trees: ``tau(G) = det L_0``, the determinant of
the Laplacian with one row and column deleted.  :func:`count_spanning_trees` computes it
exactly in integers (fraction-free Bareiss elimination), or its logarithm from a sparse LU
factorisation — never a floating-point determinant, which overflows past ``~1.8e308`` (the
26 x 26 grid, 676 vertices, already has about ``1e322`` spanning trees).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np

from .checks import check_int, check_memory, check_random_state, check_vertex, check_work
from .graphs import edge_array, validate_graph

__all__ = [
    "EXACT_COUNT_LIMIT",
    "wilson",
    "wilson_parents",
    "wilson_arrays",
    "adjacency_arrays",
    "wilson_trace",
    "aldous_broder",
    "aldous_broder_parents",
    "sample_spanning_trees",
    "tree_from_parents",
    "count_spanning_trees",
    "edge_inclusion_frequencies",
    "loop_erase",
]

#: Largest ``n`` for which :func:`count_spanning_trees` computes the exact integer.
EXACT_COUNT_LIMIT = 400

_CHUNK = 1 << 16  # uniform draws fetched from the generator at a time


def adjacency_arrays(G: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    """CSR neighbour lists (``indptr``, ``indices``) of ``G``, neighbours sorted, weights ignored.

    The neighbours of ``v`` are ``indices[indptr[v]:indptr[v + 1]]``.  ``G`` is not validated
    here: pass a graph already checked by :func:`~simpred_lite.graphs.validate_graph`.

    Parameters
    ----------
    G : networkx.Graph
        A graph on ``0 .. n-1`` that :func:`~simpred_lite.graphs.validate_graph` accepted.

    Returns
    -------
    indptr, indices : numpy.ndarray
        int64 arrays of lengths ``n + 1`` and ``2m``.

    Examples
    --------
    >>> indptr, indices = adjacency_arrays(nx.path_graph(3))
    >>> indptr.tolist(), indices.tolist()
    ([0, 1, 3, 4], [1, 0, 2, 1])
    """
    n = G.number_of_nodes()
    E = edge_array(G)  # vectorised (and read once for a frozen graph)
    src = np.concatenate([E[:, 0], E[:, 1]])
    dst = np.concatenate([E[:, 1], E[:, 0]])
    order = np.lexsort((dst, src))  # by vertex, neighbours sorted
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order].astype(np.int64)


def wilson_arrays(indptr: np.ndarray, indices: np.ndarray, rng: np.random.Generator, root: int) -> np.ndarray:
    """Wilson's algorithm on CSR arrays (see :func:`adjacency_arrays`): the parent array.

    The array version of :func:`wilson_parents`, for callers that validated the graph
    already (validating a graph with 10^6 vertices twice costs more than the walk).  Nothing
    is checked here.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        CSR neighbour lists of a connected graph.
    rng : numpy.random.Generator
        Source of randomness (see :func:`simpred_lite.checks.check_random_state`).
    root : int
        Root of the tree, a vertex.

    Returns
    -------
    numpy.ndarray
        ``parent[v]`` in the tree, ``parent[root] = -1``.

    Examples
    --------
    >>> parent = wilson_arrays(*adjacency_arrays(nx.cycle_graph(5)), np.random.default_rng(0), 0)
    >>> int(parent[0]), int((parent >= 0).sum())
    (-1, 4)
    """
    n = indptr.size - 1
    deg = np.diff(indptr).tolist()
    start = indptr[:-1].tolist()
    idx = indices.tolist()
    in_tree = [False] * n
    nxt = [-1] * n
    in_tree[root] = True
    chunk = min(_CHUNK, 4 * n)  # small graphs draw little; the chunk doubles as needed
    draws = rng.random(chunk).tolist()
    k = 0
    for s in range(n):
        u = s
        while not in_tree[u]:  # random walk until the tree is hit; nxt keeps the last exit
            if k == chunk:
                chunk = min(_CHUNK, 2 * chunk)
                draws = rng.random(chunk).tolist()
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


def _aldous_broder_core(indptr: np.ndarray, indices: np.ndarray, rng: np.random.Generator,
                        start_vertex: int) -> np.ndarray:
    """Aldous–Broder on CSR arrays; ``parent[v]`` is the vertex the walk first entered ``v`` from."""
    n = indptr.size - 1
    deg = np.diff(indptr).tolist()
    start = indptr[:-1].tolist()
    idx = indices.tolist()
    parent = [-1] * n
    visited = [False] * n
    visited[start_vertex] = True
    remaining = n - 1
    u = start_vertex
    chunk = min(_CHUNK, 4 * n)
    draws = rng.random(chunk).tolist()
    k = 0
    while remaining:
        if k == chunk:
            chunk = min(_CHUNK, 2 * chunk)
            draws = rng.random(chunk).tolist()
            k = 0
        w = idx[start[u] + int(draws[k] * deg[u])]
        k += 1
        if not visited[w]:  # first entrance: the edge (u, w) joins the tree
            visited[w] = True
            parent[w] = u
            remaining -= 1
        u = w
    return np.asarray(parent, dtype=np.int64)


def tree_from_parents(parent) -> nx.Graph:
    """The networkx tree of a parent array (``parent[root] == -1``), on vertices ``0 .. n-1``.

    Parameters
    ----------
    parent : array_like of int
        ``parent[v]`` for each vertex, ``-1`` at the root.

    Examples
    --------
    >>> sorted(tree_from_parents([-1, 0, 0, 1]).edges)
    [(0, 1), (0, 2), (1, 3)]
    """
    parent = np.asarray(parent, dtype=np.int64)
    T = nx.Graph()
    T.add_nodes_from(range(parent.size))
    T.add_edges_from(zip(np.flatnonzero(parent >= 0).tolist(), parent[parent >= 0].tolist()))
    return T


def _walk_arrays(G: nx.Graph, seed, v: int | None, name: str):
    """``(indptr, indices, rng, v)`` for a random walk on ``G`` from ``v`` (random if ``None``)."""
    G = validate_graph(G)
    n = G.number_of_nodes()
    rng = check_random_state(seed)
    v = int(rng.integers(n)) if v is None else check_vertex(v, n, name)
    indptr, indices = adjacency_arrays(G)
    return indptr, indices, rng, v


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
    return wilson_arrays(*_walk_arrays(G, seed, root, "root"))


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

    Raises
    ------
    ValueError
        If ``G`` is disconnected (it has no spanning tree), or not a valid graph.

    Examples
    --------
    >>> T = wilson(nx.complete_graph(6), seed=1)
    >>> nx.is_tree(T), sorted(T.nodes) == list(range(6))
    (True, True)
    """
    return tree_from_parents(wilson_parents(G, seed, root))


def wilson_trace(G: nx.Graph, seed, root: int | None = None) -> tuple[np.ndarray, list[dict]]:
    """Wilson's algorithm step by step, with explicit loop erasure (the plain reference).

    Uses the same random draws as :func:`wilson_parents`, so with the same seed it returns the
    same tree — a check that overwriting ``next[u]`` really is chronological loop erasure.

    Parameters
    ----------
    G : networkx.Graph
    seed : int or numpy.random.Generator
    root : int, optional
        The root (random by default).

    Returns
    -------
    parent : numpy.ndarray
        The tree, as in :func:`wilson_parents`.
    steps : list of dict
        One entry per walk, with keys ``"start"``, ``"walk"`` (the raw random walk, from the
        start until it hits the tree) and ``"path"`` (its loop erasure, grafted onto the tree).

    Examples
    --------
    >>> parent, steps = wilson_trace(nx.cycle_graph(5), seed=0, root=0)
    >>> parent.tolist() == wilson_parents(nx.cycle_graph(5), seed=0, root=0).tolist()
    True
    >>> all(s["walk"][0] == s["path"][0] and s["walk"][-1] == s["path"][-1] for s in steps)
    True
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    rng = check_random_state(seed)
    root = int(rng.integers(n)) if root is None else check_vertex(root, n, "root")
    indptr, indices = adjacency_arrays(G)
    chunk = min(_CHUNK, 4 * n)  # the same draws as wilson_arrays
    draws, k = rng.random(chunk).tolist(), 0
    in_tree = [False] * n
    in_tree[root] = True
    parent = np.full(n, -1, dtype=np.int64)
    steps = []
    for s in range(n):
        if in_tree[s]:
            continue
        walk = [s]
        while not in_tree[walk[-1]]:
            if k == chunk:
                chunk = min(_CHUNK, 2 * chunk)
                draws, k = rng.random(chunk).tolist(), 0
            u = walk[-1]
            deg = int(indptr[u + 1] - indptr[u])
            walk.append(int(indices[indptr[u] + int(draws[k] * deg)]))
            k += 1
        path = loop_erase(walk)  # chronological: on revisiting v, cut the loop back to v
        for a, b in zip(path[:-1], path[1:]):
            parent[a] = b
            in_tree[a] = True
        steps.append({"start": s, "walk": walk, "path": path})
    return parent, steps


def aldous_broder_parents(G: nx.Graph, seed, start: int | None = None) -> np.ndarray:
    """Aldous–Broder's algorithm, returning the tree as a parent array (``parent[start] == -1``).

    Parameters
    ----------
    G, seed, start
        As in :func:`aldous_broder`.

    Examples
    --------
    >>> parent = aldous_broder_parents(nx.path_graph(4), seed=0, start=0)
    >>> parent.tolist()   # a path has one spanning tree: itself
    [-1, 0, 1, 2]
    """
    return _aldous_broder_core(*_walk_arrays(G, seed, start, "start"))


def aldous_broder(G: nx.Graph, seed, start: int | None = None) -> nx.Graph:
    """A uniformly random spanning tree of ``G`` by the Aldous–Broder random walk.

    The walk starts at ``start`` (uniform when omitted) and runs until it has visited every
    vertex; each vertex other than ``start`` keeps the edge by which it was first entered.

    Parameters
    ----------
    G : networkx.Graph
    seed : int or numpy.random.Generator
    start : int, optional
        Where the walk starts (random by default).

    Examples
    --------
    >>> T = aldous_broder(nx.complete_graph(6), seed=1)
    >>> nx.is_tree(T), T.number_of_nodes()
    (True, 6)
    """
    return tree_from_parents(aldous_broder_parents(G, seed, start))


def sample_spanning_trees(G: nx.Graph, samples: int, seed, method: str = "wilson") -> np.ndarray:
    """``samples`` independent uniform spanning trees as rows of parent arrays.

    The graph is validated and converted to arrays once, so drawing many trees of a small
    graph costs little more than the walks themselves.  Each tree's root is uniform.

    Parameters
    ----------
    G : networkx.Graph
    samples : int
        Number of trees, ``>= 1``.
    seed : int or numpy.random.Generator
    method : {"wilson", "aldous_broder"}

    Returns
    -------
    numpy.ndarray
        Shape ``(samples, n)``; row ``s`` is the parent array of tree ``s`` (``-1`` at its root).

    Examples
    --------
    >>> P = sample_spanning_trees(nx.cycle_graph(4), 3, seed=0)
    >>> P.shape, [int((row == -1).sum()) for row in P]
    ((3, 4), [1, 1, 1])
    """
    G = validate_graph(G)
    samples = check_int(samples, "samples", low=1)
    cores = {"wilson": wilson_arrays, "aldous_broder": _aldous_broder_core}
    if method not in cores:
        raise ValueError(f"method must be 'wilson' or 'aldous_broder', got {method!r}")
    core = cores[method]
    rng = check_random_state(seed)
    n = G.number_of_nodes()
    indptr, indices = adjacency_arrays(G)
    check_memory(8.0 * samples * n, f"sample_spanning_trees: a {samples} x {n} int64 array of parent arrays",
                 "draw fewer samples (standard errors shrink like 1/sqrt(samples): 10**4 is plenty), or loop over "
                 "wilson(G, seed=rng) and keep only what you need")
    check_work(float(samples) * n, f"sample_spanning_trees: {samples} random walks on n={n} vertices",
               "draw fewer samples (10**4 is plenty for frequencies to 1%)")
    out = np.empty((samples, n), dtype=np.int64)
    for s in range(samples):
        out[s] = core(indptr, indices, rng, int(rng.integers(n)))
    return out


def edge_inclusion_frequencies(G: nx.Graph, samples: int, seed, method: str = "wilson") -> np.ndarray:
    """The fraction of ``samples`` uniform spanning trees that contain each edge.

    For a uniform tree ``P(e in T) = R_e``, so this Monte Carlo estimate converges to the
    effective resistances of the edges, with standard error ``sqrt(R_e (1 - R_e) / samples)``.

    Parameters
    ----------
    G : networkx.Graph
    samples : int
    seed : int or numpy.random.Generator
    method : {"wilson", "aldous_broder"}

    Returns
    -------
    numpy.ndarray
        One frequency per edge, in the order of :func:`simpred_lite.resistance.edge_list`
        (edges ``(u, v)``, ``u < v``, sorted).  The frequencies sum to ``n - 1``.

    Examples
    --------
    >>> f = edge_inclusion_frequencies(nx.cycle_graph(4), 2000, seed=0)
    >>> float(f.sum()), bool(abs(f[0] - 0.75) < 0.05)     # R_e = 3/4 on C_4
    (3.0, True)
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    P = sample_spanning_trees(G, samples, seed, method)
    keys = np.array(sorted(min(u, v) * n + max(u, v) for u, v in G.edges), dtype=np.int64)
    child = np.broadcast_to(np.arange(n), P.shape)[P >= 0]
    par = P[P >= 0]
    found = np.searchsorted(keys, np.minimum(child, par) * n + np.maximum(child, par))
    return np.bincount(found, minlength=keys.size) / P.shape[0]


def _bareiss_det(M: np.ndarray) -> int:
    """Exact determinant of an integer matrix by fraction-free (Bareiss) elimination."""
    A = np.array(M, dtype=object)
    size = A.shape[0]
    sign, prev = 1, 1
    for k in range(size - 1):
        if A[k, k] == 0:  # pivot: swap in a row with a nonzero entry in column k
            nz = [r for r in range(k + 1, size) if A[r, k] != 0]
            if not nz:
                return 0
            A[[k, nz[0]]] = A[[nz[0], k]]
            sign = -sign
        # every entry of the update is divisible by prev (Sylvester's identity): exact //
        A[k + 1 :, k + 1 :] = (A[k + 1 :, k + 1 :] * A[k, k] - np.outer(A[k + 1 :, k], A[k, k + 1 :])) // prev
        prev = A[k, k]
    return sign * int(A[size - 1, size - 1]) if size else 1


def count_spanning_trees(G: nx.Graph, *, log: bool = False):
    """Kirchhoff's count of the spanning trees of ``G``: exactly, or its natural logarithm.

    By the matrix-tree theorem the count is ``det L_0``, ``L_0`` the Laplacian with the row and
    column of one vertex deleted (here vertex 0).

    Parameters
    ----------
    G : networkx.Graph
        Connected, undirected, simple (weights ignored).
    log : bool, default False
        ``False``: return the exact count as a Python ``int`` (fraction-free integer
        elimination, ``O(n^3)``; only for ``n <= EXACT_COUNT_LIMIT``).  ``True``: return
        ``ln(count)`` as a float, the sum of the logs of the pivots of a sparse LU
        factorisation of ``L_0`` — no overflow at any size.

    Returns
    -------
    int or float

    Examples
    --------
    >>> count_spanning_trees(nx.complete_graph(4))          # Cayley: n^(n-2)
    16
    >>> from simpred_lite.graphs import grid_graph
    >>> count_spanning_trees(grid_graph(3, 3)[0])
    192
    >>> import math
    >>> round(count_spanning_trees(nx.complete_graph(50), log=True) / math.log(50), 6)   # 50^48
    48.0
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    if n == 1:
        return 0.0 if log else 1
    from .resistance import laplacian  # local import: resistance imports nothing from here

    L0 = laplacian(G)[1:, 1:].tocsc()
    if log:
        import scipy.sparse.linalg as spla  # loaded on first use: `import simpred_lite` stays light

        lu = spla.splu(L0, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0)
        return float(np.sum(np.log(np.abs(lu.U.diagonal()))))
    if n > EXACT_COUNT_LIMIT:
        raise ValueError(
            f"the exact count needs O(n^3) big-integer operations and n={n} exceeds "
            f"EXACT_COUNT_LIMIT={EXACT_COUNT_LIMIT}; use count_spanning_trees(G, log=True) for "
            "the natural logarithm of the count"
        )
    return _bareiss_det(np.rint(L0.toarray()).astype(np.int64))


def loop_erase(walk: Sequence[int]) -> list[int]:
    """Chronological loop erasure of a walk: the simple path it leaves behind.

    Walking along, every return to a vertex ``v`` erases the loop back to ``v`` (the
    construction of Wilson's algorithm, and of the random-walk paths of §5).

    Parameters
    ----------
    walk : sequence of int
        The vertices visited, in order.

    Returns
    -------
    list of int

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
