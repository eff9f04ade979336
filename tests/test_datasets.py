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


# -- your own graph in: knn_graph, LabelledGraph, load_graph -----------------------------------
from simpred_lite.datasets import DATASETS, LabelledGraph, knn_graph, load_graph  # noqa: E402


def _blobs(seed=0, sizes=(30, 30, 30)):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(loc=10 * c, size=(s, 3)) for c, s in enumerate(sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)


def test_knn_graph_is_the_symmetric_union_then_connected():
    X, y = _blobs()
    G, labels = knn_graph(X, 3, labels=y)
    np.testing.assert_array_equal(labels, y)
    assert nx.is_connected(G) and all(not d for *_, d in G.edges(data=True))
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    nearest = np.argsort(D, axis=1)[:, :3]  # continuous data: no ties
    union = {(min(i, j), max(i, j)) for i in range(len(X)) for j in nearest[i].tolist()}
    edges = {(min(u, v), max(u, v)) for u, v in G.edges}
    assert union <= edges
    extra = edges - union
    assert len(extra) == G.graph["edges_added_to_connect"] == 2  # three far blobs: two joins
    # each join is the closest pair between two blobs
    for a, b in extra:
        ca, cb = y[a], y[b]
        block = D[np.ix_(y == ca, y == cb)]
        assert D[a, b] == block.min()


def test_knn_graph_connects_many_components_with_minimum_spanning_edges():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 2))
    G = knn_graph(X, 1)
    H = knn_graph(X, 1)  # deterministic
    assert nx.is_connected(G) and sorted(G.edges) == sorted(H.edges)
    assert G.graph["edges_added_to_connect"] > 10
    # every added edge is in the Euclidean minimum spanning tree (continuous data: unique)
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    mst = nx.minimum_spanning_tree(nx.from_numpy_array(D))
    mst_edges = {(min(u, v), max(u, v)) for u, v in mst.edges}
    nn1 = {(min(i, j), max(i, j)) for i, j in enumerate(np.argsort(D + np.diag([np.inf] * 400), axis=1)[:, 0].tolist())}
    added = {(min(u, v), max(u, v)) for u, v in G.edges} - nn1
    assert len(added) == G.graph["edges_added_to_connect"] and added <= mst_edges


def test_knn_graph_duplicates_are_not_self_loops():
    X = np.array([[0.0, 0], [0, 0], [1, 1], [1, 1], [5, 5]])
    G = knn_graph(X, 1)
    assert nx.number_of_selfloops(G) == 0 and nx.is_connected(G)


@pytest.mark.parametrize(
    "X, k, labels, error, match",
    [
        (np.array([[0.0], [np.nan], [1.0]]), 1, None, ValueError, "NaN"),
        (np.zeros((4, 2)), 4, None, ValueError, "k must lie in 1..3"),
        (np.zeros((4, 2)), 0, None, ValueError, "k must lie in 1..3"),
        (np.zeros((4, 2)), 1.5, None, TypeError, "k must be an integer"),
        (np.zeros((4, 2)), 1, [0, 1, 0], ValueError, "labels must give one class per row"),
        (np.zeros(4), 1, None, ValueError, "shape"),
    ],
)
def test_knn_graph_bad_input(X, k, labels, error, match):
    with pytest.raises(error, match=match):
        knn_graph(X, k, labels=labels)


def test_from_networkx_maps_names_and_back():
    G = nx.Graph()
    G.add_edge("zed", "amy", weight=7.0)
    G.add_edge("amy", "bo", weight=0.1)
    G.add_edge("bo", "bo")  # self-loop: dropped
    nx.set_node_attributes(G, {"zed": "x", "amy": "y", "bo": "y"}, "grp")
    lg = LabelledGraph.from_networkx(G, label="grp", name="mine")
    assert lg.node_names == ("amy", "bo", "zed") and lg.class_names == ("x", "y")
    assert lg.labels.tolist() == [1, 1, 0]
    assert sorted(lg.graph.edges) == [(0, 1), (0, 2)]  # no loop, no weight
    assert all(not d for *_, d in lg.graph.edges(data=True))
    assert lg.original(2) == "zed" and lg.vertex("bo") == 1
    H = lg.to_networkx(label="grp")
    assert {frozenset(e) for e in H.edges} == {frozenset(("amy", "bo")), frozenset(("amy", "zed"))}
    assert {v: H.nodes[v]["grp"] for v in H} == {"zed": "x", "amy": "y", "bo": "y"}
    G2, y2 = lg  # unpacks
    assert G2 is lg.graph and y2 is lg.labels
    with pytest.raises(ValueError, match="not a vertex"):
        lg.vertex("nobody")


