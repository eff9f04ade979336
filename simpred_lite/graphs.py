"""Graphs and labelings: validation, generators, cut edges and a bundled dataset.

The paper's graphs are undirected, connected, simple and **unweighted**, with vertices
``0 .. n-1`` here (the paper counts from 1).  Every function of the package that takes a
networkx graph checks this with :func:`validate_graph` and ignores edge weights: a graph
such as networkx's karate club carries a ``weight`` attribute that
``nx.laplacian_matrix`` would silently use, so the package never reads it.

A *labeling* is a numpy integer array ``labels`` of length ``n`` with ``labels[v]`` the
class of vertex ``v`` in ``0 .. K-1``.  Two vertices are *similar* (``y = 0``) when they
share a class and *dissimilar* (``y = 1``) otherwise.
"""

from __future__ import annotations

import itertools
import weakref

import networkx as nx
import numpy as np

from .checks import (
    check_graph_memory,
    check_int,
    check_labels,
    check_probability,
    check_random_state,
    check_vertex,
    check_work,
    is_integer,
)

__all__ = [
    "validate_graph",
    "frozen_copy",
    "edge_array",
    "validate_labels",
    "planted_partition",
    "grid_graph",
    "barbell_graph",
    "karate_club",
    "cut_edges",
    "cut_size",
    "similarity_label",
]


#: Frozen graphs that passed :func:`validate_graph`: nothing can have changed them since, so a
#: later check returns at once (a large graph is validated once, then passed down).
_VALIDATED: weakref.WeakSet = weakref.WeakSet()


#: The edge arrays of frozen graphs (see :func:`edge_array`), computed once per graph.
_EDGES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def edge_array(G: nx.Graph) -> np.ndarray:
    """The edges of ``G`` as an ``(m, 2)`` int64 array, in ``G.edges`` order; kept for a frozen graph.

    The one place the package turns a large graph's edges into numpy: connectivity, cut
    sizes and adjacency arrays are then vectorised, and a frozen graph (which cannot change)
    is read once.  ``G`` must have the integer vertices ``0 .. n-1`` (not checked here).  The
    adjacency is read by C-level iteration (each vertex's neighbours in turn) and an edge kept
    at the endpoint that comes first in ``G.nodes`` order, which is how ``G.edges`` lists it.

    Parameters
    ----------
    G : networkx.Graph
        A graph on ``0 .. n-1``.

    Examples
    --------
    >>> edge_array(nx.path_graph(3)).tolist()
    [[0, 1], [1, 2]]
    """
    E = _EDGES.get(G) if nx.is_frozen(G) else None
    if E is None:
        if G.is_directed() or G.is_multigraph():  # not the package's graphs: networkx's own order
            E = np.fromiter(itertools.chain.from_iterable(G.edges()), dtype=np.int64).reshape(-1, 2)
        else:
            E = _undirected_edges(G)
        if nx.is_frozen(G):
            _EDGES[G] = E
    return E


def _undirected_edges(G: nx.Graph) -> np.ndarray:
    """``G.edges`` of a simple undirected graph on ``0 .. n-1`` as an array, without a Python loop per edge."""
    adj = G._adj
    n = len(adj)
    nodes = np.fromiter(adj, dtype=np.int64, count=n)
    deg = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
    ends = np.fromiter(itertools.chain.from_iterable(adj.values()), dtype=np.int64, count=int(deg.sum()))
    starts = np.repeat(nodes, deg)
    order = np.empty(n, dtype=np.int64)
    order[nodes] = np.arange(n)
    keep = order[ends] >= order[starts]  # listed from the endpoint first in node order (a self-loop once)
    return np.stack([starts[keep], ends[keep]], axis=1)


def _integer_vertices(G: nx.Graph, n: int) -> bool:
    """Are the vertices exactly the integers ``0 .. n-1`` (no floats, no bools)?"""
    if set(map(type, G._node)) == {int}:  # the common case, checked without a Python loop per vertex
        try:
            nodes = np.fromiter(G._node, dtype=np.int64, count=n)
        except OverflowError:
            return False
        return bool(nodes.min() >= 0 and nodes.max() < n)  # n distinct integers in [0, n)
    # 0.0 == 0 and True == 1 in Python: a set comparison alone would accept float or bool nodes
    return set(G.nodes) == set(range(n)) and all(is_integer(v) for v in G.nodes)


