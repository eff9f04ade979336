"""The digits nearest-neighbour graph: exactly as its docstring says it is built."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from sklearn.datasets import load_digits

from simpred_lite.datasets import digits_knn_graph
from simpred_lite.graphs import cut_size, validate_graph
from simpred_lite.resistance import resistance_weighted_cut


@pytest.fixture(scope="module")
def digits():
    return digits_knn_graph()


def test_shape_classes_and_cut(digits):
    G, y = digits
    validate_graph(G)  # connected, simple, vertices 0..n-1
    assert G.number_of_nodes() == 1797 and G.number_of_edges() == 12339
    assert all(not d for _, _, d in G.edges(data=True))  # unweighted: no edge attributes
    np.testing.assert_array_equal(y, load_digits().target)
    assert sorted(set(y.tolist())) == list(range(10))
    assert cut_size(G, y) == 547  # 4.43% of the edges cross classes
    assert 0.04 < cut_size(G, y) / G.number_of_edges() < 0.05


def test_edges_are_the_symmetric_union_of_nearest_neighbours(digits):
    """Reference: every vertex's k nearest (ties: smaller index) are its neighbours, and no more."""
    G, _ = digits
    X = load_digits().data
    idx = np.arange(1797)
    expected = set()
    for i in range(1797):
        d = ((X - X[i]) ** 2).sum(axis=1)  # float, exact: small integers
        d[i] = np.inf
        for j in np.lexsort((idx, d))[:10].tolist():  # by distance, then index
            expected.add((min(i, j), max(i, j)))
    assert {(min(u, v), max(u, v)) for u, v in G.edges} == expected


def test_made_connected_for_small_k():
    G, _ = digits_knn_graph(k=1)
    assert nx.is_connected(G)
    # the 1-NN union graph has components; Kruskal's repair adds exactly (components - 1) edges
    X = load_digits().data
    sq = (X * X).sum(axis=1)
    d = sq[:, None] + sq[None, :] - 2 * X @ X.T  # exact: small integers in float64
    np.fill_diagonal(d, np.inf)
    nn = np.argsort(d, axis=1, kind="stable")[:, 0]
    H = nx.Graph()
    H.add_nodes_from(range(1797))
    H.add_edges_from(enumerate(nn.tolist()))
    comps = nx.number_connected_components(H)
    assert comps > 1
    assert G.number_of_edges() == H.number_of_edges() + comps - 1
    assert set(H.edges) <= {tuple(e) for e in G.edges} | {tuple(e[::-1]) for e in G.edges}


def test_dense_clusters_make_the_resistance_weighted_cut_small(digits):
    G, y = digits
    assert resistance_weighted_cut(G, y) < 0.5 * cut_size(G, y)


def test_bad_k():
    with pytest.raises(ValueError, match="k must lie in 1..1796"):
        digits_knn_graph(0)
    with pytest.raises(ValueError, match="k must lie in 1..1796"):
        digits_knn_graph(1797)
    with pytest.raises(TypeError, match="integer"):
        digits_knn_graph(2.5)
