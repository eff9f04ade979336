"""Tests of simpred_lite.theory.similarity_lower_bound: the lower bound of Proposition 1 (p:boundsimilarity).

For every learner and every target phi the adversary forces a mistake on every trial,
makes at least phi/2 - 1 >= phi/2 - K of them (unless it runs out of vertices), and leaves
a labeling whose resistance-weighted cut E|Phi^T| is below phi; the sequence replays with
the same mistakes on a fresh learner (the labeling exists in hindsight).
"""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simpred_lite.bst import BinarySupportTree
from simpred_lite.game.play import run
from simpred_lite.graphs import cut_edges, planted_partition
from simpred_lite.learners import AlwaysSimilar, BSTPerceptron, MatrixPerceptron, UnionFindLearner
from simpred_lite.resistance import edge_list, effective_resistance
from simpred_lite.theory.similarity_lower_bound import (
    force_lower_bound,
    lower_bound_vertices,
    replay,
    resistance_degrees,
)


def _graph(seed):
    G, _ = planted_partition(16, 2, 0.5, 0.1, seed=seed)
    return G


def test_resistance_degrees_foster_and_at_least_one():
    for G in (_graph(0), nx.path_graph(7), nx.complete_graph(5), nx.petersen_graph()):
        r = resistance_degrees(G)
        n = G.number_of_nodes()
        assert r.sum() == pytest.approx(2 * (n - 1))
        assert (r >= 1 - 1e-9).all()  # a spanning tree touches every vertex


def test_resistance_degree_is_expected_tree_degree():
    G = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])
    trees = list(nx.SpanningTreeIterator(G))
    mean_deg = np.mean([[T.degree(v) for v in range(4)] for T in trees], axis=0)
    assert np.allclose(resistance_degrees(G), mean_deg)


@given(st.integers(0, 30), st.floats(0, 20))
def test_vertex_set_budget_and_size(seed, phi):
    G = _graph(seed % 5)
    anchor, S = lower_bound_vertices(G, phi)
    r = resistance_degrees(G)
    assert anchor not in S and len(set(S)) == len(S)
    assert r[S].sum() < phi or not S
    if len(S) < G.number_of_nodes() - 1:
        assert len(S) > phi / 2 - 1


LEARNERS = {
    "AlwaysSimilar": lambda G: AlwaysSimilar(G.number_of_nodes()),
    "UnionFind": lambda G: UnionFindLearner(G.number_of_nodes()),
    "UnionFind default 0": lambda G: UnionFindLearner(G.number_of_nodes(), default=0),
    "MatrixPerceptron": lambda G: MatrixPerceptron(G),
    "BSTPerceptron": lambda G: BSTPerceptron(BinarySupportTree.from_graph(G, seed=0)),
}


@pytest.mark.parametrize("name", sorted(LEARNERS))
@pytest.mark.parametrize("K", [2, 3, 5])
def test_every_trial_is_a_mistake_and_the_cut_stays_small(name, K):
    G = _graph(1)
    for phi in (0.0, 1.5, 4.0, 9.0):
        game = force_lower_bound(LEARNERS[name](G), G, phi, K=K)
        assert game.mistakes == len(game.trials)
        assert all(t.y == int(game.labels[t.i] != game.labels[t.j]) for t in game.trials)
        assert set(np.unique(game.labels)) <= set(range(K))
        assert game.expected_tree_cut <= game.budget + 1e-9
        assert game.expected_tree_cut < phi or phi == 0.0 == game.expected_tree_cut
        assert game.mistakes >= phi / 2 - K
        cut = cut_edges(G, game.labels)
        exact = effective_resistance(G, pairs=cut).sum() if cut else 0.0
        assert game.expected_tree_cut == pytest.approx(exact)
        fresh = replay(game, LEARNERS[name](G))
        assert fresh.total_mistakes == game.mistakes


def test_pendant_vertices_give_about_phi_mistakes():
    G = nx.star_graph(12)  # leaves have r = 1: the adversary gets |S| = ceil(phi) - 1 of them
    game = force_lower_bound(UnionFindLearner(13), G, phi=7.5)
    assert game.mistakes == 7 and game.expected_tree_cut == pytest.approx(0.0)
    game = force_lower_bound(AlwaysSimilar(13), G, phi=7.5)
    assert game.mistakes == 7 and game.expected_tree_cut == pytest.approx(7.0)


def test_matches_run_on_the_same_trials():
    G = _graph(2)
    game = force_lower_bound(MatrixPerceptron(G), G, 6.0, K=3)
    again = run(MatrixPerceptron(G), game.trials)
    assert np.array_equal(again.predictions, game.result.predictions)


@pytest.mark.parametrize(
    "kwargs, err",
    [({"phi": -1.0}, ValueError), ({"phi": float("nan")}, ValueError), ({"phi": "3"}, TypeError),
     ({"phi": 2.0, "K": 1}, ValueError), ({"phi": 2.0, "K": 2.5}, TypeError)],
)
def test_bad_arguments(kwargs, err):
    G = _graph(0)
    with pytest.raises(err):
        force_lower_bound(UnionFindLearner(16), G, **kwargs)


def test_wrong_learner_size():
    with pytest.raises(ValueError, match="vertices"):
        force_lower_bound(UnionFindLearner(5), _graph(0), 3.0)


def test_edge_list_order_is_used_consistently():
    G = nx.cycle_graph(5)
    r = resistance_degrees(G)
    R = effective_resistance(G, pairs=edge_list(G))
    assert np.allclose(r, 2 * R[0])


class _Spy(UnionFindLearner):
    """A union-find learner that records whether it was asked anything."""

    asked = False

    def predict_one(self, i, j):
        self.asked = True
        return super().predict_one(i, j)


@pytest.mark.parametrize("K", [2, 4])
def test_phi_beyond_what_the_graph_allows_is_refused_before_playing(K):
    G = _graph(1)
    n = G.number_of_nodes()
    limit = 2 * (n - 1 + K)  # S holds all n - 1 other vertices: M = n - 1 >= phi/2 - K up to here
    game = force_lower_bound(UnionFindLearner(n), G, float(limit), K=K)
    assert game.mistakes == n - 1 >= limit / 2 - K, "at the limit the guarantee still holds, with S = every vertex"
    spy = _Spy(n)
    with pytest.raises(ValueError, match=rf"phi={float(limit + 1)} is too large.*2\(n - 1 \+ K\) = {limit}"):
        force_lower_bound(spy, G, limit + 1, K=K)
    assert not spy.asked, "a too large phi should be refused before any trial is played"
