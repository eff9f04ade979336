"""evaluate / evaluate_sweep: the same runs as by hand, bounds that hold, clear errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from simpred_lite.bst import BinarySupportTree
from simpred_lite.datasets import load_graph
from simpred_lite.game.adversaries import cut_biased_trials
from simpred_lite.game.evaluation import evaluate, evaluate_sweep
from simpred_lite.game.play import adaptive_run, run
from simpred_lite.game.playground import LEARNERS
from simpred_lite.game.trials import Trial, random_trials, shortest_path_trials
from simpred_lite.graphs import barbell_graph, cut_size, planted_partition
from simpred_lite.learners import (
    AlwaysSimilar,
    BSTPerceptron,
    LearnerGaveUp,
    MatrixPerceptron,
    MatrixWinnow,
    RNormPerceptron,
    TreeWinnow,
    UnionFindLearner,
)
from simpred_lite.learners.bounds import comparator_norm_sq
from simpred_lite.learners.instances import comparator_matrix

FAST = ["AlwaysSimilar", "UnionFindLearner", "Matrix Perceptron", "Matrix Winnow", "BST Perceptron",
        "TreeWinnow", "r-norm Perceptron"]


@pytest.fixture(scope="module")
def small():
    return planted_partition(30, 3, 0.4, 0.05, seed=2)


def _by_hand(name, G, y, seed, position):
    """What evaluate documents: the learner in position p gets seed + 1000 (p + 1)."""
    s = seed + 1000 * (position + 1)
    return {
        "AlwaysSimilar": lambda: AlwaysSimilar(G.number_of_nodes()),
        "UnionFindLearner": lambda: UnionFindLearner(G.number_of_nodes()),
        "Matrix Perceptron": lambda: MatrixPerceptron(G),
        "Matrix Winnow": lambda: MatrixWinnow(G, cut_size=cut_size(G, y)),
        "BST Perceptron": lambda: BSTPerceptron(BinarySupportTree.from_graph(G, s)),
        "TreeWinnow": lambda: TreeWinnow(G.number_of_nodes()),
        "r-norm Perceptron": lambda: RNormPerceptron(G.number_of_nodes()),
    }[name]()


@pytest.mark.parametrize("kind", ["random", "cut-biased", "path"])
def test_results_equal_runs_by_hand(small, kind):
    G, y = small
    ev = evaluate(FAST, G, y, trials=kind, T=300, seed=5)
    gen = {"random": shortest_path_trials, "path": shortest_path_trials, "cut-biased": cut_biased_trials}[kind]
    trials = gen(G, y, 300, 5)
    trials = [t if t.path else Trial(t.i, t.j, t.y, tuple(nx.shortest_path(G, t.i, t.j))) for t in trials]
    for p, name in enumerate(FAST):
        expected = run(_by_hand(name, G, y, 5, p), trials)
        got = ev[name].run
        np.testing.assert_array_equal(got.predictions, expected.predictions, err_msg=name)
        assert ev[name].mistakes == expected.total_mistakes
    assert len({ev[n].mistakes for n in FAST}) > 2  # the learners really differ


def test_random_pairs_are_the_same_with_and_without_paths(small):
    G, y = small
    a = evaluate(["UnionFindLearner"], G, y, T=200, seed=1)
    b = evaluate(["UnionFindLearner", "TreeWinnow"], G, y, T=200, seed=1)
    np.testing.assert_array_equal(a["UnionFindLearner"].run.predictions, b["UnionFindLearner"].run.predictions)
    plain = run(UnionFindLearner(30), random_trials(G, y, 200, 1))
    np.testing.assert_array_equal(a["UnionFindLearner"].run.predictions, plain.predictions)


def test_adaptive_sequence_is_chosen_against_the_target(small):
    G, y = small
    ev = evaluate(["AlwaysSimilar", "UnionFindLearner"], G, y, trials="adaptive", T=100, seed=3)
    trials, res = adaptive_run(AlwaysSimilar(30), y, 100, 3, candidates=32)
    assert ev["AlwaysSimilar"].mistakes == res.total_mistakes == 100  # a dissimilar pair is always found
    assert ev["UnionFindLearner"].mistakes == run(UnionFindLearner(30), trials).total_mistakes
    ev2 = evaluate(["AlwaysSimilar", "UnionFindLearner"], G, y, trials="adaptive", T=100, seed=3,
                   target="UnionFindLearner")
    assert ev2["UnionFindLearner"].mistakes > ev["UnionFindLearner"].mistakes


def test_given_trials_instances_classes_and_factories(small):
    G, y = small
    trials = random_trials(G, y, 150, 9)
    proto = UnionFindLearner(30)
    ev = evaluate({"uf object": proto, "uf class": UnionFindLearner,
                   "uf factory": lambda G, seed: UnionFindLearner(G.number_of_nodes())}, G, y, trials=trials)
    counts = set(ev.mistakes.values())
    assert counts == {run(UnionFindLearner(30), trials).total_mistakes}
    assert proto.trials == 0  # the given object is copied, never played
    assert ev.T == 150 and ev.trials == "given"
    # a learner of the package brings its own bound (n - K), however it is given
    assert ev["uf object"].bound == ev["uf class"].bound == ev["uf factory"].bound == 30 - 3
    assert ev["uf object"].setting == "baseline"


def test_bounds_hold_and_match_the_playground(small):
    G, y = small
    ev = evaluate(FAST, G, y, trials="cut-biased", T=600, seed=0)
    for name in FAST:
        r = ev[name]
        if r.bound is not None:
            assert r.mistakes <= r.bound, name
    assert ev["UnionFindLearner"].bound == 30 - 3
    learner = MatrixPerceptron(G)
    # reported rounded down to its certified digits (7 significant)
    B = learner.R**2 * float((comparator_matrix(G, y) ** 2).sum())
    assert B * (1 - 1e-6) <= ev["Matrix Perceptron"].bound <= B * (1 + 1e-12)
    assert len(repr(ev["Matrix Perceptron"].bound).replace(".", "").strip("0")) <= 7


@pytest.mark.parametrize("seed", range(6))
def test_comparator_norm_from_cut_counts_equals_the_dense_one(seed):
    G, y = planted_partition(25, 2 + seed % 4, 0.3, 0.1, seed=seed)
    assert comparator_norm_sq(G, y) == pytest.approx(float((comparator_matrix(G, y) ** 2).sum()))


def test_last_block_error_and_records(small):
    G, y = small
    ev = evaluate(["AlwaysSimilar"], G, y, T=100, seed=0, last_block=40)
    r = ev["AlwaysSimilar"]
    assert r.last_block == 40 and r.last_block_error == pytest.approx(r.run.mistakes[-40:].mean())
    rows = ev.records(timing=True)
    assert rows[0]["learner"] == "AlwaysSimilar" and rows[0]["mistakes"] == r.mistakes and "µs / trial" in rows[0]
    assert "µs" not in repr(ev) and "AlwaysSimilar" in repr(ev) and "<table>" in ev._repr_html_()
    assert evaluate(["AlwaysSimilar"], G, y, T=100, seed=0).last_block == 10  # default T // 10


def test_labelled_graph_and_dataset_names():
    lg = load_graph("karate club")
    a = evaluate(["UnionFindLearner"], lg, T=100, seed=0)
    b = evaluate(["UnionFindLearner"], "karate club", T=100, seed=0)
    c = evaluate(["UnionFindLearner"], *lg, T=100, seed=0)
    assert a.mistakes == b.mistakes == c.mistakes and a.graph_name == "karate club"


def test_retired_learner_keeps_its_partial_run(small):
    G, y = small

    class GivesUp(UnionFindLearner):
        def _predict(self, i, j, path):
            if self.trials >= 7:
                raise LearnerGaveUp("pool full. more text")
            return super()._predict(i, j, path)

    ev = evaluate({"quitter": GivesUp, "uf": UnionFindLearner}, G, y, T=50, seed=0)
    assert len(ev["quitter"].run) == 7
    assert ev["quitter"].retired.startswith("retired at trial 8: LearnerGaveUp: pool full")
    assert len(ev["uf"].run) == 50


def test_plot_draws_curves_and_bounds(small):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    G, y = small
    ev = evaluate(["UnionFindLearner", "r-norm Perceptron", "AlwaysSimilar"], G, y, T=100, seed=0)
    ax = ev.plot()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("bound of UnionFindLearner") for t in texts)
    assert any(t.startswith("r-norm Perceptron") and "off the chart" in t for t in texts)
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_legend().get_texts()[0].get_fontsize() >= 9
    colours = {line.get_label(): line.get_color() for line in ax.get_lines()}
    uf = [c for k, c in colours.items() if "UnionFindLearner" in k]
    assert len(uf) == 2 and uf[0] == uf[1]  # curve and bound share the colour
    plt.close("all")


def test_sweep_is_the_same_for_one_and_two_jobs(small):
    graphs = {"pp": small, "barbell": barbell_graph(5)}
    kw = dict(T=120, trials="random")
    one = evaluate_sweep(["UnionFindLearner", "BST Perceptron", "TreeWinnow"], graphs, [0, 1], n_jobs=1, **kw)
    two = evaluate_sweep(["UnionFindLearner", "BST Perceptron", "TreeWinnow"], graphs, [0, 1], n_jobs=2, **kw)
    strip = lambda recs: [{k: v for k, v in r.items() if k != "seconds_per_trial"} for r in recs]  # noqa: E731
    assert strip(one.records) == strip(two.records) and len(one.records) == 2 * 2 * 3
    # and each record is the run evaluate gives
    ev = evaluate(["UnionFindLearner", "BST Perceptron", "TreeWinnow"], *small, T=120, seed=1)
    recs = {r["learner"]: r["mistakes"] for r in one.records if r["graph"] == "pp" and r["seed"] == 1}
    assert recs == ev.mistakes
    assert "UnionFindLearner" in repr(one) and one.summary()[0]["seeds"] == 2


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(learners=["NoSuchLearner"]), ValueError,
         "unknown learner 'NoSuchLearner'; choose one of \\['AlwaysSimilar', 'UnionFindLearner'"),
        (dict(learners=[]), ValueError, "learners is empty"),
        (dict(learners=[42]), TypeError, "a learner must be"),
        (dict(learners=["AlwaysSimilar", "AlwaysSimilar"]), ValueError, "appear twice"),
        (dict(trials="sideways"), ValueError, "unknown trials 'sideways'"),
        (dict(trials=[(0, 1)]), TypeError, "Trial objects"),
        (dict(T=-1), ValueError, "T must be at least 0, got -1"),
        (dict(T=2.5), TypeError, "T must be an integer"),
        (dict(trials="adaptive", learners=["TreeWinnow"]), ValueError, "needs paths"),
        (dict(trials="adaptive", target="nobody"), ValueError, "target 'nobody'"),
    ],
)
def test_bad_input(small, kwargs, error, match):
    G, y = small
    args = dict(learners=["AlwaysSimilar"])
    args.update(kwargs)
    learners = args.pop("learners")
    with pytest.raises(error, match=match):
        evaluate(learners, G, y, **args)


def test_bad_graphs_and_labels(small):
    G, y = small
    with pytest.raises(ValueError, match="labels are missing"):
        evaluate(["AlwaysSimilar"], G)
    with pytest.raises(ValueError, match="one class per vertex"):
        evaluate(["AlwaysSimilar"], G, y[:-1])
    with pytest.raises(ValueError, match="disconnected.*LabelledGraph.from_networkx"):
        evaluate(["AlwaysSimilar"], nx.Graph([(0, 1), (2, 3)]), [0, 0, 1, 1])
    with pytest.raises(ValueError, match="directed"):
        evaluate(["AlwaysSimilar"], nx.DiGraph([(0, 1), (1, 2)]), [0, 0, 1])
    with pytest.raises(ValueError, match="unknown dataset"):
        evaluate(["AlwaysSimilar"], "mnist")
    with pytest.raises(ValueError, match="carries its labels"):
        evaluate(["AlwaysSimilar"], load_graph("karate club"), [0] * 34)
    with pytest.raises(ValueError, match="at least one graph and one seed"):
        evaluate_sweep(["AlwaysSimilar"], {"pp": small}, [])


def test_registry_names_are_all_usable():
    assert set(FAST) < set(LEARNERS)


CERTIFIED = ["Matrix Perceptron", "Matrix Winnow", "Similarity from class"]


def test_float_bounds_are_certified_the_same_for_one_and_two_jobs(small):
    # the float L^+ (hence R) depends on the BLAS kernel and its threads, which differ in a
    # joblib worker; the reported bounds keep only certified digits, identical everywhere
    graphs = {"pp": small, "karate club": load_graph("karate club")}
    one = evaluate_sweep(CERTIFIED, graphs, [0], n_jobs=1, T=40)
    two = evaluate_sweep(CERTIFIED, graphs, [0], n_jobs=2, T=40)
    assert [(r["graph"], r["learner"], r["bound"]) for r in one.records] == \
        [(r["graph"], r["learner"], r["bound"]) for r in two.records]
    for r in one.records:
        digits = repr(r["bound"]).replace(".", "").lstrip("0").rstrip("0")
        assert r["bound"] > 0 and (len(digits) <= 7 or r["learner"] == "Similarity from class"), r
        assert r["mistakes"] <= r["bound"], r


@pytest.mark.parametrize("name", ["Matrix Perceptron", "Matrix Winnow"])
@pytest.mark.parametrize("graph", ["pp", "karate club"])
def test_bound_does_not_move_under_a_1e12_relative_perturbation_of_R(small, name, graph):
    G, y = small if graph == "pp" else load_graph("karate club")
    spec = LEARNERS[name]
    learner = spec.build(G, 0, y)
    assert learner.R_error is not None and 0 < learner.R_error < 1e-8 * learner.R
    reported = spec.bound_for(G, y, learner)
    exact_R = learner.R
    for rel in (-1e-12, 1e-12, -3e-13, 3e-13):
        learner.R = exact_R * (1 + rel)  # what another BLAS kernel or thread count could give
        assert spec.bound_for(G, y, learner) == reported, rel
    learner.R = exact_R


@pytest.mark.parametrize("graph", ["pp", "karate club"])
def test_similarity_from_class_bound_does_not_move_when_the_pseudoinverse_does(small, graph, monkeypatch):
    from simpred_lite import resistance
    from simpred_lite.resistance import laplacian_pinv

    G, y = small if graph == "pp" else load_graph("karate club")
    spec = LEARNERS["Similarity from class"]
    reported = spec.bound_for(G, y, spec.build(G, 0, y))
    assert reported is not None
    rng = np.random.default_rng(0)
    for _ in range(3):
        Lp = laplacian_pinv(G)
        noise = 1 + 1e-12 * rng.uniform(-1, 1, size=Lp.shape)
        # every GraphKernel built from now on gets this perturbed (symmetric) pseudoinverse
        monkeypatch.setattr(resistance, "laplacian_pinv", lambda G, Lp=Lp * noise: (Lp + Lp.T) / 2)
        assert spec.bound_for(G, y, spec.build(G, 0, y)) == reported
