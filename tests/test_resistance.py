"""Effective resistance (§3): against networkx, closed forms, Foster, metric, Rayleigh."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simpred_lite.graphs import barbell_graph, cut_edges, cut_size, grid_graph, planted_partition
from simpred_lite.resistance import (
    DENSE_LIMIT,
    edge_list,
    effective_resistance,
    incidence,
    laplacian,
    laplacian_pinv,
    resistance_diameter,
    resistance_weighted_cut,
)


def random_connected_graph(n: int, p: float, seed: int) -> nx.Graph:
    """G(n, p) plus a random spanning path, so it is connected."""
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, p, seed=int(rng.integers(2**31)))
    perm = rng.permutation(n)
    G.add_edges_from(zip(perm[:-1].tolist(), perm[1:].tolist()))
    return G


graphs = st.builds(
    random_connected_graph,
    n=st.integers(2, 14),
    p=st.floats(0.0, 0.8),
    seed=st.integers(0, 10_000),
)


# -- matrices ---------------------------------------------------------------------------
@given(graphs)
@settings(max_examples=30)
def test_incidence_factorises_laplacian(G):
    Psi = incidence(G)
    L = laplacian(G)
    assert Psi.shape == (G.number_of_edges(), G.number_of_nodes())
    np.testing.assert_array_equal((Psi.T @ Psi).toarray(), L.toarray())
    # each row maps v to v_u - v_v for its edge (u, v) of edge_list, u < v
    v = np.arange(G.number_of_nodes(), dtype=float) ** 2
    np.testing.assert_array_equal(Psi @ v, [v[a] - v[b] for a, b in edge_list(G)])


def test_laplacian_ignores_weights():
    G = nx.path_graph(3)
    nx.set_edge_attributes(G, 5.0, "weight")
    np.testing.assert_array_equal(laplacian(G).toarray(), [[1, -1, 0], [-1, 2, -1], [0, -1, 1]])
    assert effective_resistance(G, pairs=[(0, 2)])[0] == pytest.approx(2.0)


@given(graphs)
@settings(max_examples=20)
def test_pinv_is_moore_penrose(G):
    Lp = laplacian_pinv(G)
    L = laplacian(G).toarray()
    np.testing.assert_allclose(Lp, np.linalg.pinv(L), atol=1e-9)


# -- against networkx -----------------------------------------------------------------------
@given(graphs)
@settings(max_examples=25)
def test_matches_networkx(G):
    R = effective_resistance(G)
    for u, v in itertools.combinations(range(G.number_of_nodes()), 2):
        assert R[u, v] == pytest.approx(nx.resistance_distance(G, u, v, weight=None), abs=1e-9)


@given(graphs, st.integers(0, 1000))
@settings(max_examples=30)
def test_sparse_solvers_match_dense(G, seed):
    """The plain reference (dense L^+) and both sparse solvers agree on random pairs."""
    from simpred_lite.resistance import resistances_direct

    n = G.number_of_nodes()
    rng = np.random.default_rng(seed)
    P = rng.integers(0, n, size=(25, 2))
    R = effective_resistance(G)[P[:, 0], P[:, 1]]
    np.testing.assert_allclose(effective_resistance(G, pairs=P.tolist(), method="direct"), R, atol=1e-10)
    if n > 1:
        np.testing.assert_allclose(resistances_direct(G, P, "etree"), R, atol=1e-10)
    np.testing.assert_allclose(effective_resistance(G, pairs=P.tolist(), method="cg"), R, atol=1e-9)


@pytest.mark.parametrize("G", [grid_graph(40, 50)[0], planted_partition(300, 3, 0.1, 0.01, seed=2)[0]],
                         ids=["grid", "planted"])
def test_sparse_solvers_match_dense_on_larger_graphs(G):
    """Both direct strategies (elimination-tree forward solves, batched LU solves) and CG."""
    from simpred_lite.resistance import resistances_direct

    n = G.number_of_nodes()
    rng = np.random.default_rng(0)
    P = rng.integers(0, n, size=(40, 2))
    R = effective_resistance(G)[P[:, 0], P[:, 1]]
    for strategy in ("etree", "solve", "auto"):
        np.testing.assert_allclose(resistances_direct(G, P, strategy), R, rtol=1e-9)
    np.testing.assert_allclose(effective_resistance(G, pairs=P, method="direct"), R, rtol=1e-9)
    np.testing.assert_allclose(effective_resistance(G, pairs=P, method="cg"), R, rtol=1e-8)


def test_auto_switches_between_cg_and_direct(monkeypatch):
    """Above 5000 vertices, "auto" uses CG on an expander and the factorisation on a grid."""
    import simpred_lite.resistance as res

    used = []
    real_cg, real_direct = res.resistances_cg, res.resistances_direct

    def spy_cg(G, P, maxiter):
        out = real_cg(G, P, maxiter)
        used.append("cg" if out is not None else "cg-failed")
        return out

    def spy_direct(G, P, strategy="auto"):
        used.append("direct")
        return real_direct(G, P, strategy)

    monkeypatch.setattr(res, "resistances_cg", spy_cg)
    monkeypatch.setattr(res, "resistances_direct", spy_direct)
    expander = nx.random_regular_graph(4, 6000, seed=3)
    grid, _ = grid_graph(80, 80)
    for G, expected in ((expander, ["cg", "cg"]), (grid, ["cg-failed", "direct"])):
        used.clear()
        pairs = sorted(G.edges)[:5]
        R = effective_resistance(G, pairs)
        assert used == expected
        np.testing.assert_allclose(R, real_direct(G, np.array(pairs)), rtol=1e-9)


# -- closed forms ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 5, 9])
def test_path_and_tree_resistance_is_hop_distance(n):
    for T in (nx.path_graph(n), nx.random_labeled_tree(n, seed=n)):
        R = effective_resistance(T)
        D = dict(nx.all_pairs_shortest_path_length(T))
        for u, v in itertools.product(range(n), repeat=2):
            assert R[u, v] == pytest.approx(D[u][v], abs=1e-9)
        assert resistance_diameter(T) == pytest.approx(nx.diameter(T))


@pytest.mark.parametrize("n", [3, 6, 11])
def test_complete_graph(n):
    R = effective_resistance(nx.complete_graph(n))
    off = ~np.eye(n, dtype=bool)
    np.testing.assert_allclose(R[off], 2.0 / n)


@pytest.mark.parametrize("n", [3, 7, 12])
def test_cycle(n):
    R = effective_resistance(nx.cycle_graph(n))
    for k in range(n):
        assert R[0, k] == pytest.approx(k * (n - k) / n)
    pairs = [(0, k) for k in range(n)]
    np.testing.assert_allclose(effective_resistance(nx.cycle_graph(n), pairs), [k * (n - k) / n for k in range(n)])


# -- theorems -------------------------------------------------------------------------------
@given(graphs)
@settings(max_examples=30)
def test_foster(G):
    """Foster's theorem: the resistances of all edges sum to n - 1."""
    R = effective_resistance(G, pairs=edge_list(G))
    assert R.sum() == pytest.approx(G.number_of_nodes() - 1)
    assert (R <= 1 + 1e-12).all() and (R > 0).all()


