"""The kernel of the matrix learners at scale: one kernel per graph, the sparse kernel's R and decisions.

The sparse kernel (beyond ``DENSE_LIMIT``) is forced on small graphs by lowering the limit, so
that its predictions can be compared with the dense kernel's and with exact rationals.
"""

from __future__ import annotations

import gc
import weakref

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simpred_lite.learners.kernels as kernels
from simpred_lite.exact import laplacian_pinv_fraction
from simpred_lite.game.adversaries import cut_biased_trials
from simpred_lite.game.evaluation import evaluate
from simpred_lite.game.play import adaptive_run, run
from simpred_lite.game.trials import random_trials
from simpred_lite.graphs import cut_size, grid_graph, planted_partition, validate_graph
from simpred_lite.learners import MatrixPerceptron, MatrixWinnow
from simpred_lite.resistance import laplacian_pinv

_SYMMETRIC = {
    "C6": nx.cycle_graph(6), "petersen": nx.petersen_graph(), "K33": nx.complete_bipartite_graph(3, 3),
    "cube": nx.convert_node_labels_to_integers(nx.hypercube_graph(3)), "wheel": nx.wheel_graph(7),
}


def _dense_diameter(G):
    Lp = laplacian_pinv(G)
    d = np.diag(Lp)
    return float((d[:, None] + d[None, :] - 2 * Lp).max())


def _sparse(G):
    return kernels.SparseKernel(kernels.frozen_copy(validate_graph(G)))


@given(st.integers(4, 40), st.integers(0, 10**6), st.sampled_from([0.05, 0.15, 0.4]))
@settings(max_examples=25)
def test_sparse_diameter_is_the_all_pairs_maximum(n, seed, p_in):
    G, _ = planted_partition(n, 2, p_in, 0.05, seed=seed)
    kern = _sparse(G)
    exact = _dense_diameter(G)
    assert abs(kern.R - exact) <= kern.diameter_error() + 1e-12 * exact, \
        "the sparse kernel's R should be the all-pairs maximum resistance within its certified error"
    a, b = kern.diameter_pair
    g, _ = kern.pair(a, b)
    assert abs((g[a] - g[b]) - kern.R) <= 1e-9 * exact, "the diameter pair should realise R"


@pytest.mark.parametrize("make", [lambda: grid_graph(7, 9)[0], lambda: nx.path_graph(30), lambda: nx.cycle_graph(11),
                                  lambda: nx.barbell_graph(6, 4), lambda: nx.petersen_graph()])
def test_sparse_diameter_on_structured_graphs(make):
    G = make()
    kern = _sparse(G)
    exact = _dense_diameter(G)
    assert abs(kern.R - exact) <= kern.diameter_error() + 1e-12 * max(exact, 1.0), \
        "R should be the all-pairs maximum on grids, paths, cycles, barbells"


@given(st.integers(3, 30), st.integers(0, 10**6))
@settings(max_examples=20)
def test_selected_inversion_diagonal_matches_solves(n, seed):
    G, _ = planted_partition(n, 2, 0.3, 0.1, seed=seed)
    kern = _sparse(G)
    c = kern.ground
    Lp = laplacian_pinv(G)
    d = np.diag(Lp)
    expected = d + d[c] - 2 * Lp[:, c]  # R_vc
    assert np.allclose(kern.diagonal(), expected, rtol=1e-10, atol=1e-12), \
        "the selected inversion should give the resistances to the ground vertex"


def test_pair_error_bound_covers_the_true_error():
    G, _ = planted_partition(60, 3, 0.2, 0.03, seed=4)
    kern = _sparse(G)
    Lp = laplacian_pinv(G)
    for i, j in [(0, 59), (3, 17), (40, 41)]:
        g, err = kern.pair(i, j)
        true = Lp[:, i] - Lp[:, j]
        shift = (g - true)[kern.ground]  # potentials are defined up to a constant
        assert np.linalg.norm(g - true - shift) <= err + 1e-12, "the residual bound should cover the error"
        assert 0 < err < 1e-8, "the bound should be small on a well-conditioned graph"


