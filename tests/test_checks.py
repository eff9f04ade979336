"""The central argument checks, and a table of bad inputs across the public API.

Every bad input must fail with ``TypeError`` (wrong type) or ``ValueError`` (wrong value)
and a message that names the argument; the regexes below pin that down.
"""

import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

import simpred_lite
from simpred_lite import (
    apps,
    bst,
    checks,
    datasets,
    graphs,
    resistance,
    spanning,
)
from simpred_lite.checks import (
    MemoryLimitError,
    WorkLimitError,
    check_int,
    check_labels,
    check_memory,
    check_pair,
    check_path,
    check_probability,
    check_random_state,
    check_real,
    check_similarity_label,
    check_vertex,
)
from simpred_lite.exact import ExactLaplacian, ExactTooLargeError
from simpred_lite.game import adversaries, evaluation, hand_played, play, playground, trials
from simpred_lite.learners import (
    AlwaysSimilar,
    BSTPerceptron,
    ClassifierFromSimilarity,
    GraphKernel,
    GraphPerceptron,
    LowRankMatrixWinnow,
    MatrixPerceptron,
    MatrixWinnow,
    MemorizingClassifier,
    RNormPerceptron,
    RNormPerceptronReference,
    TreeWinnow,
    UnionFindLearner,
    bounds,
    classifiers,
    instances,
    reductions,
    unknown,
)
from simpred_lite.learners import base as learners_base
from simpred_lite.theory import hardness, lowerbound, similarity_lower_bound, tree_averages, unknown_graphs
from simpred_lite.viz import figures

P4 = nx.path_graph(4)
Y4 = [0, 0, 1, 1]


# -- the checks themselves ---------------------------------------------------------------------
def test_check_random_state():
    rng = np.random.default_rng(3)
    assert check_random_state(rng) is rng
    a, b = check_random_state(5), check_random_state(np.int64(5))
    assert a.integers(10**9) == b.integers(10**9)  # same seed, same stream
    assert isinstance(check_random_state(None, allow_none=True), np.random.Generator)
    with pytest.raises(ValueError, match="explicit seed"):
        check_random_state(None)
    for bad in ["abc", 1.5, True, np.bool_(False), [1], np.random.RandomState(0)]:
        with pytest.raises(TypeError, match="seed must be a non-negative integer or a numpy.random.Generator"):
            check_random_state(bad)
    with pytest.raises(ValueError, match="seed must be a non-negative integer, got -1; pass e.g. seed=0"):
        check_random_state(-1)
    with pytest.raises(TypeError, match="layout_seed must be"):
        check_random_state("x", name="layout_seed")


def test_check_int():
    assert check_int(np.int32(4), "n", low=2, high=4) == 4 and type(check_int(np.int32(4), "n")) is int
    for bad in [True, np.bool_(True), 2.0, "2", None, Fraction(2)]:
        with pytest.raises(TypeError, match="n must be an integer"):
            check_int(bad, "n")
    with pytest.raises(ValueError, match="n must be at least 2, got 1"):
        check_int(1, "n", low=2)
    with pytest.raises(ValueError, match="n must be at most 3, got 4"):
        check_int(4, "n", high=3)
    with pytest.raises(ValueError, match="K must lie in 2..5, got 6"):
        check_int(6, "K", low=2, high=5)


def test_check_real():
    assert check_real(1, "eta") == 1.0 and check_real(Fraction(1, 2), "beta") == 0.5
    assert check_real(np.float32(0.25), "p") == 0.25
    assert check_real(math.inf, "t", finite=False) == math.inf
    for bad in ["0.5", True, None, 1j, [0.5]]:
        with pytest.raises(TypeError, match="eta must be a real number"):
            check_real(bad, "eta")
    with pytest.raises(ValueError, match="eta must be a number, got NaN"):
        check_real(float("nan"), "eta", finite=False)
    with pytest.raises(ValueError, match="eta must be finite"):
        check_real(-math.inf, "eta")
    with pytest.raises(ValueError, match=r"eta must be > 0, got 0.0"):
        check_real(0.0, "eta", low=0, low_inclusive=False)
    with pytest.raises(ValueError, match=r"beta must lie in \(0, 1\), got 1.0"):
        check_real(1.0, "beta", low=0, high=1, low_inclusive=False, high_inclusive=False)
    with pytest.raises(ValueError, match=r"x must be <= 2, got 3.0"):
        check_real(3.0, "x", high=2)
    assert check_probability(0, "p") == 0.0 and check_probability(1, "p") == 1.0
    with pytest.raises(ValueError, match=r"p must be a probability in \[0, 1\], got -0.1"):
        check_probability(-0.1, "p")


