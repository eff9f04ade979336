"""Benchmark: the sparse r-norm Perceptron (Algorithm 1) against its dense reference.

1. Time per trial at n = 2000 (vectors of length (n-1)^2 ~ 4 million): the sparse learner
   costs O(|x_t|^2) per trial, the dense reference O(n^2).  Prints the ratio measured in
   this run and checks that the predictions are identical.
2. Identical predictions on a long run where both labels are predicted (n = 200).
3. Mistakes against the cut size |Phi^G|, next to Theorem t:unknown's O(|Phi^G|^4 log n)
   and its explicit form ((1+3e)^2/16)(r-1)||vec U||_s^2.

Usage: python benchmarks/bench_rnorm.py [--quick]
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from _timing import timed

from simpred_lite.game.play import run
from simpred_lite.game.trials import shortest_path_trials
from simpred_lite.graphs import cut_size, planted_partition
from simpred_lite.learners import RNormPerceptron, RNormPerceptronReference
from simpred_lite.learners.bounds import rnorm_perceptron_mistake_bound
from simpred_lite.learners.unknown import rnorm_exponent
from simpred_lite.theory.unknown_graphs import class_coefficients, complete_spanning_tree, target_matrix


def per_trial(learner, trials) -> tuple[float, list[int]]:
    result, seconds = timed(lambda: run(learner, trials))
    return seconds / max(len(trials), 1), result.predictions.tolist()


def speed(n: int, T_sparse: int, T_dense: int) -> None:
    G, labels = planted_partition(n, 4, 12 / (n / 4), 0.3 / n, seed=0)
    trials = shortest_path_trials(G, labels, T_sparse, seed=1)
    sparse, dense = RNormPerceptron(n), RNormPerceptronReference(n)
    t_dense, p_dense = per_trial(dense, trials[:T_dense])
    t_sparse, p_sparse = per_trial(sparse, trials)
    lengths = [len(sparse.forest.tree_path(t.i, t.j)) - 1 for t in trials]
    same = p_sparse[:T_dense] == p_dense
    print(f"[speed] n={n}, |E|={G.number_of_edges()}, |Phi^G|={cut_size(G, labels)}, "
          f"mean |x_t|={np.mean(lengths):.1f} (max {max(lengths)})")
    print(f"  dense  (n-1)^2 = {(n - 1) ** 2} entries: {t_dense * 1e3:8.3f} ms/trial over {T_dense} trials")
    print(f"  sparse O(|x_t|^2):              {t_sparse * 1e3:8.3f} ms/trial over {T_sparse} trials")
    print(f"  speed-up sparse vs dense: {t_dense / t_sparse:.0f}x  (target >= 100x)")
    print(f"  identical predictions on the {T_dense} common trials: {same} "
          f"(mistakes {sum(p != t.y for p, t in zip(p_dense, trials))})")
    assert same, "sparse and dense r-norm Perceptrons disagree"


def identity(n: int, T: int) -> None:
    G, labels = planted_partition(n, 2, 0.08, 0.002, seed=2)
    trials = shortest_path_trials(G, labels, T, seed=3)
    rs, rd = run(RNormPerceptron(n), trials), run(RNormPerceptronReference(n), trials)
    same = rs.predictions.tolist() == rd.predictions.tolist()
    print(f"[identity] n={n}, T={T}: identical predictions {same}; predicted 1 on "
          f"{int(rs.predictions.sum())} trials, 0 on {int((1 - rs.predictions).sum())}; mistakes {rs.total_mistakes}")
    assert same


def mistakes_vs_cut(n: int, T: int) -> None:
    print(f"[mistakes vs cut] n={n}, K=2 planted partition, T={T} shortest-path trials")
    print(f"  {'p_out':>7} {'|Phi^G|':>7} {'|Phi^T|':>7} {'M':>6} {'M last T/2':>10} "
          f"{'||vec U||_s':>11} {'explicit bound':>14} {'|Phi|^4 ln n':>13}")
    r = rnorm_exponent(n)
    s = r / (r - 1)
    for p_out in (0.0002, 0.0005, 0.001, 0.002, 0.004):
        G, labels = planted_partition(n, 2, 0.1, p_out, seed=4)
        trials = shortest_path_trials(G, labels, T, seed=5)
        learner = RNormPerceptron(n)
        res = run(learner, trials)
        tree = complete_spanning_tree(G, learner.forest.edges)
        U = class_coefficients(tree, labels)
        u_norm = float(np.sum(np.abs(target_matrix(U)).astype(float) ** s) ** (1 / s))
        phi = cut_size(G, labels)
        phi_T = int(np.abs(U).sum() // 2)
        bound = rnorm_perceptron_mistake_bound(n, u_norm)
        late = res.total_mistakes - int(res.cumulative[T // 2 - 1])
        print(f"  {p_out:7.4f} {phi:7d} {phi_T:7d} {res.total_mistakes:6d} {late:10d} "
              f"{u_norm:11.1f} {bound:14.3g} {phi**4 * math.log(n):13.3g}")
        assert res.total_mistakes <= bound


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short run")
    args = ap.parse_args()
    if args.quick:
        speed(2000, T_sparse=300, T_dense=15)
        identity(120, 1500)
        mistakes_vs_cut(150, 2000)
    else:
        speed(2000, T_sparse=2000, T_dense=60)
        identity(200, 6000)
        mistakes_vs_cut(300, 20000)


if __name__ == "__main__":
    main()
