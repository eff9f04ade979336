"""Per-trial time of the BST Perceptron (§4.1) for n = 2^10 .. 2^20, and against the naive one.

Run:  python benchmarks/bench_bst_perceptron.py [--quick]

For each n: a BST over a random leaf order, K = 4 classes in contiguous blocks of leaves
(a clustered labeling) and a warm-up of learning trials (untimed).  Timed, in microseconds:
a prediction alone, a mistaken round (prediction + update of F, forced by a wrong label), and
a trial of the game (``predict_one`` + ``learn_one`` with the true label, on uniformly
random pairs); each is the median over 10 blocks (the machine is shared).  Printed with
the growth against n = 2^10 (O(log^2 n) predicts (20/10)^2 = 4x at 2^20), the memory
allocated by the constructor per vertex (linear in n means constant here), and the entries
of the lazy F per mistake.
Then, at n = 2^11, the naive dense Matrix Perceptron on Psi_B
(MatrixPerceptronReference(bst), O(n^2) per trial),
warmed up to the same state, on the same trials, each trial timed for both
learners, the median trial of each compared; identical predictions checked.  All ratios come from this one run.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from simpred_lite.bst import BinarySupportTree
from simpred_lite.learners import BSTPerceptron, MatrixPerceptronReference


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


def block_median(run_block, seq, blocks=10):
    """Microseconds per item: the median over ``blocks`` consecutive blocks of ``seq``.

    The machine is shared: a block disturbed by another process does not move the median.
    """
    size = max(len(seq) // blocks, 1)
    per_item = []
    for start in range(0, len(seq), size):
        block = seq[start : start + size]
        t0 = time.perf_counter()
        run_block(block)
        per_item.append((time.perf_counter() - t0) / len(block))
    return float(np.median(per_item)) * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and trials (about a minute)")
    args = ap.parse_args(argv)
    ks = [10, 15, 20] if args.quick else list(range(10, 21))
    warm, T, naive_T = (3000, 4000, 15) if args.quick else (20000, 20000, 40)
    forced = 200 if args.quick else 1000

    print("BST Perceptron, microseconds (median of 10 blocks), after a warm-up of learning trials")
    print(f"{'n':>6} {'predict':>8} {'mistaken round':>15} {'trial':>7} | growth vs 2^10: "
          f"{'predict':>7} {'mistaken':>8} {'trial':>6} | {'ctor B/vertex':>13} {'F entries/mistake':>17}")
    base = None
    for k in ks:
        B, y, rng = setup(k)
        tracemalloc.start()
        learner = BSTPerceptron(B)
        ctor_bytes = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        play(learner, pairs(rng, B.n, warm), y)
        # 1) a trial of the game: predict, then learn the true label
        trial_us = block_median(lambda blk: play(learner, blk, y), pairs(rng, B.n, T))
        # 2) prediction alone (the sum of F over the path)
        predict_us = block_median(lambda blk: [learner.predict_one(i, j) for i, j in blk], pairs(rng, B.n, T))
        # 3) a mistaken round (prediction + the update of F on S_t x S_t), forced by a wrong label

        def force(blk):
            for i, j in blk:
                learner.learn_one(i, j, 1 - learner.predict_one(i, j))

        mistake_us = block_median(force, pairs(rng, B.n, forced))
        row = (predict_us, mistake_us, trial_us)
        base = base or row
        g = [a / b for a, b in zip(row, base)]
        print(f"{'2^' + str(k):>6} {predict_us:8.1f} {mistake_us:15.1f} {trial_us:7.1f} | {'':15}"
              f"{g[0]:6.2f}x {g[1]:7.2f}x {g[2]:5.2f}x | {ctor_bytes / B.n:13.1f} "
              f"{learner.entries / learner.mistakes:17.1f}")

    k = 11
    B, y, rng = setup(k)
    fast, naive = BSTPerceptron(B), MatrixPerceptronReference(B)
    # Warm both up on the same trials.  Only mistaken trials change a Perceptron, and the two
    # learners err on the same trials, so the naive one replays just the fast one's mistakes
    # (it still predicts and updates densely on each): same state, without paying O(n^2) on
    # thousands of correct trials.
    mistaken = []
    for i, j in pairs(rng, B.n, warm):
        label = int(y[i] != y[j])
        if fast.predict_one(i, j) != label:
            mistaken.append((i, j, label))
        fast.learn_one(i, j, label)
    for i, j, label in mistaken:
        naive.learn_one(i, j, label)
    assert naive.mistakes == fast.mistakes, "the naive learner did not err where the fast one did"
    seq = pairs(rng, B.n, naive_T)
    preds = {fast: [], naive: []}
    times = {fast: [], naive: []}
    for learner in (fast, naive):  # one learner after the other: the naive one's 134 MB
        for i, j in seq:           # weight matrix would evict the fast one's data from cache
            label = int(y[i] != y[j])
            t0 = time.perf_counter()
            preds[learner].append(learner.predict_one(i, j))
            learner.learn_one(i, j, label)
            times[learner].append((time.perf_counter() - t0) * 1e6)
    assert preds[fast] == preds[naive], "the fast and naive learners disagree"
    fast_us, naive_us = float(np.median(times[fast])), float(np.median(times[naive]))
    print(f"\nn = 2^{k} (m = {naive.m} edges of B): naive dense Matrix Perceptron {naive_us / 1e3:.1f} ms/trial, "
          f"BST Perceptron {fast_us:.1f} us/trial, same predictions on {naive_T} trials")
    print(f"speed-up per trial (medians): {naive_us / fast_us:.0f}x")


if __name__ == "__main__":
    main()
