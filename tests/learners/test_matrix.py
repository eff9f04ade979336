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
from simpred_lite.exact import laplacian_pinv_fraction
from simpred_lite.game.play import adaptive_run, run
from simpred_lite.game.trials import random_trials
from simpred_lite.graphs import cut_edges, cut_size, planted_partition
from simpred_lite.learners import (
    DENSE_PERCEPTRON_EDGE_LIMIT,
    DENSE_WINNOW_EDGE_LIMIT,
    LowRankMatrixWinnow,
    MatrixPerceptron,
    MatrixPerceptronReference,
    MatrixWinnow,
    MatrixWinnowReference,
)
from simpred_lite.learners.bounds import matrix_perceptron_mistake_bound, matrix_winnow_mistake_bound
from simpred_lite.learners.instances import bst_incidence, bst_instance, comparator_matrix, signed_path_overlap
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
    learner = MatrixPerceptronReference(G)
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
    bound = matrix_perceptron_mistake_bound(R, float((comparator_matrix(G, y) ** 2).sum()))
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
    assert 0 < result.total_mistakes <= matrix_winnow_mistake_bound(learner.R, phi, learner.m)


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
    assert on_graph.exact and on_graph.threshold == on_bst.threshold == (2 * B.depth) ** 2
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
def _lockstep(G, cut, trials, make=LowRankMatrixWinnow, **kw):
    """Run low-rank (or kernel) and dense Winnow side by side; return how many trials were compared."""
    low = make(G, cut_size=cut, **kw)
    dense = MatrixWinnowReference(G, cut_size=cut, **kw)
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
    _lockstep(G, max(cut_size(G, y), 1), trials, make=MatrixWinnow)


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
    assert _lockstep(B, max(B.cut_size(y), 1), trials, make=MatrixWinnow, eta=eta) > 0


def test_winnow_5000_mistakes_no_overflow_or_nan():
    G, y = planted_partition(12, 2, 0.6, 0.1, seed=0)
    low = LowRankMatrixWinnow(G, cut_size=cut_size(G, y))
    dense = MatrixWinnowReference(G, cut_size=cut_size(G, y))
    kern = MatrixWinnow(G, cut_size=cut_size(G, y))  # lazy eigendecompositions, same decisions
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
            assert kern.predict_one(i, j) == y_hat
            kern.learn_one(i, j, 1 - y_hat)
            low.learn_one(i, j, 1 - y_hat)  # the adversary always says the opposite
    assert low.mistakes == 5000 and low.trials == 5000
    assert np.all(np.isfinite(low._lam)) and np.all(np.isfinite(low._E))
    assert agree == compared == 300
    assert kern.mistakes == 5000 and math.isfinite(kern.log_score(0, 1))


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
    with pytest.raises(ValueError, match="cut_size must be > 0, got -3"):
        MatrixWinnow(G, cut_size=-3)
    with pytest.raises(ValueError, match="cut_size must be a number, got NaN"):
        MatrixWinnow(G, cut_size=float("nan"))
    with pytest.raises(ValueError, match="cut_size is 0: the labelling has one class .*at least two classes"):
        MatrixWinnow(G, cut_size=0)
    for bad in (0, -1.0):
        with pytest.raises(ValueError, match="eta must be > 0"):
            MatrixWinnow(G, cut_size=2, eta=bad)
    with pytest.raises(ValueError, match="eta must be finite"):
        MatrixWinnow(G, cut_size=2, eta=float("inf"))
    with pytest.raises(TypeError, match="cut_size must be a real number.*not a string"):
        MatrixWinnow(G, cut_size="2")
    for make in (LowRankMatrixWinnow, MatrixWinnowReference):  # the same checks, before any work
        with pytest.raises(ValueError, match="cut_size is 0"):
            make(G, cut_size=0)


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
        MatrixPerceptronReference(big)
    mid = BinarySupportTree(list(range(600)))  # m = 2046
    with pytest.raises(ValueError, match=rf"limited to m <= {DENSE_WINNOW_EDGE_LIMIT}.*use MatrixWinnow"):
        MatrixWinnowReference(mid, cut_size=3)
    assert MatrixWinnow(mid, cut_size=3).m == 2046  # the kernel one is fine
    assert MatrixPerceptron(mid).m == 2046
    with pytest.raises(ValueError, match="n <= 4000 vertices.*Binary Support Tree"):
        MatrixPerceptronReference(nx.path_graph(4001))
    with pytest.raises(ValueError, match="n <= 4000 vertices.*Binary Support Tree"):
        LowRankMatrixWinnow(nx.path_graph(4001), cut_size=1)


