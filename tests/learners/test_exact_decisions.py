"""Decisions do not depend on floating-point rounding: exact references and perturbed floats.

Two kinds of evidence, on small *symmetric* graphs where exact ties are frequent:

* the fast learners agree, prediction by prediction, with references computed in exact
  rational arithmetic (no float anywhere in the reference);
* perturbing every float a decision is computed from by a relative ``1e-12`` (what another
  BLAS kernel could do) changes no prediction.

The matrix learners (Matrix Perceptron, Matrix Winnow) are covered the same way in
``tests/test_matrix_learners.py``; ``test_every_learner_is_accounted_for`` keeps the table of
which learner decides how complete.
"""

import inspect
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simpred_lite.learners as learners
import simpred_lite.learners.unknown as unknown
from simpred_lite.exact import ExactLaplacian, certified_compare, laplacian_pinv_fraction, pinv_error_bound
from simpred_lite.game.play import adaptive_class_run, adaptive_run, run
from simpred_lite.game.trials import Trial, random_trials
from simpred_lite.learners import (
    GraphKernel,
    GraphPerceptron,
    GraphPerceptronReference,
    OneVsRest,
    RNormPerceptron,
    SimilarityFromClassifier,
    TreeWinnow,
)
from simpred_lite.resistance import laplacian_pinv


def _relabelled(G):
    return nx.convert_node_labels_to_integers(G, ordering="sorted")


SYMMETRIC = {
    "cycle6": nx.cycle_graph(6),
    "cycle8": nx.cycle_graph(8),
    "grid3x3": _relabelled(nx.grid_2d_graph(3, 3)),
    "petersen": nx.petersen_graph(),
    "K33": nx.complete_bipartite_graph(3, 3),
    "cube": _relabelled(nx.hypercube_graph(3)),
    "wheel7": nx.wheel_graph(7),
}


def _perturbed_pinv(G, seed, rel=1e-12):
    """``L^+`` with every entry moved by a relative ``rel`` (kept symmetric)."""
    Lp = laplacian_pinv(G)
    noise = np.random.default_rng(seed).uniform(-rel, rel, size=Lp.shape)
    noise = (noise + noise.T) / 2
    return Lp * (1 + noise)


# -- the exact machinery itself ------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_exact_potentials_solve_the_laplacian_exactly(name):
    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    b = np.zeros(n, dtype=np.int64)
    b[0], b[n - 1] = 3, -2
    phi = ExactLaplacian(G).potentials(b)
    assert sum(phi) == 0
    mean = Fraction(int(b.sum()), n)
    for v in range(n):  # L phi = b - mean(b), checked in exact arithmetic
        assert G.degree(v) * phi[v] - sum(phi[w] for w in G.neighbors(v)) == b[v] - mean


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_exact_laplacian_agrees_with_plain_gauss_jordan(name):
    """Two independent exact computations of L^+: FLINT's solves and Fraction Gauss-Jordan."""
    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    P = laplacian_pinv_fraction(G)
    assert all(isinstance(v, Fraction) for row in P for v in row)
    assert all(P[a][b] == P[b][a] for a in range(n) for b in range(n))
    exact = ExactLaplacian(G)
    for v in range(n):  # column v of L^+ = L^+ e_v (both sum to zero, so no constant differs)
        e = np.zeros(n, dtype=np.int64)
        e[v] = 1
        assert exact.potentials(e) == [P[u][v] for u in range(n)]
    assert exact.resistance(0, n - 1) == P[0][0] + P[n - 1][n - 1] - 2 * P[0][n - 1]


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_pinv_error_bound_covers_the_true_error(name):
    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    Lp = laplacian_pinv(G)
    exact = ExactLaplacian(G)
    worst = 0.0
    for v in range(n):
        e = np.zeros(n, dtype=np.int64)
        e[v] = 1
        col = exact.potentials(e)
        worst = max(worst, max(abs(Fraction(float(Lp[w, v])) - col[w]) for w in range(n)))
    bound = pinv_error_bound(G, Lp)
    assert float(worst) <= bound < 1e-10
    # a visibly wrong pseudoinverse gets a large bound, not a small one
    assert pinv_error_bound(G, Lp * (1 + 1e-6)) > 1e-8


def test_certified_compare_only_answers_outside_the_error_band():
    assert certified_compare(1.0, 0.0, 0.5) == 1
    assert certified_compare(-1.0, 0.0, 0.5) == 0
    assert certified_compare(0.4, 0.0, 0.5) is None
    assert certified_compare(0.0, 0.0, 0.0) is None  # an exact tie is never decided by a float


