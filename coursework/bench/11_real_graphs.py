"""Bench answers for notebooks/11_real_graphs.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "11-ex1-code": {
        "different": '''learners = ("BST Perceptron", "UnionFindLearner")
ev_women = evaluate(list(learners), "southern women", T=np.int64(500), seed=np.int64(0))
for name, count in ev_women.mistakes.items():
    print(name, count)
''',
        "wrong": '''ev_women = evaluate(["UnionFindLearner", "BST Perceptron"], graphs["southern women"], T=500, seed=1)
print(ev_women)
''',
        "wrong_fails": ["11-ex1-tests"],
        "why": "different: learners in the other order, the graph by its dataset name, numpy integers for T and "
               "seed; wrong: seed=1 instead of seed=0 (UnionFind still makes at most 30 mistakes)",
    },
    "11-ex2-code": {
        "different": '''import sklearn.datasets

wine_table = sklearn.datasets.load_wine()
graph_raw, classes = knn_graph(wine_table.data, k=10, labels=wine_table.target)
cut_raw = np.int64(sum(classes[a] != classes[b] for a, b in graph_raw.edges))
cut_std = np.int64(sum(graphs["wine"].labels[a] != graphs["wine"].labels[b] for a, b in graphs["wine"].graph.edges))
print(cut_raw, cut_std)
''',
        "wrong": '''from sklearn.datasets import load_wine
from simpred_lite.graphs import cut_size

data = load_wine()
G_raw, y_raw = knn_graph(data.data, 5, labels=data.target)
cut_raw = cut_size(G_raw, y_raw)
cut_std = graphs["wine"].cut_size
print(cut_raw, cut_std)
''',
        "wrong_fails": ["11-ex2-tests"],
        "why": "different: cut edges counted by hand as numpy integers, keyword k; wrong: k = 5 neighbours "
               "instead of 10",
    },
    "11-ex3-code": {
        "different": '''runs = {}
for seed in np.arange(5):
    runs[int(seed)] = evaluate(["BST Perceptron", "UnionFindLearner"], load_graph("breast cancer"), T=2000,
                               seed=int(seed))
evs_bc = [runs[s] for s in sorted(runs)]
starts = np.arange(0, 2000, 200)
uf_blocks = [list(np.add.reduceat(ev["UnionFindLearner"].run.mistakes, starts)) for ev in evs_bc]
bst_blocks = [list(np.add.reduceat(ev["BST Perceptron"].run.mistakes, starts)) for ev in evs_bc]
first_block = None
for block in range(10):
    if all(uf_blocks[s][block] < bst_blocks[s][block] for s in range(5)):
        first_block = np.int64(block)
        break
print(first_block)
''',
        "wrong": '''evs_bc = [evaluate(["UnionFindLearner", "BST Perceptron"], graphs["breast cancer"], T=2000, seed=s)
          for s in range(5)]
uf_blocks = np.array([ev["UnionFindLearner"].run.mistakes.reshape(10, 200).sum(axis=1) for ev in evs_bc])
bst_blocks = np.array([ev["BST Perceptron"].run.mistakes.reshape(10, 200).sum(axis=1) for ev in evs_bc])
first_block = int(np.flatnonzero(uf_blocks.mean(axis=0) < bst_blocks.mean(axis=0))[0])
print(first_block)
''',
        "wrong_fails": ["11-ex3-tests"],
        "why": "different: learners in the other order, a dict of runs keyed by seed, blocks by np.add.reduceat, "
               "nested lists instead of arrays, a loop for the first block and a numpy integer as the answer; "
               "wrong: the first block where UnionFind's mean over the seeds is lower (block 4), although it "
               "is still behind in seed 3 there",
    },
    "11-ex4-code": {
        "different": '''iris5 = load_graph("iris", k=5)
edges = np.array(list(iris5.graph.edges))
a, b = iris5.labels[edges[:, 0]], iris5.labels[edges[:, 1]]
cut = a != b
table = np.zeros((iris5.K, iris5.K), dtype=np.int64)
np.add.at(table, (a[cut], b[cut]), 1)
table = table + table.T
gram = np.diag(table.sum(axis=1)) - table   # A^T A: |Phi_k| on the diagonal, -|Phi_kl| off it
U_norm_sq = (gram ** 2).sum()
ev_iris5 = evaluate("Matrix Perceptron", iris5, T=1000, seed=0)
print(U_norm_sq, ev_iris5)
''',
        "wrong": '''iris5 = load_graph("iris", k=5)
y5 = iris5.labels
between = np.zeros((iris5.K, iris5.K), dtype=int)
for u, v in iris5.graph.edges:
    if y5[u] != y5[v]:
        between[min(y5[u], y5[v]), max(y5[u], y5[v])] += 1
touching = between.sum(axis=1) + between.sum(axis=0)
U_norm_sq = int((touching ** 2).sum() + (between ** 2).sum())
ev_iris5 = evaluate(["Matrix Perceptron"], iris5, T=1000, seed=0)
print(U_norm_sq)
''',
        "wrong_fails": ["11-ex4-tests"],
        "why": "different: vectorised counts with np.add.at, the K x K Gram matrix A^T A squared, a numpy integer, "
               "one learner name as a string; wrong: each unordered pair of classes counted once in the sum "
               "over k != l",
    },
}
