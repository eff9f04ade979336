"""Compare learners in one call: the same trials for all, mistakes against bounds, sweeps.

:func:`evaluate` plays several learners on **one** trial sequence of a labelled graph and
returns an :class:`Evaluation`: per learner its mistakes, its mistake bound where the
package knows one, its error rate on the last block of trials and its time per trial, as a
table (``.records()``, a plain list of dicts; the notebook shows its HTML form) and as a
figure (``.plot()``).  :func:`evaluate_sweep` repeats that over seeds x graphs x learners in
parallel through :class:`joblib.Parallel`, so the same call runs on a laptop's cores or, under
``joblib.parallel_backend("dask")``, on a Dask cluster.

It is built on what the rest of the package already has: the trial generators and
:func:`~simpred_lite.game.trials.run` of :mod:`simpred_lite.game.trials`, and the learner registry of
the playground (:data:`~simpred_lite.game.playground.LEARNERS`: how to build each learner and its
bound).  Learners may be given by registry name, as :class:`~simpred_lite.game.playground.LearnerSpec`,
as a learner object (copied, so it starts from the state given), as a class whose constructor
takes ``n`` alone, or as a factory ``(G, seed) -> learner``.

Seeds, exactly: the trials come from ``seed``; the learner in position ``p`` (0-based) of the
list gets ``seed + 1000 * (p + 1)``, the rule of :class:`~simpred_lite.game.playground.Playground`.
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np

from ..checks import LearnerGaveUp, check_int, check_num_trials
from ..graphs import cut_size, validate_graph, validate_labels
from .adversaries import ADAPTIVE_CANDIDATES, cut_biased_trials
from .play import adaptive_run, play_trials
from .trials import (
    RunResult,
    Trial,
    check_trial_vertices,
    random_trials,
    random_walk_trials,
    shortest_path_trials,
)

__all__ = ["TRIAL_KINDS", "LearnerResult", "Evaluation", "evaluate", "Sweep", "evaluate_sweep"]

#: The trial sequences :func:`evaluate` can generate (or pass a list of Trial): the adversaries of
#: :data:`~simpred_lite.game.adversaries.ADVERSARIES` (one meaning each), ``"path"`` an alias of
#: ``"path-revealing"``.
TRIAL_KINDS = ("random", "cut-biased", "adaptive", "path-revealing", "shortest path", "random-walk path", "path")


# -- resolving learners ---------------------------------------------------------------------
def _spec_for(entry, name: str | None, registry: Mapping | None):
    """A :class:`LearnerSpec` for one entry of ``learners`` (the registry's one resolver)."""
    from ..learners.registry import resolve

    return resolve(entry, name, registry)


def _resolve_learners(learners, registry=None) -> list:
    if isinstance(learners, (str, bytes)) or not isinstance(learners, (Sequence, Mapping)):
        learners = [learners]
    items = list(learners.items()) if isinstance(learners, Mapping) else [(None, e) for e in learners]
    if not items:
        raise ValueError("learners is empty: give at least one learner, e.g. ['UnionFindLearner']")
    specs = [_spec_for(entry, name, registry) for name, entry in items]
    names = [s.name for s in specs]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise ValueError(f"learner name(s) {dup} appear twice; pass a dict {{name: learner}} to name them apart")
    return specs


def _learner_seed(seed: int, position: int) -> int:
    return int(seed) + 1000 * (position + 1)


# -- the graph and the trials ---------------------------------------------------------------
def _graph_and_labels(G, labels):
    """Accept ``(G, labels)``, a LabelledGraph, or a dataset name; return ``(name, G, y)``."""
    from ..datasets import LabelledGraph, load_graph

    if isinstance(G, str):
        G = load_graph(G)
    if isinstance(G, LabelledGraph):
        if labels is not None:
            raise ValueError("a LabelledGraph carries its labels: pass labels=None")
        return G.name, G.graph, np.asarray(G.labels)
    if labels is None:
        raise ValueError("labels are missing: pass labels (one class per vertex), or a LabelledGraph")
    try:
        G = validate_graph(G)
    except ValueError as err:
        raise ValueError(f"{err}. For a graph with other vertex ids or a label attribute, use "
                         "simpred_lite.LabelledGraph.from_networkx(G, label=...)") from None
    return str(G.graph.get("name", "") or "graph"), G, validate_labels(labels, G.number_of_nodes())


def _with_paths(G: nx.Graph, trials: list[Trial]) -> list[Trial]:
    """Reveal a shortest path with every trial that has none (for learners on unknown graphs)."""
    return [t if t.path is not None else Trial(t.i, t.j, t.y, tuple(nx.shortest_path(G, t.i, t.j))) for t in trials]


def make_trials(kind, G: nx.Graph, labels: np.ndarray, T: int, seed: int, specs: list, target: str | None = None):
    """The trial sequence all learners play (see :func:`evaluate`)."""
    needs_path = any(s.needs_path for s in specs)
    if not isinstance(kind, str):
        try:
            trials = list(kind)
        except TypeError:
            raise TypeError(f"trials must be one of {TRIAL_KINDS} or a list of Trial, got {kind!r}") from None
        if not all(isinstance(t, Trial) for t in trials):
            raise TypeError("a given list of trials must hold Trial objects; build them with Trial(i, j, y)")
        check_trial_vertices(trials, G.number_of_nodes())
        kind = "given"
    elif kind == "random":  # RandomAdversary's distribution, the pairs drawn in one batch
        trials = (shortest_path_trials if needs_path else random_trials)(G, labels, T, seed)
    elif kind in ("path", "path-revealing", "shortest path"):
        trials = shortest_path_trials(G, labels, T, seed)
    elif kind == "random-walk path":
        trials = random_walk_trials(G, labels, T, seed)
    elif kind == "cut-biased":
        trials = cut_biased_trials(G, labels, T, seed)
    elif kind == "adaptive":
        names = [s.name for s in specs]
        name = names[0] if target is None else target
        if name not in names:
            raise ValueError(f"target {name!r} is not among the learners {names}")
        p = names.index(name)
        if specs[p].needs_path:
            raise ValueError(f"the adaptive sequence asks its target without paths, but {name!r} needs paths; "
                             "choose as target a learner on the known graph, e.g. target='UnionFindLearner'")
        target_learner = specs[p].build(G, _learner_seed(seed, p), labels)
        trials, _ = adaptive_run(target_learner, labels, T, seed, candidates=ADAPTIVE_CANDIDATES)
    else:
        raise ValueError(f"unknown trials {kind!r}; choose one of {TRIAL_KINDS} or pass a list of Trial")
    if needs_path:
        trials = _with_paths(G, trials)
    return kind, trials


# -- one learner ----------------------------------------------------------------------------
@dataclass(frozen=True)
class LearnerResult:
    """One learner's run in an :class:`Evaluation`.

    Attributes
    ----------
    name, setting : str
    run : RunResult
        Predictions, mistakes and the mistake curve ``run.cumulative``.
    bound : float or None
        Its mistake bound on this labelled graph, if the package knows one.
    bound_in_expectation : bool
        The bound holds on average over the learner's randomness only.
    last_block : int
        Number of final trials the error rate is measured on.
    seconds_per_trial : float
    retired : str or None
        Why the learner gave up (e.g. its pool of histories overflowed), if it did.
    """

    name: str
    setting: str
    run: RunResult
    bound: float | None
    bound_in_expectation: bool
    last_block: int
    seconds_per_trial: float
    retired: str | None = None

    @property
    def mistakes(self) -> int:
        """Total mistakes ``M``."""
        return self.run.total_mistakes

    @property
    def last_block_error(self) -> float:
        """Fraction of the last ``last_block`` trials it played on which it erred."""
        tail = self.run.mistakes[-self.last_block:] if self.last_block else self.run.mistakes[:0]
        return float(tail.mean()) if tail.size else math.nan

    @property
    def within_bound(self) -> bool | None:
        """``M <= bound`` (``None`` without a bound)."""
        return None if self.bound is None else self.mistakes <= self.bound


def _play(spec, position: int, G, labels, trials, seed: int, last_block: int, progress: bool) -> LearnerResult:
    learner = spec.build(G, _learner_seed(seed, position), labels)
    steps = trials
    if progress:
        from tqdm.auto import tqdm

        steps = tqdm(trials, desc=spec.name, leave=False)
    retired = None
    preds, truth = [], []
    start = time.perf_counter()
    try:
        for y_hat, y in play_trials(learner, steps):
            preds.append(y_hat)
            truth.append(y)
    except LearnerGaveUp as err:  # the learner gives up (only this retires it); keep what it played
        why = str(err).split(". ")[0].rstrip(".")
        retired = f"retired at trial {len(preds) + 1}: {type(err).__name__}: {why}"
    elapsed = time.perf_counter() - start
    result = RunResult.from_predictions(preds, truth)
    bound = spec.bound_for(G, labels, learner)
    return LearnerResult(spec.name, spec.setting, result, bound, bool(spec.bound_in_expectation),
                         min(last_block, len(result)), elapsed / max(len(result), 1), retired)


# -- the result ------------------------------------------------------------------------------
def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if math.isnan(x):
            return "-"
        if abs(x) < 1 and x != 0:
            return f"{x:.3f}"
        return f"{x:.3g}" if abs(x) >= 1e5 else f"{x:,.1f}" if x != int(x) else f"{int(x):,}"
    return f"{x:,}" if isinstance(x, int) else str(x)


def _table_text(rows: list[dict]) -> str:
    cols = list(rows[0])
    cells = [[_fmt(r[c]) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[k]) for row in cells)) for k, c in enumerate(cols)]
    line = lambda vals: "  ".join(v.ljust(w) if k == 0 else v.rjust(w) for k, (v, w) in enumerate(zip(vals, widths)))  # noqa: E731
    return "\n".join([line(cols)] + [line(row) for row in cells])