# -- the graph Perceptron ------------------------------------------------------------------------
def test_cycle6_tie_is_decided_exactly():
    """The smallest case where the float score's sign depended on the BLAS kernel."""
    clf = GraphPerceptron(nx.cycle_graph(6))
    clf.learn_class(2, 1)
    clf.learn_class(4, 0)
    assert clf.predict_class(3) == 0  # exact score 0: not "> 0"
    assert clf.exact_decisions == 1
    ref = GraphPerceptronReference(nx.cycle_graph(6))
    ref.learn_class(2, 1)
    ref.learn_class(4, 0)
    assert ref.score(3) == 0 and ref.predict_class(3) == 0
    for seed in range(20):  # the same answer from any perturbed float kernel
        kernel = GraphKernel(nx.cycle_graph(6), pinv=_perturbed_pinv(nx.cycle_graph(6), seed))
        clf = GraphPerceptron(nx.cycle_graph(6), kernel=kernel)
        clf.learn_class(2, 1)
        clf.learn_class(4, 0)
        assert clf.predict_class(3) == 0


def _class_sequence(G, seed, T):
    rng = np.random.default_rng(seed)
    n = G.number_of_nodes()
    return rng.integers(2, size=n), rng.integers(n, size=T).tolist()


@given(name=st.sampled_from(sorted(SYMMETRIC)), seed=st.integers(0, 10**6), a=st.sampled_from([0.5, 1.0, 2.0]))
def test_perceptron_equals_exact_reference_on_symmetric_graphs(name, seed, a):
    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    labels, xs = _class_sequence(G, seed, 4 * n)
    fast, ref = GraphPerceptron(G, a), GraphPerceptronReference(G, a)
    for x in xs:
        assert [fast.predict_class(v) for v in range(n)] == [ref.predict_class(v) for v in range(n)]
        fast.learn_class(x, int(labels[x]))
        ref.learn_class(x, int(labels[x]))
    assert fast.mistakes == ref.mistakes


@given(name=st.sampled_from(sorted(SYMMETRIC)), seed=st.integers(0, 10**6))
def test_perceptron_equals_exact_reference_on_adversarial_sequences(name, seed):
    G = SYMMETRIC[name]
    labels = np.random.default_rng(seed).integers(2, size=G.number_of_nodes())
    fast_run = adaptive_class_run(GraphPerceptron(G), labels, 3 * G.number_of_nodes(), seed=seed)
    ref_run = adaptive_class_run(GraphPerceptronReference(G), labels, 3 * G.number_of_nodes(), seed=seed)
    assert fast_run[0] == ref_run[0]
    assert fast_run[1].tolist() == ref_run[1].tolist()


def test_symmetric_graphs_really_produce_exact_ties():
    """Without ties the tests above would prove nothing: count the exact decisions."""
    ties = 0
    for _name, G in SYMMETRIC.items():
        for seed in range(5):
            labels, xs = _class_sequence(G, seed, 4 * G.number_of_nodes())
            clf = GraphPerceptron(G)
            for x in xs:
                for v in range(G.number_of_nodes()):
                    clf.predict_class(v)
                clf.learn_class(x, int(labels[x]))
            ties += clf.exact_decisions
    assert ties > 100


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_perceptron_predictions_survive_perturbed_kernels(name):
    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    flips_of_a_plain_float_rule = 0
    for seed in range(6):
        labels, xs = _class_sequence(G, seed, 5 * n)
        base = GraphPerceptron(G)
        moved = GraphPerceptron(G, kernel=GraphKernel(G, pinv=_perturbed_pinv(G, seed + 100)))
        for x in xs:
            assert [base.predict_class(v) for v in range(n)] == [moved.predict_class(v) for v in range(n)]
            plain = [int(s > 0) for s in moved._scores]  # the old rule: the sign of a float
            flips_of_a_plain_float_rule += plain != [base.predict_class(v) for v in range(n)]
            base.learn_class(x, int(labels[x]))
            moved.learn_class(x, int(labels[x]))
        assert base.mistakes == moved.mistakes
        # adaptive: the adversary poses what the learner gets wrong, so the whole sequence
        # depends on every decision
        run_a = adaptive_class_run(GraphPerceptron(G), labels, 4 * n, seed=seed)
        run_b = adaptive_class_run(
            GraphPerceptron(G, kernel=GraphKernel(G, pinv=_perturbed_pinv(G, seed + 200))), labels, 4 * n, seed=seed
        )
        assert run_a[0] == run_b[0] and run_a[1].tolist() == run_b[1].tolist()
    if name in ("cycle6", "cube", "K33"):  # the perturbation is strong enough to fool floats
        assert flips_of_a_plain_float_rule > 0


