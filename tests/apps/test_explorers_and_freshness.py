"""The logic behind the teaching widgets, and what the executed notebooks leave in them.

* the functions the widgets explain with (one BST Perceptron trial, a typed path, the stages
  of the Ising reduction) against the learners and theorems they explain;
* the widget apps driven as a student would;
* the stored notebooks: every widget shown to the student is still fresh after the notebook
  ran top to bottom (the scripted cells drive their own copies), read from the saved widget
  state ``metadata.widgets`` — the state the student's page restores.
"""

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from simpred_lite.apps import BSTTrialExplorer, IsingReductionExplorer, PathForestExplorer, explorers
from simpred_lite.bst import BinarySupportTree
from simpred_lite.graphs import planted_partition
from simpred_lite.learners import BSTPerceptron, MatrixPerceptron, PathForest
from simpred_lite.learners.path_forest import parse_path
from simpred_lite.theory.hardness import partition_function, reduction_stages

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


# -- one BST Perceptron trial ----------------------------------------------------------------
def test_explain_is_what_the_learner_computes_and_the_update_it_applies():
    G, y = planted_partition(20, 3, 0.5, 0.1, seed=3)
    B = BinarySupportTree.from_graph(G, seed=2)
    learner, naive = BSTPerceptron(B), MatrixPerceptron(B)
    rng = np.random.default_rng(0)
    for _ in range(60):
        i, j = (int(v) for v in rng.choice(B.n, 2, replace=False))
        e = learner.explain(i, j)
        assert e["path_sum"] == learner.path_sum(i, j) == 2 * naive.score(i, j)
        assert e["prediction"] == learner.predict_one(i, j) == naive.predict_one(i, j)
        assert e["path"][0] == e["leaves"][0] == B.leaf(i) and e["path"][-1] == B.leaf(j)
        assert list(e["path"]) == B.path(i, j) and e["threshold"] == 8 * B.depth**2
        before = {pair: learner.F(*pair) for pair in e["update"]}
        label = int(y[i] != y[j])
        learner.learn_one(i, j, label)
        naive.learn_one(i, j, label)
        sign = label - e["prediction"]
        assert {pair: learner.F(*pair) - before[pair] for pair in e["update"]} == {
            pair: sign * v for pair, v in e["update"].items()}


def test_the_bst_trial_app_presets_the_true_label_and_learns_it():
    B = BinarySupportTree(list(range(8)))
    labels = [0, 0, 0, 0, 1, 1, 1, 1]
    app = BSTTrialExplorer(B, labels)
    assert app.history == [] and app.status_text.startswith("Trials learned: 0, mistakes: 0.")
    app.i.value, app.j.value = 1, 4
    assert app.label.value == 1 and app.explanation["prediction"] == 0
    assert "P_t = [9, 4, 2, 1, 3, 6, 12]" in app.status_text and "0 > 72? no" in app.status_text
    assert app.learn() is True and "a MISTAKE" in app.status_text
    assert app.explanation["path_sum"] == 72 and app.learner.mistakes == 1
    assert "72 > 72? no" in app.status_text  # a tie: the strict comparison still says similar
    assert "F[9, 12] = 36;" in app.status_text and "2 × 36 = 72." in app.status_text  # the one entry on P_t, twice
    assert app.learn() is True and app.explanation["path_sum"] == 144 and "144 > 72? yes" in app.status_text
    assert app.learn() is False and "F is unchanged" in app.status_text
    assert [h["mistake"] for h in app.history] == [True, True, False]
    app.i.value = 0                                  # leaves 8 and 12: F[8, 12] = 2 (1 - 7)^2 after the two mistakes
    assert "F[8, 12] = 50;" in app.status_text and "2 × 50 = 100." in app.status_text
    app.reset()
    assert "F is zero on every pair of P_t." in app.status_text
    app.i.value, app.j.value = 1, 4
    app.j.value = 1
    assert app.explanation is None and app.learn() is None and app.out.outputs == ()



