"""evaluate_sweep on a real Dask cluster: the records equal those of n_jobs=1.

`make` installs the ``dask`` extra (``dask[distributed]``, pinned in constraints.txt), so this
test runs in ``make test``; it is skipped only where Dask is not installed at all.
"""

from __future__ import annotations

import pytest

from simpred_lite.game.evaluation import Sweep, evaluate_sweep
from simpred_lite.graphs import barbell_graph, planted_partition

distributed = pytest.importorskip("distributed", reason="the dask extra: pip install -e '.[dask]'")
joblib = pytest.importorskip("joblib")

LEARNERS = ["AlwaysSimilar", "UnionFindLearner", "Matrix Perceptron", "BST Perceptron", "TreeWinnow"]


def _untimed(sweep: Sweep) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in Sweep.TIMING_KEYS} for r in sweep.records]


def test_sweep_on_a_local_dask_cluster_equals_one_job():
    graphs = {"pp": planted_partition(30, 3, 0.4, 0.05, seed=2), "barbell": barbell_graph(5)}
    kw = dict(T=80, trials="random")
    here = evaluate_sweep(LEARNERS, graphs, [0, 1], n_jobs=1, **kw)
    # two worker processes on this machine, one thread each: the same as separate machines, in small
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        with joblib.parallel_backend("dask"), distributed.get_task_stream(client) as stream:
            on_dask = evaluate_sweep(LEARNERS, graphs, [0, 1], n_jobs=-1, **kw)
    assert stream.data, "the runs went to the cluster's workers"
    assert _untimed(on_dask) == _untimed(here) and len(here.records) == 2 * 2 * len(LEARNERS)
    assert on_dask.summary() == here.summary()
