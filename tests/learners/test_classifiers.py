"""Class-prediction learners on graphs: protocol, mistake bounds, reference equivalence."""

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simpred_lite.game import adaptive_class_run, run_class
from simpred_lite.graphs import cut_size, planted_partition
from simpred_lite.learners import (
    ClassLearner,
    GraphPerceptron,
    GraphPerceptronReference,
    HalvingClassifier,
    MemorizingClassifier,
    OneVsRest,
    check_class_label,
    check_class_learner,
    graph_perceptron_mistake_bound,
    labelings_with_small_cut,
)
from simpred_lite.resistance import laplacian


def small_graphs():
    """Connected graphs on 3..7 vertices: a random tree plus a few random extra edges."""

    @st.composite
    def build(draw):
        n = draw(st.integers(3, 7))
        G = nx.Graph()
        G.add_nodes_from(range(n))
        for v in range(1, n):
            G.add_edge(v, draw(st.integers(0, v - 1)))
        extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4))
        G.add_edges_from((u, v) for u, v in extra if u != v)
        return G

    return build()


# -- the concept class of small-cut labelings -------------------------------------------------
@given(G=small_graphs(), K=st.integers(2, 3), c=st.integers(0, 3))
def test_small_cut_labelings_match_brute_force(G, K, c):
    n = G.number_of_nodes()
    brute = [y for y in itertools.product(range(K), repeat=n) if cut_size(G, list(y)) <= c]
    assert labelings_with_small_cut(G, K, c).tolist() == [list(y) for y in brute]


def test_small_cut_labelings_refuse_huge_classes():
    with pytest.raises(ValueError, match="too big for halving"):
        labelings_with_small_cut(nx.complete_graph(12), K=4, max_cut=60, limit=1000)


# -- halving ------------------------------------------------------------------------------------
@pytest.mark.parametrize("K", [2, 3, 4, 5])
def test_halving_obeys_log2_H_on_adversarial_sequences(K):
    G = nx.path_graph(6)
    H = labelings_with_small_cut(G, K, 2)
    rng = np.random.default_rng(K)
    worst = 0
    for _ in range(25):
        f = H[rng.integers(len(H))]
        clf = HalvingClassifier(H)
        _, m = adaptive_class_run(clf, f, 12, seed=rng)
        assert int(m.sum()) == clf.mistakes <= clf.mistake_bound() == math.floor(math.log2(len(H)))
        # the truth is never eliminated: it agrees with every correction
        assert any((H[a] == f).all() for a in clf._alive)
        worst = max(worst, clf.mistakes)
    assert worst >= 2  # the adversary does make the learner err


def test_halving_is_conservative_and_clones_are_independent():
    H = labelings_with_small_cut(nx.path_graph(5), 3, 1)
    clf = HalvingClassifier(H)
    key = clf.state_key()
    y0 = clf.predict_class(0)
    clf.learn_class(0, y0)  # correct: nothing changes
    assert clf.state_key() == key and clf.mistakes == 0
    twin = clf.copy()
    twin.learn_class(4, (clf.predict_class(4) + 1) % 3)
    assert twin.state_key() != clf.state_key() and clf.mistakes == 0 and twin.mistakes == 1


# -- the memorizing (consistent) learner ----------------------------------------------------
@given(labels=st.lists(st.integers(0, 3), min_size=2, max_size=9), seed=st.integers(0, 10**6))
def test_memorizer_mistakes_equal_its_exact_bound_under_an_adversary(labels, seed):
    n = len(labels)
    clf = MemorizingClassifier(n, 4)
    _, m = adaptive_class_run(clf, labels, 2 * n, seed=seed)
    assert int(m.sum()) == clf.mistake_bound_for(labels)  # attained exactly
    rng = np.random.default_rng(seed)
    clf2 = MemorizingClassifier(n, 4)
    assert run_class(clf2, [(x, labels[x]) for x in rng.integers(n, size=20)]).sum() <= clf2.mistake_bound_for(labels)


# -- the graph Perceptron -----------------------------------------------------------------------
@given(G=small_graphs(), seed=st.integers(0, 10**6), a=st.sampled_from([0.25, 1.0, 3.0]))
def test_perceptron_matches_its_plain_reference(G, seed, a):
    n = G.number_of_nodes()
    rng = np.random.default_rng(seed)
    y = rng.integers(2, size=n)
    fast, ref = GraphPerceptron(G, a), GraphPerceptronReference(G, a)
    for x in rng.integers(n, size=25).tolist():
        assert [fast.predict_class(v) for v in range(n)] == [ref.predict_class(v) for v in range(n)]
        fast.learn_class(x, int(y[x]))
        ref.learn_class(x, int(y[x]))
    assert fast.mistakes == ref.mistakes


@given(G=small_graphs(), seed=st.integers(0, 10**6))
def test_perceptron_bound_formula_is_the_kernel_norm(G, seed):
    n = G.number_of_nodes()
    y = np.random.default_rng(seed).integers(2, size=n)
    a = 0.5
    kernel = GraphPerceptron(G, a).kernel
    u = 2.0 * y - 1
    norm2 = u @ np.linalg.solve(kernel, u)  # ||u||^2 in the kernel's RKHS
    assert norm2 == pytest.approx(4 * cut_size(G, y) + u.sum() ** 2 / (a * n * n))
    assert norm2 == pytest.approx(u @ laplacian(G).toarray() @ u + u.sum() ** 2 / (a * n * n))
    assert graph_perceptron_mistake_bound(G, y, a) == pytest.approx(norm2 * kernel.diagonal().max())