def test_the_bst_trial_app_reports_the_trial_learned_before_the_updated_f():
    """After Learn, the trial just learned (prediction on F before the update) comes first, labelled, and the
    prediction on the updated F after it, labelled as such: never "predicts SIMILAR" followed by "MISTAKE"."""
    app = BSTTrialExplorer(BinarySupportTree(list(range(8))), [0, 0, 0, 0, 1, 1, 1, 1])
    app.i.value, app.j.value = 1, 4
    assert "Now," not in app.status_text and app.status_text.splitlines()[-1].endswith("→ predicts SIMILAR (0).")
    assert app.learn() is True
    lines = app.status_text.splitlines()
    assert lines[0] == "Trials learned: 1, mistakes: 1."
    assert lines[1].startswith("Trial 1, pair (1, 4): path sum 0 > 72? no → predicted SIMILAR (0); "
                               "learned y = 1: a MISTAKE, so F[l, l'] += (1 - 0)"), lines[1]
    assert lines[2].startswith("Now, on the updated F"), lines[2]
    assert lines[-1] == "Sum of F over P_t × P_t = 72; threshold 2R² = 72; 72 > 72? no → would predict SIMILAR (0)."
    assert sum("MISTAKE" in line for line in lines) == 1 and not any("Learned y" in line for line in lines)
    app.learn()
    assert app.learn() is False
    lines = app.status_text.splitlines()
    assert lines[1] == ("Trial 3, pair (1, 4): path sum 144 > 72? yes → predicted DISSIMILAR (1); learned y = 1: "
                        "the prediction was right, F is unchanged.")
    assert lines[2].startswith("Now, on the same F") and lines[-1].endswith("→ would predict DISSIMILAR (1).")
    app.j.value = 5                                   # another pair: no trial of it learned yet, no label
    assert "Trial " not in app.status_text and "Now," not in app.status_text and "→ predicts " in app.status_text
    app.reset()
    assert app.status_text.splitlines()[1].startswith("Reset: F = 0") and "Now," not in app.status_text

def test_the_bst_trial_app_flags_a_label_flipped_against_the_classes():
    app = BSTTrialExplorer(BinarySupportTree(list(range(8))), [0, 0, 0, 0, 1, 1, 1, 1])
    app.i.value, app.j.value = 0, 1                   # same class: the true label is 0
    app.label.value = 1
    app.learn()
    assert "learned y = 1 (flipped: the classes say y = 0): " in app.status_text.splitlines()[1]
    assert app.history[-1]["flipped"] is True
    app.label.value = 0
    app.learn()
    assert "flipped" not in app.status_text.splitlines()[1] and app.history[-1]["flipped"] is False
    plain = BSTTrialExplorer(BinarySupportTree(list(range(8))))  # no classes: nothing to contradict
    plain.i.value, plain.j.value = 0, 1
    plain.label.value = 1
    plain.learn()
    assert "flipped" not in plain.status_text and plain.history[-1]["flipped"] is False


def test_the_bst_trial_app_refuses_a_tree_too_large_to_read():
    """Beyond MAX_N vertices (32 leaves) the leaf numbers overlap: a clear refusal, before any drawing."""
    ok = BSTTrialExplorer(BinarySupportTree(list(range(BSTTrialExplorer.MAX_N))))
    assert ok.bst.num_leaves == 16 and ok.out.outputs != ()
    with pytest.raises(ValueError, match=r"17 graph vertices is too large.*at most 16 vertices.*explain"):
        BSTTrialExplorer(BinarySupportTree(list(range(BSTTrialExplorer.MAX_N + 1))))
    with pytest.raises(ValueError, match="60 graph vertices"):
        BSTTrialExplorer(BinarySupportTree(list(range(60))), labels=[0] * 60)

# -- a typed path, the forest ----------------------------------------------------------------
@pytest.mark.parametrize("text, path", [("0 3 5 2", (0, 3, 5, 2)), ("4 -> 1, 0", (4, 1, 0)), ("2-1", (2, 1)),
                                        ("0 - 3", (0, 3)), ("0- 3-5", (0, 3, 5))])
def test_parse_path_reads_what_a_student_types(text, path):
    assert parse_path(text, 6) == path


