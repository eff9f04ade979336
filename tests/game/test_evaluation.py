"""evaluate / evaluate_sweep: the same runs as by hand, bounds that hold, clear errors."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest

from simpred_lite.bst import BinarySupportTree
from simpred_lite.datasets import load_graph
from simpred_lite.game import evaluation
from simpred_lite.game.adversaries import cut_biased_trials
from simpred_lite.game.evaluation import Sweep, evaluate, evaluate_sweep
from simpred_lite.game.play import adaptive_run, run
from simpred_lite.game.playground import LEARNERS, learner_seed
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


def _by_hand(name, G, y, seed):
    """What evaluate documents: learner ``name`` gets learner_seed(seed, name)."""
    s = learner_seed(seed, name)
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
    for name in FAST:
        expected = run(_by_hand(name, G, y, 5), trials)
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
    ev = evaluate({"quitter": GivesUp, "uf": UnionFindLearner}, G, y, T=50, seed=0)
    assert len(ev["quitter"].run) == 7
    assert ev["quitter"].retired.startswith("retired at trial 8 of 50: LearnerGaveUp: pool full")
    assert len(ev["uf"].run) == 50


def test_plot_draws_curves_and_bounds(small):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    G, y = small
    ev = evaluate(["UnionFindLearner", "r-norm Perceptron", "AlwaysSimilar", "Matrix Winnow"], G, y, T=100, seed=0)
    ax = ev.plot()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(texts) == 4, "one legend entry per learner, none per bound"
    assert texts[0] == f"UnionFindLearner: {ev['UnionFindLearner'].mistakes} mistakes; bound 27"
    assert texts[1].startswith("r-norm Perceptron [paths]") and "off the chart" in texts[1]
    assert texts[3].startswith("Matrix Winnow [graph, true |Φ|]"), "the oracle is named in the legend"
    m = G.number_of_edges()
    assert ax.get_title().startswith(("planted partition", "unnamed graph (n = 30, m = ")), \
        "the title names the graph (or says it is unnamed), n and m"
    assert f"m = {m:,}" in ax.get_title(), "the title gives the number of edges"
    assert not ax.get_title().startswith("graph "), "an unnamed graph is called unnamed, never just 'graph'"
    assert "100 random trials" in ax.get_title() and "dashed" in ax.get_title()
    assert ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_legend().get_texts()[0].get_fontsize() >= 9
    dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    curves = {line.get_label(): line.get_color() for line in ax.get_lines() if line.get_linestyle() in ("-", ":")}
    uf_bound = [line for line in dashed if line.get_ydata()[0] == 27]
    assert len(uf_bound) == 1 and uf_bound[0].get_color() == curves[texts[0]], "curve and bound share the colour"
    plt.close("all")


def test_a_retired_learner_has_no_bound_drawn_and_a_note_at_its_end(small):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    G, y = small
    ev = evaluate({"quitter": GivesUp, "UnionFindLearner": "UnionFindLearner"}, G, y, T=60, seed=0)
    ev.learners["quitter"] = ev["quitter"].__class__(**{**ev["quitter"].__dict__, "bound": 27.0})
    ax = ev.plot()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    # a subclass of UnionFindLearner is given nothing but the trials, as its class declares
    assert texts[0] == f"quitter: {ev['quitter'].mistakes} in 7 trials, retired"
    dashed = [line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert dashed == [ev["UnionFindLearner"].bound], "only the learner that played every trial has its bound drawn"
    notes = [t for t in ax.texts if "retired at trial 8" in t.get_text()]
    assert len(notes) == 1 and notes[0].xy[0] == 7, "a note at the end of the retired learner's curve"
    assert "×: a learner retired" in ax.get_title()
    plt.close("all")


def test_sweep_is_the_same_for_one_and_two_jobs(small):
    graphs = {"pp": small, "barbell": barbell_graph(5)}
    kw = dict(T=120, trials="random")
    one = evaluate_sweep(["UnionFindLearner", "BST Perceptron", "TreeWinnow"], graphs, [0, 1], n_jobs=1, **kw)
    two = evaluate_sweep(["UnionFindLearner", "BST Perceptron", "TreeWinnow"], graphs, [0, 1], n_jobs=2, **kw)
    strip = lambda recs: [{k: v for k, v in r.items() if k not in Sweep.TIMING_KEYS} for r in recs]  # noqa: E731
    assert strip(one.records) == strip(two.records) and len(one.records) == 2 * 2 * 3
    oracle = evaluate_sweep(["Matrix Winnow"], {"barbell": barbell_graph(5)}, [0], n_jobs=2, T=20)
    assert oracle.records[0]["given"] == "graph, true |Φ|", "a worker process names the oracle too"
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
        (dict(time_limit=0), ValueError, "time_limit"),
        (dict(time_limit="1h"), TypeError, "time_limit"),
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


# -- a learner's seed comes from its name, not its place -----------------------------------------
def test_bst_perceptron_makes_the_same_mistakes_alone_and_in_the_full_list(small):
    G, y = small
    alone = evaluate(["BST Perceptron"], G, y, T=300, seed=4)["BST Perceptron"]
    full = evaluate(FAST, G, y, T=300, seed=4)["BST Perceptron"]
    backwards = evaluate(FAST[::-1], G, y, T=300, seed=4)["BST Perceptron"]
    for other in (full, backwards):
        np.testing.assert_array_equal(other.run.predictions, alone.run.predictions)
        np.testing.assert_array_equal(other.run.mistakes, alone.run.mistakes)
    # the seed still matters: another seed of the game draws another tree
    trees = {evaluation._learner_seed(s, "BST Perceptron") for s in range(5)}
    assert len(trees) == 5 and learner_seed(4, "BST Perceptron") != learner_seed(4, "TreeWinnow")


def test_the_sweep_seeds_a_learner_by_name_too(small):
    a = evaluate_sweep(["BST Perceptron"], {"pp": small}, [3], T=150)
    b = evaluate_sweep(["AlwaysSimilar", "TreeWinnow", "BST Perceptron"], {"pp": small}, [3], T=150)
    pick = lambda sw: [(r["mistakes"], r["bound"]) for r in sw.records if r["learner"] == "BST Perceptron"]  # noqa: E731
    assert pick(a) == pick(b)


# -- honest results: retired learners, oracles, cost ----------------------------------------------
class GivesUp(UnionFindLearner):
    """Gives up (LearnerGaveUp, the one exception that retires a learner) on its eighth trial."""

    def _predict(self, i, j, path):
        if self.trials >= 7:
            raise LearnerGaveUp("pool full. more text")
        return super()._predict(i, j, path)


def test_a_retired_learner_is_flagged_in_the_table(small):
    G, y = small
    ev = evaluate({"quitter": GivesUp, "uf": UnionFindLearner}, G, y, T=50, seed=0)
    q = ev["quitter"]
    assert q.played == 7 and q.T == 50 and q.within_bound is None
    assert q.retired.startswith("retired at trial 8 of 50: LearnerGaveUp: pool full")
    rows = {r["learner"]: r for r in ev.records()}
    assert rows["quitter"]["mistakes"] == f"{q.mistakes} in 7 trials", "a retired learner says how many trials"
    assert rows["quitter"]["retired"] == "at trial 8 of 50" and rows["uf"]["retired"] == "-"
    assert rows["uf"]["mistakes"] == ev["uf"].mistakes
    assert np.isnan(q.last_block_error), "it played none of the last 5 trials: no error rate"
    assert "retired at trial 8 of 50" in repr(ev) and "retired at trial 8 of 50" in ev._repr_html_()
    assert "retired" not in evaluate(["AlwaysSimilar"], G, y, T=20).records()[0], "no retired column when none retired"


def test_last_block_error_of_a_retired_learner_counts_only_the_trials_it_played(small):
    G, y = small
    ev = evaluate({"quitter": GivesUp}, G, y, T=10, seed=0, last_block=5)  # block = trials 6..10, played 6, 7
    q = ev["quitter"]
    assert q.last_block_error == pytest.approx(q.run.mistakes[5:7].mean())


def test_oracles_are_marked(small):
    G, y = small
    ev = evaluate({"AlwaysSimilar": "AlwaysSimilar", "MW": "Matrix Winnow", "Matrix Perceptron": "Matrix Perceptron",
                   "TreeWinnow": "TreeWinnow", "Similarity from class": "Similarity from class"}, G, y, T=8)
    given = {r["learner"]: r["given"] for r in ev.records()}
    assert given == {"AlwaysSimilar": "-", "MW": "graph, true |Φ|", "Matrix Perceptron": "graph",
                     "TreeWinnow": "paths", "Similarity from class": "graph, true K"}
    guessed = evaluate({"MW guessed": lambda G, seed: MatrixWinnow(G, cut_size=40)}, G, y, T=30)
    assert "|Φ|" not in guessed["MW guessed"].given, "a factory that guesses |Phi| is not told it"


class _Clock:
    """A fake perf_counter: each reading is ``step`` seconds after the last."""

    def __init__(self, step):
        self.now, self.step = 0.0, step

    def perf_counter(self):
        self.now += self.step
        return self.now


def test_build_time_is_measured_apart_from_the_trials(small, monkeypatch):
    G, y = small
    monkeypatch.setattr(evaluation, "time", _Clock(1.0))
    r = evaluate(["UnionFindLearner"], G, y, T=20, time_limit=None)["UnionFindLearner"]
    assert r.build_seconds == 1.0, "one tick between the two readings around the construction"
    assert r.seconds_per_trial * r.played == pytest.approx(1.0), "one tick around the 20 trials"
    assert r.seconds_per_trial_with_build == pytest.approx(2.0 / 20)
    row = evaluate(["UnionFindLearner"], G, y, T=20).records(timing=True)[0]
    assert {"build (s)", "µs / trial", "µs / trial with build"} <= set(row)


def test_a_learner_projected_past_the_time_limit_is_retired_with_the_projection(small, monkeypatch):
    G, y = small
    monkeypatch.setattr(evaluation, "time", _Clock(1.0))  # 1 s per clock reading: about 1 s per trial
    ev = evaluate(["UnionFindLearner", "AlwaysSimilar"], G, y, T=500, time_limit=100)
    r = ev["UnionFindLearner"]
    assert r.retired is not None and "projected" in r.retired and "time_limit=100 s" in r.retired
    assert r.played < 20 and r.retired.startswith(f"retired at trial {r.played + 1} of 500"), "retired early"
    monkeypatch.setattr(evaluation, "time", _Clock(0.1))  # 0.1 s per trial: 50 s, within the limit
    assert evaluate(["UnionFindLearner"], G, y, T=500, time_limit=100)["UnionFindLearner"].retired is None
    monkeypatch.setattr(evaluation, "time", _Clock(1.0))
    assert evaluate(["UnionFindLearner"], G, y, T=500, time_limit=None)["UnionFindLearner"].retired is None


class _SlowFirstTrial(_Clock):
    """Readings ``step`` apart, except that the one after the first trial comes ``first`` later."""

    def __init__(self, step, first):
        super().__init__(step)
        self.first, self.readings = first, 0

    def perf_counter(self):
        self.readings += 1
        if self.readings == 4:  # before and after the construction, the start, then after trial 1
            self.now += self.first
        return super().perf_counter()


def test_a_slow_first_trial_is_not_projected_onto_every_trial(small, monkeypatch):
    """A first call that compiles code (seconds) must not retire a learner whose trials are fast."""
    G, y = small
    monkeypatch.setattr(evaluation, "time", _SlowFirstTrial(0.01, 20.0))
    r = evaluate(["UnionFindLearner"], G, y, T=500, time_limit=100)["UnionFindLearner"]
    assert r.retired is None and r.played == 500, "20 s for trial 1 and 0.01 s per later trial fit in 100 s"
    monkeypatch.setattr(evaluation, "time", _SlowFirstTrial(1.0, 20.0))
    with pytest.warns(RuntimeWarning, match="before it retired"):  # it spent 24 s (fake) before retiring
        r = evaluate(["UnionFindLearner"], G, y, T=500, time_limit=100)["UnionFindLearner"]
    assert r.retired is not None and r.played < 20, "1 s per later trial is still projected past 100 s"


def test_a_learner_that_retires_after_long_work_is_named_in_one_warning(small, monkeypatch):
    G, y = small
    monkeypatch.setattr(evaluation, "time", _Clock(6.0))  # without a time limit: 6 s to build, 6 s to play
    with pytest.warns(RuntimeWarning, match=r"quitter spent 12 s before it retired at trial 8 of 50") as caught:
        evaluate({"quitter": GivesUp, "uf": UnionFindLearner}, G, y, T=50, time_limit=None)
    assert len(caught) == 1
    monkeypatch.setattr(evaluation, "time", _Clock(1e-6))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a quick retirement warns of nothing
        ev = evaluate({"quitter": GivesUp}, G, y, T=50)
    assert ev["quitter"].retired.startswith("retired at trial 8 of 50: LearnerGaveUp")


def test_progress_bars_stay_and_say_when_a_learner_retires(small, capsys):
    G, y = small
    evaluate({"quitter": GivesUp, "uf": UnionFindLearner}, G, y, T=50, progress=True)
    shown = capsys.readouterr()
    assert "quitter: retired at trial 8 of 50" in shown.out + shown.err, "a retiring learner's bar says so"
    assert "quitter (retired at trial 8)" in shown.err and "50/50" in shown.err, "the bars stay when done"


# -- sweeps ------------------------------------------------------------------------------------
def _sometimes_gives_up(G, seed):
    return GivesUp(G.number_of_nodes()) if seed % 2 else UnionFindLearner(G.number_of_nodes())


def test_sweep_summary_never_mixes_or_ranks_a_retired_run(small):
    sw = evaluate_sweep({"AlwaysSimilar": "AlwaysSimilar", "sometimes": _sometimes_gives_up,
                         "BST Perceptron": "BST Perceptron"}, {"pp": small}, range(6), T=100)
    runs = [r for r in sw.records if r["learner"] == "sometimes"]
    full = [r["mistakes"] for r in runs if not r["retired"]]
    assert 0 < len(full) < 6, "the test needs seeds where it retires and seeds where it does not"
    rows = {r["learner"]: r for r in sw.summary()}
    s = rows["sometimes"]
    assert s["retired"] == 6 - len(full) and s["rank"] is None
    assert s["mean"] == round(float(np.mean(full)), 1) and (s["min"], s["max"]) == (min(full), max(full))
    assert s["sd"] == round(float(np.std(full, ddof=1)), 1) if len(full) > 1 else s["sd"] == 0
    assert sw.best() == {"pp": "BST Perceptron"} and rows["BST Perceptron"]["rank"] == 1
    assert rows["AlwaysSimilar"]["rank"] == 2
    bounds = [r["bound"] for r in sw.records if r["learner"] == "BST Perceptron"]
    assert len(set(bounds)) > 1, "the BST's bound depends on its random tree"
    lo, hi = rows["BST Perceptron"]["bound"].split("–")
    assert float(lo.replace(",", "")) == min(bounds) and float(hi.replace(",", "")) == max(bounds)
    assert "never ranked" in repr(sw)
    timed = sw.summary(timing=True)[0]
    assert timed["s / trial"] > 0 and timed["s / trial with build"] >= timed["s / trial"]


def test_sweep_progress_bar_over_runs(small, capsys):
    a = evaluate_sweep(["UnionFindLearner"], {"pp": small}, [0, 1], T=50, progress=True)
    assert "2/2" in capsys.readouterr().err
    b = evaluate_sweep(["UnionFindLearner"], {"pp": small}, [0, 1], T=50)
    assert [r["mistakes"] for r in a.records] == [r["mistakes"] for r in b.records]


# -- a large graph is validated once ------------------------------------------------------------
def test_the_graph_is_validated_once(small, monkeypatch):
    G, y = small
    calls = []
    real = nx.is_connected
    monkeypatch.setattr(nx, "is_connected", lambda H: calls.append(H) or real(H))
    evaluate(["UnionFindLearner", "Matrix Perceptron", "Matrix Winnow", "BST Perceptron", "TreeWinnow"],
             nx.Graph(G), y, trials="cut-biased", T=30)
    same = [H for H in calls if (H.number_of_nodes(), H.number_of_edges()) == (30, G.number_of_edges())]
    assert len(same) == 1, f"the graph was checked for connectivity {len(same)} times"


def test_a_large_graph_is_validated_once_and_never_copied(monkeypatch):
    """n >= 1000 (the vectorised connectivity check): one check, no frozen copy, the caller's graph untouched."""
    from simpred_lite import graphs

    G, y = planted_partition(1200, 3, 0.01, 0.0005, seed=2)
    checks, copies = [], []
    real_check, real_copy = graphs._is_connected, graphs.frozen_copy
    monkeypatch.setattr(graphs, "_is_connected", lambda H, *a: checks.append(H) or real_check(H, *a))
    monkeypatch.setattr(graphs, "frozen_copy", lambda H: copies.append(H) or real_copy(H))
    ev = evaluate(["UnionFindLearner", "BST Perceptron"], G, y, T=200, seed=1)
    assert len(checks) == 1, f"the graph was checked for connectivity {len(checks)} times"
    assert copies == [], f"evaluate made {len(copies)} frozen copies of the graph"
    assert not nx.is_frozen(G), "evaluate must not freeze the caller's graph"
    monkeypatch.undo()
    frozen = graphs.validate_graph(G, freeze=True)  # what evaluate played on before: a frozen copy
    before = evaluate(["UnionFindLearner", "BST Perceptron"], frozen, y, T=200, seed=1)
    assert ev.mistakes == before.mistakes and (ev.n, ev.m, ev.cut) == (before.n, before.m, before.cut)
    G.remove_edges_from(list(G.edges(0)))  # the caller's graph changes after the call: checked again
    with pytest.raises(ValueError, match="disconnected"):
        evaluate(["UnionFindLearner"], G, y, T=10)