@pytest.mark.parametrize("make", [lambda: planted_partition(80, 4, 0.15, 0.02, seed=3)[0],
                                  lambda: grid_graph(9, 11)[0], lambda: nx.path_graph(40),
                                  lambda: nx.barbell_graph(8, 3), lambda: nx.petersen_graph()])
def test_inverse_norm_bound_is_rigorous_and_near_the_norm(make):
    # the Collatz-Wielandt bound: never below ||L_c^{-1}||_2 = 1 / lambda_min(L_c), and much tighter than the
    # sum of distances to the ground it replaces (within 1 % of the norm on these graphs)
    G = make()
    kern = _sparse(G)
    Lc = kern._Lc.toarray()
    norm = 1.0 / np.linalg.eigvalsh(Lc)[0]
    old = sum(nx.single_source_shortest_path_length(G, kern.ground).values())
    assert norm <= kern.inverse_norm_bound <= min(old, 1.01 * norm), (norm, kern.inverse_norm_bound, old)
    assert kern._collatz_wielandt_bound() == kern.inverse_norm_bound, "the bound should come from Collatz-Wielandt"


def test_one_kernel_per_frozen_graph_and_none_for_a_mutable_one():
    G, y = planted_partition(30, 2, 0.3, 0.05, seed=1)
    F = validate_graph(G, freeze=True)
    p, w = MatrixPerceptron(F), MatrixWinnow(F, cut_size=cut_size(F, y))
    assert p._kern is w._geo, "two learners on one frozen graph should share its kernel"
    assert MatrixPerceptron(G)._kern is not MatrixPerceptron(G)._kern, \
        "a mutable graph may change between learners: each should get a kernel of its own"


def test_the_shared_kernel_does_not_keep_the_graph_alive():
    G, _ = planted_partition(20, 2, 0.4, 0.1, seed=2)
    F = validate_graph(G, freeze=True)
    MatrixPerceptron(F)
    ref = weakref.ref(F)
    del F
    gc.collect()
    assert ref() is None, "the kernel cache should let the graph (and its kernel) be collected"


@pytest.mark.parametrize("limit", [4000, 10])
def test_evaluate_builds_one_kernel_per_graph(monkeypatch, limit):
    monkeypatch.setattr(kernels, "DENSE_LIMIT", limit)
    built = []
    for cls in (kernels.DenseKernel, kernels.SparseKernel):
        original = cls.__init__

        def counting(self, G, _original=original):
            built.append(type(self).__name__)
            _original(self, G)

        monkeypatch.setattr(cls, "__init__", counting)
    G, y = planted_partition(40, 2, 0.3, 0.05, seed=5)
    ev = evaluate(["Matrix Winnow", "Matrix Perceptron"], G, y, T=60, seed=1)
    assert set(ev.mistakes) == {"Matrix Winnow", "Matrix Perceptron"}
    assert len(built) == 1, "evaluate should build the graph's kernel once for both matrix learners"
    assert built[0] == ("SparseKernel" if limit == 10 else "DenseKernel")


@given(st.integers(6, 30), st.integers(0, 10**6), st.integers(0, 10**6))
@settings(max_examples=15)
def test_sparse_and_dense_kernels_predict_identically(n, graph_seed, trial_seed):
    G, y = planted_partition(n, 3, 0.35, 0.08, seed=graph_seed)
    trials = random_trials(G, y, 150, seed=trial_seed)
    phi = max(cut_size(G, y), 1)
    dense = [run(MatrixPerceptron(G), trials).predictions, run(MatrixWinnow(G, cut_size=phi), trials).predictions]
    old = kernels.DENSE_LIMIT
    kernels.DENSE_LIMIT = 2
    try:
        sp_p, sp_w = MatrixPerceptron(G), MatrixWinnow(G, cut_size=phi)
        assert isinstance(sp_p._kern, kernels.SparseKernel)
        sparse = [run(sp_p, trials).predictions, run(sp_w, trials).predictions]
    finally:
        kernels.DENSE_LIMIT = old
    assert np.array_equal(sparse[0], dense[0]), "the sparse Perceptron should predict as the dense one"
    assert np.array_equal(sparse[1], dense[1]), "the sparse Winnow should predict as the dense one"


