"""A batch anchor beside the online learners: graph-based semi-supervised classification.

What a practitioner would try first on a labelled graph is not an online mistake-driven
learner but a *semi-supervised classifier*: spread the labels seen so far over the graph and
read off the rest.  :class:`BatchLabelSpreading` wraps scikit-learn's
:class:`~sklearn.semi_supervised.LabelSpreading` (Zhou et al., 2004) on the graph's own
adjacency matrix, refitted every ``refit_every`` trials, as a
:class:`~simpred_lite.learners.SimilarityLearner`, so that :func:`~simpred_lite.game.evaluate`
plays it on the same pairs as the online learners.  It comes in two information settings:

``told="classes"``
    After each trial it is told the **class** of both revealed vertices (an oracle beyond the
    similarity protocol, which reveals only "same class or not").  It predicts "similar"
    when the two vertices carry the same class: the known one for a revealed vertex, the
    spread one for the others.
``told="similarity"``
    It is told only the similarity label, as every online learner.  Its classes are the
    groups of revealed vertices joined by similar pairs (a union-find, as
    :class:`~simpred_lite.learners.UnionFindLearner`); each group is a label of its own, and
    the spread labels say which group an unrevealed vertex is nearest to.  A dissimilar pair
    is kept only implicitly (its two groups stay different labels): two groups of one true
    class are never merged until a similar pair joins them, so it cannot know more than
    the similar pairs chain.

Neither has a mistake bound, and both are *batch*: between refits the spread labels are
frozen (the revealed vertices' own classes or groups are always current).  Use
:func:`label_spreading_anchor` to get the ready-made entry for ``evaluate`` / ``evaluate_sweep``: its
name says "batch, refit R" and its ``given`` column says what it was told.
"""

from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np

from ..checks import check_choice, check_int, check_labels, check_real
from ..learners.base import SimilarityLearner

if TYPE_CHECKING:
    from ..learners.registry import LearnerSpec

__all__ = ["TOLD", "BatchLabelSpreading", "label_spreading_anchor"]

#: The two information settings of the batch anchor.
TOLD = ("classes", "similarity")

#: What the ``given`` column of :func:`~simpred_lite.game.evaluate` says, per setting.
_ORACLE = {"classes": "classes of revealed vertices", "similarity": None}


class _GraphKernel:
    """LabelSpreading's kernel: the graph's adjacency between the vertices whose ids are in X."""

    def __init__(self, A: Any):
        self.A = A

    def __call__(self, X: Any, Y: Any) -> Any:
        rows = np.asarray(X, dtype=float).ravel().astype(np.intp)
        cols = np.asarray(Y, dtype=float).ravel().astype(np.intp)
        return self.A[rows][:, cols]


