"""The learner protocol of ``learners/base.py``: checks, mistake counting, hooks."""

import pytest

from simpred_lite.learners import SimilarityLearner


class _Echo(SimilarityLearner):
    """Predicts 1 until told otherwise; records the hook calls."""

    def __init__(self, n):
        super().__init__(n)
        self.calls = []

    def _predict(self, i, j, path):
        return 1

    def _learn(self, i, j, y, y_hat, path):
        self.calls.append((i, j, y, y_hat, path))


def test_learn_one_counts_mistakes_and_calls_the_hook():
    L = _Echo(4)
    L.learn_one(0, 1, 0)
    L.learn_one(0, 2, 1)
    assert L.mistakes == 1
    assert L.calls == [(0, 1, 0, 1, None), (0, 2, 1, 1, None)]


def test_predict_one_checks_the_pair():
    L = _Echo(3)
    with pytest.raises(ValueError):
        L.predict_one(0, 3)
    with pytest.raises(TypeError):
        L.predict_one(0.5, 1)


def test_learn_one_rejects_a_label_that_is_not_0_or_1():
    with pytest.raises((TypeError, ValueError)):
        _Echo(3).learn_one(0, 1, 2)


def test_the_base_class_is_abstract():
    with pytest.raises(TypeError):
        SimilarityLearner(3)


class _PublicOverride(_Echo):
    """Overrides the public ``predict_one`` (not the hook), as a student subclass may."""

    def predict_one(self, i, j, path=None):
        return 0 if (i + j) % 2 else 1


def test_overriding_predict_one_is_used_by_learn_one():
    L = _PublicOverride(4)
    L.learn_one(0, 1, 1)      # override predicts 0: a mistake
    L.learn_one(0, 2, 1)      # override predicts 1: right
    assert (L.mistakes, L.trials) == (1, 2)
    assert L.calls == [(0, 1, 1, 0, None), (0, 2, 1, 1, None)]
    with pytest.raises(ValueError, match="path"):
        L.learn_one(0, 2, 1, path=[1, 2])   # the path is still checked


def test_the_fast_path_for_plain_ints_keeps_every_clear_error():
    """Plain ints skip the checks; everything else still meets them, with the argument named."""
    import numpy as np

    L = _Echo(3)
    for i, j, kind, words in [(-1, 1, ValueError, "vertex i"), (0, 3, ValueError, "vertex j"),
                              (1, 1, ValueError, "distinct"), (True, 1, TypeError, "vertex i"),
                              (0, 1.0, TypeError, "vertex j"), (np.int64(0), np.int64(5), ValueError, "vertex j")]:
        with pytest.raises(kind, match=words):
            L.predict_one(i, j)
        with pytest.raises(kind, match=words):
            L.learn_one(i, j, 0)
    for y, kind in [(2, ValueError), (-1, ValueError), (1.0, TypeError), ("1", TypeError)]:
        with pytest.raises(kind, match="similarity label"):
            L.learn_one(0, 1, y)
    assert L.trials == 0 and L.calls == []
    # numpy ints and bool labels are accepted, and the hooks receive Python ints
    L.learn_one(np.int64(0), np.int32(2), np.int64(1))
    L.learn_one(1, 2, True)
    assert L.calls == [(0, 2, 1, 1, None), (1, 2, 1, 1, None)]
    assert all(type(v) is int for call in L.calls for v in call[:4])