def validated_view(G) -> nx.Graph:
    """A frozen, validated *view* of ``G`` for the length of one call: no copy of the graph.

    :func:`validate_graph` with ``freeze=True`` copies the graph, so that an object that keeps
    it is safe from later edits of the caller's graph.  A call that keeps nothing (such as
    :func:`~simpred_lite.game.evaluation.evaluate`, whose result holds numbers only) needs no
    copy: a frozen view shares ``G``'s dictionaries, is validated once, and passes every later
    check inside the call at once.  Give it back with :func:`release_view` when the call ends
    (from then on ``G`` may change, so the view must be checked again).  A graph that is
    already frozen, or whose type is not exactly ``networkx.Graph``, goes through
    :func:`validate_graph` with ``freeze=True`` as before.

    Parameters
    ----------
    G : networkx.Graph

    Returns
    -------
    networkx.Graph
        A frozen graph sharing ``G``'s vertices and edges.

    Raises
    ------
    TypeError, ValueError
        As :func:`validate_graph`.

    Examples
    --------
    >>> G = nx.path_graph(4)
    >>> V = validated_view(G)
    >>> nx.is_frozen(V), validate_graph(V) is V, V.number_of_edges()
    (True, True, 3)
    >>> release_view(V, G)
    """
    if type(G) is nx.Graph and not nx.is_frozen(G):  # (a subclass may need arguments to be built)
        return validate_graph(nx.freeze(nx.graphviews.generic_graph_view(G)))
    return validate_graph(G, freeze=True)


def release_view(view: nx.Graph, G) -> None:
    """End the call of :func:`validated_view`: forget that ``view`` was validated and its edge array.

    Parameters
    ----------
    view : networkx.Graph
        What :func:`validated_view` returned for ``G``.
    G : the graph it was made from (nothing is done when ``view`` is not a view of ``G``).

    Examples
    --------
    >>> G = nx.path_graph(3); V = validated_view(G); release_view(V, G); V in _VALIDATED
    False
    """
    if view is not G and getattr(view, "_graph", None) is G:
        _VALIDATED.discard(view)
        _EDGES.pop(view, None)


def _is_connected(G: nx.Graph, n: int, integer_vertices: bool) -> bool:
    if not integer_vertices or n < 1000:
        return nx.is_connected(G)
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    E = edge_array(G)
    A = coo_matrix((np.ones(len(E), dtype=np.int8), (E[:, 0], E[:, 1])), shape=(n, n))
    return connected_components(A, directed=False, return_labels=False) == 1


