"""The adversary playground (logic and widget), without a browser."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simpred_lite.apps import PlaygroundApp
from simpred_lite.bst import BinarySupportTree
from simpred_lite.game.adversaries import ADVERSARIES, AdaptiveAdversary, CutBiasedAdversary, PathRevealingAdversary
from simpred_lite.game.play import run
from simpred_lite.game.playground import (
    GRAPHS,
    LEARNERS,
    LearnerSpec,
    Playground,
    make_adversary,
    register_learner,
    shortest_path,
)
from simpred_lite.game.trials import random_walk_path
from simpred_lite.learners import AlwaysSimilar, LearnerGaveUp, UnionFindLearner, playable
from simpred_lite.learners.base import SimilarityLearner
from simpred_lite.learners.bounds import comparator_norm_sq

AUTOPLAY = [a for a in ADVERSARIES if a != "student"]


class PathRecorder(SimilarityLearner):
    """A learner of the unknown-graph game that remembers the paths it was shown."""

    needs_path = True

    def __init__(self, n):
        super().__init__(n)
        self.paths = []

    def _predict(self, i, j, path):
        return 1

    def _learn(self, i, j, y, y_hat, path):
        self.paths.append(path)


class WithBST(UnionFindLearner):
    def __init__(self, G, seed):
        super().__init__(G.number_of_nodes())
        self.bst = BinarySupportTree.from_graph(G, seed)


class WithBSTPath(UnionFindLearner):
    def bst_path(self, i, j):
        return [i + 100, j + 100]


def registry(**extra):
    reg = {name: LEARNERS[name] for name in ("AlwaysSimilar", "UnionFindLearner")}
    reg.update(extra)
    return reg


# -- registry -----------------------------------------------------------------------------
def test_the_baselines_are_registered_with_the_union_find_bound():
    assert {"AlwaysSimilar", "UnionFindLearner", "Similarity from class", "Matrix Perceptron", "Matrix Winnow",
            "BST Perceptron", "TreeWinnow", "r-norm Perceptron"} <= set(LEARNERS)
    G, y = GRAPHS["karate club"].factory(0)
    uf, always = LEARNERS["UnionFindLearner"], LEARNERS["AlwaysSimilar"]
    assert uf.bound_for(G, y, uf.build(G, 0, y)) == 34 - 2 and uf.has_bound
    assert always.bound_for(G, y, always.build(G, 0, y)) is None and not always.has_bound


def test_register_learner_one_line_and_class_attributes():
    try:
        spec = register_learner("recorder (test)", PathRecorder, setting="unknown graph")
        assert spec.needs_path is True  # taken from the class
        learner = spec.factory(nx.path_graph(5), 0)
        assert isinstance(learner, PathRecorder) and learner.n == 5
        game = Playground("grid", ["recorder (test)"], seed=0)
        assert game.needs_path
    finally:
        LEARNERS.pop("recorder (test)", None)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"name": "", "factory": AlwaysSimilar}, ValueError, "non-empty name"),
        ({"name": "x", "factory": 3}, TypeError, "factory must be callable"),
        ({"name": "x", "factory": AlwaysSimilar, "bound": 5}, TypeError, "bound must be callable"),
        ({"name": "x", "factory": AlwaysSimilar, "setting": "cloud"}, ValueError, "setting must be one of"),
        ({"name": "AlwaysSimilar", "factory": AlwaysSimilar}, ValueError, "already registered"),
    ],
)
def test_register_learner_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        register_learner(**kwargs)
    assert "x" not in LEARNERS


# -- building a playground ----------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"graph": "moon"}, ValueError, "unknown graph 'moon'"),
        ({"graph": 42}, TypeError, "graph must be a name"),
        ({"learners": ["Nope"]}, ValueError, r"unknown learner 'Nope'; choose one of"),
        ({"learners": []}, ValueError, "at least one learner"),
        ({"learners": ["AlwaysSimilar", "AlwaysSimilar"]}, ValueError, "listed twice"),
        ({"adversary": "oracle"}, ValueError, "unknown adversary 'oracle'"),
        ({"seed": 1.5}, TypeError, "seed must be an integer"),
        ({"adversary_options": {"p_cut": 2.0}, "adversary": "cut-biased"}, ValueError, "p_cut must be a probability"),
        ({"adversary_options": {"candidates": 0}, "adversary": "adaptive"}, ValueError, "candidates must be"),
    ],
)
def test_playground_rejects_bad_settings(kwargs, error, match):
    with pytest.raises(error, match=match):
        Playground(**kwargs)


def test_factories_must_build_learners_of_the_right_size():
    bad_size = LearnerSpec("bad", lambda G, seed: AlwaysSimilar(3))
    with pytest.raises(ValueError, match="built a learner for 3 vertices"):
        Playground("grid", ["bad"], registry={"bad": bad_size})
    not_a_learner = LearnerSpec("junk", lambda G, seed: object())
    with pytest.raises(TypeError, match="not a similarity learner"):
        Playground("grid", ["junk"], registry={"junk": not_a_learner})


def test_step_and_play_reject_bad_input():
    game = Playground("barbell", seed=0)
    with pytest.raises(ValueError, match="distinct vertices"):
        game.step(pair=(3, 3))
    with pytest.raises(ValueError, match="unknown vertex j 99"):
        game.step(pair=(0, 99))
    with pytest.raises(TypeError, match="pair must be two vertices"):
        game.step(pair=5)
    with pytest.raises(ValueError, match="k must be at least 0"):
        game.play(-1)
    student = Playground("barbell", adversary="student", seed=0)
    with pytest.raises(ValueError, match="needs your pair"):
        student.step()
    wrong_target = Playground("barbell", ["AlwaysSimilar"], "adaptive",
                              adversary_options={"target": "UnionFindLearner"})
    with pytest.raises(ValueError, match="targets 'UnionFindLearner', which is not playing"):
        wrong_target.step()


@pytest.mark.parametrize("graph", list(GRAPHS))
def test_vertices_iterate_in_order_so_figures_colour_them_right(graph):
    game = Playground(graph, ["AlwaysSimilar"], seed=0)
    G0, _ = GRAPHS[graph].factory(0)
    assert list(game.G.nodes) == list(range(game.n))
    assert sorted(map(sorted, game.G.edges)) == sorted(map(sorted, G0.edges))


def test_custom_graph_is_validated():
    with pytest.raises(ValueError):
        Playground((nx.Graph([(0, 1), (2, 3)]), [0, 0, 1, 1]))  # disconnected
    game = Playground((nx.path_graph(4), [0, 0, 1, 1]), ["AlwaysSimilar"], seed=0)
    assert (game.n, game.K, game.cut) == (4, 2, [(1, 2)])


# -- playing ------------------------------------------------------------------------------
@pytest.mark.parametrize("adversary", AUTOPLAY)
def test_play_is_reproducible_and_reset_replays_the_same_game(adversary):
    names = ["AlwaysSimilar", "UnionFindLearner", "TreeWinnow"]
    a = Playground("planted partition", names, adversary=adversary, seed=3)
    a.play(25)
    b = Playground("planted partition", names, adversary=adversary, seed=3)
    b.play(25)
    first = [r.trial for r in a.history]
    assert first == [r.trial for r in b.history]
    a.reset()
    assert a.history == [] and all(learner.trials == 0 for learner in a.learners.values())
    a.play(25)
    assert [r.trial for r in a.history] == first
    a.reset(seed=4)
    a.play(25)
    assert [r.trial for r in a.history] != first


@pytest.mark.parametrize("adversary", AUTOPLAY)
def test_every_learner_sees_the_same_trials_as_a_plain_run(adversary):
    game = Playground("karate club", adversary=adversary, seed=1)
    game.play(40)
    trials = [r.trial for r in game.history]
    results = game.results()
    assert game.retired == {}
    for name in game.names:
        learner = game.learners[name]
        assert learner.trials == 40 and learner.mistakes == game.mistakes[name] == results[name].total_mistakes
        # the same trials through the package's run loop give the same predictions
        fresh = game.fresh_learner(name)
        assert fresh is not learner and fresh.trials == 0
        assert run(fresh, trials).predictions.tolist() == results[name].predictions.tolist()
    with pytest.raises(ValueError, match="'Nope' is not playing"):
        game.fresh_learner("Nope")
    for r in game.history:
        assert r.trial.y == int(game.labels[r.trial.i] != game.labels[r.trial.j])
        assert r.wrong == {name: r.predictions[name] != r.trial.y for name in game.names}


@pytest.mark.parametrize("graph", list(GRAPHS))
@pytest.mark.parametrize("adversary", AUTOPLAY)
def test_union_find_bound_holds_against_every_adversary(graph, adversary):
    """M <= n - K (the bound registered for UnionFindLearner), whatever the adversary does."""
    game = Playground(graph, ["UnionFindLearner", "AlwaysSimilar"], adversary, seed=2,
                      adversary_options={"target": "UnionFindLearner"} if adversary == "adaptive" else None)
    game.play(120)
    assert game.mistakes["UnionFindLearner"] <= game.bounds()["UnionFindLearner"] == game.n - game.K


def test_adaptive_adversary_forces_the_union_find_bound_exactly():
    game = Playground("karate club", ["UnionFindLearner"], "adaptive", seed=0)
    game.play(150)
    curve = game.results()["UnionFindLearner"].cumulative
    # every trial is a mistake until the bound n - K is reached; no more after
    M = game.n - game.K
    assert curve[M - 1] == M and curve[-1] == M


def test_adaptive_adversary_makes_always_similar_err_every_time_and_only_asks():
    game = Playground("planted partition", ["AlwaysSimilar", "UnionFindLearner"], "adaptive", seed=0)
    game.play(30)
    assert game.mistakes["AlwaysSimilar"] == 30
    assert all(r.trial.y == 1 for r in game.history)
    # predicting on candidates never counts as a trial
    assert all(learner.trials == 30 for learner in game.learners.values())


def test_adaptive_adversary_falls_back_to_a_candidate_when_the_target_is_always_right():
    # on a single class every pair is similar: AlwaysSimilar is never wrong
    game = Playground((nx.cycle_graph(6), [0] * 6), ["AlwaysSimilar"], "adaptive", seed=0)
    game.play(10)
    assert game.mistakes["AlwaysSimilar"] == 0 and len(game.history) == 10


def test_cut_biased_adversary_with_p_cut_one_asks_cut_edges():
    game = Playground("grid", ["AlwaysSimilar"], CutBiasedAdversary(p_cut=1.0), seed=0)
    game.play(50)
    boundary = set(game.boundary.tolist())
    assert boundary == {v for e in game.cut for v in e}
    cut = {frozenset(e) for e in game.cut}
    assert all(frozenset((r.trial.i, r.trial.j)) in cut for r in game.history)
    uniform = Playground("grid", ["AlwaysSimilar"], CutBiasedAdversary(p_cut=0.0), seed=0)
    uniform.play(50)
    assert not all(frozenset((r.trial.i, r.trial.j)) in cut for r in uniform.history)


def test_cut_biased_means_one_distribution_in_the_playground_and_evaluate():
    """The playground's "cut-biased" adversary and cut_biased_trials (evaluate's "cut-biased")
    draw the same pairs from the same seed."""
    from simpred_lite.game.adversaries import cut_biased_trials

    game = Playground("karate club", ["AlwaysSimilar"], "cut-biased", seed=3)
    game.play(200)
    trials = cut_biased_trials(game.G, game.labels, 200, seed=3)
    assert [(r.trial.i, r.trial.j, r.trial.y) for r in game.history] == [(t.i, t.j, t.y) for t in trials]
    cut = {frozenset(e) for e in game.cut}
    share = np.mean([frozenset((t.i, t.j)) in cut for t in trials])
    assert 0.4 < share < 0.6  # p_cut = 0.5 (plus the rare uniform pair that is a cut edge)


def _is_path(G, p, i, j):
    return p[0] == i and p[-1] == j and len(set(p)) == len(p) and all(G.has_edge(a, b) for a, b in zip(p[:-1], p[1:]))


@pytest.mark.parametrize("kind", ["shortest path", "random-walk path"])
def test_path_revealing_adversaries_reveal_simple_paths(kind):
    game = Playground("karate club", ["AlwaysSimilar"], kind, seed=5)
    game.play(30)
    for r in game.history:
        t = r.trial
        assert _is_path(game.G, t.path, t.i, t.j)
        if kind == "shortest path":
            assert len(t.path) - 1 == nx.shortest_path_length(game.G, t.i, t.j)


@given(n=st.integers(3, 12), p=st.floats(0.2, 0.9), seed=st.integers(0, 10**6))
def test_random_walk_path_is_a_simple_path_and_reproducible(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    if not nx.is_connected(G):
        G = nx.compose(G, nx.path_graph(n))
    path = random_walk_path(G, 0, n - 1, seed)
    assert _is_path(G, path, 0, n - 1)
    assert path == random_walk_path(G, 0, n - 1, seed)
    assert shortest_path(G, 0, n - 1) == tuple(nx.shortest_path(G, 0, n - 1))


def test_paths_are_revealed_to_learners_that_need_them_and_only_to_them():
    reg = registry(recorder=LearnerSpec("recorder", lambda G, seed: PathRecorder(G.number_of_nodes()), needs_path=True))
    game = Playground("barbell", ["AlwaysSimilar", "recorder"], "random", seed=0, registry=reg)
    game.play(10)
    paths = game.learners["recorder"].paths
    assert all(p == shortest_path(game.G, r.trial.i, r.trial.j) for p, r in zip(paths, game.history))
    walk = Playground("barbell", ["recorder"], "random-walk path", seed=0, registry=reg)
    walk.play(10)
    assert walk.learners["recorder"].paths == [r.trial.path for r in walk.history]
    assert PathRevealingAdversary("random walk").reveals_path
    with pytest.raises(ValueError, match="kind must be"):
        PathRevealingAdversary("teleport")


def test_student_pairs_are_played_as_given():
    game = Playground("karate club", ["UnionFindLearner"], "student", seed=0)
    for pair in [(0, 1), (1, 2), (0, 2), (0, 33)]:
        game.step(pair=pair)
    assert [(r.trial.i, r.trial.j, r.trial.y) for r in game.history] == [(0, 1, 0), (1, 2, 0), (0, 2, 0), (0, 33, 1)]
    assert [r.predictions["UnionFindLearner"] for r in game.history] == [1, 1, 0, 1]


def test_bst_hook():
    reg = registry(bst=LearnerSpec("bst", lambda G, seed: WithBST(G, seed)),
                   method=LearnerSpec("method", lambda G, seed: WithBSTPath(G.number_of_nodes())))
    game = Playground("grid", ["AlwaysSimilar", "bst", "method"], seed=0, registry=reg)
    assert game.bst_learner() == "bst" and game.bst_path("bst") is None  # nothing played yet
    record = game.step()
    i, j = record.trial.i, record.trial.j
    assert game.bst_path("bst") == game.learners["bst"].bst.path(i, j)
    assert game.bst_path("method") == [i + 100, j + 100]
    assert game.bst_path("AlwaysSimilar") is None
    assert Playground("grid", ["AlwaysSimilar"]).bst_learner() is None


def test_make_adversary_passes_objects_through_and_summary_counts():
    adv = AdaptiveAdversary(candidates=20)
    assert make_adversary(adv) is adv
    game = Playground("barbell", ["AlwaysSimilar", "UnionFindLearner"], adv, seed=0)
    game.play(4)
    assert game.summary() == (
        f"trials: 4 | mistakes: AlwaysSimilar 4, UnionFindLearner "
        f"{game.mistakes['UnionFindLearner']}"
    )


# -- the widget ---------------------------------------------------------------------------
def _png(app):
    output = app.out.outputs[0]   # the figure; its text summary follows
    return output["data"]["image/png"]


def test_app_step_play_reset_update_counter_and_figure():
    app = PlaygroundApp("karate club", ["AlwaysSimilar", "UnionFindLearner"], "adaptive", play_steps=5)
    assert app.counter_text == "trials: 0 | mistakes: AlwaysSimilar 0, UnionFindLearner 0"
    before = _png(app)
    app.step_button.click()
    assert app.counter_text.startswith("trials: 1 | mistakes: AlwaysSimilar 1,")
    assert _png(app) != before
    app.play_button.click()
    assert app.game.mistakes["AlwaysSimilar"] == 6 and app.status_text.startswith("Played 5 trials.")
    app.reset_button.click()
    assert app.counter_text == "trials: 0 | mistakes: AlwaysSimilar 0, UnionFindLearner 0"
    assert _png(app) == before  # the same empty game draws the same figure


def test_app_settings_rebuild_the_game():
    app = PlaygroundApp("karate club", ["AlwaysSimilar", "UnionFindLearner"], "adaptive")
    app.target.value = "UnionFindLearner"
    assert app.game.adversary.target == "UnionFindLearner" and not app.target.disabled
    app.adversary.value = "random"
    assert app.target.disabled and app.i.disabled
    app.adversary.value = "adaptive"
    app.graph.value = "barbell"
    assert app.game.n == 18 and list(app.i.options) == list(range(18)) and app.j.value == 17
    app.learners.value = ("UnionFindLearner",)
    assert app.game.names == ["UnionFindLearner"] and list(app.target.options) == ["UnionFindLearner"]
    app.learners.value = ()
    assert app.game is None and app.status_text == "Choose at least one learner." and app.out.outputs == ()
    assert app.step() is None and app.play() == []
    app.learners.value = ("AlwaysSimilar",)
    app.seed.value = 7
    assert app.game.seed == 7


def test_app_student_mode_uses_the_chosen_pair():
    app = PlaygroundApp("karate club", ["UnionFindLearner"], "student")
    assert not app.i.disabled
    app.i.value, app.j.value = 0, 1
    app.step_button.click()
    assert app.status_text == "Trial 1: pair (0, 1) is similar (0); wrong: UnionFindLearner."
    app.i.value = app.j.value = 5
    app.step_button.click()
    assert "distinct vertices" in app.status_text and len(app.game.history) == 1
    app.play_button.click()
    assert "student adversary is you" in app.status_text and len(app.game.history) == 1


def test_app_draws_a_bst_panel_when_a_learner_has_a_bst(monkeypatch):
    monkeypatch.setitem(LEARNERS, "bst", LearnerSpec("bst", lambda G, seed: WithBST(G, seed)))
    monkeypatch.setitem(LEARNERS, "method", LearnerSpec("method", lambda G, seed: WithBSTPath(G.number_of_nodes())))
    app = PlaygroundApp("grid", ["AlwaysSimilar", "bst"], "shortest path")
    axes = app.figure().axes  # no pair yet: the BST panel is there (stable layout), empty
    assert len(axes) == 3 and not axes[1].axison and "after the first trial" in axes[1].texts[0].get_text()
    app.step_button.click()
    axes = app.figure().axes
    assert len(axes) == 3 and axes[1].get_title().startswith("BST path (bst)")
    app.learners.value = ("method",)
    app.step_button.click()
    assert len(app.figure().axes) == 3
    assert np.asarray(app.game.bst_path("method")).size == 2


def test_layouts_place_every_vertex():
    for name in GRAPHS:
        pos = Playground(name, ["AlwaysSimilar"], seed=0).layout()
        assert sorted(pos) == list(range(len(pos)))
    grid = Playground("grid", ["AlwaysSimilar"]).layout()
    assert grid[9].tolist() == [1.0, -1.0]  # row 1, column 1


class NeedsCut(UnionFindLearner):
    """Stands for Matrix Winnow: a hyper-parameter (the cut size) read from the labeling."""

    def __init__(self, n, cut):
        super().__init__(n)
        self.cut = cut


def test_needs_labels_factories_and_learner_dependent_bounds():
    from simpred_lite.graphs import cut_size

    reg = registry(
        winnowish=LearnerSpec("winnowish", lambda G, seed, y: NeedsCut(G.number_of_nodes(), cut_size(G, y)),
                              needs_labels=True, bound=lambda G, y, learner: 10.0 * learner.cut),
        bst=LearnerSpec("bst", lambda G, seed: WithBST(G, seed), bound=lambda G, y, learner: learner.bst.cut_size(y)),
        star=LearnerSpec("star", lambda G, seed: AlwaysSimilar(G.number_of_nodes()), bound=lambda *args: len(args)),
    )
    game = Playground("karate club", ["winnowish", "bst", "star"], seed=0, registry=reg)
    assert game.learners["winnowish"].cut == 11
    bounds = game.bounds()
    assert bounds["winnowish"] == 110.0 and bounds["star"] == 3.0
    assert bounds["bst"] == game.learners["bst"].bst.cut_size(game.labels)
    spec = register_learner("needs labels (test)", lambda G, s, y: AlwaysSimilar(len(y)), needs_labels=True,
                            replace=True)
    try:
        assert spec.needs_labels and Playground("grid", ["needs labels (test)"]).learners["needs labels (test)"].n == 40
    finally:
        LEARNERS.pop("needs labels (test)")


def test_learners_for_a_setting(monkeypatch):
    from simpred_lite.game.playground import learners_for

    monkeypatch.setitem(LEARNERS, "paths", LearnerSpec("paths", lambda G, s: PathRecorder(G.number_of_nodes()),
                                                       needs_path=True, setting="unknown graph"))
    assert "paths" in learners_for("unknown graph") and "paths" not in learners_for("known graph")
    assert {"AlwaysSimilar", "UnionFindLearner"} <= set(learners_for("known graph"))
    with pytest.raises(ValueError, match="setting must be one of"):
        learners_for("cloud")


class GivesUp(UnionFindLearner):
    """Stands for the reductions' master algorithm: its pool runs out after a few updates."""

    def __init__(self, n, after):
        super().__init__(n)
        self.after = after

    def _learn(self, i, j, y, y_hat, path):
        if self.trials > self.after:
            raise LearnerGaveUp("pool limit reached")
        super()._learn(i, j, y, y_hat, path)


