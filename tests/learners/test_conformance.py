"""One conformance suite run over every learner of ``simpred_lite.learners``.

In the spirit of river's and scikit-learn's ``check_estimator``: whatever a learner does
inside, it must follow the protocol the same way — predicting never changes it, ``learn_one``
counts exactly the mistakes of its own predictions, a fresh learner has seen nothing, two
learners given the same sequence agree, bad vertices and labels are refused with the right
exception, and its ``repr`` is short and stable.  Adding a learner to ``learners.__all__``
without a factory below fails ``test_every_learner_has_a_factory``.
"""

import copy
import inspect
import re

import networkx as nx
import numpy as np
import pytest

import simpred_lite.learners as learners
from simpred_lite.bst import BinarySupportTree
from simpred_lite.game.trials import random_walk_trials
from simpred_lite.graphs import cut_size, planted_partition

G, LABELS = planted_partition(12, 3, 0.7, 0.15, seed=5)
N = G.number_of_nodes()
K = int(LABELS.max()) + 1
BST = BinarySupportTree.from_graph(G, seed=1)
# the halving learner's concept class: 2-class labelings of the path 0..N-1 with one cut edge
H5 = learners.labelings_with_small_cut(nx.path_graph(N), K=2, max_cut=1)
# the labelings of G with no larger cut than the true one: a concept class holding the truth
H_SMALL_CUT = learners.labelings_with_small_cut(G, K=K, max_cut=cut_size(G, LABELS))

SIMILARITY_FACTORIES = {
    "AlwaysSimilar": lambda: learners.AlwaysSimilar(N),
    "UnionFindLearner": lambda: learners.UnionFindLearner(N),
    "SimilarityFromClassifier": lambda: learners.SimilarityFromClassifier(
        lambda: learners.HalvingClassifier(H_SMALL_CUT, K=K), K, max_histories=10**6
    ),
    "TreeWinnow": lambda: learners.TreeWinnow(N),
    "RNormPerceptron": lambda: learners.RNormPerceptron(N),
    "RNormPerceptronReference": lambda: learners.RNormPerceptronReference(N),
    "MatrixPerceptron": lambda: learners.MatrixPerceptron(G),
    "MatrixWinnow": lambda: learners.MatrixWinnow(G, cut_size=cut_size(G, LABELS)),
    "MatrixPerceptronReference": lambda: learners.MatrixPerceptronReference(G),
    "LowRankMatrixWinnow": lambda: learners.LowRankMatrixWinnow(G, cut_size=cut_size(G, LABELS)),
    "MatrixWinnowReference": lambda: learners.MatrixWinnowReference(G, cut_size=cut_size(G, LABELS)),
    "BSTPerceptron": lambda: learners.BSTPerceptron(BST),
}
CLASS_FACTORIES = {
    "GraphPerceptron": lambda: learners.GraphPerceptron(G),
    "GraphPerceptronReference": lambda: learners.GraphPerceptronReference(G),
    "HalvingClassifier": lambda: learners.HalvingClassifier(H5),
    "MemorizingClassifier": lambda: learners.MemorizingClassifier(N, K),
    "OneVsRest": lambda: learners.OneVsRest(lambda: learners.GraphPerceptron(G), K=K),
    "ClassifierFromSimilarity": lambda: learners.ClassifierFromSimilarity(learners.UnionFindLearner(N), K),
}

# The paired permutation learners (learners/permutations.py) live on K² pattern vertices, not
# on a graph: test_lowerbound.py and test_widgets_games.py check them on their own problem.
ON_PATTERNS = {"TransitiveOrderLearner", "HalvingPermutationLearner", "PairedPermutationClassifier"}


def _learner_classes():
    for name in learners.__all__:
        obj = getattr(learners, name)
        if (
            inspect.isclass(obj)
            and issubclass(obj, (learners.SimilarityLearner, learners.ClassLearner))
            and not inspect.isabstract(obj)
        ):
            yield name


def test_every_learner_has_a_factory():
    missing = set(_learner_classes()) - set(SIMILARITY_FACTORIES) - set(CLASS_FACTORIES) - ON_PATTERNS
    assert not missing, f"add these learners to the conformance suite: {sorted(missing)}"


# -- similarity learners ------------------------------------------------------------------------
TRIALS = random_walk_trials(G, LABELS, 60, seed=3)


def _args(learner, t):
    return (t.i, t.j), {"path": t.path} if getattr(learner, "needs_path", False) else {}


def _play(learner, trials=TRIALS):
    predictions = []
    for t in trials:
        pair, kw = _args(learner, t)
        predictions.append(learner.predict_one(*pair, **kw))
        learner.learn_one(*pair, t.y, **kw)
    return predictions


@pytest.fixture(params=sorted(SIMILARITY_FACTORIES))
def make(request):
    return SIMILARITY_FACTORIES[request.param]


