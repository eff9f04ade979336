"""The learner protocol, the run loop, trial generation and the baseline learners."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simpred_lite.game.play import run
from simpred_lite.game.trials import RunResult, Trial, random_trials, trials_from_pairs
from simpred_lite.graphs import planted_partition
from simpred_lite.learners import AlwaysSimilar, SimilarityLearner, UnionFindLearner


# -- Trial ------------------------------------------------------------------------------
def test_trial_rejects_bad_input():
    with pytest.raises(ValueError, match="distinct"):
        Trial(2, 2, 0)
    with pytest.raises(ValueError, match="0 \\(similar\\) or 1 \\(dissimilar\\)"):
        Trial(0, 1, 2)
    with pytest.raises(ValueError, match="Trial.i must be at least 0"):
        Trial(-1, 1, 0)
    with pytest.raises(TypeError, match="Trial.i must be an integer"):
        Trial(0.5, 1, 0)
    with pytest.raises(ValueError, match="Trial.path must start at i=0 and end at j=2"):
        Trial(0, 2, 1, path=(0, 1))


def test_trial_normalises_numpy_ints():
    t = Trial(np.int64(1), np.int32(4), np.int64(1), path=np.array([1, 2, 4]))
    assert (type(t.i), type(t.j), type(t.y), t.path) == (int, int, int, (1, 2, 4))


# -- the learner protocol -----------------------------------------------------------------
@pytest.mark.parametrize("learner_cls", [AlwaysSimilar, UnionFindLearner])
def test_protocol_rejects_bad_queries(learner_cls):
    learner = learner_cls(5)
    with pytest.raises(ValueError, match="unknown vertex i 7.*0..4"):
        learner.predict_one(7, 1)
    with pytest.raises(ValueError, match="distinct"):
        learner.predict_one(3, 3)
    with pytest.raises(ValueError, match="0 \\(similar\\) or 1"):
        learner.learn_one(0, 1, 5)
    with pytest.raises(TypeError, match="integer vertex"):
        learner.predict_one("a", 1)
    assert learner.mistakes == 0 and learner.trials == 0


def test_learner_needs_two_vertices():
    with pytest.raises(ValueError, match="at least 2"):
        UnionFindLearner(1)


def test_prediction_is_cached_but_never_stale():
    calls = []

    class Counting(SimilarityLearner):
        def _predict(self, i, j, path):
            calls.append((i, j))
            return len(calls) % 2

        def _learn(self, i, j, y, y_hat, path):
            pass

    learner = Counting(4)
    first = learner.predict_one(0, 1)
    learner.learn_one(0, 1, first)  # reuses the cached prediction: no mistake
    assert calls == [(0, 1)] and learner.mistakes == 0
    learner.predict_one(0, 1)  # after learning, the cache is gone
    assert calls == [(0, 1), (0, 1)]


def test_run_counts_mistakes_like_the_learner():
    G, y = planted_partition(40, 3, 0.3, 0.05, seed=1)
    trials = random_trials(G, y, 300, seed=2)
    learner = UnionFindLearner(40)
    result = run(learner, trials)
    assert isinstance(result, RunResult) and len(result) == 300
    truth = np.array([t.y for t in trials])
    assert np.array_equal(result.mistakes, (result.predictions != truth).astype(int))
    assert result.total_mistakes == learner.mistakes == result.cumulative[-1]
    assert np.all(np.diff(result.cumulative) >= 0)


def test_run_rejects_non_learners_and_non_trials():
    with pytest.raises(TypeError, match="predict_one"):
        run(object(), [])
    with pytest.raises(TypeError, match="Trial objects"):
        run(AlwaysSimilar(3), [(0, 1, 0)])


def test_random_trials_are_uniform_over_pairs_and_labelled_by_truth():
    G = nx.complete_graph(4)
    y = [0, 0, 1, 1]
    trials = random_trials(G, y, 12000, seed=0)
    counts = {}
    for t in trials:
        assert t.y == int(y[t.i] != y[t.j])
        counts[(t.i, t.j)] = counts.get((t.i, t.j), 0) + 1
    assert len(counts) == 12  # all ordered pairs of distinct vertices
    # each ordered pair has probability 1/12: expect 1000 +- 29 (5 sigma ~ 145)
    assert all(abs(c - 1000) < 150 for c in counts.values())


def test_random_trials_reproducible_and_validated():
    G, y = planted_partition(20, 2, 0.5, 0.1, seed=0)
    assert random_trials(G, y, 50, seed=3) == random_trials(G, y, 50, seed=3)
    with pytest.raises(ValueError, match="one class per vertex"):
        random_trials(G, y[:-1], 5, seed=0)
    with pytest.raises(ValueError, match="T must be at least 0"):
        random_trials(G, y, -1, seed=0)


def test_trials_from_pairs_rejects_unknown_vertices():
    with pytest.raises(ValueError, match="unknown vertex j 9"):
        trials_from_pairs([0, 1, 1], [(0, 9)])


# -- baselines --------------------------------------------------------------------------
def test_always_similar_errs_exactly_on_dissimilar_pairs():
    G, y = planted_partition(30, 3, 0.4, 0.05, seed=4)
    trials = random_trials(G, y, 500, seed=5)
    assert run(AlwaysSimilar(30), trials).total_mistakes == sum(t.y for t in trials)


@given(n=st.integers(2, 30), K=st.integers(1, 6), T=st.integers(0, 400), seed=st.integers(0, 10**6))
def test_union_find_mistake_bound_n_minus_K(n, K, T, seed):
    """With default=1 every mistake merges two components of one class: M <= n - K."""
    rng = np.random.default_rng(seed)
    K = min(K, n)
    y = np.concatenate([np.arange(K), rng.integers(K, size=n - K)])  # all K classes present
    rng.shuffle(y)
    i = rng.integers(n, size=T)
    j = (i + rng.integers(1, n, size=T)) % n
    trials = [Trial(int(a), int(b), int(y[a] != y[b])) for a, b in zip(i, j)]
    learner = UnionFindLearner(n)
    result = run(learner, trials)
    assert result.total_mistakes <= n - K
    # every prediction of "similar" is right on a consistent sequence
    assert all(t.y == 0 for t, p in zip(trials, result.predictions) if p == 0)


def test_union_find_uses_dissimilar_constraints_with_default_similar():
    learner = UnionFindLearner(4, default=0)
    learner.learn_one(0, 1, 0)
    learner.learn_one(2, 3, 0)
    learner.learn_one(1, 2, 1)
    assert learner.predict_one(0, 3) == 1  # 0~1, 2~3, 1!~2  =>  0 !~ 3
    learner.learn_one(0, 3, 1)
    assert learner.components() == 2
    with pytest.raises(ValueError, match="default"):
        UnionFindLearner(4, default=2)


def test_union_find_survives_contradictory_feedback():
    learner = UnionFindLearner(3, default=0)
    learner.learn_one(0, 1, 1)
    learner.learn_one(0, 1, 0)  # noisy: now told they are similar
    learner.learn_one(1, 2, 1)
    assert learner.predict_one(0, 2) == 1 and learner.predict_one(0, 1) == 0