class Buggy(UnionFindLearner):
    def _predict(self, i, j, path):
        raise KeyError("a bug")


def test_a_learner_that_gives_up_is_retired_and_the_others_play_on():
    reg = registry(quitter=LearnerSpec("quitter", lambda G, seed: GivesUp(G.number_of_nodes(), after=3)))
    game = Playground("karate club", ["UnionFindLearner", "quitter"], "adaptive", seed=0, registry=reg)
    game.play(10)
    assert game.retired == {"quitter": "retired at trial 4: LearnerGaveUp: pool limit reached"}
    assert GivesUp(3, 0).n == 3
    results = game.results()
    # the quitter predicted on trials 1..4 (its mistake on trial 4 counts), then stopped
    assert len(results["quitter"]) == 4 and len(results["UnionFindLearner"]) == 10
    assert game.mistakes["quitter"] == game.learners["quitter"].mistakes == results["quitter"].total_mistakes
    assert "quitter" not in game.history[4].predictions
    assert game.summary().endswith(f"quitter {game.mistakes['quitter']} (retired)")
    target = Playground("karate club", ["quitter"], "adaptive", seed=0, registry=reg)
    target.play(4)
    with pytest.raises(ValueError, match="target 'quitter' has retired at trial 4"):
        target.step()
    game.reset()
    assert game.retired == {}
    app = PlaygroundApp("karate club", ["UnionFindLearner"], "random")
    app.game = Playground("karate club", ["UnionFindLearner", "quitter"], "random", seed=0, registry=reg)
    for _ in range(4):
        app.step_button.click()
    assert app.status_text.endswith("quitter retired at trial 4: LearnerGaveUp: pool limit reached.")


