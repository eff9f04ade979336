"""Trial sequences that stress a learner: cut-biased pairs and the adaptive adversary."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from simpred_lite.game.adversaries import AdaptiveAdversary, cut_biased_trials
from simpred_lite.game.play import adaptive_run, run
from simpred_lite.game.trials import random_trials
from simpred_lite.graphs import cut_edges, planted_partition
from simpred_lite.learners import AlwaysSimilar, BSTPerceptron, MatrixPerceptron


def test_cut_biased_trials_are_labelled_and_biased():
    G, y = planted_partition(40, 2, 0.4, 0.05, seed=0)
    cut = {frozenset(e) for e in cut_edges(G, y)}
    trials = cut_biased_trials(G, y, 2000, seed=1, p_cut=0.3)
    assert all(t.y == int(y[t.i] != y[t.j]) for t in trials)
    frac = np.mean([frozenset((t.i, t.j)) in cut for t in trials])
    assert 0.25 < frac < 0.36  # p_cut plus the rare uniform pair that is a cut edge
    only_cut = cut_biased_trials(G, y, 200, seed=2, p_cut=1.0)
    assert all(frozenset((t.i, t.j)) in cut and t.y == 1 for t in only_cut)
    assert {(t.i < t.j) for t in only_cut} == {True, False}  # both orientations
    assert cut_biased_trials(G, y, 50, seed=3) == cut_biased_trials(G, y, 50, seed=3)


def test_cut_biased_bad_input():
    G = nx.path_graph(5)
    with pytest.raises(ValueError, match="p_cut must be a probability"):
        cut_biased_trials(G, [0, 0, 1, 1, 1], 5, seed=0, p_cut=1.5)
    with pytest.raises(ValueError, match="no cut edge"):
        cut_biased_trials(G, [0] * 5, 5, seed=0)
    with pytest.raises(ValueError, match="T must be at least 0"):
        cut_biased_trials(G, [0, 0, 1, 1, 1], -1, seed=0)
    with pytest.raises(ValueError, match="labels must be"):
        cut_biased_trials(G, [0, 0, 1], 5, seed=0)
    assert len(cut_biased_trials(G, [0] * 5, 5, seed=0, p_cut=0)) == 5


def test_adaptive_adversary_only_asks_predictions():
    G, y = planted_partition(30, 2, 0.4, 0.05, seed=4)
    learner = BSTPerceptron.from_graph(G, seed=4)
    run(learner, random_trials(G, y, 100, seed=5))
    before = (learner.mistakes, learner.trials, learner.entries)
    adv, rng = AdaptiveAdversary(candidates=64), np.random.default_rng(0)

    def label(i, j):
        return int(y[i] != y[j])

    served = [adv.first_mistake(learner, adv.candidate_pairs(rng, 30, 64), label) for _ in range(20)]
    assert (learner.mistakes, learner.trials, learner.entries) == before
    assert all(learner.predict_one(i, j) != label(i, j) for i, j, _ in served)  # all found a mistake


def test_adaptive_adversary_forces_more_mistakes_than_random_pairs():
    G, y = planted_partition(40, 3, 0.4, 0.05, seed=6)
    random_m = run(MatrixPerceptron(G), random_trials(G, y, 300, seed=6)).total_mistakes
    trials, result = adaptive_run(MatrixPerceptron(G), y, 300, seed=6)
    assert result.total_mistakes > random_m
    # the served trials are a plain sequence: replaying them gives the same run
    assert np.array_equal(run(MatrixPerceptron(G), trials).predictions, result.predictions)


def test_adaptive_adversary_against_always_similar_serves_dissimilar_pairs():
    trials, result = adaptive_run(AlwaysSimilar(6), [0, 0, 1, 1, 2, 2], 30, seed=0, candidates=8)
    assert all(t.y == 1 for t in trials) and result.total_mistakes == 30


def test_adaptive_adversary_with_a_pool_of_pairs():
    pool = [(0, 1), (2, 3)]
    (t,), _ = adaptive_run(AlwaysSimilar(4), [0, 0, 1, 1], 1, seed=0, pairs=pool)
    assert (t.i, t.j) in pool and t.y == 0  # no candidate is a mistake: a random one


def test_adaptive_adversary_bad_input():
    with pytest.raises(ValueError, match="candidates must be at least 1"):
        adaptive_run(AlwaysSimilar(2), [0, 1], 1, seed=0, candidates=0)
    with pytest.raises(ValueError, match="pairs is empty"):
        adaptive_run(AlwaysSimilar(2), [0, 1], 1, seed=0, pairs=[])
    with pytest.raises(ValueError, match="unknown vertex j 5"):
        adaptive_run(AlwaysSimilar(3), [0, 1, 1], 1, seed=0, pairs=[(0, 5)])
    with pytest.raises(ValueError, match="two distinct vertices"):
        adaptive_run(AlwaysSimilar(3), [0, 1, 1], 1, seed=0, pairs=[(1, 1)])
    with pytest.raises(ValueError, match="learner has n=5"):
        adaptive_run(AlwaysSimilar(5), [0, 1, 1], 1, seed=0)
    with pytest.raises(ValueError, match="explicit seed"):
        adaptive_run(AlwaysSimilar(3), [0, 1, 1], 1, seed=None)
    with pytest.raises(ValueError, match="candidates must be at least 1"):
        AdaptiveAdversary(candidates=0)
    with pytest.raises(ValueError, match="T must be"):
        adaptive_run(AlwaysSimilar(3), [0, 1, 1], T=-2, seed=0)


def test_one_adversary_family():
    from simpred_lite.game import (
        AdaptiveAdversary,
        Adversary,
        CutBiasedAdversary,
        PathRevealingAdversary,
        RandomAdversary,
        StudentAdversary,
    )
    from simpred_lite.theory import ComparisonAdversary

    for cls in (RandomAdversary, CutBiasedAdversary, AdaptiveAdversary, PathRevealingAdversary, StudentAdversary,
                ComparisonAdversary):
        assert issubclass(cls, Adversary)
    adv = ComparisonAdversary(2)
    assert adv.choose(None) == (1, 3, None)  # ((0, 1), (1, 1)) as pattern numbers
