"""Tests of simpred_lite.theory.tree_averages: Theorem 3's per-tree chain."""

import math

import networkx as nx
import numpy as np
import pytest

import simpred_lite as sp
from simpred_lite.bst import BinarySupportTree
from simpred_lite.learners.instances import comparator_matrix
from simpred_lite.resistance import resistance_weighted_cut
from simpred_lite.theory.tree_averages import (
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
