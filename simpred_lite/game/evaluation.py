"""Compare learners in one call: the same trials for all, mistakes against bounds, sweeps.

:func:`evaluate` plays several learners on **one** trial sequence of a labelled graph and
returns an :class:`Evaluation`: per learner its mistakes, its mistake bound where the
package knows one, what it was told besides the trials (the graph; for Matrix Winnow the
true cut size ``|Phi|``), its error rate on the last block of trials and its cost per trial
with and without its construction, as a table (``.records()``, a plain list of dicts; the
notebook shows its HTML form) and as a figure (``.plot()``).  :func:`evaluate_sweep` repeats
that over seeds x graphs x learners in parallel through :class:`joblib.Parallel`, so the same
call runs on a laptop's cores or, under ``joblib.parallel_backend("dask")``, on a Dask cluster.

A learner that gives up (it raises :class:`~simpred_lite.checks.LearnerGaveUp`, or its
projected time exceeds ``time_limit``) is *retired*: it keeps the part it played, and the
table, the sweep summary and the figure say so everywhere — its mistakes read "4 in 36
trials", its bound is not drawn, and a sweep never ranks it.

It is built on what the rest of the package already has: the trial generators of
:mod:`simpred_lite.game.trials` and :mod:`simpred_lite.game.adversaries`, and the one learner
registry (:mod:`simpred_lite.learners.registry`: how to build each learner, what it needs, its
bound).  Learners may be given as anything :func:`~simpred_lite.learners.registry.resolve`
takes: a registry name or class name, a learner class (built with its ``for_graph``), a learner
object (copied, so it starts from the state given), a
:class:`~simpred_lite.learners.registry.LearnerSpec`, or a factory ``(G, seed) -> learner``.

Seeds, exactly: the trials come from ``seed``; learner ``name`` gets
:func:`learner_seed(seed, name) <simpred_lite.game.playground.learner_seed>` — from the seed
and its name only, so its run does not depend on the other learners or on its place in the
list (the rule of :class:`~simpred_lite.game.playground.Playground`).
"""

from __future__ import annotations

import html
import math
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np

from ..checks import LearnerGaveUp, check_int, check_num_trials, check_real
from ..graphs import cut_size, edge_array, release_view, validate_graph, validate_labels, validated_view
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

__all__ = ["TRIAL_KINDS", "TIME_LIMIT", "LearnerResult", "Evaluation", "evaluate", "Sweep", "evaluate_sweep"]

#: The trial sequences :func:`evaluate` can generate (or pass a list of Trial): the adversaries of
#: :data:`~simpred_lite.game.adversaries.ADVERSARIES` (one meaning each), ``"path"`` an alias of
#: ``"path-revealing"``.
TRIAL_KINDS = ("random", "cut-biased", "adaptive", "path-revealing", "shortest path", "random-walk path", "path")

#: Default ``time_limit`` (seconds) of one learner's run, construction included: generous, so
#: that it only stops runs that would take hours (pass ``time_limit=None`` to never stop one).
TIME_LIMIT = 900.0

#: A learner that spent longer than this (seconds) before it retired is named in a warning.
SLOW_RETIREMENT = 10.0

#: Trials played after the first before the projected time is trusted (unless they already took
#: 1 s).  The first trial is not used for the projection: it may compile code (the BST
#: Perceptron's first call can take seconds in a fresh worker) or fill caches.
_PROJECT_AFTER = 10


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


def _learner_seed(seed: int, name: str) -> int:
    from .playground import learner_seed

    return learner_seed(seed, name)


