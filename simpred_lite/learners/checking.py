"""``check_learner``: the conformance check every learner passes (like river's ``check_estimator``).

One call checks a learner class or object, the package's or your own, on a small labelled
graph: the protocol, determinism, ``clone()``, pickling, decisions unchanged when the
floating-point pseudoinverse is perturbed by ``1e-12`` (where the learner uses one), input
validation, and mistakes within the learner's own bound on a random and an adaptive sequence.
It returns a :class:`LearnerCheck` (one row per check: ``ok``, ``skipped: why`` or
``FAILED: what``) and raises ``AssertionError`` listing the failures unless
``raise_on_failure=False``.
"""

from __future__ import annotations

import copy
import pickle
import sys
from collections.abc import Callable
from typing import Any

import networkx as nx
import numpy as np

from ..checks import LearnerGaveUp, check_int, check_random_state
from ..graphs import planted_partition, validate_graph, validate_labels
from .base import ClassLearner

__all__ = ["LearnerCheck", "check_learner"]

#: Relative size of the perturbation of the pseudoinverse in the exact-decisions check.
PERTURBATION = 1e-12


class LearnerCheck:
    """What :func:`check_learner` found: ``rows`` of ``(check, result)``.

    Parameters
    ----------
    name : str
        The learner checked.

    Examples
    --------
    >>> report = LearnerCheck("demo"); report.rows.append(("protocol", "ok"))
    >>> report.ok, report
    (True, check_learner(demo): passed
      protocol  ok)

    Attributes
    ----------
    name : str
        The learner checked.
    rows : list of (str, str)
        Each check and its result: ``"ok"``, ``"skipped: <why>"`` or ``"FAILED: <what>"``.
    """

    def __init__(self, name: str):
        self.name = name
        self.rows: list[tuple[str, str]] = []

    @property
    def failures(self) -> list[tuple[str, str]]:
        """The rows whose result starts with ``FAILED``."""
        return [r for r in self.rows if r[1].startswith("FAILED")]

    @property
    def ok(self) -> bool:
        """No check failed (skipped checks say why in their row)."""
        return not self.failures

    def __repr__(self) -> str:
        width = max(len(c) for c, _ in self.rows) if self.rows else 0
        lines = [f"check_learner({self.name}): {'passed' if self.ok else 'FAILED'}"]
        lines += [f"  {c.ljust(width)}  {r}" for c, r in self.rows]
        return "\n".join(lines)


