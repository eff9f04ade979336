"""Benchmark: the playground's cost per trial against the plain run loop, and the adaptive adversary vs n.

1. Overhead of :class:`~simpred_lite.game.playground.Playground` (all registered learners on the
   same trials, bookkeeping per step) against :func:`~simpred_lite.game.trials.run` of each
   learner on the same trials: the ratio of the times measured in this run.
2. Cost per trial of each adversary against the random one, as n grows: the adaptive
   adversary asks the target learner ``predict_one`` on up to all n(n-1)/2 pairs per trial.

Prints a markdown section (the contract of benchmarks/README.md).

Usage: python benchmarks/bench_playground.py [--quick]
"""

from __future__ import annotations

import argparse

from _timing import best_of

from simpred_lite.game.play import run
from simpred_lite.game.playground import Playground
from simpred_lite.graphs import planted_partition


def overhead(T: int) -> None:
    game = Playground("karate club", adversary="random", seed=0)
    game.play(T)
    trials = [r.trial for r in game.history]

    def with_playground():
        g = Playground("karate club", adversary="student", seed=0)
        for t in trials:
            g.step(pair=(t.i, t.j))

    def plain():
        for name in game.names:
            run(game.fresh_learner(name), trials)

    t_game, t_plain = best_of(with_playground), best_of(plain)
    print(f"### Playground bookkeeping (karate club, {len(game.names)} learners, T = {T})\n")
    print("| | µs per trial | ratio |")
    print("|---|---:|---:|")
    print(f"| `online.run`, each learner in turn | {t_plain / T * 1e6:.1f} | 1.0 |")
    print(f"| `Playground.step`, all learners together | {t_game / T * 1e6:.1f} | {t_game / t_plain:.2f} |")
    print()


def adversaries(sizes: list[int], T: int) -> None:
    names = ["random", "cut-biased", "adaptive", "shortest path", "random-walk path"]
    print(f"### Cost per trial of each adversary vs n (planted partition, K = 3, learner UnionFindLearner, T = {T})\n")
    print("| n | " + " | ".join(f"{a} (µs)" for a in names) + " | adaptive / random |")
    print("|---:|" + "---:|" * (len(names) + 1))
    for n in sizes:
        G, y = planted_partition(n, 3, min(1.0, 8 / (n / 3)), 0.5 / n, seed=0)
        cost = {}
        for a in names:
            # build outside the clock: only the trials are timed
            best = best_of(lambda game: game.play(T), 2, setup=lambda: Playground((G, y), ["UnionFindLearner"], a,
                                                                                  seed=1))
            cost[a] = best / T
        row = " | ".join(f"{cost[a] * 1e6:.0f}" for a in names)
        print(f"| {n} | {row} | {cost['adaptive'] / cost['random']:.1f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds")
    args = parser.parse_args()
    print("## bench_playground.py — the playground's cost per trial\n")
    print("Times are the best of a few repeats; only the ratios measured in the same run mean much.\n")
    if args.quick:
        overhead(T=300)
        adversaries([30, 60, 120], T=40)
    else:
        overhead(T=2000)
        adversaries([30, 60, 120, 240, 480], T=100)


if __name__ == "__main__":
    main()