def validate_graph(G, *, relabel: bool = False, freeze: bool = False) -> nx.Graph:
    """Check that ``G`` is a graph the paper's algorithms accept, and return it.

    The paper needs a finite, undirected, simple, connected graph on the vertices
    ``0 .. n-1``.  Edge weights are ignored everywhere in this package.

    Parameters
    ----------
    G : networkx.Graph
        The graph to check.
    relabel : bool, default False
        If the vertices are not ``0 .. n-1``, return a relabelled copy (vertices in
        sorted order when they are sortable, insertion order otherwise; the old name is
        kept in the node attribute ``"label"``) instead of raising.
    freeze : bool, default False
        Return a frozen copy (:func:`frozen_copy`).  A frozen graph that passed this check
        is remembered: checking it again returns at once, so a large graph validated once
        can be passed down to every function that validates its input.

    Returns
    -------
    networkx.Graph
        ``G`` itself, its relabelled copy when ``relabel=True`` was needed, or a frozen copy
        with ``freeze=True``.

    Raises
    ------
    TypeError
        If ``G`` is not a networkx graph.
    ValueError
        If ``G`` is directed, a multigraph, empty, has a self-loop, is disconnected, or
        (without ``relabel``) its vertices are not the integers ``0 .. n-1`` (floats such
        as ``0.0`` and bools are refused).

    Examples
    --------
    >>> import networkx as nx
    >>> G = validate_graph(nx.path_graph(4))
    >>> sorted(G.nodes)
    [0, 1, 2, 3]
    >>> H = validate_graph(nx.Graph([("a", "b"), ("b", "c")]), relabel=True)
    >>> sorted(H.nodes), H.nodes[0]["label"]
    ([0, 1, 2], 'a')
    >>> F = validate_graph(nx.path_graph(4), freeze=True)
    >>> nx.is_frozen(F), validate_graph(F) is F     # the second check returns at once
    (True, True)
    """
    if not isinstance(G, nx.Graph):
        raise TypeError(
            f"expected a networkx.Graph, got {type(G).__name__}; build one with "
            "networkx, e.g. nx.Graph(edge_list)"
        )
    if not isinstance(relabel, (bool, np.bool_)):
        raise TypeError(f"relabel must be True or False, got {relabel!r}")
    if not isinstance(freeze, (bool, np.bool_)):
        raise TypeError(f"freeze must be True or False, got {freeze!r}")
    if nx.is_frozen(G) and G in _VALIDATED:  # checked before, and frozen since
        return G
    if freeze and not nx.is_frozen(G) and not relabel and isinstance(G, nx.Graph) and not G.is_directed() \
            and not G.is_multigraph():
        G = frozen_copy(G)  # check the copy: its edge array (edge_array) is then read once, and kept
    if G.is_directed():
        raise ValueError(
            "the graph is directed, but similarity prediction needs an undirected graph; "
            "convert it with G.to_undirected()"
        )
    if G.is_multigraph():
        raise ValueError(
            "the graph is a multigraph (parallel edges), but the paper's graphs are simple; "
            "convert it with nx.Graph(G)"
        )
    n = G.number_of_nodes()
    if n == 0:
        raise ValueError("the graph is empty; it needs at least one vertex")
    integer_vertices = _integer_vertices(G, n)
    if integer_vertices and n >= 1000:  # from the edge array the connectivity check reads anyway
        E = edge_array(G)
        loops = [(u, u) for u in E[E[:, 0] == E[:, 1], 0].tolist()]
    else:
        loops = list(nx.selfloop_edges(G))
    if loops:
        raise ValueError(
            f"the graph has {len(loops)} self-loop(s), e.g. at vertex {loops[0][0]!r}; "
            "remove them with G.remove_edges_from(list(nx.selfloop_edges(G)))"
        )
    if not _is_connected(G, n, integer_vertices):  # vectorised on large graphs with vertices 0..n-1
        k = nx.number_connected_components(G)
        raise ValueError(
            f"the graph is disconnected ({k} connected components); the paper assumes a "
            "connected graph: add edges between the components or keep the largest one, "
            "e.g. G.subgraph(max(nx.connected_components(G), key=len)).copy()"
        )
    if not integer_vertices:
        if not relabel:
            example = next(v for v in G.nodes if not (is_integer(v) and 0 <= v < n))
            raise ValueError(
                f"vertices must be the integers 0..{n - 1}, but the graph has vertex "
                f"{example!r} ({type(example).__name__}); pass relabel=True (or use "
                "nx.convert_node_labels_to_integers)"
            )
        try:
            ordering = "sorted"
            sorted(G.nodes)
        except TypeError:
            ordering = "default"
        G = nx.convert_node_labels_to_integers(G, ordering=ordering, label_attribute="label")
    if freeze and not nx.is_frozen(G):
        G = frozen_copy(G)
    if nx.is_frozen(G):
        _VALIDATED.add(G)
    return G