def test_a_fresh_learner_has_seen_nothing(make):
    learner = make()
    assert learner.mistakes == 0 and learner.trials == 0
    assert learner.n == N


def test_learn_one_counts_exactly_the_mistakes_of_its_predictions(make):
    learner = make()
    predictions = _play(learner)
    wrong = sum(p != t.y for p, t in zip(predictions, TRIALS))
    assert learner.mistakes == wrong and learner.trials == len(TRIALS)
    assert set(predictions) <= {0, 1} and all(type(p) is int for p in predictions)


def test_predicting_never_changes_the_learner(make):
    learner = make()
    for t in TRIALS[:30]:
        pair, kw = _args(learner, t)
        first = learner.predict_one(*pair, **kw)
        probe = TRIALS[-1]  # a prediction on another pair in between changes nothing either
        learner.predict_one(*_args(learner, probe)[0], **_args(learner, probe)[1])
        assert learner.predict_one(*pair, **kw) == first
        learner.learn_one(*pair, t.y, **kw)
    snapshot = (learner.mistakes, learner.trials)
    for t in TRIALS:
        learner.predict_one(*_args(learner, t)[0], **_args(learner, t)[1])
    assert (learner.mistakes, learner.trials) == snapshot


def test_same_sequence_same_predictions(make):
    assert _play(make()) == _play(make())


def test_a_deep_copy_is_independent(make):
    learner = make()
    _play(learner, TRIALS[:20])
    twin = copy.deepcopy(learner)
    rest = TRIALS[20:]
    assert _play(learner, rest) == _play(twin, rest)


@pytest.mark.parametrize(
    "i, j, error",
    [(-1, 0, ValueError), (0, N, ValueError), (1.5, 0, TypeError), (True, 0, TypeError), (2, 2, ValueError)],
)
def test_bad_vertices_are_refused(make, i, j, error):
    learner = make()
    path = {"path": [0, 1]} if getattr(learner, "needs_path", False) else {}
    with pytest.raises(error):
        learner.predict_one(i, j, **path)
    assert learner.trials == 0


@pytest.mark.parametrize("y, error", [(2, ValueError), (-1, ValueError), (0.5, TypeError), ("1", TypeError)])
def test_bad_labels_are_refused(make, y, error):
    learner = make()
    t = TRIALS[0]
    pair, kw = _args(learner, t)
    with pytest.raises(error):
        learner.learn_one(*pair, y, **kw)
    assert learner.trials == 0 and learner.mistakes == 0


def test_repr_is_short_and_stable(make):
    learner = make()
    _play(learner, TRIALS[:5])
    text = repr(learner)
    assert text.startswith(type(learner).__name__) and len(text) < 200
    assert not re.search(r"0x[0-9a-f]{6,}", text)
    assert text == repr(learner)


# -- class learners -------------------------------------------------------------------------------
VERTICES = np.random.default_rng(4).integers(N, size=60).tolist()


def _class_labels(clf):
    return LABELS if clf.K is None or clf.K >= K else (np.arange(N) >= N // 2).astype(int)


def _play_classes(clf, xs=VERTICES):
    y = _class_labels(clf)
    out = []
    for x in xs:
        out.append(clf.predict_class(x))
        clf.learn_class(x, int(y[x]))
    return out


@pytest.fixture(params=sorted(CLASS_FACTORIES))
def make_class(request):
    return CLASS_FACTORIES[request.param]


def test_class_learners_follow_the_protocol(make_class):
    clf = make_class()
    assert clf.mistakes == 0 and clf.trials == 0 and clf.n == N
    predictions = _play_classes(clf)
    y = _class_labels(clf)
    assert clf.mistakes == sum(p != y[x] for p, x in zip(predictions, VERTICES))
    assert _play_classes(make_class()) == predictions
    snapshot = (clf.mistakes, clf.trials)
    assert [clf.predict_class(v) for v in range(N)] == [clf.predict_class(v) for v in range(N)]
    assert (clf.mistakes, clf.trials) == snapshot


def test_class_learner_clones_are_independent(make_class):
    clf = make_class()
    _play_classes(clf, VERTICES[:20])
    twin = clf.clone()
    assert _play_classes(clf, VERTICES[20:]) == _play_classes(twin, VERTICES[20:])


BAD_CLASS_INPUT = [
    (-1, 0, ValueError), (N, 0, ValueError), (0.0, 0, TypeError), (0, -1, ValueError), (0, 1.0, TypeError),
]


@pytest.mark.parametrize("x, y, error", BAD_CLASS_INPUT)
def test_class_learners_refuse_bad_input(make_class, x, y, error):
    clf = make_class()
    with pytest.raises(error):
        clf.learn_class(x, y)
    assert clf.trials == 0 and clf.mistakes == 0