@given(graphs)
@settings(max_examples=25)
def test_metric(G):
    R = effective_resistance(G)
    n = G.number_of_nodes()
    np.testing.assert_allclose(R, R.T, atol=1e-12)
    np.testing.assert_array_equal(np.diag(R), 0.0)
    assert (R[~np.eye(n, dtype=bool)] > 0).all()
    # triangle inequality R_ik <= R_ij + R_jk, all triples at once
    assert (R[:, None, :] <= R[:, :, None] + R[None, :, :] + 1e-12).all()


@given(graphs, st.integers(0, 1000))
@settings(max_examples=25)
def test_rayleigh_monotonicity(G, seed):
    """Adding an edge never increases any effective resistance."""
    n = G.number_of_nodes()
    non_edges = [(u, v) for u, v in itertools.combinations(range(n), 2) if not G.has_edge(u, v)]
    if not non_edges:
        return
    u, v = non_edges[np.random.default_rng(seed).integers(len(non_edges))]
    before = effective_resistance(G)
    H = G.copy()
    H.add_edge(u, v)
    after = effective_resistance(H)
    assert (after <= before + 1e-12).all()
    assert after[u, v] < before[u, v]  # strictly, between the endpoints of the new edge


def test_resistance_weighted_cut_is_far_below_cut_on_dense_clusters():
    G, y = barbell_graph(10)
    # the bridge has resistance 1; every other edge is inside a clique
    assert cut_size(G, y) == 1
    assert resistance_weighted_cut(G, y) == pytest.approx(1.0)
    G, y = planted_partition(90, 3, 0.5, 0.02, seed=4)
    phi = resistance_weighted_cut(G, y)
    assert phi < 0.5 * cut_size(G, y)
    R = effective_resistance(G)
    assert phi == pytest.approx(sum(R[u, v] for u, v in cut_edges(G, y)))
    # per class: sum_k phi_k = 2 phi, as sum_k |Phi_k| = 2 |Phi|
    assert sum(resistance_weighted_cut(G, y, k) for k in range(3)) == pytest.approx(2 * phi)


def test_resistance_weighted_cut_of_a_tree_is_the_cut():
    T = nx.random_labeled_tree(30, seed=1)
    y = np.random.default_rng(1).integers(0, 3, 30)
    assert resistance_weighted_cut(T, y) == pytest.approx(cut_size(T, y))
    assert resistance_weighted_cut(T, np.zeros(30, dtype=int)) == 0.0


# -- bad input ------------------------------------------------------------------------------
def test_disconnected_graph_is_rejected():
    G = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(ValueError, match="disconnected"):
        effective_resistance(G)
    with pytest.raises(ValueError, match="disconnected"):
        effective_resistance(G, pairs=[(0, 1)])


def test_unknown_vertex_in_pairs():
    G = nx.path_graph(4)
    with pytest.raises(ValueError, match=r"unknown pairs\[1\] vertex 7"):
        effective_resistance(G, pairs=[(0, 1), (2, 7)])
    with pytest.raises(ValueError, match=r"unknown pairs\[0\] vertex -1"):
        effective_resistance(G, pairs=[(-1, 2)])
    with pytest.raises(ValueError, match="not a pair"):
        effective_resistance(G, pairs=[(0, 1, 2)])
    with pytest.raises(TypeError, match=r"pairs\[0\] vertex must be an integer"):  # a type error, as everywhere
        effective_resistance(G, pairs=[(0, 1.5)])


def test_bad_method_and_too_large_for_dense():
    with pytest.raises(ValueError, match="method must be"):
        effective_resistance(nx.path_graph(3), pairs=[(0, 1)], method="magic")
    G = nx.path_graph(DENSE_LIMIT + 1)
    with pytest.raises(ValueError, match="DENSE_LIMIT"):
        effective_resistance(G)
    with pytest.raises(ValueError, match="DENSE_LIMIT"):
        resistance_diameter(G)
    # ... while pairs still work at that size
    assert effective_resistance(G, pairs=[(0, DENSE_LIMIT)])[0] == pytest.approx(DENSE_LIMIT)
