"""Low-rank (log-domain) Matrix Winnow against the dense ``scipy.linalg.expm`` reference.

Run:  python benchmarks/bench_matrix_winnow.py [--quick]

On a 256-leaf Binary Support Tree of a clustered graph (planted partition, K = 4), both
versions of Algorithm 2's Matrix Winnow on Psi_B (m = 510) play the same trials (random
pairs and pairs across cut edges).  Printed: the time of each, the ratio, the mistakes, the
rank of the low-rank weight, and whether the predictions are identical.  The low-rank
version pays O(r^3) per mistake (``r`` = rank, at most the number of mistakes) against the
dense O(m^3): the speed-up is largest while ``r << m`` and shrinks as ``r`` approaches ``m``,
so the full run (more trials, larger rank) reports a smaller ratio than ``--quick``.  Both run with one
BLAS thread (the machine is shared; threads made the dense ``expm`` slower, not faster).
"""

from __future__ import annotations

import argparse
import time

from threadpoolctl import threadpool_limits

from simpred_lite.bst import BinarySupportTree
from simpred_lite.graphs import planted_partition
from simpred_lite.learners import MatrixWinnow
from simpred_lite.online import cut_biased_trials


def play(learner, trials):
    preds = []
    for t in trials:
        preds.append(learner.predict_one(t.i, t.j))
        learner.learn_one(t.i, t.j, t.y)
    return preds


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer trials")
    args = ap.parse_args(argv)
    T = 600 if args.quick else 1500
    G, y = planted_partition(256, 4, 0.1, 0.004, seed=0)
    B = BinarySupportTree.from_graph(G, seed=0)
    phi_B = B.cut_size(y)
    trials = cut_biased_trials(G, y, T, seed=1, p_cut=0.3)
    timings, preds = {}, {}
    for method in ("lowrank", "dense"):
        learner = MatrixWinnow(B, cut_size=phi_B, method=method)
        t0 = time.perf_counter()
        preds[method] = play(learner, trials)
        timings[method] = time.perf_counter() - t0
        print(f"{method:>8}: {timings[method]:8.3f} s for {T} trials, {learner.mistakes} mistakes"
              + (f", rank {learner.rank}" if method == "lowrank" else ""))
    same = preds["lowrank"] == preds["dense"]
    print(f"BST: {B.num_leaves} leaves, m = {learner.m} edges, |Phi^B| = {phi_B}; identical predictions: {same}")
    print(f"speed-up of the low-rank Matrix Winnow: {timings['dense'] / timings['lowrank']:.0f}x")


if __name__ == "__main__":
    with threadpool_limits(1, user_api="blas"):
        main()