def frozen_copy(G: nx.Graph) -> nx.Graph:
    """A frozen copy of ``G``'s vertices, edges and graph attributes: what an object keeps of a graph.

    Learners and :class:`~simpred_lite.datasets.LabelledGraph` keep this copy instead of the
    caller's graph, so that editing the caller's graph afterwards changes nothing they
    compute, and editing the copy raises ``NetworkXError: Frozen graph can't be modified``.

    Parameters
    ----------
    G : networkx.Graph

    Returns
    -------
    networkx.Graph
        Frozen (:func:`networkx.freeze`), same vertex order, edges and ``G.graph`` dict
        (copied) as ``G``; vertex and edge attributes are not kept.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(3); H = frozen_copy(G); G.add_edge(0, 2)
    >>> H.number_of_edges(), nx.is_frozen(H)
    (2, True)
    """
    H = nx.Graph()
    H.graph.update(G.graph)  # graph-level facts (its name, edges added to connect it, ...)
    H.add_nodes_from(G.nodes)
    H.add_edges_from(G.edges)
    H = nx.freeze(H)
    if G in _VALIDATED:  # a copy of a validated frozen graph needs no new check
        _VALIDATED.add(H)
    return H


def validate_labels(labels, n: int, *, num_classes: int | None = None) -> np.ndarray:
    """Check a labeling where graphs are validated: :func:`simpred_lite.checks.check_labels`.

    Parameters
    ----------
    labels, n, num_classes
        As in :func:`~simpred_lite.checks.check_labels` (``labels[v]`` is the class of ``v``).

    Returns
    -------
    numpy.ndarray
        A fresh int64 copy of the labels.

    Examples
    --------
    >>> validate_labels([0, 1, 1], 3)
    array([0, 1, 1])
    """
    return check_labels(labels, n, num_classes)


