"""Bench answers for notebooks/03_binary_support_trees.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "03-ex1-code": {
        "different": '''import numpy as np
order1, yy = [2, 0, 3, 1, 4], np.array([0, 1, 1, 0, 1])
leaves = [int(yy[v]) for v in order1] + [int(yy[order1[-1]])] * 3      # dummies copy the last real leaf
lab = np.zeros(16, dtype=np.int64); lab[8:] = leaves
for v in range(7, 0, -1):
    lab[v] = lab[2 * v]
cut_B_ex1 = np.int64(sum(lab[c] != lab[c // 2] for c in range(2, 16)))
cut_P_ex1 = np.int64(np.count_nonzero(np.diff(yy[order1])))
''',
        "wrong": '''import numpy as np
order1, yy = [2, 0, 3, 1, 4], np.array([0, 1, 1, 0, 1])
leaves = [int(yy[v]) for v in order1] + [0] * 3          # dummies labelled 0 instead of copying the last leaf
lab = np.zeros(16, dtype=int); lab[8:] = leaves
for v in range(7, 0, -1):
    lab[v] = lab[2 * v]
cut_B_ex1 = int(sum(lab[c] != lab[c // 2] for c in range(2, 16)))
cut_P_ex1 = int(np.count_nonzero(np.diff(yy[order1])))
''',
        "wrong_fails": ["03-ex1-tests"],
        "why": "different: propagation written out, numpy ints; wrong: dummy leaves given class 0",
    },
    "03-ex2-code": {
        "different": '''import numpy as np

def right_labels(Bt, y):
    N = Bt.num_leaves
    leaf = np.asarray(y)[Bt.order]
    lab = np.concatenate([np.zeros(N, dtype=np.int64), leaf, np.full(N - len(leaf), leaf[-1])])
    for v in range(N - 1, 0, -1):
        lab[v] = lab[2 * v + 1]
    return lab

gen = np.random.default_rng(0)
best = np.float64(0)
for trial in range(150):
    n2 = int(gen.integers(8, 300))
    T2 = nx.random_labeled_tree(n2, seed=trial)
    B2 = BinarySupportTree.from_tree(T2, root=int(gen.integers(n2)))
    K2 = int(gen.integers(2, 8))
    for y2 in (gen.integers(0, K2, n2), tree_regions(T2, K2, gen)):
        lab = right_labels(B2, y2)
        child = np.arange(2, 2 * B2.num_leaves); par = child // 2
        differ = lab[child] != lab[par]
        for k in range(K2):
            p2 = B2.path_cut_size(y2, k)
            if p2:
                b2 = np.sum(differ & ((lab[child] == k) | (lab[par] == k)))
                best = max(best, b2 / (p2 * B2.depth))
max_ratio_ex2 = best
''',
        "wrong": '''rng_ex2 = np.random.default_rng(0)
max_ratio_ex2 = 0.0
for trial in range(150):                      # uses the package's left-child rule, not the right one
    n2 = int(rng_ex2.integers(8, 300))
    T2 = nx.random_labeled_tree(n2, seed=trial)
    B2 = BinarySupportTree.from_tree(T2, root=int(rng_ex2.integers(n2)))
    K2 = int(rng_ex2.integers(2, 8))
    for y2 in (rng_ex2.integers(0, K2, n2), tree_regions(T2, K2, rng_ex2)):
        for k in range(K2):
            p2 = B2.path_cut_size(y2, k)
            if p2:
                max_ratio_ex2 = max(max_ratio_ex2, B2.cut_size(y2, k) / (p2 * B2.depth))
''',
        "wrong_fails": ["03-ex2-tests"],
        "why": "different: vectorised cut count, numpy float, other names; wrong: the left-child rule of the package",
    },
    "03-ex3-code": {
        "different": '''import numpy as np
Gg, yg = sp.grid_graph(32, 32, K=2)
Bd = BinarySupportTree.from_graph(Gg, seed=0)
perm = np.random.default_rng(1).choice(Gg.number_of_nodes(), Gg.number_of_nodes(), replace=False)
Br = BinarySupportTree(perm.tolist())
tree_cut = np.float64(sp.cut_size(Bd.tree, yg, 0))
ratio_dfs_ex3 = Bd.path_cut_size(yg, 0) / tree_cut
ratio_random_ex3 = Br.path_cut_size(yg, 0) / tree_cut
ratioB_dfs_ex3 = Bd.cut_size(yg, 0) / tree_cut
ratioB_random_ex3 = Br.cut_size(yg, 0) / tree_cut
''',
        "wrong": '''G3, y3 = sp.grid_graph(32, 32, K=2)
B_dfs = BinarySupportTree.from_graph(G3, seed=0)
B_rnd = BinarySupportTree(np.random.default_rng(1).permutation(G3.number_of_nodes()).tolist())
t3 = sp.cut_size(G3, y3, 0)                  # the grid's cut, not the spanning tree's
ratio_dfs_ex3, ratio_random_ex3 = B_dfs.path_cut_size(y3, 0) / t3, B_rnd.path_cut_size(y3, 0) / t3
ratioB_dfs_ex3, ratioB_random_ex3 = B_dfs.cut_size(y3, 0) / t3, B_rnd.cut_size(y3, 0) / t3
''',
        "wrong_fails": ["03-ex3-tests"],
        "why": "different: a random order from rng.choice (another permutation), numpy floats; wrong: the grid cut as denominator",
    },
    "03-ex4-code": {
        "different": '''import numpy as np
# (a) a star rooted at its centre, written as an edge list,
# but with the classes swapped (centre in class 1, even leaves in class 1)
j = 10
tree_ex4 = nx.Graph([(0, v) for v in range(1, 2 * j + 1)])
root_ex4 = np.int64(0)
y_tree_ex4 = [1] + [1 - v % 2 for v in range(1, 2 * j + 1)]
Bs = BinarySupportTree.from_tree(tree_ex4, root=int(root_ex4))
ratio_TP_ex4 = np.float64(Bs.path_cut_size(y_tree_ex4)) / sp.cut_size(tree_ex4, y_tree_ex4)
# (b) the last vertex alone in class 0 does not work (it is a right leaf); the first one alone does
y_path_ex4 = np.zeros(64, dtype=np.int64); y_path_ex4[0] = 1
Bp = BinarySupportTree.from_tree(nx.path_graph(64), root=0)
ratio_PB_ex4 = np.float64(Bp.cut_size(y_path_ex4, 1)) / (Bp.path_cut_size(y_path_ex4, 1) * Bp.depth)
''',
        "wrong": '''j = 10
tree_ex4, root_ex4 = nx.star_graph(2 * j), 0
y_tree_ex4 = np.array([0] + [v % 2 for v in range(1, 2 * j + 1)])
ratio_TP_ex4 = 2.0
y_path_ex4 = np.array([0] * 63 + [1])          # the last vertex alone: only one edge of B is cut
ratio_PB_ex4 = 1.0                             # claimed, not computed
''',
        "wrong_fails": ["03-ex4-tests"],
        "why": "different: classes swapped, list labels, numpy scalars; wrong: the last vertex alone, with the ratio asserted not computed",
    },
    "03-ex5-code": {
        "different": '''import numpy as np
bound_T_ex5, bound_B_ex5 = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
for i, s in enumerate((16, 32, 64)):
    Gs5, ys5 = sp.grid_graph(s, s, K=2)
    Bs5 = BinarySupportTree.from_graph(Gs5, seed=s)
    D_T = nx.diameter(Bs5.tree) if s < 64 else tree_diameter(Bs5.tree)
    bound_T_ex5[i] = (sp.cut_size(Bs5.tree, ys5) * D_T) ** 2
    bound_B_ex5[i] = (Bs5.cut_size(ys5) * 2 * Bs5.depth) ** 2
''',
        "wrong": '''bound_T_ex5, bound_B_ex5 = [], []
for s in (16, 32, 64):
    Gs5, ys5 = sp.grid_graph(s, s, K=2)
    Bs5 = BinarySupportTree.from_graph(Gs5, seed=s)
    cT, cB, dT = sp.cut_size(Bs5.tree, ys5), Bs5.cut_size(ys5), tree_diameter(Bs5.tree)
    bound_T_ex5.append(cT**2 * dT**2); bound_B_ex5.append(cB**2 * Bs5.depth ** 2)   # D_B = log2 N, not 2 log2 N
''',
        "wrong_fails": ["03-ex5-tests"],
        "why": "different: networkx diameter for the smaller trees, numpy int arrays; wrong: the depth of B in place of its diameter",
    },
}
