"""Per-trial time of the BST Perceptron (§4.1) for n = 2^10 .. 2^20, against a compiled floor and the naive one.

Run:  python benchmarks/bench_bst_perceptron.py [--quick]

For each n: a BST over a random leaf order, K = 4 classes in contiguous blocks of leaves
(a clustered labeling) and a warm-up of learning trials (untimed).  Timed, in microseconds:
a prediction alone (``predict_one``, with the argument checks every learner makes), its core
(``_predict``: the path sum and the comparison, what is left once the pair is validated),
a mistaken round (prediction + update of F, forced by
a wrong label), and a trial of the game (``predict_one`` + ``learn_one`` with the true label,
on uniformly random pairs); each is the best of 10 blocks (the machine is shared: the least
disturbed block; the prediction, its core and the floor run block by block, interleaved, so
the three see the same load, each block once untimed first so that each is timed warm).

**The compiled floor**: a small C loop, compiled with the machine's C compiler when this
script runs, that computes the same path sums from the same F entries (copied out of the
learner into an open-addressing table, Fibonacci hashing, at most a quarter full) for the
same pairs, all in one call: what a prediction costs with no interpreter at all.  Its sums
are checked equal to the learner's.  Without a C compiler the column is skipped, with the
reason printed.

Then, at n = 2^11, the naive dense Matrix Perceptron on Psi_B (``MatrixPerceptronReference(bst)``,
O(n^2) per trial), warmed up to the same state, on the same trials, each trial timed for
both learners, the median trial of each compared; identical predictions checked.  All
ratios come from this one run.
"""

from __future__ import annotations

import argparse
import ctypes
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from simpred_lite.bst import BinarySupportTree
from simpred_lite.learners import BSTPerceptron, MatrixPerceptronReference

C_SOURCE = r"""
#include <stdint.h>
#define GOLDEN 0x9E3779B97F4A7C15ULL
static int64_t slot(const int64_t *t, int64_t mask, int shift, int64_t key) {
    int64_t h = (int64_t)(((uint64_t)key * GOLDEN) >> shift);
    while (t[2 * h] != key && t[2 * h] != -1) h = (h + 1) & mask;
    return h;
}
void build(int64_t *t, int64_t slots, int shift, const int64_t *keys, const int64_t *vals, int64_t m) {
    for (int64_t h = 0; h < slots; h++) { t[2 * h] = -1; t[2 * h + 1] = 0; }
    for (int64_t e = 0; e < m; e++) {
        int64_t h = slot(t, slots - 1, shift, keys[e]);
        t[2 * h] = keys[e]; t[2 * h + 1] = vals[e];
    }
}
static int64_t get(const int64_t *t, int64_t mask, int shift, int64_t w, int64_t p, int64_t q) {
    int64_t key = p < q ? p * w + q : q * w + p;
    int64_t h = slot(t, mask, shift, key);
    return t[2 * h] == key ? t[2 * h + 1] : 0;
}
/* ordered-pair sum of F over the path between leaves a[x] and b[x], for x < count */
void path_sums(const int64_t *t, int64_t slots, int shift, int64_t w,
               const int64_t *a, const int64_t *b, int64_t count, int64_t *out) {
    int64_t path[128];
    for (int64_t x = 0; x < count; x++) {
        int64_t u = a[x], v = b[x], m = 0, total = 0;
        while (u != v) { path[m++] = u; path[m++] = v; u >>= 1; v >>= 1; }
        path[m++] = u;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = i + 1; j < m; j++)
                total += get(t, slots - 1, shift, w, path[i], path[j]);
        out[x] = 2 * total;
    }
}
"""