@pytest.mark.parametrize("text, error, match", [
    ("0 x 2", ValueError, "'x' is not a vertex number"), ("3", ValueError, "at least two vertices"),
    ("0 1 0", ValueError, "twice"), ("0 9", ValueError, "vertex"), (None, TypeError, "typed as text"),
    ("0 1.5", ValueError, "'1.5' is not a vertex number"),
    # a minus sign is refused, never dropped ("-1 2" is not the path (1, 2))
    ("-1 2", ValueError, "'-1' is not a vertex number: the vertices are 0..5, never negative"),
    ("1 -2", ValueError, "'-2' is not a vertex number"), ("0, -3", ValueError, "'-3' is not a vertex number"),
    ("4 -> -1", ValueError, "'-1' is not a vertex number"), ("- 1 2", ValueError, "'-1' is not a vertex number"),
    # digits of other scripts are refused with a sentence, though str.isdigit accepts them
    ("\u0663 4", ValueError, "'\u0663' is not a vertex number \\(write it with the digits 0-9\\)"),
    ("0 \u00b2", ValueError, "is not a vertex number \\(write it with the digits 0-9\\)"),
    ("0 -\u0663", ValueError, "is not a vertex number"),
])
def test_parse_path_says_what_is_wrong(text, error, match):
    with pytest.raises(error, match=match):
        parse_path(text, 6)


def test_the_forest_app_shows_the_instances_of_path_forest():
    rounds = ["1 0 2", "3 0 1 4", "5 6", "3 5 6 4", "5 3"]  # Figure 7, vertices from 0
    app, forest = PathForestExplorer(7), PathForest(7)
    for t, text in enumerate(rounds, start=1):
        app.path_text.value = text
        app.add_button.click()
        p = parse_path(text, 7)
        x = forest.instance(p[0], p[-1], p)
        assert app.history[-1]["x"] == x[: forest.num_edges].tolist() and app.forest.edges == forest.edges
        assert f"x_{t} = ({', '.join(map(str, app.history[-1]['x']))})" in app.status_text
    assert app.history[0]["x"] == [-1, 1] and app.history[2]["new_edges"] == [(5, 6)]
    app.path_text.value = "5 5"
    app.add_button.click()
    assert len(app.history) == 5 and "Not a path" in app.status_text
    app.reset_button.click()
    assert app.history == [] and app.forest.num_edges == 0



def test_the_forest_app_switches_its_growth_rule_and_replays_the_paths():
    rounds = ["1 0 2", "3 0 1 4", "5 6", "3 5 6 4", "5 3"]  # Figure 7: round 4 is where the two rules differ
    app = PathForestExplorer(7)
    for text in rounds:
        app.path_text.value = text
        app.add_button.click()
    assert app.grow_toggle.value == "disconnected" and app.history[3]["new_edges"] == []
    before = [dict(h) for h in app.history]
    app.grow_toggle.value = "always"
    forest = PathForest(7, grow="always")
    for h, text in zip(app.history, rounds, strict=True):
        p = parse_path(text, 7)
        assert h["x"] == forest.instance(p[0], p[-1], p)[: forest.num_edges].tolist()
    assert app.forest.grow == "always" and app.forest.edges == forest.edges
    assert app.history[3]["new_edges"] == [(3, 5)] and app.history[4]["new_edges"] == []
    assert "Growth rule now grow=\"always\": the 5 revealed paths replayed under it." in app.status_text
    assert "Paths revealed: 5, forest edges: 6." in app.status_text
    # the status lists every round's new edges: the switch shows that 3→5 now joins in round 4
    assert ("New forest edges per round: t = 1: e1 = 0→1, e2 = 0→2; t = 2: e3 = 0→3, e4 = 1→4; "
            "t = 3: e5 = 5→6; t = 4: e6 = 3→5; t = 5: none.") in app.status_text
    app.grow_toggle.value = "disconnected"  # and back: the same forest and instances as before
    assert app.history == before and app.forest.grow == "disconnected"
    assert "t = 4: none; t = 5: e6 = 3→5." in app.status_text  # under this rule 3→5 waits for round 5
    app.reset_button.click()  # reset keeps the chosen rule
    assert app.forest.grow == "disconnected" and app.history == []
    fresh = PathForestExplorer(5, grow="always")
    assert fresh.grow_toggle.value == "always" and fresh.forest.grow == "always"
    fresh.grow_toggle.value = "disconnected"
    assert 'Growth rule now grow="disconnected": no path revealed yet.' in fresh.status_text
    with pytest.raises(ValueError):
        PathForestExplorer(5, grow="sometimes")