@pytest.mark.filterwarnings("ignore::simpred_lite.learners.PrunedPoolWarning")
def test_similarity_from_class_is_independent_of_kernel_rounding():
    """The reduction of Lemma 7 on one-vs-rest graph Perceptrons (the 04 notebook's sim8)."""
    G = _relabelled(nx.grid_2d_graph(3, 3))
    labels = np.array([0, 0, 1, 0, 0, 1, 2, 2, 1])
    trials = random_trials(G, labels, 40, seed=4)

    def learner(pinv):
        kernel = GraphKernel(G, pinv=pinv)
        return SimilarityFromClassifier(
            lambda: OneVsRest(lambda: GraphPerceptron(G, kernel=kernel), K=3), 3, max_histories=400, prune=True
        )

    a, b = learner(laplacian_pinv(G)), learner(_perturbed_pinv(G, 7))
    ra, rb = run(a, trials), run(b, trials)
    assert ra.predictions.tolist() == rb.predictions.tolist()
    assert a.pool_sizes == b.pool_sizes


# -- Winnow on the path forest ----------------------------------------------------------------
class _ExactTreeWinnow(TreeWinnow):
    """TreeWinnow with every weight a Fraction: the plain exact reference."""

    def __init__(self, n, alpha=2.0, threshold=None):
        super().__init__(n, alpha, threshold)
        self._w = [Fraction(1)] * (self.n - 1)

    def _decide(self, idx, sgn):
        return int(sum((self._w[e] for e in idx), Fraction(0)) >= Fraction(self.threshold))

    def _update(self, idx, sgn, direction):
        a = Fraction(self.alpha)
        for e in idx:
            self._w[e] = self._w[e] * a if direction > 0 else self._w[e] / a


class _NoisyTreeWinnow(TreeWinnow):
    """TreeWinnow whose float weights are nudged by a relative 1e-12 after every update."""

    def __init__(self, n, alpha=2.0, threshold=None, seed=0):
        super().__init__(n, alpha, threshold)
        self._rng = np.random.default_rng(seed)

    def _update(self, idx, sgn, direction):
        super()._update(idx, sgn, direction)
        self.weights[idx] *= 1 + self._rng.uniform(-1e-12, 1e-12, size=len(idx))
        self._roundings[idx] += 1 << 14  # the nudge (1e-12 < 2^14 u) is accounted as 16384 roundings


def _path_trials(G, labels, T, seed):
    from simpred_lite.game.trials import random_walk_path

    rng = np.random.default_rng(seed)
    out = []
    for t in random_trials(G, labels, T, seed=rng):
        out.append((t.i, t.j, t.y, random_walk_path(G, t.i, t.j, seed=rng)))
    return out


@pytest.mark.parametrize("alpha", [2.0, 1.5, 3.0])
@pytest.mark.parametrize("name", ["cycle8", "grid3x3", "petersen"])
def test_tree_winnow_equals_exact_reference_and_survives_noise(name, alpha):
    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    labels = np.arange(n) % 2
    for seed in range(3):
        learners_ = [TreeWinnow(n, alpha), _ExactTreeWinnow(n, alpha), _NoisyTreeWinnow(n, alpha, seed=seed)]
        for i, j, y, path in _path_trials(G, labels, 150, seed):
            preds = [lr.predict_one(i, j, path=path) for lr in learners_]
            assert preds[0] == preds[1] == preds[2]
            for lr in learners_:
                lr.learn_one(i, j, y, path=path)


def test_tree_winnow_decides_a_tie_below_the_float_resolution_exactly():
    """A sum a hair below the threshold, which a float sum would round up to it."""
    lr = TreeWinnow(4, alpha=2.0, threshold=3.0)
    lr.exponents[:] = [0, 1, -60]  # weights 1, 2, 2^-60: the exact sum 3 + 2^-60 >= 3
    lr.weights[:] = [1.0, 2.0, 2.0**-60]
    lr._roundings[:] = 0
    assert lr._decide([0, 1, 2], None) == 1
    lr.threshold = 3.0 + 2.0**-51  # exact sum is below it; the float sum 3.0 is too
    assert lr._decide([0, 1, 2], None) == 0


