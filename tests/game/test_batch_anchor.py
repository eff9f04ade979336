"""The batch anchor: scikit-learn's LabelSpreading as a similarity learner, in both settings."""

import networkx as nx
import numpy as np
import pytest

from simpred_lite import evaluate, evaluate_sweep
from simpred_lite.game import BatchLabelSpreading, label_spreading_anchor, random_trials
from simpred_lite.graphs import barbell_graph, planted_partition


def _play(learner, trials):
    preds = []
    for t in trials:
        preds.append(learner.predict_one(t.i, t.j))
        learner.learn_one(t.i, t.j, t.y)
    return preds


def test_class_setting_spreads_the_revealed_classes_over_the_graph():
    G, y = barbell_graph(6)
    ls = BatchLabelSpreading(G, told="classes", labels=y, refit_every=1)
    ls.learn_one(0, 11, 1)           # one vertex of each clique revealed
    # every unrevealed vertex takes the class of its own clique
    assert ls.predict_one(2, 4) == 0, "two vertices of the first clique should be predicted similar"
    assert ls.predict_one(7, 9) == 0, "two vertices of the second clique should be predicted similar"
    assert ls.predict_one(2, 9) == 1, "vertices of different cliques should be predicted dissimilar"
    assert ls.fits == 1


def test_similarity_setting_knows_only_what_similar_pairs_chain():
    G, y = barbell_graph(6)
    ls = BatchLabelSpreading(G, told="similarity", refit_every=1)
    ls.learn_one(0, 11, 1)           # dissimilar: two singleton groups, spread over their cliques
    assert ls.predict_one(2, 4) == 0 and ls.predict_one(2, 9) == 1, \
        "unrevealed vertices should take the group of the nearest revealed vertex"
    ls.learn_one(1, 2, 0)            # joins group {1, 2}; 0 stays apart (no similar pair links it)
    assert ls.predict_one(1, 2) == 0, "a revealed similar pair should be predicted similar"
    assert ls.predict_one(0, 1) == 1, "groups not joined by a similar pair are different labels"
    ls.learn_one(0, 1, 0)            # merges the groups: followed at once, no refit needed
    assert ls.predict_one(0, 2) == 0, "a merge of groups should count at once"


def test_before_any_fit_unknown_vertices_are_predicted_dissimilar():
    G, y = barbell_graph(5)
    ls = BatchLabelSpreading(G, told="classes", labels=y, refit_every=50)
    assert ls.predict_one(3, 4) == 1, "with nothing revealed a pair should be predicted dissimilar"
    ls.learn_one(0, 1, 0)
    assert ls.predict_one(0, 1) == 0, "revealed classes count before the first fit"
    assert ls.predict_one(0, 3) == 1 and ls.fits == 0


def test_deterministic_and_the_class_oracle_helps_on_a_block_model():
    G, y = planted_partition(120, 3, 0.3, 0.01, seed=4)
    trials = random_trials(G, y, 600, 1)
    runs = {}
    for told in ("classes", "similarity"):
        a = _play(BatchLabelSpreading(G, told=told, labels=y if told == "classes" else None, refit_every=50), trials)
        b = _play(BatchLabelSpreading(G, told=told, labels=y if told == "classes" else None, refit_every=50), trials)
        assert a == b, f"two runs of the {told} setting on the same trials should predict the same"
        runs[told] = sum(p != t.y for p, t in zip(a, trials))
    uf = evaluate(["UnionFindLearner"], G, y, trials=trials)["UnionFindLearner"].mistakes
    # told the classes of 3 well-separated blocks it should need far fewer mistakes than UnionFind,
    # which learns only from the similar pairs
    assert runs["classes"] < uf / 2, "told the classes, LabelSpreading should beat UnionFind by far"
    assert runs["similarity"] <= uf + len(trials) // 10, "told only similarity, it should be near UnionFind"


def test_evaluate_and_sweep_flag_what_the_anchor_is_given():
    G, y = planted_partition(60, 2, 0.3, 0.02, seed=0)
    anchors = [label_spreading_anchor("classes", 25), label_spreading_anchor("similarity", 25)]
    ev = evaluate(anchors, G, y, T=100, seed=3)
    rows = {r["learner"]: r for r in ev.records()}
    assert rows["LabelSpreading, classes (batch, refit 25)"]["given"] == "graph, true classes of revealed vertices"
    assert rows["LabelSpreading, similarity (batch, refit 25)"]["given"] == "graph"
    assert all(r["bound"] is None for r in rows.values())
    one = evaluate_sweep(anchors, {"sbm": (G, y)}, seeds=[0, 1], T=100, n_jobs=1)
    two = evaluate_sweep(anchors, {"sbm": (G, y)}, seeds=[0, 1], T=100, n_jobs=2)
    keys = ("graph", "seed", "learner", "given", "mistakes")
    assert [tuple(r[k] for k in keys) for r in one.records] == [tuple(r[k] for k in keys) for r in two.records]


@pytest.mark.parametrize("kwargs, err, words", [
    ({"told": "labels"}, ValueError, "told must be one of"),
    ({"told": 1}, TypeError, "told must be one of"),
    ({"told": "classes"}, ValueError, "needs labels"),
    ({"told": "similarity", "labels": [0, 1, 0, 1]}, ValueError, "labels=None"),
    ({"told": "similarity", "refit_every": 0}, ValueError, "refit_every"),
    ({"told": "similarity", "alpha": 1.0}, ValueError, "alpha"),
    ({"told": "classes", "labels": [0, 1]}, ValueError, "labels"),
])
def test_bad_input_names_the_argument(kwargs, err, words):
    with pytest.raises(err, match=words):
        BatchLabelSpreading(nx.path_graph(4), **kwargs)


def test_bad_graph_and_bad_spec_arguments():
    with pytest.raises(TypeError, match="undirected networkx.Graph"):
        BatchLabelSpreading(nx.DiGraph([(0, 1)]), told="similarity")
    with pytest.raises(ValueError, match="0 .. n-1"):
        BatchLabelSpreading(nx.path_graph(["a", "b", "c"]), told="similarity")
    with pytest.raises(ValueError, match="told must be one of"):
        label_spreading_anchor("oracle")
    with pytest.raises(ValueError, match="refit_every"):
        label_spreading_anchor("classes", -1)
    assert np.array_equal(BatchLabelSpreading.for_graph(nx.path_graph(3), 0, [0, 0, 1])._labels, [0, 0, 1])
