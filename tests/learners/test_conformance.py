"""One conformance suite run over every learner the registry discovers: ``check_learner``.

In the spirit of river's ``check_estimator``: whatever a learner does inside, it follows the
protocol the same way (see :func:`simpred_lite.learners.check_learner` for the checks).  The
learners come from the registry, which discovers them from ``simpred_lite.learners``: a new
learner class is checked without being listed here.
"""

import inspect
import pickle

import numpy as np
import pytest

import simpred_lite.learners as learners
from simpred_lite.game import Playground, evaluate
from simpred_lite.graphs import barbell_graph, planted_partition
from simpred_lite.learners import (
    LEARNERS,
    AlwaysSimilar,
    LearnerGaveUp,
    MatrixPerceptron,
    SimilarityLearner,
    UnionFindLearner,
    available,
    check_learner,
    resolve,
)
from simpred_lite.learners.registry import LearnerSpec


def _learner_classes():
    for name in learners.__all__:
        obj = getattr(learners, name)
        if (inspect.isclass(obj) and issubclass(obj, (learners.SimilarityLearner, learners.ClassLearner))
                and not inspect.isabstract(obj)):
            yield obj


def test_the_registry_discovers_every_learner_class():
    discovered = {spec.cls for spec in LEARNERS.values() if spec.cls is not None}
    assert set(_learner_classes()) == discovered
    assert len(discovered) >= 18  # 15 were checked by hand before, 7 learners were not covered


@pytest.mark.parametrize("name", sorted(name for name, spec in LEARNERS.items() if spec.cls is not None))
def test_check_learner_passes_on_every_discovered_learner(name):
    report = check_learner(LEARNERS[name].cls)  # raises AssertionError listing any failed check
    assert report.ok and len(report.rows) == 8
    for check, result in report.rows:  # a skipped check says why
        assert result == "ok" or result.startswith("ok (") or result.startswith("skipped: "), (check, result)
    if LEARNERS[name].has_bound and name != "ClassifierFromSimilarity":
        assert dict(report.rows)["bound: adaptive"].startswith("ok ("), report


def test_every_bound_is_checked_somewhere():
    """Every learner that states a bound has it asserted on both sequences by check_learner."""
    with_bound = [spec.cls for spec in LEARNERS.values() if spec.cls is not None and spec.has_bound]
    assert {c.__name__ for c in with_bound} >= {"UnionFindLearner", "MatrixPerceptron", "MatrixWinnow",
                                                "BSTPerceptron", "RNormPerceptron", "SimilarityFromClassifier",
                                                "GraphPerceptron", "HalvingPermutationLearner"}


class _ChangesWhenPredicting(SimilarityLearner):
    def _predict(self, i, j, path):
        self.mistakes += 1  # a bug: predicting must not change the learner
        return 0

    def _learn(self, i, j, y, y_hat, path):
        pass


class _TooManyMistakes(AlwaysSimilar):
    def mistake_bound(self, G, labels):
        return 1.0  # a wrong bound: AlwaysSimilar errs on every dissimilar pair


class _Unseeded(SimilarityLearner):
    def __init__(self, n):
        super().__init__(n)
        self.rng = np.random.default_rng()  # not seeded: two fresh learners disagree

    def _predict(self, i, j, path):
        return int(self.rng.integers(2))

    def _learn(self, i, j, y, y_hat, path):
        pass


@pytest.mark.parametrize("cls, check", [(_ChangesWhenPredicting, "protocol"), (_TooManyMistakes, "bound: random"),
                                        (_Unseeded, "determinism")])
def test_check_learner_catches_a_broken_learner(cls, check):
    with pytest.raises(AssertionError, match="FAILED"):
        check_learner(cls)
    report = check_learner(cls, raise_on_failure=False)
    assert not report.ok and dict(report.rows)[check].startswith("FAILED"), report


def test_check_learner_on_a_student_object_and_its_graph():
    G, y = barbell_graph(5)
    report = check_learner(UnionFindLearner(G.number_of_nodes()), G, y)
    assert report.ok and dict(report.rows)["bound: adaptive"].startswith("ok (")
    with pytest.raises(ValueError, match="pass the graph"):
        check_learner(UnionFindLearner(10))
    with pytest.raises(TypeError, match="neither a similarity learner"):
        check_learner(int)


def test_clone_is_a_fresh_learner_with_the_same_parameters():
    uf = UnionFindLearner(5, default=0)
    uf.learn_one(0, 1, 1)
    twin = uf.clone()
    assert (twin.n, twin.default, twin.mistakes, twin.trials) == (5, 0, 0, 0) and uf.mistakes == 1
    G, y = planted_partition(6, 2, 0.8, 0.2, seed=1)
    clf = learners.OneVsRest.for_graph(G, 0, y)
    clf.learn_class(0, 1)
    fresh = clf.clone()
    assert fresh.mistakes == 0 and fresh.K == clf.K and fresh.binary_mistakes == {}
    copied = clf.copy()  # the state copy the reduction uses
    assert copied.mistakes == clf.mistakes and copied.binary_mistakes == clf.binary_mistakes
    assert pickle.loads(pickle.dumps(clf)).binary_mistakes == clf.binary_mistakes