def test_a_buggy_learner_is_not_hidden():
    reg = registry(buggy=LearnerSpec("buggy", lambda G, seed: Buggy(G.number_of_nodes())))
    with pytest.raises(KeyError, match="a bug"):
        Playground("grid", ["buggy"], registry=reg).step()


def test_registered_paper_learners_keep_their_bounds():
    """Lemma equiv's bound (similarity from one-vs-rest graph Perceptrons) and Theorem t:unknown's
    (r-norm Perceptron) hold against every adversary; the reduction retires, never crashes,
    when its pool outgrows max_histories."""
    from simpred_lite.learners import PoolLimitError

    names = ["Similarity from class", "Matrix Perceptron", "Matrix Winnow", "BST Perceptron", "TreeWinnow",
             "r-norm Perceptron"]
    for graph in ("barbell", "karate club", "planted partition"):
        for adversary in ("random", "adaptive", "random-walk path"):
            options = {"target": "Similarity from class"} if adversary == "adaptive" else None
            game = Playground(graph, names, adversary, seed=0, adversary_options=options)
            try:
                game.play(40)
            except ValueError as err:  # the adaptive adversary's target retired
                assert "has retired" in str(err)
            assert set(game.retired) <= {"Similarity from class"}
            bounds = game.bounds()
            assert set(bounds) == set(names) - {"TreeWinnow"}  # TreeWinnow's bound needs a tree
            for name, b in bounds.items():
                assert game.mistakes[name] <= b, (graph, adversary, name)
    assert issubclass(PoolLimitError, RuntimeError) and LEARNERS["Similarity from class"].slow
    assert game.learners["TreeWinnow"].needs_path and game.specs["TreeWinnow"].setting == "unknown graph"


