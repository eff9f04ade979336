"""Uniform random spanning trees (§4) and Lemma l:expected, checked on data.

Monte Carlo tests are seeded; each tolerance is stated in standard errors (SE).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from scipy.stats import chisquare

from simpred_lite.graphs import cut_edges, grid_graph, planted_partition
from simpred_lite.resistance import edge_list, effective_resistance, resistance_weighted_cut
from simpred_lite.spanning import (
    EXACT_COUNT_LIMIT,
    aldous_broder,
    aldous_broder_parents,
    count_spanning_trees,
    edge_inclusion_frequencies,
    sample_spanning_trees,
    tree_from_parents,
    wilson,
    wilson_parents,
)

K4 = nx.complete_graph(4)
GRID3 = grid_graph(3, 3)[0]


def tree_key(parent: np.ndarray) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((min(v, p), max(v, p)) for v, p in enumerate(parent.tolist()) if p >= 0))


def all_trees(G: nx.Graph) -> list[tuple[tuple[int, int], ...]]:
    return [tuple(sorted((min(u, v), max(u, v)) for u, v in T.edges)) for T in nx.SpanningTreeIterator(G)]


# -- basic contract -------------------------------------------------------------------------
@pytest.mark.parametrize("sampler", [wilson, aldous_broder])
@pytest.mark.parametrize("G", [K4, GRID3, nx.petersen_graph(), nx.path_graph(2), nx.empty_graph(1)])
def test_returns_a_spanning_tree_of_G(sampler, G):
    T = sampler(G, seed=3)
    assert sorted(T.nodes) == list(range(G.number_of_nodes()))
    assert nx.is_tree(T)
    assert all(G.has_edge(u, v) for u, v in T.edges)


def test_seeded_and_reproducible():
    G = nx.petersen_graph()
    assert sorted(wilson(G, 7).edges) == sorted(wilson(G, 7).edges)
    assert sorted(aldous_broder(G, 7).edges) == sorted(aldous_broder(G, 7).edges)
    np.testing.assert_array_equal(sample_spanning_trees(G, 5, 1), sample_spanning_trees(G, 5, 1))
    assert len({tree_key(p) for p in sample_spanning_trees(G, 30, 0)}) > 20  # and random


def test_parent_arrays_are_rooted_trees():
    G = nx.petersen_graph()
    p = wilson_parents(G, seed=0, root=4)
    assert p[4] == -1 and (p >= 0).sum() == 9
    q = aldous_broder_parents(G, seed=0, start=2)
    assert q[2] == -1 and (q >= 0).sum() == 9
    assert nx.is_tree(tree_from_parents(p)) and nx.is_tree(tree_from_parents(q))


# -- uniformity -----------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["wilson", "aldous_broder"])
@pytest.mark.parametrize("G, expected_count, per_tree", [(K4, 16, 300), (GRID3, 192, 40)])
def test_uniform_over_all_spanning_trees(method, G, expected_count, per_tree):
    """Chi-square goodness of fit of the sampled trees against the uniform distribution."""
    trees = all_trees(G)
    assert len(trees) == expected_count == count_spanning_trees(G)
    index = {t: i for i, t in enumerate(trees)}
    samples = per_tree * expected_count
    P = sample_spanning_trees(G, samples, seed=2024, method=method)
    counts = np.bincount([index[tree_key(p)] for p in P], minlength=len(trees))  # KeyError = not a tree of G
    assert (counts > 0).all()
    assert chisquare(counts).pvalue > 1e-3


def test_wilson_with_a_fixed_root_is_uniform_too():
    trees = all_trees(K4)
    index = {t: i for i, t in enumerate(trees)}
    rng = np.random.default_rng(5)
    counts = np.bincount([index[tree_key(wilson_parents(K4, rng, root=0))] for _ in range(3200)], minlength=16)
    assert chisquare(counts).pvalue > 1e-3


def test_chi_square_detects_a_biased_sampler():
    """Control: the same test rejects random-weight minimum spanning trees (not uniform)."""
    trees = all_trees(GRID3)
    index = {t: i for i, t in enumerate(trees)}
    rng = np.random.default_rng(2024)
    counts = np.zeros(len(trees), dtype=int)
    for _ in range(40 * 192):
        H = GRID3.copy()
        for u, v in H.edges:
            H[u][v]["w"] = rng.random()
        T = nx.minimum_spanning_tree(H, weight="w")
        counts[index[tuple(sorted((min(u, v), max(u, v)) for u, v in T.edges))]] += 1
    assert chisquare(counts).pvalue < 1e-6


def test_edge_marginals_are_effective_resistances():
    """P(e in T) = R_e: every edge's frequency within 4.5 SE of its resistance."""
    G, _ = planted_partition(24, 2, 0.5, 0.1, seed=1)
    S = 6000
    R = effective_resistance(G, pairs=edge_list(G))
    for method in ("wilson", "aldous_broder"):
        f = edge_inclusion_frequencies(G, S, seed=11, method=method)
        assert f.sum() == pytest.approx(G.number_of_nodes() - 1)  # every tree has n - 1 edges
        se = np.sqrt(R * (1 - R) / S)  # binomial standard error, at most 0.0065 here
        assert np.all(np.abs(f - R) <= 4.5 * se + 1e-12)


