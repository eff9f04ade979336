"""Algorithm 1's Matrix Perceptron on a known graph (§3.2; §4 on a BST), and its dense reference.

A pair ``(i, j)`` is the instance ``X_t = psi psi^T`` (:mod:`~simpred_lite.learners.instances`).
The learner predicts ``1`` iff ``tr(W^T X_t) > R^2`` (strict, as printed in Algorithm 1,
``R`` the resistance diameter) and on a mistake ``W <- W + (y - y_hat) X_t``; mistake bound
``M <= R^2 ||U||_F^2 <= 4 R^2 |Phi|^2`` (:func:`~simpred_lite.learners.bounds.matrix_perceptron_mistake_bound`).

* :class:`MatrixPerceptron` keeps only the mistaken pairs and their signs and reads instances
  through the kernel ``x_s^T x_t = (e_a - e_b)^T L^+ (e_i - e_j)``
  (:mod:`~simpred_lite.learners.kernels`); its decisions are exact on every machine
  (:mod:`~simpred_lite.learners.certification`).
* :class:`MatrixPerceptronReference` is the naive reference: an explicit ``m x m`` weight.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ..bst import BinarySupportTree
from ..checks import check_pair
from .base import SimilarityLearner
from .bounds import certified_matrix_perceptron_bound
from .certification import PerceptronCertifier
from .instances import instance_geometry
from .kernels import DenseKernel, GrowingPairs, PrefetchHint, ResistanceDiameter, make_kernel

__all__ = ["DENSE_PERCEPTRON_EDGE_LIMIT", "MatrixPerceptron", "MatrixPerceptronReference"]

#: Largest edge count ``m`` for which the dense ``m x m`` Perceptron weight is kept (128 MiB).
DENSE_PERCEPTRON_EDGE_LIMIT = 4096

# Relative tolerance under which a floating-point score counts as *equal* to the threshold
# (only for the dense reference on a non-tree graph, whose scores are rationals computed in floats).
_TIE_RTOL = 1e-9


class _PerceptronOnGraph(ResistanceDiameter, SimilarityLearner):
    """What the registry reads on both forms: built on ``G`` itself, bounded by Proposition 2."""

    needs_graph = True
    bound_text = "R^2 ||U||_F^2 (Proposition 2)"

    @classmethod
    def for_graph(cls, G: nx.Graph, seed: int = 0, labels: Any = None) -> Any:
        """The learner on ``G`` itself (no randomness, no oracle)."""
        return cls(G)

    def mistake_bound(self, G: nx.Graph, labels: Any) -> float | None:
        """Proposition 2's ``R^2 ||U||_F^2``, certified (:func:`~.bounds.certified_matrix_perceptron_bound`)."""
        args, kwargs = self._init_params
        return certified_matrix_perceptron_bound(self, kwargs.get("G", args[0] if args else G), labels)