def _table_html(rows: list[dict]) -> str:
    cols = list(rows[0])
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(r[c]))}</td>" for c in cols) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Evaluation:
    """What :func:`evaluate` returns: every learner's run on the same trials.

    Attributes
    ----------
    graph_name : str
    n, m, K, cut : int
        Vertices, edges, classes and cut size ``|Phi|`` of the labelled graph.
    trials : str
        The kind of trial sequence (``"random"``, ..., or ``"given"``).
    T, seed, last_block : int
    learners : dict name -> LearnerResult
    """

    def __init__(self, graph_name: str, G: nx.Graph, labels, trials: str, T: int, seed: int, last_block: int,
                 results: list[LearnerResult]):
        self.graph_name = graph_name
        self.n, self.m = G.number_of_nodes(), G.number_of_edges()
        self.K = int(np.unique(labels).size)
        self.cut = cut_size(G, labels)
        self.trials, self.T, self.seed, self.last_block = trials, T, seed, last_block
        self.learners = {r.name: r for r in results}

    def __getitem__(self, name: str) -> LearnerResult:
        return self.learners[name]

    @property
    def mistakes(self) -> dict[str, int]:
        """``name -> total mistakes``."""
        return {k: r.mistakes for k, r in self.learners.items()}

    @property
    def bounds(self) -> dict[str, float | None]:
        """``name -> mistake bound`` (``None`` where none is known)."""
        return {k: r.bound for k, r in self.learners.items()}

    def records(self, timing: bool = False) -> list[dict]:
        """The table as a list of dicts, one per learner (``timing=True`` adds µs per trial).

        Timings vary from run to run: keep them out of stored notebook outputs.
        """
        rows = []
        for r in self.learners.values():
            row = {"learner": r.name, "mistakes": r.mistakes, "bound": r.bound,
                   f"error, last {self.last_block}": round(r.last_block_error, 3)}
            if timing:
                row["µs / trial"] = round(1e6 * r.seconds_per_trial, 1)
            if r.retired:
                row["learner"] += " (retired)"
            rows.append(row)
        return rows

    def title(self) -> str:
        return (f"{self.graph_name}: n={self.n}, m={self.m}, K={self.K}, |Phi|={self.cut}; "
                f"{self.T} {self.trials} trials, seed {self.seed}")

    def __repr__(self) -> str:
        return self.title() + "\n" + _table_text(self.records())

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.title())}</p>" + _table_html(self.records())

    def plot(self, ax=None, *, log: bool = False):
        """The mistake curves, each bound dashed in its learner's colour (:func:`~simpred_lite.viz.plot_evaluation`).

        Bounds far above the curves (more than 4x the most mistakes) are not drawn, so the
        curves stay readable; the legend gives their value instead.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        log : bool, default False
            Logarithmic mistake axis.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ..viz.curves import plot_evaluation  # matplotlib: only when plotting

        return plot_evaluation(self, ax=ax, log=log)


# -- evaluate ---------------------------------------------------------------------------------
def evaluate(learners, G, labels=None, *, trials="random", T: int = 1000, seed: int = 0,
             last_block: int | None = None, progress: bool = False, target: str | None = None,
             registry: Mapping | None = None) -> Evaluation:
    """Play several learners on one trial sequence of a labelled graph; compare them.

    Parameters
    ----------
    learners : str, learner, or sequence / dict of them
        Anything :func:`simpred_lite.learners.resolve` takes: names from the registry
        (:func:`simpred_lite.learners.available` lists them: ``"UnionFindLearner"``,
        ``"BST Perceptron"``, or class names such as ``"MatrixWinnow"``), learner classes
        (built with their ``for_graph``), learner objects (each run starts from a copy),
        :class:`LearnerSpec` objects, or factories ``(G, seed) -> learner``.  A dict
        ``{name: learner}`` names them.  A learner class or object brings its mistake bound.
    G : networkx.Graph, LabelledGraph or str
        The graph (vertices ``0 .. n-1``; see :meth:`LabelledGraph.from_networkx` for any
        other graph), a :class:`~simpred_lite.datasets.LabelledGraph`, or a dataset name of
        :func:`~simpred_lite.datasets.load_graph`.
    labels : array_like of int, optional
        Class of each vertex (not with a LabelledGraph or dataset name).
    trials : str or list of Trial
        An adversary of :data:`~simpred_lite.game.adversaries.ADVERSARIES`, each with the one
        meaning it has everywhere: ``"random"``: uniformly random pairs; ``"cut-biased"``: with
        probability 0.5 the ends of a random cut edge, else a uniform pair; ``"adaptive"``:
        each pair is chosen among 32 random candidates to make the *target* learner err, then
        the same sequence is replayed on every learner; ``"path-revealing"`` (or ``"path"``,
        ``"shortest path"``): random pairs revealed with a shortest path; ``"random-walk path"``:
        with a loop-erased random walk.  Learners that need paths
        (unknown graph, §5) always get a shortest path with each pair.  A given list is
        played as given, even where its labels disagree with ``labels`` (label noise); the
        mistake bounds hold only for sequences consistent with ``labels``.
    T : int, default 1000
        Number of trials (ignored for a given list).
    seed : int, default 0
        Seeds the trials; the learner in position ``p`` gets ``seed + 1000 (p + 1)``.
    last_block : int, optional
        Trials at the end on which the error rate is reported; default ``T // 10``.
    progress : bool, default False
        Show a tqdm progress bar per learner.
    target : str, optional
        The learner the ``"adaptive"`` sequence is chosen against (default: the first).
    registry : dict, optional
        The learner registry for names (default the playground's).

    Returns
    -------
    Evaluation

    Raises
    ------
    ValueError
        Unknown learner or trial kind, bad graph or labels, ``T < 0``.
    TypeError
        A learner that is none of the accepted kinds; non-integer ``T``, ``seed``.

    Examples
    --------
    >>> from simpred_lite.graphs import barbell_graph
    >>> G, y = barbell_graph(6)
    >>> ev = evaluate(["AlwaysSimilar", "UnionFindLearner"], G, y, T=200, seed=0)
    >>> ev.mistakes
    {'AlwaysSimilar': 103, 'UnionFindLearner': 10}
    >>> ev.bounds["UnionFindLearner"]          # n - K
    10.0
    >>> print(ev)
    graph: n=12, m=31, K=2, |Phi|=1; 200 random trials, seed 0
    learner           mistakes  bound  error, last 20
    AlwaysSimilar          103      -           0.450
    UnionFindLearner        10     10               0
    """
    name, G, y = _graph_and_labels(G, labels)
    T = check_num_trials(T)
    seed = check_int(seed, "seed", low=0)
    last_block = _check_last_block(last_block)
    specs = _resolve_learners(learners, registry)
    kind, trial_list = make_trials(trials, G, y, T, seed, specs, target)
    T = len(trial_list)
    block = max(1, T // 10) if last_block is None else last_block
    results = [_play(s, p, G, y, trial_list, seed, block, progress) for p, s in enumerate(specs)]
    return Evaluation(name, G, y, kind, T, seed, min(block, T), results)


def _check_last_block(last_block) -> int | None:
    if last_block is None:
        return None
    return check_int(last_block, "last_block (the number of final trials the error rate is measured on)", low=1)


# -- sweeps ------------------------------------------------------------------------------------
def _sweep_task(specs, position, graph_name, G, y, seed, kwargs) -> dict:
    kind, trial_list = make_trials(kwargs["trials"], G, y, kwargs["T"], seed, specs, kwargs.get("target"))
    block = max(1, len(trial_list) // 10) if kwargs.get("last_block") is None else kwargs["last_block"]
    r = _play(specs[position], position, G, y, trial_list, seed, block, False)
    return {"graph": graph_name, "seed": seed, "learner": r.name, "trials": kind, "T": len(trial_list),
            "mistakes": r.mistakes, "bound": r.bound, "last_block_error": r.last_block_error,
            "seconds_per_trial": r.seconds_per_trial, "retired": r.retired}


class Sweep:
    """What :func:`evaluate_sweep` returns: one record per graph x seed x learner.

    ``records`` is a list of dicts with keys ``graph, seed, learner, trials, T, mistakes,
    bound, last_block_error, seconds_per_trial, retired``; :meth:`summary` aggregates over
    seeds.
    """

    def __init__(self, records: list[dict]):
        self.records = records

    def summary(self) -> list[dict]:
        """Per graph and learner: mean, min and max mistakes over the seeds, and the bound."""
        out: dict[tuple, dict] = {}
        for r in self.records:
            key = (r["graph"], r["learner"])
            row = out.setdefault(key, {"graph": r["graph"], "learner": r["learner"], "_m": [], "bound": r["bound"]})
            row["_m"].append(r["mistakes"])
        rows = []
        for row in out.values():
            m = row.pop("_m")
            rows.append({"graph": row["graph"], "learner": row["learner"], "seeds": len(m),
                         "mean mistakes": round(float(np.mean(m)), 1), "min": int(min(m)), "max": int(max(m)),
                         "bound": row["bound"]})
        return rows

    def __repr__(self) -> str:
        return f"Sweep of {len(self.records)} runs\n" + _table_text(self.summary())

    def _repr_html_(self) -> str:
        return f"<p>Sweep of {len(self.records)} runs</p>" + _table_html(self.summary())


def evaluate_sweep(learners, graphs, seeds, *, n_jobs: int = 1, trials="random", T: int = 1000,
                   last_block: int | None = None, target: str | None = None, registry: Mapping | None = None) -> Sweep:
    """:func:`evaluate` over seeds x graphs x learners, one joblib task per run.

    Each task rebuilds its trials from ``(graph, seed)`` and its learner from its position,
    so the result does not depend on ``n_jobs`` or on the order tasks finish in.  The tasks
    go through :class:`joblib.Parallel`; to run them on a Dask cluster, wrap the call in
    ``with joblib.parallel_backend("dask"):`` (no other change).

    Parameters
    ----------
    learners : as in :func:`evaluate`
    graphs : dict name -> (G, labels) or LabelledGraph, or a sequence of LabelledGraph / dataset names
    seeds : iterable of int
    n_jobs : int, default 1
        Parallel workers (``-1``: all cores); ``1`` runs in this process.  The records do not
        depend on it: the bounds are rounded down to certified digits
        (:func:`~simpred_lite.learners.bounds.certified_bound`), not floats whose last digits
        follow the BLAS threads of the worker.
    trials, T, last_block, target, registry
        As in :func:`evaluate`.

    Returns
    -------
    Sweep

    Examples
    --------
    Two seeds of the barbell: UnionFind's mistakes do not depend on the order of the pairs.

    >>> from simpred_lite.graphs import barbell_graph
    >>> sw = evaluate_sweep(["UnionFindLearner"], {"barbell": barbell_graph(5)}, seeds=[0, 1], T=100)
    >>> [(r["seed"], r["mistakes"]) for r in sw.records]
    [(0, 8), (1, 8)]
    """
    from joblib import Parallel, delayed

    from ..datasets import LabelledGraph

    n_jobs = check_int(n_jobs, "n_jobs")
    if n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive number of workers or -1 (all cores), got {n_jobs}")
    specs = _resolve_learners(learners, registry)
    if isinstance(graphs, Mapping):
        items = list(graphs.items())
    elif isinstance(graphs, (str, LabelledGraph)):
        items = [(None, graphs)]
    else:
        items = [(None, g) for g in graphs]
    prepared = []
    for name, g in items:
        if isinstance(g, tuple) and len(g) == 2:
            gname, G, y = _graph_and_labels(*g)
        else:
            gname, G, y = _graph_and_labels(g, None)
        prepared.append((name or gname, G, y))
    names = [p[0] for p in prepared]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise ValueError(
            f"graph name(s) {dup} appear twice, but the sweep's records and summary are keyed by graph name; "
            "pass a dict {name: (G, labels)} with a different name for each graph "
            "(or LabelledGraphs with different name=...)"
        )
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a list of non-negative integers, got {seeds!r}; pass e.g. seeds=range(5)")
    seeds = [check_int(s, "seed", low=0) for s in seeds]
    dup_seeds = sorted({x for x in seeds if seeds.count(x) > 1})
    if dup_seeds:
        raise ValueError(f"seed(s) {dup_seeds} appear twice: a repeated seed replays the same run and would "
                         "count twice in the summary; pass distinct seeds, e.g. seeds=range(5)")
    if not seeds or not prepared:
        raise ValueError("give at least one graph and one seed")
    kwargs = {"trials": trials, "T": check_num_trials(T), "last_block": _check_last_block(last_block),
              "target": target}
    tasks = [delayed(_sweep_task)(specs, p, gname, G, y, s, kwargs)
             for gname, G, y in prepared for s in seeds for p in range(len(specs))]
    return Sweep(list(Parallel(n_jobs=n_jobs)(tasks)))