# -- the r-norm Perceptron ----------------------------------------------------------------------
def test_rnorm_decisions_survive_perturbed_margins(monkeypatch):
    """Its rule compares irrational quantities (r = 4 ln(n-1)); no decision lies within 1e-12."""
    G = SYMMETRIC["grid3x3"]
    n = G.number_of_nodes()
    labels = np.array([0, 0, 1, 0, 0, 1, 2, 2, 1])
    runs = {}
    gaps = []
    original = unknown.rnorm_margin
    for noise in (0.0, 1e-12, -1e-12):
        def margin(entries, hist, r, scaled=None, _noise=noise):
            value = original(entries, hist, r, scaled)
            if _noise == 0.0 and hist:
                ell = round(sum(c for t, c in entries.items()) ** 0.5) if entries else 0
                gaps.append((value, ell, r))
            return value * (1 + _noise)

        monkeypatch.setattr(unknown, "rnorm_margin", margin)
        lr = RNormPerceptron(n)
        preds = []
        for i, j, y, path in _path_trials(G, labels, 400, seed=3):
            preds.append(lr.predict_one(i, j, path=path))
            lr.learn_one(i, j, y, path=path)
        runs[noise] = (preds, lr.mistakes)
    assert runs[0.0] == runs[1e-12] == runs[-1e-12]
    assert runs[0.0][1] > 5  # the learner really made decisions that mattered
    monkeypatch.setattr(unknown, "rnorm_margin", original)


# -- coverage: every learner is accounted for -------------------------------------------------
HOW_EACH_LEARNER_DECIDES = {
    "AlwaysSimilar": "constant",
    "UnionFindLearner": "integers (union-find)",
    "TransitiveOrderLearner": "integers (reachability in the order graph, union-find)",
    "HalvingPermutationLearner": "integer vote counts over permutations",
    "PairedPermutationClassLearner": "exact Fraction weights (test_lowerbound.py)",
    "PairedPermutationClassLearnerReference": "exact Fraction weights (test_lowerbound.py)",
    "IteratedClassLearner": "its copies' exact Fraction weights",
    "HalvingClassifier": "integer vote counts",
    "MemorizingClassifier": "a lookup",
    "GraphPerceptron": "certified float + exact rational fallback (tested here)",
    "GraphPerceptronReference": "exact rationals",
    "OneVsRest": "its binary learners' decisions (tested here with GraphPerceptron)",
    "ClassifierFromSimilarity": "its similarity learner's decisions",
    "SimilarityFromClassifier": "Fraction weights, exact (tested here)",
    "TreeWinnow": "certified float + exact rational fallback (tested here)",
    "RNormPerceptron": "irrational comparison, tie-safe (tested here)",
    "RNormPerceptronReference": "the same integers and rule as RNormPerceptron",
    "BSTPerceptron": "integers (signed path overlaps)",
    "MatrixPerceptron": "integers on trees; certified float + exact fallback on graphs (test_matrix_learners)",
    "MatrixWinnow": "transcendental comparison, tie-safe (test_matrix_learners)",
    "MatrixPerceptronReference": "integers on trees and BSTs; a float with a 1e-9 tie band on other graphs "
                                 "(compared off ties in test_matrix.py)",
    "LowRankMatrixWinnow": "the same tie-safe comparison as MatrixWinnow (lock-step tests in test_matrix.py)",
    "MatrixWinnowReference": "the paper's float expm, exact off ties (lock-step tests in test_matrix.py)",
}


def test_every_learner_is_accounted_for():
    found = {
        name
        for name in learners.__all__
        if inspect.isclass(getattr(learners, name))
        and issubclass(getattr(learners, name), (learners.SimilarityLearner, learners.ClassLearner))
        and not inspect.isabstract(getattr(learners, name))
    }
    missing = found - set(HOW_EACH_LEARNER_DECIDES)
    assert not missing, f"say how these learners decide, and test it: {sorted(missing)}"


@pytest.mark.filterwarnings("ignore::simpred_lite.learners.PrunedPoolWarning")
def test_adaptive_similarity_runs_are_reproducible_under_perturbation():
    """A whole adaptive game (the adversary reads the learner) on the 3x3 grid."""
    G = SYMMETRIC["grid3x3"]
    labels = np.array([0, 0, 1, 0, 0, 1, 2, 2, 1])

    def learner(pinv):
        kernel = GraphKernel(G, pinv=pinv)
        return SimilarityFromClassifier(
            lambda: OneVsRest(lambda: GraphPerceptron(G, kernel=kernel), K=3), 3, max_histories=400, prune=True
        )

    ta, ra = adaptive_run(learner(laplacian_pinv(G)), labels, 30, seed=2)
    tb, rb = adaptive_run(learner(_perturbed_pinv(G, 9)), labels, 30, seed=2)
    assert [(t.i, t.j) for t in ta] == [(t.i, t.j) for t in tb]
    assert ra.predictions.tolist() == rb.predictions.tolist()