class MatrixPerceptron(PrefetchHint, _PerceptronOnGraph):
    """Algorithm 1's Matrix Perceptron in kernel form: no ``m x m`` matrix, exact decisions.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph.  With a :class:`~simpred_lite.bst.BinarySupportTree` the instances
        come from ``Psi_B`` (Theorem 3): pairs are vertices of the original
        graph, mapped to their leaves; ``R = 2 log2 N``.

    Notes
    -----
    Predict ``1`` iff ``tr(W^T X_t) = psi^T W psi > R^2`` (strict, as Algorithm 1 prints);
    on a mistake ``W += (y - y_hat) psi psi^T``.

    Only the mistaken pairs ``s`` and their signs ``c_s = y_s - y_hat_s`` are kept; the score
    is ``tr(W^T X_t) = sum_s c_s (x_s^T x_t)^2`` with
    ``x_s^T x_t = (e_a - e_b)^T L^+ (e_i - e_j)`` (a signed path overlap on a BST):
    ``O(n + k)`` per trial (``k`` mistakes so far; ``O(|path| k)`` on a BST), any ``m``.
    Beyond ``n = DENSE_LIMIT`` the kernel is sparse (:class:`~.kernels.SparseKernel`): one
    sparse solve per trial for its pair (solved in blocks and shared with Matrix Winnow when
    the sequence is announced, :meth:`prefetch`, as ``evaluate`` does), then ``O(k)`` gathers
    at the ends of the mistaken pairs, memory that grows with the factor, not ``n^2``; ``R``
    is found once per graph from
    a selected inversion of the factors and the columns of a few candidate ends (refused
    beyond :data:`~simpred_lite.checks.WORK_LIMIT` steps: use the graph's Binary Support Tree
    instead).  On a frozen validated graph (what ``evaluate`` passes) the kernel, ``R`` and
    its error bound are built once and shared by every matrix learner on that graph.
    :class:`MatrixPerceptronReference` is the naive ``m x m`` form, and
    :class:`~simpred_lite.learners.BSTPerceptron` reproduces the learner on a BST in
    ``O(log^2 n)``.

    The decision is exact on every machine.  On a tree (a networkx tree, or a BST) every
    ``x_s^T x_t`` and ``R`` are integers and the score is computed in exact integers (the
    float kernel of a tree is rounded to its integer, its error being far below ``1/2``).
    On other graphs the score and ``R^2`` are rationals: the float score comes with a
    rigorous error bound (the a-posteriori bound of ``L^+``,
    :func:`~simpred_lite.exact.pinv_error_bound`, or on the sparse kernel the residual bound
    of the trial's solve, propagated through the kernel, plus the rounding of the sums, and
    the bound on ``R``), the float decides when it is farther than that bound from the
    threshold, and otherwise the decision is recomputed in rational arithmetic
    (:class:`~simpred_lite.exact.ExactLaplacian`): one exact solve for the current pair, and,
    once, the exact ``R^2`` from the pairs whose float resistance is within the error band
    of the maximum.

    Examples
    --------
    >>> import networkx as nx
    >>> learner = MatrixPerceptron(nx.path_graph(4))
    >>> learner.threshold, learner.predict_one(0, 3)
    (9, 0)
    >>> learner.learn_one(0, 3, 1); learner.score(0, 3), learner.score(0, 1)
    (9, 1)
    >>> C4 = MatrixPerceptron(nx.cycle_graph(4)); C4.learn_one(0, 2, 1)
    >>> C4.score(0, 2) == C4.threshold, C4.predict_one(0, 2)   # an exact tie: 1 = R^2 = 1
    (True, 0)
    """

    display_name = "Matrix Perceptron"
    description = "Algorithm 1 on G (kernel form)"

    def __init__(self, G: nx.Graph | BinarySupportTree) -> None:
        kern = make_kernel(G, "MatrixPerceptron")
        super().__init__(kern.n)
        self._kern = kern
        self.m, self.R, self.exact = kern.m, kern.R, kern.exact
        self._pairs = GrowingPairs()
        self._coef = np.zeros(16, dtype=np.int64)
        # BST kernels are always exact; a graph kernel is exact on a tree
        self._certifier = PerceptronCertifier(kern) if isinstance(kern, DenseKernel) and not kern.exact else None
        self.threshold = self.R**2

    def _diameter_source(self):
        return self._kern

    def _terms(self, i, j):
        q, _ = self._kern.inner(self._pairs, i, j, self._stream)
        return q, self._coef[: self._pairs.k]

    def score(self, i: int, j: int) -> int | float:
        """``tr(W^T X_t)`` for the pair ``(i, j)`` (an ``int`` on trees, else a float).

        Parameters
        ----------
        i, j : int
            The pair's vertices.

        Examples
        --------
        >>> import networkx as nx
        >>> p = MatrixPerceptron(nx.path_graph(3)); p.learn_one(0, 2, 1); p.score(0, 1)
        1
        """
        i, j = check_pair(i, j, self.n)
        q, c = self._terms(i, j)
        s = np.dot(c, q * q)
        return int(s) if self.exact else float(s)

    def _predict(self, i: int, j: int, path: Any) -> int:
        q, c = self._terms(i, j)
        if self._certifier is None:  # integer overlaps and integer R: exact
            return int(int(np.dot(c, q * q)) > self.threshold)
        # certified float decision, exact rational arithmetic only inside the error band
        return self._certifier.decide(i, j, q, c, self._pairs, self._stream)

    def _learn(self, i: int, j: int, y: int, y_hat: int, path: Any) -> None:
        if y == y_hat:
            return
        k = self._pairs.k
        self._pairs.append(i, j, -1 if self._stream is None else self._stream.current(i, j))
        if k == self._coef.size:
            self._coef = np.concatenate([self._coef, np.zeros_like(self._coef)])
        self._coef[k] = y - y_hat


