"""Per-trial time of the BST Perceptron (§4.1) for n = 2^10 .. 2^20, and against the naive one.

Run:  python benchmarks/bench_bst_perceptron.py [--quick]

For each n: a BST over a random leaf order, K = 4 classes in contiguous blocks of leaves
(a clustered labeling), a warm-up of learning trials (untimed), then ``T`` timed trials of
``predict_one`` + ``learn_one`` on uniformly random pairs.  Printed: microseconds per trial,
the growth against n = 2^10 (O(log^2 n) predicts (20/10)^2 = 4x at 2^20), memory allocated
by the constructor per vertex (linear in n means constant here), and entries of the lazy F
per mistake.  Then, at n = 2^11, the naive dense Matrix Perceptron on Psi_B
(MatrixPerceptron(bst), O(n^2) per trial) on the same trials, with identical predictions
checked, and the speed ratio.  All ratios come from this one run.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from simpred_lite.bst import BinarySupportTree
from simpred_lite.learners import BSTPerceptron, MatrixPerceptron


def setup(k: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    n = 2**k
    order = rng.permutation(n)
    B = BinarySupportTree(order)
    y = np.empty(n, dtype=np.int64)
    y[order] = np.arange(n) * 4 // n
    return B, y, rng


def pairs(rng, n, T):
    i = rng.integers(n, size=T)
    j = (i + rng.integers(1, n, size=T)) % n
    return list(zip(i.tolist(), j.tolist()))


def play(learner, seq, y):
    preds = []
    for i, j in seq:
        preds.append(learner.predict_one(i, j))
        learner.learn_one(i, j, int(y[i] != y[j]))
    return preds


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and trials (about a minute)")
    args = ap.parse_args(argv)
    ks = [10, 15, 20] if args.quick else list(range(10, 21))
    warm, T, naive_T = (3000, 5000, 8) if args.quick else (20000, 20000, 25)

    print("BST Perceptron, per-trial time (predict + learn) after warm-up")
    print(f"{'n':>9} {'us/trial':>9} {'vs 2^10':>8} {'ctor B/vertex':>14} {'mistakes':>9} {'F entries/mistake':>18}")
    base = None
    for k in ks:
        B, y, rng = setup(k)
        tracemalloc.start()
        learner = BSTPerceptron(B)
        ctor_bytes = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        play(learner, pairs(rng, B.n, warm), y)
        seq = pairs(rng, B.n, T)
        t0 = time.perf_counter()
        play(learner, seq, y)
        us = (time.perf_counter() - t0) / T * 1e6
        base = base or us
        print(f"{'2^' + str(k):>9} {us:9.1f} {us / base:7.2f}x {ctor_bytes / B.n:14.1f} "
              f"{learner.mistakes:9d} {learner.entries / max(learner.mistakes, 1):18.1f}")

    k = 11
    B, y, rng = setup(k)
    fast, naive = BSTPerceptron(B), MatrixPerceptron(B)
    warm_seq = pairs(rng, B.n, 300)  # the naive learner pays O(n^2) per warm-up trial too
    play(fast, warm_seq, y)
    play(naive, warm_seq, y)
    seq = pairs(rng, B.n, T)
    t0 = time.perf_counter()
    p_fast = play(fast, seq, y)
    fast_us = (time.perf_counter() - t0) / T * 1e6
    t0 = time.perf_counter()
    p_naive = play(naive, seq[:naive_T], y)
    naive_us = (time.perf_counter() - t0) / naive_T * 1e6
    assert p_fast[:naive_T] == p_naive, "the fast and naive learners disagree"
    print(f"\nn = 2^{k} (m = {naive.m} edges of B): naive dense Matrix Perceptron {naive_us / 1e3:.1f} ms/trial, "
          f"BST Perceptron {fast_us:.1f} us/trial, same predictions on {naive_T} trials")
    print(f"speed-up per trial: {naive_us / fast_us:.0f}x")


if __name__ == "__main__":
    main()