def test_check_vertex_pair_path_and_label():
    assert check_vertex(np.int64(2), 3) == 2
    with pytest.raises(TypeError, match="vertex must be an integer vertex index 0..2"):
        check_vertex(2.0, 3)
    with pytest.raises(TypeError, match="root must be an integer"):
        check_vertex(True, 3, "root")
    with pytest.raises(ValueError, match="unknown vertex 3: the graph's vertices are 0..2"):
        check_vertex(3, 3)
    assert check_pair(2, 0, 3) == (2, 0)
    with pytest.raises(ValueError, match="two distinct vertices"):
        check_pair(1, 1, 3)
    assert check_path(np.array([0, 2, 1]), 0, 1, 3) == (0, 2, 1)
    assert check_path((0, 99, 1), 0, 1, None) == (0, 99, 1)  # n unknown: any vertex >= 0
    for bad in [5, "012", {0, 1}, None]:
        with pytest.raises(TypeError, match="path must be a sequence of vertices"):
            check_path(bad, 0, 1, 3)
    with pytest.raises(ValueError, match="path must start at i=0 and end at j=1"):
        check_path([0, 2], 0, 1, 3)
    with pytest.raises(ValueError, match="unknown path vertex 7"):
        check_path([0, 7, 1], 0, 1, 3)
    assert check_similarity_label(True) == 1 and check_similarity_label(np.int8(0)) == 0
    with pytest.raises(TypeError, match="0 \\(similar\\) or 1 \\(dissimilar\\).*int\\(y\\)"):
        check_similarity_label(0.0)
    with pytest.raises(ValueError, match="0 \\(similar\\) or 1 \\(dissimilar\\), got 2"):
        check_similarity_label(2)


def test_check_labels():
    out = check_labels([0, 2, 1], 3, num_classes=3)
    assert out.dtype == np.int64 and out.tolist() == [0, 2, 1]
    src = np.array([0, 1])
    assert check_labels(src, 2) is not src  # a copy: the caller's array is never aliased
    with pytest.raises(ValueError, match="astype\\(int\\)"):
        check_labels([0.0, 1.0, 2.0, 3.0], 4)  # whole floats too: labels are integers
    with pytest.raises(ValueError, match="return_inverse"):
        check_labels(["a", "b"], 2)
    with pytest.raises(ValueError, match="dtype bool"):
        check_labels([True, False], 2)
    with pytest.raises(ValueError, match="lie in 0..1, found 2"):
        check_labels([0, 2], 2, num_classes=2)
    # the old public name is the same check
    with pytest.raises(ValueError, match="astype\\(int\\)"):
        graphs.validate_labels([0.0, 1.0], 2)


def test_check_memory(monkeypatch):
    check_memory(checks.MEMORY_LIMIT, "exactly the limit", "nothing")  # at the limit: fine
    with pytest.raises(ValueError, match=r"a thing needs 2.0 GiB, more than the 1.0 GiB limit .*; use less"):
        check_memory(2 * 2**30, "a thing", "use less")
    with pytest.raises(ValueError, match="needs 100 bytes, more than the 10 bytes limit"):
        check_memory(100, "a thing", "use less", limit=10)
    monkeypatch.setattr(checks, "MEMORY_LIMIT", 10)  # the module constant is read at call time
    with pytest.raises(ValueError, match="a thing"):
        check_memory(100, "a thing", "use less")


def test_old_names_still_work():
    assert learners_base.check_vertex is check_vertex
    assert learners_base.check_pair is check_pair
    assert learners_base.check_similarity_label is check_similarity_label
    assert "checks" in simpred_lite.__all__
    assert checks.is_integer(np.uint8(3)) and not checks.is_integer(np.bool_(True))


def test_known_graph_learners_check_but_drop_the_path():
    learner = UnionFindLearner(4)
    assert learner.predict_one(0, 3, path=[0, 1, 2, 3]) == learner.predict_one(0, 3)
    learner.learn_one(0, 3, 0, path=[0, 2, 3])  # a valid path is accepted and ignored
    assert learner.trials == 1
    with pytest.raises(ValueError, match="path must start at i=0 and end at j=3"):
        learner.predict_one(0, 3, path=[1, 3])
    with pytest.raises(TypeError, match="path must be a sequence"):
        learner.learn_one(0, 3, 0, path=3)
    assert learner.trials == 1  # a refused call changes nothing


def test_memory_guards_are_raised_before_allocating(monkeypatch):
    # small limits stand in for the real sizes (a 100 x 100 grid, n = 3000, n = 200000)
    G, y = graphs.grid_graph(6, 6)  # built first: the graph itself is checked against the limit too
    monkeypatch.setattr(checks, "MEMORY_LIMIT", 10_000)
    with pytest.raises(ValueError, match="comparator_matrix .*comparator_norm_sq"):
        instances.comparator_matrix(G, y)
    with pytest.raises(ValueError, match=r"LowRankMatrixWinnow .*use the kernel form"):
        LowRankMatrixWinnow(G, cut_size=6)
    MatrixWinnow(G, cut_size=6)  # the suggested alternatives: the kernel form ...
    MatrixWinnow(bst.BinarySupportTree.from_graph(G, seed=0), cut_size=6)  # ... or the BST
    # the forest of revealed paths takes ~400 bytes a vertex: a limit it fits in at n = 70
    monkeypatch.setattr(checks, "MEMORY_LIMIT", 30_000)
    with pytest.raises(ValueError, match=r"RNormPerceptronReference\(70\) .* use RNormPerceptron\(n\)"):
        RNormPerceptronReference(70)
    RNormPerceptron(70)  # the sparse learner allocates nothing dense


def test_memory_guards_at_the_real_sizes():
    with pytest.raises(ValueError, match=r"RNormPerceptronReference\(200000\) .* needs 298.0 GiB"):
        RNormPerceptronReference(200000)
    G, y = graphs.grid_graph(100, 100)
    with pytest.raises(ValueError, match=r"comparator_matrix .* needs 4.4 GiB"):
        instances.comparator_matrix(G, y)