class MatrixPerceptronReference(_PerceptronOnGraph):
    """The naive Matrix Perceptron: an explicit ``m x m`` weight ``W``, ``O(m^2)`` per trial.

    The plain reference of :class:`MatrixPerceptron` (and, on a BST, of
    :class:`~simpred_lite.learners.BSTPerceptron`): the same Algorithm 1, written as printed.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (``m <= DENSE_PERCEPTRON_EDGE_LIMIT`` edges, ``n <= DENSE_LIMIT``
        vertices), or a Binary Support Tree (``Psi_B``, Theorem 3).

    Notes
    -----
    On a tree or a BST the weight and the instances are integers and the decision is exact.
    On other graphs the score is a float, and scores within a relative ``1e-9`` of ``R^2``
    count as ties (predict ``0``): the reference is exact only off ties, which is what the
    tests compare.

    Examples
    --------
    >>> import networkx as nx
    >>> ref = MatrixPerceptronReference(nx.path_graph(4))
    >>> ref.W.shape, ref.threshold
    ((3, 3), 9)
    >>> ref.learn_one(0, 3, 1); ref.score(0, 3), ref.score(0, 1)
    (9, 1)
    """

    display_name = "Matrix Perceptron (reference)"
    setting = "reference"
    description = "Algorithm 1 as printed: an explicit m x m weight matrix"

    def __init__(self, G: nx.Graph | BinarySupportTree) -> None:
        geo = instance_geometry(
            G, "MatrixPerceptronReference", DENSE_PERCEPTRON_EDGE_LIMIT,
            "use MatrixPerceptron (the kernel form, no m x m matrix), or on a Binary Support Tree "
            "BSTPerceptron(bst), exact and O(log^2 n) per trial",
        )
        super().__init__(geo.n)
        self._geo = geo
        self.m, self.R, self.exact = geo.m, geo.R, geo.exact
        self.W = np.zeros((geo.m, geo.m), dtype=np.int64 if geo.exact else float)
        self.threshold = self.R**2

    def _diameter_source(self):
        return self._geo

    def _dense_instance(self, i: Any, j: Any) -> np.ndarray:
        idx, val = self._geo.instance(i, j)
        x = np.zeros(self.m, dtype=self.W.dtype)
        x[idx] = val
        return x

    def score(self, i: int, j: int) -> int | float:
        """``tr(W^T X_t) = psi^T W psi`` for the pair ``(i, j)`` (an ``int`` on trees, else a float).

        Parameters
        ----------
        i, j : int
            The pair's vertices.

        Examples
        --------
        >>> import networkx as nx
        >>> p = MatrixPerceptronReference(nx.path_graph(3)); p.learn_one(0, 2, 1); p.score(0, 1)
        1
        """
        i, j = check_pair(i, j, self.n)
        x = self._dense_instance(i, j)
        s = x @ (self.W @ x)
        return int(s) if self.exact else float(s)

    def _predict(self, i: int, j: int, path: Any) -> int:
        s = self.score(i, j)
        if self.exact:  # exact integers: the comparison is exact
            return int(s > self.threshold)
        return int(s > self.threshold * (1.0 + _TIE_RTOL))  # the float reference's tie band

    def _learn(self, i: int, j: int, y: int, y_hat: int, path: Any) -> None:
        if y == y_hat:
            return
        x = self._dense_instance(i, j)
        self.W += (y - y_hat) * np.outer(x, x)