# -- exact arithmetic refuses what it cannot do, before FLINT allocates --------------------------
def test_exact_laplacian_refuses_large_graphs_before_allocating():
    from simpred_lite.exact import ExactTooLargeError, exact_solve_cost
    from simpred_lite.graphs import grid_graph

    steps, n_bytes = exact_solve_cost(grid_graph(300, 300)[0])
    assert steps > 1e14 and n_bytes > 100 * 2**30  # what made FLINT abort the interpreter
    for rows in (70, 300):
        with pytest.raises(ExactTooLargeError, match=f"n={rows * rows} vertices .*limit"):
            ExactLaplacian(grid_graph(rows, rows)[0])
    assert issubclass(ExactTooLargeError, RuntimeError)  # the playground retires a learner on it
    ExactLaplacian(grid_graph(20, 20)[0]).resistance(0, 399)  # small graphs are unaffected


def test_learners_that_need_an_exact_tie_stop_with_a_clear_error(monkeypatch):
    from simpred_lite import checks
    from simpred_lite.exact import ExactTooLargeError
    from simpred_lite.game.evaluation import evaluate

    monkeypatch.setattr(checks, "WORK_LIMIT", 10)  # stands in for a graph too large for FLINT
    C4 = learners.MatrixPerceptron(nx.cycle_graph(4))
    C4.learn_one(0, 2, 1)
    with pytest.raises(ExactTooLargeError, match="exact potentials .*n=4 vertices .*limit"):
        C4.predict_one(0, 2)  # score == R^2 exactly: only exact arithmetic decides
    clf = learners.GraphPerceptron(nx.cycle_graph(6))
    clf.learn_class(2, 1)
    clf.learn_class(4, 0)
    with pytest.raises(ExactTooLargeError, match="n=6 vertices"):
        clf.predict_class(3)  # score exactly 0
    # evaluate retires the learner with that reason and plays on with the others
    trials = [Trial(0, 2, 1), Trial(0, 2, 1), Trial(1, 3, 1)]
    ev = evaluate(["Matrix Perceptron", "UnionFindLearner"], nx.cycle_graph(4), [0, 0, 1, 1], trials=trials)
    assert ev["Matrix Perceptron"].retired.startswith("retired at trial 2 of 3: ExactTooLargeError")
    assert len(ev["UnionFindLearner"].run) == 3


def test_tree_winnow_decides_exactly_when_weights_underflow():
    # the extreme end of the allowed range: weights become subnormal floats, the decision is
    # then taken in exact rationals and agrees with them
    learner = unknown.TreeWinnow(3, alpha=2.0**64, threshold=2.0**-1000)
    a, theta = Fraction(2**64), Fraction(2) ** -1000
    for _ in range(20):
        learner.learn_one(0, 2, 0, path=[0, 1, 2])
        exact = sum(a ** int(k) for k in learner.exponents) >= theta
        assert learner.predict_one(0, 2, path=[0, 1, 2]) == int(exact)
    assert learner.weights.min() < np.finfo(float).tiny  # really left the normal floats


# -- one exact decision, cheaply: LaplacianFunctional ------------------------------------------
def _sign(x):
    return (x > 0) - (x < 0)


@st.composite
def connected_graph_and_vectors(draw, max_n=11):
    n = draw(st.integers(2, max_n))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for v in range(1, n):  # a random tree, then random extra edges
        G.add_edge(v, draw(st.integers(0, v - 1)))
    for u, v in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n)):
        if u != v:
            G.add_edge(u, v)
    vec = st.lists(st.integers(-3, 3), min_size=n, max_size=n)
    return G, draw(vec), draw(vec)


