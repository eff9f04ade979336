"""Ising path marginals in linear time, and the merged pool of the paired-permutation class algorithm.

Prints ratios measured in the same run (the machine is shared, absolute times are noisy):

* transfer-matrix marginals on a path vs brute-force enumeration of the 2^n labelings;
* the paired-permutation class algorithm with merged histories vs a plain list of histories.

Usage: python benchmarks/bench_hardness.py [--quick]
"""

from __future__ import annotations

import sys

from _timing import best_of

from simpred_lite.learners.permutations import (
    PairedPermutationClassLearner,
    PairedPermutationClassLearnerReference,
)
from simpred_lite.theory.hardness import path_marginals, path_marginals_bruteforce
from simpred_lite.theory.lowerbound import random_class_sequence, random_permutation


def main(argv):
    quick = "--quick" in argv
    print("Ising marginals on a path (one observed vertex), brute force / transfer matrix:")
    for n in ((12, 16) if quick else (12, 16, 20)):
        tb = best_of(lambda: path_marginals_bruteforce(n, 1, {0: 0}), 1 if n >= 20 else 3)
        tt = best_of(lambda: path_marginals(n, 1, {0: 0}))
        print(f"  n = {n:2d}: brute force {tb * 1e3:9.2f} ms, transfer matrix {tt * 1e3:7.3f} ms, ratio {tb / tt:9.1f}")
    sizes = (500, 2000) if quick else (1000, 4000)
    t_small, t_big = (best_of(lambda: path_marginals(n, 1, {0: 0}), 1) for n in sizes)
    print(f"  transfer matrix alone: n = {sizes[0]} in {t_small * 1e3:.1f} ms, n = {sizes[1]} in {t_big * 1e3:.1f} ms "
          f"(x{t_big / t_small:.1f} for x4 vertices; exact numbers have O(n) bits; brute force: 2^{sizes[1]} terms)")

    print("Class algorithm on the paired permutation problem, plain list of histories / merged pool:")
    for K in ((4, 5) if quick else (4, 5, 6)):
        seq = random_class_sequence(random_permutation(K, 1), 6 * K * K, 2)

        def play(learner):
            for x, y in seq:
                learner.predict_class(x)
                learner.learn_class(x, y)
            return learner

        tp = best_of(lambda: play(PairedPermutationClassLearnerReference(K)), 1)
        tm = best_of(lambda: play(PairedPermutationClassLearner(K)), 1)
        plain, merged = play(PairedPermutationClassLearnerReference(K)), play(PairedPermutationClassLearner(K))
        print(f"  K = {K}: {len(plain.pool):6d} plain histories vs {merged.pool_size:4d} merged; "
              f"time plain {tp * 1e3:8.1f} ms, merged {tm * 1e3:7.1f} ms, ratio {tp / tm:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