def test_adaptive_adversary_asks_its_candidates_every_learner_alike():
    from simpred_lite.game.adversaries import ADAPTIVE_CANDIDATES

    class Counting(AlwaysSimilar):
        def __init__(self, n):
            super().__init__(n)
            self.asked = 0

        def _predict(self, i, j, path):
            self.asked += 1
            return 0

    single_class = (nx.cycle_graph(12), [0] * 12)  # AlwaysSimilar is never wrong: every candidate is asked
    for slow, options, expected in ((False, None, ADAPTIVE_CANDIDATES), (True, None, ADAPTIVE_CANDIDATES),
                                    (False, {"candidates": None}, 66)):
        reg = {"c": LearnerSpec("c", lambda G, seed: Counting(G.number_of_nodes()), slow=slow)}
        game = Playground(single_class, ["c"], "adaptive", registry=reg, adversary_options=options)
        game.step()
        assert game.learners["c"].asked == expected + 1  # the candidates, then the trial itself


def test_bst_comparator_norm_matches_the_two_class_identity():
    """||U_B||_F^2 = 4 |Phi^B|^2 for two classes (comparator_matrix's docstring), on random BSTs."""
    from simpred_lite.learners.bounds import bst_comparator_norm_sq

    for graph in ("karate club", "grid", "barbell"):
        game = Playground(graph, ["AlwaysSimilar"], seed=0)
        for seed in range(3):
            B = BinarySupportTree.from_graph(game.G, seed)
            assert bst_comparator_norm_sq(B, game.labels) == 4 * B.cut_size(game.labels) ** 2
            # the same count as comparator_norm_sq on the tree drawn as a networkx graph
            T = nx.relabel_nodes(B.to_networkx(), lambda v: v - 1)
            assert bst_comparator_norm_sq(B, game.labels) == comparator_norm_sq(T, B.propagate_labels(game.labels)[1:])