def _given(spec) -> str:
    """What a learner is told besides the trials, as the table and the legend say it.

    The one place that reads what a learner needs (from its registry spec): ``"graph"`` (it
    uses the known graph), ``"paths"`` (the unknown graph: a path with each pair), plus an
    oracle from the labeling (Matrix Winnow's threshold needs the true cut size ``|Phi|``; the
    reduction of Lemma 7 the number of classes ``K``).  A factory of the caller's is
    ``"custom"``: what it uses is the caller's to say.
    """
    if spec.setting == "custom":
        return "custom, paths" if spec.needs_path else "custom"
    told = []
    if spec.needs_graph:
        told.append("graph")
    if spec.needs_path:
        told.append("paths")
    if spec.oracle:
        told.append("true " + spec.oracle.replace("Phi", "Φ"))
    elif spec.needs_labels:
        told.append("labels")
    return ", ".join(told) or "-"


# -- the graph and the trials ---------------------------------------------------------------
def _graph_and_labels(G, labels, view: bool = False):
    """Accept ``(G, labels)``, a LabelledGraph, or a dataset name; return ``(name, G, y)``.

    ``G`` is validated once and frozen: a frozen copy, or with ``view=True`` a frozen view
    (:func:`~simpred_lite.graphs.validated_view`, no copy) that the caller gives back with
    :func:`~simpred_lite.graphs.release_view` when it is done.
    """
    from ..datasets import LabelledGraph, load_graph

    if isinstance(G, str):
        G = load_graph(G)
    if isinstance(G, LabelledGraph):
        if labels is not None:
            raise ValueError("a LabelledGraph carries its labels: pass labels=None")
        return G.name, validate_graph(G.graph, freeze=True), np.asarray(G.labels)
    if labels is None:
        raise ValueError("labels are missing: pass labels (one class per vertex), or a LabelledGraph")
    try:  # validated once: the frozen copy or view passes every later check at once
        G = validated_view(G) if view else validate_graph(G, freeze=True)
    except ValueError as err:
        raise ValueError(f"{err}. For a graph with other vertex ids or a label attribute, use "
                         "simpred_lite.LabelledGraph.from_networkx(G, label=...)") from None
    # an unnamed graph is called so (name it with G.graph["name"] = ... or a LabelledGraph's name)
    return str(G.graph.get("name", "") or "unnamed graph"), G, validate_labels(labels, G.number_of_nodes())


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
        target_learner = specs[p].build(G, _learner_seed(seed, name), labels)
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
    given : str
        What it was told besides the trials: ``"graph"``, ``"paths"``, an oracle such as
        ``"true |Φ|"`` (Matrix Winnow's threshold), ``"-"`` for nothing.
    run : RunResult
        Predictions, mistakes and the mistake curve ``run.cumulative`` of the trials it played.
    bound : float or None
        Its mistake bound on this labelled graph, if the package knows one.
    bound_in_expectation : bool
        The bound holds on average over the learner's randomness only.
    last_block : int
        Number of final trials of the sequence the error rate is measured on.
    seconds_per_trial : float
        Time per trial played, construction excluded.
    retired : str or None
        Why the learner gave up ("retired at trial 37 of 5000: ..."), if it did.
    T : int
        Trials in the sequence (a retired learner played fewer: ``played``).
    build_seconds : float
        Time to construct the learner (its kernel, its tree, ...).
    """

    name: str
    setting: str
    run: RunResult
    bound: float | None
    bound_in_expectation: bool
    last_block: int
    seconds_per_trial: float
    retired: str | None = None
    T: int | None = None
    build_seconds: float = 0.0
    given: str = "-"

    @property
    def mistakes(self) -> int:
        """Total mistakes ``M`` on the trials it played."""
        return self.run.total_mistakes

    @property
    def played(self) -> int:
        """Number of trials it played (fewer than ``T`` if it retired)."""
        return len(self.run)

    @property
    def last_block_error(self) -> float:
        """Fraction of the sequence's last ``last_block`` trials on which it erred.

        Only the trials of that block it played count; ``nan`` if it retired before the block.
        """
        T = len(self.run) if self.T is None else self.T
        tail = self.run.mistakes[max(0, T - self.last_block):] if self.last_block else self.run.mistakes[:0]
        return float(tail.mean()) if tail.size else math.nan

    @property
    def seconds_per_trial_with_build(self) -> float:
        """Time per trial played, its construction included (what the whole call costs per trial)."""
        return (self.build_seconds + self.seconds_per_trial * self.played) / max(self.played, 1)

    @property
    def within_bound(self) -> bool | None:
        """``M <= bound`` (``None`` without a bound, or if it retired: the bound is for the whole sequence)."""
        return None if self.bound is None or self.retired else self.mistakes <= self.bound


def _check_time_limit(time_limit) -> float | None:
    if time_limit is None:
        return None
    return check_real(time_limit, "time_limit (seconds one learner may take; None for no limit)",
                      low=0, low_inclusive=False)


def _play(spec, G, labels, trials, seed: int, last_block: int, progress: bool,
          time_limit: float | None = TIME_LIMIT, given: str | None = None) -> LearnerResult:
    """Build ``spec``'s learner and play it on ``trials``; retire it if it gives up or would take too long.

    ``given`` (what the learner is told, :func:`_given`) is computed by the caller in a sweep: a
    spec sent to a worker process is a copy, no longer the registry's.
    """
    T = len(trials)
    retired = None
    preds, truth = [], []
    t0 = time.perf_counter()
    try:
        learner = spec.build(G, _learner_seed(seed, spec.name), labels)
    except LearnerGaveUp as err:  # e.g. a memory guard of its construction
        learner = None
        why = str(err).split(". ")[0].rstrip(".")
        retired = f"retired before trial 1 of {T}: its construction raised {type(err).__name__}: {why}"
    build = time.perf_counter() - t0
    if learner is not None and time_limit is not None and T and build > time_limit:
        retired = (f"retired before trial 1 of {T}: its construction took {build:,.0f} s, more than "
                   f"time_limit={time_limit:g} s (pass time_limit=None to play it anyway)")
    bar = None
    if progress and retired is None:
        from tqdm.auto import tqdm

        bar = tqdm(total=T, desc=spec.name, leave=True)
    start = time.perf_counter()
    if retired is None:
        hint = getattr(learner, "prefetch", None)
        if hint is not None:  # the sequence is fixed: the learner may solve its pairs ahead, in blocks
            hint([(t.i, t.j) for t in trials])
        try:
            for y_hat, y in play_trials(learner, trials):
                preds.append(y_hat)
                truth.append(y)
                if bar is not None:
                    bar.update(1)
                k = len(preds)
                if k == 1 and time_limit is not None:  # it may compile code or fill caches: not per trial
                    first_done = time.perf_counter()
                elif time_limit is not None and k < T:
                    spent = time.perf_counter() - first_done
                    if k - 1 >= _PROJECT_AFTER or spent >= 1.0:
                        per_trial = spent / (k - 1)
                        projected = build + (first_done - start) + per_trial * (T - 1)
                        if projected > time_limit:
                            retired = (f"retired at trial {k + 1} of {T}: projected {projected:,.0f} s for {T} "
                                       f"trials ({build:,.1f} s construction + {1e3 * per_trial:,.3g} ms per "
                                       f"trial), more than time_limit={time_limit:g} s (pass time_limit=None "
                                       "to play it anyway)")
                            break
        except LearnerGaveUp as err:  # the learner gives up; keep what it played
            why = str(err).split(". ")[0].rstrip(".")
            retired = f"retired at trial {len(preds) + 1} of {T}: {type(err).__name__}: {why}"
    elapsed = time.perf_counter() - start
    if bar is not None:
        if retired:
            bar.set_description(f"{spec.name} (retired at trial {len(preds) + 1})")
            bar.write(f"{spec.name}: {retired}")
        bar.close()
    result = RunResult.from_predictions(preds, truth)
    bound = None if learner is None else spec.bound_for(G, labels, learner)
    return LearnerResult(spec.name, spec.setting, result, bound, bool(spec.bound_in_expectation),
                         min(last_block, T), elapsed / max(len(result), 1), retired, T, build,
                         _given(spec) if given is None else given)


def _warn_slow_retirements(slow: list[tuple[str, float, str]]) -> None:
    """One warning naming every learner that spent long before it retired."""
    if slow:
        which = "; ".join(f"{name} spent {secs:,.0f} s before it {why.split(':')[0]}" for name, secs, why in slow)
        warnings.warn(f"{which}. Leave such a learner out, or lower T or time_limit, to save that time.",
                      RuntimeWarning, stacklevel=3)


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


#: Columns rounded to one decimal (a sweep's mean and sd of mistakes), shown with exactly one.
_ONE_DECIMAL = ("mean", "sd")


def _cell(col: str, x) -> str:
    if col in _ONE_DECIMAL and isinstance(x, float) and not math.isnan(x):
        return f"{x:,.1f}"
    return _fmt(x)


def _table_text(rows: list[dict]) -> str:
    cols = list(rows[0])
    cells = [[_cell(c, r[c]) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[k]) for row in cells)) for k, c in enumerate(cols)]
    line = lambda vals: "  ".join(v.ljust(w) if k == 0 else v.rjust(w) for k, (v, w) in enumerate(zip(vals, widths)))  # noqa: E731
    return "\n".join([line(cols)] + [line(row) for row in cells])


def _table_html(rows: list[dict]) -> str:
    cols = list(rows[0])
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(c, r[c]))}</td>" for c in cols) + "</tr>" for r in rows)
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
        self.n, self.m = G.number_of_nodes(), len(edge_array(G))  # (number_of_edges sums n degrees)
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

    @property
    def retired(self) -> dict[str, str]:
        """``name -> why`` for the learners that retired."""
        return {k: r.retired for k, r in self.learners.items() if r.retired}

    def records(self, timing: bool = False) -> list[dict]:
        """The table as a list of dicts, one per learner.

        Columns: ``learner``; ``given`` (what it was told besides the trials: ``graph``,
        ``paths``, an oracle such as ``true |Φ|``); ``mistakes`` (for a retired learner
        ``"4 in 36 trials"``: it did not play them all); ``bound``; the error rate on the
        last block (over the trials of the block it played; blank if none); with a retired
        learner, a ``retired`` column ("at trial 37 of 5000"); ``timing=True`` adds the
        construction time and the µs per trial without and with it.  Timings vary from run
        to run: keep them out of stored notebook outputs.

        Parameters
        ----------
        timing : bool, default False

        Returns
        -------
        list of dict

        Examples
        --------
        >>> from simpred_lite.graphs import barbell_graph
        >>> ev = evaluate(["UnionFindLearner", "Matrix Winnow"], *barbell_graph(5), T=40, seed=0)
        >>> [(r["learner"], r["given"]) for r in ev.records()]
        [('UnionFindLearner', '-'), ('Matrix Winnow', 'graph, true |Φ|')]
        """
        rows = []
        any_retired = any(r.retired for r in self.learners.values())
        for r in self.learners.values():
            row = {"learner": r.name, "given": r.given,
                   "mistakes": f"{r.mistakes:,} in {r.played:,} trials" if r.retired else r.mistakes,
                   "bound": r.bound, f"error, last {self.last_block}": round(r.last_block_error, 3)}
            if any_retired:
                row["retired"] = r.retired.split(":")[0].replace("retired ", "") if r.retired else "-"
            if timing:
                row["build (s)"] = round(r.build_seconds, 3)
                row["µs / trial"] = round(1e6 * r.seconds_per_trial, 1)
                row["µs / trial with build"] = round(1e6 * r.seconds_per_trial_with_build, 1)
            rows.append(row)
        return rows

    def _notes(self) -> list[str]:
        return [f"{k} {why}" for k, why in self.retired.items()]

    def title(self) -> str:
        return (f"{self.graph_name}: n={self.n}, m={self.m}, K={self.K}, |Phi|={self.cut}; "
                f"{self.T} {self.trials} trials, seed {self.seed}")

    def __repr__(self) -> str:
        return "\n".join([self.title(), _table_text(self.records()), *self._notes()])

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>{html.escape(x)}</p>" for x in self._notes())
        return f"<p>{html.escape(self.title())}</p>" + _table_html(self.records()) + notes

    def plot(self, ax=None, *, log: bool | None = None):
        """The mistake curves, each bound dashed in its learner's colour (:func:`~simpred_lite.viz.plot_evaluation`).

        One legend entry per learner (what it was given, its mistakes, its bound); bounds far
        above the curves are not drawn but given in the entry; a retired learner's curve ends
        with a cross and a note, and its bound is not drawn.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        log : bool, optional
            Logarithmic mistake axis; default: when one curve ends far above another (such
            as AlwaysSimilar's), so the low curves stay readable.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ..viz.curves import plot_evaluation  # matplotlib: only when plotting

        return plot_evaluation(self, ax=ax, log=log)


# -- evaluate ---------------------------------------------------------------------------------
def evaluate(learners, G, labels=None, *, trials="random", T: int = 1000, seed: int = 0,
             last_block: int | None = None, progress: bool = False, target: str | None = None,
             registry: Mapping | None = None, time_limit: float | None = TIME_LIMIT) -> Evaluation:
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
        Seeds the trials; learner ``name`` gets
        :func:`~simpred_lite.game.playground.learner_seed` ``(seed, name)``, the same in any list.
    last_block : int, optional
        Trials at the end on which the error rate is reported; default ``T // 10``.
    progress : bool, default False
        Show a tqdm progress bar per learner; the bars stay, and a retiring learner's says so.
    target : str, optional
        The learner the ``"adaptive"`` sequence is chosen against (default: the first).
    registry : dict, optional
        The learner registry for names (default the playground's).
    time_limit : float or None, default :data:`TIME_LIMIT` (900 s)
        Seconds one learner may take, construction included.  After its first trials (10,
        or 1 s) a learner whose projected time exceeds the limit is retired, with the
        projection stated, instead of running for hours; ``None``: no limit.  A generous
        limit stops only runs that could never finish here; one near the real time makes
        the result depend on the machine's speed.

    Returns
    -------
    Evaluation
        A learner that retired (it gave up, or would exceed ``time_limit``) is flagged in
        the table and the figure; a warning names those that spent long before retiring.

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
    unnamed graph: n=12, m=31, K=2, |Phi|=1; 200 random trials, seed 0
    learner           given  mistakes  bound  error, last 20
    AlwaysSimilar         -       103      -           0.450
    UnionFindLearner      -        10     10               0
    """
    given_graph = G
    name, G, y = _graph_and_labels(G, labels, view=True)
    try:
        T = check_num_trials(T)
        seed = check_int(seed, "seed", low=0)
        last_block = _check_last_block(last_block)
        time_limit = _check_time_limit(time_limit)
        specs = _resolve_learners(learners, registry)
        kind, trial_list = make_trials(trials, G, y, T, seed, specs, target)
        T = len(trial_list)
        block = max(1, T // 10) if last_block is None else last_block
        results = [_play(s, G, y, trial_list, seed, block, progress, time_limit) for s in specs]
        _warn_slow_retirements([(r.name, r.build_seconds + r.seconds_per_trial * r.played, r.retired)
                                for r in results if r.retired
                                and r.build_seconds + r.seconds_per_trial * r.played > SLOW_RETIREMENT])
        return Evaluation(name, G, y, kind, T, seed, min(block, T), results)
    finally:
        release_view(G, given_graph)


def _check_last_block(last_block) -> int | None:
    if last_block is None:
        return None
    return check_int(last_block, "last_block (the number of final trials the error rate is measured on)", low=1)


# -- sweeps ------------------------------------------------------------------------------------
def _sweep_task(spec, given, specs, graph_name, G, y, seed, kwargs) -> dict:
    kind, trial_list = make_trials(kwargs["trials"], G, y, kwargs["T"], seed, specs, kwargs.get("target"))
    block = max(1, len(trial_list) // 10) if kwargs.get("last_block") is None else kwargs["last_block"]
    r = _play(spec, G, y, trial_list, seed, block, False, kwargs.get("time_limit"), given)
    return {"graph": graph_name, "seed": seed, "learner": r.name, "given": r.given, "trials": kind,
            "T": len(trial_list), "played": r.played, "mistakes": r.mistakes, "bound": r.bound,
            "last_block_error": r.last_block_error, "seconds_per_trial": r.seconds_per_trial,
            "build_seconds": r.build_seconds, "retired": r.retired}


def _spread(values) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for one value; nan for none)."""
    if not values:
        return math.nan, math.nan
    return float(np.mean(values)), float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


class Sweep:
    """What :func:`evaluate_sweep` returns: one record per graph x seed x learner.

    ``records`` is a list of dicts with keys ``graph, seed, learner, given, trials, T, played,
    mistakes, bound, last_block_error, seconds_per_trial, build_seconds, retired``;
    :meth:`summary` aggregates over seeds, :meth:`best` names the best learner per graph.
    """

    #: Keys of a record that are timings (they differ from run to run).
    TIMING_KEYS = ("seconds_per_trial", "build_seconds")

    def __init__(self, records: list[dict]):
        self.records = records

    def _groups(self) -> dict[tuple, list[dict]]:
        out: dict[tuple, list[dict]] = {}
        for r in self.records:
            out.setdefault((r["graph"], r["learner"]), []).append(r)
        return out

    def best(self) -> dict[str, str]:
        """Per graph, the learner with the fewest mean mistakes among those that never retired.

        A learner that retired on some seed played fewer trials there: it is never ranked.

        Returns
        -------
        dict graph -> learner name (graphs where every learner retired are left out)

        Examples
        --------
        >>> from simpred_lite.graphs import barbell_graph
        >>> sw = evaluate_sweep(["AlwaysSimilar", "UnionFindLearner"], {"barbell": barbell_graph(5)}, [0, 1], T=60)
        >>> sw.best()
        {'barbell': 'UnionFindLearner'}
        """
        best: dict[str, tuple[float, str]] = {}
        for (graph, learner), runs in self._groups().items():
            if any(r["retired"] for r in runs):
                continue
            mean = float(np.mean([r["mistakes"] for r in runs]))
            if graph not in best or mean < best[graph][0]:
                best[graph] = (mean, learner)
        return {graph: learner for graph, (_, learner) in best.items()}

    def summary(self, timing: bool = False) -> list[dict]:
        """Per graph and learner, over the seeds: mistakes (mean, sd, min, max), bounds, retirements.

        Mean, sd, min and max are over the **full** runs only: a run in which the learner
        retired played fewer trials, so it is counted in ``retired`` and never mixed in; a
        learner that retired on any seed gets no ``rank``.  ``bound`` is the range of its
        bound over the seeds of its full runs (it may depend on the learner's random draws).
        ``timing=True`` adds the mean seconds per trial without and with construction
        (they vary from run to run: keep them out of stored notebook outputs).

        Parameters
        ----------
        timing : bool, default False

        Returns
        -------
        list of dict

        Examples
        --------
        >>> from simpred_lite.graphs import barbell_graph
        >>> sw = evaluate_sweep(["AlwaysSimilar", "UnionFindLearner"], {"barbell": barbell_graph(5)}, [0, 1], T=60)
        >>> [(r["learner"], r["rank"], r["mean"], r["retired"]) for r in sw.summary()]
        [('AlwaysSimilar', 2, 34.5, 0), ('UnionFindLearner', 1, 8.0, 0)]
        """
        rows = []
        for (graph, learner), runs in self._groups().items():
            full = [r for r in runs if not r["retired"]]
            m = [r["mistakes"] for r in full]
            mean, sd = _spread(m)
            bounds = [r["bound"] for r in full if r["bound"] is not None]
            if not bounds:
                bound = None
            elif min(bounds) == max(bounds):
                bound = bounds[0]
            else:
                bound = f"{_fmt(min(bounds))}–{_fmt(max(bounds))}"
            row = {"graph": graph, "learner": learner, "given": runs[0].get("given", "-"), "seeds": len(runs),
                   "retired": len(runs) - len(full), "rank": None,
                   "mean": round(mean, 1), "sd": round(sd, 1), "min": min(m) if m else None,
                   "max": max(m) if m else None, "bound": bound}
            if timing:
                row["s / trial"] = float(np.mean([r["seconds_per_trial"] for r in runs]))
                row["s / trial with build"] = float(np.mean([
                    (r["build_seconds"] + r["seconds_per_trial"] * r["played"]) / max(r["played"], 1) for r in runs]))
            rows.append(row)
        for graph in {r["graph"] for r in rows}:
            ranked = sorted((r for r in rows if r["graph"] == graph and not r["retired"]), key=lambda r: r["mean"])
            for k, r in enumerate(ranked):
                r["rank"] = 1 + sum(o["mean"] < r["mean"] for o in ranked[:k])  # ties share a rank
        return rows

    def _notes(self) -> list[str]:
        notes = ["mean, sd, min, max: mistakes over the full runs; retired: runs in which the learner gave up "
                 "(not counted in the mean, never ranked)"]
        return notes + [f"{r['graph']}, seed {r['seed']}: {r['learner']} {r['retired']}"
                        for r in self.records if r["retired"]]

    def __repr__(self) -> str:
        return "\n".join([f"Sweep of {len(self.records)} runs", _table_text(self.summary()), *self._notes()])

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>{html.escape(x)}</p>" for x in self._notes())
        return f"<p>Sweep of {len(self.records)} runs</p>" + _table_html(self.summary()) + notes


def evaluate_sweep(learners, graphs, seeds, *, n_jobs: int = 1, trials="random", T: int = 1000,
                   last_block: int | None = None, target: str | None = None, registry: Mapping | None = None,
                   progress: bool = False, time_limit: float | None = TIME_LIMIT) -> Sweep:
    """:func:`evaluate` over seeds x graphs x learners, one joblib task per run.

    Each task rebuilds its trials from ``(graph, seed)`` and its learner from its name,
    so the result does not depend on ``n_jobs`` or on the order tasks finish in.  The tasks
    go through :class:`joblib.Parallel`; to run them on a Dask cluster, wrap the call in
    ``with joblib.parallel_backend("dask"):`` (no other change; see the README).

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
    trials, T, last_block, target, registry, time_limit
        As in :func:`evaluate` (``time_limit`` applies to each run).
    progress : bool, default False
        A tqdm progress bar over the runs (it stays when done).

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
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True or False, got {progress!r}")
    kwargs = {"trials": trials, "T": check_num_trials(T), "last_block": _check_last_block(last_block),
              "target": target, "time_limit": _check_time_limit(time_limit)}
    tasks = [delayed(_sweep_task)(spec, _given(spec), specs, gname, G, y, s, kwargs)
             for gname, G, y in prepared for s in seeds for spec in specs]
    if progress:
        from tqdm.auto import tqdm

        done = Parallel(n_jobs=n_jobs, return_as="generator")(tasks)
        records = list(tqdm(done, total=len(tasks), desc="evaluate_sweep runs", leave=True))
    else:
        records = list(Parallel(n_jobs=n_jobs)(tasks))
    _warn_slow_retirements([(f"{r['learner']} ({r['graph']}, seed {r['seed']})",
                             r["build_seconds"] + r["seconds_per_trial"] * r["played"], r["retired"])
                            for r in records if r["retired"]
                            and r["build_seconds"] + r["seconds_per_trial"] * r["played"] > SLOW_RETIREMENT])
    return Sweep(records)