def test_from_networkx_unsortable_ids_and_multigraph():
    M = nx.MultiGraph()
    M.add_edges_from([(1, "a"), (1, "a"), ("a", (2, 3))])
    nx.set_node_attributes(M, {1: 0, "a": 1, (2, 3): 1}, "c")
    lg = LabelledGraph.from_networkx(M, label="c")
    assert lg.node_names == (1, "a", (2, 3))  # insertion order: ids cannot be sorted
    assert lg.graph.number_of_edges() == 2


def test_from_networkx_bad_input():
    G = nx.path_graph(4)
    nx.set_node_attributes(G, {0: "a", 1: "a", 2: "b"}, "c")  # vertex 3 has none
    with pytest.raises(ValueError, match=r"1 of 4 vertices have no attribute 'c' \(e.g. 3\)"):
        LabelledGraph.from_networkx(G, label="c")
    G.nodes[3]["c"] = "b"
    with pytest.raises(ValueError, match="directed.*to_undirected"):
        LabelledGraph.from_networkx(G.to_directed(), label="c")
    D = nx.union(G, nx.relabel_nodes(G, {v: v + 10 for v in G}))
    D.add_node(99, c="a")
    with pytest.raises(ValueError, match="disconnected.*largest_component=True"):
        LabelledGraph.from_networkx(D, label="c")
    lg = LabelledGraph.from_networkx(D, label="c", largest_component=True)
    assert lg.n == 4 and lg.node_names == (0, 1, 2, 3)
    with pytest.raises(TypeError, match="label must be the name"):
        LabelledGraph.from_networkx(G, label=3)
    with pytest.raises(TypeError, match="networkx graph"):
        LabelledGraph.from_networkx([(0, 1)], label="c")


def test_labelled_graph_checks_its_fields():
    G = nx.path_graph(3)
    with pytest.raises(ValueError, match="labels must be a 1-d sequence"):
        LabelledGraph(G, [0, 1], (0, 1, 2), ("a", "b"))
    with pytest.raises(ValueError, match="class_names must name every class"):
        LabelledGraph(G, [0, 1, 2], (0, 1, 2), ("a", "b"))
    with pytest.raises(ValueError, match="node_names"):
        LabelledGraph(G, [0, 1, 1], (0, 0, 2), ("a", "b"))


@pytest.mark.parametrize("name", list(DATASETS))
def test_bundled_datasets_are_valid_labelled_graphs(name):
    lg = load_graph(name)
    validate_graph(lg.graph)
    assert lg.labels.min() == 0 and lg.labels.max() == lg.K - 1 == len(lg.class_names) - 1
    assert 0 < lg.cut_size <= lg.graph.number_of_edges()


def test_bundled_datasets_facts():
    assert (load_graph("iris").n, load_graph("wine").n, load_graph("breast cancer").n) == (150, 178, 569)
    karate = load_graph("karate club")
    from simpred_lite.graphs import karate_club

    G, y = karate_club()
    assert sorted(karate.graph.edges) == sorted(G.edges) and karate.labels.tolist() == y.tolist()
    women = load_graph("southern women")
    assert women.cut_size == women.graph.number_of_edges()  # bipartite: every edge is cut
    digits = load_graph("digits")
    G, y = digits_knn_graph()
    assert sorted(digits.graph.edges) == sorted(G.edges) and digits.labels.tolist() == y.tolist()
    assert load_graph("iris", k=5).graph.number_of_edges() < load_graph("iris").graph.number_of_edges()