class _ExactPerceptron:
    """Algorithm 1's Perceptron with ``L^+`` in exact rationals (small graphs)."""

    def __init__(self, G):
        n = G.number_of_nodes()
        self.Lp = laplacian_pinv_fraction(G)
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


def _perturbed_sparse_perceptron(G, seed):
    """A sparse-kernel Perceptron whose every solve carries relative noise 1e-12."""
    learner = MatrixPerceptron(G)
    kern = learner._kern
    rng = np.random.default_rng(seed)
    solve = kern._solve

    def noisy(B):
        X = solve(B)
        return X * (1.0 + 1e-12 * rng.uniform(-1, 1, X.shape))

    kern._solve = noisy
    kern._pairs_cache.clear()
    return learner


@pytest.mark.parametrize("name", sorted(_SYMMETRIC))
def test_sparse_perceptron_is_exact_on_ties_and_under_perturbation(monkeypatch, name):
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    G = _SYMMETRIC[name]
    y = np.random.default_rng(1).integers(0, 2, G.number_of_nodes())
    trials, result = adaptive_run(MatrixPerceptron(G), y, 150, seed=8)
    trials = trials + cut_biased_trials(G, y, 150, seed=5, p_cut=0.5)  # cut edges: exact ties
    learner = MatrixPerceptron(G)
    result = run(learner, trials)
    ref = _ExactPerceptron(G)
    expected, ties = [], 0
    for t in trials:
        expected.append(ref.predict_one(t.i, t.j))
        ties += sum(c * ref.k(s, (t.i, t.j)) ** 2 for s, c in ref.mistakes) == ref.R2
        ref.learn_one(t.i, t.j, t.y)
    assert np.array_equal(result.predictions, np.array(expected)), \
        "the sparse-kernel Perceptron should predict as the exact rational one"
    for seed in (1, 2):
        again = run(_perturbed_sparse_perceptron(G, seed), trials)
        assert np.array_equal(again.predictions, result.predictions), \
            "relative noise 1e-12 in the sparse solves should change no decision"
    assert learner._certifier.fallbacks >= ties, "every exact tie should have been decided in exact arithmetic"


# -- block solves and a prefetched sequence -----------------------------------------------------
@pytest.mark.parametrize("dense_block", [False, True])
def test_block_solves_match_single_solves(monkeypatch, dense_block):
    # the dense trailing triangle of the factor is solved with BLAS when it is large enough
    monkeypatch.setattr(kernels, "DENSE_BLOCK_MIN", 2 if dense_block else 10**9)
    G, _ = planted_partition(80, 3, 0.15, 0.03, seed=6)
    kern = _sparse(G)
    assert (kern._ldl[6] is not None) == dense_block
    rng = np.random.default_rng(3)
    B = np.zeros((80, 37))
    B[rng.integers(0, 80, 37), np.arange(37)] += 1.0
    B[rng.integers(0, 80, 37), np.arange(37)] -= 1.0
    block = kern._solve(B)
    err = kern._residual_bound(block, B)
    Lp = laplacian_pinv(G)
    true = Lp @ B
    shifted = (block - block[kern.ground]) - (true - true[kern.ground])
    assert np.all(np.linalg.norm(shifted, axis=0) <= err + 1e-12), \
        "each column of a block solve should lie within its certified error bound"
    for c in range(37):
        single = kern._solve(B[:, c:c + 1])[:, 0]
        if dense_block:  # BLAS may round a block differently from a single column
            assert np.linalg.norm(single - block[:, c]) <= 2 * err[c], "a block column should match its single solve"
        else:  # compiled axpys without fused multiply-add: the same operations whatever the block
            assert np.array_equal(single, block[:, c]), "a block column should equal its single solve bit for bit"