@pytest.mark.parametrize("n", [17, 24, 40])
def test_the_forest_app_refuses_an_n_too_large_to_draw_readably(n):
    with pytest.raises(ValueError, match=f"n = {n} is too many vertices for a readable picture: .* at most 16"):
        PathForestExplorer(n)


def _edge_names_clear_of_vertices(app) -> float:
    """The smallest gap (in points) between an edge name's box and a vertex disc of the last picture."""
    fig = app.figure
    fig.canvas.draw()
    ax = fig.axes[0]
    radius = math.sqrt(420) / 2  # node_size is the marker area in points^2
    to_pt = 72 / fig.dpi
    centres = [ax.transData.transform(app.pos[v]) for v in range(app.n)]
    names = [t for t in ax.texts if t.get_text().startswith("e")]
    assert len(names) == app.forest.num_edges, "every forest edge should carry its name"
    gaps = []
    for t in names:
        box = t.get_window_extent()
        for c in centres:  # distance from the disc's centre to the name's box, minus the radius
            dx = max(box.x0 - c[0], 0, c[0] - box.x1)
            dy = max(box.y0 - c[1], 0, c[1] - box.y1)
            gaps.append(math.hypot(dx, dy) * to_pt - radius)
    return min(gaps)


@pytest.mark.parametrize("paths", [
    [" ".join(map(str, range(16)))],  # the longest forest path: around the circle, 15 short edges
    ["0 5 9 13 2 7 11 15 1", "3 8 12 4 6 10 14"],  # chords crossing the circle
])
def test_the_forest_picture_stays_readable_at_the_largest_n(paths):
    app = PathForestExplorer(PathForestExplorer.MAX_N)
    for text in paths:
        app.path_text.value = text
        app.add_button.click()
    assert app.forest.num_edges >= 14 and "Not a path" not in app.status_text
    # at n = 16 every name keeps 4 points clear of the discs; at n = 20 and 24 some overlap them
    assert _edge_names_clear_of_vertices(app) > 2, "an edge name touches a vertex disc at n = 16"
    w, h = app.figure.get_size_inches()
    assert w >= 6 and h >= 6, "the picture for 16 vertices should be drawn large"


@pytest.mark.parametrize("n", [2, 3, 5, 6, 8])
def test_the_forest_app_offers_an_example_path_valid_for_its_n(n):
    app = PathForestExplorer(n)
    example = app.path_text.placeholder.removeprefix("e.g. ")
    assert len(parse_path(example, n)) >= 2, "the example in the path box should be a path on the app's n vertices"
    assert f"(e.g. {example})" in app.status_text, "the status line should give the same example"


def test_enter_in_the_path_box_adds_the_path_once():
    app = PathForestExplorer(6)
    assert app.path_text.continuous_update is False  # the value arrives on Enter, not at every key
    app.path_text.set_state({"value": "0 3 5 2"})  # what the browser sends when the student presses Enter
    assert [h["path"] for h in app.history] == [[0, 3, 5, 2]]
    app.add_button.click()  # the click that moved the focus out of the box: the path is not added twice
    assert len(app.history) == 1
    app.add_button.click()  # a second click adds it again, as Add always does
    assert len(app.history) == 2
    app.path_text.value = "1 4"  # set from Python: only Add reveals it
    assert len(app.history) == 2
    app.add_button.click()
    assert app.history[-1]["path"] == [1, 4]
    app.path_text.set_state({"value": "-1 2"})
    assert len(app.history) == 3 and "'-1' is not a vertex number" in app.status_text