def test_the_app_shows_the_bst_perceptrons_path():
    app = PlaygroundApp("karate club", ["UnionFindLearner", "BST Perceptron"], "random")
    app.step_button.click()
    axes = app.figure().axes
    assert len(axes) == 3 and axes[1].get_title().startswith("BST path (BST Perceptron)")
    t = app.game.current.trial
    assert app.game.bst_path("BST Perceptron") == app.game.learners["BST Perceptron"].bst.path(t.i, t.j)


@pytest.mark.parametrize(
    "kwargs, match",
    [({"graph": "moon"}, "unknown graph 'moon'"), ({"learners": ["Nope"]}, "unknown learner 'Nope'"),
     ({"adversary": "oracle"}, "unknown adversary 'oracle'")],
)
def test_app_rejects_unknown_settings(kwargs, match):
    with pytest.raises(ValueError, match=match):
        PlaygroundApp(**kwargs)


def test_app_play_stops_when_the_adaptive_target_retires():
    reg_spec = LearnerSpec("quitter", lambda G, seed: GivesUp(G.number_of_nodes(), after=3))
    app = PlaygroundApp("karate club", ["UnionFindLearner"], "random", play_steps=10)
    app.game = Playground("karate club", ["quitter", "UnionFindLearner"], "adaptive", seed=0,
                          registry=registry(quitter=reg_spec))
    records = app.play()
    assert len(records) == 4 and app.status_text.startswith("Played 4 trials.")
    assert "Stopped: the adaptive adversary's target 'quitter' has retired at trial 4" in app.status_text
    reason = app.game.retired["quitter"].split(": ", 1)[1]  # said once, in the last trial's line
    assert app.status_text.count(reason) == 1 and "(reason above)" in app.status_text