# -- Lemma l:expected -----------------------------------------------------------------------
def _tree_cut_sizes(trees, labels, k):
    y = np.asarray(labels)
    return np.array([sum(1 for u, v in t if y[u] != y[v] and k in (y[u], y[v])) for t in trees])


@pytest.mark.parametrize("G, labels", [
    (GRID3, [0, 0, 1, 0, 2, 1, 2, 2, 1]),
    (K4, [0, 1, 1, 2]),
    (nx.cycle_graph(6), [0, 0, 1, 1, 2, 2]),
    (nx.petersen_graph(), [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]),
])
def test_lemma_expected_exactly_by_enumeration(G, labels):
    """Over *all* spanning trees: E|Phi^T_k| = sum_{Phi^G_k} R (1) and E|Phi^T_k|^2 <= 2 (sum R)^2 (2)."""
    trees = all_trees(G)
    assert len(trees) == count_spanning_trees(G)
    for k in sorted(set(labels)):
        phi_k = resistance_weighted_cut(G, labels, k)
        sizes = _tree_cut_sizes(trees, labels, k)
        assert sizes.mean() == pytest.approx(phi_k, rel=1e-12)
        assert (sizes**2).mean() <= 2 * phi_k**2
    # the negative correlation used in the proof: P(e, f in T) <= P(e in T) P(f in T)
    edges = edge_list(G)
    X = np.array([[e in set(t) for e in edges] for t in trees], dtype=float)
    joint = X.T @ X / len(trees)
    marg = X.mean(axis=0)
    off = ~np.eye(len(edges), dtype=bool)
    assert (joint[off] <= np.outer(marg, marg)[off] + 1e-12).all()


def test_lemma_expected_by_monte_carlo_on_a_larger_graph():
    G, y = planted_partition(60, 3, 0.4, 0.03, seed=5)
    S = 3000
    P = sample_spanning_trees(G, S, seed=8)
    trees = [tree_key(p) for p in P]
    for k in range(3):
        phi_k = resistance_weighted_cut(G, y, k)
        sizes = _tree_cut_sizes(trees, y, k)
        se = sizes.std(ddof=1) / math.sqrt(S)
        assert abs(sizes.mean() - phi_k) <= 4 * se
        assert (sizes**2).mean() <= 2 * phi_k**2
    # and the whole cut: E|Phi^T| = phi, far below |Phi^G| on this clustered graph
    cut = cut_edges(G, y)
    sizes = np.array([sum(1 for e in t if e in set(cut)) for t in trees])
    assert abs(sizes.mean() - resistance_weighted_cut(G, y)) <= 4 * sizes.std(ddof=1) / math.sqrt(S)