class CompiledFloor:
    """The C path sums (see the module docstring); ``reason`` says why not when unavailable."""

    def __init__(self):
        self.lib, self.reason = None, ""
        cc = shutil.which("gcc") or shutil.which("cc")
        if cc is None:
            self.reason = "no C compiler (gcc or cc) on PATH"
            return
        self._dir = tempfile.TemporaryDirectory()
        src, lib = Path(self._dir.name) / "floor.c", Path(self._dir.name) / "floor.so"
        src.write_text(C_SOURCE)
        out = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(src)], capture_output=True, text=True)
        if out.returncode != 0:
            self.reason = f"{cc} failed: {out.stderr.strip()[:200]}"
            return
        self.lib = ctypes.CDLL(str(lib))
        p = ctypes.POINTER(ctypes.c_int64)
        i64 = ctypes.c_int64
        self.lib.build.argtypes = [p, i64, ctypes.c_int, p, p, i64]
        self.lib.path_sums.argtypes = [p, i64, ctypes.c_int, i64, p, p, i64, p]

    def load(self, learner: BSTPerceptron) -> None:
        """Copy the learner's F entries into the C table."""
        l1, l2, vals = f_entries(learner)
        self.width = 2 * learner.bst.num_leaves
        keys = np.ascontiguousarray(l1 * self.width + l2, dtype=np.int64)
        vals = np.ascontiguousarray(vals, dtype=np.int64)
        slots = 1 << max(10, int(4 * max(keys.size, 1) - 1).bit_length())
        self.slots, self.shift = slots, 64 - (slots.bit_length() - 1)
        self.table = np.empty(2 * slots, dtype=np.int64)
        self.lib.build(_ptr(self.table), slots, self.shift, _ptr(keys), _ptr(vals), keys.size)

    def sums(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.empty(a.size, dtype=np.int64)
        self.lib.path_sums(_ptr(self.table), self.slots, self.shift, self.width, _ptr(a), _ptr(b), a.size, _ptr(out))
        return out


def _ptr(arr):
    return arr.ctypes.data_as(ctypes.POINTER(ctypes.c_int64))


def f_entries(learner) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stored entries ``F[l1, l2]`` (``l1 < l2``) of a BST Perceptron, as three arrays."""
    if hasattr(learner, "_rows"):  # the dictionary version (before the compiled kernels)
        items = [(a, b, v) for a, row in learner._rows.items() for b, v in row.items()]
        l1, l2, vals = (np.array(col, dtype=np.int64) for col in zip(*items)) if items else (np.zeros(0, np.int64),) * 3
        return l1, l2, vals
    table = learner._table
    used = table[:, 0] >= 0
    keys = table[used, 0]
    width = 2 * learner.bst.num_leaves
    return keys // width, keys % width, table[used, 1]


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


def block_best(run_block, seq, blocks=10):
    """Microseconds per item: the best over ``blocks`` consecutive blocks of ``seq``.

    The machine is shared: the least disturbed block is the one that measures the code.
    """
    return interleaved_best([run_block], [seq], blocks)[0]


def interleaved_best(runs, seqs, blocks=10, warm=False):
    """Microseconds per item of each ``runs[k]`` on ``seqs[k]``, best of ``blocks`` blocks, run in turn.

    Block ``b`` of every run is timed before block ``b + 1`` of any, so a burst of load on
    the shared machine hits all of them alike; with ``warm``, each block runs once untimed
    right before (the runs must not change state), so each is timed with its data in cache.
    """
    best = [float("inf")] * len(runs)
    for b in range(blocks):
        for k, (run_block, seq) in enumerate(zip(runs, seqs)):
            size = max(len(seq) // blocks, 1)
            block = seq[b * size:(b + 1) * size]
            if not len(block):
                continue
            if warm:
                run_block(block)
            t0 = time.perf_counter()
            run_block(block)
            best[k] = min(best[k], (time.perf_counter() - t0) / len(block))
    return [t * 1e6 for t in best]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and trials (about a minute)")
    args = ap.parse_args(argv)
    ks = [10, 11, 15, 20] if args.quick else list(range(10, 21))
    warm, T, naive_T = (3000, 4000, 15) if args.quick else (20000, 20000, 40)
    forced = 200 if args.quick else 1000
    floor = CompiledFloor()

    print("## bench_bst_perceptron.py — the BST Perceptron per trial, against a compiled floor and the naive one\n")
    print("Microseconds, best of 10 blocks, after a warm-up of "
          f"{warm} learning trials; *floor* = the same path sums in a C loop (see the script's docstring), "
          "on the same pairs; growth against n = 2^10 (O(log^2 n) predicts (20/10)^2 = 4x at 2^20).\n")
    if floor.lib is None:
        print(f"*The compiled floor is skipped: {floor.reason}.*\n")
    print("| n | predict | core | floor | predict / floor | core / floor | mistaken round | trial | growth of trial "
          "| F entries / mistake |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = None
    for k in ks:
        B, y, rng = setup(k)
        learner = BSTPerceptron(B)
        play(learner, pairs(rng, B.n, warm), y)
        # 1) a trial of the game: predict, then learn the true label
        trial_us = block_best(lambda blk: play(learner, blk, y), pairs(rng, B.n, T))
        # 2) prediction alone (the sum of F over the path), its core, and the same sums in C
        seq = pairs(rng, B.n, T)
        runs = [lambda blk: [learner.predict_one(i, j) for i, j in blk],
                lambda blk: [learner._predict(i, j, None) for i, j in blk]]
        seqs = [seq, seq]
        floor_text = ratio_text = core_ratio = "—"
        if floor.lib is not None:
            floor.load(learner)
            leaves = np.array([[B.leaf(i), B.leaf(j)] for i, j in seq], dtype=np.int64)
            a, b = np.ascontiguousarray(leaves[:, 0]), np.ascontiguousarray(leaves[:, 1])
            c_sums = floor.sums(a, b)
            assert c_sums.tolist() == [learner.path_sum(i, j) for i, j in seq], "C and learner path sums differ"
            parts = {}  # block -> its leaves, contiguous, made before the clock starts
            for idx in np.array_split(np.arange(len(seq)), 10):
                parts[int(idx[0])] = (np.ascontiguousarray(a[idx]), np.ascontiguousarray(b[idx]))
            runs.append(lambda idx: floor.sums(*parts[int(idx[0])]))
            seqs.append(np.arange(len(seq)))
        predict_us, core_us, *rest = interleaved_best(runs, seqs, warm=True)
        if rest:
            floor_us = rest[0]
            floor_text, ratio_text = f"{floor_us:.2f}", f"{predict_us / floor_us:.1f}x"
            core_ratio = f"{core_us / floor_us:.1f}x"
        # 3) a mistaken round (prediction + the update of F on S_t x S_t), forced by a wrong label

        def force(blk):
            for i, j in blk:
                learner.learn_one(i, j, 1 - learner.predict_one(i, j))

        mistake_us = block_best(force, pairs(rng, B.n, forced))
        base = base or trial_us
        print(f"| 2^{k} | {predict_us:.1f} | {core_us:.1f} | {floor_text} | {ratio_text} | {core_ratio} "
              f"| {mistake_us:.1f} | {trial_us:.1f} | "
              f"{trial_us / base:.2f}x | {learner.entries / learner.mistakes:.1f} |")

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
    print(f"\n### Against the naive dense Matrix Perceptron at n = 2^{k}\n")
    print(f"m = {naive.m} edges of B, {naive_T} trials, same predictions: naive {naive_us / 1e3:.1f} ms per trial, "
          f"BST Perceptron {fast_us:.1f} us per trial (medians); **speed-up per trial {naive_us / fast_us:.0f}x** "
          "(one run).")


if __name__ == "__main__":
    main()