def test_perceptron_obeys_novikoff_on_adversarial_sequences():
    G, labels = planted_partition(24, 2, 0.5, 0.05, seed=3)
    for seed in range(8):
        y = labels if seed % 2 == 0 else np.random.default_rng(seed).integers(2, size=24)
        clf = GraphPerceptron(G)
        adaptive_class_run(clf, y, 60, seed=seed)
        assert clf.mistakes <= graph_perceptron_mistake_bound(G, y)
        assert clf.mistakes >= 1


# -- one-versus-rest lifting --------------------------------------------------------------------
@pytest.mark.parametrize("K", [2, 3, 4, 5])
def test_one_vs_rest_lifting_bound(K):
    """M <= sum_k M_k <= sum_k (4|Phi_k| + b_k) R^2 with sum_k |Phi_k| = 2|Phi|."""
    G, labels = planted_partition(20, K, 0.6, 0.05, seed=K)
    assert sum(cut_size(G, labels, k) for k in range(K)) == 2 * cut_size(G, labels)
    bound = sum(graph_perceptron_mistake_bound(G, (labels == k).astype(int)) for k in range(K))
    for seed in range(4):
        clf = OneVsRest(lambda: GraphPerceptron(G), K=K if seed % 2 else None)
        _, m = adaptive_class_run(clf, labels, 50, seed=seed)
        per_class = clf.binary_mistakes
        assert int(m.sum()) == clf.mistakes <= sum(per_class.values())
        for k, mk in per_class.items():
            assert mk <= graph_perceptron_mistake_bound(G, (labels == k).astype(int))
        assert clf.mistakes <= bound
        assert set(per_class) <= set(range(K))


def test_one_vs_rest_refuses_binary_learners_that_start_by_claiming():
    H = np.array([[1, 1, 1], [1, 1, 0], [0, 1, 1]])  # halving predicts 1 everywhere at first
    clf = OneVsRest(lambda: HalvingClassifier(H), K=3)
    with pytest.raises(ValueError, match="must predict 0"):
        clf.learn_class(0, 2)


def test_one_vs_rest_copy_and_state_key():
    G = nx.path_graph(5)
    clf = OneVsRest(lambda: GraphPerceptron(G))
    clf.learn_class(0, 3)
    twin = clf.copy()  # a copy of the state (clone() is a fresh learner)
    assert twin.state_key() == clf.state_key()
    twin.learn_class(4, 1)
    assert twin.state_key() != clf.state_key() and clf.mistakes == 1


# -- bad input ------------------------------------------------------------------------------
def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="K .* at least 2"):
        MemorizingClassifier(4, 1)
    with pytest.raises(TypeError, match="K .* integer"):
        MemorizingClassifier(4, 2.5)
    clf = MemorizingClassifier(4, 3)
    with pytest.raises(ValueError, match="outside 0..2"):
        clf.learn_class(0, 3)
    with pytest.raises(ValueError, match="outside 0..2"):
        clf.learn_class(0, -1)
    with pytest.raises(TypeError, match="class label must be an integer"):
        clf.learn_class(0, 1.0)
    with pytest.raises(ValueError, match="unknown pattern x 4"):
        clf.predict_class(4)
    with pytest.raises(ValueError, match="outside 0..1"):
        check_class_label(2, 2)
    with pytest.raises(TypeError, match="does not follow the class-prediction protocol"):
        check_class_learner(object())
    with pytest.raises(ValueError, match="non-empty 2-d array"):
        HalvingClassifier(np.zeros((0, 3), dtype=int))
    with pytest.raises(ValueError, match="integer classes"):
        HalvingClassifier(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="uses class 3 but K=2"):
        HalvingClassifier(np.array([[0, 3]]), K=2)
    with pytest.raises(ValueError, match="bias weight a must be > 0"):
        GraphPerceptron(nx.path_graph(3), a=0.0)
    with pytest.raises(TypeError, match="make_binary must be a function"):
        OneVsRest(GraphPerceptron(nx.path_graph(3)))
    with pytest.raises(TypeError, match="does not follow the class-prediction protocol"):
        OneVsRest(lambda: object())
    with pytest.raises(ValueError, match="2-class learner"):
        OneVsRest(lambda: MemorizingClassifier(3, 3))
    with pytest.raises(TypeError, match="Can't instantiate abstract class"):
        ClassLearner(3, 2)


def test_graph_kernel_must_be_built_on_the_learners_graph():
    from simpred_lite.learners import GraphKernel

    C6 = nx.cycle_graph(6)
    with pytest.raises(ValueError, match="kernel was built on another graph .*GraphKernel"):
        GraphPerceptron(C6, kernel=GraphKernel(nx.path_graph(6)))  # same n, other edges
    K = GraphKernel(C6)
    GraphPerceptron(nx.cycle_graph(6), kernel=K)  # an equal graph (another object) is fine
    C6.add_edge(0, 3)  # editing the caller's graph afterwards
    assert not K.same_graph(C6) and K.same_graph(nx.cycle_graph(6))
    clf = GraphPerceptron(nx.cycle_graph(6), kernel=K)
    clf.learn_class(2, 1)
    clf.learn_class(4, 0)
    assert clf.predict_class(3) == 0 and clf.exact_decisions == 1  # the exact tie, on the graph K was built on
