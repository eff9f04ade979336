"""Binary Support Trees (§4): structure, label propagation, and |Phi^B_k| <= 2 |Phi^T_k| log2 N."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simpred_lite.bst import BinarySupportTree, dfs_linearize
from simpred_lite.graphs import cut_size, grid_graph, planted_partition
from simpred_lite.spanning import wilson


def dfs_reference(T: nx.Graph, root: int) -> list[int]:
    """Plain recursive preorder, smallest child first."""
    order: list[int] = []

    def visit(v, parent):
        order.append(v)
        for w in sorted(T.adj[v]):
            if w != parent:
                visit(w, v)

    visit(root, None)
    return order


def random_tree(n: int, seed: int) -> nx.Graph:
    return nx.random_labeled_tree(n, seed=seed) if n > 1 else nx.empty_graph(1)


# -- dfs_linearize --------------------------------------------------------------------------
@given(st.integers(1, 40), st.integers(0, 10_000), st.data())
@settings(max_examples=40)
def test_dfs_linearize_is_the_depth_first_preorder(n, seed, data):
    T = random_tree(n, seed)
    root = data.draw(st.integers(0, n - 1))
    order = dfs_linearize(T, root)
    assert order == dfs_reference(T, root)
    assert sorted(order) == list(range(n)) and order[0] == root
    # the path P retraces each tree edge at most twice: total tree distance <= 2 (n - 1)
    dist = dict(nx.all_pairs_shortest_path_length(T))
    assert sum(dist[a][b] for a, b in itertools.pairwise(order)) <= 2 * (n - 1)


def test_dfs_linearize_of_a_path_and_a_star():
    assert dfs_linearize(nx.path_graph(6), 0) == list(range(6))
    assert dfs_linearize(nx.path_graph(6), 3) == [3, 2, 1, 0, 4, 5]
    assert dfs_linearize(nx.star_graph(4), 2) == [2, 0, 1, 3, 4]


# -- structure ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13, 16, 33])
def test_structure_and_padding(n):
    order = np.random.default_rng(n).permutation(n)
    B = BinarySupportTree(order)
    N = B.num_leaves
    assert N & (N - 1) == 0 and n <= N < 2 * n  # smallest power of two >= n
    assert B.depth == int(math.log2(N))
    assert B.num_vertices == 2 * N - 1
    H = B.to_networkx()
    assert sorted(H.nodes) == list(range(1, 2 * N)) and nx.is_tree(H)
    assert len(B.edges()) == 2 * N - 2
    assert all(H.degree(v) == 1 for v in range(N, 2 * N))  # leaves N..2N-1
    assert all(nx.shortest_path_length(H, 1, leaf) == B.depth for leaf in range(N, 2 * N))
    # leaves hold the order left to right, then the dummies
    assert [B.vertex_at(leaf) for leaf in range(N, N + n)] == order.tolist()
    assert all(B.vertex_at(leaf) is None for leaf in range(N + n, 2 * N))
    assert all(B.vertex_at(B.leaf(v)) == v for v in range(n))
    # leaf-to-leaf diameter is 2 log2 N
    ecc = nx.eccentricity(H)
    assert max(ecc[leaf] for leaf in range(N, 2 * N)) == 2 * B.depth


@given(st.integers(2, 40), st.integers(0, 10_000))
@settings(max_examples=30)
def test_path_matches_shortest_path_in_B(n, seed):
    rng = np.random.default_rng(seed)
    B = BinarySupportTree(rng.permutation(n))
    H = B.to_networkx()
    for u, v in rng.integers(0, n, size=(10, 2)).tolist():
        p = B.path(u, v)
        assert p == nx.shortest_path(H, B.leaf(u), B.leaf(v))
        assert len(p) - 1 <= 2 * B.depth


# -- labels ---------------------------------------------------------------------------------
@given(st.integers(2, 40), st.integers(1, 5), st.integers(0, 10_000))
@settings(max_examples=40)
def test_propagation_and_cut_match_a_plain_reference(n, K, seed):
    rng = np.random.default_rng(seed)
    B = BinarySupportTree(rng.permutation(n))
    y = rng.integers(0, K, n)
    lab = B.propagate_labels(y)
    N, d = B.num_leaves, B.depth
    for v in range(1, N):
        assert lab[v] == lab[2 * v]  # left child
        level = v.bit_length() - 1
        leftmost = v << (d - level)
        assert lab[v] == lab[leftmost]  # = label of the leftmost leaf below
    leaf_labels = [y[B.vertex_at(leaf)] if B.vertex_at(leaf) is not None else y[B.order[-1]] for leaf in range(N,
                                                                                                               2 * N)]
    assert lab[N:].tolist() == leaf_labels
    # cut sizes against networkx on B, and sum_k |Phi_k| = 2 |Phi|
    H = B.to_networkx()
    Hy = np.array([0] + lab[1:].tolist())
    Hg = nx.relabel_nodes(H, {v: v - 1 for v in H.nodes})
    assert B.cut_size(y) == cut_size(Hg, Hy[1:])
    for k in range(K):
        assert B.cut_size(y, k) == cut_size(Hg, Hy[1:], k)
    assert sum(B.cut_size(y, k) for k in range(K)) == 2 * B.cut_size(y)
    P = nx.path_graph(n)
    P = nx.relabel_nodes(P, dict(enumerate(B.order.tolist())))
    assert B.path_cut_size(y) == cut_size(P, y)
    assert all(B.path_cut_size(y, k) == cut_size(P, y, k) for k in range(K))


# -- the inequality of §4 -------------------------------------------------------------------
def check_bounds(T: nx.Graph, B: BinarySupportTree, y: np.ndarray, K: int) -> None:
    logN = B.depth
    assert B.path_cut_size(y) <= 2 * cut_size(T, y)  # |Phi^P| <= 2 |Phi^T|
    for k in range(K):
        phiT, phiP, phiB = cut_size(T, y, k), B.path_cut_size(y, k), B.cut_size(y, k)
        assert phiP <= 2 * phiT
        assert phiB <= phiP * logN
        assert phiB <= 2 * phiT * logN  # the paper's |Phi^B_k| <= 2 |Phi^T_k| log2 n


@given(st.integers(2, 70), st.integers(1, 6), st.integers(0, 10_000), st.data())
@settings(max_examples=60)
def test_cut_inequality_on_random_trees_and_labelings(n, K, seed, data):
    rng = np.random.default_rng(seed)
    T = random_tree(n, seed)
    B = BinarySupportTree.from_tree(T, root=data.draw(st.integers(0, n - 1)))
    for _ in range(5):
        y = rng.integers(0, K, n)
        check_bounds(T, B, y, K)
        # smooth labelings too (few cut edges: the interesting regime)
        cuts = rng.choice(n - 1, size=min(K - 1, n - 1), replace=False) + 1
        smooth = np.zeros(n, dtype=np.int64)
        for c, kk in zip(sorted(cuts), range(1, K)):
            smooth[B.order[c:]] = kk
        check_bounds(T, B, smooth, K)


def test_cut_inequality_on_random_spanning_trees_of_a_clustered_graph():
    G, y = planted_partition(200, 5, 0.2, 0.01, seed=3)
    for seed in range(20):
        B = BinarySupportTree.from_graph(G, seed=seed, root=seed % 200)
        check_bounds(B.tree, B, y, 5)


# -- from_graph / from_tree -----------------------------------------------------------------
def test_from_graph_builds_the_bst_of_a_spanning_tree():
    G, _ = grid_graph(30, 40)
    B = BinarySupportTree.from_graph(G, seed=9, root=17)
    T = B.tree
    assert nx.is_tree(T) and all(G.has_edge(u, v) for u, v in T.edges)
    assert B.root == 17 and B.order.tolist() == dfs_linearize(T, 17)
    assert B.n == 1200 and B.num_leaves == 2048 and B.depth == 11
    # the tree is Wilson's with the same seed
    assert sorted(T.edges) == sorted(wilson(G, seed=9).edges)
    assert BinarySupportTree.from_tree(T, 17).order.tolist() == B.order.tolist()


# -- bad input ------------------------------------------------------------------------------
def test_bad_orders():
    with pytest.raises(ValueError, match="repeats vertex 1"):
        BinarySupportTree([0, 1, 1, 2])
    with pytest.raises(ValueError, match="permutation of 0..2"):
        BinarySupportTree([0, 1, 5])
    with pytest.raises(ValueError, match="at least 2 vertices"):
        BinarySupportTree([0])
    with pytest.raises(ValueError, match="integer vertices"):
        BinarySupportTree([0.0, 1.0])


def test_bad_trees_and_roots():
    with pytest.raises(ValueError, match="not a tree: it has a cycle"):
        dfs_linearize(nx.cycle_graph(4))
    forest_with_cycle = nx.Graph([(0, 1), (1, 2), (2, 0)])
    forest_with_cycle.add_node(3)
    with pytest.raises(ValueError, match="not a tree: it is disconnected"):
        dfs_linearize(forest_with_cycle)
    with pytest.raises(ValueError, match="not a tree: it is disconnected"):
        BinarySupportTree.from_tree(nx.Graph([(0, 1), (2, 3)]))
    with pytest.raises(ValueError, match="unknown root 9"):
        dfs_linearize(nx.path_graph(4), root=9)
    with pytest.raises(TypeError, match="root must be an integer vertex"):
        dfs_linearize(nx.path_graph(4), root="a")
    with pytest.raises(ValueError, match="disconnected"):
        BinarySupportTree.from_graph(nx.Graph([(0, 1), (2, 3)]), seed=0)
    with pytest.raises(ValueError, match="unknown root 4"):
        BinarySupportTree.from_graph(nx.path_graph(4), seed=0, root=4)


def test_bad_vertices_and_leaves():
    B = BinarySupportTree([2, 0, 1])
    with pytest.raises(ValueError, match="unknown vertex 3"):
        B.leaf(3)
    with pytest.raises(ValueError, match="unknown vertex 5"):
        B.path(0, 5)
    with pytest.raises(ValueError, match="leaf must lie in 4..7"):
        B.vertex_at(2)
    with pytest.raises(ValueError, match="one class per vertex"):
        B.cut_size([0, 1])


def test_figures_draw_without_error():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simpred_lite.viz import bst_layout, draw_bst, plot_figure1

    G = nx.cycle_graph(6)
    y = [0, 0, 1, 1, 2, 2]
    B = BinarySupportTree.from_graph(G, seed=0)
    pos = bst_layout(B)
    assert all(pos[v][1] == B.depth - (v.bit_length() - 1) for v in range(1, 2 * B.num_leaves))
    fig = plot_figure1(G, B, y)
    assert len(fig.axes) == 4 and f"$|\\Phi^B|$ = {B.cut_size(y)}" in fig.axes[3].get_title()
    ax = draw_bst(B)
    assert "N = 8" in ax.get_title()
    plt.close("all")


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 100])
def test_propagated_labels_copy_the_left_child_level_by_level(n):
    B = BinarySupportTree(list(np.random.default_rng(n).permutation(n)))
    y = np.random.default_rng(1).integers(0, 4, size=n)
    out = B.propagate_labels(y)
    N = B.num_leaves
    expected = out.copy()
    for v in range(N - 1, 0, -1):  # the definition, one vertex at a time
        expected[v] = expected[2 * v]
    assert out.tolist() == expected.tolist(), "every internal vertex must carry its left child's label"
    assert out[0] == -1 and out[N:N + n].tolist() == y[B.order].tolist()
