"""Unknown graphs (§5): the path forest, Winnow on a tree, the r-norm Perceptron, and the proof's facts."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simpred_lite.checks import check_simple_path
from simpred_lite.game.play import run
from simpred_lite.game.trials import (
    Trial,
    cut_crossing_trials,
    loop_erase,
    random_walk_trials,
    shortest_path_trials,
)
from simpred_lite.graphs import cut_size, planted_partition
from simpred_lite.learners import (
    PathForest,
    PathForestReference,
    RNormPerceptron,
    RNormPerceptronReference,
    TreeWinnow,
)
from simpred_lite.learners.bounds import (
    rnorm_perceptron_cut_bound,
    rnorm_perceptron_mistake_bound,
    tree_winnow_mistake_bound,
)
from simpred_lite.learners.unknown import rnorm_exponent, rnorm_margin
from simpred_lite.spanning import wilson
from simpred_lite.theory.unknown_graphs import (
    class_coefficients,
    complete_spanning_tree,
    edge_path_vector,
    figure4_graph,
    figure6_graph,
    fundamental_cutset_matrix,
    random_tree_with_clusters,
    signed_cut_vector,
    target_matrix,
)

GENERATORS = [shortest_path_trials, random_walk_trials, cut_crossing_trials]


# ---------------------------------------------------------------------------------------
# random instances
# ---------------------------------------------------------------------------------------
@st.composite
def graph_labels(draw, n_min=4, n_max=14):
    """A connected random graph with random labels (classes may well be disconnected)."""
    n = draw(st.integers(n_min, n_max))
    seed = draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, draw(st.sampled_from([0.25, 0.4, 0.7])), seed=int(rng.integers(10**6)))
    comps = [sorted(c) for c in nx.connected_components(G)]
    for a, b in zip(comps, comps[1:]):  # join components into one connected graph
        G.add_edge(a[0], b[-1])
    K = draw(st.integers(2, 4))
    labels = rng.integers(K, size=n)
    labels[:2] = [0, 1]  # at least one cut edge is not guaranteed, but two classes are
    return G, labels, seed


def _signed(n, idx, sgn):
    x = np.zeros(n - 1, dtype=np.int64)
    x[idx] = sgn
    return x


# ---------------------------------------------------------------------------------------
# the path forest
# ---------------------------------------------------------------------------------------
# Figure 7 of the paper (vertices 1..7 renamed 0..6), with the instance vectors it prints.
FIG3 = [
    ((1, 2), (1, 0, 2), [-1, 1, 0, 0, 0, 0]),
    ((3, 4), (3, 0, 1, 4), [1, 0, -1, 1, 0, 0]),
    ((5, 6), (5, 6), [0, 0, 0, 0, 1, 0]),
    ((3, 4), (3, 5, 6, 4), [1, 0, -1, 1, 0, 0]),
    ((5, 3), (5, 3), [0, 0, 0, 0, 0, -1]),
]


@pytest.mark.parametrize("forest_class", [PathForest, PathForestReference])
@pytest.mark.parametrize("grow", ["disconnected", "always"])
def test_figure3_instances(forest_class, grow):
    F = forest_class(7, grow=grow)
    for (i, j), path, x in FIG3:
        assert F.preview(i, j, path).tolist() == x
        assert F.instance(i, j, path).tolist() == x
    assert F.edges == [(0, 1), (0, 2), (0, 3), (1, 4), (5, 6), (3, 5)]


def test_figure3_round4_adds_edge_only_when_always():
    """Round 4 of Figure 7 adds (4, 6); as §5 reads (endpoints already joined) it waits until round 5."""
    for grow, edges_after_4 in (("always", 6), ("disconnected", 5)):
        F = PathForest(7, grow=grow)
        for (i, j), path, _ in FIG3[:4]:
            F.instance(i, j, path)
        assert F.num_edges == edges_after_4


def test_forest_replaces_revealed_path():
    F = PathForest(5)
    F.instance(0, 2, [0, 1, 2])
    verts, idx, sgn = F.instance_sparse(0, 3, [0, 4, 2, 3])
    assert verts == [0, 1, 2, 3]  # (0, 4) joins two trees, (4, 2) would close a circuit
    assert F.edges == [(0, 1), (1, 2), (0, 4), (2, 3)]
    assert idx == [0, 1, 3] and sgn == [1, 1, 1]


@settings(max_examples=40)
@given(graph_labels(), st.sampled_from(GENERATORS), st.sampled_from(["disconnected", "always"]))
def test_forest_matches_naive_reference(gl, gen, grow):
    G, labels, seed = gl
    n = G.number_of_nodes()
    trials = gen(G, labels, 25, seed=seed)
    fast, naive = PathForest(n, grow), PathForestReference(n, grow)
    history = []
    for t in trials:
        before = fast.num_edges
        pv = fast.preview_sparse(t.i, t.j, t.path)
        assert fast.num_edges == before  # previewing never changes the forest
        got = fast.instance_sparse(t.i, t.j, t.path)
        assert got == pv == naive.preview_sparse(t.i, t.j, t.path) == naive.instance_sparse(t.i, t.j, t.path)
        assert fast.edges == naive.edges
        history.append((t.i, t.j, got))
    # a forest of edges of G, numbered by first disclosure, and past instances never change
    F = fast.to_networkx()
    assert nx.is_forest(F) and all(G.has_edge(a, b) for a, b in fast.edges)
    for i, j, (verts, idx, sgn) in history:
        assert fast.tree_path(i, j) == verts
        assert _signed(n, idx, sgn).tolist() == edge_path_vector(verts, fast.edges).tolist() + [0] * (
            n - 1 - fast.num_edges
        )


def test_forest_component_merges_rerooting():
    """Merging trees of every size keeps paths right (re-rooting of the smaller side)."""
    n = 40
    rng = np.random.default_rng(3)
    T = nx.random_labeled_tree(n, seed=3) if hasattr(nx, "random_labeled_tree") else nx.random_tree(n, seed=3)
    edges = list(T.edges)
    rng.shuffle(edges)
    fast, naive = PathForest(n), PathForestReference(n)
    for a, b in edges:
        assert fast.instance_sparse(int(a), int(b), [int(a), int(b)]) == naive.instance_sparse(int(a), int(b), [int(a),
                                                                                                                int(b)])
    for _ in range(50):
        i, j = rng.choice(n, 2, replace=False).tolist()
        path = nx.shortest_path(T, i, j)
        assert fast.instance_sparse(i, j, path) == naive.instance_sparse(i, j, path)


@pytest.mark.parametrize(
    "path, match",
    [
        ([0, 1, 1, 2], "consecutive path vertices must differ"),
        ([0, 1, 3, 1, 2], "visits vertex 1 twice"),
        ([1, 2], "must start at i=0"),
        ([0, 1], "end at j=2"),
        ([0, 9, 2], "unknown path vertex 9"),
        ([0], "at least one edge|end at j=2"),
    ],
)
def test_bad_paths_rejected(path, match):
    with pytest.raises(ValueError, match=match):
        PathForest(5).instance(0, 2, path)
    with pytest.raises(ValueError, match=match):
        RNormPerceptron(5).predict_one(0, 2, path)
    with pytest.raises(ValueError, match=match):
        TreeWinnow(5).learn_one(0, 2, 1, path)


def test_other_bad_input():
    with pytest.raises(ValueError, match="needs the path"):
        RNormPerceptron(5).predict_one(0, 2)
    with pytest.raises(ValueError, match="needs at least one edge|None"):
        check_simple_path(0, 2, None, 5)
    with pytest.raises(TypeError, match="sequence of vertices"):
        check_simple_path(0, 2, 7, 5)
    with pytest.raises(ValueError, match="grow must be"):
        PathForest(5, grow="sometimes")
    with pytest.raises(ValueError, match="n >= 3"):
        RNormPerceptron(2)
    with pytest.raises(ValueError, match=r"alpha must lie in \(1, 1.8\d*e\+19\], got 1.0"):
        TreeWinnow(5, alpha=1.0)
    with pytest.raises(ValueError, match=r"threshold must lie in \[9.3\d*e-302, 1.07\d*e\+301\], got 0.0"):
        TreeWinnow(5, threshold=0)
    with pytest.raises(ValueError, match="not connected in the forest"):
        PathForest(5).tree_path(0, 1)
    with pytest.raises(TypeError, match="n must be an integer"):
        PathForest(5.0)
    with pytest.raises(ValueError, match="not among the given edges"):
        edge_path_vector([0, 2], [(0, 1), (1, 2)])
    with pytest.raises(ValueError, match="spanning tree"):
        fundamental_cutset_matrix([(0, 1), (1, 2), (0, 2)], [(0, 1)], n=3)
    with pytest.raises(ValueError, match="not an edge of G"):
        complete_spanning_tree(nx.path_graph(3), [(0, 2)])
    with pytest.raises(ValueError, match="closes a circuit"):
        complete_spanning_tree(nx.cycle_graph(3), [(0, 1), (1, 2), (0, 2)])


# ---------------------------------------------------------------------------------------
# trial generators
# ---------------------------------------------------------------------------------------
@settings(max_examples=25)
@given(graph_labels(), st.sampled_from(GENERATORS))
def test_generators_reveal_simple_paths_of_G(gl, gen):
    G, labels, seed = gl
    trials = gen(G, labels, 15, seed=seed)
    assert trials == gen(G, labels, 15, seed=seed)  # seeded
    for t in trials:
        assert t.path[0] == t.i and t.path[-1] == t.j and len(set(t.path)) == len(t.path)
        assert all(G.has_edge(a, b) for a, b in zip(t.path, t.path[1:]))
        assert t.y == int(labels[t.i] != labels[t.j])
    if gen is shortest_path_trials:
        assert all(len(t.path) - 1 == nx.shortest_path_length(G, t.i, t.j) for t in trials)


def test_cut_crossing_paths_cross_the_cut():
    G, labels = planted_partition(40, 2, 0.4, 0.05, seed=5)
    trials = cut_crossing_trials(G, labels, 60, seed=1)
    crossing = [any(labels[a] != labels[b] for a, b in zip(t.path, t.path[1:])) for t in trials]
    assert all(crossing)
    similar_crossing = [t for t in trials if t.y == 0]
    assert similar_crossing  # similar pairs shown paths that leave their class and return


def test_generator_errors():
    G = nx.path_graph(4)
    with pytest.raises(ValueError, match="at least one cut edge"):
        cut_crossing_trials(G, [0, 0, 0, 0], 3, seed=0)
    with pytest.raises(ValueError, match="T must be at least 0"):
        shortest_path_trials(G, [0, 0, 1, 1], -1, seed=0)
    with pytest.raises(ValueError, match="did not reach"):
        random_walk_trials(nx.path_graph(30), [0] * 15 + [1] * 15, 20, seed=0, max_steps=3)
    with pytest.raises(ValueError, match="tries must be"):
        cut_crossing_trials(G, [0, 0, 1, 1], 3, seed=0, tries=0)


def test_loop_erase():
    assert loop_erase([0, 1, 2, 1, 3]) == [0, 1, 3]
    assert loop_erase([4, 5, 6, 4, 7]) == [4, 7]
    assert loop_erase([2, 3]) == [2, 3]


# ---------------------------------------------------------------------------------------
# the appendix: cuts, directed paths, separability
# ---------------------------------------------------------------------------------------
def test_figure4_numbers():
    """Every vector printed in the caption of Figure 6 (the paper's vertex v is v - 1)."""
    G, edges, tree, labels = figure6_graph()
    Q = fundamental_cutset_matrix(tree, edges)
    assert Q[:, :6].tolist() == np.eye(6, dtype=int).tolist()  # Q = [I | R]
    assert Q[0].tolist() == [1, 0, 0, 0, 0, 0, -1, 1, 0, 1, 0, 1]  # fundamental cut of e1
    p = edge_path_vector([5, 2, 0, 1, 6], edges)  # 6 -> 3 -> 1 -> 2 -> 7
    assert p.tolist() == [1, -1, 0, 0, 1, -1, 0, 0, 0, 0, 0, 0]
    p2 = edge_path_vector([5, 3, 6], edges)  # 6 -> 4 -> 7, only chords
    assert p2.tolist() == [0, 0, 0, 0, 0, 0, 0, 0, -1, 1, 0, 0]
    assert (Q @ p).tolist() == (Q @ p2).tolist() == [1, -1, 0, 0, 1, -1]
    U = class_coefficients(tree, labels)
    assert U.tolist() == [[0, 0, -1, -1, -1, -1], [1, 1, 1, 1, 0, 0], [-1, -1, 0, 0, 1, 1]]
    assert (Q.T @ U[0]).tolist() == [0, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0]  # blue cut q_{4567}
    assert int(U[0] @ (Q @ p)) == 0  # 6 and 7 are both blue
    # Figure 3(b)-(c): blue is connected in G but shattered into singletons by T
    blue = [v for v in range(7) if labels[v] == 0]
    assert nx.is_connected(G.subgraph(blue))
    assert nx.number_connected_components(nx.Graph(tree).subgraph(blue)) == 4


@settings(max_examples=30)
@given(graph_labels(), st.integers(0, 10**6))
def test_path_invariance_and_cut_basis(gl, tree_seed):
    """For a fixed spanning tree, Qp is the same for every i -> j path of G; Q^T u_k is class k's cut."""
    G, labels, seed = gl
    n = G.number_of_nodes()
    T = wilson(G, seed=tree_seed)
    tree = sorted((min(e), max(e)) for e in T.edges)
    edges = sorted((min(e), max(e)) for e in G.edges)
    Q = fundamental_cutset_matrix(tree, edges, n)
    trials = random_walk_trials(G, labels, 8, seed=seed)
    if cut_size(G, labels):
        trials += cut_crossing_trials(G, labels, 4, seed=seed)
    for t in trials:
        target = edge_path_vector(nx.shortest_path(T, t.i, t.j), tree)
        for path in (t.path, nx.shortest_path(G, t.i, t.j)):
            assert (Q @ edge_path_vector(path, edges)).tolist() == target.tolist()
    U = class_coefficients(tree, labels)
    for k in range(U.shape[0]):
        assert (Q.T @ U[k]).tolist() == signed_cut_vector(edges, labels, k).tolist()
        tree_cut = sum(labels[a] != labels[b] and k in (labels[a], labels[b]) for a, b in tree)
        graph_cut = sum(labels[a] != labels[b] and k in (labels[a], labels[b]) for a, b in edges)
        assert np.abs(U[k]).sum() == tree_cut <= graph_cut  # ||u_k||_1 = |Phi_k^T| <= |Phi_k^G|


@settings(max_examples=30)
@given(graph_labels(), st.sampled_from(GENERATORS))
def test_separability_on_forest_instances(gl, gen):
    """e:separ: sum_k (u_k^T x_t)^2 = 2 y_t for the forest's x_t, also for disconnected classes."""
    G, labels, seed = gl
    n = G.number_of_nodes()
    trials = gen(G, labels, 30, seed=seed)
    F = PathForest(n)
    xs = [F.instance(t.i, t.j, t.path) for t in trials]
    tree = complete_spanning_tree(G, F.edges)
    assert tree[: F.num_edges] == F.edges
    U = class_coefficients(tree, labels)
    Umat = target_matrix(U)
    for t, x in zip(trials, xs):
        assert int(((U @ x) ** 2).sum()) == 2 * t.y
        assert int(np.sum(Umat * np.outer(x, x))) == 2 * t.y  # tr(U^T X_t) = vec(U)^T vec(X_t)


def test_separability_with_a_disconnected_class():
    G, edges, tree, labels = figure6_graph()  # red {2, 3} is disconnected
    assert not nx.is_connected(G.subgraph([v for v in range(7) if labels[v] == 2]))
    trials = shortest_path_trials(G, labels, 60, seed=0)
    F = PathForest(7)
    xs = [F.instance(t.i, t.j, t.path) for t in trials]
    U = class_coefficients(complete_spanning_tree(G, F.edges), labels)
    assert [int(((U @ x) ** 2).sum()) for x in xs] == [2 * t.y for t in trials]
    assert {t.y for t in trials} == {0, 1}


# ---------------------------------------------------------------------------------------
# Winnow on a tree (warm-up)
# ---------------------------------------------------------------------------------------
def _tree_with_connected_classes(n, k, seed):
    rng = np.random.default_rng(seed)
    T = wilson(nx.complete_graph(n), seed=seed)
    cut = [tuple(e) for e in rng.permutation(np.array(list(T.edges)))[:k]]
    H = T.copy()
    H.remove_edges_from(cut)
    labels = np.zeros(n, dtype=np.int64)
    for c, comp in enumerate(nx.connected_components(H)):
        labels[list(comp)] = c
    return T, labels


@pytest.mark.parametrize("n, k, seed", [(30, 2, 0), (60, 4, 1), (120, 3, 2)])
def test_tree_winnow_within_bound(n, k, seed):
    T, labels = _tree_with_connected_classes(n, k, seed)
    trials = shortest_path_trials(T, labels, 1500, seed=seed)
    learner = TreeWinnow(n)
    res = run(learner, trials)
    assert 0 < res.total_mistakes <= tree_winnow_mistake_bound(n, k)
    # the linear model of the warm-up: y = [u^T |x| >= 1], u = cut-edge indicator
    F = learner.forest
    u = np.array([labels[a] != labels[b] for a, b in F.edges], dtype=int)
    for t in trials[:200]:
        x = np.abs(F.preview(t.i, t.j, t.path))[: F.num_edges]
        assert int(u @ x >= 1) == t.y


def test_tree_winnow_matches_plain_winnow():
    T, labels = _tree_with_connected_classes(25, 3, 7)
    trials = shortest_path_trials(T, labels, 400, seed=7)
    learner = TreeWinnow(25)
    w = np.ones(24)
    F = PathForestReference(25)
    for t in trials:
        x = np.abs(F.instance(t.i, t.j, t.path))
        y_hat = int(w @ x >= 24)
        assert learner.predict_one(t.i, t.j, t.path) == y_hat
        learner.learn_one(t.i, t.j, t.y, t.path)
        if y_hat != t.y:
            w = np.where(x == 1, w * (2.0 if t.y else 0.5), w)


def test_winnow_bound_formula():
    assert tree_winnow_mistake_bound(1025, 2) == 1 + 3 * 2 * 10
    assert tree_winnow_mistake_bound(9, 1) == 1 + 3 * 1 * 3


def test_tree_winnow_fails_on_shattered_cluster():
    """Figure 3(b)-(c): on a non-tree graph the disjunction model breaks and Winnow keeps erring."""
    G, edges, tree, labels = figure6_graph()
    F = PathForest(7)
    for a, b in tree:  # the adversary first reveals the thick spanning tree, edge by edge
        F.instance(a, b, (a, b))
    u = np.array([labels[a] != labels[b] for a, b in F.edges], dtype=int)
    x = np.abs(F.instance(3, 5, nx.shortest_path(G, 3, 5)))  # paper's 4 and 6, both blue
    assert labels[3] == labels[5] and u @ x >= 1  # similar, yet its tree path crosses cut edges
    # Winnow on this sequence: the pair (4, 6) is similar but shares all its edges with dissimilar pairs
    seq = [Trial(3, 0, 1, (3, 0)), Trial(5, 2, 1, (5, 2)), Trial(3, 5, 0, (3, 5))] * 40
    learner = TreeWinnow(7)
    for a, b in tree:
        learner.learn_one(a, b, int(labels[a] != labels[b]), (a, b))
    res = run(learner, seq)
    assert res.mistakes[-30:].sum() > 0  # it never settles


# ---------------------------------------------------------------------------------------
# the r-norm Perceptron
# ---------------------------------------------------------------------------------------
@settings(max_examples=30)
@given(graph_labels(n_min=4, n_max=12), st.sampled_from(GENERATORS), st.sampled_from(["disconnected", "always"]))
def test_rnorm_sparse_equals_dense(gl, gen, grow):
    G, labels, seed = gl
    n = G.number_of_nodes()
    trials = gen(G, labels, 120, seed=seed)
    sparse, dense = RNormPerceptron(n, grow), RNormPerceptronReference(n, grow)
    rs, rd = run(sparse, trials), run(dense, trials)
    assert rs.predictions.tolist() == rd.predictions.tolist()
    dense_theta = {k: int(v) for k, v in enumerate(dense.theta) if v}
    assert sparse.theta == dense_theta
    assert sparse.hist == dense._dense_hist()  # the incremental histogram of |theta_i|
    assert sparse.norm_r() == dense.norm_r()


def test_rnorm_margin_is_literal_w_dot_vecX():
    """The canonical margin equals w^T vec(X_t) with w = sign(theta)|theta|^(r-1)/||theta||_r^(r-2)."""
    G, labels = planted_partition(12, 3, 0.5, 0.1, seed=2)
    trials = shortest_path_trials(G, labels, 200, seed=3)
    dense = RNormPerceptronReference(12)
    checked = 0
    for t in trials:
        _, idx, sgn = dense.forest.preview_sparse(t.i, t.j, t.path)
        literal = float(dense.weights() @ dense.vec_instance(idx, sgn))
        assert math.isclose(dense.margin(t.i, t.j, t.path), literal, rel_tol=1e-12, abs_tol=1e-300)
        checked += literal != 0
        dense.learn_one(t.i, t.j, t.y, t.path)
    assert checked > 50
    assert dense.norm_r() == pytest.approx(np.sum(np.abs(dense.theta.astype(float)) ** dense.r) ** (1 / dense.r),
                                           rel=1e-12)


def test_rnorm_needs_r_minus_1_mistakes_on_one_pair():
    """theta = k vec(X): margin k ||x||_r^4 against (r-1)||x||_r^4, so it flips at k = ceil(r-1)."""
    for n in (5, 20, 300):
        learner = RNormPerceptron(n)
        path = [0, 1, 2, 3]
        while learner.predict_one(0, 3, path) == 0:
            learner.learn_one(0, 3, 1, path)
        assert learner.mistakes == math.ceil(rnorm_exponent(n) - 1)


def test_rnorm_margin_never_overflows():
    r = rnorm_exponent(10**6)  # about 55: 10**7 ** 55 overflows a float
    k, ell = 10**7, 3
    m = rnorm_margin({k: ell**2}, {k: ell**2}, r)
    assert math.isfinite(m) and math.isclose(m, k * ell ** (4 / r), rel_tol=1e-12)
    assert rnorm_margin({}, {}, r) == 0.0


@pytest.mark.parametrize("gen", GENERATORS)
def test_rnorm_proof_steps_and_bound(gen):
    """Check Theorem t:unknown's proof on data: 2P = vec(U).theta <= ||U||_s ||theta||_r, potential, bound."""
    G, labels = planted_partition(30, 3, 0.4, 0.03, seed=11)
    n = 30
    trials = gen(G, labels, 1500, seed=4)
    learner = RNormPerceptron(n)
    P = D = 0
    sumP = sumD = 0.0
    for t in trials:
        y_hat = learner.predict_one(t.i, t.j, t.path)
        learner.learn_one(t.i, t.j, t.y, t.path)
        ell = len(learner.last_instance[0])
        if y_hat != t.y:
            v2 = ell ** (4 / learner.r)  # ||vec X_t||_r^2, in [1, e]
            assert 1 <= v2 <= math.e
            if t.y == 1:
                P, sumP = P + 1, sumP + v2
            else:
                D, sumD = D + 1, sumD + v2
    r, s = learner.r, learner.s
    assert P + D == learner.mistakes > 0
    tree = complete_spanning_tree(G, learner.forest.edges)
    Umat = target_matrix(class_coefficients(tree, labels))
    m = n - 1
    u_dot_theta = sum(Umat[k // m, k % m] * v for k, v in learner.theta.items())
    assert u_dot_theta == 2 * P
    u_norm = float(np.sum(np.abs(Umat) ** s) ** (1 / s))
    theta_norm = learner.norm_r()
    assert 2 * P <= u_norm * theta_norm * (1 + 1e-12)
    assert theta_norm**2 <= (r - 1) * (3 * sumP - sumD) * (1 + 1e-12)
    assert learner.mistakes <= rnorm_perceptron_mistake_bound(n, u_norm) <= rnorm_perceptron_cut_bound(n, cut_size(G,
                                                                                                                   labels))


def test_rnorm_sparse_equals_dense_long_run_both_labels():
    G, labels = planted_partition(20, 2, 0.4, 0.05, seed=8)
    trials = cut_crossing_trials(G, labels, 1500, seed=8)
    rs, rd = run(RNormPerceptron(20), trials), run(RNormPerceptronReference(20), trials)
    assert rs.predictions.tolist() == rd.predictions.tolist()
    assert set(rs.predictions.tolist()) == {0, 1} and rs.total_mistakes > 20


def test_rnorm_rule_uses_greater_or_equal():
    from simpred_lite.learners.unknown import rnorm_decision

    # theta = (1) on a one-edge path: margin 1.0; with r = 2 the threshold (r-1) * 1 is 1.0 too
    assert rnorm_margin({1: 1}, {1: 1}, 2.0) == 1.0
    assert rnorm_decision({1: 1}, {1: 1}, 1, 2.0) == 1
    assert rnorm_decision({1: 1}, {1: 1}, 1, 2.0 + 1e-9) == 0


@pytest.mark.parametrize("alpha, threshold", [(3.0, None), (1.5, 40.0), (2.0, 10.0)])
def test_tree_winnow_general_parameters_within_bound(alpha, threshold):
    T, labels = random_tree_with_clusters(80, 4, seed=5)
    learner = TreeWinnow(80, alpha=alpha, threshold=threshold)
    res = run(learner, shortest_path_trials(T, labels, 1500, seed=5))
    assert res.total_mistakes <= tree_winnow_mistake_bound(80, 3, alpha=alpha, threshold=threshold)


def test_random_tree_with_clusters_and_errors():
    T, labels = random_tree_with_clusters(50, 5, seed=1)
    assert nx.is_tree(T) and cut_size(T, labels) == 4
    assert all(nx.is_connected(T.subgraph(np.flatnonzero(labels == k).tolist())) for k in range(5))
    with pytest.raises(ValueError, match="K must lie in 1..5"):
        random_tree_with_clusters(5, 6, seed=0)


def test_drawing_helpers():
    from matplotlib.figure import Figure

    from simpred_lite.viz import draw_edge_numbering, draw_forest_rounds

    fig = Figure()
    axes = fig.subplots(1, 5)
    pos = {v: (v % 3, v // 3) for v in range(7)}
    xs = draw_forest_rounds(7, [(i, j, p) for (i, j), p, _ in FIG3], pos, axes=axes)
    assert [x.tolist() for x in xs] == [x for _, _, x in FIG3]
    with pytest.raises(ValueError, match="one Axes per round"):
        draw_forest_rounds(7, [(i, j, p) for (i, j), p, _ in FIG3], pos, axes=axes[:2])
    with pytest.raises(ValueError, match="undirected networkx.Graph"):
        draw_edge_numbering(nx.DiGraph([(0, 1)]), ax=fig.add_subplot())


@pytest.mark.parametrize("cls", [RNormPerceptron, RNormPerceptronReference])
@pytest.mark.parametrize("c", [0.75, 1.0, 2.0])
def test_rnorm_decision_threshold_is_the_override_point(cls, c):
    """A subclass returning c (r-1) ell^(4/r) flips after ceil(c (r-1)) mistakes on one dissimilar pair."""

    class Scaled(cls):
        def decision_threshold(self, ell):
            return c * super().decision_threshold(ell)

    for n in (10, 100):
        learner = Scaled(n)
        assert learner.decision_threshold(3) == pytest.approx(c * (learner.r - 1) * 3 ** (4 / learner.r))
        while learner.predict_one(0, 2, (0, 1, 2)) == 0 and learner.mistakes < 100:
            learner.learn_one(0, 2, 1, (0, 1, 2))
        assert learner.mistakes == math.ceil(c * (learner.r - 1))


def test_figure6_graph_keeps_its_former_name_as_alias():
    import simpred_lite.theory as theory

    assert figure4_graph is figure6_graph
    assert theory.figure6_graph is theory.figure4_graph is figure6_graph
    G, edges, tree, labels = figure6_graph()
    assert (G.number_of_nodes(), G.number_of_edges(), len(tree)) == (7, 12, 6)
