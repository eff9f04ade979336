"""Tests of simpred_lite.theory.hardness: exact Ising partition functions and the reduction of
Theorem t:hardness, Z_G(2β) = Z_P(C, β)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simpred_lite.checks import check_random_state
from simpred_lite.theory.hardness import (
    brute_force_terms,
    constrained_partition_function,
    constraint_frontier,
    cut_size_counts,
    partition_function,
    path_marginals,
    path_marginals_bruteforce,
    path_partition_function,
    reduce_to_constrained_path,
    reduction_steps,
    transfer_matrix_operations,
)


# -- plain references: enumerate every labeling, no tricks -----------------------------------
def naive_Z(G, beta, constraints=(), observed=None):
    observed = observed or {}
    nodes = sorted(G.nodes)
    total = Fraction(0)
    for y in product((0, 1), repeat=len(nodes)):
        if any(y[i] != y[j] for i, j in constraints):
            continue
        if any(y[v] != lab for v, lab in observed.items()):
            continue
        cut = sum(y[u] != y[v] for u, v in G.edges())
        total += Fraction(1, 2 ** (beta * cut))
    return total


def naive_marginals(n, beta, observed):
    P = nx.path_graph(n)
    Z = naive_Z(P, beta, observed=observed)
    return [naive_Z(P, beta, observed={**observed, v: 1}) / Z if v not in observed
            else Fraction(observed[v]) for v in range(n)]


def random_connected_graph(n, p, seed):
    rng = check_random_state(seed)
    while True:
        G = nx.gnp_random_graph(n, p, seed=int(rng.integers(2**31)))
        if nx.is_connected(G):
            return G


# -- brute force partition functions -------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_partition_function_matches_naive_enumeration(seed):
    G = random_connected_graph(7, 0.4, seed)
    for beta in (1, 2, 3):
        assert partition_function(G, beta) == naive_Z(G, beta)


def test_partition_function_closed_forms():
    # a tree with n vertices: Z = 2 (1 + 2^-β)^(n-1); the complete graph K_n: Σ_k C(n,k) q^(k(n-k))
    for beta in (1, 2, 4):
        q = Fraction(1, 2**beta)
        assert partition_function(nx.balanced_tree(2, 2), beta) == 2 * (1 + q) ** 6
        from math import comb
        assert partition_function(nx.complete_graph(5), beta) == sum(comb(5, k) * q ** (k * (5 - k)) for k in range(6))


def test_cut_size_counts_sum_to_all_labelings():
    G = random_connected_graph(9, 0.3, 1)
    counts = cut_size_counts(G)
    assert counts.sum() == 2**9
    assert counts[0] == 2  # only the two constant labelings cut nothing in a connected graph


def test_brute_force_refuses_large_graphs_with_a_pointer():
    G = nx.path_graph(21)
    with pytest.raises(ValueError, match="path_partition_function"):
        partition_function(G, 1)
    with pytest.raises(ValueError, match="too many"):
        path_marginals_bruteforce(21, 1)
    P, C = nx.path_graph(30), []
    with pytest.raises(ValueError, match="2\\^30 labelings"):
        constrained_partition_function(P, C, 1)
    # constraints that glue the path into few classes make brute force cheap again
    assert constrained_partition_function(P, [(i, i + 15) for i in range(15)], 1) > 0


@pytest.mark.parametrize("bad", [0, -1])
def test_beta_must_be_positive(bad):
    with pytest.raises(ValueError, match="beta must be at least 1"):
        partition_function(nx.path_graph(3), bad)


@pytest.mark.parametrize("bad", [1.0, 0.5, True, "1"])
def test_beta_must_be_an_integer(bad):
    with pytest.raises(TypeError, match="beta must be an integer"):
        path_partition_function(3, bad)


def test_bad_constraints_and_observations():
    with pytest.raises(ValueError, match="unknown constraint vertex 5"):
        constrained_partition_function(nx.path_graph(3), [(0, 5)], 1)
    with pytest.raises(ValueError, match="pair"):
        constrained_partition_function(nx.path_graph(3), [(0, 1, 2)], 1)
    with pytest.raises(ValueError, match="bits 0 or 1"):
        path_marginals(3, 1, observed={0: 2})
    with pytest.raises(ValueError, match="unknown observed vertex 3"):
        path_marginals(3, 1, observed={3: 0})
    with pytest.raises(ValueError, match="n must be at least 1"):
        path_partition_function(0, 1)


def test_graph_is_validated():
    with pytest.raises(ValueError, match="disconnected"):
        partition_function(nx.empty_graph(3), 1)
    with pytest.raises(ValueError, match="disconnected"):
        reduce_to_constrained_path(nx.empty_graph(2))


# -- transfer matrix on paths --------------------------------------------------------------------
@given(n=st.integers(1, 9), beta=st.integers(1, 4),
       obs=st.dictionaries(st.integers(0, 8), st.integers(0, 1), max_size=4))
def test_transfer_matrix_equals_brute_force_on_paths(n, beta, obs):
    obs = {v: lab for v, lab in obs.items() if v < n}
    assert path_partition_function(n, beta, obs) == naive_Z(nx.path_graph(n), beta, observed=obs)
    assert path_marginals(n, beta, obs) == naive_marginals(n, beta, obs) == path_marginals_bruteforce(n, beta, obs)


def test_transfer_matrix_closed_form_and_scale():
    for beta in (1, 3):
        q = Fraction(1, 2**beta)
        assert path_partition_function(200, beta) == 2 * (1 + q) ** 199
        # no evidence: by symmetry every marginal is exactly 1/2
        assert set(path_marginals(50, beta)) == {Fraction(1, 2)}


def test_operation_counts():
    assert [transfer_matrix_operations(n) for n in (1, 2, 11)] == [0, 4, 40]
    assert brute_force_terms(11) == 2048


# -- the reduction ---------------------------------------------------------------------------
def graph_cases():
    yield nx.cycle_graph(5)
    yield nx.complete_graph(4)
    yield nx.petersen_graph()
    yield nx.path_graph(1)
    yield nx.star_graph(4)
    for seed in range(25):
        rng = check_random_state(seed)
        yield random_connected_graph(int(rng.integers(2, 8)), float(rng.uniform(0.3, 0.9)), seed)


@pytest.mark.parametrize("G", list(graph_cases()))
def test_reduction_structure(G):
    n, m = G.number_of_nodes(), G.number_of_edges()
    steps = reduction_steps(G)
    T = nx.Graph(steps.tree_edges)
    T.add_nodes_from(G)
    assert nx.is_tree(T) and set(T.edges) <= {tuple(sorted(e)) for e in G.edges} | set(T.edges)
    assert all(G.has_edge(u, v) for u, v in steps.tree_edges)
    assert len(steps.visit) == 2 * n - 1 and steps.paths[0] == steps.visit
    assert len(steps.non_tree_edges) == m - (n - 1)
    P, C = reduce_to_constrained_path(G)
    copy = nx.get_node_attributes(P, "copy")
    assert P.number_of_nodes() == 2 * n - 1 + 2 * len(steps.non_tree_edges)
    assert nx.is_isomorphic(P, nx.path_graph(P.number_of_nodes()))
    assert all(P.has_edge(p, p + 1) for p in range(P.number_of_nodes() - 1))
    # every G-edge has exactly two analogues in P, and P has no other edges
    analogues = Counter(frozenset((copy[a], copy[b])) for a, b in P.edges())
    assert analogues == Counter({frozenset(e): 2 for e in G.edges()})
    # constraints: exactly the pairs of path vertices copying the same G-vertex
    assert set(C) == {(i, j) for i in P for j in P if i < j and copy[i] == copy[j]}
    assert sorted(set(copy.values())) == list(range(n))


@pytest.mark.parametrize("G", list(graph_cases()))
def test_reduction_identity_Z_G_2beta_equals_Z_P_C_beta(G):
    P, C = reduce_to_constrained_path(G)
    for beta in (1, 2, 3, 4):
        assert partition_function(G, 2 * beta) == constrained_partition_function(P, C, beta)


def test_constrained_brute_force_matches_naive_on_small_paths():
    rng = check_random_state(5)
    for _ in range(20):
        m = int(rng.integers(2, 11))
        C = [tuple(int(v) for v in rng.choice(m, 2, replace=False)) for _ in range(int(rng.integers(0, 4)))]
        beta = int(rng.integers(1, 4))
        assert constrained_partition_function(nx.path_graph(m), C, beta) == naive_Z(nx.path_graph(m), beta, C)


def test_reduction_of_small_graph_also_matches_naive_on_P():
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    P, C = reduce_to_constrained_path(G)
    assert P.number_of_nodes() == 9
    assert naive_Z(P, 1, C) == partition_function(G, 2)


def test_reduction_matches_the_papers_figure_counts():
    # the paper's figure: 5 vertices, two non-tree edges -> P has 2*5-1 + 4 = 13 vertices
    G = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (0, 3), (1, 4)])
    steps = reduction_steps(G)
    assert len(steps.non_tree_edges) == 2 and len(steps.paths) == 3
    assert [len(p) for p in steps.paths] == [9, 11, 13]


def test_constraint_frontier_grows_with_the_reduction():
    assert constraint_frontier(3, []) == [0, 0]
    G = nx.complete_graph(6)
    P, C = reduce_to_constrained_path(G)
    front = constraint_frontier(P.number_of_nodes(), C)
    assert len(front) == P.number_of_nodes() - 1
    assert max(front) == 6  # every G-vertex is open somewhere in the middle
