"""Benchmark for notebook 04: the compact (merged) pool of Lemma equiv against the literal
pool, and the incremental graph Perceptron against its recompute-everything reference.

Both comparisons run in the same process and print ratios (the machine is shared, so
absolute times are noisy).  Usage: python benchmarks/bench_reductions.py [--quick]
"""

from __future__ import annotations

import sys

import networkx as nx
import numpy as np
from _timing import best_of

from simpred_lite.game.play import adaptive_class_run, run
from simpred_lite.game.trials import random_trials
from simpred_lite.graphs import planted_partition
from simpred_lite.learners import (
    GraphPerceptron,
    GraphPerceptronReference,
    HalvingClassifier,
    SimilarityFromClassifier,
    labelings_with_small_cut,
)


def bench_pool(quick: bool) -> None:
    print("Lemma equiv: merged pool vs literal pool (identical predictions)")
    for K, n, cut, T in ([(2, 6, 2, 20), (3, 5, 1, 15)] if quick else [(2, 8, 2, 30), (3, 6, 1, 20), (3, 5, 2, 15)]):
        H = labelings_with_small_cut(nx.path_graph(n), K, cut)
        rng = np.random.default_rng(K * 100 + n)
        t_lit = t_mrg = 0.0
        size_lit = size_mrg = 0
        for _ in range(3):
            trials = random_trials(nx.path_graph(n), H[rng.integers(len(H))], T, seed=rng)
            lit = SimilarityFromClassifier(lambda: HalvingClassifier(H), K, merge=False, max_histories=200_000)
            mrg = SimilarityFromClassifier(lambda: HalvingClassifier(H), K)
            t_lit += best_of(lambda: run(lit, trials), 1)
            t_mrg += best_of(lambda: run(mrg, trials), 1)
            assert lit.total_weights == mrg.total_weights
            size_lit = max(size_lit, max(lit.pool_sizes))
            size_mrg = max(size_mrg, max(mrg.pool_sizes))
        print(f"  K={K} path n={n} cut<={cut} T={T}: largest pool {size_lit} vs {size_mrg} "
              f"(x{size_lit / size_mrg:.1f} smaller), time ratio literal/merged = {t_lit / t_mrg:.1f}")


def bench_perceptron(quick: bool) -> None:
    print("Graph Perceptron: certified float scores vs the exact rational reference")
    for n in ([40] if quick else [40, 60]):
        G, y = planted_partition(n, 2, 0.1, 0.01, seed=n)
        T = 200 if quick else 400
        fast, ref = GraphPerceptron(G), GraphPerceptronReference(G)
        t_fast = best_of(lambda: adaptive_class_run(fast, y, T, seed=1), 1)
        t_ref = best_of(lambda: adaptive_class_run(ref, y, T, seed=1), 1)
        assert fast.mistakes == ref.mistakes
        print(f"  n={n} T={T} (adversarial, {fast.mistakes} mistakes): time ratio reference/incremental = "
              f"{t_ref / t_fast:.1f}")


if __name__ == "__main__":
    quick = "--quick" in sys.argv[1:]
    bench_pool(quick)
    bench_perceptron(quick)