# -- the table of bad inputs -------------------------------------------------------------------
def _call(f, *args, **kwargs):
    return lambda: f(*args, **kwargs)


def _bst4():
    return bst.BinarySupportTree([0, 1, 2, 3])


def _float_node_graph():
    return nx.relabel_nodes(P4, {v: float(v) for v in P4})


BAD_INPUTS = [
    # seeds, wherever a seed is taken
    ("planted seed str", _call(graphs.planted_partition, 10, 2, 0.5, 0.1, seed="abc"), TypeError, "seed must be a non-negative integer or a numpy.random.Generator, got 'abc'"),
    ("planted seed float", _call(graphs.planted_partition, 10, 2, 0.5, 0.1, seed=1.5), TypeError, "seed must be .* got 1.5"),
    ("planted seed negative", _call(graphs.planted_partition, 10, 2, 0.5, 0.1, seed=-1), ValueError, "seed must be a non-negative integer, got -1"),
    ("planted seed bool", _call(graphs.planted_partition, 10, 2, 0.5, 0.1, seed=True), TypeError, "seed must be .* got True"),
    ("random_trials seed float", _call(trials.random_trials, P4, Y4, 3, seed=1.5), TypeError, "seed must be"),
    ("cut_biased seed str", _call(adversaries.cut_biased_trials, P4, Y4, 3, seed="1"), TypeError, "seed must be"),
    ("wilson seed negative", _call(spanning.wilson, P4, seed=-1), ValueError, "seed must be a non-negative"),
    ("BST from_graph seed bool", _call(bst.BinarySupportTree.from_graph, P4, seed=True), TypeError, "seed must be"),
    ("random_permutation seed str", _call(lowerbound.random_permutation, 3, seed="x"), TypeError, "seed must be"),
    ("random_tree_with_clusters seed None", _call(unknown_graphs.random_tree_with_clusters, 10, 2, seed=None), ValueError, "explicit seed"),
    ("adaptive_class_run seed float", _call(play.adaptive_class_run, MemorizingClassifier(4, 3), [0, 2, 1, 0], 2, seed=0.5), TypeError, "seed must be"),
    ("Playground seed negative", _call(playground.Playground, "barbell", ["AlwaysSimilar"], seed=-1), ValueError, "seed must be at least 0"),
    ("Playground reset seed float", lambda: playground.Playground("barbell", ["AlwaysSimilar"], seed=0).reset(seed=1.5), TypeError, "seed must be an integer"),
    # generators
    ("grid float rows", _call(graphs.grid_graph, 2.5, 3), TypeError, "rows must be an integer, got 2.5"),
    ("grid str rows", _call(graphs.grid_graph, "3", 4), TypeError, "rows must be an integer, got '3'"),
    ("grid bool rows", _call(graphs.grid_graph, True, 3), TypeError, "rows must be an integer, got True"),
    ("grid negative rows", _call(graphs.grid_graph, -1, 3), ValueError, "rows must be at least 1"),
    ("grid K=0", _call(graphs.grid_graph, 3, 4, K=0), ValueError, "K must lie in 1..4"),
    ("barbell float clique", _call(graphs.barbell_graph, 3.5), TypeError, "clique_size must be an integer"),
    ("barbell float path", _call(graphs.barbell_graph, 3, 1.5), TypeError, "path_length must be an integer"),
    ("barbell negative path", _call(graphs.barbell_graph, 3, -1), ValueError, "path_length must be at least 0"),
    ("planted p_in str", _call(graphs.planted_partition, 10, 2, "0.5", 0.1, seed=0), TypeError, "p_in must be a real number, got '0.5'.*not a string"),
    ("planted p_in NaN", _call(graphs.planted_partition, 10, 2, math.nan, 0.1, seed=0), ValueError, "p_in must be a number, got NaN"),
    ("planted p_out > 1", _call(graphs.planted_partition, 10, 2, 0.5, 1.1, seed=0), ValueError, r"p_out must be a probability in \[0, 1\]"),
    ("planted K=1", _call(graphs.planted_partition, 10, 1, 0.5, 0.1, seed=0), ValueError, "K must lie in 2..10, got 1"),
    ("planted n float", _call(graphs.planted_partition, 10.0, 2, 0.5, 0.1, seed=0), TypeError, "n must be an integer"),
    ("random_tree_with_clusters K > n", _call(unknown_graphs.random_tree_with_clusters, 5, 6, seed=0), ValueError, "K must lie in 1..5"),
    ("digits k bool", _call(datasets.digits_knn_graph, True), TypeError, "k must be an integer, got True"),
    # graphs and labels
    ("float node labels", _call(graphs.validate_graph, _float_node_graph()), ValueError, r"vertex 0.0 \(float\); pass relabel=True"),
    ("bool node labels", _call(graphs.validate_graph, nx.Graph([(False, True)])), ValueError, r"vertex False \(bool\)"),
    ("relabel not bool", _call(graphs.validate_graph, P4, relabel="yes"), TypeError, "relabel must be True or False"),
    ("freeze not bool", _call(graphs.validate_graph, P4, freeze="yes"), TypeError, "freeze must be True or False"),
    ("directed graph", _call(trials.random_trials, nx.DiGraph([(0, 1), (1, 2)]), [0, 0, 1], 2, seed=0), ValueError, "directed.*to_undirected"),
    ("multigraph", _call(graphs.cut_size, nx.MultiGraph([(0, 1), (0, 1)]), [0, 1]), ValueError, r"multigraph.*nx.Graph\(G\)"),
    ("self-loop", _call(graphs.cut_size, nx.Graph([(0, 1), (1, 1)]), [0, 1]), ValueError, "self-loop.*remove them"),
    ("empty graph", _call(graphs.cut_size, nx.Graph(), []), ValueError, "the graph is empty"),
    ("float labels", _call(graphs.cut_size, P4, [0.0, 0.0, 1.0, 1.0]), ValueError, r"labels must be integers.*astype\(int\)"),
    ("string labels", _call(graphs.cut_size, P4, ["a", "a", "b", "b"]), ValueError, "labels must be integers.*return_inverse"),
    ("NaN label", _call(graphs.cut_size, P4, [0, 1, math.nan, 1]), ValueError, "labels must be integers"),
    ("labels too short", _call(trials.random_trials, P4, [0, 1], 3, seed=0), ValueError, r"one class per vertex \(n=4\)"),
    ("cut_size k float", _call(graphs.cut_size, P4, Y4, k=1.0), TypeError, "k must be an integer"),
    ("cut_size k negative", _call(graphs.cut_size, P4, Y4, k=-1), ValueError, "k must be at least 0"),
    ("BST cut_size k str", lambda: _bst4().cut_size(Y4, k="a"), TypeError, "k must be an integer"),
    ("similarity_label float vertex", _call(graphs.similarity_label, [0, 1], 0.0, 1), TypeError, "vertex i must be an integer"),
    ("similarity_label unknown vertex", _call(graphs.similarity_label, [0, 1], 0, 5), ValueError, "unknown vertex j 5"),
    # trials and trial generators
    ("random_trials T bool", _call(trials.random_trials, P4, Y4, True, seed=0), TypeError, "T must be an integer, got True"),
    ("cut_biased T bool", _call(adversaries.cut_biased_trials, P4, Y4, True, seed=0), TypeError, "T must be an integer, got True"),
    ("cut_biased p_cut str", _call(adversaries.cut_biased_trials, P4, Y4, 3, seed=0, p_cut="0.5"), TypeError, "p_cut must be a real number"),
    ("cut_biased p_cut NaN", _call(adversaries.cut_biased_trials, P4, Y4, 3, seed=0, p_cut=math.nan), ValueError, "p_cut must be a number, got NaN"),
    ("random_walk max_steps float", _call(trials.random_walk_trials, P4, Y4, 3, seed=0, max_steps=2.5), TypeError, "max_steps must be an integer"),
    ("random_walk_path max_steps 0", _call(trials.random_walk_path, P4, 0, 3, seed=0, max_steps=0), ValueError, "max_steps must be at least 1"),
    ("cut_crossing tries bool", _call(trials.cut_crossing_trials, P4, Y4, 3, seed=0, tries=True), TypeError, "tries must be an integer"),
    ("adaptive_run T float", _call(play.adaptive_run, UnionFindLearner(4), Y4, 1.5, seed=0), TypeError, "T must be an integer"),
    ("adaptive_run float pair", _call(play.adaptive_run, AlwaysSimilar(4), Y4, 1, seed=0, pairs=[(0, 1.0)]), TypeError, "vertex j must be an integer"),
    ("Trial bool vertex", _call(trials.Trial, True, 1, 0), TypeError, "Trial.i must be an integer, got True"),
    ("Trial path int", _call(trials.Trial, 0, 1, 0, path=5), TypeError, "Trial.path must be a sequence of vertices"),
    ("Trial path negative vertex", _call(trials.Trial, 0, 1, 0, path=[0, -1, 1]), ValueError, "Trial.path vertex must be at least 0"),
    ("Trial label 0.5", _call(trials.Trial, 0, 1, 0.5), TypeError, "similarity label must be the integer 0"),
    ("trials_from_pairs float labels", _call(trials.trials_from_pairs, [0.0, 1.0, 1.0], [(0, 1)]), ValueError, "labels must be integers"),
    # learners
    ("MatrixWinnow cut_size str", _call(MatrixWinnow, P4, cut_size="2"), TypeError, "cut_size must be a real number, got '2'"),
    ("MatrixWinnow eta 0", _call(MatrixWinnow, P4, cut_size=1, eta=0), ValueError, "eta must be > 0, got 0.0"),
    ("LowRankMatrixWinnow no cut_size", _call(LowRankMatrixWinnow, P4), ValueError, r"needs the cut size \|Phi\|"),
    ("GraphPerceptron bias bool", _call(GraphPerceptron, P4, a=True), TypeError, "the bias weight a must be a real number, got True"),
    ("GraphPerceptron bias inf", _call(GraphPerceptron, P4, a=math.inf), ValueError, "the bias weight a must be finite"),
    ("dense reference edge limit", _call(checks.check_edge_limit, 2000, "R", 1024, "use K"), ValueError, "R is a dense reference limited to m <= 1024 edges.*m=2000; use K"),
    ("check_trial_vertices unknown j", _call(checks.check_trial_vertices, [trials.Trial(0, 5, 0)], 4), ValueError, "unknown vertex j 5"),
    ("check_simple_path walk", _call(checks.check_simple_path, 0, 2, [0, 1, 0, 2], 4), ValueError, "visits vertex 0 twice, so it is a walk"),
    ("lower_bound_vertices phi negative", _call(similarity_lower_bound.lower_bound_vertices, P4, -1), ValueError, "phi must be >= 0, got -1.0"),
    ("lower_bound_vertices phi str", _call(similarity_lower_bound.lower_bound_vertices, P4, "2"), TypeError, "phi must be a real number"),
    ("theorem3_phi_bounds N 0", _call(tree_averages.theorem3_phi_bounds, 2.0, 0), ValueError, "N must be at least 1, got 0"),
    ("theorem3_phi_bounds N float", _call(tree_averages.theorem3_phi_bounds, 2.0, 1.5), TypeError, "N must be an integer, got 1.5"),
    ("RNormPerceptron path int", lambda: RNormPerceptron(5).predict_one(0, 2, path=5), TypeError, r"path must be a sequence of vertices \[i, ..., j\], got 5"),
    ("known-graph learner wrong path", lambda: AlwaysSimilar(4).predict_one(0, 3, path=[0, 1]), ValueError, "path must start at i=0 and end at j=3"),
    ("known-graph learner path str", lambda: AlwaysSimilar(4).learn_one(0, 3, 1, path="03"), TypeError, "path must be a sequence"),
    ("predict_one numpy float vertex", lambda: UnionFindLearner(3).predict_one(np.float64(0), 1), TypeError, "vertex i must be an integer"),
    ("learner n bool", _call(UnionFindLearner, True), TypeError, "n must be an integer, got True"),
    ("learner n float", _call(AlwaysSimilar, 2.0), TypeError, "n must be an integer"),
    ("learner n negative", _call(AlwaysSimilar, -3), ValueError, "n must be at least 2"),
    ("BSTPerceptron negative threshold", lambda: BSTPerceptron(_bst4(), threshold=-5), ValueError, "threshold must be at least 0, got -5"),
    ("BSTPerceptron float threshold", lambda: BSTPerceptron(_bst4(), threshold=2.5), TypeError, "threshold must be an integer"),
    ("BSTPerceptron strict str", lambda: BSTPerceptron(_bst4(), strict="no"), TypeError, "strict must be True"),
    ("TreeWinnow alpha NaN", _call(TreeWinnow, 5, alpha=math.nan), ValueError, "alpha must be a number, got NaN"),
    ("TreeWinnow alpha str", _call(TreeWinnow, 5, alpha="2"), TypeError, "alpha must be a real number"),
    ("TreeWinnow threshold inf", _call(TreeWinnow, 5, threshold=math.inf), ValueError, "threshold must be finite"),
    ("rnorm_exponent float", _call(unknown.rnorm_exponent, 2.5), TypeError, "n must be an integer"),
    ("ClassifierFromSimilarity K float", _call(ClassifierFromSimilarity, UnionFindLearner(4), 2.0), TypeError, "K must be an integer"),
    ("labelings_with_small_cut K bool", _call(classifiers.labelings_with_small_cut, P4, K=True, max_cut=1), TypeError, "K must be an integer"),
    ("reduction_constant beta NaN", _call(bounds.reduction_constant, 3, math.nan), ValueError, "beta must be a number, got NaN"),
    ("reduction_constant K=1", _call(bounds.reduction_constant, 1), ValueError, "K must be at least 2"),
    ("history_tree of an int", _call(reductions.history_tree, -1), TypeError, "history_tree takes a SimilarityFromClassifier"),
    # BST, spanning trees, resistance
    ("BST order string", _call(bst.BinarySupportTree, "012"), TypeError, "order must be a sequence of integer vertices"),
    ("BST leaf bool", lambda: _bst4().leaf(True), TypeError, "vertex must be an integer"),
    ("BST root float", _call(bst.BinarySupportTree.from_graph, P4, seed=0, root=1.0), TypeError, "root must be an integer"),
    ("wilson root bool", _call(spanning.wilson, P4, seed=0, root=True), TypeError, "root must be an integer"),
    ("sample_spanning_trees samples bool", _call(spanning.sample_spanning_trees, P4, True, seed=0), TypeError, "samples must be an integer"),
    ("effective_resistance pairs int", _call(resistance.effective_resistance, P4, pairs=5), TypeError, "pairs must be a sequence of vertex pairs"),
    ("effective_resistance bool vertex", _call(resistance.effective_resistance, P4, pairs=[(0, True)]), TypeError, r"pairs\[0\] vertex must be an integer"),
    # hardness and lower bound
    ("partition_function beta float", _call(hardness.partition_function, P4, 0.5), TypeError, "beta must be an integer"),
    ("path_partition_function observed list", _call(hardness.path_partition_function, 3, 1, observed=[0, 1]), TypeError, "observed must be a dict"),
    ("constraint_frontier m negative", _call(hardness.constraint_frontier, -1, []), ValueError, "m .* must be at least 1"),
    ("brute_force_terms n str", _call(hardness.brute_force_terms, "3"), TypeError, "n must be an integer"),
    ("paired label z string", _call(lowerbound.paired_permutation_label, "01", 0, 1), TypeError, "z must be a sequence"),
    ("paired label z float entries", _call(lowerbound.paired_permutation_label, [0.5, 1.0], 0, 1), TypeError, "permutation z must be an integer"),
    ("paired_permutation_mistake_bound beta 2", _call(bounds.paired_permutation_mistake_bound, 3, beta=2), ValueError, r"beta must lie in \(0, 1\)"),
    ("random_class_sequence T float", _call(lowerbound.random_class_sequence, (1, 2, 0), 1.5, seed=0), TypeError, "T must be an integer"),
    # games, playground, widgets
    ("PermutationAdversaryGame item float", lambda: hand_played.PermutationAdversaryGame(3).ask(0, 1.0), TypeError, "b must be an integer"),
    ("GraphAdversaryGame learner None", _call(hand_played.GraphAdversaryGame, P4, None), TypeError, "learner must be a similarity learner"),
    ("Playground learners string", _call(playground.Playground, "barbell", "AlwaysSimilar", seed=0), TypeError, "learners must be a list of learner names"),
    ("Playground option typo", _call(playground.Playground, "barbell", ["AlwaysSimilar"], "cut-biased", seed=0, adversary_options={"bais": 0.5}), TypeError, r"unknown option\(s\) \['bais'\] for the 'cut-biased' adversary; it takes \['p_cut'\]"),
    ("Playground p_cut str", _call(playground.Playground, "barbell", ["AlwaysSimilar"], "cut-biased", seed=0, adversary_options={"p_cut": "x"}), TypeError, "p_cut must be a real number"),
    ("Playground play bool", lambda: playground.Playground("barbell", ["AlwaysSimilar"], seed=0).play(True), TypeError, "k must be an integer"),
    ("Playground step float vertex", lambda: playground.Playground("barbell", ["AlwaysSimilar"], seed=0).step(pair=(0, 1.0)), TypeError, "vertex j must be an integer"),
    ("SimilarityGame layout_seed str", _call(apps.SimilarityGame, P4, Y4, UnionFindLearner(4), layout_seed="a"), TypeError, "layout_seed must be an integer"),
    ("SimilarityGame bound str", _call(apps.SimilarityGame, P4, Y4, UnionFindLearner(4), bound="3"), TypeError, "bound must be a real number"),
    ("PermutationAdversaryApp K float", _call(apps.PermutationAdversaryApp, K=1.5), TypeError, "K must be an integer, got 1.5"),
    ("MergeSortLearnerApp K=1", _call(apps.MergeSortLearnerApp, K=1), ValueError, "K must be at least 2, got 1"),
    ("PermutationAdversaryApp K=1", _call(apps.PermutationAdversaryApp, K=1), ValueError, "K must be at least 2, got 1"),
    ("graph_layout seed float", _call(figures.graph_layout, P4, seed=1.5), TypeError, "seed must be an integer"),
    ("graph_layout seed negative", _call(figures.graph_layout, P4, seed=-1), ValueError, r"seed must lie in 0..4294967295"),
    ("PlaygroundApp seed str", _call(apps.PlaygroundApp, "barbell", ["AlwaysSimilar"], seed="x"), TypeError, "seed must be an integer"),
    ("PlaygroundApp seed too large", _call(apps.PlaygroundApp, "barbell", ["AlwaysSimilar"], seed=10**7), ValueError, r"seed must lie in 0..1000000"),
    ("PlaygroundApp play_steps 0", _call(apps.PlaygroundApp, "barbell", ["AlwaysSimilar"], play_steps=0), ValueError, "play_steps must lie in 1..2000"),
    ("PlaygroundApp learners string", _call(apps.PlaygroundApp, "barbell", "AlwaysSimilar"), TypeError, "learners must be a list"),
    ("GraphAdversaryApp learner str", _call(apps.GraphAdversaryApp, P4, "x"), TypeError, "learner must be a similarity learner"),
    # sizes refused before allocating (the limit and the alternative in the message)
    ("ExactLaplacian 70x70 grid", lambda: ExactLaplacian(graphs.grid_graph(70, 70)[0]), ExactTooLargeError, r"n=4900 vertices .* 1.0e\+10 limit .*BSTPerceptron"),
    ("MatrixPerceptron 300x300 grid", lambda: MatrixPerceptron(_GRID300()), ValueError, r"resistance diameter R of a graph on n=90000 .*WORK_LIMIT.*Binary Support Tree"),
    ("MatrixWinnow 300x300 grid", lambda: MatrixWinnow(_GRID300(), cut_size=300), ValueError, r"n=90000 .*WORK_LIMIT"),
    ("random_trials T=10**9", _call(trials.random_trials, P4, Y4, 10**9, seed=0), ValueError, r"T=1000000000 trials .* needs 372.5 GiB.*play fewer trials"),
    ("evaluate T=10**9", _call(evaluation.evaluate, ["AlwaysSimilar"], P4, Y4, T=10**9), ValueError, r"T=1000000000 trials"),
    ("evaluate time_limit=0", _call(evaluation.evaluate, ["AlwaysSimilar"], P4, Y4, T=5, time_limit=0), ValueError, r"time_limit .*seconds one learner may take"),
    ("sweep progress not bool", _call(evaluation.evaluate_sweep, ["AlwaysSimilar"], {"p": (P4, Y4)}, [0], T=5, progress="yes"), TypeError, "progress must be True or False"),
    ("Playground play 10**9", lambda: playground.Playground("barbell", ["AlwaysSimilar"], seed=0).play(10**9), ValueError, r"k=1000000000 trials"),
    ("grid_graph 10**5 x 10**5", _call(graphs.grid_graph, 10**5, 10**5), ValueError, r"grid_graph\(100000, 100000\) .*GiB.*smaller grid"),
    ("planted_partition 10**6", _call(graphs.planted_partition, 10**6, 2, 0.01, 0.001, seed=0), ValueError, r"n\(n-1\)/2 pair draws .*WORK_LIMIT.*stochastic_block_model"),
    ("planted_partition dense 10**5", _call(graphs.planted_partition, 10**5, 2, 0.5, 0.1, seed=0), ValueError, r"networkx graph, n=1e\+05 .*MEMORY_LIMIT"),
    ("knn_graph 10**6 rows", lambda: datasets.knn_graph(np.zeros((10**6, 2)), 10), ValueError, r"knn_graph on n=1000000 rows .*subsample"),
    ("TreeWinnow 10**9", _call(TreeWinnow, 10**9), ValueError, r"n=1000000000 vertices .*GiB"),
    ("UnionFindLearner 10**9", _call(UnionFindLearner, 10**9), ValueError, r"UnionFindLearner\(1000000000\): .*GiB"),
    ("barbell_graph huge cliques", _call(graphs.barbell_graph, 10**4), ValueError, r"barbell_graph\(10000, 0\) .*m=1e\+08 edges.*smaller cliques"),
    ("sample_spanning_trees 10**9", _call(spanning.sample_spanning_trees, P4, 10**9, seed=0), ValueError, r"1000000000 x 4 int64 array .*fewer samples"),
    ("random_permutation 10**9", _call(lowerbound.random_permutation, 10**9, seed=0), ValueError, r"random_permutation\(1000000000\).*smaller K"),
    ("random_tree_with_clusters 10**8", _call(unknown_graphs.random_tree_with_clusters, 10**8, 2, seed=0), ValueError, r"complete graph K_n .*smaller n"),
    # silently accepted before
    ("GraphPerceptron kernel of another graph", lambda: GraphPerceptron(nx.cycle_graph(6), kernel=GraphKernel(nx.path_graph(6))), ValueError, r"kernel was built on another graph .*GraphKernel\(G\)"),
    ("from_networkx largest_component str", lambda: datasets.LabelledGraph.from_networkx(nx.karate_club_graph(), "club", largest_component="no"), TypeError, "largest_component must be True or False, got 'no'"),
    ("LabelledGraph original(-1)", lambda: datasets.LabelledGraph.from_networkx(nx.karate_club_graph(), "club").original(-1), ValueError, r"unknown vertex v -1: the graph's vertices are 0..33"),
    ("LabelledGraph original(2.0)", lambda: datasets.LabelledGraph.from_networkx(nx.karate_club_graph(), "club").original(2.0), TypeError, "vertex v must be an integer"),
    ("knn_graph complex features", lambda: datasets.knn_graph(np.arange(4.0)[:, None] * 1j, 1), TypeError, r"X must be real, got complex .*X.real"),
    ("knn_graph huge features", lambda: datasets.knn_graph(np.array([[1e308], [-1e308], [0.0]]), 1), ValueError, r"beyond 1e150.*rescale the features"),
    ("knn_graph inf feature", lambda: datasets.knn_graph(np.array([[0.0], [np.inf], [1.0]]), 1), ValueError, r"NaN or infinite values \(first in row 1\)"),
    ("knn_graph k float", lambda: datasets.knn_graph(np.arange(4.0)[:, None], 1.0), TypeError, "k must be an integer, got 1.0"),
    ("knn_graph NaN labels", lambda: datasets.knn_graph(np.arange(4.0)[:, None], 1, labels=[0, math.nan, 1, math.nan]), ValueError, r"missing \(None or NaN\) at 2 of 4 positions: \[1, 3\]"),
    ("knn_graph None label", lambda: datasets.knn_graph(np.arange(3.0)[:, None], 1, labels=["a", None, "b"]), ValueError, r"missing \(None or NaN\) at 1 of 3 positions: \[1\]"),
    ("from_networkx NaN label", lambda: datasets.LabelledGraph.from_networkx(_nan_labelled_path(), "c"), ValueError, r"attribute 'c' are missing \(None or NaN\) at 2 of 4 positions: \['v2', 'v3'\]"),
    ("TreeWinnow subnormal threshold", _call(TreeWinnow, 3, alpha=2.0, threshold=5e-324), ValueError, r"threshold must lie in \[9.33.*e-302, 1.07.*e\+301\], got 5e-324"),
    ("TreeWinnow huge alpha", _call(TreeWinnow, 3, alpha=1e300), ValueError, r"alpha must lie in \(1, 1.8.*e\+19\]"),
    ("MatrixWinnow one class", lambda: evaluation.evaluate(["Matrix Winnow"], P4, [0, 0, 0, 0], T=5), ValueError, r"one class .*no cut edge"),
    # evaluate_sweep
    ("sweep duplicate graph names", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], [datasets.LabelledGraph(P4, Y4, (0, 1, 2, 3), ("a", "b")), datasets.LabelledGraph(nx.cycle_graph(4), Y4, (0, 1, 2, 3), ("a", "b"))], seeds=[0], T=5), ValueError, r"graph name\(s\) \['unnamed graph'\] appear twice.*different name"),
    ("sweep duplicate seeds", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], {"p": (P4, Y4)}, seeds=[0, 0], T=5), ValueError, r"seed\(s\) \[0\] appear twice"),
    ("sweep seeds int", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], {"p": (P4, Y4)}, seeds=3, T=5), TypeError, "seeds must be a list"),
    ("sweep last_block negative", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], {"p": (P4, Y4)}, seeds=[0], T=5, last_block=-5), ValueError, "last_block .* must be at least 1, got -5"),
    ("sweep last_block str", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], {"p": (P4, Y4)}, seeds=[0], T=5, last_block="x"), TypeError, "last_block .* must be an integer, got 'x'"),
    ("sweep last_block float", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], {"p": (P4, Y4)}, seeds=[0], T=5, last_block=2.5), TypeError, "last_block .* must be an integer, got 2.5"),
    ("sweep n_jobs 0", lambda: evaluation.evaluate_sweep(["UnionFindLearner"], {"p": (P4, Y4)}, seeds=[0], T=5, n_jobs=0), ValueError, "n_jobs must be a positive number of workers or -1"),
    ("evaluate last_block bool", _call(evaluation.evaluate, ["AlwaysSimilar"], P4, Y4, T=5, last_block=True), TypeError, "last_block .* must be an integer, got True"),
    # widgets: a clear sentence instead of clamping or traitlets' "value not found"
    ("PlaygroundApp seed box too large", lambda: setattr(apps.PlaygroundApp("barbell", ["AlwaysSimilar"]).seed, "value", 99999999999), ValueError, r"seed must lie in 0..1000000, got 99999999999; the box keeps 0"),
    ("PlaygroundApp steps box 0", lambda: setattr(apps.PlaygroundApp("barbell", ["AlwaysSimilar"]).play_steps, "value", 0), ValueError, r"steps must lie in 1..2000, got 0"),
    ("PlaygroundApp graph unknown", lambda: setattr(apps.PlaygroundApp("barbell", ["AlwaysSimilar"]).graph, "value", "nope"), ValueError, r"graph must be one of \['planted partition', .*got 'nope'"),
    ("PlaygroundApp vertex out of range", lambda: setattr(apps.PlaygroundApp("barbell", ["AlwaysSimilar"], "student", seed=0).i, "value", 99), ValueError, r"^vertex i must be a vertex number 0\.\.17, got 99; the choice stays 0$"),
    ("SimilarityGame vertex out of range", lambda: setattr(apps.SimilarityGame(P4, Y4, UnionFindLearner(4)).i, "value", 7), ValueError, r"vertex i must be a vertex number 0\.\.3, got 7; the choice stays 0"),
]


