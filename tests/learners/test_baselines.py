"""AlwaysSimilar and UnionFindLearner: the baselines every figure compares against."""

import numpy as np

from simpred_lite.game import random_trials, run
from simpred_lite.graphs import planted_partition
from simpred_lite.learners import AlwaysSimilar, UnionFindLearner


def test_always_similar_errs_exactly_on_dissimilar_pairs():
    G, y = planted_partition(30, 3, 0.4, 0.05, seed=0)
    trials = random_trials(G, y, 200, seed=1)
    result = run(AlwaysSimilar(30), trials)
    assert result.total_mistakes == sum(t.y for t in trials)


def test_union_find_errs_at_most_n_minus_K_times_on_similar_pairs():
    G, y = planted_partition(40, 4, 0.4, 0.05, seed=2)
    learner = UnionFindLearner(40, default=1)
    run(learner, random_trials(G, y, 2000, seed=3))
    assert learner.mistakes <= 40 - 4  # default "dissimilar": only the n - K merges cost a mistake
    assert learner.components() >= len(np.unique(y))


def test_union_find_predicts_similar_inside_a_merged_component():
    L = UnionFindLearner(4)
    L.learn_one(0, 1, 0)
    L.learn_one(1, 2, 0)
    assert L.predict_one(0, 2) == 0
    assert L.predict_one(0, 3) == 1