@given(connected_graph_and_vectors(), st.integers(1, 300), st.fractions(-3, 3))
def test_functional_sign_equals_the_fraction_reference(Gwb, k, t):
    from simpred_lite.exact import LaplacianFunctional
    from simpred_lite.exact import laplacian_pinv_fraction as exact_pinv

    G, w, b = Gwb
    Lp = exact_pinv(G)
    value = sum(w[u] * Lp[u][v] * b[v] for u in range(len(w)) for v in range(len(b)))
    F = LaplacianFunctional(G)
    assert F.compare(w, b, value) == 0  # the exact tie
    eps = Fraction(1, 2**k)  # near ties on both sides, down to 2^-300
    assert F.compare(w, b, value - eps) == 1 and F.compare(w, b, value + eps) == -1
    assert F.compare(w, b, t) == _sign(value - t)
    assert F.compare(w, b, float(t)) == _sign(value - Fraction(float(t)))  # a float is its binary fraction


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_functional_ties_on_symmetric_graphs_match_flint(name):
    from simpred_lite.exact import LaplacianFunctional

    G = SYMMETRIC[name]
    n = G.number_of_nodes()
    b = np.zeros(n, dtype=np.int64)
    b[0], b[n - 1] = 2, -1
    phi = ExactLaplacian(G).potentials(b)  # FLINT
    F = LaplacianFunctional(G)
    for v in range(n):
        e = np.eye(n, dtype=np.int64)[v]
        assert F.compare(e, b, phi[v]) == 0
        assert F.compare(e, b, phi[v] + Fraction(1, 2**200)) == -1
        assert F.compare(e, b, phi[v] - Fraction(1, 2**200)) == 1
        for u in range(n):  # differences of potentials: many exact zeros
            assert F.compare(e - np.eye(n, dtype=np.int64)[u], b) == _sign(phi[v] - phi[u])


@pytest.mark.parametrize(("G", "source"), [(nx.cycle_graph(300), 1), (_relabelled(nx.grid_2d_graph(15, 15)), 0)],
                         ids=["cycle300", "grid15"])
def test_functional_ties_on_larger_graphs_are_proved_by_lifting(G, source):
    from simpred_lite.exact import LaplacianFunctional

    n = G.number_of_nodes()
    b = np.zeros(n, dtype=np.int64)
    b[source], b[n - 1] = 1, -1  # symmetric about vertex 0 (cycle) or the centre (grid)
    phi = ExactLaplacian(G).potentials(b)
    F = LaplacianFunctional(G)
    mid = next(v for v in range(n) if phi[v] == 0)  # the vertex midway carries potential exactly 0
    e = np.eye(n, dtype=np.int64)[mid]
    assert F.compare(e, b) == 0 and F.last_stage in ("tie", "exact")
    far = int(np.argmax([float(p) for p in phi]))
    assert F.compare(np.eye(n, dtype=np.int64)[far], b, phi[far]) == 0
    assert F.compare(np.eye(n, dtype=np.int64)[far], b, phi[far] * (1 - Fraction(1, 10**40))) == 1


class _NoisySolve:
    """A factorization whose solves are off by a relative ``rel`` (or return zeros)."""

    def __init__(self, lu, rel, seed):
        self.lu, self.rel, self.rng = lu, rel, np.random.default_rng(seed)

    def solve(self, r):
        if self.rel is None:
            return np.zeros_like(r)
        y = self.lu.solve(r)
        return y * (1 + self.rng.uniform(-self.rel, self.rel, size=y.shape))


@pytest.mark.parametrize("rel", [1e-12, 1e-6, None], ids=["1e-12", "1e-6", "useless"])
def test_functional_sign_does_not_depend_on_the_float_solves(rel):
    # correctness rests on the exact integer residuals only: inaccurate solves cost steps, and
    # solves that gain nothing hand the decision to the rational solver
    from simpred_lite.exact import LaplacianFunctional
    from simpred_lite.exact import laplacian_pinv_fraction as exact_pinv

    G = SYMMETRIC["petersen"]
    n = G.number_of_nodes()
    Lp = exact_pinv(G)
    F = LaplacianFunctional(G)
    F._lu = _NoisySolve(F._factor(), rel, seed=3)
    rng = np.random.default_rng(5)
    for _ in range(10):
        w, b = rng.integers(-2, 3, size=n), rng.integers(-2, 3, size=n)
        value = sum(int(w[u]) * Lp[u][v] * int(b[v]) for u in range(n) for v in range(n))
        for t in (value, value + Fraction(1, 2**60), value - Fraction(1, 2**60), Fraction(0)):
            assert F.compare(w, b, t) == _sign(value - t)
    if rel is None:
        assert F.last_stage in ("rational", "zero")


def test_functional_checks_memory_and_work_first(monkeypatch):
    from simpred_lite import checks
    from simpred_lite.exact import ExactTooLargeError, LaplacianFunctional

    G = nx.cycle_graph(50)
    monkeypatch.setattr(checks, "MEMORY_LIMIT", 100)
    with pytest.raises(ExactTooLargeError, match="n=50 vertices .*limit"):
        LaplacianFunctional(G)
    monkeypatch.undo()
    F = LaplacianFunctional(G)
    monkeypatch.setattr(checks, "WORK_LIMIT", 1000)
    with pytest.raises(ExactTooLargeError, match="numeric lifting on a graph on n=50 vertices"):
        F.compare(np.eye(50, dtype=np.int64)[0], np.eye(50, dtype=np.int64)[1])
    assert F._lu is None  # refused before the factorization