# -- kernel form: same predictions as the dense references, exact decisions -------------------

from simpred_lite.game.adversaries import cut_biased_trials  # noqa: E402
from simpred_lite.learners.certification import LazyExponential, PerceptronCertifier  # noqa: E402


class MatrixPerceptronExactReference:
    """Algorithm 2's Perceptron in kernel form with ``L^+`` inverted in exact rationals (small n)."""

    def __init__(self, G):
        n = G.number_of_nodes()
        self.Lp = laplacian_pinv_fraction(G)  # plain Gauss-Jordan in exact rationals
        self.R2 = max(self.k((i, j), (i, j)) for i in range(n) for j in range(n)) ** 2
        self.mistakes = []

    def k(self, s, t):
        (a, b), (i, j) = s, t
        Lp = self.Lp
        return Lp[a][i] - Lp[a][j] - Lp[b][i] + Lp[b][j]

    def predict_one(self, i, j):
        return int(sum(c * self.k(s, (i, j)) ** 2 for s, c in self.mistakes) > self.R2)

    def learn_one(self, i, j, y):
        y_hat = self.predict_one(i, j)
        if y != y_hat:
            self.mistakes.append(((i, j), y - y_hat))


_SYMMETRIC = {
    "C6": nx.cycle_graph(6), "C7": nx.cycle_graph(7), "grid3x3": nx.convert_node_labels_to_integers(nx.grid_2d_graph(3,
                                                                                                                     3)),
    "petersen": nx.petersen_graph(), "K33": nx.complete_bipartite_graph(3, 3),
    "cube": nx.convert_node_labels_to_integers(nx.hypercube_graph(3)), "wheel": nx.wheel_graph(7),
}


def _labels(G, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, G.number_of_nodes())


def _perturbed_perceptron(G, seed):
    """A kernel Perceptron whose float L^+ and R carry relative noise 1e-12 (certifier rebuilt)."""
    learner = MatrixPerceptron(G)
    rng = np.random.default_rng(seed)
    Lp = learner._kern.Lp
    noise = 1.0 + 1e-12 * rng.uniform(-1, 1, Lp.shape)
    learner._kern.Lp = Lp * ((noise + noise.T) / 2)
    learner._kern.R *= 1.0 + 1e-12 * rng.uniform(-1, 1)
    learner._certifier = PerceptronCertifier(learner._kern)
    return learner


@pytest.mark.parametrize("name", sorted(_SYMMETRIC))
def test_kernel_perceptron_equals_exact_reference_and_survives_perturbation(name):
    G = _SYMMETRIC[name]
    y = _labels(G, 1)
    ref = MatrixPerceptronExactReference(G)
    learners = [MatrixPerceptron(G), _perturbed_perceptron(G, 2), _perturbed_perceptron(G, 3)]
    trials = random_trials(G, y, 150, seed=4) + cut_biased_trials(G, y, 150, seed=5, p_cut=0.5)
    ties = 0
    for t in trials:
        expected = ref.predict_one(t.i, t.j)
        ties += sum(c * ref.k(s, (t.i, t.j)) ** 2 for s, c in ref.mistakes) == ref.R2
        assert [lr.predict_one(t.i, t.j) for lr in learners] == [expected] * 3
        ref.learn_one(t.i, t.j, t.y)
        for lr in learners:
            lr.learn_one(t.i, t.j, t.y)
    assert len(ref.mistakes) > 0
    # the exact fallback ran exactly where the float could not decide (the ties among them)
    assert learners[0]._certifier.fallbacks >= ties


