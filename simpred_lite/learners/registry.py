"""The one learner registry: discovered from the learner classes, with each learner's bound on it.

Every concrete learner class exported by :mod:`simpred_lite.learners` is found here without a
hand-kept list.  What the registry says about a learner comes from the class itself (see
:class:`~simpred_lite.learners.base.SimilarityLearner`): its display name, its setting, what it
needs (the known graph, revealed paths, an oracle hyper-parameter), how to build it on a
labelled graph (``for_graph``) and its mistake bound (``learner.mistake_bound(G, labels)``).

* :data:`LEARNERS` — ``name -> LearnerSpec``, the registry itself (the playground's
  :data:`~simpred_lite.game.playground.LEARNERS` *is* this dict);
* :func:`register_learner` — add your own learner (a class, or a factory ``(G, seed)``);
* :func:`resolve` — the one resolver: a name (display name or class name), a class, an
  instance, a :class:`LearnerSpec` or a factory become a :class:`LearnerSpec`
  (:func:`~simpred_lite.game.evaluation.evaluate`, the playground and the apps all use it);
* :func:`available` — what can be chosen: name, setting, needs, bound.
"""

from __future__ import annotations

import copy
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx

from .base import SETTINGS, ClassLearner, SimilarityLearner

__all__ = ["LearnerSpec", "LEARNERS", "PLAYABLE_SETTINGS", "register_learner", "resolve", "available",
           "learners_for", "playable"]

#: The settings of the similarity game the playground and ``evaluate`` offer by default.
PLAYABLE_SETTINGS = ("baseline", "known graph", "unknown graph")


@dataclass(frozen=True)
class LearnerSpec:
    """How to build and judge one learner (what :func:`resolve` returns).

    Examples
    --------
    >>> spec = LEARNERS["Matrix Winnow"]
    >>> spec.cls.__name__, spec.needs, spec.needs_labels
    ('MatrixWinnow', 'the graph, oracle |Phi|', True)

    Parameters
    ----------
    name : str
    factory : callable ``(G, seed) -> learner`` (``(G, seed, labels)`` if ``needs_labels``)
    needs_path : bool
        The learner plays the unknown-graph game and needs the path revealed with each pair.
    bound : callable ``(G, labels) -> float`` or ``(G, labels, learner) -> float``, optional
        A mistake bound given at registration; without it the learner's own
        ``mistake_bound(G, labels)`` is used.
    bound_in_expectation : bool
        The bound holds on average over the learner's randomness, not on every run.
    setting : str
        One of :data:`~simpred_lite.learners.base.SETTINGS`, or ``"custom"``.
    description : str
    needs_labels : bool
        The factory is called as ``factory(G, seed, labels)``: a hyper-parameter (the
        *oracle*, e.g. Matrix Winnow's cut size) comes from the labeling.
    slow : bool
        Predictions are expensive.
    cls : type, optional
        The learner class, when known.
    oracle : str, optional
        What the learner is told about the labels (``"|Phi|"``, ``"K"``).
    needs_graph : bool
        The learner uses the known graph, not only its number of vertices.
    bound_text : str
        The bound in words.
    """

    name: str
    factory: Callable
    needs_path: bool = False
    bound: Callable | None = None
    bound_in_expectation: bool = False
    setting: str = "known graph"
    description: str = ""
    needs_labels: bool = False
    slow: bool = False
    cls: type | None = None
    oracle: str | None = None
    needs_graph: bool = False
    bound_text: str = ""

    @property
    def has_bound(self) -> bool:
        """Whether the registry knows a mistake bound for this learner."""
        return self.bound is not None or bool(self.cls is not None and getattr(self.cls, "has_bound", bool)())

    def build(self, G: nx.Graph, seed: int, labels: Any) -> Any:
        """A new learner on ``G`` from the factory, checked to be a learner on ``n`` vertices.

        Parameters
        ----------
        G : networkx.Graph
        seed : int
        labels : numpy.ndarray
            Passed to the factory only if ``needs_labels``.

        Returns
        -------
        SimilarityLearner

        Examples
        --------
        >>> LEARNERS["UnionFindLearner"].build(nx.path_graph(3), 0, None)
        UnionFindLearner(n=3, mistakes=0, trials=0)
        """
        learner = self.factory(G, seed, labels) if self.needs_labels else self.factory(G, seed)
        if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
            raise TypeError(f"the factory of {self.name!r} returned {learner!r}, which is not a similarity learner")
        n = G.number_of_nodes()
        if getattr(learner, "n", n) != n:
            raise ValueError(f"the factory of {self.name!r} built a learner for {learner.n} vertices, "
                             f"the graph has {n}")
        return learner

    def bound_for(self, G: nx.Graph, labels: Any, learner: Any) -> float | None:
        """The learner's mistake bound on this labelled graph (``None`` without one).

        Parameters
        ----------
        G : networkx.Graph
        labels : numpy.ndarray
        learner : SimilarityLearner
            The learner built for this game, for bounds that depend on its random draws.

        Returns
        -------
        float or None

        Examples
        --------
        >>> import numpy as np
        >>> G, y = nx.path_graph(4), np.array([0, 0, 1, 1])
        >>> spec = LEARNERS["UnionFindLearner"]
        >>> spec.bound_for(G, y, spec.build(G, 0, y))
        2.0
        """
        if self.bound is not None:
            if _positional_arity(self.bound) >= 3:  # the bound depends on this learner's draws
                return float(self.bound(G, labels, learner))
            return float(self.bound(G, labels))
        own = getattr(learner, "mistake_bound", None)
        if callable(own):
            value = own(G, labels)
            return None if value is None else float(value)
        return None

    @property
    def needs(self) -> str:
        """What the learner needs besides the pairs, in words."""
        parts = []
        if self.needs_graph:
            parts.append("the graph")
        if self.needs_path:
            parts.append("revealed paths")
        if self.oracle or (self.needs_labels and self.cls is None):
            parts.append(f"oracle {self.oracle or 'from the labels'}")
        return ", ".join(parts) or "n only"