def test_functional_bad_input():
    from simpred_lite.exact import LaplacianFunctional

    F = LaplacianFunctional(nx.path_graph(3))
    with pytest.raises(ValueError, match="w must have one integer entry per vertex"):
        F.compare([1, 0], [1, 0, -1])
    with pytest.raises(TypeError, match="b must hold integers"):
        F.compare([1, 0, 0], [0.5, 0, -0.5])
    with pytest.raises(ValueError, match="threshold must be finite"):
        F.compare([1, 0, 0], [1, 0, -1], float("nan"))
    with pytest.raises(TypeError, match="threshold must be a number"):
        F.compare([1, 0, 0], [1, 0, -1], "0")


@given(connected_graph_and_vectors(max_n=10))
def test_exact_potentials_by_lifting_equal_the_fraction_reference(Gwb):
    from simpred_lite.exact import LaplacianFunctional
    from simpred_lite.exact import laplacian_pinv_fraction as exact_pinv

    G, _, b = Gwb
    n = G.number_of_nodes()
    Lp = exact_pinv(G)
    pot = LaplacianFunctional(G).potentials_at(b, range(n))
    assert pot == {u: sum(Lp[u][v] * b[v] for v in range(n)) for u in range(n)}


@pytest.mark.parametrize("G", [_relabelled(nx.grid_2d_graph(12, 13)), nx.gnm_random_graph(60, 200, seed=4)],
                         ids=["grid12x13", "gnm60"])
def test_exact_potentials_by_lifting_equal_flint(G):
    from simpred_lite.exact import LaplacianFunctional

    n = G.number_of_nodes()
    b = np.random.default_rng(1).integers(-3, 4, size=n)
    phi = ExactLaplacian(G).potentials(b)
    assert LaplacianFunctional(G).potentials_at(b, range(0, n, 7)) == {v: phi[v] for v in range(0, n, 7)}


@given(connected_graph_and_vectors(max_n=14), st.integers(1, 16))
def test_the_separation_bound_lies_between_the_determinant_and_hadamards(Gwb, block):
    """Fischer's bound over blocks: det A = tau(G) <= H <= prod deg (Hadamard), with blocks of one vertex equal."""
    import flint

    from simpred_lite.exact import LaplacianFunctional, _fischer_bound

    G = Gwb[0]
    if G.number_of_nodes() < 3:
        return
    A = LaplacianFunctional(G)._A
    det = int(flint.fmpz_mat(A.toarray().tolist()).det())
    hadamard = int(np.prod([int(v) for v in A.diagonal()], dtype=object))
    H = _fischer_bound(A, block)
    assert det <= H <= hadamard, f"the bound {H} is not between det A = {det} and Hadamard's {hadamard}"
    assert _fischer_bound(A, 1) == hadamard, "blocks of one vertex must give Hadamard's product of the diagonal"
    assert det == round(nx.number_of_spanning_trees(G)), "det of the grounded Laplacian is not tau(G)"


# -- the compiled lifting steps ------------------------------------------------------------------
def test_lift_residual_is_exact_integer_arithmetic():
    """The fused step equals Python's unbounded integers: d = rint(2^s y), r <- 2^s r - A d, W.d in two pieces."""
    import scipy.sparse as sp

    from simpred_lite.exact import _PIECE, _lift_residual

    rng = np.random.default_rng(7)
    size = 40
    A = sp.random(size, size, density=0.2, random_state=3, data_rvs=lambda k: rng.integers(-4, 5, size=k)).tocoo()
    rows, cols, vals = A.row.astype(np.int64), A.col.astype(np.int64), A.data.astype(np.int64)
    for s in (0, 5, 17):
        y = rng.uniform(-2.0**28, 2.0**28, size=size)  # |d| < 2^45, negative entries included
        r = rng.integers(-2**12, 2**12, size=size)
        W = rng.integers(-2**30, 2**30, size=size)
        d = np.empty(size, dtype=np.int64)
        r_new = r.copy()
        rmax, high, low = _lift_residual(y, s, rows, cols, vals, r_new, d, W, _PIECE)
        d_ref = [round(float(v) * 2**s) for v in y]  # ties to even, as np.rint
        r_ref = [int(x) << s for x in r]
        for i, j, a in zip(rows.tolist(), cols.tolist(), vals.tolist()):
            r_ref[i] -= a * d_ref[j]
        assert d.tolist() == d_ref, "d is not 2^s y rounded to the nearest integer"
        assert r_new.tolist() == r_ref, "the int64 residual is not the exact 2^s r - A d"
        assert int(rmax) == max(abs(x) for x in r_ref), "max |r| is wrong"
        assert (int(high) << _PIECE) + int(low) == sum(int(a) * x for a, x in zip(W, d_ref)), "W.d is not exact"
        _, high0, low0 = _lift_residual(y, s, rows, cols, vals, r.copy(), d, W[:0], _PIECE)
        assert high0 == 0 and low0 == 0, "an empty W must skip the product"