@pytest.mark.parametrize("name", ["C6", "petersen", "cube", "grid3x3"])
def test_kernel_perceptron_adaptive_runs_identical_under_perturbation(name):
    G = _SYMMETRIC[name]
    y = _labels(G, 7)
    trials, result = adaptive_run(MatrixPerceptron(G), y, 200, seed=8)
    for seed in (9, 10):
        again = run(_perturbed_perceptron(G, seed), trials)
        assert np.array_equal(again.predictions, result.predictions)
    ref = MatrixPerceptronExactReference(G)
    preds = []
    for t in trials:
        preds.append(ref.predict_one(t.i, t.j))
        ref.learn_one(t.i, t.j, t.y)
    assert np.array_equal(np.array(preds), result.predictions)


@given(st.integers(5, 14), st.integers(0, 10**6),
       st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13), st.booleans()), min_size=1, max_size=60))
@settings(max_examples=20)
def test_kernel_perceptron_matches_dense_reference_on_random_graphs(n, seed, seq):
    G, _ = planted_partition(n, 2, 0.5, 0.2, seed=seed)
    kern, dense = MatrixPerceptron(G), MatrixPerceptronReference(G)
    for i, j, lab in seq:
        i, j = i % n, j % n
        if i == j:
            continue
        s_k, s_d = kern.score(i, j), dense.score(i, j)
        assert abs(s_k - s_d) <= 1e-8 * max(1.0, abs(s_d))
        if abs(s_d - dense.threshold) > 1e-8 * dense.threshold:  # the dense float decides off ties
            assert kern.predict_one(i, j) == dense.predict_one(i, j)
        y_hat = kern.predict_one(i, j)
        kern.learn_one(i, j, int(lab))
        dense._learn(i, j, int(lab), y_hat, None)  # the same updates as the kernel learner


@pytest.mark.parametrize("name", ["C7", "petersen", "wheel"])
def test_kernel_winnow_identical_under_perturbation(name):
    """Winnow compares a transcendental score with a transcendental threshold: no exact ties."""
    G = _SYMMETRIC[name]
    y = _labels(G, 11)
    phi = max(cut_size(G, y), 1)
    trials, result = adaptive_run(MatrixWinnow(G, cut_size=phi), y, 300, seed=12)
    rng = np.random.default_rng(13)
    noisy = MatrixWinnow(G, cut_size=phi)
    noise = 1.0 + 1e-12 * rng.uniform(-1, 1, noisy._geo.Lp.shape)
    noisy._geo.Lp = noisy._geo.Lp * ((noise + noise.T) / 2)
    assert np.array_equal(run(noisy, trials).predictions, result.predictions)
    assert np.array_equal(run(MatrixWinnowReference(G, cut_size=phi), trials).predictions, result.predictions)


def test_kernel_winnow_span_is_combinatorial():
    # psi(0,2) = psi(0,1) + psi(1,2): the third mistake does not grow the basis
    learner = MatrixWinnow(nx.petersen_graph(), cut_size=3)
    for a, b in [(0, 1), (1, 2), (0, 2), (2, 0)]:
        learner._learn(a, b, 1, 0, None)
    assert learner.rank == 2


def test_sparse_kernel_matches_dense_kernel(monkeypatch):
    import simpred_lite.learners.kernels as kernels

    G, y = planted_partition(40, 2, 0.3, 0.05, seed=3)
    trials = random_trials(G, y, 200, seed=1)
    dense_p, dense_w = MatrixPerceptron(G), MatrixWinnow(G, cut_size=cut_size(G, y))
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 10)
    sparse_p, sparse_w = MatrixPerceptron(G), MatrixWinnow(G, cut_size=cut_size(G, y))
    assert isinstance(sparse_p._kern, kernels.SparseKernel) and isinstance(dense_p._kern, kernels.DenseKernel)
    assert abs(sparse_p.R - dense_p.R) < 1e-9
    for L in (dense_p, dense_w, sparse_p, sparse_w):
        L.preds = run(L, trials).predictions
    assert np.array_equal(dense_p.preds, sparse_p.preds) and np.array_equal(dense_w.preds, sparse_w.preds)


# -- Matrix Winnow's lazy eigendecomposition: certified quadrature bounds --------------------


def _lazy_state(rng, r, p, scale, refresh_every=100):
    """A ``LazyExponential`` of dimension ``r`` with ``p`` pending updates of size ``+-scale``."""
    lazy = LazyExponential(refresh_every=refresh_every)
    for _ in range(r):
        lazy.grow()
    A = rng.normal(size=(r, r)) * scale
    lazy._M[:r, :r] = (A + A.T) / 2
    lazy.refresh()
    for _ in range(p):
        z = rng.normal(size=r)
        z /= np.linalg.norm(z) * rng.uniform(1.0, 3.0)
        lazy.add(z, lazy.coords(z), scale * rng.choice([-1.0, 1.0]))
    return lazy