class BatchLabelSpreading(SimilarityLearner):
    """scikit-learn's LabelSpreading on the graph, refitted every ``refit_every`` trials.

    Parameters
    ----------
    G : networkx.Graph
        The known graph, vertices ``0 .. n-1`` (unweighted: the adjacency is the kernel).
    told : {"classes", "similarity"}, default "classes"
        What it learns from a trial: the true classes of the two vertices (needs ``labels``)
        or only the similarity label (the protocol's information).  See the module docstring.
    labels : array_like of int, optional
        The classes of all vertices; required for ``told="classes"``, where only the classes
        of revealed vertices are read, and refused for ``told="similarity"``.
    refit_every : int, default 100
        Trials between two fits of LabelSpreading.
    alpha : float, default 0.8
        LabelSpreading's clamping factor in (0, 1): the fraction of a vertex's label taken
        from its neighbours at each step (higher spreads farther, and takes more iterations;
        on the breast cancer graph, 1,000 random pairs, seed 0, 0.5, 0.8 and 0.9 gave mistakes
        within 2 % of each other; 0.8 fits about twice as fast as 0.9).

    Notes
    -----
    A vertex's predicted class is its known class (or group) once it was revealed, else its
    spread class at the last fit, else unknown; a pair with an unknown end is predicted
    dissimilar (as UnionFind's default).  In the similarity setting a spread label names a
    group as it was at the fit; later merges are followed.  A fit costs a few dozen sparse
    products with the ``n x L`` label matrix (``L`` labels: classes, or groups); ``evaluate``'s
    time per trial includes the fits.

    Examples
    --------
    >>> from simpred_lite.graphs import barbell_graph
    >>> G, y = barbell_graph(5)
    >>> ls = BatchLabelSpreading(G, told="classes", labels=y, refit_every=2)
    >>> ls.learn_one(0, 9, 1); ls.learn_one(1, 2, 0)
    >>> ls.predict_one(3, 4), ls.predict_one(6, 8), ls.predict_one(3, 8)   # spread: 0-4 vs 5-9
    (0, 0, 1)
    """

    setting = "known graph"
    needs_graph = True
    description = "scikit-learn LabelSpreading on the graph, batch (refit every R trials)"

    def __init__(self, G: nx.Graph, *, told: str = "classes", labels: Any = None, refit_every: int = 100,
                 alpha: float = 0.8):
        if not isinstance(G, nx.Graph) or G.is_directed():
            raise TypeError(f"G must be an undirected networkx.Graph, got {type(G).__name__}; "
                            "build one with simpred_lite.load_graph or LabelledGraph.from_networkx")
        n = G.number_of_nodes()
        if set(G.nodes) != set(range(n)):
            raise ValueError("G's vertices must be 0 .. n-1; use LabelledGraph.from_networkx(G, label=...) "
                             "to relabel them")
        super().__init__(n)
        self.told = check_choice(told, "told", TOLD)
        if self.told == "classes":
            if labels is None:
                raise ValueError("told='classes' needs labels (the class of every vertex; only the revealed "
                                 "vertices' classes are read), or pass told='similarity'; in evaluate, pass "
                                 "label_spreading_anchor('classes'), which is given the labels")
            self._labels: np.ndarray | None = check_labels(labels, n)
        else:
            if labels is not None:
                raise ValueError("told='similarity' learns from the similarity labels only: pass labels=None")
            self._labels = None
        self.refit_every = check_int(refit_every, "refit_every (trials between two fits)", low=1)
        self.alpha = check_real(alpha, "alpha (LabelSpreading's clamping factor)", low=0, high=1,
                                low_inclusive=False, high_inclusive=False)
        self._kernel = _GraphKernel(nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr", dtype=float))
        self._known = np.full(n, -1, dtype=np.int64)    # class (or group id) of a revealed vertex
        self._parent = np.arange(n)                      # union-find of similar pairs (similarity setting)
        self._spread = np.full(n, -1, dtype=np.int64)   # label at the last fit, -1: unknown
        self.fits = 0

    @classmethod
    def for_graph(cls, G: nx.Graph, seed: int = 0, labels: Any = None, *, told: str = "classes",
                  refit_every: int = 100) -> BatchLabelSpreading:
        """Build it on a labelled graph (``seed`` unused: it has no randomness).

        Examples
        --------
        >>> import networkx as nx
        >>> BatchLabelSpreading.for_graph(nx.path_graph(4), 0, None, told="similarity").told
        'similarity'
        """
        return cls(G, told=told, labels=labels if told == "classes" else None, refit_every=refit_every)

    # -- the groups of the similarity setting ---------------------------------------------
    def _find(self, v: int) -> int:
        parent = self._parent
        root = v
        while parent[root] != root:
            root = parent[root]
        while parent[v] != root:
            parent[v], v = root, parent[v]
        return int(root)

    def _label(self, v: int) -> int:
        if self._known[v] >= 0:
            return int(self._known[v]) if self.told == "classes" else self._find(v)
        s = int(self._spread[v])
        if s < 0:
            return -1
        return s if self.told == "classes" else self._find(s)

    def _predict(self, i, j, path):
        a, b = self._label(i), self._label(j)
        if a < 0 or b < 0:
            return 1
        return int(a != b)

    def _learn(self, i, j, y, y_hat, path):
        if self._labels is not None:  # told the classes
            self._known[i], self._known[j] = self._labels[i], self._labels[j]
        else:
            self._known[i] = self._known[j] = 1   # revealed (the group is read from the union-find)
            if y == 0:
                a, b = self._find(i), self._find(j)
                if a != b:
                    self._parent[max(a, b)] = min(a, b)
        if self.trials % self.refit_every == 0:
            self._fit()

    def _fit(self) -> None:
        """Spread the revealed vertices' classes (or groups) over the graph with LabelSpreading."""
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.semi_supervised import LabelSpreading

        revealed = np.flatnonzero(self._known >= 0)
        if revealed.size == 0:
            return
        y_fit = np.full(self.n, -1, dtype=np.int64)
        if self.told == "classes":
            y_fit[revealed] = self._known[revealed]
        else:
            y_fit[revealed] = [self._find(int(v)) for v in revealed]
        model = LabelSpreading(kernel=self._kernel, alpha=self.alpha, max_iter=1000)
        with warnings.catch_warnings():
            # a vertex no label reaches has a zero row: reported below as unknown, not as a warning
            warnings.simplefilter("ignore", RuntimeWarning)
            # many groups of one or two vertices look like "regression targets" to scikit-learn
            warnings.filterwarnings("ignore", "The number of unique classes", UserWarning)
            warnings.simplefilter("error", ConvergenceWarning)
            model.fit(np.arange(self.n, dtype=float).reshape(-1, 1), y_fit)
        dist = model.label_distributions_
        ok = np.isfinite(dist).all(axis=1) & (np.nan_to_num(dist).sum(axis=1) > 0)
        self._spread = np.where(ok, model.classes_[np.argmax(np.nan_to_num(dist), axis=1)], -1).astype(np.int64)
        self.fits += 1


def label_spreading_anchor(told: str = "classes", refit_every: int = 100) -> LearnerSpec:
    """The batch anchor as an entry for :func:`~simpred_lite.game.evaluate` and ``evaluate_sweep``.

    Parameters
    ----------
    told : {"classes", "similarity"}, default "classes"
        What it is told after each trial (see :class:`BatchLabelSpreading`).
    refit_every : int, default 100
        Trials between two fits.

    Returns
    -------
    LearnerSpec
        Named ``"LabelSpreading, classes (batch, refit 100)"`` (or ``similarity``); the
        ``given`` column of ``evaluate`` reads ``graph, true classes of revealed vertices`` in
        the class setting (an oracle beyond the protocol) and ``graph`` in the similarity
        setting.  No mistake bound.

    Examples
    --------
    >>> from simpred_lite.game import evaluate
    >>> from simpred_lite.graphs import barbell_graph
    >>> anchors = [label_spreading_anchor("classes", 20), label_spreading_anchor("similarity", 20)]
    >>> ev = evaluate(anchors, *barbell_graph(5),
    ...               T=100, seed=0)
    >>> [(r["learner"], r["given"]) for r in ev.records()]  # doctest: +NORMALIZE_WHITESPACE
    [('LabelSpreading, classes (batch, refit 20)', 'graph, true classes of revealed vertices'),
     ('LabelSpreading, similarity (batch, refit 20)', 'graph')]
    """
    from ..learners.registry import LearnerSpec

    told = check_choice(told, "told", TOLD)
    refit_every = check_int(refit_every, "refit_every (trials between two fits)", low=1)
    factory = functools.partial(_build, told=told, refit_every=refit_every)
    return LearnerSpec(
        name=f"LabelSpreading, {told} (batch, refit {refit_every})",
        factory=factory, setting="known graph", needs_graph=True,
        needs_labels=told == "classes", oracle=_ORACLE[told], cls=BatchLabelSpreading,
        description=BatchLabelSpreading.description,
    )


def _build(G: nx.Graph, seed: int, labels: Any = None, *, told: str, refit_every: int) -> BatchLabelSpreading:
    """The factory of :func:`label_spreading_anchor` (module level, so a sweep's workers can unpickle it)."""
    return BatchLabelSpreading.for_graph(G, seed, labels, told=told, refit_every=refit_every)
