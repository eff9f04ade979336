"""Algorithm 2 (Matrix Perceptron, Matrix Winnow) and the facts of Prop. percwin, on data."""

from __future__ import annotations

import math
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simpred_lite.bst import BinarySupportTree
from simpred_lite.graphs import cut_edges, cut_size, planted_partition
from simpred_lite.learners import MatrixPerceptron, MatrixWinnow
from simpred_lite.learners.matrix import (
    DENSE_PERCEPTRON_EDGE_LIMIT,
    DENSE_WINNOW_EDGE_LIMIT,
    bst_incidence,
    bst_instance,
    comparator_matrix,
    perceptron_mistake_bound,
    signed_path_overlap,
    winnow_mistake_bound,
)
from simpred_lite.online import adaptive_run, random_trials, run
from simpred_lite.resistance import incidence, laplacian_pinv, resistance_diameter


def _pinv_instance(Psi: np.ndarray, a: int, b: int) -> np.ndarray:
    e = np.zeros(Psi.shape[1])
    e[a], e[b] = 1.0, -1.0
    return np.linalg.pinv(Psi).T @ e


@st.composite
def small_bsts(draw, max_n=24):
    n = draw(st.integers(2, max_n))
    perm = draw(st.permutations(range(n)))
    return BinarySupportTree(list(perm))


# -- instances -------------------------------------------------------------------------------
@given(small_bsts(max_n=12))
@settings(max_examples=15)
def test_bst_incidence_gives_laplacian_and_instances_are_signed_paths(B):
    Psi = bst_incidence(B).toarray()
    Bg = nx.relabel_nodes(B.to_networkx(), {h: h - 1 for h in range(1, 2 * B.num_leaves)})
    L = nx.laplacian_matrix(Bg, nodelist=range(2 * B.num_leaves - 1)).toarray()
    assert np.array_equal(Psi.T @ Psi, L)
    for u in range(B.n):
        for v in range(B.n):
            if u == v:
                continue
            edges, signs = bst_instance(B, u, v)
            x = np.zeros(Psi.shape[0])
            x[edges] = signs
            assert np.allclose(x, _pinv_instance(Psi, B.leaf(u) - 1, B.leaf(v) - 1), atol=1e-9)
            assert len(edges) == len(B.path(u, v)) - 1  # ||psi||^2 = R_uv = path length


@given(small_bsts(max_n=16), st.data())
@settings(max_examples=20)
def test_signed_path_overlap_is_the_instance_inner_product(B, data):
    Psi = bst_incidence(B).toarray()
    pairs = [tuple(data.draw(st.lists(st.integers(0, B.n - 1), min_size=2, max_size=2, unique=True))) for _ in range(2)]
    xs = [_pinv_instance(Psi, B.leaf(u) - 1, B.leaf(v) - 1) for u, v in pairs]
    ov = signed_path_overlap(B, *pairs)
    assert isinstance(ov, int)
    assert abs(ov - xs[0] @ xs[1]) < 1e-9
    # <X_s, X_t> = tr(x_s x_s^T x_t x_t^T) = (x_s^T x_t)^2
    assert abs(np.sum(np.outer(*[xs[0]] * 2) * np.outer(*[xs[1]] * 2)) - ov**2) < 1e-8


def test_general_graph_instance_norm_is_effective_resistance():
    G, _ = planted_partition(14, 2, 0.6, 0.1, seed=3)
    learner = MatrixPerceptron(G)
    Lp = laplacian_pinv(G)
    Psi = incidence(G).toarray()
    for i, j in [(0, 5), (3, 11), (7, 8)]:
        idx, x = learner._geo.instance(i, j)
        R_ij = Lp[i, i] + Lp[j, j] - 2 * Lp[i, j]
        assert abs(x @ x - R_ij) < 1e-9
        assert np.allclose(x, _pinv_instance(Psi, i, j), atol=1e-9)
    assert abs(learner.threshold - resistance_diameter(G) ** 2) < 1e-9


# -- Prop. percwin: separability, ||U||_F, mistake bounds ------------------------------------
@pytest.mark.parametrize("seed,K", [(0, 2), (1, 3), (2, 4)])
def test_comparator_separates_with_margin_two(seed, K):
    G, y = planted_partition(18, K, 0.5, 0.1, seed=seed)
    U = comparator_matrix(G, y)
    Psi = incidence(G).toarray()
    for i in range(G.number_of_nodes()):
        for j in range(i + 1, G.number_of_nodes()):
            x = _pinv_instance(Psi, i, j)
            assert abs(x @ U @ x - 2 * (y[i] != y[j])) < 1e-8


