"""Bench answers for notebooks/01_effective_resistance.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "01-ex1-code": {
        "different": '''from fractions import Fraction as F
# R_02: conductances of the three parallel routes add up: 1 (chord) + 1/2 (0-1-2) + 1/3 (0-4-3-2)
R02_ex1 = 1 / (F(1) + F(1, 2) + F(1, 3))
# R_03: (chord || 0-1-2) + edge (2, 3), in parallel with 0-4-3
left = 1 / (F(1) + F(1, 2)) + 1
R03_ex1 = F((left * 2).numerator, (left * 2).denominator) / (left + 2)
''',
        "wrong": '''# the right reductions, done in floats and wrapped in Fraction afterwards: not exact
R02_ex1 = Fraction(1 / (1 + 1 / 2 + 1 / 3))
R03_ex1 = Fraction(1 / (1 / (1 / (1 + 1 / 2) + 1) + 1 / 2))
''',
        "wrong_fails": ["01-ex1-tests"],
        "why": "different: conductance sum, product over sum, Fraction alias; wrong: Fraction(float) keeps the "
               "float's rounding error (a huge denominator), so the values are not the exact fractions",
    },
    "01-ex2-code": {
        "different": '''import numpy as np
n_edges, n_vertices = 3 * 5, 3 + 5
R_K35_ex2 = np.float64(n_vertices - 1) / np.float64(n_edges)
''',
        "wrong": '''R_K35_ex2 = (3 + 5) / (3 * 5)          # Foster with n instead of n - 1
''',
        "wrong_fails": ["01-ex2-tests"],
        "why": "different: numpy float64; wrong: off by one, n instead of n - 1 in Foster's theorem",
    },
    "01-ex3-code": {
        "different": '''import numpy as np
G_b, y_b = sp.barbell_graph(10)
cuts, phis = [], []                      # the names of section 7's lists, reused on purpose
for i in range(0, 10):
    if i > 0:
        G_b.add_edge(i, i + 10)
    cut = sp.cut_edges(G_b, y_b)
    cuts.append(len(cut))
    phis.append(effective_resistance(G_b, pairs=cut).sum())
cuts_ex3, phis_ex3 = np.array(cuts), np.array(phis)
''',
        "wrong": '''Gb, yb = sp.barbell_graph(10)
cuts_ex3, phis_ex3 = [], []
for i in range(10):
    if i:
        Gb.add_edge(i - 1, 9 + i)          # off by one: (0, 10), (1, 11), ..., (8, 18)
    cuts_ex3.append(sp.cut_size(Gb, yb))
    phis_ex3.append(float(resistance_weighted_cut(Gb, yb)))
''',
        "wrong_fails": ["01-ex3-tests"],
        "why": "different: numpy arrays, cut edges and sparse solves, and it overwrites section 7's lists cuts/phis "
               "(the tests of exercise 4 must not read them); wrong: off by one, the edges (i - 1, 9 + i) (its last "
               "phi is right, by the barbell's symmetry; its steps are not)",
    },
    "01-ex4-code": {
        "different": '''import numpy as np
G_digits, y_digits = labelled["digits 10-NN"]
edges = sp.cut_edges(G_digits, y_digits)
Rfull = {e: r for e, r in zip(edges, effective_resistance(G_digits, pairs=edges))}
phi_k_ex4 = np.zeros(10)
cut_k_ex4 = np.zeros(10, dtype=np.int64)
for (u, v), r in Rfull.items():
    for k in {int(y_digits[u]), int(y_digits[v])}:
        phi_k_ex4[k] += r
        cut_k_ex4[k] += 1
hardest_ex4, easiest_ex4 = np.argmax(phi_k_ex4), np.argmin(phi_k_ex4)
''',
        "wrong": '''Gd, yd = labelled["digits 10-NN"]
cut_k_ex4 = [sp.cut_size(Gd, yd, k) for k in range(10)]
cut_pairs = sp.cut_edges(Gd, yd)
R_cut = effective_resistance(Gd, pairs=cut_pairs)
# counts an edge only for the class of its first endpoint
phi_k_ex4 = [float(sum(r for (u, v), r in zip(cut_pairs, R_cut) if yd[u] == k)) for k in range(10)]
hardest_ex4, easiest_ex4 = int(np.argmax(phi_k_ex4)), int(np.argmin(phi_k_ex4))
''',
        "wrong_fails": ["01-ex4-tests"],
        "why": "different: one pass over the cut edges, numpy arrays and numpy ints; wrong: a cut edge counted for one of its two classes only",
    },
    "01-ex5-code": {
        "different": '''import numpy as np
import scipy.sparse as sp                # the usual alias: overwrites the notebook's sp (simpred_lite)
Lr = sp.csr_matrix(laplacian(Gr))
e01 = np.eye(Gr.number_of_nodes())[0] - np.eye(Gr.number_of_nodes())[1]
v_star = laplacian_pinv(Gr) @ e01
at_max_ex5 = np.float64((v_star[0] - v_star[1]) ** 2 / (v_star @ (Lr @ v_star)))
V = np.random.default_rng(5).normal(size=(2000, Gr.number_of_nodes()))
best_random_ex5 = np.max((V[:, 0] - V[:, 1]) ** 2 / np.einsum("ij,ij->i", V, (Lr @ V.T).T))
''',
        "wrong": '''L_r = laplacian(Gr).toarray()
x5 = np.zeros(Gr.number_of_nodes()); x5[0], x5[1] = 1.0, -1.0
ratio = lambda v: (v[0] - v[1]) ** 2 / (v @ L_r @ v)
at_max_ex5 = float(ratio(laplacian_pinv(Gr) @ x5))
rng_ex5 = np.random.default_rng(0)                           # the wrong seed
best_random_ex5 = float(max(ratio(v) for v in rng_ex5.standard_normal((2000, Gr.number_of_nodes()))))
''',
        "wrong_fails": ["01-ex5-tests"],
        "why": "different: vectorised over the 2000 vectors, sparse Laplacian, numpy scalars, and it rebinds sp to "
               "scipy.sparse (the tests must not use the notebook's sp); wrong: the vectors drawn with seed 0, not 5",
    },
}