# -- the stages of the Ising reduction -------------------------------------------------------
def test_every_stage_of_the_reduction_keeps_the_identity():
    rng = np.random.default_rng(5)
    graphs = [nx.cycle_graph(4), nx.complete_graph(4)]
    while len(graphs) < 8:
        H = nx.gnp_random_graph(int(rng.integers(3, 7)), 0.6, seed=int(rng.integers(2**31)))
        if nx.is_connected(H):
            graphs.append(H)
    for H in graphs:
        for beta in (1, 2):
            stages = reduction_stages(H, beta)
            assert len(stages) == H.number_of_edges() - H.number_of_nodes() + 2
            for k, s in enumerate(stages):
                assert isinstance(s["Z_path"], Fraction) and s["Z_path"] == s["Z_graph_k"]
                assert len(s["path"]) == 2 * H.number_of_nodes() - 1 + 2 * k
            assert stages[-1]["Z_path"] == partition_function(H, 2 * beta) == stages[0]["Z_graph"]
            if len(stages) > 1:  # a tree alone is not G: the first stage differs from the target
                assert stages[0]["Z_path"] != stages[0]["Z_graph"]


def test_the_reduction_app_steps_and_stops_at_both_ends():
    app = IsingReductionExplorer("complete graph K4", beta=1)
    assert app.stage == 0 and app.back_button.disabled and not app.next_button.disabled
    for _ in range(10):
        app.next_button.click()
    assert app.stage == len(app.stages) - 1 == 3 and app.next_button.disabled
    assert "Last stage" in app.status_text and ": equal." in app.status_text
    app.beta.value = 3  # keeps the stage, recomputes the values
    assert app.stage == 3 and app.stages[3]["Z_path"] == partition_function(nx.complete_graph(4), 6)
    app.graph.value = "triangle"
    assert app.stage == 0 and len(app.stages) == 2
    with pytest.raises(ValueError, match="unknown graph"):
        IsingReductionExplorer("moon")


@pytest.mark.parametrize("beta", [0, -1, 5, 100, "2", "x", 2.5])
def test_the_reduction_app_refuses_a_beta_out_of_range_with_a_sentence(beta):
    app = IsingReductionExplorer("triangle", beta=2)
    with pytest.raises(ValueError, match="β must be one of \\[1, 2, 3, 4\\]"):
        app.beta.value = beta
    assert app.beta.value == 2 and "Not changed: β must be one of [1, 2, 3, 4]" in app.status.value
    app.beta.value = 2 if beta != 2 else 3  # a later valid value still works
    app.beta.value = 4
    assert app.stages[-1]["Z_path"] == partition_function(nx.cycle_graph(3), 8)


@pytest.mark.parametrize("beta", [5, 0, "x", 2.5, None])
def test_the_reduction_app_refuses_every_bad_beta_the_same_way_in_its_status(beta):
    app = IsingReductionExplorer("triangle", beta=1)
    app.next_button.click()
    before = (app.stage, [s["Z_path"] for s in app.stages], app.out.outputs)
    with pytest.raises(ValueError, match=r"^β must be one of \[1, 2, 3, 4\]"):  # from code, None too
        app.beta.value = beta
    assert app.status_text.startswith(f"Not changed: β must be one of [1, 2, 3, 4], got {beta!r}; "
                                      "the choice stays 1."), f"no refusal sentence for β = {beta!r}"
    assert app.beta.value == 1 and (app.stage, [s["Z_path"] for s in app.stages], app.out.outputs) == before, \
        f"β = {beta!r} changed the stage, the stages or the figure"


def test_the_reduction_app_status_names_the_graph_g_k_of_each_stage():
    app = IsingReductionExplorer("triangle", beta=2)
    assert "Z of G₀ = T + the edges spliced so far, at 2β = 4: " in app.status_text, app.status_text
    app.next_button.click()
    assert "Z of G₁ = T + the edges spliced so far, at 2β = 4: " in app.status_text, app.status_text
    assert "Z_(T" not in app.status_text, "the old ad-hoc subscript is gone"