def _play_pair(learner, trials, hint):
    if hint:
        learner.prefetch([(t.i, t.j) for t in trials])
    return run(learner, trials).predictions


@pytest.mark.parametrize("graph", ["planted", "C6", "petersen", "cube"])
def test_prefetch_on_and_off_predict_identically(monkeypatch, graph):
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    monkeypatch.setattr(kernels, "DENSE_BLOCK_MIN", 2)  # the BLAS path for the dense triangle too
    monkeypatch.setattr(kernels, "PREFETCH_ENTRIES", 200 * 201 // 2)  # several blocks, then a cut
    if graph == "planted":
        G, y = planted_partition(70, 3, 0.2, 0.04, seed=7)
        trials = random_trials(G, y, 260, seed=2)
    else:
        G = _SYMMETRIC[graph]
        y = np.random.default_rng(1).integers(0, 2, G.number_of_nodes())
        trials = cut_biased_trials(G, y, 260, seed=5, p_cut=0.5)  # cut edges: exact ties for the Perceptron
    phi = max(cut_size(G, y), 1)
    out = {}
    for hint in (False, True):
        F = validate_graph(G, freeze=True)  # a fresh kernel for each setting
        p, w = MatrixPerceptron(F), MatrixWinnow(F, cut_size=phi)
        assert isinstance(p._kern, kernels.SparseKernel) and p._kern is w._geo
        out[hint] = (_play_pair(p, trials, hint), _play_pair(w, trials, hint), p._certifier.fallbacks,
                     p._kern.solves)
    assert np.array_equal(out[True][0], out[False][0]), "prefetching should not change a Perceptron prediction"
    assert np.array_equal(out[True][1], out[False][1]), "prefetching should not change a Winnow prediction"
    assert out[True][2] == out[False][2], "the same trials should need the exact fallback with and without the hint"
    if graph == "planted":  # distinct pairs (the symmetric graphs repeat few pairs, which a cache catches)
        assert out[True][3] < out[False][3], "the hint should save solves (one per pair, shared by both learners)"


def test_prefetched_solves_are_shared_and_match_the_dense_kernel(monkeypatch):
    G, y = planted_partition(60, 2, 0.2, 0.05, seed=9)
    trials = random_trials(G, y, 150, seed=4)
    phi = max(cut_size(G, y), 1)
    dense = [run(MatrixPerceptron(G), trials).predictions, run(MatrixWinnow(G, cut_size=phi), trials).predictions]
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    F = validate_graph(G, freeze=True)
    p = MatrixPerceptron(F)
    kern = p._kern
    before = kern.solves
    sparse_p = _play_pair(p, trials, True)
    after_first = kern.solves
    sparse_w = _play_pair(MatrixWinnow(F, cut_size=phi), trials, True)
    assert after_first - before == len(trials), "the first learner should cost one solve per pair, in blocks"
    assert kern.solves == after_first, "the second learner on the same sequence should reuse every solve"
    assert np.array_equal(sparse_p, dense[0]) and np.array_equal(sparse_w, dense[1]), \
        "the prefetched sparse learners should predict as the dense ones"


def test_a_pair_off_the_sequence_falls_back_to_its_own_solve(monkeypatch):
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    G, y = planted_partition(40, 2, 0.25, 0.05, seed=3)
    trials = random_trials(G, y, 80, seed=6)
    plain = run(MatrixPerceptron(G), trials).predictions
    learner = MatrixPerceptron(G)
    learner.prefetch([(t.i, t.j) for t in trials])
    preds = []
    for t in trials:
        learner.score(0, 39)  # a pair the sequence does not announce: solved on its own, the stream unmoved
        preds.append(learner.predict_one(t.i, t.j))
        learner.learn_one(t.i, t.j, t.y)
    assert np.array_equal(np.array(preds), plain), "questions off the sequence should change no prediction"
    assert learner._stream is not None and learner._stream.pos == len(trials) - 1, \
        "the stream should have followed every trial of the sequence"


def test_evaluate_prefetches_for_the_sparse_kernel(monkeypatch):
    G, y = planted_partition(50, 2, 0.25, 0.05, seed=8)
    dense = evaluate(["Matrix Winnow", "Matrix Perceptron"], G, y, T=120, seed=2)
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    calls = []
    original = kernels.SparseKernel.prefetch

    def counting(self, i, j):
        calls.append(len(i))
        return original(self, i, j)

    monkeypatch.setattr(kernels.SparseKernel, "prefetch", counting)
    sparse = evaluate(["Matrix Winnow", "Matrix Perceptron"], G, y, T=120, seed=2)
    assert calls == [120, 120], "evaluate should announce its fixed sequence to each matrix learner"
    assert sparse.mistakes == dense.mistakes, "the prefetched sparse kernel should make the dense kernel's mistakes"


@pytest.mark.parametrize("sparse", [False, True])
def test_winnow_reading_ahead_predicts_as_pair_by_pair(monkeypatch, sparse):
    # blocks of 7 coming pairs, a refresh every 6 mistakes: blocks cut short by refreshes, new basis
    # vectors between refreshes (the F11 part), and a sequence cut by PREFETCH_ENTRIES on the sparse kernel
    if sparse:
        monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
        monkeypatch.setattr(kernels, "PREFETCH_ENTRIES", 300 * 301 // 2)
    G, y = planted_partition(90, 3, 0.2, 0.04, seed=11)
    trials = random_trials(G, y, 400, seed=3)
    phi = max(cut_size(G, y), 1)
    reads = []
    original = MatrixWinnow._read_ahead

    def counting(self, t):
        out = original(self, t)
        reads.append(out[3] is not None)
        return out

    monkeypatch.setattr(MatrixWinnow, "_read_ahead", counting)
    out = {}
    for lookahead in (0, 7):
        monkeypatch.setattr(MatrixWinnow, "LOOKAHEAD", lookahead)
        learner = MatrixWinnow(validate_graph(G, freeze=True), cut_size=phi)
        learner._lazy.refresh_every = 6
        out[lookahead] = (_play_pair(learner, trials, True), learner.rank, learner._lazy.refreshes)
        assert isinstance(learner._geo, kernels.SparseKernel) == sparse
    assert np.array_equal(out[0][0], out[7][0]), "reading the sequence ahead should change no Winnow prediction"
    assert out[0][1:] == out[7][1:], "the same basis and the same refreshes with and without reading ahead"
    assert out[7][2] >= 5 and sum(reads) >= 20, "the test should exercise several refreshes and many blocks"
    if sparse:  # the pairs beyond the prefetched part of the sequence are solved one by one
        assert not all(reads), "past the cut of the sequence the kernel should give no block"


@given(st.integers(2, 60), st.integers(0, 10**6), st.sampled_from([0.05, 0.2, 0.5]))
@settings(max_examples=25)
def test_symbolic_column_counts_are_the_cholesky_pattern(n, seed, p):
    G = nx.gnp_random_graph(n, p, seed=seed)
    A = nx.laplacian_matrix(G, nodelist=range(n)).astype(float) + 1e-3 * np.eye(n)  # positive definite
    import scipy.sparse as sp

    order = kernels.nested_dissection_order(sp.csr_matrix(A))
    order = np.arange(n) if order is None else order
    assert sorted(order.tolist()) == list(range(n)), "the order should be a permutation of the rows"
    P = sp.csr_matrix(A)[order][:, order]
    P.sort_indices()
    counts = kernels._cholesky_column_counts(P.indptr.astype(np.int64), P.indices.astype(np.int64))
    L = np.linalg.cholesky(P.toarray())
    # the symbolic pattern holds every nonzero; random weights make cancellation impossible
    W = np.abs(np.random.default_rng(seed).uniform(1, 2, (n, n)))
    Pw = P.toarray() * (W + W.T) / 2
    np.fill_diagonal(Pw, np.abs(Pw).sum(axis=1) + 1)
    Lw = np.linalg.cholesky(Pw)
    assert np.array_equal(counts, (Lw != 0).sum(axis=0)), "the counts should be the factor's column counts"
    assert np.all(counts >= (np.abs(L) > 0).sum(axis=0))


def test_a_graph_too_large_is_refused_before_the_factorisation(monkeypatch):
    import scipy.sparse.linalg as spla

    from simpred_lite import checks

    def no_factorisation(*args, **kwargs):
        raise AssertionError("the factorisation started before the work guard")

    monkeypatch.setattr(spla, "splu", no_factorisation)
    monkeypatch.setattr(checks, "WORK_LIMIT", 10**6)
    G = nx.random_regular_graph(3, 3000, seed=1)
    with pytest.raises(checks.WorkLimitError, match="nonzeros in the factors of its grounded Laplacian"):
        _sparse(G)


def test_the_diameter_search_on_a_grid_leaves_most_columns(monkeypatch):
    # the ground (a geodesic centre) of a grid can be a corner; the resistance centre's bound
    # still rules most columns out, and R is the all-pairs maximum
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(30, 30))
    kern = _sparse(G)
    dense = kernels.DenseKernel(kernels.frozen_copy(validate_graph(G)))
    assert abs(kern.R - dense.R) <= kern.diameter_error() + dense.diameter_error()
    assert kern.diameter_pair in {(0, 899), (29, 870)}
    assert kern.columns_solved <= G.number_of_nodes() // 3  # 248 of 900 (every one with the ground alone)


def test_a_refused_graph_is_refused_once_per_graph_and_limit(monkeypatch):
    from simpred_lite import checks

    monkeypatch.setattr(checks, "WORK_LIMIT", 10**6)
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)  # the sparse kernel, without a large graph
    F = validate_graph(nx.random_regular_graph(3, 3000, seed=1), freeze=True)
    with pytest.raises(checks.WorkLimitError) as first:
        kernels.make_kernel(F, "Matrix Perceptron")

    def no_second_try(*args, **kwargs):
        raise AssertionError("the refused graph's factor was planned again")

    monkeypatch.setattr(kernels, "_cholesky_column_counts", no_second_try)
    # the second matrix learner on the same graph (evaluate's Matrix Winnow) is refused at once, with the same reason
    with pytest.raises(checks.WorkLimitError) as second:
        kernels.make_kernel(F, "Matrix Winnow")
    assert str(second.value) == str(first.value)
    # under another limit the refusal no longer holds: the kernel is planned again
    monkeypatch.setattr(checks, "WORK_LIMIT", 10**7)
    with pytest.raises(AssertionError, match="planned again"):
        kernels.make_kernel(F, "Matrix Winnow")


@pytest.mark.parametrize("graph", ["grid", "blocks"])
def test_the_minimum_degree_fallback_predicts_as_nested_dissection(monkeypatch, graph):
    G, y = grid_graph(9, 11, K=3) if graph == "grid" else planted_partition(90, 3, 0.12, 0.02, seed=5)
    trials = random_trials(G, y, 300, seed=2)
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    nd = MatrixPerceptron(G)
    assert nd._kern._order is not None, "pymetis should be installed here (pyproject.toml)"
    nd_pred = run(nd, trials).predictions
    monkeypatch.setattr(kernels, "nested_dissection_order", lambda A: None)  # as without pymetis
    mmd = MatrixPerceptron(G)
    assert mmd._kern._order is None
    assert np.array_equal(run(mmd, trials).predictions, nd_pred), "the order should not change a prediction"
    assert abs(mmd._kern.R - nd._kern.R) <= mmd._kern.diameter_error() + nd._kern.diameter_error()
    g1, e1 = mmd._kern.pair(0, 50)
    g2, e2 = nd._kern.pair(0, 50)
    assert np.abs(g1 - g2).max() <= e1 + e2, "both orders should give the same potentials within their bounds"