def _GRID300():
    return graphs.grid_graph(300, 300)[0]


def _nan_labelled_path():
    G = nx.relabel_nodes(nx.path_graph(4), {v: f"v{v}" for v in range(4)})
    nx.set_node_attributes(G, {"v0": "a", "v1": "b", "v2": math.nan, "v3": None}, "c")
    return G


@pytest.mark.parametrize("name, call, error, match", BAD_INPUTS, ids=[row[0] for row in BAD_INPUTS])
def test_bad_input_is_refused_with_a_clear_message(name, call, error, match):
    with pytest.raises(error, match=match) as info:
        call()
    # not a subclass such as numpy's AxisError; a size or time guard's refusal is a ValueError that
    # also says "a learner gave up" (so the playground and evaluate retire a learner that meets it)
    limits = (MemoryLimitError, WorkLimitError)
    assert type(info.value) is error or (error is ValueError and type(info.value) in limits)


def test_absent_class_gives_an_empty_cut_by_design():
    # documented: a class no vertex has is a legitimate empty class, not an error, so that
    # sum(cut_size(G, y, k) for k in range(K)) works when some class of K is unused
    assert graphs.cut_size(P4, Y4, k=5) == 0 and graphs.cut_edges(P4, Y4, k=5) == []
    assert sum(graphs.cut_size(P4, Y4, k) for k in range(3)) == 2 * graphs.cut_size(P4, Y4)


def test_evaluate_retires_a_learner_its_size_guard_refuses_and_says_why():
    """In evaluate a guard's refusal (a LearnerGaveUp) retires that learner at its construction,
    with the limit and the alternative in the reason, instead of ending the whole comparison."""
    G, y = graphs.grid_graph(300, 300)
    ev = evaluation.evaluate(["Matrix Perceptron", "UnionFindLearner"], G, y, T=10)
    mp = ev["Matrix Perceptron"]
    assert mp.played == 0
    assert mp.retired.startswith("retired before trial 1 of 10: its construction raised WorkLimitError")
    assert "n=90000" in mp.retired and "BSTPerceptron" in mp.retired, "the limit and the way out are stated"
    assert ev["UnionFindLearner"].played == 10 and ev["UnionFindLearner"].retired is None