def test_the_reduction_app_takes_a_typed_edge_list_to_the_identity():
    app = IsingReductionExplorer("triangle", beta=2)
    app.edges_text.value = "0-1 1-2 2-0 2-3, 3-4 4-0"
    app.use_button.click()
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 0)])
    assert nx.utils.graphs_equal(app.G, G) and app.stage == 0 and len(app.stages) == 3
    while not app.next_button.disabled:
        app.next_button.click()
    assert app.stages[-1]["Z_path"] == partition_function(G, 4) != partition_function(nx.cycle_graph(3), 4)
    assert "your edge list" in app.status_text and ": equal." in app.status_text
    app.graph.value = "complete graph K4"   # the list of graphs takes over again
    assert nx.utils.graphs_equal(app.G, nx.complete_graph(4)) and app.stage == 0


def test_the_reduction_app_shows_a_typed_graph_in_the_list_so_any_listed_graph_is_a_change():
    app = IsingReductionExplorer("the 5-vertex graph of this notebook", beta=1)
    app.edges_text.value = "0-1 1-2 2-0 2-3"
    app.use_button.click()
    assert app.graph.value == IsingReductionExplorer.TYPED == "(your edge list)", \
        "while a typed graph is in use the list should show '(your edge list)'"
    assert "your edge list" in app.status_text and app.G.number_of_nodes() == 4
    app.next_button.click()
    app.graph.value = "the 5-vertex graph of this notebook"   # the entry shown before: now a real change
    assert nx.utils.graphs_equal(app.G, IsingReductionExplorer.GRAPHS["the 5-vertex graph of this notebook"]), \
        "choosing the graph the list showed before the typed one should bring it back"
    assert app.stage == 0 and "Graph G = the 5-vertex graph of this notebook" in app.status_text
    app.graph.value = IsingReductionExplorer.TYPED   # choosing the entry uses the typed edge list again
    assert app.graph.value == IsingReductionExplorer.TYPED and app.G.number_of_nodes() == 4
    assert "your edge list: 0-1" in app.status_text


def test_the_reduction_app_refuses_its_typed_entry_without_a_valid_edge_list_and_keeps_its_graph():
    app = IsingReductionExplorer("triangle", beta=1)
    app.graph.value = IsingReductionExplorer.TYPED   # nothing typed yet
    assert app.graph.value == "triangle" and nx.utils.graphs_equal(app.G, nx.cycle_graph(3)), \
        "without a valid edge list the list should go back to the graph shown"
    assert app.status_text.startswith("Not used: ") and "edge list is empty" in app.status_text
    assert "Graph G = triangle" in app.status_text
    with pytest.raises(ValueError, match="unknown graph"):
        IsingReductionExplorer(IsingReductionExplorer.TYPED)   # nothing typed to start from


@pytest.mark.parametrize("action", ["use", "beta", "next", "choice"])
def test_the_reduction_app_says_computing_while_it_rebuilds_or_redraws(action, monkeypatch):
    app = IsingReductionExplorer("square with a diagonal", beta=1)
    seen = []
    stages, render = explorers.reduction_stages, app._render
    app._render = lambda s: (seen.append(app.status.value), render(s))[1]
    monkeypatch.setattr(explorers, "reduction_stages", lambda *a: (seen.append(app.status.value), stages(*a))[1])
    if action == "use":
        app.edges_text.value = "0-1, 1-2 2-0"
        app.use_button.click()
    elif action == "beta":
        app.beta.value = 3
    elif action == "next":
        app.next_button.click()
    else:
        app.graph.value = "triangle"
    assert seen and all("Computing…" in v for v in seen), \
        "the status should say 'Computing…' while the stages are built and while the figure is drawn"
    assert len(seen) == (1 if action == "next" else 2)
    assert "Computing…" not in app.status.value and "Stage " in app.status_text, \
        "once the figure is drawn the status should describe the stage, without 'Computing…'"


def test_the_reduction_app_tooltip_names_the_separators_it_accepts():
    app = IsingReductionExplorer()
    assert "spaces or commas" in app.edges_text.tooltip
    app.edges_text.value = "0-1,1-2,2-0"
    assert app.use_edges() and nx.utils.graphs_equal(app.G, nx.cycle_graph(3))