def test_app_play_is_disabled_where_it_cannot_act_and_the_figure_keeps_its_size():
    app = PlaygroundApp("karate club", ["UnionFindLearner", "BST Perceptron"], "random")
    assert len(app.learners.options) == app.learners.rows == len(playable())  # every learner visible
    first = _png(app)
    assert not app.play_button.disabled and not app.step_button.disabled
    app.step_button.click()
    assert _png(app)[16:24] == first[16:24]  # PNG width and height unchanged by the first step
    app.adversary.value = "student"
    assert app.play_button.disabled and not app.step_button.disabled
    assert "student adversary is you" in app.play_button.tooltip
    app.adversary.value = "adaptive"
    assert not app.play_button.disabled
    reg_spec = LearnerSpec("quitter", lambda G, seed: GivesUp(G.number_of_nodes(), after=3))
    app.game = Playground("karate club", ["quitter", "UnionFindLearner"], "adaptive", seed=0,
                          registry=registry(quitter=reg_spec))
    app.play()
    assert app.play_button.disabled and app.step_button.disabled  # the target retired: neither can act
    assert app.game.blocked().startswith("the adaptive adversary's target 'quitter' has retired")
    app.game = Playground("karate club", ["quitter"], "random", seed=0, registry=registry(quitter=reg_spec))
    app.play()
    assert app.play_button.disabled and app.step_button.disabled  # finished: everyone retired
    app.reset_button.click()
    assert not app.play_button.disabled and not app.step_button.disabled


def test_play_with_a_progress_bar_leaves_no_bar_behind():
    pytest.importorskip("tqdm")
    game = Playground("barbell", ["AlwaysSimilar"], "random", seed=0)
    assert len(game.play(3, progress=True)) == 3 and len(game.history) == 3
