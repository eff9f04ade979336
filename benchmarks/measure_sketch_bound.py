"""Issue 24: why the iterative kernel's diameter search solves more columns than the spike.

Builds ``IterativeKernel`` on ``sparse_block_model(n, seed=3)`` (the kernel build only, work
limit 1e12) and reports, from its ``sketch_diagnostics``, per vertex the no-error sketch root
``sqrt(sq)`` against the error terms: the 2-norm one (``sqrt(err2)``, the kernel as merged),
the entrywise one (``h_v sqrt(sum_j ||r_j||_inf^2)``) and the row one (the bound used with
them); and, for the bound ``u`` each would give, the columns the search's stopping rule needs:
``columns_needed_unbatched`` is the first position in decreasing ``u`` where
``u_next + max(d_top, u_next) < R - band`` with the final ``R`` and the final largest solved
``d`` (``d_top``) -- an approximation of the search, which uses the ``R`` found so far;
``columns_replayed`` rounds that up to the merged code's batches (16, 32, then doubling up to
``min(256, 2^24 / (4 n))``).  Run with the merged code on ``PYTHONPATH`` it prints the build
only (no diagnostics there).

    python benchmarks/measure_sketch_bound.py 20000
"""

from __future__ import annotations

import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_scale as b  # noqa: E402

from simpred_lite import checks  # noqa: E402
from simpred_lite.learners import iterative  # noqa: E402
from simpred_lite.learners.kernels import COLUMN_CACHE_ENTRIES, frozen_copy  # noqa: E402

checks.WORK_LIMIT = 10**12
diag: dict = {}
trace: list = []


def main(n: int) -> None:
    G, _ = b.sparse_block_model(n, seed=3)
    K = iterative.IterativeKernel
    orig_ub = K.diagonal_upper_bounds
    orig_solve = K._solve

    def ub(self):
        t0 = time.perf_counter()
        out = orig_ub(self)
        diag["sketch_seconds"] = time.perf_counter() - t0
        diag.update(getattr(self, "sketch_diagnostics", {}))
        return out

    state = {"cols": 0}

    def solve(self, B):
        X = orig_solve(self, B)
        if getattr(self, "_in_search", False):
            state["cols"] += B.shape[1]
        return X

    K.diagonal_upper_bounds = ub
    K._solve = solve
    load0 = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    kern = K(frozen_copy(G))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out = {"n": n, "m": G.number_of_edges(), "build_s": wall, "build_cpu": cpu, "columns": kern.columns_solved,
           "R": float(kern.R), "R_error": float(kern.diameter_error()), "sketch_k": kern.sketch_size,
           "sketch_s": diag.get("sketch_seconds"), "load": [load0, os.getloadavg()[0]]}
    d = diag
    if "sq" in d:
        k = kern.sketch_size
        t = iterative.sketch_factor(k, K.SKETCH_FAILURE)
        c = kern.ground
        keep = np.ones(n, bool)
        keep[c] = False
        root0 = np.sqrt(d["sq"])
        e2 = math.sqrt(d["err2"])
        einf = d["h"] * math.sqrt(d["rinf2"])
        bounds = {"none": root0, "2-norm": root0 + e2, "entrywise": root0 + np.minimum(einf, e2)}
        if "err" in d:
            bounds["used (row/entrywise/2-norm)"] = root0 + d["err"]
            out["err_row_median"] = float(np.median(d["e_row"][keep]))
            out["err_row_max"] = float(d["e_row"][keep].max())
        out["root0_median"] = float(np.median(root0[keep]))
        out["root0_max"] = float(root0[keep].max())
        out["err_2norm"] = e2
        out["err_entrywise_median"] = float(np.median(einf[keep]))
        out["err_entrywise_max"] = float(einf[keep].max())
        out["h_min_max"] = [float(d["h"][keep].min()), float(d["h"][keep].max())]
        out["inverse_norm_bound"] = float(kern.inverse_norm_bound)
        out["sum_rinf_sq"] = d["rinf2"]
        # replay the search for each bound on the exact diagonal of the traced columns is not
        # available; use the final R as 'best' (reached early): the first batch boundary where
        # u_next + max(dtop, u_next) < R - band
        R = float(kern.R)
        full = max(1, min(256, COLUMN_CACHE_ENTRIES // (4 * n)))
        for name, root in bounds.items():
            u = root * root / (k * t) * (1 + 1e-12)
            u[c] = 0.0
            order = np.argsort(-u, kind="stable")
            order = order[order != c]
            done, batch, dtop = 0, 16, 0.0
            while done < order.size:
                nxt = float(u[order[done]])
                M = max(dtop, nxt)
                band = 1e-9 * max(M, 1.0) + 1e-6 * max(R, 1.0) + 1e-6 * (nxt + M)
                if done > 0 and nxt + M < R - band:
                    break
                done += min(batch, order.size - done)
                batch = min(2 * batch, full)
                dtop = float(kern.search_dtop)
            out[f"columns_replayed[{name}]"] = done
            nx_ = u[order]
            Mx = np.maximum(float(kern.search_dtop), nx_)
            bandx = 1e-9 * np.maximum(Mx, 1.0) + 1e-6 * max(R, 1.0) + 1e-6 * (nx_ + Mx)
            out[f"columns_needed_unbatched[{name}]"] = int(np.argmax(nx_ + Mx < R - bandx))
            out[f"u_inflation_median[{name}]"] = float(np.median((root[keep] / root0[keep]) ** 2))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(int(sys.argv[1]))