@given(st.integers(1, 30), st.integers(1, 12), st.sampled_from([0.1, 1.0, 5.0, 40.0]),
       st.integers(0, 10**6), st.floats(-6, 1))
@settings(max_examples=60, deadline=None)
def test_lazy_quadrature_bounds_never_decide_wrongly(r, p, scale, seed, log_offset):
    """Whenever the Gauss / Gauss-Radau bounds decide, they agree with the exact float sum."""
    rng = np.random.default_rng(seed)
    lazy = _lazy_state(rng, r, p, scale)
    z = rng.normal(size=r)
    z *= rng.uniform(0.2, 1.0) / np.linalg.norm(z)
    residual = 1.0 - float(z @ z)
    lam, E = np.linalg.eigh(lazy.current())
    terms = np.append(lam + np.log((E.T @ z) ** 2), math.log(residual))
    exact = float(np.logaddexp.reduce(terms))
    assert lazy.top >= lam[-1] and lazy.bottom <= lam[0]  # the spectral bounds hold
    decided = 0
    for sign in (-1.0, 1.0):
        threshold = exact + sign * 10.0**log_offset
        verdict = lazy.certified_log(lazy.coords(z), residual, 0.0, threshold)
        if verdict is not None:
            decided += 1
            assert verdict == int(exact > threshold)
    # a threshold inside the tie band is never decided by the bounds
    assert lazy.certified_log(lazy.coords(z), residual, 0.0, exact) is None
    if log_offset >= 0:  # far from the threshold, the bounds decide within a few dozen steps
        assert decided == 2


def test_lazy_bounds_survive_huge_exponents():
    rng = np.random.default_rng(0)
    lazy = _lazy_state(rng, 20, 6, 400.0)  # eigenvalues in the thousands: exp overflows
    z = rng.normal(size=20) / 10
    lam, E = np.linalg.eigh(lazy.current())
    exact = float(np.logaddexp.reduce(np.append(lam + np.log((E.T @ z) ** 2), math.log(1 - z @ z))))
    assert exact > 1000
    assert lazy.certified_log(lazy.coords(z), 1 - z @ z, 0.0, exact - 1.0) == 1
    assert lazy.certified_log(lazy.coords(z), 1 - z @ z, 0.0, exact + 1.0) == 0


def _winnow_pair(B, cut, trials, **lazy_kw):
    """Lock-step kernel (lazy) and low-rank (eigh per mistake) Winnow; return the kernel learner."""
    ref = LowRankMatrixWinnow(B, cut_size=cut)
    new = MatrixWinnow(B, cut_size=cut)
    for name, value in lazy_kw.items():
        setattr(new, name, value) if name.startswith("_lanczos") else setattr(new._lazy, name, value)
    for i, j, y in trials:
        assert new.predict_one(i, j) == ref.predict_one(i, j)
        new.learn_one(i, j, y)
        ref.learn_one(i, j, y)
    assert new.mistakes == ref.mistakes and new.rank == ref.rank
    return new


