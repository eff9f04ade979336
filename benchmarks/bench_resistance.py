"""Effective resistance of all edges: sparse solves against networkx pair by pair.

At n = 500, ``nx.resistance_distance`` rebuilds and inverts the Laplacian for every pair
(about 30 ms a pair on an idle machine); ``effective_resistance(G, pairs=edges)`` factorises
once.  networkx is timed on a sample of edges and extrapolated to all of them (said so in
the output).  A second table times the cut edges of 10^5-vertex graphs.

Usage: python benchmarks/bench_resistance.py [--quick]
"""

from __future__ import annotations

import argparse

import networkx as nx
import numpy as np
from _timing import timed

from simpred_lite.graphs import cut_edges, grid_graph
from simpred_lite.resistance import edge_list, effective_resistance


def graph(n: int, seed: int) -> nx.Graph:
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, 6.0 / n, seed=int(rng.integers(2**31)))
    perm = rng.permutation(n)
    G.add_edges_from(zip(perm[:-1].tolist(), perm[1:].tolist()))
    return G


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer networkx pairs, smaller large graphs")
    args = ap.parse_args()
    n = 500
    G = graph(n, 0)
    edges = edge_list(G)
    sample = edges[:: max(1, len(edges) // (5 if args.quick else 20))]
    _, t_nx = timed(lambda: [nx.resistance_distance(G, u, v, weight=None) for u, v in sample])
    per_pair = t_nx / len(sample)
    R_auto, t_auto = timed(lambda: effective_resistance(G, pairs=edges), repeat=3)
    R_sparse, t_sp = timed(lambda: effective_resistance(G, pairs=edges, method="direct"), repeat=3)
    R_cg, t_cg = timed(lambda: effective_resistance(G, pairs=edges, method="cg"), repeat=3)
    R_dense, t_de = timed(lambda: effective_resistance(G), repeat=3)
    ref = np.array([nx.resistance_distance(G, u, v, weight=None) for u, v in sample[:3]])
    assert np.allclose(R_auto[[edges.index(e) for e in sample[:3]]], ref)
    assert np.allclose(R_auto, R_cg) and np.allclose(R_auto, R_sparse)
    assert np.allclose(R_auto, [R_dense[u, v] for u, v in edges])
    total_nx = per_pair * len(edges)
    print(f"n = {n}, m = {len(edges)} edges")
    print(f"  networkx, pair by pair : {1e3 * per_pair:8.2f} ms/pair -> {total_nx:7.2f} s for all edges "
          f"(extrapolated from {len(sample)} pairs)")
    for name, t in [("pairs=edges (auto)", t_auto), ("pairs, method='direct'", t_sp),
                    ("pairs, method='cg'", t_cg), ("all pairs, dense L^+", t_de)]:
        print(f"  {name:<23}: {t:8.4f} s for all edges   ratio networkx / this = {total_nx / t:9.0f}x")
    print("Large sparse graphs, resistances of all cut edges (auto method):")
    side = 100 if args.quick else 316
    Gg, yg = grid_graph(side, side, K=2)
    cut = cut_edges(Gg, yg)
    _, t = timed(lambda: effective_resistance(Gg, pairs=cut))
    print(f"  {side}x{side} grid, 2 vertical bands: {len(cut)} cut edges in {t:.2f} s")
    nr = 10_000 if args.quick else 100_000
    Gr = nx.random_regular_graph(4, nr, seed=1)
    yr = (np.arange(nr) * 2 // nr).astype(np.int64)
    pairs = [e for e in Gr.edges if yr[e[0]] != yr[e[1]]][:100]
    _, t = timed(lambda: effective_resistance(Gr, pairs=pairs))
    print(f"  random 4-regular, n = {nr}: {len(pairs)} cut edges in {t:.2f} s (CG: a factorisation would fill in)")


if __name__ == "__main__":
    main()