def _positional_arity(fn: Callable) -> int:
    """How many positional arguments ``fn`` accepts (a large number for ``*args``)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 2
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return 99
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def _spec_from_class(cls: Any, name: str | None = None, **overrides: Any) -> LearnerSpec:
    """A spec built from what the class declares (its ``for_graph``, its bound, its needs)."""
    fields = dict(
        name=name or cls.name(),
        factory=cls.for_graph,
        needs_path=bool(getattr(cls, "needs_path", False)),
        bound_in_expectation=bool(getattr(cls, "bound_in_expectation", False)),
        setting=getattr(cls, "setting", "known graph"),
        description=getattr(cls, "description", "") or "",
        needs_labels=getattr(cls, "oracle", None) is not None,
        slow=bool(getattr(cls, "slow", False)),
        cls=cls,
        oracle=getattr(cls, "oracle", None),
        needs_graph=bool(getattr(cls, "needs_graph", False)),
        bound_text=getattr(cls, "bound_text", "") or "",
    )
    fields.update({k: v for k, v in overrides.items() if v is not None})
    return LearnerSpec(**fields)


def _no_factory(G: nx.Graph, seed: int) -> Any:
    """The factory of a spec for a class the registry cannot build (it has no ``for_graph``)."""
    raise TypeError("this learner class has no for_graph(G, seed, labels): pass a factory (G, seed) -> learner")


def _is_learner_class(obj: Any) -> bool:
    return (inspect.isclass(obj) and issubclass(obj, (SimilarityLearner, ClassLearner))
            and not inspect.isabstract(obj))


def _discover() -> dict[str, LearnerSpec]:
    """Every concrete learner class of :mod:`simpred_lite.learners`, by setting then package order."""
    package = importlib.import_module(__package__)
    classes = [getattr(package, name) for name in package.__all__ if _is_learner_class(getattr(package, name, None))]
    classes.sort(key=lambda c: SETTINGS.index(c.setting) if c.setting in SETTINGS else len(SETTINGS))
    specs = [_spec_from_class(c) for c in classes]
    names = [s.name for s in specs]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise RuntimeError(f"two learner classes declare the display name(s) {dup}")
    return {s.name: s for s in specs}


#: The learner registry, ``name -> LearnerSpec``: every learner class discovered, plus those
#: added with :func:`register_learner`.
LEARNERS: dict[str, LearnerSpec] = {}


def _ensure_discovered() -> None:
    if not any(s.cls is not None for s in LEARNERS.values()):
        found = _discover()
        extra = {k: v for k, v in LEARNERS.items() if k not in found}
        LEARNERS.clear()
        LEARNERS.update(found)
        LEARNERS.update(extra)


def register_learner(
    name: str,
    factory: Callable,
    *,
    needs_path: bool | None = None,
    bound: Callable | None = None,
    bound_in_expectation: bool = False,
    setting: str = "known graph",
    description: str = "",
    needs_labels: bool = False,
    slow: bool = False,
    replace: bool = False,
) -> LearnerSpec:
    """Add a learner to the registry (one line per learner).

    Parameters
    ----------
    name : str
        The name shown in the app and used as key in :data:`LEARNERS`.
    factory : callable ``(G, seed) -> learner``, or a learner class
        Builds a fresh learner for the graph ``G``; ``seed`` is an int for its randomness.
        A class is built with its ``for_graph`` (by default ``cls(n)``) and brings its own
        bound (``mistake_bound``) and needs.  With ``needs_labels=True`` a factory is called
        as ``factory(G, seed, labels)``.
    needs_path : bool, optional
        Whether the learner needs revealed paths; default: the class attribute
        ``needs_path`` of ``factory`` if it is a class, else ``False``.
    bound : callable ``(G, labels) -> float`` or ``(G, labels, learner) -> float``, optional
        The learner's mistake bound on that labelled graph (with three parameters it also
        gets the learner built for the game).  Without it, the learner's own
        ``mistake_bound(G, labels)`` method, if it has one.
    bound_in_expectation : bool
        The bound holds on average over the learner's own randomness only.
    setting : {"baseline", "known graph", "unknown graph"}
    description : str
    needs_labels : bool
        The factory needs the labels for a hyper-parameter the paper assumes known
        (Matrix Winnow's cut size); it is called as ``factory(G, seed, labels)``.
    slow : bool
        Predictions are expensive.
    replace : bool
        Allow overwriting an existing entry.

    Returns
    -------
    LearnerSpec

    Examples
    --------
    >>> from simpred_lite.learners import AlwaysSimilar
    >>> spec = register_learner("always similar (demo)", AlwaysSimilar, setting="baseline")
    >>> spec.needs_path, "always similar (demo)" in LEARNERS
    (False, True)
    >>> del LEARNERS["always similar (demo)"]
    """
    _ensure_discovered()
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a learner needs a non-empty name, got {name!r}")
    if not callable(factory):
        raise TypeError(f"factory must be callable as factory(G, seed) -> learner, got {factory!r}")
    if bound is not None and not callable(bound):
        raise TypeError(f"bound must be callable as bound(G, labels[, learner]) -> float, got {bound!r}")
    if setting not in PLAYABLE_SETTINGS:
        raise ValueError(f"setting must be one of {PLAYABLE_SETTINGS}, got {setting!r}")
    if name in LEARNERS and not replace:
        raise ValueError(f"a learner named {name!r} is already registered; pass replace=True to overwrite it")
    if isinstance(factory, type):
        spec = _spec_from_class(factory, name, bound=bound, setting=setting, description=description or None)
        spec = _replace(spec, needs_path=bool(spec.needs_path if needs_path is None else needs_path),
                        bound_in_expectation=bool(bound_in_expectation or spec.bound_in_expectation),
                        slow=bool(slow or spec.slow))
    else:
        spec = LearnerSpec(name, factory, bool(needs_path), bound, bool(bound_in_expectation), setting, description,
                           bool(needs_labels), bool(slow))
    LEARNERS[name] = spec
    return spec


def _replace(spec: LearnerSpec, **changes: Any) -> LearnerSpec:
    return replace(spec, **changes)


def learners_for(setting: str) -> list[str]:
    """The registered learners that fit a setting: its own learners and the baselines.

    Parameters
    ----------
    setting : {"baseline", "known graph", "unknown graph"}

    Examples
    --------
    >>> learners_for("unknown graph")[:2]
    ['AlwaysSimilar', 'UnionFindLearner']
    """
    _ensure_discovered()
    if setting not in PLAYABLE_SETTINGS:
        raise ValueError(f"setting must be one of {PLAYABLE_SETTINGS}, got {setting!r}")
    return [name for name, spec in LEARNERS.items() if spec.setting in ("baseline", setting)]


def playable(registry: Mapping | None = None) -> list[str]:
    """The names the playground and its app offer: the similarity learners of
    :data:`PLAYABLE_SETTINGS` and the learners you registered.

    Parameters
    ----------
    registry : mapping, optional
        Default :data:`LEARNERS`.

    Examples
    --------
    >>> playable()[:3]
    ['AlwaysSimilar', 'UnionFindLearner', 'Similarity from class']
    """
    _ensure_discovered()
    registry = LEARNERS if registry is None else registry
    return [k for k, spec in registry.items() if spec.setting in (*PLAYABLE_SETTINGS, "custom")]


def _lookup(name: str, registry: Mapping) -> LearnerSpec:
    if name in registry:
        return registry[name]
    by_class = {s.cls.__name__: s for s in registry.values() if s.cls is not None}
    if name in by_class:
        return by_class[name]
    folded = {k.casefold().replace(" ", "").replace("-", ""): s for k, s in {**by_class, **registry}.items()}
    key = name.casefold().replace(" ", "").replace("-", "")
    if key in folded:
        return folded[key]
    raise ValueError(f"unknown learner {name!r}; choose one of {playable(registry)} (or a class name such as "
                     "'MatrixWinnow'; simpred_lite.learners.available() lists them all)")


def resolve(entry: Any, name: str | None = None, registry: Mapping | None = None) -> LearnerSpec:
    """The one resolver: turn what a user passes for a learner into a :class:`LearnerSpec`.

    Parameters
    ----------
    entry : str, type, learner, LearnerSpec or callable
        A registry name (display name such as ``"Matrix Winnow"`` or class name such as
        ``"MatrixWinnow"``, case and spaces ignored); a learner class (built with its
        ``for_graph``, its bound from ``mistake_bound``); a learner object (each run starts
        from a copy of it, and its ``mistake_bound`` gives the bound); a spec; or a factory
        ``(G, seed) -> learner``.
    name : str, optional
        The name to give it (default: its registry or class name).
    registry : mapping, optional
        Where names are looked up (default :data:`LEARNERS`).

    Returns
    -------
    LearnerSpec

    Examples
    --------
    >>> from simpred_lite.learners import MatrixPerceptron, UnionFindLearner
    >>> resolve("MatrixWinnow").name, resolve(MatrixPerceptron).name
    ('Matrix Winnow', 'Matrix Perceptron')
    >>> spec = resolve(UnionFindLearner(4))
    >>> spec.name, spec.bound_for(nx.path_graph(4), [0, 0, 1, 1], spec.build(nx.path_graph(4), 0, None))
    ('UnionFindLearner', 2.0)
    >>> resolve("no such learner")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown learner 'no such learner'; choose one of ['AlwaysSimilar', 'UnionFindLearner', ...
    """
    _ensure_discovered()
    registry = LEARNERS if registry is None else registry
    if isinstance(entry, LearnerSpec):
        spec = entry
    elif isinstance(entry, str):
        spec = _lookup(entry, registry)
    elif isinstance(entry, type):
        if not (hasattr(entry, "predict_one") or hasattr(entry, "predict_class")):
            raise TypeError(f"{entry.__name__} is not a learner class: subclass "
                            "simpred_lite.learners.SimilarityLearner (predict_one/learn_one)")
        known = [s for s in registry.values() if s.cls is entry]
        if known:
            spec = known[0]
        elif hasattr(entry, "for_graph"):
            custom = getattr(entry, "setting", None) not in SETTINGS
            spec = _spec_from_class(entry, setting="custom" if custom else None)
        else:  # a duck-typed class: built from n alone
            cls = entry
            spec = LearnerSpec(cls.__name__, lambda G, seed: cls(G.number_of_nodes()),
                               needs_path=bool(getattr(cls, "needs_path", False)), setting="custom", cls=cls)
    elif hasattr(entry, "predict_one") and hasattr(entry, "learn_one"):
        proto = entry
        cls = type(entry)
        base = (_spec_from_class(cls) if hasattr(cls, "for_graph")
                else LearnerSpec(cls.__name__, _no_factory, setting="custom"))
        known = [s.name for s in registry.values() if s.cls is cls]
        spec = _replace(base, name=known[0] if known else cls.__name__,
                        factory=lambda G, seed: copy.deepcopy(proto), needs_labels=False,
                        needs_path=bool(getattr(entry, "needs_path", False)), cls=cls)
    elif callable(entry):
        spec = LearnerSpec(getattr(entry, "__name__", "learner"), entry, setting="custom")
    else:
        raise TypeError(
            f"a learner must be a registered name, a LearnerSpec, a learner object, a class or a "
            f"factory (G, seed) -> learner; got {entry!r} ({type(entry).__name__})"
        )
    return spec if name is None or name == spec.name else _replace(spec, name=name)


def available(setting: str | None = None) -> list[dict]:
    """What can be chosen: one row per registered learner.

    Parameters
    ----------
    setting : str, optional
        Only the learners of this setting (one of :data:`~simpred_lite.learners.base.SETTINGS`).

    Returns
    -------
    list of dict
        Keys ``name``, ``class``, ``setting``, ``needs`` (the graph, revealed paths, an oracle
        taken from the labels), ``bound`` (in words, ``"-"`` without one) and
        ``in expectation`` (the bound holds on average only).

    Examples
    --------
    >>> rows = available("baseline")
    >>> [(r["name"], r["bound"]) for r in rows]
    [('AlwaysSimilar', '-'), ('UnionFindLearner', 'n - K (default=1)')]
    >>> [r["needs"] for r in available() if r["name"] == "Matrix Winnow"]
    ['the graph, oracle |Phi|']
    """
    _ensure_discovered()
    if setting is not None and setting not in (*SETTINGS, "custom"):
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    rows = []
    for spec in LEARNERS.values():
        if setting is not None and spec.setting != setting:
            continue
        rows.append({"name": spec.name, "class": spec.cls.__name__ if spec.cls is not None else "-",
                     "setting": spec.setting, "needs": spec.needs,
                     "bound": spec.bound_text or ("yes" if spec.has_bound else "-"),
                     "in expectation": spec.bound_in_expectation})
    return rows


_ensure_discovered()
