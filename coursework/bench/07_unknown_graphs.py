"""Bench answers for notebooks/07_unknown_graphs.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "07-ex1-code": {
        "different": '''trials_one = random_walk_trials(G, labels, 200, seed=2)
fa, fd = PathForest(40, grow="always"), PathForest(40, grow="disconnected")


def as_set(forest, x):
    return frozenset((tuple(forest.edges[k]), np.sign(x[k])) for k in np.nonzero(x)[0])


flags = np.array([as_set(fa, fa.instance(t.i, t.j, t.path)) != as_set(fd, fd.instance(t.i, t.j, t.path))
                  for t in trials_one])
differ_ex1 = np.int64(flags.sum())
first_ex1 = np.argmax(flags)
''',
        "wrong": '''# counts only the trials on which the two forest paths have different LENGTHS (misses equal-length paths
# through different edges)
trials_one = random_walk_trials(G, labels, 200, seed=2)
fa, fd = PathForest(40, grow="always"), PathForest(40, grow="disconnected")
diff = []
for k, t in enumerate(trials_one):
    xa, xd = fa.instance(t.i, t.j, t.path), fd.instance(t.i, t.j, t.path)
    if np.count_nonzero(xa) != np.count_nonzero(xd):
        diff.append(k)
differ_ex1, first_ex1 = len(diff), diff[0]
''',
        "wrong_fails": ["07-ex1-tests"],
        "why": "different: frozensets with numpy signs, numpy count and argmax; wrong: only length differences counted "
               "(a lower bound: 23 instead of 41 trials)",
    },
    "07-ex2-code": {
        "different": '''G_ex2, labels_ex2 = sp.planted_partition(80, 2, p_in=0.2, p_out=0.015, seed=7)
r_ex2 = rnorm_exponent(80)
s_ex2 = r_ex2 / (r_ex2 - 1)
phiT_ex2, norm_ex2, bound_ex2 = {}, {}, {}
for key, make in (("cut-crossing", cut_crossing_trials), ("shortest", shortest_path_trials)):
    F_ex2 = PathForest(80)
    for t in make(G_ex2, labels_ex2, 2000, seed=8):
        F_ex2.instance(t.i, t.j, t.path)
    T_ex2 = complete_spanning_tree(G_ex2, F_ex2.edges)
    phiT_ex2[key] = np.int64(sum(labels_ex2[a] != labels_ex2[b] for a, b in T_ex2))
    U = np.asarray(target_matrix(class_coefficients(T_ex2, labels_ex2)), dtype=float)
    norm_ex2[key] = np.linalg.norm(U.ravel(), ord=s_ex2)
    bound_ex2[key] = rnorm_perceptron_mistake_bound(80, norm_ex2[key])
''',
        "wrong": '''# the 1-norm of vec(U) instead of its s-norm
G_ex2, labels_ex2 = sp.planted_partition(80, 2, p_in=0.2, p_out=0.015, seed=7)
phiT_ex2, norm_ex2, bound_ex2 = {}, {}, {}
for name, gen in [("shortest", shortest_path_trials), ("cut-crossing", cut_crossing_trials)]:
    forest = PathForest(80)
    for t in gen(G_ex2, labels_ex2, 2000, seed=8):
        forest.instance(t.i, t.j, t.path)
    coef = class_coefficients(complete_spanning_tree(G_ex2, forest.edges), labels_ex2)
    phiT_ex2[name] = int(np.abs(coef).sum() // 2)
    norm_ex2[name] = float(np.abs(target_matrix(coef)).sum())
    bound_ex2[name] = rnorm_perceptron_mistake_bound(80, norm_ex2[name])
''',
        "wrong_fails": ["07-ex2-tests"],
        "why": "different: cut branches counted directly, numpy norm of order s, other loop order; wrong: 1-norm instead of s-norm",
    },
    "07-ex3-code": {
        "different": '''from simpred_lite.learners.unknown import rnorm_margin

c_star_ex3 = 0.5 + math.e / (1 + math.e)
const_ex3 = {}
for c in (0.75, 1.0, c_star_ex3):
    d = c - 0.5
    const_ex3[c] = ((1 + math.e) * d + math.e) ** 2 / (8 * d)


class ScaledThreshold(RNormPerceptron):
    def __init__(self, n, factor):
        super().__init__(n)
        self.factor = factor

    def _decide(self, idx, sgn):
        margin = rnorm_margin(self._entries(*self._support(idx, sgn)), self.hist, self.r, self._norm_cache())
        threshold = self.factor * (self.r - 1) * np.power(float(len(idx)), 4 / self.r)
        return 1 if margin >= threshold else 0


G_ex3, labels_ex3 = sp.planted_partition(80, 2, p_in=0.2, p_out=0.002, seed=7)
trials_ex3 = cut_crossing_trials(G_ex3, labels_ex3, 2000, seed=8)
threshold_rnorm_ex3 = ScaledThreshold
mistakes_ex3 = {c: np.int64(run(ScaledThreshold(80, c), trials_ex3).total_mistakes) for c in const_ex3}
''',
        "wrong": '''from simpred_lite.learners.unknown import rnorm_margin

# the constant with 4 (c - 1/2) in the denominator instead of 8 (c - 1/2)
c_star_ex3 = (1 + 3 * math.e) / (2 * (1 + math.e))
const_ex3 = {c: ((c - 0.5) + math.e * (c + 0.5)) ** 2 / (4 * (c - 0.5)) for c in (0.75, 1.0, c_star_ex3)}


class ThresholdRNorm(RNormPerceptron):
    def __init__(self, n, c):
        super().__init__(n)
        self.c = c

    def _decide(self, idx, sgn):
        margin = rnorm_margin(self._entries(*self._support(idx, sgn)), self.hist, self.r, self._norm_cache())
        return int(margin >= self.c * (self.r - 1) * len(idx) ** (4.0 / self.r))


G_ex3, labels_ex3 = sp.planted_partition(80, 2, p_in=0.2, p_out=0.002, seed=7)
trials_ex3 = cut_crossing_trials(G_ex3, labels_ex3, 2000, seed=8)
threshold_rnorm_ex3 = ThresholdRNorm
mistakes_ex3 = {c: run(ThresholdRNorm(80, c), trials_ex3).total_mistakes for c in const_ex3}
''',
        "wrong_fails": ["07-ex3-tests"],
        "why": "different: c* as 1/2 + e/(1+e), constant in d = c - 1/2, numpy power and ints; wrong: factor 4 instead of 8 in the constant",
    },
    "07-ex4-code": {
        "different": '''from simpred_lite.game.trials import Trial


def winnow1_flags(n, trials):
    # Winnow1 with integer weights (powers of 2, or 0): promote x2, eliminate
    forest, w, flags = PathForest(n), np.ones(n - 1, dtype=np.int64), []
    for t in trials:
        on = forest.instance(t.i, t.j, t.path) != 0
        guess = 1 if w[on].sum() >= n - 1 else 0
        if guess != t.y:
            w[on] = 2 * w[on] if t.y == 1 else 0
        flags.append(guess != t.y)
    return np.array(flags)


winnow1_ex4 = {}
for n_tree, K_tree in ((1000, 8), (400, 5), (100, 3)):
    T_tree, y_tree = random_tree_with_clusters(n_tree, K_tree, seed=n_tree)
    M = np.int64(winnow1_flags(n_tree, shortest_path_trials(T_tree, y_tree, 2000, seed=1)).sum())
    winnow1_ex4[(n_tree, K_tree)] = (M, np.int64(1 + 2 * (K_tree - 1) * np.ceil(np.log2(n_tree - 1))))
reveal = [Trial(a, b, int(labels4[a] != labels4[b]), (a, b)) for a, b in tree4]
cycle_last_ex4 = np.int64(winnow1_flags(7, reveal + cycle * 100)[-100:].sum())
''',
        "wrong": '''# counts the cycle mistakes on the FIRST 100 cycle trials instead of the last 100
from simpred_lite.game.trials import Trial


class TreeWinnow1:
    def __init__(self, n):
        self.forest, self.w, self.theta, self.mistakes = PathForest(n), np.ones(n - 1), float(n - 1), 0

    def run(self, trials):
        mistakes = []
        for t in trials:
            idx = np.flatnonzero(self.forest.instance(t.i, t.j, t.path))
            y_hat = int(self.w[idx].sum() >= self.theta)
            if y_hat != t.y:
                self.w[idx] = self.w[idx] * 2 if t.y == 1 else 0.0
            mistakes.append(int(y_hat != t.y))
        self.mistakes += sum(mistakes)
        return np.array(mistakes)


winnow1_ex4 = {}
for n_tree, K_tree in ((100, 3), (400, 5), (1000, 8)):
    T_tree, y_tree = random_tree_with_clusters(n_tree, K_tree, seed=n_tree)
    learner = TreeWinnow1(n_tree)
    learner.run(shortest_path_trials(T_tree, y_tree, 2000, seed=1))
    winnow1_ex4[(n_tree, K_tree)] = (learner.mistakes, 1 + 2 * (K_tree - 1) * math.ceil(math.log2(n_tree - 1)))
w1 = TreeWinnow1(7)
w1.run([Trial(a, b, int(labels4[a] != labels4[b]), (a, b)) for a, b in tree4])
cycle_last_ex4 = int(w1.run(cycle * 100)[:100].sum())
''',
        "wrong_fails": ["07-ex4-tests"],
        "why": "different: integer weights, one function, other key order, numpy ints; wrong: cycle mistakes counted on the first 100 cycle trials, not the last 100",
    },
    "07-ex5-code": {
        "different": '''G_grid, labels_grid = sp.grid_graph(20, 20)
diam_ex5 = np.int64(max(max(d.values()) for _, d in nx.all_pairs_shortest_path_length(G_grid)))
longest_ex5, pair_ex5 = {}, {}
for name, gen in [("shortest", shortest_path_trials), ("random walk", random_walk_trials)]:
    forest, lengths, pairs = PathForest(400), [], []
    for t in gen(G_grid, labels_grid, 300, seed=0):
        lengths.append(np.count_nonzero(forest.instance(t.i, t.j, t.path)))
        pairs.append(np.array([t.j, t.i]))  # a pair is unordered: (j, i) is accepted
    longest_ex5[name] = np.max(lengths)
    pair_ex5[name] = pairs[int(np.argmax(lengths))]
''',
        "wrong": '''# the forest path counted in vertices (edges + 1) instead of edges
G_grid, labels_grid = sp.grid_graph(20, 20)
diam_ex5 = nx.diameter(G_grid)
longest_ex5, pair_ex5 = {}, {}
for name, gen in [("random walk", random_walk_trials), ("shortest", shortest_path_trials)]:
    forest = PathForest(400)
    longest_ex5[name], pair_ex5[name] = max((int(np.count_nonzero(forest.instance(t.i, t.j, t.path))) + 1, (t.i, t.j))
                                            for t in gen(G_grid, labels_grid, 300, seed=0))
''',
        "wrong_fails": ["07-ex5-tests"],
        "why": "different: diameter from all-pairs distances, count_nonzero, numpy max, the pair as a numpy array in the order (j, i); wrong: the forest path counted in vertices, not edges",
    },
}
