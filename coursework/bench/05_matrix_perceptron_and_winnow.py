"""Bench answers for notebooks/05_matrix_perceptron_and_winnow.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "05-ex1-code": {
        "different": '''import networkx as nx

cyc = nx.cycle_graph(6)
edges = list(cyc.edges)
Lp = np.linalg.pinv(nx.laplacian_matrix(cyc, nodelist=range(6)).toarray())
Psi = np.zeros((6, 6))
for k, (a, b) in enumerate(edges):
    Psi[k, a], Psi[k, b] = 1.0, -1.0


def flow(i, j):
    e = np.zeros(6)
    e[i], e[j] = 1.0, -1.0
    return Psi @ Lp @ e


psi03_ex1, psi01_ex1 = flow(0, 3), flow(0, 1)
R03_ex1, R01_ex1 = effective_resistance(cyc, pairs=[(0, 3), (0, 1)])
''',
        "wrong": '''import networkx as nx

C6 = nx.cycle_graph(6)
psi03_ex1 = similarity_instance(C6, 0, 3)
psi01_ex1 = similarity_instance(C6, 0, 1)
# resistance confused with the graph distance
R03_ex1, R01_ex1 = 3.0, 1.0
''',
        "wrong_fails": ["05-ex1-tests"],
        "why": "different: psi built as Psi L^+ (e_i - e_j) from a pseudoinverse, resistances left as numpy floats; "
               "wrong: effective resistance replaced by the shortest-path distance",
    },
    "05-ex2-code": {
        "different": '''import networkx as nx

def ratio(a):
    labels = np.array([0, 1] * (a // 2 + 1))[: a + 1].tolist() + [2]
    path = nx.path_graph(a + 2)
    U = comparator_matrix(path, np.array(labels))
    return np.sum(U * U) / (4 * sp.cut_size(path, labels) ** 2)


ratios_ex2 = np.array([ratio(a) for a in (1, 2, 5, 10, 50)])
''',
        "wrong": '''import networkx as nx

ratios_ex2 = []
for a in (1, 2, 5, 10, 50):
    labels_a = np.array([v % 2 for v in range(a + 1)] + [2])
    P_a = nx.path_graph(a + 2)
    phi_a = sp.cut_size(P_a, labels_a)
    # only the sum_k |Phi_k|^2 part of ||U||_F^2: the cross terms sum_{k != l} |Phi_kl|^2 dropped
    per_class = [sum(1 for u, v in P_a.edges if labels_a[u] != labels_a[v] and k in (labels_a[u], labels_a[v]))
                 for k in range(3)]
    ratios_ex2.append(sum(c * c for c in per_class) / (4 * phi_a**2))
''',
        "wrong_fails": ["05-ex2-tests"],
        "why": "different: a helper function, np.sum(U * U), a numpy array of ratios; "
               "wrong: ||U||_F^2 without its cross terms (ratios 0.375 ... 0.49, increasing, each times 4|Phi|^2 whole; "
               "the ratio-strictly-above-1/2 property rejects it, as it does cross terms counted once (0.5 at a = 1); the paper's 2|Phi|^2 denominator is rejected too)",
    },
    "05-ex3-code": {
        "different": '''import networkx as nx


class MatrixPerceptronGE(MatrixPerceptron):
    def predict_one(self, i, j, path=None):
        # a tie goes to "dissimilar"
        return np.int64(self.score(i, j) >= self.threshold)


P12 = nx.path_graph(12)
y12 = np.array([0] * 4 + [1] * 4 + [2] * 4)
seq = random_trials(P12, y12, 400, seed=0)
plain = MatrixPerceptron(P12)
ties = []
for t in seq:
    ties.append(plain.score(t.i, t.j) == plain.threshold)
    plain.learn_one(t.i, t.j, t.y)
tie_trials_ex3 = np.flatnonzero(ties)
mistakes_gt_ex3 = plain.mistakes
mistakes_ge_ex3 = run(MatrixPerceptronGE(P12), seq).total_mistakes
bound_ex3 = plain.R ** 2 * np.sum(comparator_matrix(P12, y12) ** 2)
''',
        "wrong": '''import networkx as nx


class MatrixPerceptronGE(MatrixPerceptron):
    def _predict(self, i, j, path):
        return int(self.score(i, j) >= self.threshold)


P12 = nx.path_graph(12)
y12 = np.repeat([0, 1, 2], 4)
trials_ex3 = random_trials(P12, y12, 400, seed=0)
gt, ge = MatrixPerceptron(P12), MatrixPerceptronGE(P12)
tie_trials_ex3 = []
for k, t in enumerate(trials_ex3):
    # ties found on the >= learner's run instead of the plain one's
    if ge.score(t.i, t.j) == ge.threshold:
        tie_trials_ex3.append(k)
    gt.learn_one(t.i, t.j, t.y)
    ge.learn_one(t.i, t.j, t.y)
mistakes_gt_ex3, mistakes_ge_ex3 = gt.mistakes, ge.mistakes
bound_ex3 = matrix_perceptron_mistake_bound(gt.R, float((comparator_matrix(P12, y12) ** 2).sum()))
''',
        "wrong_fails": ["05-ex3-tests"],
        "why": "different: overrides the public predict_one (returning a numpy int), the tie positions as a numpy "
               "array from np.flatnonzero, bound computed by hand; wrong: the ties found on the >= learner's run "
               "(3 of them) instead of the plain learner's (2): a listed trial is no tie of the plain learner (the visible "
               "completeness check also catches a list that misses a tie, e.g. [147] for [147, 166])",
    },
    "05-ex4-code": {
        "different": '''from scipy.optimize import newton

eta_ex4 = {}
for eta in np.array([0.5, 1.28, 3.0]):
    learner = MatrixWinnow(G2, cut_size=phi2, eta=float(eta))
    _, r = adaptive_run(learner, y2, 600, seed=1)
    eta_ex4[float(eta)] = [np.int64(r.total_mistakes), (np.exp(eta) + 1) / eta * R2 * phi2 * np.log(m2)]
eta_star_ex4 = newton(lambda e: np.exp(e) * (e - 1) - 1, 1.0)
const_ex4 = (np.exp(eta_star_ex4) + 1) / eta_star_ex4
''',
        "wrong": '''import math

from scipy.optimize import brentq

eta_ex4 = {}
# the adversary run once, against the default Winnow; its pairs then replayed for every eta
served, _ = adaptive_run(LowRankMatrixWinnow(G2, cut_size=phi2), y2, 600, seed=1)
for eta in (0.5, 1.28, 3.0):
    M_eta = run(LowRankMatrixWinnow(G2, cut_size=phi2, eta=eta), served).total_mistakes
    eta_ex4[eta] = (M_eta, matrix_winnow_mistake_bound(R2, phi2, m2, eta=eta))
eta_star_ex4 = brentq(lambda e: math.exp(e) * (e - 1) - 1, 0.5, 3)
const_ex4 = (math.exp(eta_star_ex4) + 1) / eta_star_ex4
''',
        "wrong_fails": ["05-ex4-tests"],
        "why": "different: Newton's method, numpy values, lists instead of tuples, the bound written out; "
               "wrong: the adaptive adversary run once against the default Winnow and its pairs replayed for every "
               "eta (a different game: 15 and 25 mistakes instead of 16 and 26 at eta = 0.5 and 3)",
    },
    "05-ex5-code": {
        "different": '''wrong_cut_ex5 = {}
for f in [0.25, 0.5, 1, 2, 4]:
    counts = []
    for play in ("random", "adversary"):
        learner = MatrixWinnow(G2, cut_size=f * phi2)
        if play == "random":
            counts.append(np.int64(run(learner, random_seq).total_mistakes))
        else:
            counts.append(np.int64(adaptive_run(learner, y2, 600, seed=1)[1].total_mistakes))
    wrong_cut_ex5[f] = counts
theta_ex5 = {f: np.float64(MatrixWinnow(G2, cut_size=f * phi2).threshold) for f in wrong_cut_ex5}
''',
        "wrong": '''wrong_cut_ex5, theta_ex5 = {}, {}
for f in (0.25, 0.5, 1, 2, 4):
    # the cut size rounded to a whole number of edges: 2 instead of 1.5 at f = 0.25
    c_hat = round(f * phi2)
    M_rand = run(MatrixWinnow(G2, cut_size=c_hat), random_seq).total_mistakes
    M_adv = adaptive_run(MatrixWinnow(G2, cut_size=c_hat), y2, 600, seed=1)[1].total_mistakes
    wrong_cut_ex5[f] = (M_rand, M_adv)
    theta_ex5[f] = MatrixWinnow(G2, cut_size=c_hat).threshold
''',
        "wrong_fails": ["05-ex5-tests"],
        "why": "different: lists of numpy ints, a loop over the two plays, thresholds as numpy floats from the kernel "
               "form; wrong: the cut size rounded to a whole number (2 instead of 1.5 at f = 0.25), which changes "
               "the adversary's count at f = 0.25 and the threshold's 1/f scaling",
    },
}
