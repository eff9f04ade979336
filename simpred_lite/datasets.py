"""The named labelled graphs of the suite, and real ones bundled with its dependencies (no download).

:data:`GRAPHS` is the one place that names the bundled graphs: the small teaching graphs the
playground offers (a planted partition, a grid, a barbell) and the real graphs of
:data:`DATASETS` (the karate club, kNN graphs of scikit-learn's tables, ...), each a
:class:`GraphSpec` (``factory(seed) -> (G, labels)``, a description, optionally a layout).
:func:`load_graph` loads any of them as a :class:`LabelledGraph`; the playground
(:mod:`simpred_lite.game.playground`) and ``evaluate`` read them from here.

:func:`digits_knn_graph` turns scikit-learn's bundled handwritten digits (1797 images of
8 x 8 pixels, classes 0-9) into a nearest-neighbour graph: a real graph with ``K = 10``
classes, dense clusters and few cut edges — the setting where the resistance-weighted cut
size is far below the plain cut size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx
import numpy as np

from .checks import check_bool, check_class_values, check_features, check_int, check_memory, check_vertex, check_work

__all__ = ["digits_knn_graph"]


def digits_knn_graph(k: int = 10) -> tuple[nx.Graph, np.ndarray]:
    """The ``k``-nearest-neighbour graph of scikit-learn's digits, with the digit classes.

    How it is built, exactly:

    1. ``X = sklearn.datasets.load_digits().data`` (1797 x 64, pixel intensities 0..16,
       held as integers so every distance is an exact integer).
    2. Each image ``i`` is joined to its ``k`` nearest other images in squared Euclidean
       distance; ties are broken by the smaller image index (stable sort), so the graph does
       not depend on library versions.  An edge ``{i, j}`` is kept if ``j`` is among the
       neighbours of ``i`` *or* ``i`` among those of ``j`` (symmetric union), unweighted.
    3. Made connected: while the graph has several components, add the shortest pair
       ``{i, j}`` (squared distance, then smaller indices) whose endpoints lie in different
       components — Kruskal's rule, i.e. the cheapest edges of a Euclidean minimum spanning
       tree of the components.  For ``k = 10`` the union graph is already connected and no
       edge is added; smaller ``k`` may need a few.

    For the default ``k = 10``: 1797 vertices, 12339 edges, of which 547 (4.43%) join images
    of different digits; ``K = 10`` classes of 174 to 183 images.

    Parameters
    ----------
    k : int, default 10
        Neighbours per image, ``1 <= k <= 1796``.

    Returns
    -------
    G : networkx.Graph
        Connected, unweighted, vertices ``0 .. 1796`` (vertex ``i`` is image ``i``).
    labels : numpy.ndarray
        The digit shown in each image, ``0 .. 9``.

    Examples
    --------
    >>> G, labels = digits_knn_graph()
    >>> G.number_of_nodes(), G.number_of_edges(), nx.is_connected(G)
    (1797, 12339, True)
    >>> from simpred_lite.graphs import cut_size
    >>> cut_size(G, labels), round(cut_size(G, labels) / G.number_of_edges(), 4)
    (547, 0.0443)
    """
    from sklearn.datasets import load_digits  # bundled with scikit-learn: no download

    k = check_int(k, "k")
    digits = load_digits()
    X = np.rint(digits.data).astype(np.int64)
    labels = digits.target.astype(np.int64)
    n = X.shape[0]
    k = check_int(k, "k", low=1, high=n - 1)
    sq = (X * X).sum(axis=1)
    D = sq[:, None] + sq[None, :] - 2 * X @ X.T  # exact integer squared distances
    np.fill_diagonal(D, np.iinfo(np.int64).max)  # never one's own neighbour
    nbrs = np.argsort(D, axis=1, kind="stable")[:, :k]
    rows = np.repeat(np.arange(n), k)
    edges = {(min(i, j), max(i, j)) for i, j in zip(rows.tolist(), nbrs.ravel().tolist())}
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    components = nx.utils.UnionFind(range(n))
    for comp in nx.connected_components(G):
        components.union(*comp)
    left = nx.number_connected_components(G) - 1
    if left:  # Kruskal on the components: shortest joining edges first, ties by index
        iu, ju = np.triu_indices(n, 1)
        for t in np.lexsort((ju, iu, D[iu, ju])).tolist():
            a, b = int(iu[t]), int(ju[t])
            if components[a] != components[b]:
                components.union(a, b)
                edges.add((a, b))
                left -= 1
                if not left:
                    break
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(sorted(edges))
    return G, labels


# ---------------------------------------------------------------------------------------------
# your own graph in: feature matrices, networkx graphs with any node ids, bundled datasets
# ---------------------------------------------------------------------------------------------
__all__ += ["knn_graph", "LabelledGraph", "GraphSpec", "GRAPHS", "DATASETS", "load_graph"]


def _encode_labels(values, what: str, where=None) -> tuple[np.ndarray, tuple]:
    """Map arbitrary hashable class values to ``0 .. K-1`` (sorted if sortable, else first seen).

    Missing values (None, NaN) are refused: each NaN would become a class of its own.
    """
    values = check_class_values(values, what, where)
    seen = list(dict.fromkeys(values))
    try:
        classes = sorted(seen)
    except TypeError:
        classes = seen
    index = {c: k for k, c in enumerate(classes)}
    return np.array([index[v] for v in values], dtype=np.int64), tuple(classes)


def _connect_components(X: np.ndarray, G: nx.Graph, nn) -> int:
    """Join the components of ``G`` by the closest pairs of points; return the edges added.

    Borůvka's rule on the components: every component except the largest finds its closest
    point outside it (Euclidean distance), and these edges are added in increasing
    ``(distance, i, j)`` order, skipping any that would close a cycle.  Repeat until
    connected.  Each added edge is the shortest edge leaving a component, so the added edges
    belong to a Euclidean minimum spanning tree of the points (up to ties).  ``nn`` is the
    fitted :class:`~sklearn.neighbors.NearestNeighbors`: a small component's ``s`` points
    each ask for ``s + 1`` neighbours, one of which lies outside; large ones scan all points.
    """
    from sklearn.metrics import pairwise_distances_argmin_min

    added, n = 0, X.shape[0]
    while True:
        comps = sorted((sorted(c) for c in nx.connected_components(G)), key=lambda c: (-len(c), c[0]))
        if len(comps) == 1:
            return added
        owner = np.empty(n, dtype=np.int64)
        for c, members in enumerate(comps):
            owner[members] = c
        candidates: list[tuple[float, int, int]] = []
        small = [c for c in range(1, len(comps)) if len(comps[c]) <= _SMALL_COMPONENT]
        if small:
            pts = np.concatenate([comps[c] for c in small])
            s = min(n, 1 + max(len(comps[c]) for c in small))  # s + 1 rows: one lies outside
            dist, idx = nn.kneighbors(X[pts], n_neighbors=s)
            best: dict[int, tuple] = {}
            for row, a in enumerate(pts.tolist()):
                outside = np.flatnonzero(owner[idx[row]] != owner[a])
                if outside.size:  # sorted by distance: the first outside is the closest
                    b, d = int(idx[row, outside[0]]), float(dist[row, outside[0]])
                    cand = (d, min(a, b), max(a, b))
                    c = int(owner[a])
                    if c not in best or cand < best[c]:
                        best[c] = cand
            candidates += best.values()
        for c in range(1, len(comps)):
            if len(comps[c]) > _SMALL_COMPONENT:
                inside = np.asarray(comps[c])
                outside = np.flatnonzero(owner != c)
                nearest, dist = pairwise_distances_argmin_min(X[inside], X[outside])
                t = int(np.lexsort((inside, dist))[0])  # shortest, then smaller index
                a, b = int(inside[t]), int(outside[nearest[t]])
                candidates.append((float(dist[t]), min(a, b), max(a, b)))
        joined = nx.utils.UnionFind(range(len(comps)))
        for _, a, b in sorted(set(candidates)):
            if joined[owner[a]] != joined[owner[b]]:
                joined.union(owner[a], owner[b])
                G.add_edge(a, b)
                added += 1


#: Components up to this size find their closest outside point by a k-neighbours query.
_SMALL_COMPONENT = 64


def knn_graph(X, k: int, labels=None):
    """The symmetrised ``k``-nearest-neighbour graph of the rows of ``X``, made connected.

    How it is built, exactly:

    1. The ``k`` nearest other rows of each row ``i`` in Euclidean distance, by
       scikit-learn's :class:`~sklearn.neighbors.NearestNeighbors` (a row is never its own
       neighbour, even when another row is identical to it).
    2. Edge ``{i, j}`` if ``j`` is among the ``k`` nearest of ``i`` **or** ``i`` among those of
       ``j`` (symmetric union).  Unweighted: the paper's graphs are unweighted, so distances
       are not kept.
    3. Made connected (the paper's graphs are connected) by a deterministic rule: while
       there are several components, every component except the largest is joined to its
       closest point outside it (Borůvka's rule: the added edges are edges of a Euclidean
       minimum spanning tree).  The number of edges added is stored in
       ``G.graph["edges_added_to_connect"]``.

    Scale matters: standardise features on different scales first (the bundled datasets of
    :func:`load_graph` do).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Finite feature matrix, one row per vertex.
    k : int
        Neighbours per point, ``1 <= k <= n - 1``.
    labels : array_like of length n, optional
        The class of each row, any hashable values; returned re-coded as ``0 .. K-1``
        (classes in sorted order).

    Returns
    -------
    G : networkx.Graph
        Connected, unweighted, vertices ``0 .. n-1`` (vertex ``i`` is row ``i``).
    labels : numpy.ndarray of int64
        Only when ``labels`` is given: the classes as ``0 .. K-1``.

    Raises
    ------
    ValueError
        ``X`` is not 2-d, has fewer than two rows, holds NaN / infinity or values beyond
        ``1e150`` (rescale them); ``k`` is out of range; ``labels`` has the wrong length or a
        missing (None / NaN) value; the graph would exceed
        :data:`~simpred_lite.checks.MEMORY_LIMIT` (``250 n k`` bytes: about ``n = 4 * 10^5``
        rows at ``k = 10``) or the search :data:`~simpred_lite.checks.WORK_LIMIT`
        (``8 n k d log2 n`` steps).
    TypeError
        ``k`` is not an integer; ``X`` is complex or not numeric.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    >>> G = knn_graph(X, k=1)
    >>> sorted(G.edges), G.graph["edges_added_to_connect"]     # 2-10 joins the two groups
    ([(0, 1), (1, 2), (2, 3), (3, 4)], 1)
    >>> G, y = knn_graph(X, 2, labels=["a", "a", "a", "b", "b"]); y.tolist()
    [0, 0, 0, 1, 1]
    """
    from sklearn.neighbors import NearestNeighbors

    X = check_features(X)
    if X.shape[0] < 2:
        raise ValueError(f"X must be a feature matrix of shape (n, d) with n >= 2 rows, got shape {X.shape}")
    n, d = X.shape
    k = check_int(k, "k", low=1, high=n - 1)  # neighbours other than the point itself
    # the graph (networkx: ~250 bytes per edge, up to n k edges) and the neighbour search
    # (a tree query per point, ~k log n distance evaluations of d coordinates)
    alternative = ("subsample the rows first (e.g. X[rng.choice(len(X), 20000, replace=False)]), "
                   "or use a smaller k")
    check_memory(250.0 * n * k, f"knn_graph on n={n} rows with k={k}: a networkx graph of up to n k edges",
                 alternative)
    check_work(float(n) * k * d * max(math.log2(n), 1.0) * 8, f"knn_graph on n={n} rows of d={d} features, k={k}",
               alternative)
    codes = None
    if labels is not None:
        values = list(np.asarray(labels, dtype=object).reshape(-1)) if np.ndim(labels) else None
        if values is None or np.ndim(labels) != 1 or len(values) != n:
            raise ValueError(f"labels must give one class per row of X (n={n}), got shape {np.shape(labels)}")
        codes, _ = _encode_labels(values, "labels (one per row of X)")
    nn = NearestNeighbors(n_neighbors=k).fit(X)
    nbrs = nn.kneighbors(return_distance=False)  # without X: a point is not its own neighbour
    rows = np.repeat(np.arange(n), k)
    lo, hi = np.minimum(rows, nbrs.ravel()), np.maximum(rows, nbrs.ravel())
    edges = sorted(set(zip(lo.tolist(), hi.tolist())))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    G.graph["edges_added_to_connect"] = _connect_components(X, G, nn)
    return G if codes is None else (G, codes)


@dataclass(frozen=True)
class LabelledGraph:
    """A labelled graph in the package's form, with the way back to the original names.

    The package works on vertices ``0 .. n-1`` and classes ``0 .. K-1``;
    ``node_names[v]`` and ``class_names[c]`` remember what vertex ``v`` and class ``c``
    were called, so figures and tables can show the original names.  Unpacks as
    ``G, labels = lg``, and every function taking ``(G, labels)`` accepts ``*lg``.

    Build one with :meth:`from_networkx` (your own graph) or :func:`load_graph` (a bundled
    dataset); the constructor checks that the graph is valid (undirected, simple, connected,
    vertices ``0 .. n-1``) and that every class ``0 .. K-1`` names a class.

    Attributes
    ----------
    graph : networkx.Graph
        A frozen copy of the graph given (editing it raises; edits of the original do not reach it).
    labels : numpy.ndarray of int64
    node_names : tuple
        Original id of each vertex, ``node_names[v]``.
    class_names : tuple
        Original value of each class, ``class_names[c]``.
    name : str

    Examples
    --------
    >>> G = nx.Graph([("ann", "bob"), ("bob", "cy"), ("cy", "dee")])
    >>> nx.set_node_attributes(G, {"ann": "red", "bob": "red", "cy": "blue", "dee": "blue"}, "team")
    >>> lg = LabelledGraph.from_networkx(G, label="team", name="toy")
    >>> lg
    LabelledGraph('toy', n=4, m=3, K=2, cut=1)
    >>> lg.labels.tolist(), lg.class_names, lg.original(0), lg.vertex("dee")
    ([1, 1, 0, 0], ('blue', 'red'), 'ann', 3)
    >>> H = lg.to_networkx(label="team"); H.nodes["cy"]["team"]
    'blue'
    """

    graph: nx.Graph
    labels: np.ndarray
    node_names: tuple
    class_names: tuple
    name: str = "unnamed graph"

    def __post_init__(self):
        from .graphs import validate_graph, validate_labels

        G = validate_graph(self.graph, freeze=True)  # the caller's graph may change later; this one cannot
        object.__setattr__(self, "graph", G)
        n = G.number_of_nodes()
        y = validate_labels(self.labels, n)
        names, classes = tuple(self.node_names), tuple(self.class_names)
        if len(names) != n or len(set(names)) != n:
            raise ValueError(f"node_names must name each of the n={n} vertices once, got {len(names)} names")
        if not classes or int(y.max()) >= len(classes):
            raise ValueError(f"class_names must name every class 0..{int(y.max())}, got {len(classes)} names")
        y.setflags(write=False)
        object.__setattr__(self, "labels", y)
        object.__setattr__(self, "node_names", names)
        object.__setattr__(self, "class_names", classes)
        object.__setattr__(self, "_index", {v: i for i, v in enumerate(names)})

    # -- the way in ------------------------------------------------------------------------
    @classmethod
    def from_networkx(cls, G, label: str, *, largest_component: bool = False, name: str | None = None) -> LabelledGraph:
        """Bring any networkx graph with a class attribute on its nodes into the package's form.

        Vertices become ``0 .. n-1`` in sorted order of their ids (insertion order when the
        ids cannot be sorted); classes become ``0 .. K-1`` in sorted order of their values
        (first-seen order when they cannot be sorted).

        * **Edge weights and edge attributes are ignored**: the paper's graphs are
          unweighted, so only which pairs are joined counts.  Parallel edges of a multigraph
          collapse to one edge.
        * **Self-loops are dropped**: a vertex is always similar to itself, so a loop carries
          no information and is on no path between two distinct vertices.
        * **Directed graphs are refused** (convert with ``G.to_undirected()`` if the direction
          means nothing for similarity).
        * **Disconnected graphs are refused** unless ``largest_component=True``, which keeps
          the largest connected component (ties: the one holding the first node).

        Parameters
        ----------
        G : networkx.Graph or networkx.MultiGraph
            Nodes of any hashable type, each carrying the attribute ``label``.
        label : str
            Name of the node attribute holding the class (any hashable value).
        largest_component : bool, default False
            Keep only the largest connected component of a disconnected graph.
        name : str, optional
            Shown in tables and titles; default ``G.name`` or ``"unnamed graph"``.

        Returns
        -------
        LabelledGraph

        Raises
        ------
        TypeError
            ``G`` is not a networkx graph, or ``label`` is not a string.
        ValueError
            ``G`` is directed, empty, disconnected (without ``largest_component``), or some
            vertices lack the attribute ``label`` or have a missing value there (None, NaN).

        Examples
        --------
        >>> lg = LabelledGraph.from_networkx(nx.karate_club_graph(), label="club")
        >>> lg.n, lg.graph.number_of_edges(), lg.class_names, lg.cut_size
        (34, 78, ('Mr. Hi', 'Officer'), 11)
        """
        if not isinstance(G, nx.Graph):
            raise TypeError(f"G must be a networkx graph, got {type(G).__name__}; build one with nx.Graph(edges)")
        if not isinstance(label, str):
            raise TypeError(f"label must be the name of a node attribute (a str), got {label!r}")
        if G.is_directed():
            raise ValueError("G is directed, but similarity is symmetric: pass G.to_undirected() "
                             "(keeps an edge if either direction exists)")
        largest_component = check_bool(largest_component, "largest_component")
        if G.number_of_nodes() < 2:
            raise ValueError(f"G needs at least two vertices, got {G.number_of_nodes()}")
        missing = [v for v, d in G.nodes(data=True) if label not in d]
        if missing:
            raise ValueError(
                f"{len(missing)} of {G.number_of_nodes()} vertices have no attribute {label!r} "
                f"(e.g. {missing[0]!r}); set it on every vertex, or drop them with "
                f"G.subgraph(v for v, d in G.nodes(data=True) if {label!r} in d)"
            )
        H = nx.Graph()  # simple and unweighted: nodes and edges only, no attributes
        H.add_nodes_from(G.nodes)
        H.add_edges_from((u, v) for u, v in G.edges() if u != v)  # self-loops dropped
        if not nx.is_connected(H):
            comps = list(nx.connected_components(H))
            if not largest_component:
                sizes = sorted((len(c) for c in comps), reverse=True)
                raise ValueError(
                    f"G is disconnected ({len(comps)} components, sizes {sizes[:5]}{'...' if len(sizes) > 5 else ''}); "
                    "the paper assumes a connected graph: pass largest_component=True to keep the largest, "
                    "or add edges between the components"
                )
            H = H.subgraph(max(comps, key=len)).copy()
        nodes = list(H.nodes)
        try:
            nodes = sorted(nodes)
        except TypeError:
            pass
        codes, classes = _encode_labels([G.nodes[v][label] for v in nodes], f"values of the attribute {label!r}",
                                        where=nodes)
        index = {v: i for i, v in enumerate(nodes)}
        graph = nx.Graph()
        graph.add_nodes_from(range(len(nodes)))
        graph.add_edges_from(sorted((min(index[u], index[v]), max(index[u], index[v])) for u, v in H.edges))
        if name is None:
            name = G.name if isinstance(G.name, str) and G.name else "unnamed graph"
        return cls(graph, codes, tuple(nodes), classes, name)

    # -- the way back ----------------------------------------------------------------------
    def original(self, v: int):
        """The original id of vertex ``v`` (``0 <= v < n``; negative indices are refused).

        Parameters
        ----------
        v : int
        """
        return self.node_names[check_vertex(v, self.n, "vertex v")]

    def vertex(self, name) -> int:
        """The vertex ``0 .. n-1`` of the original id ``name``."""
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"{name!r} is not a vertex of {self.name!r}") from None

    def to_networkx(self, label: str = "label") -> nx.Graph:
        """The graph with its original node ids and class values (attribute ``label``)."""
        H = nx.Graph(name=self.name)
        H.add_nodes_from((self.node_names[v], {label: self.class_names[c]}) for v, c in enumerate(self.labels.tolist()))
        H.add_edges_from((self.node_names[u], self.node_names[v]) for u, v in self.graph.edges)
        return H

    # -- facts -----------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of vertices."""
        return self.graph.number_of_nodes()

    @property
    def K(self) -> int:
        """Number of classes present."""
        return int(np.unique(self.labels).size)

    @property
    def cut_size(self) -> int:
        """``|Phi|``: the number of edges joining different classes."""
        from .graphs import cut_size

        return cut_size(self.graph, self.labels)

    def __iter__(self):  # G, labels = lg
        return iter((self.graph, self.labels))

    def __repr__(self) -> str:
        return (f"LabelledGraph({self.name!r}, n={self.n}, m={self.graph.number_of_edges()}, "
                f"K={self.K}, cut={self.cut_size})")


#: Neighbours per point of the kNN graphs of :func:`load_graph` (standardised features).
KNN_K = 10


def _sklearn_knn(loader_name: str, title: str, k: int | None) -> LabelledGraph:
    import sklearn.datasets
    from sklearn.preprocessing import StandardScaler

    data = getattr(sklearn.datasets, loader_name)()  # bundled with scikit-learn: no download
    X = StandardScaler().fit_transform(data.data)
    kk = KNN_K if k is None else k
    G, y = knn_graph(X, kk, labels=data.target)
    classes = tuple(str(c) for c in data.target_names)
    return LabelledGraph(G, y, tuple(range(G.number_of_nodes())), classes, f"{title} (kNN, k={kk})")


def _digits(k: int | None) -> LabelledGraph:
    kk = 10 if k is None else k
    G, y = digits_knn_graph(kk)
    return LabelledGraph(G, y, tuple(range(G.number_of_nodes())), tuple(str(d) for d in range(10)),
                         f"digits (kNN, k={kk})")


def _karate(k: int | None) -> LabelledGraph:
    if k is not None:
        raise ValueError("k applies to the kNN datasets only; the karate club is a graph already")
    from .graphs import karate_club  # the one place the karate club is loaded (weights dropped)

    G, y = karate_club()
    return LabelledGraph(G, y, tuple(range(G.number_of_nodes())), ("Mr. Hi", "Officer"), "karate club")


def _davis(k: int | None) -> LabelledGraph:
    if k is not None:
        raise ValueError("k applies to the kNN datasets only; Davis' southern women is a graph already")
    G = nx.davis_southern_women_graph()
    nx.set_node_attributes(G, {v: ("woman" if d["bipartite"] == 0 else "event") for v, d in G.nodes(data=True)}, "kind")
    return LabelledGraph.from_networkx(G, label="kind", name="southern women")


#: The real labelled graphs: name -> description (a part of :data:`GRAPHS`).
DATASETS: dict[str, str] = {
    "iris": "150 iris flowers, 3 species; kNN graph of the 4 standardised measurements",
    "wine": "178 wines, 3 cultivars; kNN graph of the 13 standardised chemical measurements",
    "breast cancer": "569 tumours, benign or malignant; kNN graph of the 30 standardised features",
    "digits": "1797 handwritten digits 0-9; digits_knn_graph (raw pixels, exact distances)",
    "karate club": "Zachary's karate club, 34 members, the two factions after the split",
    "southern women": "Davis' southern women: 18 women and the 14 events they attended "
                      "(bipartite, so every edge joins the two classes)",
}

_LOADERS = {
    "iris": lambda k: _sklearn_knn("load_iris", "iris", k),
    "wine": lambda k: _sklearn_knn("load_wine", "wine", k),
    "breast cancer": lambda k: _sklearn_knn("load_breast_cancer", "breast cancer", k),
    "digits": _digits,
    "karate club": _karate,
    "southern women": _davis,
}


@dataclass(frozen=True)
class GraphSpec:
    """A named labelled graph: ``factory(seed) -> (G, labels)``, a description, and optionally
    its natural drawing ``layout(G) -> {vertex: (x, y)}`` (else a spring layout).

    Parameters
    ----------
    name : str
    factory : callable ``(seed) -> (networkx.Graph, numpy.ndarray)``
        The seed matters for random graphs (the planted partition) only.
    description : str
    layout : callable ``(G) -> dict``, optional

    Examples
    --------
    >>> G, y = GRAPHS["grid"].factory(0)
    >>> G.number_of_nodes(), int(y.max()) + 1, GRAPHS["grid"].layout is not None
    (40, 2, True)
    """

    name: str
    factory: Callable[[int], tuple[nx.Graph, np.ndarray]]
    description: str
    layout: Callable[[nx.Graph], dict] | None = None


def _planted(seed: int) -> tuple[nx.Graph, np.ndarray]:
    from .graphs import planted_partition

    return planted_partition(36, 3, 0.35, 0.03, seed=seed)


def _grid(seed: int) -> tuple[nx.Graph, np.ndarray]:
    from .graphs import grid_graph

    return grid_graph(5, 8, K=2)


def _grid_layout(G: nx.Graph) -> dict:
    return {v: np.array([v % 8, -(v // 8)], dtype=float) for v in G}


def _barbell(seed: int) -> tuple[nx.Graph, np.ndarray]:
    from .graphs import barbell_graph

    return barbell_graph(8, 2)


def _barbell_layout(G: nx.Graph) -> dict:
    """The barbell's natural drawing: each clique on a circle, the bridge on the diagonal between them.

    On a circle no edge of a clique runs under a vertex (a chord touches the circle only at its
    ends); each clique turns the vertex it shares with the bridge towards the other clique.
    ``m`` (the clique size) and the bridge length are read from ``G``: vertex 0 lies in the
    first clique, so it has ``m - 1`` neighbours, and the bridge has ``n - 2 m`` vertices.

    Raises
    ------
    ValueError
        ``G`` is not a barbell of :func:`~simpred_lite.graphs.barbell_graph` (vertices
        numbered as networkx's ``barbell_graph``).

    Examples
    --------
    >>> G, _ = GRAPHS["barbell"].factory(0)
    >>> pos = GRAPHS["barbell"].layout(G)
    >>> sorted(pos) == list(G), bool(pos[7][0] < pos[8][0] < pos[9][0] < pos[10][0])  # 7-8-9-10 left to right
    (True, True)
    """
    n = G.number_of_nodes()
    m = G.degree(0) + 1 if 0 in G else 0
    bridge = n - 2 * m
    if m < 2 or bridge < 0 or set(map(frozenset, G.edges)) != set(map(frozenset, nx.barbell_graph(m, bridge).edges)):
        raise ValueError("the barbell layout needs a graph of barbell_graph(m, bridge) (two m-cliques "
                         "0..m-1 and m+bridge..n-1 joined by the path m-1, m, ..., m+bridge); draw other "
                         "graphs with a spring layout")
    d = np.array([1.0, 1.0]) / np.sqrt(2)                      # the diagonal, from the first clique to the second
    spacing = 1.2                                              # between bridge vertices, twice the end gaps
    end = max(spacing / 2 * bridge, spacing / 2)               # the vertex each clique shares with the bridge
    angles = np.pi / 4 + 2 * np.pi * np.arange(m) / m          # k = 0 points along the diagonal
    ring = np.column_stack([np.cos(angles), np.sin(angles)])   # unit circle
    pos = {m - 1 - k: -(end + 1.0) * d + ring[k] for k in range(m)}            # vertex m - 1 at -end * d
    pos.update({m + bridge + k: (end + 1.0) * d - ring[k] for k in range(m)})  # vertex m + bridge at +end * d
    pos.update({m + b: (b - (bridge - 1) / 2) * spacing * d for b in range(bridge)})
    return pos


def _real(name: str) -> Callable[[int], tuple[nx.Graph, np.ndarray]]:
    def factory(seed: int) -> tuple[nx.Graph, np.ndarray]:
        lg = _LOADERS[name](None)
        return lg.graph, lg.labels

    return factory


#: Every named labelled graph of the suite: name -> :class:`GraphSpec`.  The teaching graphs
#: first (the playground offers them with the karate club), then the real ones of :data:`DATASETS`.
GRAPHS: dict[str, GraphSpec] = {
    spec.name: spec
    for spec in (
        GraphSpec("planted partition", _planted, "36 vertices in 3 classes; p_in = 0.35, p_out = 0.03"),
        GraphSpec("grid", _grid, "5 x 8 grid, 2 classes in vertical bands", layout=_grid_layout),
        GraphSpec("barbell", _barbell, "two 8-cliques joined by a 2-vertex bridge", layout=_barbell_layout),
        *(GraphSpec(name, _real(name), description) for name, description in DATASETS.items()),
    )
}


def load_graph(name: str, k: int | None = None) -> LabelledGraph:
    """A real labelled graph that ships inside the package's dependencies (no download).

    * ``"iris"``, ``"wine"``, ``"breast cancer"``: scikit-learn's bundled tables, features
      standardised (zero mean, unit variance per column, ``StandardScaler``), then
      :func:`knn_graph` with ``k`` neighbours (default :data:`KNN_K` = 10).
    * ``"digits"``: :func:`digits_knn_graph` (raw pixel intensities, which share one scale,
      exact integer distances; default ``k = 10``).
    * ``"karate club"``: networkx's copy, labels its ``club`` attribute (weights dropped).
    * ``"southern women"``: networkx's Davis graph, labelled woman / event (its ``bipartite``
      attribute): every edge joins the two classes — the opposite of what graph learners
      assume, kept as a warning example.
    * the teaching graphs of :data:`GRAPHS` (``"planted partition"`` drawn with seed 0,
      ``"grid"``, ``"barbell"``), classes named ``"0"``, ``"1"``, ...

    Parameters
    ----------
    name : str
        A key of :data:`GRAPHS` (:data:`DATASETS` lists the real ones).
    k : int, optional
        Neighbours per point, for the kNN datasets only.

    Returns
    -------
    LabelledGraph

    Examples
    --------
    >>> load_graph("iris")
    LabelledGraph('iris (kNN, k=10)', n=150, m=980, K=3, cut=96)
    >>> load_graph("karate club").class_names
    ('Mr. Hi', 'Officer')
    """
    if not isinstance(name, str) or name not in GRAPHS:
        raise ValueError(f"unknown dataset {name!r}; choose one of {list(GRAPHS)}")
    if name not in _LOADERS:  # a teaching graph: built from its spec (seed 0)
        if k is not None:
            raise ValueError(f"k applies to the kNN datasets only; the {name} is a graph already")
        G, y = GRAPHS[name].factory(0)
        K = int(y.max()) + 1
        return LabelledGraph(G, np.asarray(y, dtype=np.int64), tuple(range(G.number_of_nodes())),
                             tuple(str(c) for c in range(K)), name)
    return _LOADERS[name](k)