def _default_problem(kind: str, seed: int, slow: bool = False) -> Any:
    """A small labelled graph for the learner's problem: 8 vertices in 3 classes (6 in 2 for a slow learner)."""
    if kind == "paired permutations":
        K = 3
        z = check_random_state(seed).permutation(K)
        labels = np.array([max(z[p // K], z[p % K]) for p in range(K * K)], dtype=np.int64)
        return nx.complete_graph(K * K), labels  # the patterns; the learners use n only
    if slow:  # the reduction's pool grows by a factor K(K-1) per mistake
        return planted_partition(6, 2, 0.8, 0.2, seed=5)
    return planted_partition(8, 3, 0.8, 0.15, seed=5)


def _similarity_sequence(G, y, T, seed, needs_path):
    from ..game.trials import random_trials, shortest_path_trials

    return (shortest_path_trials if needs_path else random_trials)(G, y, T, seed)


def _play_similarity(learner: Any, trials: Any) -> list[int]:
    out = []
    for t in trials:
        p = t.path if getattr(learner, "needs_path", False) else None
        out.append(learner.predict_one(t.i, t.j, p))
        learner.learn_one(t.i, t.j, t.y, p)
    return out


def _play_class(learner: Any, xs: Any, y: Any) -> list[int]:
    out = []
    for x in xs:
        out.append(learner.predict_class(x))
        learner.learn_class(x, int(y[x]))
    return out


class _PerturbedPinv:
    """Within ``with``: every ``laplacian_pinv`` of the package returns ``L^+ (1 + 1e-12 U)``, symmetric."""

    def __init__(self, seed: int):
        from .. import resistance

        self.original = resistance.laplacian_pinv
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.patched: list = []

    def __call__(self, G, *args, **kwargs):
        self.calls += 1
        Lp = self.original(G, *args, **kwargs)
        noisy = Lp * (1 + PERTURBATION * self.rng.uniform(-1, 1, size=Lp.shape))
        return (noisy + noisy.T) / 2

    def __enter__(self):
        for name, module in list(sys.modules.items()):
            if name.startswith("simpred_lite") and getattr(module, "laplacian_pinv", None) is self.original:
                module.laplacian_pinv = self  # type: ignore[attr-defined]
                self.patched.append(module)
        return self

    def __exit__(self, *exc):
        for module in self.patched:
            module.laplacian_pinv = self.original
        return False


def check_learner(learner_or_class: Any, G: Any = None, labels: Any = None, *, seed: int = 0, trials: int = 60,
                  raise_on_failure: bool = True) -> LearnerCheck:
    """Check that a learner follows the package's protocol and keeps its own bound.

    Parameters
    ----------
    learner_or_class : SimilarityLearner or ClassLearner class or object, or a registry name
        A class is built with its ``for_graph(G, seed, labels)``; an object is copied fresh
        with its ``clone()`` (or a deep copy of it as given, if it has none) for each check.
    G : networkx.Graph, optional
        The graph to check on (with ``labels``); default a planted partition with 8 vertices
        in 3 classes of 3, 3 and 2 (6 vertices in 2 classes for a learner declared ``slow``,
        ``K² = 9`` patterns for a paired permutation learner).
    labels : array_like of int, optional
    seed : int, default 0
        Seeds the sequences and the learner's own randomness.
    trials : int, default 60
        Length of the random sequence (the adaptive one has two thirds of it); at most 24
        for a learner declared ``slow``.
    raise_on_failure : bool, default True
        Raise ``AssertionError`` listing the failed checks.

    Returns
    -------
    LearnerCheck

    Notes
    -----
    The checks: ``protocol`` (a fresh learner has seen nothing, predicting changes nothing, ``learn_one``
    counts exactly the mistakes of its own predictions, predictions are ``0``/``1`` or a
    class), ``determinism`` (two fresh learners, same sequence, same predictions),
    ``clone`` (``clone()`` is fresh and behaves as a fresh learner), ``pickling`` (a pickled
    learner carries on identically), ``exact decisions`` (same predictions when every
    floating-point pseudoinverse ``L^+`` is perturbed by a relative ``1e-12``; skipped for
    learners that use none), ``input validation`` (bad vertices and labels raise
    ``ValueError``/``TypeError`` and change nothing), and ``bound: random`` / ``bound:
    adaptive`` (mistakes at most ``mistake_bound(G, labels)``; a bound in expectation is
    checked on the average of 5 learners with different seeds; skipped without a bound).

    Examples
    --------
    >>> from simpred_lite.learners import UnionFindLearner
    >>> report = check_learner(UnionFindLearner)
    >>> report.ok, [check for check, result in report.rows if not result.startswith("ok")]
    (True, ['exact decisions'])
    """
    from .registry import resolve

    seed = check_int(seed, "seed", low=0)
    trials = check_int(trials, "trials", low=3)
    if isinstance(learner_or_class, str):
        spec = resolve(learner_or_class)
        learner_or_class = spec.cls if spec.cls is not None else spec.factory
    cls = learner_or_class if isinstance(learner_or_class, type) else type(learner_or_class)
    is_class_learner = issubclass(cls, ClassLearner) or hasattr(cls, "predict_class")
    if not (is_class_learner or hasattr(cls, "predict_one")):
        raise TypeError(f"{cls.__name__} is neither a similarity learner (predict_one/learn_one) nor a class "
                        "learner (predict_class/learn_class); subclass simpred_lite.learners.SimilarityLearner")
    problem = getattr(cls, "problem", "graph")
    if G is None:
        if labels is not None:
            raise ValueError("labels were given without G: pass both, or neither for the default problem")
        if not isinstance(learner_or_class, type) and problem != "paired permutations":
            raise ValueError(f"pass the graph a {cls.__name__} object was built for: check_learner(learner, G, labels)")
        G, y = _default_problem(problem, seed, bool(getattr(cls, "slow", False)))
    else:
        G = validate_graph(G)
        if labels is None:
            raise ValueError("labels are missing: pass the class of each vertex of G")
        y = validate_labels(labels, G.number_of_nodes())
    n = G.number_of_nodes()
    if getattr(cls, "slow", False):
        trials = min(trials, 24)  # each prediction of a slow learner costs a pass over its pool

    if isinstance(learner_or_class, type):
        def make(s: int = seed) -> Any:
            build = getattr(cls, "for_graph", None)
            return build(G, s, y) if build is not None else cls(n)
        own_randomness = True
    else:
        proto = learner_or_class

        def make(s: int = seed) -> Any:
            return proto.clone() if callable(getattr(proto, "clone", None)) else copy.deepcopy(proto)
        own_randomness = False

    if is_class_learner and own_randomness and G is not None:
        probe_K = getattr(make(), "K", None)
        if probe_K is not None and int(y.max()) >= probe_K:  # a 2-class learner: class 0 against the rest
            y = (y != 0).astype(np.int64)

    report = LearnerCheck(getattr(cls, "display_name", None) or cls.__name__)
    rng = check_random_state(seed)
    if is_class_learner:
        K = max(2, int(y.max()) + 1)
        xs = rng.integers(n, size=trials).tolist()
        sequence = (xs,)
        play: Callable = lambda learner, seq: _play_class(learner, seq[0], y)  # noqa: E731
    else:
        needs_path = bool(getattr(cls, "needs_path", False))
        sequence = (_similarity_sequence(G, y, trials, seed, needs_path),)
        play = lambda learner, seq: _play_similarity(learner, seq[0])  # noqa: E731

    def run_check(name: str, fn: Callable[[], str | None]) -> None:
        try:
            result = fn() or "ok"
        except LearnerGaveUp as err:
            result = f"skipped: the learner gave up ({type(err).__name__}: {str(err).split('. ')[0]})"
        except AssertionError as err:
            result = f"FAILED: {err}"
        except Exception as err:  # a crash is a failure of the check, reported with its type
            result = f"FAILED: {type(err).__name__}: {err}"
        report.rows.append((name, result))

    # -- protocol ---------------------------------------------------------------------------
    def protocol():
        learner = make()
        assert getattr(learner, "mistakes", None) == 0, "a fresh learner must have mistakes == 0"
        assert getattr(learner, "n", n) == n, f"the learner has n={learner.n}, the graph {n} vertices"
        preds = play(learner, sequence)
        if is_class_learner:
            truth = [int(y[x]) for x in sequence[0]]
            assert all(type(p) is int and 0 <= p < max(K, p + 1) for p in preds), "predictions must be int classes"
        else:
            truth = [t.y for t in sequence[0]]
            assert set(preds) <= {0, 1} and all(type(p) is int for p in preds), "predictions must be the ints 0 or 1"
        wrong = sum(p != t for p, t in zip(preds, truth))
        assert learner.mistakes == wrong, f"mistakes is {learner.mistakes}, its predictions were wrong {wrong} times"
        before = (learner.mistakes, getattr(learner, "trials", None))
        again = _predictions_only(learner, sequence, is_class_learner)
        assert again == _predictions_only(learner, sequence, is_class_learner), "predicting twice gave other answers"
        assert (learner.mistakes, getattr(learner, "trials", None)) == before, "predicting changed mistakes or trials"

    # -- determinism ------------------------------------------------------------------------
    def determinism():
        assert play(make(), sequence) == play(make(), sequence), "two fresh learners (same seed) disagree"

    # -- clone --------------------------------------------------------------------------------
    def clone():
        learner = make()
        if not callable(getattr(learner, "clone", None)):
            return "skipped: the learner has no clone() (subclass SimilarityLearner to get one)"
        play(learner, sequence)
        twin = learner.clone()
        assert twin is not learner and type(twin) is type(learner), "clone() must return a new learner of its class"
        assert twin.mistakes == 0, "clone() must return a fresh learner (mistakes == 0), not a copy of the state"
        assert play(twin, sequence) == play(make(), sequence), "a clone does not play as a fresh learner"

    # -- pickling -----------------------------------------------------------------------------
    def pickling():
        learner = make()
        half = _half(sequence, is_class_learner)
        play(learner, half[0])
        try:
            restored = pickle.loads(pickle.dumps(learner))
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            if "lambda" in str(err) or "local object" in str(err):
                return f"skipped: it holds a function defined inline ({err}); a module-level function pickles"
            raise
        assert play(restored, half[1]) == play(learner, half[1]), "the unpickled learner plays differently"

    # -- exact decisions under perturbation -------------------------------------------------------
    def exact_decisions():
        with _PerturbedPinv(seed) as patched:
            learner = make()
            built_with = patched.calls
            perturbed = play(learner, sequence) if built_with else None
        if not built_with:
            return "skipped: the learner uses no floating-point pseudoinverse (its decisions are exact integers)"
        assert perturbed == play(make(), sequence), f"predictions changed when L^+ moved by {PERTURBATION:g}"

    # -- input validation -------------------------------------------------------------------------
    def validation():
        learner = make()
        bad = [(-1, ValueError), (n, ValueError), (1.5, TypeError), (True, TypeError)]
        for v, error in bad:
            try:
                if is_class_learner:
                    learner.predict_class(v)
                else:
                    learner.predict_one(v, 0 if v != 0 else 1, *([[0, 1]] if getattr(learner, "needs_path", False)
                                                                    else []))
            except error:
                continue
            except Exception as err:
                raise AssertionError(f"vertex {v!r} raised {type(err).__name__}, not {error.__name__}") from None
            raise AssertionError(f"vertex {v!r} was accepted; it must raise {error.__name__}")
        for label, error in [(5 if not is_class_learner else K + 5, ValueError), (0.5, TypeError)]:
            try:
                if is_class_learner:
                    learner.learn_class(0, label)
                else:
                    t = sequence[0][0]
                    learner.learn_one(t.i, t.j, label, t.path if getattr(learner, "needs_path", False) else None)
            except error:
                continue
            except Exception as err:
                raise AssertionError(f"label {label!r} raised {type(err).__name__}, not {error.__name__}") from None
            raise AssertionError(f"label {label!r} was accepted; it must raise {error.__name__}")
        assert learner.mistakes == 0 and getattr(learner, "trials", 0) == 0, "refused input changed the learner"

    # -- the bound ------------------------------------------------------------------------------
    def bound_check(kind: str) -> Any:
        def check():
            learner = make()
            bound_fn = getattr(learner, "mistake_bound", None)
            if not callable(bound_fn):
                return "skipped: the learner states no mistake bound (no mistake_bound method)"
            bound = bound_fn(G, y)
            if bound is None:
                return "skipped: the learner states no mistake bound for this labelled graph"
            in_expectation = bool(getattr(learner, "bound_in_expectation", False))
            if in_expectation and not own_randomness:
                return "skipped: the bound holds in expectation; pass the class to average over its own seeds"
            seeds = range(seed, seed + 5) if in_expectation else [seed]
            counts = []
            for s in seeds:
                fresh = make(s) if own_randomness else learner
                learner = None
                counts.append(_mistakes_on(fresh, kind, G, y, trials, s, is_class_learner))
            M = float(np.mean(counts))
            what = f"mean of {len(counts)} seeds" if in_expectation else "mistakes"
            assert M <= float(bound) + 1e-9, f"{what} {M:g} > its bound {float(bound):g} ({kind} sequence)"
            return f"ok ({what} {M:g} <= bound {float(bound):.7g})"
        return check

    run_check("protocol", protocol)
    run_check("determinism", determinism)
    run_check("clone", clone)
    run_check("pickling", pickling)
    run_check("exact decisions", exact_decisions)
    run_check("input validation", validation)
    run_check("bound: random", bound_check("random"))
    run_check("bound: adaptive", bound_check("adaptive"))
    if raise_on_failure and not report.ok:
        raise AssertionError(repr(report))
    return report


def _predictions_only(learner: Any, sequence: Any, is_class_learner: bool) -> list[int]:
    if is_class_learner:
        return [learner.predict_class(x) for x in sequence[0]]
    return [learner.predict_one(t.i, t.j, t.path if getattr(learner, "needs_path", False) else None)
            for t in sequence[0]]


def _half(sequence, is_class_learner):
    seq = sequence[0]
    k = len(seq) // 2
    return (seq[:k],), (seq[k:],)


def _mistakes_on(learner: Any, kind: str, G: Any, y: Any, T: int, seed: int, is_class_learner: bool) -> int:
    """The learner's mistakes on a random or an adaptive sequence of ``T`` (``2T/3``) trials."""
    if is_class_learner:
        if kind == "random":
            xs = check_random_state(seed).integers(G.number_of_nodes(), size=T).tolist()
            return sum(p != int(y[x]) for p, x in zip(_play_class(learner, xs, y), xs))
        from ..game.play import adaptive_class_run

        return int(adaptive_class_run(learner, y, max(1, 2 * T // 3), seed)[1].sum())
    if kind == "random":
        seq = _similarity_sequence(G, y, T, seed, bool(getattr(learner, "needs_path", False)))
        return sum(p != t.y for p, t in zip(_play_similarity(learner, seq), seq))
    from ..game.play import adaptive_run

    return adaptive_run(learner, y, max(1, 2 * T // 3), seed, G=G)[1].total_mistakes
