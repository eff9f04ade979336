"""The matrix learners and the bookkeeping of evaluate on large sparse graphs.

Run:  python benchmarks/bench_scale.py [--quick]

All on a sparse 4-block stochastic block model (about 4 neighbours inside a block, 0.2 across,
components joined inside their class), seeded:

1. **The diagonal of the grounded inverse** (what the resistance diameter R needs): the
   selected inversion of the sparse kernel against ``n`` sparse solves with the same factor
   (the first of the two passes of ``n`` solves the kernel made before), same graph, same run;
   both must agree to ``1e-9``.
2. **One kernel per graph**: ``evaluate(["Matrix Winnow", "Matrix Perceptron"], ...)`` in one
   call (one kernel, shared) against one call per learner (a kernel each, as before).
3. **The four-learner evaluate** (``UnionFindLearner``, ``BST Perceptron``, ``Matrix Winnow``,
   ``Matrix Perceptron``), T = 5,000: at n = 4,000 (dense kernel) against n = 4,001 (sparse
   kernel), the switch; at n = 10,000 the previous sparse path (SuperLU, one solve per pair
   and per learner, no prefetch: :func:`previous_path`) against the block solves of a
   prefetched sequence, on T = 500 in the same run (same mistakes asserted), and the block
   solves at T = 5,000; at n = 100,000 in a child process stopped after 300 s (the target).
   ``--quick``: the switch moved to n = 1,000 against 1,001, T = 1,000, the two paths at
   n = 1,001 on T = 300, no n = 100,000.  Each row prints the 1-minute load average.
4. **Bookkeeping at scale**: ``evaluate(["UnionFindLearner", "BST Perceptron"], ...)`` at
   n = 10^6 (``--quick``: 10^5), T = 5,000: wall time against the time spent playing, and the
   process's peak memory.
5. **Matrix Winnow reading ahead**: the four-learner evaluate at n = 10,000, T = 5,000
   (``--quick``: n = 1,001, T = 1,000), with Matrix Winnow's coordinates pair by pair (as
   before) and read ahead in blocks, same process, same mistakes asserted
   (``--only lookahead`` runs this section alone).
6. **The factor's order**: the sparse kernel's build and the four-learner evaluate at
   n = 10,000, T = 5,000 with SuperLU's minimum-degree order (as before) and with METIS nested
   dissection (now), same process, same mistakes asserted; and at n = 20,000 how long each takes
   to be refused by the work limit (``--quick``: n = 3,000, T = 1,000, sparse kernel forced; no
   refusal row; ``--only order`` runs this section alone).
7. **The diameter search on a grid** (not the block model: its search already stops after a
   few columns): the columns of the grounded inverse the exact resistance diameter solves,
   and the kernel's build time, with the bound through the ground alone (as before:
   :func:`ground_bound_only`) and through a resistance centre (now), same process, the same
   ``R`` asserted, on the 100 x 100 and 160 x 160 grids; then the four-learner evaluate,
   T = 5,000, on the 317 x 317 grid (n = 100,489).  The section raises the work limit to
   ``10**11``: the 317 x 317 grid's 4,000-odd column solves count ``5 * 10**10`` steps, and
   the default ``10**10`` refuses it (and the search through the ground alone from 160 x 160).
   ``--quick``: the 60 x 60 grid only; ``--only diameter`` runs this section alone.
8. **The iterative kernel** (low-degree elimination, then Jacobi-PCG; no factor:
   ``learners/iterative.py``): the four-learner evaluate, T = 5,000, at n = 10,000 with the
   factor (``SparseKernel``) and with the iterative kernel forced
   (``kernels.SPARSE_SOLVER = "iterative"``), the same mistakes asserted; then at n = 100,000,
   where the factor is refused and ``make_kernel`` falls back to the iterative kernel, with the
   elimination and without it (``ELIMINATION_DEGREE = 0``: CG on the whole Laplacian, the
   kernel as it was before), the same mistakes asserted and the ratios printed.  Each row runs
   in a child process of its own (its own peak memory) and prints wall and CPU time (both
   threads), the kernel's build, ``R``, the sketch's survivors (columns solved) and the load at
   start and end.  The section raises the work limit to ``10**12``: the iterative kernel's
   estimate is ``2.6 * 10**10`` steps at n = 10,000 and ``2.6 * 10**11`` at n = 100,000 (200
   iterations x (nnz + 6 n) of the Schur complement the elimination leaves, per right-hand
   side, 1,669 right-hand sides), over the default ``10**10`` (the factor's at n = 100,000 is
   ``1.8 * 10**12``).  ``--quick``: n = 4,001, T = 1,000, both ways only; ``--only iterative``
   runs this section alone.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import subprocess
import sys
import time

import _timing
import networkx as nx
import numpy as np

from simpred_lite.game.evaluation import evaluate
from simpred_lite.graphs import validate_graph
from simpred_lite.learners import kernels

FOUR = ["UnionFindLearner", "BST Perceptron", "Matrix Winnow", "Matrix Perceptron"]


def _upper_pairs(s: int, p: float, rng) -> np.ndarray:
    """Each pair ``i < j`` of ``0 .. s-1`` independently with probability ``p`` (geometric skipping)."""
    N = s * (s - 1) // 2
    pos = _skips(N, p, rng)
    i = (s - 2 - np.floor(np.sqrt(-8.0 * pos + 4.0 * s * (s - 1) - 7) / 2.0 - 0.5)).astype(np.int64)
    j = pos + i + 1 - N + (s - i) * (s - i - 1) // 2
    return np.stack([i, j], axis=1)


def _skips(N: int, p: float, rng) -> np.ndarray:
    k = int(N * p + 10 * np.sqrt(N * p) + 100)
    pos = np.cumsum(rng.geometric(p, size=k)) - 1
    while pos[-1] < N:
        pos = np.concatenate([pos, np.cumsum(rng.geometric(p, size=k)) + pos[-1]])
    return pos[pos < N]


def sparse_block_model(n: int, seed: int, deg_in: float = 4.0, deg_out: float = 0.2, K: int = 4):
    """A connected sparse SBM in ``O(n + m)`` (the package's ``planted_partition`` draws all n^2/2 pairs)."""
    rng = np.random.default_rng(seed)
    sizes = [n // K + (k < n % K) for k in range(K)]
    starts = np.cumsum([0] + sizes)
    labels = np.repeat(np.arange(K), sizes)
    edges = []
    for a in range(K):
        edges.append(_upper_pairs(sizes[a], deg_in / sizes[a], rng) + starts[a])
        for b in range(a + 1, K):
            pos = _skips(sizes[a] * sizes[b], deg_out / (n - sizes[a]), rng)
            edges.append(np.stack([pos // sizes[b] + starts[a], pos % sizes[b] + starts[b]], axis=1))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(np.concatenate(edges).tolist())
    comps = sorted(nx.connected_components(G), key=lambda c: (-len(c), min(c)))
    main = np.array(sorted(comps[0]))
    by_class = {k: main[labels[main] == k] for k in range(K)}
    for comp in comps[1:]:  # join each other component inside its class: the cut is unchanged
        comp = sorted(comp)
        u = comp[rng.integers(len(comp))]
        pool = by_class[labels[u]]
        G.add_edge(u, int(pool[rng.integers(pool.size)]))
    return G, labels


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def diagonal_section(sizes):
    print("### 1. The diagonal of the grounded inverse: selected inversion vs n sparse solves\n")
    print("| n | m | LU nonzeros | n solves (s) | selected inversion (s) | ratio | max difference |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for n in sizes:
        G, _ = sparse_block_model(n, seed=1)
        kern = kernels.SparseKernel(kernels.frozen_copy(validate_graph(G)))
        lu, keep = kern._lu, kern._keep

        def solves():
            d = np.zeros(n)
            for start in range(0, keep.size, 256):
                cols = keep[start:start + 256]
                E = np.zeros((n, cols.size))
                E[cols, np.arange(cols.size)] = 1.0
                d[cols] = kern._solve(E)[cols, np.arange(cols.size)]
            return d

        d_solves, t_solves = _timing.timed(solves)
        d_sel, t_sel = _timing.timed(kern.diagonal, repeat=3)
        diff = float(np.abs(d_solves - d_sel).max())
        assert diff < 1e-9 * float(d_solves.max()), f"selected inversion disagrees with the solves: {diff}"
        fill = lu.L.nnz + lu.U.nnz
        print(f"| {n:,} | {G.number_of_edges():,} | {fill:,} | {t_solves:.2f} | {t_sel:.3f} | "
              f"{t_solves / t_sel:,.0f}x | < 1e-9 (relative) |")
    print()


def shared_section(n, T):
    print(f"### 2. One kernel per graph: Matrix Winnow + Matrix Perceptron, n = {n:,}, T = {T:,}\n")
    G, y = sparse_block_model(n, seed=2)
    both, t_both = _timing.timed(lambda: evaluate(["Matrix Winnow", "Matrix Perceptron"], G, y, T=T, time_limit=None))
    one = {}
    t_each = 0.0
    for name in ("Matrix Winnow", "Matrix Perceptron"):
        ev, t = _timing.timed(lambda name=name: evaluate([name], G, y, T=T, time_limit=None))
        one[name] = ev.mistakes[name]
        t_each += t
    assert one == both.mistakes, "the shared kernel changed a prediction"
    print("| setting | wall (s) | ratio |")
    print("|---|---:|---:|")
    print(f"| one call, one kernel shared | {t_both:.1f} | 1 |")
    print(f"| one call per learner, a kernel each | {t_each:.1f} | {t_each / t_both:.2f}x |")
    print(f"\nSame mistakes in both settings: {both.mistakes}.\n")


def _superlu_solve(self, B):
    """The previous sparse solve: SuperLU's, one right-hand side after the other."""
    X = np.zeros((self.n, B.shape[1]))
    rows = self._keep if self._order is None else self._keep[self._order]
    X[rows] = self._lu.solve(np.ascontiguousarray(B[rows]))
    self.solves += B.shape[1]
    return X


@contextlib.contextmanager
def minimum_degree_order():
    """The factor's order as it was: SuperLU's minimum degree (what the kernel does without pymetis)."""
    saved = kernels.nested_dissection_order
    kernels.nested_dissection_order = lambda A: None
    try:
        yield
    finally:
        kernels.nested_dissection_order = saved


@contextlib.contextmanager
def previous_path():
    """The sparse kernel as it was: minimum-degree order, SuperLU solves one per pair and per learner, no prefetch."""
    saved = kernels.SparseKernel._solve, kernels.SparseKernel.prefetch
    kernels.SparseKernel._solve = _superlu_solve
    kernels.SparseKernel.prefetch = lambda self, i, j: None
    try:
        with minimum_degree_order():
            yield
    finally:
        kernels.SparseKernel._solve, kernels.SparseKernel.prefetch = saved


@contextlib.contextmanager
def dense_limit(limit):
    old = kernels.DENSE_LIMIT
    kernels.DENSE_LIMIT = limit
    try:
        yield
    finally:
        kernels.DENSE_LIMIT = old


def _four_row(n, T, path="blocks"):
    G, y = sparse_block_model(n, seed=3)
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    if path == "previous":
        with previous_path():
            ev = evaluate(FOUR, G, y, T=T, time_limit=None)
    else:
        ev = evaluate(FOUR, G, y, T=T, time_limit=None)
    wall = time.perf_counter() - t0
    r = {name: ev[name] for name in FOUR}
    retired = [f"{name}: {x.retired}" for name, x in r.items() if x.retired]
    if retired:  # the matrix learners refused by the work guard (the n = 100,000 row)
        print(f"| {n:,} | {G.number_of_edges():,} | sparse | {T:,} | {time.perf_counter() - t0:.1f} | "
              f"retired: {'; '.join(retired)[:400]} | | {' / '.join(str(ev.mistakes[x]) for x in FOUR)} | "
              f"{peak_mb():,} | {load:.1f} |", flush=True)
        return time.perf_counter() - t0, ev.mistakes
    kind = "dense" if n <= kernels.DENSE_LIMIT else f"sparse, {'SuperLU per pair' if path == 'previous' else 'blocks'}"
    w, p = r["Matrix Winnow"], r["Matrix Perceptron"]
    print(f"| {n:,} | {G.number_of_edges():,} | {kind} | {T:,} | {wall:.1f} | {w.build_seconds:.1f} / "
          f"{p.build_seconds:.1f} | {1e3 * w.seconds_per_trial:.2f} / {1e3 * p.seconds_per_trial:.2f} | "
          f"{' / '.join(str(ev.mistakes[x]) for x in FOUR)} | {peak_mb():,} | {load:.1f} |", flush=True)
    return wall, ev.mistakes


_HEAD = ("| n | m | kernel | T | wall (s) | build: Winnow / Perceptron (s) | ms per trial: Winnow / Perceptron "
         "| mistakes: UF / BST / Winnow / Perceptron | peak memory (MB) | load |\n"
         "|---:|---:|---|---:|---:|---|---|---|---:|---:|")


def four_section(switch, big, T, T_prev, huge=None, huge_limit=300.0):
    """The four-learner evaluate: the switch, the previous path against blocks, and the large sizes."""
    print(f"### 3. The four-learner evaluate (dense kernel up to n = {switch:,})\n")
    print("*load* = the 1-minute load average when the row started (2 cores; the machine is shared).\n")
    print(_HEAD)
    with dense_limit(switch):
        walls = {n: _four_row(n, T)[0] for n in (switch, switch + 1)}
        wall_prev, prev_m = _four_row(big, T_prev, "previous")
        wall_new, new_m = _four_row(big, T_prev)
        big_wall = walls[big] if big in walls else _four_row(big, T)[0]
    assert prev_m == new_m, f"block solves changed a mistake count: {prev_m} vs {new_m}"
    print(f"\nAt the switch: n = {switch + 1:,} (sparse) took {walls[switch + 1] / walls[switch]:.2f}x the wall "
          f"time of n = {switch:,} (dense). At n = {big:,}, T = {T_prev:,}: the previous path took "
          f"{wall_prev / wall_new:.1f}x the time of the block solves, with the same mistakes; T = {T:,}: "
          f"{big_wall:.1f} s. One run each.\n")
    if huge is not None:
        _huge_row(huge, T, huge_limit)


def _huge_row(n, T, limit):
    """The four-learner evaluate at ``n`` in a child process, stopped after ``limit`` seconds."""
    code = ("import sys; sys.path.insert(0, 'benchmarks'); import bench_scale as b; "
            f"b._four_row({n}, {T})")
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=limit,
                             cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        print(out.stdout.strip() or out.stderr.strip()[-400:])
    except subprocess.TimeoutExpired:
        print(f"\nn = {n:,}, T = {T:,}: not finished after {time.perf_counter() - t0:.0f} s, the target "
              f"(stopped; load {load:.1f} at the start).\n")


def order_section(n, T, refused_n):
    """Section 6: the factor's order, SuperLU's minimum degree (as before) against METIS nested dissection.

    The sparse kernel's build (order, factorisation, selected inversion, the diameter) and the
    four-learner evaluate at ``n``, both orders in this process, mistakes asserted equal; then
    at ``refused_n``, beyond the work limit, how long each takes to refuse (the minimum-degree
    path factors first, nested dissection counts the factor's nonzeros from the pattern).
    """
    from simpred_lite.checks import WorkLimitError

    print(f"### 6. The factor's order: minimum degree (before) vs nested dissection, n = {n:,}, T = {T:,}\n")
    print("One run each, same process; *load* = the 1-minute load average at the start of the row (2 cores).\n")
    print("| order | kernel build (s) | factor nonzeros | four-learner evaluate wall (s) | CPU (s) "
          "| mistakes: UF / BST / Winnow / Perceptron | load |")
    print("|---|---:|---:|---:|---:|---|---:|")
    G, y = sparse_block_model(n, seed=3)
    rows = {}
    for name in ("minimum degree", "nested dissection"):
        ctx = minimum_degree_order() if name == "minimum degree" else contextlib.nullcontext()
        with ctx, dense_limit(min(kernels.DENSE_LIMIT, n - 1)):
            load = os.getloadavg()[0]
            kern, t_build = _timing.timed(lambda: kernels.SparseKernel(kernels.frozen_copy(validate_graph(G))))
            fill = kern._lu.L.nnz + kern._lu.U.nnz
            t0, c0 = time.perf_counter(), time.process_time()
            ev = evaluate(FOUR, G, y, T=T, time_limit=None)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        assert not any(ev[x].retired for x in FOUR), [ev[x].retired for x in FOUR]
        rows[name] = (t_build, wall, cpu, ev.mistakes)
        print(f"| {name} | {t_build:.1f} | {fill:,} | {wall:.1f} | {cpu:.1f} | "
              f"{' / '.join(str(ev.mistakes[x]) for x in FOUR)} | {load:.1f} |", flush=True)
    assert rows["minimum degree"][3] == rows["nested dissection"][3], "the order changed a mistake count"
    a, b = rows["minimum degree"], rows["nested dissection"]
    print(f"\nminimum degree / nested dissection: kernel build {a[0] / b[0]:.2f}x, evaluate wall {a[1] / b[1]:.2f}x, "
          f"CPU {a[2] / b[2]:.2f}x (one run each).\n")
    if refused_n is None:
        return
    G, _ = sparse_block_model(refused_n, seed=3)
    H = kernels.frozen_copy(validate_graph(G))
    cells = []
    for name in ("minimum degree", "nested dissection"):
        ctx = minimum_degree_order() if name == "minimum degree" else contextlib.nullcontext()
        t0 = time.perf_counter()
        with ctx:
            try:
                kernels.SparseKernel(H)
                cells.append(f"{name}: built in {time.perf_counter() - t0:.1f} s")
            except WorkLimitError as err:
                cells.append(f"{name}: refused after {time.perf_counter() - t0:.1f} s "
                             f"({str(err).split(' takes about ')[1].split(',')[0]})")
    print(f"At n = {refused_n:,}: " + "; ".join(cells) + ".\n")


@contextlib.contextmanager
def ground_bound_only():
    """The diameter search as it was: each column bounded through the ground alone (``d_i + max d``)."""
    saved = kernels.SparseKernel._resistances_to_centre
    kernels.SparseKernel._resistances_to_centre = lambda self, d: None
    try:
        yield
    finally:
        kernels.SparseKernel._resistances_to_centre = saved


def _grid(side):
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side), ordering="sorted")
    y = np.array([2 * (v // side >= side // 2) + (v % side >= side // 2) for v in range(side * side)])  # quadrants
    return G, y


def diameter_section(sides, big_side, T):
    """Section 7: the exact resistance diameter's column search on grids, ground bound alone vs a resistance centre.

    The whole section runs with ``checks.WORK_LIMIT = 10**11`` (the default ``10**10`` refuses the
    search through the ground alone from 160 x 160 on, and the 317 x 317 grid's search either way).
    """
    from simpred_lite import checks

    print("### 7. The diameter search on grids: the bound through the ground alone (before) vs a resistance "
          "centre (now)\n")
    print("One run each, same process, WORK_LIMIT = 10**11 for the whole section; *load* = the 1-minute load "
          "average at the start of the row (2 cores).\n")
    print("| grid | n | columns solved: before / now | kernel build (s): before / now | ratio | R | load |")
    print("|---|---:|---|---|---:|---:|---:|")
    saved = checks.WORK_LIMIT
    checks.WORK_LIMIT = 10**11
    try:
        for side in sides:
            G, _ = _grid(side)
            load = os.getloadavg()[0]
            row = {}
            for name in ("before", "now"):
                ctx = ground_bound_only() if name == "before" else contextlib.nullcontext()
                with ctx:
                    kern, t = _timing.timed(lambda: kernels.SparseKernel(kernels.frozen_copy(validate_graph(G))))
                row[name] = (kern.columns_solved, t, kern.R, kern.diameter_error())
            (c0, t0, R0, e0), (c1, t1, R1, e1) = row["before"], row["now"]
            assert abs(R0 - R1) <= e0 + e1, f"the search changed R: {R0} vs {R1}"
            print(f"| {side} x {side} | {side * side:,} | {c0:,} / {c1:,} | {t0:.1f} / {t1:.1f} | {t0 / t1:.1f}x | "
                  f"{R1:.6f} | {load:.1f} |", flush=True)
        if big_side is None:
            print()
            return
        G, y = _grid(big_side)
        load = os.getloadavg()[0]
        t0, c0 = time.perf_counter(), time.process_time()
        ev = evaluate(FOUR, G, y, T=T, time_limit=None)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        checks.WORK_LIMIT = saved
    retired = [f"{x}: {ev[x].retired[:120]}" for x in FOUR if ev[x].retired]
    print(f"\nThe four-learner evaluate on the {big_side} x {big_side} grid (n = {big_side ** 2:,}), T = {T:,}: "
          f"wall {wall:.1f} s, CPU {cpu:.1f} s, mistakes UF / BST / Winnow / Perceptron "
          f"{' / '.join(str(ev.mistakes[x]) for x in FOUR)}, peak memory {peak_mb():,} MB, load {load:.1f}"
          + (f"; retired: {'; '.join(retired)}" if retired else "") + ".\n")


def lookahead_section(n, T):
    """Section 5: Matrix Winnow pair by pair (``LOOKAHEAD = 0``, as before) against reading the sequence ahead.

    The four-learner evaluate of section 3 on the same graph, twice in this process, the
    previous way first; wall and CPU time of the whole call and of Matrix Winnow's trials,
    the load average at the start of each row, the mistakes (asserted equal).
    """
    from simpred_lite.learners import MatrixWinnow

    print(f"### 5. Matrix Winnow reading the sequence ahead, four-learner evaluate, n = {n:,}, T = {T:,}\n")
    print("*previous* = the basis coordinates of each pair by its own triangular solve and product "
          "(`MatrixWinnow.LOOKAHEAD = 0`); *now* = those of 64 coming pairs at once; one run each, same process, "
          "*load* = the 1-minute load average at the start of the row (2 cores, shared).\n")
    print("| Winnow | wall (s) | CPU (s) | Winnow build (s) | Winnow ms per trial "
          "| mistakes: UF / BST / Winnow / Perceptron | load |")
    print("|---|---:|---:|---:|---:|---|---:|")
    G, y = sparse_block_model(n, seed=3)
    rows = {}
    saved = MatrixWinnow.LOOKAHEAD
    try:
        for name, look in (("previous", 0), ("now", saved)):
            MatrixWinnow.LOOKAHEAD = look
            load = os.getloadavg()[0]
            t0, c0 = time.perf_counter(), time.process_time()
            ev = evaluate(FOUR, G, y, T=T, time_limit=None)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            w = ev["Matrix Winnow"]
            rows[name] = (wall, cpu, 1e3 * w.seconds_per_trial, ev.mistakes)
            print(f"| {name} | {wall:.1f} | {cpu:.1f} | {w.build_seconds:.1f} | {1e3 * w.seconds_per_trial:.2f} | "
                  f"{' / '.join(str(ev.mistakes[x]) for x in FOUR)} | {load:.1f} |", flush=True)
    finally:
        MatrixWinnow.LOOKAHEAD = saved
    assert rows["previous"][3] == rows["now"][3], "reading ahead changed a mistake count"
    p, q = rows["previous"], rows["now"]
    print(f"\nprevious / now: wall {p[0] / q[0]:.2f}x, CPU {p[1] / q[1]:.2f}x, Winnow per trial {p[2] / q[2]:.2f}x "
          f"(one run each).\n")


def bookkeeping_section(n, T):
    """Section 4: ``evaluate(["UnionFindLearner", "BST Perceptron"], ...)``, the bookkeeping before and now.

    Each variant runs in a fresh interpreter (its own peak memory, the same cold imports):
    *now* is the package as it is; *before* restores, in that interpreter only, the bookkeeping
    of the previous version (:func:`_previous_bookkeeping`): a frozen networkx copy of the
    graph instead of a frozen view; the edge array, the self-loop and integer-vertex checks and
    the edge count by Python loops over the edges and vertices; the labels of the BST (for the
    BST Perceptron's bound) by a loop over its heap.  Same graph, trials and learners: the
    mistakes must agree.  The load average (``uptime``) is printed with each run.
    """
    import json
    import os
    import subprocess
    import sys

    print(f"### 4. Bookkeeping: UnionFindLearner + BST Perceptron, n = {n:,}, T = {T:,}\n")
    print("Each row one run in a fresh interpreter (see `bookkeeping_section`); *before* = the previous "
          "bookkeeping (a frozen networkx copy of the graph, Python loops over edges and vertices), *now* = "
          "a frozen view of the graph, validated once, and vectorised edge arrays; *load* = the 1-minute load "
          "average on this 2-core machine at the start / end of the run.\n")
    print("| bookkeeping | wall (s) | construction (s) | playing (s) | the rest: validation, trials, bounds (s) | "
          "rest / (construction + playing) | peak memory (MB) | mistakes: UF / BST | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    rows = {}
    for variant in ("now", "before"):
        start_load = os.getloadavg()[0]
        child = f"import bench_scale; bench_scale._bookkeeping_child({n}, {T}, {variant!r})"
        out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True,
                             cwd=os.path.dirname(os.path.abspath(__file__)))
        r = rows[variant] = json.loads(out.stdout.strip().splitlines()[-1])
        rest = r["wall"] - r["build"] - r["play"]
        print(f"| {variant} | {r['wall']:.1f} | {r['build']:.1f} | {r['play']:.1f} | {rest:.1f} | "
              f"{rest / (r['build'] + r['play']):.2f} | {r['peak_mb']:,} | {r['mistakes'][0]} / {r['mistakes'][1]} | "
              f"{start_load:.1f} / {os.getloadavg()[0]:.1f} |")
    assert rows["now"]["mistakes"] == rows["before"]["mistakes"], "the bookkeeping changed the mistakes"
    now, before = rows["now"], rows["before"]
    rest_now = now["wall"] - now["build"] - now["play"]
    rest_before = before["wall"] - before["build"] - before["play"]
    print(f"\nbefore / now: wall {before['wall'] / now['wall']:.1f}x, the rest {rest_before / rest_now:.1f}x, "
          f"peak memory {before['peak_mb'] / now['peak_mb']:.2f}x (one run each).\n")


def _previous_bookkeeping():
    """Restore, in this interpreter, the bookkeeping of the previous version (section 4's *before*)."""
    import itertools

    from simpred_lite import graphs
    from simpred_lite.bst import BinarySupportTree
    from simpred_lite.checks import is_integer
    from simpred_lite.game import evaluation
    from simpred_lite.graphs import validate_labels

    evaluation.validated_view = lambda G: validate_graph(G, freeze=True)  # a frozen networkx copy
    graphs._undirected_edges = lambda G: np.fromiter(itertools.chain.from_iterable(G.edges()),
                                                     dtype=np.int64).reshape(-1, 2)
    # the integer-vertex check by sets and a loop, plus the self-loop scan it came after
    graphs._integer_vertices = lambda G, n: (not list(nx.selfloop_edges(G)) and set(G.nodes) == set(range(n))
                                             and all(is_integer(v) for v in G.nodes))
    evaluation.edge_array = lambda G: range(G.number_of_edges())  # m summed over the degrees

    def propagate_labels(self, labels):  # a Python loop over the heap vertices
        y = validate_labels(labels, self.n)
        N = self.num_leaves
        out = np.empty(2 * N, dtype=np.int64)
        out[0] = -1
        leaves = np.full(N, y[self.order[-1]], dtype=np.int64)
        leaves[: self.n] = y[self.order]
        out[N:] = leaves
        for v in range(N - 1, 0, -1):
            out[v] = out[2 * v]
        return out

    BinarySupportTree.propagate_labels = propagate_labels


def _bookkeeping_child(n: int, T: int, variant: str) -> None:
    import json

    if variant == "before":
        _previous_bookkeeping()
    G, y = sparse_block_model(n, seed=4)
    names = ("UnionFindLearner", "BST Perceptron")
    t0 = time.perf_counter()
    ev = evaluate(list(names), G, y, T=T, time_limit=None)
    wall = time.perf_counter() - t0
    print(json.dumps({"wall": wall, "build": sum(ev[x].build_seconds for x in names),
                      "play": sum(ev[x].seconds_per_trial * ev[x].played for x in names),
                      "peak_mb": peak_mb(), "mistakes": [ev.mistakes[x] for x in names]}))


def _iterative_child(n: int, T: int, solver: str, degree: int | None = None) -> None:
    """One row of section 8 (run in a child process): JSON on the last line of stdout.

    ``degree``: the iterative kernel's ``ELIMINATION_DEGREE`` (None: its default; 0: no elimination,
    CG on the whole Laplacian, as before the elimination was added)."""
    import json

    from simpred_lite import checks
    from simpred_lite.learners.iterative import IterativeKernel

    checks.WORK_LIMIT = 10**12
    kernels.SPARSE_SOLVER = solver
    if degree is not None:
        IterativeKernel.ELIMINATION_DEGREE = degree
    built = {}
    make = kernels._sparse_kernel

    def timed_kernel(H):
        t0, c0 = time.perf_counter(), time.process_time()
        kern = make(H)
        built.update(kind=type(kern).__name__, seconds=time.perf_counter() - t0, cpu=time.process_time() - c0,
                     R=float(kern.R), R_error=float(kern.diameter_error()), columns=int(kern.columns_solved),
                     kernel=kern)
        return kern

    kernels._sparse_kernel = timed_kernel
    G, y = sparse_block_model(n, seed=3)
    load0 = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    ev = evaluate(FOUR, G, y, T=T, time_limit=None)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    kern = built.pop("kernel")
    if hasattr(kern, "iterations"):  # PCG iterations per right-hand side, over every solve of the run
        built["iterations"] = kern.iterations / max(kern.solves, 1)
        built["core"] = int(kern._elimination.core.size)
    print(json.dumps({"n": n, "m": G.number_of_edges(), "T": T, "wall": wall, "cpu": cpu, "kernel": built,
                      "mistakes": [ev.mistakes[x] for x in FOUR],
                      "retired": [f"{x}: {ev[x].retired[:200]}" for x in FOUR if ev[x].retired],
                      "peak_mb": peak_mb(), "load": [load0, os.getloadavg()[0]]}))


def _iterative_row(n, T, solver, degree=None):
    import json

    from simpred_lite.learners.iterative import IterativeKernel

    code = ("import sys; sys.path.insert(0, 'benchmarks'); import bench_scale as b; "
            f"b._iterative_child({n}, {T}, {solver!r}, {degree!r})")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    r = json.loads(out.stdout.strip().splitlines()[-1])
    k = r["kernel"]
    d = IterativeKernel.ELIMINATION_DEGREE if degree is None else degree
    path = ("factor" if k.get("kind") == "SparseKernel" else
            f"iterative: elimination of degree ≤ {d}, PCG" if d else "iterative: PCG, no elimination")
    if "iterations" in k:
        path += f" ({k['core']:,} vertices left, {k['iterations']:.1f} iterations per solve)"
    print(f"| {n:,} | {r['m']:,} | {path} | {T:,} | {r['wall']:.1f} | {r['cpu']:.1f} | "
          f"{k.get('seconds', float('nan')):.1f} | {k.get('R', float('nan')):.10f} ± {k.get('R_error', 0):.1e} | "
          f"{k.get('columns', '')} | {' / '.join(map(str, r['mistakes']))} | {'; '.join(r['retired']) or 'none'} | "
          f"{r['peak_mb']:,} | {r['load'][0]:.1f} → {r['load'][1]:.1f} |", flush=True)
    return r


def iterative_section(n, T, big=None):
    """The four-learner evaluate with the factor and with the iterative kernel (elimination + Jacobi-PCG)."""
    print(f"### 8. The iterative kernel (low-degree elimination + Jacobi-PCG) against the factor, T = {T:,}\n")
    print("Work limit raised to 1e12 in each child. *CPU* = process time of both threads; *load* = 1-minute "
          "load average at the start and end of the row (2 cores, shared).\n")
    print("| n | m | kernel | T | wall (s) | CPU (s) | kernel build (s) | R ± R_error | columns solved | "
          "mistakes: UF / BST / Winnow / Perceptron | retired | peak memory (MB) | load |")
    print("|---:|---:|---|---:|---:|---:|---:|---|---:|---|---|---:|---|")
    fac = _iterative_row(n, T, "auto")
    it = _iterative_row(n, T, "iterative")
    assert fac["kernel"]["kind"] == "SparseKernel" and it["kernel"]["kind"] == "IterativeKernel"
    assert fac["mistakes"] == it["mistakes"], f"the iterative kernel changed a mistake count: {fac} vs {it}"
    print(f"\nAt n = {n:,}: the same mistakes on both paths; the iterative path took {it['wall'] / fac['wall']:.2f}x "
          f"the wall time and {it['cpu'] / fac['cpu']:.2f}x the CPU time of the factor's. One run each.\n")
    if big is not None:
        print("| n | m | kernel | T | wall (s) | CPU (s) | kernel build (s) | R ± R_error | columns solved | "
              "mistakes: UF / BST / Winnow / Perceptron | retired | peak memory (MB) | load |")
        print("|---:|---:|---|---:|---:|---:|---:|---|---:|---|---|---:|---|")
        new = _iterative_row(big, T, "auto")
        old = _iterative_row(big, T, "auto", degree=0)
        assert new["mistakes"] == old["mistakes"], f"the elimination changed a mistake count: {new} vs {old}"
        print(f"\nAt n = {big:,}: the same mistakes with and without the elimination; with it, the evaluate took "
              f"{new['wall']:.1f} s wall ({old['wall'] / new['wall']:.2f}x less than without), {new['cpu']:.1f} s CPU "
              f"({old['cpu'] / new['cpu']:.2f}x less), and the kernel's build {new['kernel']['seconds']:.1f} s "
              f"({old['kernel']['seconds'] / new['kernel']['seconds']:.2f}x less). One run each.\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (under a minute)")
    ap.add_argument("--only", choices=["lookahead", "order", "diameter", "iterative"],
                    help="run one section alone (at the full sizes)")
    args = ap.parse_args(argv)
    if args.only == "lookahead":
        lookahead_section(10_000, 5000)
        return
    if args.only == "order":
        order_section(10_000, 5000, 20_000)
        return
    if args.only == "diameter":
        diameter_section([100, 160], 317, 5000)
        return
    if args.only == "iterative":
        iterative_section(10_000, 5000, 100_000)
        return
    print("## bench_scale.py — the matrix learners and evaluate's bookkeeping on large sparse graphs\n")
    print("Sparse 4-block model, about 4 neighbours inside a block and 0.2 across. Best of 3 where cheap "
          "(the selected inversion), else one run.\n")
    if args.quick:
        diagonal_section([1500])
        shared_section(600, 500)
        four_section(1000, 1001, 1000, 300)
        bookkeeping_section(100_000, 2000)
        lookahead_section(1001, 1000)
        order_section(3000, 1000, None)
        diameter_section([60], None, 0)
        iterative_section(4001, 1000)
    else:
        diagonal_section([4001, 10_000])
        shared_section(4001, 2000)
        four_section(4000, 10_000, 5000, 500, huge=100_000)
        bookkeeping_section(1_000_000, 5000)
        lookahead_section(10_000, 5000)
        order_section(10_000, 5000, 20_000)
        diameter_section([100, 160], 317, 5000)
        iterative_section(10_000, 5000, 100_000)


if __name__ == "__main__":
    main()