@given(small_bsts(max_n=24), st.integers(0, 10**6), st.integers(1, 9), st.integers(0, 3))
@settings(max_examples=25, deadline=None)
def test_lazy_winnow_matches_lowrank_on_random_bsts(B, seed, refresh_every, steps):
    """Any refresh interval, and Lanczos cut short (``steps=0``: every pending trial falls back)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=B.n)
    pairs = rng.integers(0, B.n, size=(300, 2))
    trials = [(int(i), int(j), int(y[i] != y[j])) for i, j in pairs if i != j]
    new = _winnow_pair(B, max(B.cut_size(y), 1), trials, refresh_every=refresh_every, _lanczos_steps=steps)
    if steps == 0:
        assert new._lazy.products == 0  # no quadrature: every pending trial fell back


def test_lazy_winnow_long_run_rank_in_the_hundreds():
    """Thousands of trials, rank in the hundreds: identical to the low-rank reference."""
    G, y = planted_partition(200, 4, 0.08, 0.01, seed=2)
    B = BinarySupportTree.from_graph(G, seed=3)
    trials = [(t.i, t.j, t.y) for t in cut_biased_trials(G, y, 3000, seed=4, p_cut=0.3)]
    new = _winnow_pair(B, B.cut_size(y), trials)
    assert new.rank >= 100 and new.mistakes >= 400
    assert new._lazy.refreshes < new.mistakes / 10  # the point: few eigendecompositions
    assert new._lazy.products > 0  # the quadrature path decided trials


def test_lazy_winnow_fallback_decides_ties():
    """A threshold planted on a score: the bounds cannot separate, the exact fallback decides."""
    G, y = planted_partition(40, 2, 0.2, 0.03, seed=5)
    B = BinarySupportTree.from_graph(G, seed=6)
    learner = MatrixWinnow(B, cut_size=B.cut_size(y))
    trials = cut_biased_trials(G, y, 200, seed=7, p_cut=0.4)
    run(learner, trials)
    assert learner._lazy.p > 0
    t = trials[0]
    exact = learner.log_score(t.i, t.j)
    learner._log_threshold = exact  # an exact tie: must be the fallback's decision (score > threshold)
    before = learner.fallbacks
    assert learner.predict_one(t.i, t.j) == int(learner.log_score(t.i, t.j) > exact)
    assert learner.fallbacks == before + 1 and learner._lazy.p == 0  # refreshed


def test_lazy_winnow_always_falling_back_is_the_reference():
    G, y = planted_partition(60, 3, 0.15, 0.02, seed=8)
    B = BinarySupportTree.from_graph(G, seed=9)
    trials = [(t.i, t.j, t.y) for t in cut_biased_trials(G, y, 800, seed=10, p_cut=0.4)]
    new = _winnow_pair(B, B.cut_size(y), trials, _lanczos_steps=0)
    assert new.fallbacks > 50 and new._lazy.products == 0


def test_lazy_pending_updates_sum_to_the_matrix():
    """Pending terms (beyond the initial buffer, across growth) add up to the explicit matrix."""
    rng = np.random.default_rng(1)
    lazy = LazyExponential(refresh_every=2)
    lazy.refresh_every = 7  # more pending columns than allocated
    M = np.zeros((0, 0))
    for t in range(20):
        if t % 3 == 0:
            lazy.grow()
            M = np.pad(M, ((0, 1), (0, 1)))
        z = rng.normal(size=lazy.r)
        step = rng.choice([-1.28, 1.28])
        lazy.add(z, lazy.coords(z), step)
        M += step * np.outer(z, z)
        assert np.allclose(lazy.current(), M, atol=1e-12)
        lam = np.linalg.eigvalsh(M)
        assert lazy.bottom <= lam[0] and lam[-1] <= lazy.top
    assert lazy.refreshes == 2 and lazy.p == 6


# -- what a learner keeps of the caller's graph --------------------------------------------------
@pytest.mark.parametrize("make", [lambda G: MatrixPerceptron(G), lambda G: MatrixWinnow(G, cut_size=2),
                                  lambda G: MatrixPerceptronReference(G)])
def test_editing_the_callers_graph_after_construction_changes_nothing(make):
    # C4 has exact ties, decided by the exact fallback built on the first tie: it must be built
    # from the graph as it was at construction, not from the caller's graph as it is now
    G = nx.cycle_graph(4)
    pairs = [(0, 2, 1), (0, 2, 1), (1, 3, 1), (0, 1, 0), (2, 3, 0), (1, 3, 1), (0, 2, 1)]
    fresh = make(nx.cycle_graph(4))
    edited = make(G)
    G.add_edge(0, 2)  # after construction
    G.remove_edge(1, 2)
    for i, j, y in pairs:
        assert edited.predict_one(i, j) == fresh.predict_one(i, j)
        edited.learn_one(i, j, y)
        fresh.learn_one(i, j, y)
    assert edited.mistakes == fresh.mistakes


def test_the_kernel_graph_is_a_frozen_copy():
    G = nx.cycle_graph(5)
    learner = MatrixPerceptron(G)
    assert learner._kern.graph is not G and nx.is_frozen(learner._kern.graph)
