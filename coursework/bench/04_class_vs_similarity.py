"""Bench answers for notebooks/04_class_vs_similarity.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "04-ex1-code": {
        "different": '''import numpy as np
from scipy.special import comb as comb_np


def tree_class_size(n, K, c):
    j = np.arange(c + 1)
    return np.int64(K) * np.sum(comb_np(n - 1, j, exact=False).round().astype(np.int64) * np.int64(K - 1) ** j)


H_sizes_ex1 = np.array([tree_class_size(n, K, c) for n, K, c in [(6, 3, 2), (5, 2, 1), (6, 4, 2), (12, 4, 3)]])
B_ex1 = np.floor(np.log2(H_sizes_ex1[-1]))
print(H_sizes_ex1, B_ex1)
''',
        "wrong": '''from math import comb


def tree_class_size(n, K, c):
    # off by one: n edges instead of the n - 1 edges of a tree
    return K * sum(comb(n, j) * (K - 1) ** j for j in range(c + 1))


H_sizes_ex1 = [tree_class_size(*case) for case in [(6, 3, 2), (5, 2, 1), (6, 4, 2), (12, 4, 3)]]
B_ex1 = int(math.floor(math.log2(H_sizes_ex1[-1])))
''',
        "wrong_fails": ["04-ex1-tests"],
        "why": "different: numpy int64 sizes in an array, scipy's comb, B as a numpy float from np.floor; "
               "wrong: binomial over n edges instead of n - 1 (off by one)",
    },
    "04-ex2-code": {
        "different": '''import numpy as np
from scipy.optimize import brentq

b0 = np.float64(0.294)
limit_ex2 = np.float64(2.0) / np.log2(2 / (1 + b0))
grid = np.linspace(0.2, 0.4, 17)
worst = [max(reduction_constant(k, float(b)) / math.log2(k) for k in range(2, 1001)) for b in grid]
best_beta_ex2 = grid[int(np.argmin(worst))]
best_worst_ex2 = np.min(worst)
beta_switch_ex2 = brentq(lambda b: reduction_constant(2, b) - reduction_constant(3, b) / math.log2(3), 0.25, 0.35)
''',
        "wrong": '''import numpy as np

# the limit "evaluated" at a large K instead of derived
limit_ex2 = reduction_constant(1000) / math.log2(1000)
grid = np.linspace(0.2, 0.4, 17)
worst = [max(reduction_constant(k, float(b)) / math.log2(k) for k in range(2, 1001)) for b in grid]
best_beta_ex2 = float(grid[int(np.argmin(worst))])
best_worst_ex2 = float(min(worst))
beta_switch_ex2 = 2 ** (1 / (1 - math.log2(3)))
''',
        "wrong_fails": ["04-ex2-tests"],
        "why": "different: per-beta loop over reduction_constant, numpy floats, brentq for the switch point; "
               "wrong: the limit replaced by rho_1000 (a large-K evaluation, 3.60 instead of 3.18)",
    },
    "04-ex3-code": {
        "different": '''import numpy as np

xs = np.linspace(2, 3, 1001)
hs = np.array([math.log2(x * (x - 1) / 0.294) / (math.log2(2 / 1.294) * math.log2(x)) for x in xs])
k = np.argmax(hs)
x_peak_ex3, h_peak_ex3 = xs[k], hs[k]
rho_ex3 = np.array([reduction_constant(K) / np.log2(K) for K in range(2, 1001)])
decreasing_ex3 = np.all(rho_ex3[1:] < rho_ex3[:-1])
min_drop_ex3 = np.min(rho_ex3[:-1] - rho_ex3[1:])
''',
        "wrong": '''import numpy as np

xs = np.linspace(2, 3, 1001)
# K^2 in place of K(K-1)
hs = np.log2(xs * xs / 0.294) / (np.log2(2 / 1.294) * np.log2(xs))
x_peak_ex3, h_peak_ex3 = float(xs[np.argmax(hs)]), float(hs.max())
rho_ex3 = [reduction_constant(K) / math.log2(K) for K in range(2, 1001)]
decreasing_ex3 = all(a > b for a, b in zip(rho_ex3, rho_ex3[1:]))
min_drop_ex3 = min(a - b for a, b in zip(rho_ex3, rho_ex3[1:]))
''',
        "wrong_fails": ["04-ex3-tests"],
        "why": "different: a Python loop over the grid, numpy float results, a numpy bool and a numpy float step; "
               "wrong: the looser K^2 for K(K-1) (h then peaks at x = 2 with 6.0)",
    },
    "04-ex5-code": {
        "different": '''import numpy as np
from simpred_lite.resistance import effective_resistance

E = np.array(list(Gp.edges))
R = np.asarray(effective_resistance(Gp, pairs=[tuple(e) for e in E]))
r = np.bincount(E[:, 0], weights=R, minlength=Gp.number_of_nodes()) + np.bincount(E[:, 1], weights=R, minlength=Gp.number_of_nodes())
r_ex5 = r
foster_ex5 = r.sum()
anchor = np.argmax(r)
rest = np.array([v for v in np.argsort(r, kind="stable") if v != anchor])
csum = np.cumsum(r[rest])
S_size_ex5 = np.searchsorted(csum, 15, side="left")
S_sum_ex5 = csum[S_size_ex5 - 1]
''',
        "wrong": '''import numpy as np
from simpred_lite.resistance import effective_resistance

r = np.zeros(Gp.number_of_nodes())
for (u, v), R in zip(Gp.edges, effective_resistance(Gp, pairs=list(Gp.edges))):
    r[u] += R
    r[v] += R
r_ex5 = list(r)
foster_ex5 = float(r.sum())
anchor = int(np.argmax(r))
# largest resistance degrees first instead of smallest first
order = sorted((v for v in range(len(r)) if v != anchor), key=lambda v: -r[v])
S, S_sum_ex5 = [], 0.0
for v in order:
    if S_sum_ex5 + r[v] >= 15:
        break
    S.append(v)
    S_sum_ex5 += r[v]
S_size_ex5 = len(S)
''',
        "wrong_fails": ["04-ex5-tests"],
        "why": "different: np.bincount for the resistance degrees, cumsum/searchsorted for S, numpy int and float "
               "results; wrong: the vertices taken largest r first (a smaller S)",
    },
}
