"""The share of a trial spent in the protocol's argument checks, for the cheap learners.

Run:  python benchmarks/bench_predict_checks.py [--quick]

For the two learners whose own work per trial is a few microseconds (``UnionFindLearner``
and the BST Perceptron), at n = 2^11 and 2^15 (K = 4 classes in contiguous blocks, uniformly
random pairs, a warm-up of learning trials first): microseconds per trial, median of 10
blocks, of

* *public*: ``predict_one(i, j)`` then ``learn_one(i, j, y)``, as :func:`~simpred_lite.game.play.run`
  plays them (plain Python ints, as a :class:`~simpred_lite.game.trials.Trial` holds them);
* *hooks*: the learner's own work, ``_predict`` then ``_learn``, on a twin learner fed the
  same trials (no checks, no cache, no counters);
* *checks*: the argument checks of the slow path alone (``check_pair`` twice, the label once),
  what each trial paid before plain ints already known to be vertices skipped them.

*overhead* = (public - hooks) / public: the share of the trial that is not the learner's own
work (checks, the prediction cache, the counters, the calls).  The twins' predictions are
checked equal.  One run on a shared machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simpred_lite.bst import BinarySupportTree
from simpred_lite.checks import check_pair, check_similarity_label
from simpred_lite.learners import BSTPerceptron, UnionFindLearner


def block_median(run_block, seq, blocks=10):
    """Microseconds per item, the median over ``blocks`` consecutive blocks of ``seq``."""
    size = max(len(seq) // blocks, 1)
    per_item = []
    for start in range(0, len(seq), size):
        block = seq[start:start + size]
        t0 = time.perf_counter()
        run_block(block)
        per_item.append((time.perf_counter() - t0) / len(block))
    return float(np.median(per_item)) * 1e6


def trials(rng, y, T):
    n = y.size
    i = rng.integers(n, size=T)
    j = (i + rng.integers(1, n, size=T)) % n
    return [(a, b, int(y[a] != y[b])) for a, b in zip(i.tolist(), j.tolist())]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer trials")
    args = ap.parse_args(argv)
    warm, T = (2000, 20000) if args.quick else (20000, 100000)
    print("## bench_predict_checks.py — the share of a trial spent in argument checks (cheap learners)\n")
    print(f"Microseconds per trial, median of 10 blocks of {T // 10} uniformly random trials after {warm} warm-up "
          "trials (see the script's docstring); *overhead* = (public - hooks) / public; *checks* = the slow path's "
          "checks alone, for comparison.  One run.\n")
    print("| learner | n | public | hooks | overhead | checks (slow path) | checks / public |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for k in (11, 15):
        n = 2**k
        rng = np.random.default_rng(k)
        order = rng.permutation(n)
        y = np.empty(n, dtype=np.int64)
        y[order] = np.arange(n) * 4 // n
        B = BinarySupportTree(order)
        for name in ("UnionFindLearner", "BST Perceptron"):
            public, hooks = (UnionFindLearner(n), UnionFindLearner(n)) if name == "UnionFindLearner" else \
                (BSTPerceptron(B), BSTPerceptron(B))
            warmup = trials(rng, y, warm)
            seq = trials(rng, y, T)
            preds = {"public": [], "hooks": []}

            def play_public(blk, learner=public, out=preds["public"]):
                for i, j, label in blk:
                    out.append(learner.predict_one(i, j))
                    learner.learn_one(i, j, label)

            def play_hooks(blk, learner=hooks, out=preds["hooks"]):
                for i, j, label in blk:
                    y_hat = learner._predict(i, j, None)
                    out.append(y_hat)
                    learner._learn(i, j, label, y_hat, None)

            def checks_only(blk, n=n):
                for i, j, label in blk:
                    check_pair(i, j, n)
                    check_similarity_label(label)
                    check_pair(i, j, n)

            play_public(warmup)
            play_hooks(warmup)
            preds["public"].clear()
            preds["hooks"].clear()
            t_public = block_median(play_public, seq)
            t_hooks = block_median(play_hooks, seq)
            t_checks = block_median(checks_only, seq)
            assert preds["public"] == preds["hooks"], f"{name}: the public protocol and the hooks disagree"
            print(f"| {name} | 2^{k} | {t_public:.2f} | {t_hooks:.2f} | {(t_public - t_hooks) / t_public:.0%} | "
                  f"{t_checks:.2f} | {t_checks / t_public:.0%} |")


if __name__ == "__main__":
    main()