# -- the one resolver ------------------------------------------------------------------------------
def test_resolve_names_classes_and_instances_alike():
    G, y = planted_partition(6, 2, 0.8, 0.2, seed=1)
    by_name, by_class_name = resolve("Matrix Perceptron"), resolve("MatrixPerceptron")
    by_class = resolve(MatrixPerceptron)
    assert by_name is by_class_name is by_class
    bound = by_class.bound_for(G, y, by_class.build(G, 0, y))
    assert bound is not None and bound > 0  # the class MatrixPerceptron brings its bound, not "got int"
    n = G.number_of_nodes()
    spec = resolve(UnionFindLearner(n))
    assert spec.name == "UnionFindLearner" and spec.bound_for(G, y, spec.build(G, 0, y)) == n - 2
    assert resolve("matrix winnow").name == "Matrix Winnow" and resolve("Matrix Winnow").oracle == "|Phi|"
    with pytest.raises(ValueError, match=r"unknown learner 'Matrix Perceptorn'; choose one of \['AlwaysSimilar'"):
        resolve("Matrix Perceptorn")
    with pytest.raises(TypeError, match="a learner must be"):
        resolve(3)
    ev = evaluate([MatrixPerceptron, UnionFindLearner(n)], G, y, T=30, seed=0)
    assert all(r.bound is not None and r.mistakes <= r.bound for r in ev.learners.values())


def test_available_lists_every_learner_with_needs_and_bound():
    rows = available()
    assert [r["name"] for r in rows] == list(LEARNERS)
    by_name = {r["name"]: r for r in rows}
    assert by_name["Matrix Winnow"]["needs"] == "the graph, oracle |Phi|"
    assert by_name["TreeWinnow"]["needs"] == "revealed paths" and by_name["TreeWinnow"]["bound"] == "-"
    assert by_name["UnionFindLearner"]["setting"] == "baseline"
    with pytest.raises(ValueError, match="setting must be one of"):
        available("nowhere")


# -- only "the learner gave up" retires a learner ---------------------------------------------------
class _GivesUp(UnionFindLearner):
    def _predict(self, i, j, path):
        if self.trials >= 3:
            raise LearnerGaveUp("my pool is full")
        return super()._predict(i, j, path)


class _Buggy(UnionFindLearner):
    def _predict(self, i, j, path):
        if self.trials >= 3:
            return 1 // 0  # a student's bug
        return super()._predict(i, j, path)


def test_only_learner_gave_up_retires_a_learner():
    G, y = barbell_graph(5)
    ev = evaluate({"quits": _GivesUp, "uf": UnionFindLearner}, G, y, T=20, seed=0)
    assert ev["quits"].retired.startswith("retired at trial 4 of 20: LearnerGaveUp: my pool is full")
    assert len(ev["quits"].run) == 3 and len(ev["uf"].run) == 20
    with pytest.raises(ZeroDivisionError):  # a bug surfaces with its traceback, it does not retire
        evaluate({"buggy": _Buggy, "uf": UnionFindLearner}, G, y, T=20, seed=0)
    registry = {"quits": LearnerSpec("quits", lambda G, seed: _GivesUp(G.number_of_nodes())),
                "buggy": LearnerSpec("buggy", lambda G, seed: _Buggy(G.number_of_nodes()))}
    game = Playground((G, y), ["quits"], "random", seed=0, registry=registry)
    game.play(5)
    assert set(game.retired) == {"quits"}
    game = Playground((G, y), ["buggy"], "random", seed=0, registry=registry)
    with pytest.raises(ZeroDivisionError):
        game.play(5)


def test_the_guards_and_the_pool_limit_are_learner_gave_up():
    from simpred_lite.checks import MemoryLimitError, WorkLimitError
    from simpred_lite.exact import ExactTooLargeError
    from simpred_lite.learners import PoolLimitError

    for exc in (PoolLimitError, ExactTooLargeError, MemoryLimitError, WorkLimitError):
        assert issubclass(exc, LearnerGaveUp)
    assert not issubclass(ZeroDivisionError, LearnerGaveUp)


def test_the_default_check_graph_is_the_one_the_docstring_describes():
    # check_learner's docstring names its default graph; a learner's bound is read against it
    from simpred_lite.learners.checking import _default_problem

    G, y = _default_problem("graph", seed=0)
    assert G.number_of_nodes() == 8 and np.bincount(y).tolist() == [3, 3, 2]
    G, y = _default_problem("graph", seed=0, slow=True)
    assert G.number_of_nodes() == 6 and np.bincount(y).tolist() == [3, 3]
