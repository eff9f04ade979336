"""The iterative kernel (Jacobi-PCG, no factor): the same R, certified solves, identical predictions, the fallback.

The iterative kernel is forced on small graphs with ``kernels.SPARSE_SOLVER = "iterative"`` and
``DENSE_LIMIT`` lowered, as ``test_kernel_scale.py`` forces the factor's kernel, so that its
predictions can be compared with the factor's and the dense kernel's on the same trials.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import chi2

import simpred_lite.learners.kernels as kernels
from simpred_lite import checks
from simpred_lite.game.adversaries import cut_biased_trials
from simpred_lite.game.play import run
from simpred_lite.game.trials import random_trials
from simpred_lite.graphs import cut_size, grid_graph, planted_partition, validate_graph
from simpred_lite.learners import MatrixPerceptron, MatrixWinnow
from simpred_lite.learners.iterative import IterativeKernel, LowDegreeElimination, laplacian_pcg, sketch_factor
from simpred_lite.resistance import laplacian, laplacian_pinv


def _chords(n, seed, K=3):
    """A cycle with ``n // 10`` random chords, labelled in ``K`` arcs."""
    rng = np.random.default_rng(seed)
    G = nx.cycle_graph(n)
    for _ in range(n // 10):
        a, b = rng.integers(n, size=2)
        if a != b:
            G.add_edge(int(a), int(b))
    return G, (np.arange(n) * K) // n


_GRAPHS = {
    "blocks-120": lambda: planted_partition(120, 3, 0.12, 0.02, seed=1),
    "blocks-400": lambda: planted_partition(400, 4, 0.03, 0.004, seed=2),
    "grid-9x11": lambda: grid_graph(9, 11, K=3),
    "chords-200": lambda: _chords(200, seed=3),
    "chords-60": lambda: _chords(60, seed=4),
}


def _iterative(G):
    return IterativeKernel(kernels.frozen_copy(validate_graph(G)))


@pytest.mark.parametrize("name", sorted(_GRAPHS))
def test_iterative_R_is_the_dense_all_pairs_maximum(name):
    G, _ = _GRAPHS[name]()
    kern = _iterative(G)
    dense = kernels.DenseKernel(kernels.frozen_copy(validate_graph(G)))
    assert abs(kern.R - dense.R) <= kern.diameter_error() + dense.diameter_error(), \
        "the iterative kernel's R should be the all-pairs maximum within the certified errors"
    assert 0 < kern.diameter_error() < 1e-8
    Lp = dense.Lp
    a, b = kern.diameter_pair
    assert abs(Lp[a, a] + Lp[b, b] - 2 * Lp[a, b] - dense.R) <= 1e-9 * dense.R, \
        "the diameter pair should be the dense one or an equal-valued one"


@pytest.mark.parametrize("degree", [0, IterativeKernel.ELIMINATION_DEGREE])
@pytest.mark.parametrize("name", ["blocks-120", "grid-9x11", "chords-200"])
def test_the_certified_bound_covers_the_pcg_error(monkeypatch, name, degree):
    # degree 0: CG on the whole Laplacian; the default: CG on what the elimination leaves (on chords-200,
    # a cycle with 20 chords, only a few dozen vertices: CG is then all but direct even at a loose rtol)
    monkeypatch.setattr(IterativeKernel, "ELIMINATION_DEGREE", degree)
    G, _ = _GRAPHS[name]()
    Lp = laplacian_pinv(G)
    n = G.number_of_nodes()
    rng = np.random.default_rng(0)
    pairs = rng.integers(n, size=(12, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    B = np.zeros((n, len(pairs)))
    B[pairs[:, 0], np.arange(len(pairs))] += 1.0
    B[pairs[:, 1], np.arange(len(pairs))] -= 1.0
    true = Lp @ B
    for rtol in (1e-13, 1e-5):  # the default, and a loose tolerance where the error is far from rounding
        monkeypatch.setattr(IterativeKernel, "RTOL", rtol)
        kern = _iterative(G)
        X = kern._solve(B)
        err = kern._residual_bound(X, B)
        actual = np.linalg.norm((X - X[kern.ground]) - (true - true[kern.ground]), axis=0)
        assert np.all(actual <= err), f"the residual bound should cover the PCG error (rtol {rtol})"
        if rtol == 1e-13:
            assert err.max() < 1e-9
        elif kern._elimination.core.size > n // 2:
            assert actual.max() > 1e-9, "a loose tolerance should leave a visible error (the test means something)"
        for c in range(0, len(pairs), 3):  # a column alone is its column of the block, bit for bit
            assert np.array_equal(kern._solve(B[:, c:c + 1])[:, 0], X[:, c])
        g, e = kern.pair(int(pairs[0, 0]), int(pairs[0, 1]))
        assert np.array_equal(g, X[:, 0]) and abs(e - err[0]) <= 1e-12 * err[0]  # the bound's own rounding


def test_the_sketch_bounds_the_diagonal_and_rules_vertices_out(monkeypatch):
    # a full-size sketch (k = 1600) on a small graph: u_v >= d_v = R_vc everywhere, and most columns ruled out
    monkeypatch.setattr(IterativeKernel, "SKETCH_MIN", 1600)
    G, _ = planted_partition(400, 4, 0.03, 0.004, seed=2)
    kern = _iterative(G)
    assert kern.sketch_size == 1600
    Lp = laplacian_pinv(G)
    c = kern.ground
    d = np.diag(Lp) + Lp[c, c] - 2 * Lp[:, c]
    u = kern.diagonal_bounds
    assert np.all(u >= d) and u[c] == 0.0, "the sketch's bounds should hold (they fail with probability 4e-16 here)"
    assert np.median(u[d > 0] / d[d > 0]) < 1.6, "the bounds should be within a small factor of d"
    assert kern.columns_solved < 200, "the sketch should rule most vertices out"
    dense = kernels.DenseKernel(kernels.frozen_copy(validate_graph(G)))
    assert abs(kern.R - dense.R) <= kern.diameter_error() + dense.diameter_error()
    assert np.allclose(kern.diagonal(), d, rtol=1e-10, atol=1e-12), "diagonal() by PCG columns"


def _accurate_solve(kern, B):
    """``L_c^{-1} B`` (rows ``c`` zero) by a dense solve with two steps of refinement, the residual
    in extended precision: accurate to a few units of rounding, far below the bounds tested."""
    keep = kern._keep
    Lc = kern._Lc.toarray()
    Lx = Lc.astype(np.longdouble)
    b = np.asarray(B, dtype=float)[keep]
    x = np.linalg.solve(Lc, b)
    for _ in range(2):
        r = b.astype(np.longdouble) - Lx @ x.astype(np.longdouble)
        x = (x.astype(np.longdouble) + np.linalg.solve(Lc, r.astype(float))).astype(float)
    out = np.zeros((kern.n,) + b.shape[1:])
    out[keep] = x
    return out


@pytest.mark.parametrize("degree", [0, IterativeKernel.ELIMINATION_DEGREE])
@pytest.mark.parametrize("name", ["blocks-120", "grid-9x11", "chords-200", "chords-60"])
def test_the_row_sum_bound_bounds_the_inverse_row_sums(monkeypatch, name, degree):
    monkeypatch.setattr(IterativeKernel, "ELIMINATION_DEGREE", degree)  # 0: CG on the whole Laplacian
    G, _ = _GRAPHS[name]()
    kern = _iterative(G)
    ones = np.ones((kern.n, 1))
    ones[kern.ground] = 0.0
    true = _accurate_solve(kern, ones)[:, 0]  # L_c^{-1} 1, zero at the ground
    h = kern.inverse_row_sum_bounds()
    assert h[kern.ground] == 0.0
    assert np.all(h >= true), "h should bound L_c^{-1} 1 entrywise"
    assert np.all(h <= true * (1 + 1e-9)), "and closely (a solve at rtol 1e-13)"
    monkeypatch.setattr(IterativeKernel, "RTOL", 1e-4)  # a loose solve: a visibly different w, still a bound
    loose = kern.inverse_row_sum_bounds()
    assert np.all(loose >= true)
    if kern._elimination.core.size > kern.n // 2:  # else CG on the few vertices left is all but direct
        assert np.abs(loose - h).max() > 1e-8 * h.max()


@pytest.mark.parametrize("degree", [0, IterativeKernel.ELIMINATION_DEGREE])
@pytest.mark.parametrize("name", ["blocks-120", "grid-9x11", "chords-200"])
@pytest.mark.parametrize("rtol", [1e-13, 1e-8, 1e-4])
def test_the_entrywise_bound_covers_each_entry_of_the_pcg_error(monkeypatch, name, rtol, degree):
    # |x~_v - x_v| <= ||L_c x~ - b||_inf * h_v for every vertex and column, at a tight and a loose tolerance
    monkeypatch.setattr(IterativeKernel, "ELIMINATION_DEGREE", degree)  # 0: CG on the whole Laplacian
    G, _ = _GRAPHS[name]()
    kern = _iterative(G)
    n, c = kern.n, kern.ground
    rng = np.random.default_rng(3)
    B = rng.standard_normal((n, 9))
    B[:, 0] = 0.0
    B[rng.integers(n), 0], B[rng.integers(n), 0] = 1.0, -1.0  # a pair's right-hand side too
    B[c] = 0.0
    X = kern._pcg(B, rtol)
    true = _accurate_solve(kern, B)
    h = kern.inverse_row_sum_bounds()
    rinf = kern._residual_inf_bound(X, B)
    bound = h[:, None] * rinf[None, :]
    actual = np.abs(X - true)
    assert np.all(actual <= bound), f"the entrywise bound should cover the PCG error (rtol {rtol})"
    if rtol == 1e-4 and kern._elimination.core.size > n // 2:
        assert actual.max() > 1e-8, "a loose tolerance should leave a visible error (the test means something)"
    # it is per vertex and not above the 2-norm bound by more than the norms' ratio allows
    two = kern._residual_bound(X, B)
    assert np.all(bound.max(axis=0) <= two * np.sqrt(n) + 1e-300)


@pytest.mark.parametrize("sketch_rtol", [1e-8, 1e-4])
def test_the_sketch_error_term_bounds_each_vertexs_sketch_error(monkeypatch, sketch_rtol):
    # the exact sketch (dense L_c^{-1} on the same seeded Gaussians) against the computed one: per vertex,
    # ||y~_v - y_v||_2 <= min(h_v sqrt(sum_j ||r_j||_inf^2), the 2-norm term), and u_v >= d_v
    monkeypatch.setattr(IterativeKernel, "SKETCH_RTOL", sketch_rtol)
    G, _ = _GRAPHS["blocks-400"]()
    kern = _iterative(G)
    n, c, k = kern.n, kern.ground, kern.sketch_size
    Lp = laplacian_pinv(G)
    Ginv = Lp - Lp[:, [c]] - Lp[[c], :] + Lp[c, c]  # L_c^{-1} (row and column c zero), for the diagonal
    up = np.array(sorted((min(a, b), max(a, b)) for a, b in G.edges()))
    # the kernel's edge order: the upper triangle of L in CSR (row-major) order
    import scipy.sparse as sp
    tri = sp.triu(kern._L, 1).tocoo()
    assert len(up) == tri.nnz
    rng = np.random.default_rng(kern.SKETCH_SEED)
    exact = np.zeros((n, k))
    approx = np.zeros((n, k))
    for start in range(0, k, 64):
        Z = rng.standard_normal((tri.nnz, min(64, k - start)))
        Bz = np.zeros((n, Z.shape[1]))
        np.add.at(Bz, tri.row, Z)
        np.add.at(Bz, tri.col, -Z)
        exact[:, start:start + Z.shape[1]] = _accurate_solve(kern, Bz)
        approx[:, start:start + Z.shape[1]] = kern._pcg(Bz, sketch_rtol)
    u = kern.diagonal_bounds
    dg = kern.sketch_diagnostics
    e_inf = dg["h"] * np.sqrt(dg["rinf2"])
    e_two = np.sqrt(dg["err2"])
    actual = np.linalg.norm(approx - exact, axis=1)
    for name, bound in (("entrywise", e_inf), ("2-norm", e_two), ("row", dg["e_row"]), ("used", dg["err"])):
        assert np.all(actual <= bound * (1 + 1e-12)), f"the {name} bound should cover each vertex's sketch error"
    kept = np.arange(n) != c
    assert np.all(e_inf[kept] < e_two), "the entrywise term should be tighter than the 2-norm one here"
    assert np.all(dg["e_row"][kept] <= e_inf[kept]), "and the row term tighter still"
    if sketch_rtol == 1e-4:
        assert actual.max() > 1e-6, "a loose tolerance should leave a visible error (the test means something)"
    d = np.diag(Ginv)
    assert np.all(u >= d) and u[c] == 0.0, "the sketch's bounds should hold"
    # the exact sketch's own estimate, widened by the Chernoff factor, is below u as well
    t = sketch_factor(k, kern.SKETCH_FAILURE)
    assert np.all((exact ** 2).sum(axis=1) / (k * t) <= u * (1 + 1e-12))


def test_sketch_factor_is_the_chernoff_bound():
    for k in (64, 400, 1600):
        t = sketch_factor(k, 1e-18)
        p = chi2.cdf(t * k, k)
        assert 1e-24 < p <= 1e-18, (k, t, p)  # the bound holds, and is not far from the true tail
    assert sketch_factor(64, 1e-18) < sketch_factor(1600, 1e-18) < 1


def test_laplacian_pcg_solves_a_block_bit_for_bit_as_columns():
    G, _ = planted_partition(150, 3, 0.1, 0.02, seed=5)
    L = laplacian(G)
    rng = np.random.default_rng(1)
    B = rng.standard_normal((150, 7))
    B -= B.mean(axis=0)
    X, its, res = laplacian_pcg(L, B, 1e-12)
    assert np.all(res <= 1e-12) and np.all(its > 0)
    assert np.abs(L @ X - B).max() < 1e-9
    for c in range(7):
        assert np.array_equal(laplacian_pcg(L, B[:, c:c + 1], 1e-12)[0][:, 0], X[:, c])
    Z, its0, _ = laplacian_pcg(L, np.zeros((150, 2)), 1e-12)
    assert not Z.any() and not its0.any(), "a zero right-hand side is solved by zero"


def _predictions(G, y, trials, solver, monkeypatch):
    """Matrix Perceptron and Matrix Winnow predictions (with the prefetch hint) on the given kernel path."""
    with monkeypatch.context() as m:
        if solver != "dense":
            m.setattr(kernels, "DENSE_LIMIT", 2)
            m.setattr(kernels, "SPARSE_SOLVER", "auto" if solver == "factor" else "iterative")
        F = validate_graph(G, freeze=True)  # a fresh kernel for each path
        phi = max(cut_size(G, y), 1)
        p, w = MatrixPerceptron(F), MatrixWinnow(F, cut_size=phi)
        kind = {"dense": kernels.DenseKernel, "factor": kernels.SparseKernel, "iterative": IterativeKernel}[solver]
        assert type(p._kern) is kind and p._kern is w._geo
        out = []
        for learner in (p, w):
            learner.prefetch([(t.i, t.j) for t in trials])
            out.append(run(learner, trials).predictions)
        return out, p._certifier.fallbacks


@pytest.mark.parametrize("name", ["blocks-120", "blocks-400", "grid-9x11", "chords-200"])
def test_the_iterative_learners_predict_as_the_factor_and_dense_ones(monkeypatch, name):
    G, y = _GRAPHS[name]()
    trials = random_trials(G, y, 300, seed=7)
    out = {s: _predictions(G, y, trials, s, monkeypatch) for s in ("dense", "factor", "iterative")}
    for s in ("factor", "iterative"):
        assert np.array_equal(out[s][0][0], out["dense"][0][0]), f"Matrix Perceptron on the {s} path"
        assert np.array_equal(out[s][0][1], out["dense"][0][1]), f"Matrix Winnow on the {s} path"


def test_exact_ties_fall_back_to_exact_arithmetic_on_the_iterative_path(monkeypatch):
    # cut edges of a symmetric graph: exact ties for the Perceptron, decided exactly on each path
    G = nx.petersen_graph()
    y = np.random.default_rng(1).integers(0, 2, 10)
    trials = cut_biased_trials(G, y, 200, seed=5, p_cut=0.5)
    out = {s: _predictions(G, y, trials, s, monkeypatch) for s in ("factor", "iterative")}
    assert np.array_equal(out["iterative"][0][0], out["factor"][0][0])
    assert np.array_equal(out["iterative"][0][1], out["factor"][0][1])
    assert out["iterative"][1] == out["factor"][1] > 0, "the same trials should need the exact fallback"


def test_make_kernel_falls_back_to_the_iterative_kernel_when_the_factor_is_refused(monkeypatch):
    # On graphs small enough for a test the factor is the cheaper one (about 5e6 steps here against
    # 2e8 for the iterations); the iterations' estimate is scaled down so that a limit lies between them.
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    monkeypatch.setattr(IterativeKernel, "ITERATION_ESTIMATE", 1)
    monkeypatch.setattr(checks, "WORK_LIMIT", 3 * 10**6)
    G, y = planted_partition(400, 4, 0.03, 0.01, seed=1)
    with pytest.raises(kernels.FactorTooLargeError, match="nonzeros in the factors"):
        kernels.SparseKernel(kernels.frozen_copy(validate_graph(G)))
    F = validate_graph(G, freeze=True)
    p, w = MatrixPerceptron(F), MatrixWinnow(F, cut_size=cut_size(G, y))
    assert type(p._kern) is IterativeKernel and p._kern is w._geo, "one iterative kernel, shared"
    dense = kernels.DenseKernel(kernels.frozen_copy(validate_graph(G)))
    assert abs(p._kern.R - dense.R) <= p._kern.diameter_error() + dense.diameter_error()


def test_make_kernel_names_both_costs_when_both_are_refused(monkeypatch):
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    monkeypatch.setattr(checks, "WORK_LIMIT", 10**6)
    F = validate_graph(planted_partition(400, 4, 0.03, 0.01, seed=1)[0], freeze=True)
    with pytest.raises(checks.WorkLimitError) as refusal:
        kernels.make_kernel(F, "Matrix Perceptron")
    msg = str(refusal.value)
    assert "both sparse kernels are refused" in msg
    assert "nonzeros in the factors" in msg and "Jacobi-PCG" in msg and "sketch solves" in msg
    # the next learner on the graph gets the same refusal at once (one per graph and limit)
    with pytest.raises(checks.WorkLimitError) as again:
        kernels.make_kernel(F, "Matrix Winnow")
    assert str(again.value) == msg


def test_the_solver_setting_is_checked(monkeypatch):
    monkeypatch.setattr(kernels, "DENSE_LIMIT", 2)
    monkeypatch.setattr(kernels, "SPARSE_SOLVER", "amg")
    with pytest.raises(ValueError, match="SPARSE_SOLVER"):
        kernels.make_kernel(nx.cycle_graph(6), "Matrix Perceptron")


# --- the low-degree elimination before CG ---------------------------------------------------------

def _weighted(G, seed):
    """``G`` with integer weights 1..5 (the elimination must carry weights, and merge parallel fill)."""
    rng = np.random.default_rng(seed)
    H = nx.Graph()
    H.add_weighted_edges_from((u, v, int(rng.integers(1, 6))) for u, v in G.edges())
    return H


def _elimination_graphs():
    return {
        "tree-40": nx.random_labeled_tree(40, seed=1),
        "chords-60": _chords(60, seed=4)[0],
        "grid-6x7": nx.convert_node_labels_to_integers(nx.grid_2d_graph(6, 7)),
        "blocks-120": planted_partition(120, 3, 0.12, 0.02, seed=1)[0],
        "weighted-chords-50": _weighted(_chords(50, seed=5)[0], seed=6),
    }


@pytest.mark.parametrize("degree", [2, 4, 8])
@pytest.mark.parametrize("name", sorted(_elimination_graphs()))
def test_the_elimination_leaves_the_exact_schur_complement(name, degree):
    # float Schur complement against S = L_KK - L_KE L_EE^{-1} L_EK in rationals (python-flint)
    import flint

    G = _elimination_graphs()[name]
    L = nx.laplacian_matrix(G, nodelist=range(G.number_of_nodes()), weight="weight").toarray()
    elim = LowDegreeElimination(sp.csr_matrix(L.astype(float)), max_degree=degree)
    K, E = elim.core, elim.order
    assert np.array_equal(np.sort(np.r_[K, E]), np.arange(len(L))), "every vertex eliminated or kept, once"
    S = elim.schur.toarray()
    assert np.allclose(S.sum(axis=1), 0, atol=1e-12) and np.all(S - np.diag(np.diag(S)) <= 0), "a Laplacian"

    def block(rows, cols):
        return flint.fmpq_mat([[int(L[a, b]) for b in cols] for a in rows]) if len(rows) and len(cols) else None

    exact = block(K, K)
    if E.size:
        exact = exact - block(K, E) * block(E, E).inv() * block(E, K)
    exact_f = np.array([[float(exact[a, b]) for b in range(K.size)] for a in range(K.size)])
    assert np.allclose(S, exact_f, rtol=1e-13, atol=1e-13 * np.abs(exact_f).max())
    if name.startswith("tree"):
        assert K.size == 1, "a tree is eliminated to one vertex"
    if degree >= 2:
        assert all(G.degree(v) > 2 for v in K) or K.size <= 2, "every vertex of degree <= 2 goes"


@pytest.mark.parametrize("degree", [0, 2, 4, 8])
@pytest.mark.parametrize("name", sorted(_elimination_graphs()))
def test_the_eliminated_solve_matches_the_pseudoinverse_and_is_blockwise_bit_exact(name, degree):
    G = _elimination_graphs()[name]
    n = G.number_of_nodes()
    L = nx.laplacian_matrix(G, nodelist=range(n), weight="weight").astype(float)
    Lp = np.linalg.pinv(L.toarray())
    rng = np.random.default_rng(7)
    B = rng.standard_normal((n, 6))
    B -= B.mean(axis=0)
    elim = LowDegreeElimination(L, max_degree=degree)
    X, its, _ = elim.solve(B, 1e-13)
    X -= X.mean(axis=0)
    assert np.allclose(X, Lp @ B, rtol=0, atol=1e-9 * np.abs(Lp @ B).max())
    for c in range(6):
        assert np.array_equal(elim.solve(B[:, c:c + 1], 1e-13)[0][:, 0] - elim.solve(B[:, c:c + 1], 1e-13)[0][0, 0],
                              elim.solve(B, 1e-13)[0][:, c] - elim.solve(B, 1e-13)[0][0, c])
    if degree == 0:
        assert elim.order.size == 0 and elim.core.size == n
    if name.startswith("tree") and degree >= 1:
        assert np.all(its == 0), "a tree is solved by substitution alone"


def test_the_elimination_shortens_cg_on_a_sparse_block_model():
    # the reason it is there: fewer vertices left, and fewer iterations on them
    G, _ = planted_partition(2000, 4, 0.002, 0.0001, seed=3)
    G = G.subgraph(max(nx.connected_components(G), key=len))
    G = nx.convert_node_labels_to_integers(G)
    L = laplacian(G)
    rng = np.random.default_rng(0)
    B = rng.standard_normal((L.shape[0], 8))
    B -= B.mean(axis=0)
    _, its0, _ = LowDegreeElimination(L, max_degree=0).solve(B, 1e-13)
    elim = LowDegreeElimination(L, max_degree=4)
    _, its4, _ = elim.solve(B, 1e-13)
    assert elim.core.size < 0.8 * L.shape[0]
    assert its4.mean() < 0.8 * its0.mean()


def _clique_chain(K, s, P):
    """``K`` cliques ``K_s``, consecutive ones joined by a path of ``P`` edges."""
    G = nx.Graph()
    heads, base = [], 0
    for _ in range(K):
        G.add_edges_from((base + a, base + b) for a in range(s) for b in range(a + 1, s))
        heads.append(base)
        base += s
    for k in range(K - 1):
        prev = heads[k] + 1
        for _ in range(P - 1):
            G.add_edge(prev, base)
            prev, base = base, base + 1
        G.add_edge(prev, heads[k + 1])
    return G


@pytest.mark.parametrize("name", ["barbell-20-100", "clique-chain-10-6-100"])
def test_cg_on_an_ill_conditioned_schur_complement_converges_and_the_bounds_stay_tight(name):
    # the paths are eliminated, leaving cliques joined by weak links: a singular, ill-conditioned Schur
    # complement on which CG, without projecting its residual on the zero-sum vectors, came within 1.3e-13
    # of the tolerance and then diverged for some pairs (certified pair bounds of 42.6 and an R_error of 22)
    G = nx.barbell_graph(20, 100) if name.startswith("barbell") else _clique_chain(10, 6, 100)
    kern = _iterative(G)
    n = kern.n
    rng = np.random.default_rng(3)
    pairs = rng.integers(n, size=(64, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    B = np.zeros((n, len(pairs)))
    B[pairs[:, 0], np.arange(len(pairs))] += 1.0
    B[pairs[:, 1], np.arange(len(pairs))] -= 1.0
    B[kern.ground] = -B[kern._keep].sum(axis=0)
    _, its, rel = kern._elimination.solve(B, kern.RTOL)
    assert np.all(rel <= kern.RTOL), "every column reaches the tolerance"
    assert its.max() < 200
    X = kern._solve(B)
    assert kern._residual_bound(X, B).max() < 1e-5
    assert kern.diameter_error() < 1e-5 * kern.R


@pytest.mark.parametrize("case", ["negative weight", "isolated vertex", "infinite weight"])
def test_the_elimination_refuses_what_is_not_a_connected_laplacian(case):
    G = nx.path_graph(4)
    L = laplacian(G).tolil()
    if case == "negative weight":
        L[0, 1] = L[1, 0] = 1.0
    elif case == "isolated vertex":
        L = sp.block_diag([L, sp.csr_matrix((1, 1))]).tolil()
    else:
        L[2, 3] = L[3, 2] = -np.inf
    with pytest.raises(ValueError, match="^L: "):
        LowDegreeElimination(sp.csr_matrix(L))


def test_laplacian_pcg_solves_a_column_that_does_not_sum_to_zero_in_least_squares():
    # the residual is projected on the zero-sum vectors: a constant column gives 0 (not 0 / 0), another
    # column the solution for its projection
    G = nx.barbell_graph(6, 5)
    L = laplacian(G)
    n = L.shape[0]
    rng = np.random.default_rng(2)
    B = np.c_[np.full(n, 3.0), rng.standard_normal(n)]
    X, its, rel = laplacian_pcg(L, B, 1e-13)
    assert np.array_equal(X[:, 0], np.zeros(n)) and its[0] == 0
    Lp = np.linalg.pinv(L.toarray())
    x = X[:, 1] - X[:, 1].mean()
    assert np.allclose(x, Lp @ (B[:, 1] - B[:, 1].mean()), rtol=0, atol=1e-9)
