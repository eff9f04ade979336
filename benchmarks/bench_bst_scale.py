"""Random spanning tree + Binary Support Tree at 10^5 and 10^6 vertices: time and memory.

Each size runs in a fresh subprocess (so its peak memory is its own) on a square grid built
from numpy edge arrays; the timed part is ``BinarySupportTree.from_graph`` (Wilson's tree,
depth-first linearisation, balanced tree; the networkx copy of the tree, ``B.tree``, is built
lazily on first access and is not timed).  Linear growth means a 10x larger graph takes
about 10x the time (Wilson's expected time on a grid grows like n log n).

Usage: python benchmarks/bench_bst_scale.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import networkx as nx, numpy as np
from simpred_lite.bst import BinarySupportTree
side = int(sys.argv[1])
n = side * side
v = np.arange(n).reshape(side, side)
edges = np.concatenate([np.stack([v[:, :-1].ravel(), v[:, 1:].ravel()], 1),
                        np.stack([v[:-1, :].ravel(), v[1:, :].ravel()], 1)])
G = nx.Graph(); G.add_nodes_from(range(n)); G.add_edges_from(edges.tolist())
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
B = BinarySupportTree.from_graph(G, seed=0)
t = time.perf_counter() - t
rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"n": n, "seconds": t, "graph_mb": rss0 / 1024, "peak_mb": rss1 / 1024, "depth": B.depth}))
"""


def run(side: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(side)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^4 and 10^5 vertices instead of 10^5 and 10^6")
    args = ap.parse_args()
    sides = [100, 316] if args.quick else [316, 1000]
    rows = [run(s) for s in sides]
    for r in rows:
        print(f"n = {r['n']:>9,}: spanning tree + BST in {r['seconds']:6.2f} s, depth {r['depth']}, "
              f"peak RSS {r['peak_mb']:7.0f} MB (graph alone {r['graph_mb']:7.0f} MB)")
    a, b = rows
    print(f"time ratio {b['n'] // a['n']}x vertices: {b['seconds'] / a['seconds']:.1f}x (linear: 10x, target < 15x); "
          f"peak memory ratio {b['peak_mb'] / a['peak_mb']:.1f}x; memory beyond the graph "
          f"{a['peak_mb'] - a['graph_mb']:.0f} MB -> {b['peak_mb'] - b['graph_mb']:.0f} MB "
          f"({(b['peak_mb'] - b['graph_mb']) / max(a['peak_mb'] - a['graph_mb'], 1):.1f}x)")


if __name__ == "__main__":
    main()
