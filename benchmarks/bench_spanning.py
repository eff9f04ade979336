"""Uniform spanning trees: Wilson's algorithm against ``networkx.random_spanning_tree``.

Both sample a uniformly random spanning tree of the same graphs (grids of 100, 200 and 500
vertices).  networkx contracts edges one at a time and recounts the trees with a dense
determinant at every step; Wilson needs one loop-erased random walk per vertex.  Ratios are
measured in the same run, so a busy machine slows both sides alike.  networkx runs in a
subprocess with a time budget; if it runs out, the line says so and the ratio is a lower
bound (">").

Usage: python benchmarks/bench_spanning.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

import networkx as nx
import numpy as np
from _timing import best_of

from simpred_lite.graphs import grid_graph
from simpred_lite.spanning import aldous_broder, count_spanning_trees, wilson

GRIDS = {100: (10, 10), 200: (10, 20), 500: (20, 25)}

CHILD = r"""
import sys, time, networkx as nx
from simpred_lite.graphs import grid_graph
G, _ = grid_graph(int(sys.argv[1]), int(sys.argv[2]))
t = time.perf_counter()
nx.random_spanning_tree(G, weight=None, seed=1)
print(time.perf_counter() - t)
"""


def networkx_seconds(rows: int, cols: int, budget: float) -> tuple[float, bool]:
    """networkx's time on the grid, or (budget, False) if it did not finish within budget."""
    try:
        out = subprocess.run([sys.executable, "-c", CHILD, str(rows), str(cols)], capture_output=True,
                             text=True, check=True, timeout=budget)
    except subprocess.TimeoutExpired:
        return budget, False
    return float(out.stdout), True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 100 and 200, networkx budget 40 s")
    ap.add_argument("--budget", type=float, default=None, help="seconds allowed to networkx per graph")
    args = ap.parse_args()
    sizes = [100, 200] if args.quick else [100, 200, 500]
    budget = args.budget or (40.0 if args.quick else 150.0)
    print(f"{'n':>5} {'m':>6} {'networkx [s]':>13} {'wilson [ms]':>12} {'aldous-broder [ms]':>19} {'nx / wilson':>12}")
    for n in sizes:
        rows, cols = GRIDS[n]
        G, _ = grid_graph(rows, cols)
        t_nx, done = networkx_seconds(rows, cols, budget)
        t_w = statistics.median(best_of(lambda: wilson(G, seed=s), 1) for s in range(21))
        t_ab = statistics.median(best_of(lambda: aldous_broder(G, seed=s), 1) for s in range(5))
        mark = "" if done else ">"
        print(f"{n:>5} {G.number_of_edges():>6} {mark + f'{t_nx:.2f}':>13} {1e3 * t_w:>12.2f} "
              f"{1e3 * t_ab:>19.2f} {mark + f'{t_nx / t_w:.0f}':>11}x")
    # why not networkx at scale: its tree count is a float determinant that overflows
    G, _ = grid_graph(30, 30)
    with np.errstate(all="ignore"):
        nx_count = nx.number_of_spanning_trees(G) if hasattr(nx, "number_of_spanning_trees") else float("nan")
    print(f"30x30 grid: ln(#trees) = {count_spanning_trees(G, log=True):.1f} (sparse log-det); "
          f"networkx's float count = {nx_count}")


if __name__ == "__main__":
    main()
