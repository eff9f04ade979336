"""Matrix Winnow and Matrix Perceptron: kernel form against the low-rank and dense references.

Run:  python benchmarks/bench_matrix_winnow.py [--quick]

Three measurements, all in the same process (BLAS threads left as configured; the package
itself runs its small eigendecompositions on one):

1. **Digits kNN graph** (n = 1797, m = 12,339): seconds per trial of the kernel-form
   ``MatrixPerceptron`` and ``MatrixWinnow`` over uniformly random trials (5,000; 1,500 with
   ``--quick``), with mistakes and the exact fallbacks of the Perceptron.
2. **Winnow on the BST of a 1000-vertex planted partition**: the trials it takes the
   reference ``LowRankMatrixWinnow`` (explicit basis ``Q``, ``eigh`` per mistake) to make
   2,000 mistakes (400 with ``--quick``), replayed by ``MatrixWinnow`` (lazy
   eigendecomposition, certified quadrature bounds); old/new time ratio, identical
   predictions, refreshes, fallbacks and Lanczos products per trial.
3. **Dense reference**: the paper's ``expm`` Winnow (``MatrixWinnowReference``) against the kernel form on a
   256-leaf BST.
"""

from __future__ import annotations

import argparse

import _timing

from simpred_lite.bst import BinarySupportTree
from simpred_lite.datasets import digits_knn_graph
from simpred_lite.game.adversaries import cut_biased_trials
from simpred_lite.game.trials import random_trials
from simpred_lite.graphs import cut_size, planted_partition
from simpred_lite.learners import LowRankMatrixWinnow, MatrixPerceptron, MatrixWinnow, MatrixWinnowReference


def play(learner, trials, max_mistakes=None):
    preds = []
    for t in trials:
        preds.append(learner.predict_one(t.i, t.j))
        learner.learn_one(t.i, t.j, t.y)
        if max_mistakes is not None and learner.mistakes >= max_mistakes:
            break
    return preds


def timed(make, trials, max_mistakes=None):
    learner = make()
    preds, seconds = _timing.timed(lambda: play(learner, trials, max_mistakes))
    return learner, preds, seconds


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer trials and mistakes")
    args = ap.parse_args(argv)
    print("## bench_matrix_winnow.py — Matrix Perceptron and Matrix Winnow in kernel form\n")

    # 1. digits
    T = 1500 if args.quick else 5000
    G, y = digits_knn_graph()
    trials = random_trials(G, y, T, seed=0)
    print(f"### Digits kNN graph (n = {G.number_of_nodes()}, m = {G.number_of_edges()}), {T} random trials\n")
    print("| learner | ms per trial | mistakes | note |\n|---|---:|---:|---|")
    p, _, tp = timed(lambda: MatrixPerceptron(G), trials)
    print(f"| MatrixPerceptron (kernel) | {tp / T * 1e3:.3f} | {p.mistakes} | exact fallbacks: "
          f"{p._certifier.fallbacks} |")
    w, _, tw = timed(lambda: MatrixWinnow(G, cut_size=cut_size(G, y)), trials)
    print(f"| MatrixWinnow (kernel) | {tw / T * 1e3:.3f} | {w.mistakes} | rank {w.rank} |")

    # 2. 2,000 mistakes on a BST: low-rank reference vs kernel form
    K = 400 if args.quick else 2000
    G2, y2 = planted_partition(1000, 4, 0.05, 0.002, seed=0)
    B = BinarySupportTree.from_graph(G2, seed=0)
    phi = B.cut_size(y2)
    trials2 = cut_biased_trials(G2, y2, 20000, seed=1, p_cut=0.3)
    old, p_old, t_old = timed(lambda: LowRankMatrixWinnow(B, cut_size=phi), trials2, K)
    used = trials2[: old.trials]
    new, p_new, t_new = timed(lambda: MatrixWinnow(B, cut_size=phi), used)
    assert p_old == p_new, "kernel form and low-rank reference disagree"
    print(f"\n### Winnow on the BST of a 1000-vertex planted partition (m = {B.num_leaves * 2 - 2}), "
          f"{old.mistakes} mistakes in {old.trials} trials\n")
    print("| method | seconds | rank | eigendecompositions | identical predictions |\n|---|---:|---:|---:|---|")
    print(f"| lowrank (reference) | {t_old:.2f} | {old.rank} | {old.mistakes} | |")
    print(f"| kernel | {t_new:.2f} | {new.rank} | {new._lazy.refreshes} | {p_old == p_new} |")
    print(f"\nkernel: {new.fallbacks} fallbacks to the exact sum, "
          f"{new._lazy.products / new.trials:.2f} Lanczos products per trial")
    print(f"\nold / new: **{t_old / t_new:.2f}x**")

    # 3. dense expm reference
    T3 = 300 if args.quick else 800
    G3, y3 = planted_partition(256, 4, 0.1, 0.004, seed=0)
    B3 = BinarySupportTree.from_graph(G3, seed=0)
    trials3 = cut_biased_trials(G3, y3, T3, seed=1, p_cut=0.3)
    d, p_d, t_d = timed(lambda: MatrixWinnowReference(B3, cut_size=B3.cut_size(y3)), trials3)
    k, p_k, t_k = timed(lambda: MatrixWinnow(B3, cut_size=B3.cut_size(y3)), trials3)
    assert p_d == p_k, "kernel form and dense expm reference disagree"
    print(f"\n### Dense expm reference, 256-leaf BST (m = 510), {T3} trials, {k.mistakes} mistakes\n")
    print(f"dense {t_d:.2f} s, kernel {t_k:.3f} s: **{t_d / t_k:.0f}x**, identical predictions: {p_d == p_k}")


if __name__ == "__main__":
    main()
