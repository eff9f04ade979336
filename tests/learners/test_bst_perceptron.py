"""The O(log^2 n) BST Perceptron of §4.1 is Algorithm 2's Matrix Perceptron on Psi_B (Thm. equivalence).

The reference, ``MatrixPerceptronReference(bst)``, keeps a dense ``m x m`` integer weight matrix and
scores ``psi^T W psi`` in exact integer arithmetic (``psi`` a signed path indicator).
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simpred_lite.bst import BinarySupportTree
from simpred_lite.game.adversaries import cut_biased_trials
from simpred_lite.game.play import adaptive_run, run
from simpred_lite.game.trials import Trial, random_trials
from simpred_lite.graphs import planted_partition
from simpred_lite.learners import BSTPerceptron, MatrixPerceptron, MatrixPerceptronReference
from simpred_lite.learners.bounds import matrix_perceptron_mistake_bound
from simpred_lite.learners.bst_perceptron import extended_tags, trial_structure
from simpred_lite.learners.instances import bst_incidence, comparator_matrix, signed_path_overlap


@st.composite
def bst_and_labels(draw, max_n=40):
    n = draw(st.integers(2, max_n))
    perm = draw(st.permutations(range(n)))
    K = draw(st.integers(1, 4))
    if draw(st.booleans()):  # clustered along the leaf order (few cut edges in B)
        labels = np.empty(n, dtype=np.int64)
        labels[np.asarray(perm)] = np.arange(n) * K // n
    else:
        labels = np.asarray(draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n)))
    return BinarySupportTree(list(perm)), labels


def _kernel_score(B, mistakes, i, j):
    """A third opinion, in integers: sum over mistakes of (y - y_hat) (psi_s^T psi_t)^2."""
    return sum(sign * signed_path_overlap(B, pair, (i, j)) ** 2 for pair, sign in mistakes)


def _lockstep(B, trials, check_kernel=False):
    fast, naive, kernel = BSTPerceptron(B), MatrixPerceptronReference(B), MatrixPerceptron(B)
    mistakes = []
    for t in trials:
        s = naive.score(t.i, t.j)
        assert fast.path_sum(t.i, t.j) == 2 * s  # the resolved constant, on every trial
        assert kernel.score(t.i, t.j) == s  # the kernel form on the BST: the same integer
        if check_kernel:
            assert s == _kernel_score(B, mistakes, t.i, t.j)
        p = fast.predict_one(t.i, t.j)
        assert p == naive.predict_one(t.i, t.j) == kernel.predict_one(t.i, t.j) == int(s > (2 * B.depth) ** 2)
        if p != t.y:
            mistakes.append(((t.i, t.j), t.y - p))
        fast.learn_one(t.i, t.j, t.y)
        naive.learn_one(t.i, t.j, t.y)
        kernel.learn_one(t.i, t.j, t.y)
    assert fast.mistakes == naive.mistakes == kernel.mistakes == len(mistakes)
    return fast


@given(bst_and_labels(), st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=150))
@settings(max_examples=60)
def test_fast_equals_naive_on_random_sequences(Bl, pairs):
    B, y = Bl
    trials = [Trial(i % B.n, j % B.n, int(y[i % B.n] != y[j % B.n])) for i, j in pairs if i % B.n != j % B.n]
    _lockstep(B, trials, check_kernel=len(trials) <= 40)


@given(bst_and_labels(max_n=24), st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23), st.booleans()),
                                          max_size=120))
@settings(max_examples=40)
def test_fast_equals_naive_on_arbitrary_label_sequences(Bl, seq):
    # labels need not come from a labeling: every promotion/demotion pattern is exercised
    B, _ = Bl
    _lockstep(B, [Trial(i % B.n, j % B.n, int(b)) for i, j, b in seq if i % B.n != j % B.n])


def _plain_reference(B, seq):
    """§4.1 straight from its definitions, in a dictionary of unordered pairs: path sums and predictions."""
    F = {}
    threshold = 2 * (2 * B.depth) ** 2
    out = []
    for i, j, y in seq:
        st_ = trial_structure(B, i, j)
        s = 2 * sum(F.get((min(p, q), max(p, q)), 0) for p, q in combinations(st_.path, 2))
        y_hat = int(s > threshold)
        out.append((s, y_hat))
        if y_hat != y:
            for p, q in combinations(st_.S, 2):
                key = (min(p, q), max(p, q))
                F[key] = F.get(key, 0) + (y - y_hat) * (st_.tags[p] - st_.tags[q]) ** 2
    return out, F


@given(st.integers(2, 3000), st.integers(0, 10**6), st.integers(1, 120), st.floats(0.0, 1.0))
@settings(max_examples=40, deadline=None)
def test_compiled_table_equals_the_plain_reference(n, seed, T, flip):
    # sizes where the naive learner is too slow, and enough mistakes that the hash table grows
    # (and probes collide) many times; labels forced wrong with probability `flip`
    rng = np.random.default_rng(seed)
    B = BinarySupportTree(rng.permutation(n).tolist())
    i = rng.integers(n, size=T)
    j = (i + rng.integers(1, n, size=T)) % n
    y = (rng.random(T) < flip).astype(int)
    seq = list(zip(i.tolist(), j.tolist(), y.tolist()))
    expected, F = _plain_reference(B, seq)
    learner = BSTPerceptron(B)
    for (a, b, label), (s, y_hat) in zip(seq, expected):
        assert learner.path_sum(a, b) == s
        assert learner.predict_one(a, b) == y_hat
        learner.learn_one(a, b, label)
    assert learner.entries == len(F)
    assert all(learner.F(p, q) == v == learner.F(q, p) for (p, q), v in F.items())


@given(bst_and_labels(max_n=32), st.integers(0, 10**6))
@settings(max_examples=25)
def test_fast_equals_naive_against_an_adaptive_adversary(Bl, seed):
    B, y = Bl
    if len(set(y.tolist())) < 2:
        return
    # the adversary attacks the fast learner, then the naive one replays the same trials
    trials, result = adaptive_run(BSTPerceptron(B), y, 120, seed=seed, candidates=16)
    fast = _lockstep(B, trials)
    assert fast.mistakes == result.total_mistakes
    # and the other way round
    trials2, result2 = adaptive_run(MatrixPerceptronReference(B), y, 80, seed=seed + 1, candidates=16)
    assert run(BSTPerceptron(B), trials2).predictions.tolist() == result2.predictions.tolist()


@pytest.mark.parametrize("seed", range(4))
def test_fast_equals_naive_from_graphs_with_cut_biased_pairs(seed):
    G, y = planted_partition(45, 3, 0.3, 0.05, seed=seed)
    fast = BSTPerceptron.from_graph(G, seed=seed)
    _lockstep(fast.bst, cut_biased_trials(G, y, 300, seed=seed, p_cut=0.5))


@given(st.integers(3, 40), st.integers(1, 4), st.integers(0, 10**6))
@settings(max_examples=20)
def test_fast_equals_naive_on_bsts_of_random_trees(n, K, seed):
    # a uniformly random labelled tree (Pruefer sequence) as the graph, random labels
    rng = np.random.default_rng(seed)
    T = nx.from_prufer_sequence(rng.integers(n, size=n - 2).tolist()) if n > 2 else nx.path_graph(n)
    y = rng.integers(K, size=n)
    fast = BSTPerceptron.from_graph(T, seed=seed, root=int(rng.integers(n)))
    _lockstep(fast.bst, random_trials(T, y, 150, seed=seed))


# -- the lemmas behind the equivalence -------------------------------------------------------
@given(bst_and_labels(max_n=32), st.data())
@settings(max_examples=40)
def test_lemma_twocase_and_tags(Bl, data):
    B, _ = Bl
    if B.n < 2:
        return
    pick = st.lists(st.integers(0, B.n - 1), min_size=2, max_size=2, unique=True)
    s_pair, t_pair = data.draw(pick), data.draw(pick)
    s = trial_structure(B, *s_pair)
    hit = [v for v in B.path(*t_pair) if v in set(s.S)]
    ov = signed_path_overlap(B, s_pair, t_pair)
    assert len(hit) <= 2
    if len(hit) < 2:
        assert ov == 0
    else:
        assert ov**2 == (s.tags[hit[0]] - s.tags[hit[1]]) ** 2


@given(bst_and_labels(max_n=16), st.data())
@settings(max_examples=20)
def test_claim_c1_extended_tags_solve_the_laplacian(Bl, data):
    # L f~ = e_j - e_i, with f~ the tags extended to each region Lambda(l) (Lemma l:lambda)
    B, _ = Bl
    i, j = data.draw(st.lists(st.integers(0, B.n - 1), min_size=2, max_size=2, unique=True))
    s = trial_structure(B, i, j)
    Bg = B.to_networkx()
    interior = set(s.path) - {s.path[0], s.path[-1]}
    f = np.zeros(2 * B.num_leaves)
    for l in s.S:
        region = nx.node_connected_component(Bg.subgraph(set(Bg) - interior), l)
        assert not (region & set(s.S) - {l})  # Lemma lamfacts, item 2
        f[list(region)] = s.tags[l]
    for v in interior:
        f[v] = s.tags[v]
    Psi = bst_incidence(B).toarray()
    e = np.zeros(2 * B.num_leaves - 1)
    e[s.path[-1] - 1], e[s.path[0] - 1] = 1, -1
    assert np.array_equal(Psi.T @ Psi @ f[1:], e)
    assert np.array_equal(extended_tags(B, s)[1:], f[1:])


def test_structure_sizes_are_logarithmic():
    B = BinarySupportTree(np.random.default_rng(0).permutation(1000).tolist())
    rng = np.random.default_rng(1)
    for _ in range(200):
        i, j = (int(v) for v in rng.choice(1000, 2, replace=False))
        s = trial_structure(B, i, j)
        assert len(s.path) <= 2 * B.depth + 1 and len(s.S) <= 2 * B.depth + 1
        assert set(s.tags) == set(s.path) | set(s.S)


def test_lazy_F_grows_with_mistakes_not_with_n():
    B = BinarySupportTree(list(range(2**16)))
    learner = BSTPerceptron(B)
    assert learner.entries == 0  # nothing allocated for F at construction
    rng = np.random.default_rng(0)
    for _ in range(50):
        i, j = (int(v) for v in rng.choice(B.n, 2, replace=False))
        learner.learn_one(i, j, 1 - learner.predict_one(i, j))
    per_mistake = (2 * B.depth + 1) * (2 * B.depth) // 2
    assert 0 < learner.entries <= 50 * per_mistake


# -- the constant -----------------------------------------------------------------------------
def test_printed_rule_is_not_algorithm_2():
    # (e:predictionstep) as printed: ordered sum >= 4 log^2 n. Half the right threshold.
    diverged = 0
    for seed in range(5):
        B = BinarySupportTree(np.random.default_rng(seed).permutation(16).tolist())
        y = np.random.default_rng(seed).integers(0, 2, size=16)
        trials, _ = adaptive_run(MatrixPerceptronReference(B), y, 100, seed=seed)
        naive = run(MatrixPerceptronReference(B), trials).predictions
        assert np.array_equal(run(BSTPerceptron(B), trials).predictions, naive)
        printed = run(BSTPerceptron(B, threshold=4 * B.depth**2, strict=False), trials).predictions
        diverged += not np.array_equal(printed, naive)
    assert diverged > 0


def test_mistakes_within_the_bst_perceptron_bound():
    # Thm. winnowandperceptron via Prop. percwin on B: M <= R_B^2 ||U_B||_F^2, R_B = 2 log2 N
    G, y = planted_partition(40, 2, 0.4, 0.05, seed=7)
    learner = BSTPerceptron.from_graph(G, seed=7)
    B = learner.bst
    Bg = nx.relabel_nodes(B.to_networkx(), {h: h - 1 for h in range(1, 2 * B.num_leaves)})
    yB = B.propagate_labels(y)[1:]
    U2 = float((comparator_matrix(Bg, yB) ** 2).sum())
    assert U2 <= 4 * B.cut_size(y) ** 2
    _, result = adaptive_run(learner, y, 600, seed=7)
    assert 0 < result.total_mistakes <= matrix_perceptron_mistake_bound(learner.R, U2)


# -- bad input -------------------------------------------------------------------------------
def test_bad_input():
    B = BinarySupportTree([3, 1, 0, 2])
    learner = BSTPerceptron(B)
    with pytest.raises(ValueError, match="unknown vertex j 4"):
        learner.predict_one(0, 4)
    with pytest.raises(ValueError, match="two distinct vertices"):
        learner.learn_one(1, 1, 0)
    with pytest.raises(ValueError, match="similarity label must be 0"):
        learner.learn_one(0, 1, -1)
    with pytest.raises(TypeError, match="BinarySupportTree.*from_graph"):
        BSTPerceptron(nx.path_graph(4))
    with pytest.raises(TypeError, match="integer vertex"):
        learner.predict_one(0.5, 1)


def test_threshold_must_be_a_non_negative_integer():
    B = BinarySupportTree([0, 1, 2, 3])
    with pytest.raises(ValueError, match="threshold must be at least 0, got -5"):
        BSTPerceptron(B, threshold=-5)
    with pytest.raises(TypeError, match="threshold must be an integer"):
        BSTPerceptron(B, threshold=2.5)
    assert BSTPerceptron(B, threshold=0).threshold == 0