# -- Kirchhoff ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_count_closed_forms(n):
    assert count_spanning_trees(nx.complete_graph(n)) == n ** (n - 2)  # Cayley
    assert count_spanning_trees(nx.path_graph(n)) == 1
    assert count_spanning_trees(nx.cycle_graph(max(n, 3))) == max(n, 3)
    assert count_spanning_trees(nx.complete_bipartite_graph(n, 3)) == n**2 * 3 ** (n - 1)
    assert count_spanning_trees(nx.empty_graph(1)) == 1


def test_count_matches_enumeration_on_random_graphs():
    for seed in range(5):
        G = nx.gnp_random_graph(7, 0.45, seed=seed)
        G.add_edges_from(zip(range(6), range(1, 7)))
        assert count_spanning_trees(G) == len(all_trees(G))


def grid_log_count(rows: int, cols: int) -> float:
    """Closed form: tau = prod over nonzero Laplacian eigenvalues / n, eigenvalues of a grid are
    4 sin^2(pi a / 2 rows) + 4 sin^2(pi b / 2 cols)."""
    a = 4 * np.sin(np.pi * np.arange(rows) / (2 * rows)) ** 2
    b = 4 * np.sin(np.pi * np.arange(cols) / (2 * cols)) ** 2
    lam = (a[:, None] + b[None, :]).ravel()[1:]
    return float(np.sum(np.log(lam)) - math.log(rows * cols))


def test_log_count_is_exact_where_floats_overflow():
    # exact integers: the log of the exact count (the 20 x 20 grid has ~10^187 trees)
    for r, c in [(3, 3), (7, 9), (20, 20)]:
        G, _ = grid_graph(r, c)
        exact = count_spanning_trees(G)
        assert count_spanning_trees(G, log=True) == pytest.approx(math.log(exact), rel=1e-12)
        assert math.log(exact) == pytest.approx(grid_log_count(r, c), rel=1e-12)
    # far past float overflow (~e^709): the 60 x 60 grid has ~e^4196 spanning trees
    G, _ = grid_graph(60, 60)
    log_count = count_spanning_trees(G, log=True)
    assert log_count > 4000
    assert log_count == pytest.approx(grid_log_count(60, 60), rel=1e-10)


# -- bad input ------------------------------------------------------------------------------
def test_disconnected_graph_is_rejected():
    G = nx.Graph([(0, 1), (2, 3)])
    for fn in (wilson, aldous_broder, wilson_parents):
        with pytest.raises(ValueError, match="disconnected"):
            fn(G, seed=0)
    with pytest.raises(ValueError, match="disconnected"):
        count_spanning_trees(G)
    with pytest.raises(ValueError, match="disconnected"):
        edge_inclusion_frequencies(G, 10, seed=0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown root 9"):
        wilson(K4, seed=0, root=9)
    with pytest.raises(ValueError, match="unknown start -1"):
        aldous_broder(K4, seed=0, start=-1)
    with pytest.raises(ValueError, match="explicit seed"):
        wilson(K4, seed=None)
    with pytest.raises(ValueError, match="at least 1"):
        edge_inclusion_frequencies(K4, 0, seed=0)
    with pytest.raises(TypeError, match="samples must be an integer"):
        sample_spanning_trees(K4, 2.5, seed=0)
    with pytest.raises(ValueError, match="method must be"):
        sample_spanning_trees(K4, 2, seed=0, method="kruskal")
    with pytest.raises(ValueError, match="EXACT_COUNT_LIMIT"):
        count_spanning_trees(nx.path_graph(EXACT_COUNT_LIMIT + 1))


def test_wilson_equals_its_step_by_step_reference():
    """The next-pointer trick is chronological loop erasure: same draws, same tree."""
    from simpred_lite.spanning import wilson_trace

    for seed, G in enumerate([nx.petersen_graph(), GRID3, planted_partition(50, 3, 0.3, 0.05, seed=2)[0]]):
        for root in (None, 0):
            parent, steps = wilson_trace(G, seed, root)
            np.testing.assert_array_equal(parent, wilson_parents(G, seed, root))
            for st in steps:
                path = st["path"]
                assert len(set(path)) == len(path)  # loop-free
                assert all(G.has_edge(a, b) for a, b in zip(path, path[1:]))
                assert path[0] == st["walk"][0] and path[-1] == st["walk"][-1]