@pytest.mark.parametrize("seed,K", [(0, 2), (1, 2), (2, 3), (3, 4), (4, 5)])
def test_comparator_norm_is_at_most_four_cut_squared(seed, K):
    G, y = planted_partition(20, K, 0.5, 0.15, seed=seed)
    U = comparator_matrix(G, y)
    norm2 = float((U**2).sum())
    phi = cut_size(G, y)
    per_class = [cut_size(G, y, k) for k in range(K)]
    between = sum(
        sum(1 for u, v in cut_edges(G, y) if {y[u], y[v]} == {a, b}) ** 2 for a in range(K) for b in range(K) if a != b
    )
    assert abs(norm2 - (sum(c * c for c in per_class) + between)) < 1e-8  # the proof's identity
    assert norm2 <= 4 * phi**2 + 1e-9
    if K == 2:  # tight, and the proof sketch's "<= 2 |Phi|^2" fails
        assert abs(norm2 - 4 * phi**2) < 1e-8 and norm2 > 2 * phi**2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_perceptron_mistakes_within_prop_percwin_bound(seed):
    G, y = planted_partition(16, 2, 0.6, 0.1, seed=seed)
    R = resistance_diameter(G)
    bound = perceptron_mistake_bound(R, float((comparator_matrix(G, y) ** 2).sum()))
    for trials in (random_trials(G, y, 400, seed=seed), None):
        learner = MatrixPerceptron(G)
        if trials is None:
            _, result = adaptive_run(learner, y, 400, seed=seed)
        else:
            result = run(learner, trials)
        assert 0 < result.total_mistakes <= bound


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_winnow_mistakes_within_prop_percwin_bound(seed):
    G, y = planted_partition(16, 2, 0.6, 0.1, seed=seed)
    phi = cut_size(G, y)
    learner = MatrixWinnow(G, cut_size=phi)
    _, result = adaptive_run(learner, y, 400, seed=seed)
    assert 0 < result.total_mistakes <= winnow_mistake_bound(learner.R, phi, learner.m)


def test_winnow_threshold_is_algorithm_2s():
    G, y = planted_partition(12, 2, 0.6, 0.2, seed=5)
    phi = cut_size(G, y)
    learner = MatrixWinnow(G, cut_size=phi, eta=1.28)
    R = resistance_diameter(G)
    assert abs(learner.threshold - 1.28 / (math.exp(1.28) - math.exp(-1.28)) / (R * phi)) < 1e-15


# -- the Perceptron on a tree is exact -------------------------------------------------------
@given(small_bsts(max_n=12), st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11), st.booleans()), max_size=60))
@settings(max_examples=25)
def test_perceptron_on_bst_equals_perceptron_on_the_tree_as_a_graph(B, seq):
    Bg = nx.relabel_nodes(B.to_networkx(), {h: h - 1 for h in range(1, 2 * B.num_leaves)})
    on_bst, on_graph = MatrixPerceptron(B), MatrixPerceptron(Bg)
    assert on_graph._geo.exact and on_graph.threshold == on_bst.threshold == (2 * B.depth) ** 2
    for i, j, y in seq:
        i, j = i % B.n, j % B.n
        if i == j:
            continue
        a, b = B.leaf(i) - 1, B.leaf(j) - 1
        assert on_bst.score(i, j) == on_graph.score(a, b)
        assert on_bst.predict_one(i, j) == on_graph.predict_one(a, b)
        on_bst.learn_one(i, j, int(y))
        on_graph.learn_one(a, b, int(y))


# -- Matrix Winnow: low rank == dense expm ---------------------------------------------------
def _lockstep(G, cut, trials, **kw):
    """Run low-rank and dense Winnow side by side; return how many trials were compared."""
    low = MatrixWinnow(G, cut_size=cut, method="lowrank", **kw)
    dense = MatrixWinnow(G, cut_size=cut, method="dense", **kw)
    for t, (i, j, y) in enumerate(trials):
        p_low, p_dense = low.predict_one(i, j), dense.predict_one(i, j)
        if p_low != p_dense:
            # only a tie may differ: the dense score within 1e-9 (relative) of the threshold
            assert abs(dense.score(i, j) - dense.threshold) <= 1e-9 * dense.threshold
            return t
        assert abs(low.log_score(i, j) - dense.log_score(i, j)) < 1e-8
        low.learn_one(i, j, y)
        dense.learn_one(i, j, y)
    assert low.mistakes == dense.mistakes
    return len(trials)


@given(
    st.integers(5, 18), st.integers(2, 3), st.integers(0, 10**6),
    st.lists(st.tuples(st.integers(0, 17), st.integers(0, 17), st.booleans()), min_size=1, max_size=80),
)
@settings(max_examples=25)
def test_winnow_lowrank_matches_dense_on_random_graphs(n, K, seed, seq):
    G, y = planted_partition(n, K, 0.5, 0.15, seed=seed)
    trials = [(i % n, j % n, int(lab)) for i, j, lab in seq if i % n != j % n]  # arbitrary labels too
    _lockstep(G, max(cut_size(G, y), 1), trials)


