"""Bench answers for notebooks/06_fast_bst_perceptron.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "06-ex1-code": {
        "different": '''import numpy as np

G8, _ = sp.planted_partition(8, 3, 0.8, 0.15, seed=4)
tree8 = BinarySupportTree.from_graph(G8, seed=0)
st8 = trial_structure(tree8, int(tree8.order[0]), int(tree8.order[3]))
# read off the structure, as numpy integers
P_ex1 = list(np.array(st8.path, dtype=np.int64))
S_ex1 = list(np.sort(np.array(list(st8.S), dtype=np.int64)))
tags_ex1 = {np.int64(v): np.int64(f) for v, f in st8.tags.items()}
''',
        "wrong": '''# by hand, but forgetting the parent of the lowest common ancestor
P_ex1 = [8, 4, 2, 5, 11]
S_ex1 = [8, 9, 10, 11]
tags_ex1 = {8: 1, 4: 2, 2: 3, 5: 4, 11: 5, 9: 2, 10: 4}
''',
        "wrong_fails": ["06-ex1-tests"],
        "why": "different: other names, read from trial_structure, numpy int64 entries and keys; "
               "wrong: vertex 1 (parent of the LCA) missing from S_t and the tags",
    },
    "06-ex2-code": {
        "different": '''import numpy as np

R = np.int64(2 * B60.depth)
disagree_ex2, first_ex2 = {}, {}
for name in sequences:
    seq = sequences[name]
    base = run(BSTPerceptron(B60), seq).predictions
    comp = run(BSTPerceptron(B60, threshold=int(2 * R * R), strict=False), seq).predictions
    fact = run(BSTPerceptron(B60, threshold=int(R * R)), seq).predictions
    disagree_ex2[name] = [np.sum(comp != base), np.count_nonzero(fact != base)]
    first_ex2[name] = np.argmax(comp != base)
''',
        "wrong": '''R60 = 2 * B60.depth
disagree_ex2, first_ex2 = {}, {}
for name, trials in sequences.items():
    # each changed rule judged on Algorithm 1's own F, trial by trial (only Algorithm 1 learns)
    alg1 = BSTPerceptron(B60)
    comparison_only, factor_only, first = 0, 0, None
    for k, t in enumerate(trials):
        s = alg1.path_sum(t.i, t.j)
        exact = s > 2 * R60**2
        if (s >= 2 * R60**2) != exact:
            comparison_only += 1
            first = k if first is None else first
        factor_only += int((s > R60**2) != exact)
        alg1.learn_one(t.i, t.j, t.y)
    disagree_ex2[name] = (comparison_only, factor_only)
    first_ex2[name] = first
''',
        "wrong_fails": ["06-ex2-tests"],
        "why": "different: numpy counts in lists, np.count_nonzero, np.argmax for the first disagreement; "
               "wrong: the changed rules judged on Algorithm 1's own F, trial by trial, instead of each learner run "
               "by itself (a blind reviewer's reading; it passed the earlier visible tests and scored 0 silently). "
               "Also rejected by the visible tests: the 'factor only' learner given strict=False (the printed rule), "
               "and R = depth instead of 2 depth",
    },
    "06-ex3-code": {
        "different": '''import numpy as np


class NaiveGE(MatrixPerceptron):
    def predict_one(self, i, j, path=None):
        return np.int64(self.score(i, j) >= self.threshold)


same_ex3, ties_ex3, tie_trials_ex3 = {}, {}, {}
for name in sequences:
    seq = sequences[name]
    naive = NaiveGE(B60)
    at_tie = []
    preds = []
    for t in seq:
        at_tie.append(naive.score(t.i, t.j) == naive.threshold)
        preds.append(naive.predict_one(t.i, t.j))
        naive.learn_one(t.i, t.j, t.y)
    same_ex3[name] = np.array_equal(run(BSTPerceptron(B60, strict=False), seq).predictions, preds)
    ties_ex3[name] = np.sum(at_tie)
    tie_trials_ex3[name] = np.flatnonzero(at_tie)
''',
        "wrong": '''class MatrixPerceptronGE(MatrixPerceptron):
    def _predict(self, i, j, path):
        return int(self.score(i, j) >= self.threshold)


same_ex3, ties_ex3, tie_trials_ex3 = {}, {}, {}
for name, trials in sequences.items():
    # ties counted on the strict learner instead of the >= one (section 4's ties)
    fast_ge, naive_ge, strict = BSTPerceptron(B60, strict=False), MatrixPerceptronGE(B60), MatrixPerceptron(B60)
    preds, tie_trials = [], []
    for k, t in enumerate(trials):
        if strict.score(t.i, t.j) == strict.threshold:
            tie_trials.append(k)
        preds.append(naive_ge.predict_one(t.i, t.j))
        naive_ge.learn_one(t.i, t.j, t.y)
        strict.learn_one(t.i, t.j, t.y)
    same_ex3[name] = bool(np.array_equal(run(fast_ge, trials).predictions, np.array(preds)))
    ties_ex3[name], tie_trials_ex3[name] = len(tie_trials), tie_trials
''',
        "wrong_fails": ["06-ex3-tests"],
        "why": "different: overrides the public predict_one, numpy int and bool values, the tie trials as a numpy array; "
               "wrong: the ties are those of the strict (>) learner of section 4, not the >= one (a blind reviewer's answer)",
    },
    "06-ex4-code": {
        "different": '''import itertools

import numpy as np

tree8 = BinarySupportTree.from_graph(sp.planted_partition(8, 3, 0.8, 0.15, seed=4)[0], seed=0)
vertex_pairs = list(itertools.combinations(range(tree8.n), 2))
vals = np.array([signed_path_overlap(tree8, s, t) for s, t in itertools.combinations(vertex_pairs, 2)])
neg_ex4 = np.sum(vals < 0)
both = list(itertools.combinations(vertex_pairs, 2))
negative_ex4 = [[np.array(both[k][1]), np.array(both[k][0])] for k in np.flatnonzero(vals < 0)]   # (t, s): same pair
max_abs_ex4 = np.abs(vals).max()
''',
        "wrong": '''from itertools import combinations

B8 = BinarySupportTree.from_graph(sp.planted_partition(8, 3, 0.8, 0.15, seed=4)[0], seed=0)
pairs = list(combinations(range(B8.n - 1), 2))          # off by one: misses the pairs of the last vertex
overlaps = {(s, t): signed_path_overlap(B8, s, t) for s, t in combinations(pairs, 2)}
negative_ex4 = [st for st, v in overlaps.items() if v < 0]
neg_ex4 = len(negative_ex4)
max_abs_ex4 = max(abs(v) for v in overlaps.values())
''',
        "wrong_fails": ["06-ex4-tests"],
        "why": "different: numpy array of overlaps, the pairs as numpy arrays in the order (t, s), numpy counts; "
               "wrong: the vertex pairs over range(n - 1), missing every pair of the last vertex (a blind reviewer's "
               "answer; max_abs_ex4 = 2 depth, an earlier reviewer's, is rejected by the visible tests as well)",
    },
    "06-ex5-code": {
        "different": '''import numpy as np

learner = learners1k["BST Perceptron"]
d = np.int64(B1k.depth)
entries_ex5 = np.int64(learner.entries)
bound_ex5 = learner.mistakes * (2 * d) * (2 * d - 1) // 2
dense_ex5 = np.int64(2 * B1k.num_leaves - 2) ** 2
''',
        "wrong": '''from math import comb

bst_ex5 = learners1k["BST Perceptron"]
entries_ex5 = bst_ex5.entries
# ordered pairs halved: (2 log2 N)^2 / 2 instead of C(2 log2 N, 2)
bound_ex5 = bst_ex5.mistakes * (2 * B1k.depth) ** 2 // 2
dense_ex5 = (2 * B1k.num_leaves - 2) ** 2
''',
        "wrong_fails": ["06-ex5-tests"],
        "why": "different: numpy integers, the binomial written out; wrong: M (2 log2 N)^2 / 2 instead of "
               "M C(2 log2 N, 2) (a blind reviewer's answer; C(2 log2 N - 1, 2) and C(2 log2 N + 1, 2) are rejected by "
               "the visible tests as well)",
    },
}