@pytest.mark.parametrize("symmetric", [True, False], ids=["LDLt", "LU"])
def test_triangular_factor_solves_like_superlu(symmetric):
    import scipy.sparse as sp
    from scipy.sparse.linalg import splu

    from simpred_lite.exact import LaplacianFunctional, _TriangularFactor

    A = LaplacianFunctional(nx.gnm_random_graph(80, 240, seed=2))._A.astype(float).tocsc()
    if not symmetric:  # a nonsymmetric matrix with partial pivoting: the general L U path
        A = (A + sp.triu(A, 1) * 0.5 + sp.eye(A.shape[0]) * 0.1).tocsc()
        lu = splu(A)
    else:
        lu = splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    fac = _TriangularFactor(lu)
    assert fac.symmetric == symmetric, "the L D L^T path must be taken exactly for a symmetric factorization"
    b = np.random.default_rng(0).standard_normal(A.shape[0])
    x = fac.solve(b)
    assert np.allclose(x, lu.solve(b), rtol=1e-10, atol=1e-12), "the compiled solve disagrees with SuperLU's"
    assert np.allclose(A @ x, b, atol=1e-9), "the compiled solve does not solve A x = b"
    y, work = np.empty_like(b), np.empty_like(b)
    rint = np.rint(b * 1000).astype(np.int64)
    assert fac.solve_int(rint, y, work) == np.abs(y).max(), "solve_int must return max |y|"
    assert np.allclose(y, lu.solve(rint.astype(float)), rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_functional_equals_flint_on_random_graphs_ties_and_near_ties(seed):
    """Random sparse graphs of 60-150 vertices: ties, near-ties at a relative 1e-12 and random thresholds."""
    from simpred_lite.exact import LaplacianFunctional

    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 150))
    G = nx.gnm_random_graph(n, 3 * n, seed=seed)
    if not nx.is_connected(G):
        G = nx.convert_node_labels_to_integers(G.subgraph(max(nx.connected_components(G), key=len)).copy())
        n = G.number_of_nodes()
    b = rng.integers(-3, 4, size=n)
    phi = ExactLaplacian(G).potentials(b)  # FLINT
    F = LaplacianFunctional(G)
    for v in rng.choice(n, size=5, replace=False).tolist():
        w = np.zeros(n, dtype=np.int64)
        w[v], w[(v + 1) % n] = 2, -1
        value = 2 * phi[v] - phi[(v + 1) % n]
        near = abs(value) * Fraction(1, 10**12) or Fraction(1, 10**12)
        assert F.compare(w, b, value) == 0, "the exact value must be a tie"
        assert F.compare(w, b, value - near) == 1 and F.compare(w, b, value + near) == -1, "a near-tie is wrong"
        t = Fraction(int(rng.integers(-1000, 1000)), 997)
        assert F.compare(w, b, t) == _sign(value - t), "a random threshold is decided wrongly"
        assert F.compare(w, b, value) == 0 and F.last_stage in ("tie", "exact")


def test_functional_with_huge_weights_takes_the_exact_python_product():
    """w beyond int64: W.d cannot be cut in int64 pieces and is summed in Python integers, still exact."""
    from simpred_lite.exact import LaplacianFunctional

    G = SYMMETRIC["petersen"]
    n = G.number_of_nodes()
    Lp = laplacian_pinv_fraction(G)
    rng = np.random.default_rng(11)
    b = rng.integers(-2, 3, size=n)
    w = [int(x) * 2**70 + 1 for x in rng.integers(-2, 3, size=n)]
    value = sum(w[u] * Lp[u][v] * int(b[v]) for u in range(n) for v in range(n))
    F = LaplacianFunctional(G)
    assert F.compare(w, b, value) == 0
    assert F.compare(w, b, value - Fraction(1, 2**100)) == 1 and F.compare(w, b, value + Fraction(1, 2**100)) == -1
