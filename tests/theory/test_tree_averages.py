"""Tests of simpred_lite.theory.tree_averages: Theorem 3's per-tree chain and the class adversary of Theorem 9."""

import math

import networkx as nx
import numpy as np
import pytest

import simpred_lite as sp
from simpred_lite.bst import BinarySupportTree
from simpred_lite.learners.bounds import paired_permutation_mistake_bound
from simpred_lite.learners.instances import comparator_matrix
from simpred_lite.learners.permutations import PairedPermutationClassLearner
from simpred_lite.resistance import resistance_weighted_cut
from simpred_lite.theory.lowerbound import paired_permutation_label
from simpred_lite.theory.tree_averages import (
    adaptive_class_run,
    bst_comparator_norm_sq,
    spanning_tree_bound_table,
    theorem3_phi_bounds,
)


@pytest.mark.parametrize("seed", range(4))
def test_comparator_norm_matches_dense_comparator(seed):
    G, y = sp.planted_partition(12, 3, 0.6, 0.2, seed=seed)
    B = BinarySupportTree.from_graph(G, seed=seed)
    H = nx.convert_node_labels_to_integers(B.to_networkx(), ordering="sorted")   # heap h -> h - 1
    yB = B.propagate_labels(y)[1:]
    U = comparator_matrix(H, yB)
    assert bst_comparator_norm_sq(B, y) == round(float((U**2).sum()))
    assert bst_comparator_norm_sq(B, y) <= 4 * B.cut_size(y) ** 2


def test_table_chain_and_expectation():
    G, y = sp.planted_partition(32, 2, 0.5, 0.05, seed=1)
    tab = spanning_tree_bound_table(G, y, trees=150, seed=0)
    phi = resistance_weighted_cut(G, y)
    assert np.all(tab["cut_B"] <= 2 * tab["cut_T"] * math.log2(tab["N"]))
    assert np.all(tab["perceptron"] <= 4 * tab["R"] ** 2 * tab["cut_B"] ** 2)
    se = tab["cut_T"].std(ddof=1) / math.sqrt(150)
    assert abs(tab["cut_T"].mean() - phi) <= 4 * se                    # Lemma 10, 1
    form = theorem3_phi_bounds(phi, tab["N"])
    assert tab["perceptron"].mean() <= form["perceptron"] and tab["winnow"].mean() <= form["winnow"]


def test_table_is_reproducible_and_checks_arguments():
    G, y = sp.planted_partition(16, 2, 0.6, 0.1, seed=2)
    a = spanning_tree_bound_table(G, y, trees=5, seed=3)
    b = spanning_tree_bound_table(G, y, trees=5, seed=3)
    assert a["cut_T"].tolist() == b["cut_T"].tolist()
    with pytest.raises(ValueError):
        spanning_tree_bound_table(G, y, trees=0, seed=3)
    with pytest.raises(TypeError):
        spanning_tree_bound_table(G, y, trees=2.5, seed=3)
    with pytest.raises(TypeError):
        bst_comparator_norm_sq(G, y)


@pytest.mark.parametrize("K", [2, 3, 4, 5, 6])
def test_adaptive_class_adversary_is_consistent_and_forces_mistakes(K):
    A = PairedPermutationClassLearner(K)
    examples, z = adaptive_class_run(A, K, seed=K)
    assert sorted(z) == list(range(K))
    assert all(paired_permutation_label(z, a, b) == y for (a, b), y in examples)
    assert A.mistakes == len(examples) >= K - 1             # every trial is a mistake
    assert A.mistakes <= paired_permutation_mistake_bound(K)             # Theorem 9, class side
    # after the game the learner is right on every pattern for the revealed z
    assert all(A.predict_one((a, b)) == paired_permutation_label(z, a, b) for a in range(K) for b in range(K))


def test_adaptive_class_adversary_arguments():
    with pytest.raises(ValueError):
        adaptive_class_run(PairedPermutationClassLearner(9), 9, seed=0)
    examples, _ = adaptive_class_run(PairedPermutationClassLearner(4), 4, seed=0, max_trials=2)
    assert len(examples) == 2