def planted_partition(n: int, K: int, p_in: float, p_out: float, seed) -> tuple[nx.Graph, np.ndarray]:
    """A connected planted-partition (stochastic block model) graph and its classes.

    Vertices are split into ``K`` contiguous blocks whose sizes differ by at most one;
    each pair inside a block is an edge with probability ``p_in``, each pair across blocks
    with probability ``p_out``.  If the draw is disconnected, each extra component is
    joined to the largest one by a single edge between two vertices *of the same class*
    where possible, so the cut is unchanged by the repair.

    Parameters
    ----------
    n, K : int
        Number of vertices and of classes, ``2 <= K <= n``.
    p_in, p_out : float
        Edge probabilities within and across classes, in ``[0, 1]``.
    seed : int or numpy.random.Generator
        Source of randomness.

    Returns
    -------
    G : networkx.Graph
        Connected, unweighted, vertices ``0 .. n-1``.
    labels : numpy.ndarray
        The class of each vertex, ``0 .. K-1``.

    Raises
    ------
    TypeError
        If ``n`` or ``K`` is not an integer, ``p_in`` / ``p_out`` not a number, or
        ``seed`` not an int or Generator.
    ValueError
        If ``K < 2``, ``K > n``, a probability is outside ``[0, 1]`` or ``seed`` is negative;
        if the ``n(n-1)/2`` pair draws exceed :data:`~simpred_lite.checks.WORK_LIMIT` (about
        ``n = 140000``) or the expected graph :data:`~simpred_lite.checks.MEMORY_LIMIT`.

    Examples
    --------
    >>> G, labels = planted_partition(30, 3, 0.5, 0.02, seed=0)
    >>> G.number_of_nodes(), sorted(set(labels.tolist()))
    (30, [0, 1, 2])
    >>> import networkx as nx; nx.is_connected(G)
    True
    """
    n = check_int(n, "n", low=2)
    K = check_int(K, "K", low=2, high=n)
    p_in = check_probability(p_in, "p_in")
    p_out = check_probability(p_out, "p_out")
    rng = check_random_state(seed)
    sizes = np.array([n // K + (k < n % K) for k in range(K)], dtype=float)
    pairs_in = float((sizes * (sizes - 1) / 2).sum())
    pairs = n * (n - 1) / 2
    alternative = ("use a smaller n (the draw looks at every pair); for a large sparse graph with planted classes, "
                   "networkx's nx.stochastic_block_model(sizes, p, sparse=True) or a kNN graph of features")
    check_work(pairs, f"planted_partition(n={n}): n(n-1)/2 pair draws", alternative)
    check_graph_memory(n, p_in * pairs_in + p_out * (pairs - pairs_in), f"planted_partition(n={n}, ...)", alternative)
    labels = np.repeat(np.arange(K), [n // K + (k < n % K) for k in range(K)]).astype(np.int64)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for i in range(n - 1):
        j = np.arange(i + 1, n)
        prob = np.where(labels[j] == labels[i], p_in, p_out)
        G.add_edges_from((i, int(v)) for v in j[rng.random(j.size) < prob])
    comps = sorted(nx.connected_components(G), key=lambda c: (-len(c), min(c)))
    main = np.array(sorted(comps[0]))
    for comp in comps[1:]:
        comp = np.array(sorted(comp))
        u = int(comp[rng.integers(comp.size)])
        same = main[labels[main] == labels[u]]
        pool = same if same.size else main
        G.add_edge(u, int(pool[rng.integers(pool.size)]))
        main = np.union1d(main, comp)
    return G, labels


def grid_graph(rows: int, cols: int, K: int = 2) -> tuple[nx.Graph, np.ndarray]:
    """A ``rows x cols`` grid with ``K`` classes in vertical bands.

    Vertex ``r * cols + c`` sits at row ``r``, column ``c``; its class is
    ``c * K // cols``.  The grid is the classic graph with a *large* resistance diameter.

    Parameters
    ----------
    rows, cols : int
        The grid's size (``rows * cols >= 2`` vertices).
    K : int, default 2
        Number of classes, in vertical bands.

    Raises
    ------
    ValueError
        If the graph would exceed :data:`~simpred_lite.checks.MEMORY_LIMIT`
        (:func:`~simpred_lite.checks.check_graph_memory`: about 2 million vertices).

    Examples
    --------
    >>> G, labels = grid_graph(3, 4)
    >>> G.number_of_nodes(), cut_size(G, labels)
    (12, 3)
    """
    rows = check_int(rows, "rows", low=1)
    cols = check_int(cols, "cols", low=1)
    if rows * cols < 2:
        raise ValueError(f"the grid needs at least two vertices, got {rows}x{cols}; use e.g. grid_graph(1, 2)")
    K = check_int(K, "K", low=1, high=cols)
    check_graph_memory(rows * cols, rows * (cols - 1) + (rows - 1) * cols, f"grid_graph({rows}, {cols})",
                       "use a smaller grid (at most about 2 million vertices)")
    G = nx.grid_2d_graph(rows, cols)
    G = nx.relabel_nodes(G, {(r, c): r * cols + c for r, c in G.nodes})
    G = nx.Graph(sorted((min(e), max(e)) for e in G.edges))
    labels = np.array([(v % cols) * K // cols for v in range(rows * cols)], dtype=np.int64)
    return G, labels


def barbell_graph(clique_size: int, path_length: int = 0) -> tuple[nx.Graph, np.ndarray]:
    """Two cliques joined by a path, labelled by side: the textbook dense-cluster graph.

    Vertices ``0 .. clique_size-1`` form the first clique, the next ``path_length``
    vertices the bridge, the rest the second clique.  The first half of the bridge (and
    the first clique) is class 0; the rest class 1, so exactly one edge is cut.

    Parameters
    ----------
    clique_size : int
        Vertices of each clique, at least 2.
    path_length : int, default 0
        Vertices of the path between the cliques.

    Examples
    --------
    Two 5-cliques and a 2-vertex bridge; the one cut edge is on the bridge:

    >>> G, labels = barbell_graph(5, 2)
    >>> G.number_of_nodes(), cut_size(G, labels)
    (12, 1)
    """
    clique_size = check_int(clique_size, "clique_size", low=2)
    path_length = check_int(path_length, "path_length", low=0)
    check_graph_memory(2 * clique_size + path_length, clique_size * (clique_size - 1) + path_length + 1,
                       f"barbell_graph({clique_size}, {path_length})",
                       "use smaller cliques (the two cliques have c(c-1) edges: c = 1000 is already 10^6 edges)")
    G = nx.barbell_graph(clique_size, path_length)
    n = G.number_of_nodes()
    half = clique_size + (path_length + 1) // 2
    labels = (np.arange(n) >= half).astype(np.int64)
    return nx.Graph(G.edges), labels


def karate_club() -> tuple[nx.Graph, np.ndarray]:
    """Zachary's karate club (34 members, 78 ties) with its two factions as labels.

    The copy shipped with networkx carries edge weights (number of shared activities);
    they are dropped here, because the paper's graphs are unweighted.  Label 0 is
    ``"Mr. Hi"``'s faction, label 1 the ``"Officer"``'s.

    Examples
    --------
    >>> G, labels = karate_club()
    >>> G.number_of_nodes(), G.number_of_edges(), int(labels.sum())
    (34, 78, 17)
    """
    K = nx.karate_club_graph()
    G = nx.Graph()
    G.add_nodes_from(range(K.number_of_nodes()))
    G.add_edges_from(K.edges)  # edges only: the "weight" attribute is deliberately dropped
    labels = np.array([0 if K.nodes[v]["club"] == "Mr. Hi" else 1 for v in range(K.number_of_nodes())], dtype=np.int64)
    return G, labels


def similarity_label(labels, i: int, j: int) -> int:
    """``1`` if vertices ``i`` and ``j`` are in different classes (dissimilar), else ``0``.

    Parameters
    ----------
    labels : array_like of int
        The class of each vertex.
    i, j : int
        Two vertices.

    Examples
    --------
    >>> similarity_label([0, 0, 1], 0, 2)
    1
    """
    n = len(labels)
    return int(labels[check_vertex(i, n, "vertex i")] != labels[check_vertex(j, n, "vertex j")])


def cut_edges(G: nx.Graph, labels, k: int | None = None) -> list[tuple[int, int]]:
    """The cut edges ``Phi^G`` (or ``Phi^G_k``): edges joining vertices of different classes.

    Parameters
    ----------
    G : networkx.Graph
        A validated graph (see :func:`validate_graph`).
    labels : array_like of int
        Class of each vertex.
    k : int, optional
        If given, only the cut edges with an endpoint in class ``k``.  A class that no
        vertex has gives an empty list, not an error: a labeling with ``K`` classes may
        leave some class empty, and ``sum(cut_size(G, y, k) for k in range(K))`` must still
        work.  So check ``k in set(labels)`` yourself if an empty class means a typo.

    Returns
    -------
    list of (int, int)
        Edges ``(u, v)`` with ``u < v``, sorted.

    Raises
    ------
    TypeError
        If ``k`` is not an integer.
    ValueError
        If ``G`` or ``labels`` is invalid, or ``k`` is negative.

    Examples
    --------
    >>> import networkx as nx
    >>> cut_edges(nx.path_graph(4), [0, 0, 1, 2])
    [(1, 2), (2, 3)]
    >>> cut_edges(nx.path_graph(4), [0, 0, 1, 2], k=0)
    [(1, 2)]
    """
    E = _cut_array(G, labels, k)
    return list(map(tuple, E.tolist()))


def _cut_array(G, labels, k) -> np.ndarray:
    """The cut edges as a sorted ``(c, 2)`` array of ``(u, v)``, ``u < v`` (vectorised)."""
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    if k is not None:
        k = check_int(k, "k", low=0)
    E = edge_array(G)
    a, b = y[E[:, 0]], y[E[:, 1]]
    keep = a != b
    if k is not None:
        keep &= (a == k) | (b == k)
    C = np.sort(E[keep], axis=1)
    return C[np.lexsort((C[:, 1], C[:, 0]))]


def cut_size(G: nx.Graph, labels, k: int | None = None) -> int:
    """The cut size ``|Phi^G|``, or ``|Phi^G_k|`` for class ``k``.

    Note ``sum_k |Phi^G_k| = 2 |Phi^G|``: every cut edge touches two classes.  Like
    :func:`cut_edges`, a class no vertex has gives ``0`` (see there).

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
        The class of each vertex.
    k : int, optional
        Count only the cut edges touching class ``k`` (``|Phi_k|``).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(6); y = [0, 0, 1, 1, 2, 2]
    >>> cut_size(G, y), [cut_size(G, y, k) for k in range(3)]
    (3, [2, 2, 2])
    >>> cut_size(G, y, k=5)     # no vertex in class 5: an empty cut, not an error
    0
    """
    return int(len(_cut_array(G, labels, k)))