@pytest.mark.parametrize("text, sentence", [
    ("", "edge list is empty"),
    ("   ", "edge list is empty"),
    ("a-b", "'a-b' is not an edge"),
    ("0-1 1-x", "'1-x' is not an edge"),
    ("0-1 1", "'1' is not an edge"),
    ("0-1 1-1", "1-1 is a self-loop"),
    ("0-1 1-2 2-1", "the edge 2-1 is listed twice"),
    ("0-1 2-3", "is not connected"),
    ("0-1 1-3", "is not connected"),   # vertex 2 is never reached
    ("1-2 2-3 3-1", "vertices are numbered from 0; vertex 0 has no edge"),   # a triangle numbered from 1
    ("1-2 3-4", "vertices are numbered from 0; vertex 0 has no edge"),
    ("0-1 1-8", "vertex 8 is too large; use at most 8 vertices"),
    ("0-1 1-2 2-3 3-4 4-5 5-6 6-7 7-0 0-2 0-3 0-4 0-5 0-6", "13 edges, too many; use at most 12"),
])
def test_the_reduction_app_refuses_a_bad_edge_list_with_a_sentence_and_keeps_its_graph(text, sentence):
    app = IsingReductionExplorer("square with a diagonal", beta=1)
    app.next_button.click()
    before = (app.G, app.stage, [s["Z_path"] for s in app.stages])
    app.edges_text.value = text
    app.use_button.click()
    assert app.status_text.startswith("Not used: ") and sentence in app.status_text
    assert (app.G, app.stage, [s["Z_path"] for s in app.stages]) == before
    assert "square with a diagonal" in app.status_text   # the status still describes the graph shown


# -- the executed notebooks: widgets shown to the student are fresh --------------------------
#: What each app shows before anyone touched it (a value of one of its HTML widgets).
FRESH = {
    "SimilarityGame": "Pick two vertices, press <b>Predict</b>",
    "MergeSortLearnerApp": "Question 1:",
    "PermutationAdversaryApp": "Pick a, b and press <b>Ask the learner</b>",
    "GraphAdversaryApp": "Pick i, j and press <b>Ask the learner</b>",
    "PlaygroundApp": "<b>trials: 0 |",
    "BSTTrialExplorer": "Trials learned: 0, mistakes: 0.",
    "PathForestExplorer": "Paths revealed: 0, forest edges: 0.",
    "IsingReductionExplorer": "Stage 0 of ",
    "ResistanceCutExplorer": "Class 1 = {5, 6, 7, 8}; class 0 = the other 5 vertices.",
    "WilsonWalkExplorer": "Moves: 0; walks finished: 0 of ",
    "BSTBuildExplorer": "Stage 0 of ",
    "ReductionExplorer": "Trials: 0; master mistakes M = 0",
    "MatrixLearnerExplorer": "Trials: 0; mistakes M = 0",
    "YourDataExplorer": "Choose the learners (Ctrl/Shift-click for several) and press <b>Run</b>.",
}


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _displayed_widgets(nb):
    """(cell index, variable name, app class, model id) of each widget a cell displays."""
    for k, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW in data and out["output_type"] == "execute_result":
                text = "".join(data.get("text/plain", ""))
                name = _source(cell).strip().splitlines()[-1].strip()
                yield k, name, text.split(":")[0], data[WIDGET_VIEW]["model_id"]


def _exercise_start(nb):
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown" and _source(cell).lstrip().startswith("## Exercises"):
            return k
    return len(nb["cells"])


def _html_values(state, model_id):
    """The values of every HTML widget inside the widget ``model_id`` (children, recursively)."""
    model = state[model_id]
    values = [model["state"].get("value", "")] if model["model_name"] == "HTMLModel" else []
    for child in model["state"].get("children", []):
        values += _html_values(state, child.removeprefix("IPY_MODEL_"))
    return values


NB_WITH_WIDGETS = [p for p in NOTEBOOKS if WIDGET_VIEW in p.read_text()]