def test_load_graph_bad_input():
    with pytest.raises(ValueError, match="unknown dataset 'mnist'; choose one of"):
        load_graph("mnist")
    with pytest.raises(ValueError, match="k applies to the kNN datasets only"):
        load_graph("karate club", k=3)
    with pytest.raises(ValueError, match="k must lie in 1..149"):
        load_graph("iris", k=150)


def test_labelled_graph_keeps_a_frozen_copy_of_the_graph():
    G = nx.path_graph(4)
    lg = LabelledGraph(G, np.array([0, 0, 1, 1]), (0, 1, 2, 3), ("a", "b"))
    G.add_edge(0, 3)  # the caller edits its graph afterwards
    G.add_node(7)
    assert lg.graph.number_of_edges() == 3 and lg.cut_size == 1
    assert repr(lg) == "LabelledGraph('unnamed graph', n=4, m=3, K=2, cut=1)"
    with pytest.raises(nx.NetworkXError, match="Frozen graph can't be modified"):
        lg.graph.add_edge(0, 2)
    lg2 = LabelledGraph.from_networkx(nx.karate_club_graph(), "club")
    assert nx.is_frozen(lg2.graph) and lg2.original(33) == 33


def test_missing_labels_are_refused_not_made_into_classes():
    # NaN != NaN: each NaN used to become a class of its own; None a class "None"
    X = np.arange(6.0)[:, None]
    with pytest.raises(ValueError, match=r"at 2 of 6 positions: \[2, 5\]"):
        knn_graph(X, 1, labels=["a", "a", np.nan, "b", "b", float("nan")])
    with pytest.raises(ValueError, match=r"at 1 of 6 positions: \[0\]"):
        knn_graph(X, 1, labels=[None, 0, 0, 1, 1, 1])
    G = nx.karate_club_graph()
    G.nodes[5]["club"] = float("nan")
    G.nodes[9]["club"] = None
    with pytest.raises(ValueError, match=r"attribute 'club' are missing .* at 2 of 34 positions: \[5, 9\]"):
        LabelledGraph.from_networkx(G, "club")
    # what is not missing is still a class, whatever its type
    _, y = knn_graph(X, 1, labels=[0, 0, "x", "x", 2.5, 2.5])
    assert len(set(y.tolist())) == 3


def test_barbell_is_drawn_with_its_cliques_on_circles_and_refuses_other_graphs():
    """Notebook 10's playground: with a spring layout the barbell's clique edges ran under vertices."""
    from simpred_lite.apps.similarity_game import LAYOUT_CLEARANCE
    from simpred_lite.datasets import GRAPHS
    from simpred_lite.graphs import barbell_graph
    from simpred_lite.viz.graphs import edge_clearance

    layout = GRAPHS["barbell"].layout
    assert layout is not None, "the barbell has a natural drawing, as the grid"
    G, _ = GRAPHS["barbell"].factory(0)
    pos = layout(G)
    assert edge_clearance(G, pos) >= LAYOUT_CLEARANCE
    for m, bridge in [(2, 0), (3, 1), (5, 3), (8, 0)]:   # m and the bridge are read from the graph
        H, _ = barbell_graph(m, bridge)
        P = layout(H)
        assert sorted(P) == list(range(2 * m + bridge))
        centres = [np.mean([P[v] for v in clique], axis=0) for clique in (range(m), range(m + bridge, 2 * m + bridge))]
        for clique, c in zip((range(m), range(m + bridge, 2 * m + bridge)), centres):
            assert np.allclose([np.linalg.norm(P[v] - c) for v in clique], 1.0), "each clique on a unit circle"
        along = [float(P[v] @ np.ones(2)) for v in range(m - 1, m + bridge + 1)]
        assert all(a < b for a, b in zip(along, along[1:])), "the bridge runs from one clique to the other"
    for other in (nx.complete_graph(4), nx.cycle_graph(6), nx.relabel_nodes(barbell_graph(4, 1)[0], {0: 8, 8: 0})):
        with pytest.raises(ValueError, match="barbell_graph"):
            layout(other)
