"""Real labelled graphs bundled with the suite's dependencies (no download at run time).

:func:`digits_knn_graph` turns scikit-learn's bundled handwritten digits (1797 images of
8 x 8 pixels, classes 0-9) into a nearest-neighbour graph: a real graph with ``K = 10``
classes, dense clusters and few cut edges — the setting where the resistance-weighted cut
size is far below the plain cut size.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .checks import check_int

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