@pytest.mark.parametrize("path", NB_WITH_WIDGETS, ids=[p.stem[:2] for p in NB_WITH_WIDGETS])
def test_no_body_cell_drives_the_widget_shown_to_the_student(path):
    nb = json.loads(path.read_text())
    end = _exercise_start(nb)
    for k, name, _, _ in _displayed_widgets(nb):
        assert name.isidentifier(), f"cell {k} should end with the name of the widget it shows, not {name!r}"
        verbs = "predict|reveal|ask|answer|step|play|reset|learn|add|go"
        drive = re.compile(rf"\b{name}\.[\w.]*(click\(|value\s*[=,]|({verbs})\()")
        for m in range(k + 1, end):
            assert not drive.search(_source(nb["cells"][m])), (
                f"{path.name}: cell {m} drives {name!r}, the widget shown to the student in cell {k}; "
                "drive a copy (demo = ...) instead")


@pytest.mark.parametrize("path", NB_WITH_WIDGETS, ids=[p.stem[:2] for p in NB_WITH_WIDGETS])
def test_the_saved_widget_state_shows_fresh_widgets_and_no_progress_bars(path):
    nb = json.loads(path.read_text())
    state = nb["metadata"]["widgets"][WIDGET_STATE]["state"]
    bars = {k for k, m in state.items() if m["model_name"] in ("FloatProgressModel", "IntProgressModel")}
    for m in state.values():  # a bar left on the saved page would show whatever it showed last
        children = {c.removeprefix("IPY_MODEL_") for c in m["state"].get("children", [])}
        if children & bars:
            layout = state[m["state"]["layout"].removeprefix("IPY_MODEL_")]["state"]
            assert layout.get("display") == "none", f"{path.name}: a progress bar is left visible in the saved state"
            bars -= children
    assert not bars, f"{path.name}: a progress bar is saved outside a hidden container"
    shown = list(_displayed_widgets(nb))
    assert shown
    for k, _name, kind, model_id in shown:  # exercises build their own instances too
        assert kind in FRESH, f"{path.name}: add the fresh marker of {kind} to FRESH"
        values = _html_values(state, model_id)
        assert any(FRESH[kind] in v for v in values), (
            f"{path.name}: the {kind} shown in cell {k} is not fresh after Run All: {values}")


def _segments_cross(p, q, r, s) -> bool:
    """Whether the segments pq and rs cross at a point inside both (shared end vertices do not count)."""
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2, d3, d4 = orient(r, s, p), orient(r, s, q), orient(p, q, r), orient(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


@pytest.mark.parametrize("paths", [
    ["0 8 15 7", "3 11 4 12 5", "9 1 10 2 13 6 14"],  # the reviewer's picture: three trees, long edges on a circle
    ["0 5 9 13 2 7 11 15 1", "3 8 12 4 6 10 14"],
    ["1 0 2", "3 0 1 4", "5 6", "3 5 6 4", "5 3"],
])
def test_the_forest_is_drawn_tree_by_tree_without_crossings(paths):
    app = PathForestExplorer(PathForestExplorer.MAX_N)
    for text in paths:
        app.path_text.value = text
        app.add_button.click()
    pos, edges = app.pos, app.forest.edges
    assert len(set(pos.values())) == app.n, "two vertices share a position"
    for k, (a, b) in enumerate(edges):
        for c, d in edges[k + 1:]:
            if len({a, b, c, d}) == 4:
                assert not _segments_cross(pos[a], pos[b], pos[c], pos[d]), f"edges {a}-{b} and {c}-{d} cross"
    lone = [v for v in range(app.n) if all(v not in e for e in edges)]
    in_trees = [v for v in range(app.n) if v not in lone]
    assert all(pos[v][1] < min(pos[u][1] for u in in_trees) for v in lone), "lone vertices go in a row below the trees"
    assert _edge_names_clear_of_vertices(app) > 2, "an edge name touches a vertex disc"


def test_bst_trial_explorer_keeps_the_last_mistake_after_the_pair_changes():
    app = BSTTrialExplorer(BinarySupportTree(list(range(8))), [0, 0, 0, 0, 1, 1, 1, 1])
    assert "Last mistake" not in app.status_text
    app.i.value, app.j.value = 2, 5
    S = list(app.explanation["S"])
    assert app.learn() is True
    app.i.value, app.j.value = 0, 6           # another pair: its own P_t / S_t, and the learned trial's S_s
    assert f"Last mistake: pair (2, 5), S_s = {S}." in app.status_text.splitlines()[1]
    app.reset()
    assert "Last mistake" not in app.status_text
