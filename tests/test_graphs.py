"""Graph validation, generators, labelings and cuts."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simpred_lite.graphs import (
    barbell_graph,
    cut_edges,
    cut_size,
    grid_graph,
    karate_club,
    planted_partition,
    similarity_label,
    validate_graph,
    validate_labels,
)


# -- validate_graph: every bad input gets a clear error -----------------------------------
def test_rejects_non_graphs():
    with pytest.raises(TypeError, match="networkx.Graph"):
        validate_graph([(0, 1)])


def test_rejects_directed_graphs():
    with pytest.raises(ValueError, match="directed.*to_undirected"):
        validate_graph(nx.DiGraph([(0, 1), (1, 2)]))


def test_rejects_multigraphs():
    with pytest.raises(ValueError, match="multigraph.*nx.Graph"):
        validate_graph(nx.MultiGraph([(0, 1), (0, 1)]))


def test_rejects_empty_graphs():
    with pytest.raises(ValueError, match="empty"):
        validate_graph(nx.Graph())


def test_rejects_self_loops():
    G = nx.path_graph(3)
    G.add_edge(1, 1)
    with pytest.raises(ValueError, match="self-loop.*vertex 1"):
        validate_graph(G)


def test_rejects_disconnected_graphs():
    G = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(ValueError, match="disconnected \\(2 connected components\\)"):
        validate_graph(G)


def test_rejects_other_vertex_names_and_relabels_on_request():
    G = nx.Graph([("a", "b"), ("b", "c")])
    with pytest.raises(ValueError, match="0..2.*relabel=True"):
        validate_graph(G)
    H = validate_graph(G, relabel=True)
    assert sorted(H.nodes) == [0, 1, 2]
    assert [H.nodes[v]["label"] for v in range(3)] == ["a", "b", "c"]
    assert sorted(H.edges) == [(0, 1), (1, 2)]


def test_relabel_also_fixes_shifted_integers():
    G = nx.path_graph([1, 2, 3, 4])  # the paper counts from 1
    H = validate_graph(G, relabel=True)
    assert sorted(H.edges) == [(0, 1), (1, 2), (2, 3)]


def test_valid_graph_is_returned_unchanged():
    G = nx.cycle_graph(5)
    assert validate_graph(G) is G


def test_validate_labels_errors():
    with pytest.raises(ValueError, match="one class per vertex"):
        validate_labels([0, 1], 3)
    with pytest.raises(ValueError, match="non-negative"):
        validate_labels([0, -1, 1], 3)
    with pytest.raises(ValueError, match="integers"):
        validate_labels([0.5, 1, 1], 3)
    with pytest.raises(ValueError, match="0..1"):
        validate_labels([0, 2, 1], 3, num_classes=2)
    with pytest.raises(ValueError, match="astype\\(int\\)"):  # whole floats too: labels are ints
        validate_labels([0.0, 1.0], 2)


# -- generators -------------------------------------------------------------------------
@given(
    n=st.integers(4, 60),
    K=st.integers(2, 4),
    p_in=st.floats(0.0, 1.0),
    p_out=st.floats(0.0, 0.3),
    seed=st.integers(0, 2**32 - 1),
)
def test_planted_partition_is_connected_with_balanced_classes(n, K, p_in, p_out, seed):
    K = min(K, n)
    G, labels = planted_partition(n, K, p_in, p_out, seed=seed)
    validate_graph(G)  # connected, simple, vertices 0..n-1
    sizes = np.bincount(labels, minlength=K)
    assert sizes.max() - sizes.min() <= 1 and sizes.sum() == n


def test_planted_partition_repair_adds_no_cut_edge():
    # p_out = 0: every component lies inside a class, and joining them must not cut
    G, labels = planted_partition(40, 4, 0.05, 0.0, seed=3)
    assert nx.is_connected(G)
    # with no cross edges drawn, the only cut edges are the ones needed to join the classes
    assert cut_size(G, labels) == 3


def test_planted_partition_is_reproducible_and_seed_dependent():
    a = planted_partition(30, 3, 0.4, 0.05, seed=7)[0]
    b = planted_partition(30, 3, 0.4, 0.05, seed=7)[0]
    c = planted_partition(30, 3, 0.4, 0.05, seed=8)[0]
    assert sorted(a.edges) == sorted(b.edges) != sorted(c.edges)


def test_planted_partition_bad_arguments():
    with pytest.raises(ValueError, match="K must lie in 2..3"):
        planted_partition(3, 5, 0.5, 0.1, seed=0)
    with pytest.raises(ValueError, match="p_in"):
        planted_partition(10, 2, 1.5, 0.1, seed=0)
    with pytest.raises(ValueError, match="explicit seed"):
        planted_partition(10, 2, 0.5, 0.1, seed=None)


def test_planted_partition_edge_density_matches_probabilities():
    n, K = 300, 3
    G, y = planted_partition(n, K, 0.2, 0.01, seed=0)
    same = sum(y[u] == y[v] for u, v in G.edges)
    pairs_in = sum(int(s) * (int(s) - 1) // 2 for s in np.bincount(y))
    pairs_out = n * (n - 1) // 2 - pairs_in
    # binomial standard deviations: sqrt(pairs * p (1 - p)) ~ 47 and ~ 17
    assert abs(same - 0.2 * pairs_in) < 5 * np.sqrt(pairs_in * 0.2 * 0.8)
    assert abs((G.number_of_edges() - same) - 0.01 * pairs_out) < 5 * np.sqrt(pairs_out * 0.01 * 0.99)


def test_grid_and_barbell():
    G, y = grid_graph(4, 6, K=3)
    assert G.number_of_nodes() == 24 and G.number_of_edges() == 4 * 5 + 3 * 6
    assert cut_size(G, y) == 2 * 4  # two vertical boundaries, 4 rows each
    B, yb = barbell_graph(6, 3)
    assert nx.is_connected(B) and B.number_of_nodes() == 15 and cut_size(B, yb) == 1


def test_karate_club_is_unweighted_with_two_factions():
    G, y = karate_club()
    assert (G.number_of_nodes(), G.number_of_edges()) == (34, 78)
    assert not any("weight" in d for _, _, d in G.edges(data=True))
    assert np.bincount(y).tolist() == [17, 17]
    assert y[0] == 0 and y[33] == 1  # Mr. Hi and the Officer lead opposite factions
    assert cut_size(G, y) == 11  # the 11 ties that cross the split


# -- cuts -------------------------------------------------------------------------------
@given(n=st.integers(3, 25), K=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_class_cuts_sum_to_twice_the_cut(n, K, seed):
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, 0.4, seed=seed)
    G.add_edges_from((v, v + 1) for v in range(n - 1))  # make it connected
    y = rng.integers(K, size=n)
    assert sum(cut_size(G, y, k) for k in range(K)) == 2 * cut_size(G, y)
    for u, v in cut_edges(G, y):
        assert u < v and y[u] != y[v] and G.has_edge(u, v)


def test_similarity_label():
    assert similarity_label([3, 3, 1], 0, 1) == 0
    assert similarity_label([3, 3, 1], 1, 2) == 1


def test_float_and_bool_vertices_are_refused_but_can_be_relabelled():
    G = nx.relabel_nodes(nx.path_graph(4), {v: float(v) for v in range(4)})  # 0.0 == 0 in Python
    with pytest.raises(ValueError, match=r"vertex 0.0 \(float\); pass relabel=True"):
        validate_graph(G)
    H = validate_graph(G, relabel=True)
    assert all(type(v) is int for v in H.nodes) and sorted(H.edges) == [(0, 1), (1, 2), (2, 3)]
    with pytest.raises(ValueError, match=r"vertex False \(bool\)"):
        validate_graph(nx.Graph([(False, True)]))


def test_generators_check_their_arguments():
    with pytest.raises(TypeError, match="rows must be an integer, got 2.5"):
        grid_graph(2.5, 3)
    with pytest.raises(TypeError, match="clique_size must be an integer, got 3.5"):
        barbell_graph(3.5)
    with pytest.raises(TypeError, match="p_in must be a real number, got '0.5'"):
        planted_partition(10, 2, "0.5", 0.1, seed=0)
    with pytest.raises(ValueError, match="K must lie in 2..10, got 1"):
        planted_partition(10, 1, 0.5, 0.1, seed=0)  # the docstring's 2 <= K <= n


# -- edge arrays and the integer-vertex check, vectorised -------------------------------------
@given(st.integers(1, 40), st.integers(0, 10**6), st.booleans())
def test_edge_array_lists_the_edges_in_networkx_order(n, seed, loops):
    """The vectorised edge array equals list(G.edges), whatever the order the vertices were added in."""
    from simpred_lite.graphs import edge_array

    rng = np.random.default_rng(seed)
    G = nx.Graph()
    G.add_nodes_from(rng.permutation(n).tolist())
    pairs = rng.integers(0, n, size=(2 * n, 2)).tolist()
    G.add_edges_from((u, v) for u, v in pairs if loops or u != v)
    E = edge_array(G)
    assert E.dtype == np.int64 and E.shape == (G.number_of_edges(), 2)
    assert [tuple(e) for e in E.tolist()] == list(G.edges), "edge_array must follow G.edges order"
    F = nx.freeze(G)
    assert edge_array(F) is edge_array(F), "a frozen graph's edge array is computed once"


def test_integer_vertex_check_refuses_everything_but_0_to_n_minus_1():
    from simpred_lite.graphs import _integer_vertices

    def graph(nodes):
        G = nx.Graph()
        G.add_nodes_from(nodes)
        return G

    assert _integer_vertices(graph([2, 0, 1]), 3)
    assert _integer_vertices(graph([np.int64(1), 0]), 2), "numpy integers are integers"
    assert not _integer_vertices(graph([0, 1, 3]), 3), "a gap must be refused"
    assert not _integer_vertices(graph([-1, 0, 1]), 3), "a negative vertex must be refused"
    assert not _integer_vertices(graph([0, 1.0]), 2), "a float vertex must be refused"
    assert not _integer_vertices(graph([False, 1]), 2), "a bool vertex must be refused"
    assert not _integer_vertices(graph([0, 2**70]), 2), "a vertex beyond int64 must be refused"
    assert not _integer_vertices(graph(["a", 0]), 2)


def test_validated_view_shares_the_graph_and_is_released():
    from simpred_lite.graphs import _VALIDATED, release_view, validated_view

    G = nx.path_graph(5)
    V = validated_view(G)
    assert nx.is_frozen(V) and not nx.is_frozen(G), "the view is frozen, the caller's graph is not"
    assert V._adj is G._adj, "a view shares the graph's dictionaries (no copy)"
    assert validate_graph(V) is V and V in _VALIDATED
    release_view(V, G)
    assert V not in _VALIDATED, "a released view must be checked again"
    G.remove_edge(2, 3)  # the caller's graph changes after the call: the view is disconnected now
    with pytest.raises(ValueError, match="disconnected"):
        validate_graph(V)
    F = validate_graph(nx.path_graph(3), freeze=True)
    assert validated_view(F) is F, "a validated frozen graph is its own view"
    with pytest.raises(ValueError, match="disconnected"):
        validated_view(nx.Graph([(0, 1), (2, 3)]))
    with pytest.raises(ValueError, match="directed"):
        validated_view(nx.DiGraph([(0, 1)]))

    class Named(nx.Graph):
        pass

    H = validated_view(Named(nx.path_graph(3)))
    assert type(H) is nx.Graph and nx.is_frozen(H), "a subclass is validated on a frozen copy, as before"


def test_a_large_graph_with_self_loops_is_refused_like_a_small_one():
    G = nx.path_graph(1500)  # n >= 1000: the loops are read from the edge array
    G.add_edges_from([(700, 700), (3, 3)])
    with pytest.raises(ValueError, match=r"2 self-loop\(s\), e.g. at vertex 3;"):
        validate_graph(G)