@given(small_bsts(max_n=20), st.integers(0, 10**6), st.floats(0.1, 3.0))
@settings(max_examples=12)
def test_winnow_lowrank_matches_dense_on_bsts(B, seed, eta):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=B.n)
    trials = []
    for _ in range(80):
        i, j = rng.choice(B.n, 2, replace=False)
        trials.append((int(i), int(j), int(y[i] != y[j])))
    assert _lockstep(B, max(B.cut_size(y), 1), trials, eta=eta) > 0


def test_winnow_5000_mistakes_no_overflow_or_nan():
    G, y = planted_partition(12, 2, 0.6, 0.1, seed=0)
    low = MatrixWinnow(G, cut_size=cut_size(G, y), method="lowrank")
    dense = MatrixWinnow(G, cut_size=cut_size(G, y), method="dense")
    rng = np.random.default_rng(0)
    agree = compared = 0
    with warnings.catch_warnings(), np.errstate(over="raise", invalid="raise"):
        warnings.simplefilter("error")
        while low.mistakes < 5000:
            i, j = (int(v) for v in rng.choice(12, 2, replace=False))
            y_hat = low.predict_one(i, j)
            assert math.isfinite(low.log_score(i, j))
            if dense is not None and low.mistakes < 300:  # the dense reference, while it is cheap
                compared += 1
                agree += dense.predict_one(i, j) == y_hat
                dense.learn_one(i, j, 1 - y_hat)
            low.learn_one(i, j, 1 - y_hat)  # the adversary always says the opposite
    assert low.mistakes == 5000 and low.trials == 5000
    assert np.all(np.isfinite(low._lam)) and np.all(np.isfinite(low._E))
    assert agree == compared == 300


def test_winnow_log_domain_beats_dense_overflow():
    # promote the same pair far beyond what exp() of float64 can hold: the low-rank score
    # stays finite in the log domain (the dense expm would overflow).
    G = nx.path_graph(5)
    low = MatrixWinnow(G, cut_size=1, eta=1.28)
    for _ in range(1000):
        low._learn(0, 4, 1, 0, None)  # hook directly: a promotion whatever the prediction
    assert low.log_score(0, 4) == pytest.approx(1000 * 1.28 - math.log(low.m), rel=1e-12)
    assert low.score(0, 4) == math.inf and low.predict_one(0, 4) == 1


# -- bad input -------------------------------------------------------------------------------
def test_winnow_bad_parameters():
    G = nx.cycle_graph(5)
    with pytest.raises(ValueError, match="needs the cut size"):
        MatrixWinnow(G)
    for bad in (0, -3, float("nan")):
        with pytest.raises(ValueError, match="cut_size must be a positive"):
            MatrixWinnow(G, cut_size=bad)
    for bad in (0, -1.0, float("inf")):
        with pytest.raises(ValueError, match="eta must be a positive"):
            MatrixWinnow(G, cut_size=2, eta=bad)
    with pytest.raises(TypeError, match="cut_size must be a positive number"):
        MatrixWinnow(G, cut_size="2")
    with pytest.raises(ValueError, match="method must be"):
        MatrixWinnow(G, cut_size=2, method="fast")


@pytest.mark.parametrize("make", [lambda G: MatrixPerceptron(G), lambda G: MatrixWinnow(G, cut_size=1)])
def test_bad_pairs_and_labels(make):
    learner = make(nx.path_graph(4))
    with pytest.raises(ValueError, match="unknown vertex i 7"):
        learner.predict_one(7, 1)
    with pytest.raises(ValueError, match="two distinct vertices"):
        learner.predict_one(2, 2)
    with pytest.raises(ValueError, match="similarity label must be 0"):
        learner.learn_one(0, 1, 2)
    with pytest.raises(TypeError, match="networkx graph or a BinarySupportTree"):
        make([[0, 1]])


def test_dense_references_refuse_large_graphs():
    big = BinarySupportTree(list(range(2049)))  # N = 4096 leaves, m = 8190 edges
    with pytest.raises(ValueError, match=rf"limited to m <= {DENSE_PERCEPTRON_EDGE_LIMIT}.*BSTPerceptron"):
        MatrixPerceptron(big)
    mid = BinarySupportTree(list(range(600)))  # m = 2046
    with pytest.raises(ValueError, match=rf"limited to m <= {DENSE_WINNOW_EDGE_LIMIT}.*method='lowrank'"):
        MatrixWinnow(mid, cut_size=3, method="dense")
    assert MatrixWinnow(mid, cut_size=3).m == 2046  # the low-rank one is fine
    with pytest.raises(ValueError, match="n <= 4000 vertices.*Binary Support Tree"):
        MatrixPerceptron(nx.path_graph(4001))
    with pytest.raises(ValueError, match="n <= 4000 vertices.*Binary Support Tree"):
        MatrixWinnow(nx.path_graph(4001), cut_size=1)
