"""Matrix Perceptron and Matrix Winnow on a known graph (Algorithm 2, §3.2; §4 on a BST).

A pair ``(i, j)`` becomes the rank-one *similarity instance*

    X_t = psi psi^T,    psi = (Psi^+)^T (e_i - e_j)  in R^m,

with ``Psi`` the ``m x n`` incidence matrix.  ``psi`` is the unit electrical flow from
``i`` to ``j`` (``Psi^T psi = e_i - e_j`` with the least energy), so
``<X_s, X_t> = (psi_s^T psi_t)^2 = ((e_i - e_j)^T L^+ (e_k - e_l))^2`` and
``||X_t||_F = psi^T psi = R_ij``, the effective resistance.  On a **tree** the flow is
forced along the unique path, so ``psi`` is the signed indicator of the path's edges and
``psi_s^T psi_t`` is an integer, the *signed overlap* of two paths: every computation of
the Perceptron on a tree (and on a Binary Support Tree, ``Psi_B``) is done here in exact
integers.

Both learners predict ``1`` iff ``tr(W^T X_t) > threshold`` (strict, as printed in
Algorithm 2) and update only on mistakes:

* Perceptron: ``W <- W + (y - y_hat) X_t``, threshold ``R^2`` (``R`` the resistance
  diameter); mistake bound ``M <= R^2 ||U||_F^2 <= 4 R^2 |Phi|^2`` (see
  :func:`perceptron_mistake_bound`).
* Winnow: ``log W <- log W + eta (y - y_hat) X_t / R_ij`` from ``W_0 = I/m``, threshold
  ``eta / (e^eta - e^-eta) / (R |Phi|)``; mistake bound
  ``M <= (e^eta + 1)/eta * R |Phi| ln m`` (see :func:`winnow_mistake_bound`).

Matrix Winnow's weight is ``W = (1/m) exp(Q M Q^T)`` with ``Q`` an orthonormal basis of the
span of the mistaken instances: a prediction needs only ``Q^T x`` and the eigenvectors of the
small matrix ``M`` (``O(r |x| + r^2)`` per trial, ``O(m r + r^3)`` per mistake, ``r`` at most
the number of mistakes), evaluated in the log domain so that large exponents never overflow.
The paper's dense version (``scipy.linalg.expm`` of an ``m x m`` matrix on every mistake)
is kept as ``method="dense"``, the reference the tests compare against.
"""

from __future__ import annotations

import contextlib
import math

import networkx as nx
import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ..bst import BinarySupportTree
from ..checks import check_memory
from ..graphs import validate_graph, validate_labels
from ..resistance import DENSE_LIMIT, edge_list, incidence, laplacian_pinv
from .base import SimilarityLearner, check_pair

__all__ = [
    "DENSE_PERCEPTRON_EDGE_LIMIT",
    "DENSE_WINNOW_EDGE_LIMIT",
    "bst_incidence",
    "bst_instance",
    "signed_path_overlap",
    "similarity_instance",
    "comparator_matrix",
    "perceptron_mistake_bound",
    "winnow_mistake_bound",
    "MatrixPerceptron",
    "MatrixWinnow",
]

#: Largest edge count ``m`` for which the dense ``m x m`` Perceptron weight is kept (128 MiB).
DENSE_PERCEPTRON_EDGE_LIMIT = 4096
#: Largest edge count ``m`` for the dense ``expm`` reference of Matrix Winnow (one ``expm`` of
#: an ``m x m`` matrix per mistake).
DENSE_WINNOW_EDGE_LIMIT = 1024

# Relative tolerance under which a floating-point score counts as *equal* to the threshold
# (only for the Perceptron on a non-tree graph, whose scores are rationals computed in floats).
_TIE_RTOL = 1e-9
# A new mistaken Winnow instance extends the basis only if it sticks out of it by more than this.
_SPAN_TOL = 1e-10


_BLAS = None


def _one_blas_thread():
    """Run small dense linear algebra on one BLAS thread.

    For the ``r x r`` eigendecompositions of the low-rank Winnow, BLAS threads cost far more
    than they save (on a loaded 2-core machine ``eigh`` of a 100 x 100 matrix took 70 ms
    threaded and 1 ms single-threaded).
    """
    global _BLAS
    try:
        if _BLAS is None:
            from threadpoolctl import ThreadpoolController  # installed with scikit-learn

            _BLAS = ThreadpoolController()
        return _BLAS.limit(limits=1, user_api="blas")
    except ImportError:  # pragma: no cover - without threadpoolctl, just slower
        return contextlib.nullcontext()


# -- instances on a Binary Support Tree -------------------------------------------------------
def bst_incidence(bst: BinarySupportTree) -> sp.csr_matrix:
    """The incidence matrix ``Psi_B`` of the BST: ``(2N-2) x (2N-1)``.

    Row ``c - 2`` is the edge ``(c // 2, c)`` from a parent to its child ``c`` and maps
    ``v`` to ``v[parent] - v[child]``; column ``h - 1`` is the vertex of heap index ``h``
    (dummy leaves included).

    Examples
    --------
    >>> B = BinarySupportTree([0, 1])
    >>> bst_incidence(B).toarray()
    array([[ 1., -1.,  0.],
           [ 1.,  0., -1.]])
    """
    N = bst.num_leaves
    child = np.arange(2, 2 * N)
    rows = np.repeat(child - 2, 2)
    cols = np.stack([child // 2 - 1, child - 1], axis=1).reshape(-1)
    vals = np.tile([1.0, -1.0], child.size)
    return sp.csr_matrix((vals, (rows, cols)), shape=(2 * N - 2, 2 * N - 1))


def _leaf_path_edges(a: int, b: int) -> tuple[list[int], list[int]]:
    """Edges (as child heap indices) from leaf ``a`` up to the LCA, and from ``b`` up to it."""
    up, down = [], []
    while a != b:
        up.append(a)
        down.append(b)
        a //= 2
        b //= 2
    return up, down


def bst_instance(bst: BinarySupportTree, u: int, v: int) -> tuple[np.ndarray, np.ndarray]:
    """The instance ``psi = (Psi_B^+)^T (e_leaf(u) - e_leaf(v))`` as sparse integers.

    On a tree the unit flow from ``u`` to ``v`` runs along the path: ``psi`` is ``-1`` on
    the edges climbing from ``u`` to the lowest common ancestor and ``+1`` on the edges
    descending to ``v`` (with the orientation of :func:`bst_incidence`), ``0`` elsewhere.

    Returns
    -------
    (edges, signs) : numpy.ndarray, numpy.ndarray
        Row indices of ``Psi_B`` and the nonzero values of ``psi`` there.

    Examples
    --------
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> edges, signs = bst_instance(B, 0, 2)
    >>> edges.tolist(), signs.tolist()
    ([2, 0, 4, 1], [-1, -1, 1, 1])
    >>> x = np.zeros(6); x[edges] = signs
    >>> e = np.zeros(7); e[B.leaf(0) - 1], e[B.leaf(2) - 1] = 1, -1
    >>> bool(np.allclose(x, np.linalg.pinv(bst_incidence(B).toarray()).T @ e))
    True
    """
    up, down = _leaf_path_edges(bst.leaf(u), bst.leaf(v))
    edges = np.array(up + down, dtype=np.int64) - 2
    signs = np.concatenate([-np.ones(len(up), np.int64), np.ones(len(down), np.int64)])
    return edges, signs


def signed_path_overlap(bst: BinarySupportTree, pair_s, pair_t) -> int:
    """``psi_s^T psi_t`` for two pairs on the BST, in exact integers.

    The count of edges the two paths share, each ``+1`` if both flows cross it the same
    way and ``-1`` otherwise. Its square is ``<X_s, X_t>``.

    Examples
    --------
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> signed_path_overlap(B, (0, 2), (1, 3)), signed_path_overlap(B, (0, 2), (3, 1))
    (2, -2)
    """
    es, ss = bst_instance(bst, *pair_s)
    et, st = bst_instance(bst, *pair_t)
    sign_s = dict(zip(es.tolist(), ss.tolist()))
    return int(sum(sign_s.get(e, 0) * s for e, s in zip(et.tolist(), st.tolist())))


def similarity_instance(G: nx.Graph, i: int, j: int) -> np.ndarray:
    """``psi = (Psi^+)^T (e_i - e_j)``: the vector whose outer product is the instance ``X_t``.

    ``psi`` lives on the edges (order of :func:`~simpred_lite.resistance.edge_list`); it is the
    unit electrical flow from ``i`` to ``j``, so ``psi^T psi = R_ij``.  Dense ``L^+``: for
    small graphs (``n <= DENSE_LIMIT``).

    Examples
    --------
    >>> psi = similarity_instance(nx.cycle_graph(4), 0, 1)   # 3/4 of the current on edge 0-1
    >>> psi.round(3).tolist(), round(float(psi @ psi), 3)
    ([0.75, 0.25, -0.25, -0.25], 0.75)
    """
    geo = _GraphGeometry(G, "similarity_instance", 10**12, "")
    i, j = check_pair(i, j, geo.n)
    psi = geo._psi_rows[:, i] - geo._psi_rows[:, j]
    return psi


# -- the comparator and the bounds of Prop. percwin ------------------------------------------
def comparator_matrix(G: nx.Graph, labels) -> np.ndarray:
    """The comparator ``U = Psi (sum_k u_k u_k^T) Psi^T`` of the proof of Prop. percwin.

    ``u_k`` is the indicator vector of class ``k``.  It separates every sequence:
    ``<U, X_t> = 2`` on dissimilar pairs and ``0`` on similar ones, and
    ``||U||_F^2 = sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2 <= 4 |Phi|^2`` (equality for two
    classes; the ``2 |Phi|^2`` printed in the proof sketch is a slip, since
    ``sum_k |Phi_k|^2`` alone can reach ``2 |Phi|^2``).

    Examples
    --------
    >>> U = comparator_matrix(nx.path_graph(4), [0, 0, 1, 1])
    >>> float((U ** 2).sum())    # one cut edge, two classes: 4 |Phi|^2
    4.0
    """
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    check_memory(8 * G.number_of_edges() * (G.number_of_edges() + G.number_of_nodes()),
                 "comparator_matrix (an m x m and an m x n float matrix)",
                 "for ||U||_F^2 use its closed form (see the docstring) from cut_edges(G, labels), or a smaller graph")
    Psi = incidence(G).toarray()
    classes = np.unique(y)
    Pu = Psi @ (y[:, None] == classes[None, :]).astype(float)  # columns Psi u_k
    return Pu @ Pu.T


def perceptron_mistake_bound(R: float, U_norm_sq: float) -> float:
    """``R^2 ||U||_F^2``: the mistake bound of Algorithm 2's Perceptron (threshold ``R^2``).

    Proof (Novikoff with a threshold): with ``Delta = ||W - R^2 U||^2``, a mistake on a
    dissimilar pair (``<W,X> <= R^2``, ``<U,X> = 2``) changes ``Delta`` by
    ``2<W,X> - 4R^2 + ||X||^2 <= -R^2``; one on a similar pair (``<W,X> > R^2``,
    ``<U,X> = 0``) by ``-2<W,X> + ||X||^2 < -R^2``.  ``Delta`` starts at
    ``R^4 ||U||^2`` and stays ``>= 0``.

    Examples
    --------
    >>> perceptron_mistake_bound(3.0, 4.0)
    36.0
    """
    return float(R) ** 2 * float(U_norm_sq)


def winnow_mistake_bound(R: float, cut: float, m: int, eta: float = 1.28) -> float:
    """``(e^eta + 1) / eta * R |Phi| ln m``: the mistake bound of Algorithm 2's Matrix Winnow.

    Proof (Warmuth's relative-entropy argument, unnormalised): the comparator
    ``U / tr U`` (``tr U = 2|Phi|``) has ``<U/trU, X^w> >= delta = 1/(R|Phi|)`` on dissimilar
    pairs and ``0`` on similar ones.  By Golden–Thompson and ``e^{aX} <= I + (e^a - 1) X``,
    a promotion gains at least ``eta delta - (e^eta - 1) theta`` and a demotion at least
    ``(1 - e^-eta) theta`` of relative entropy; the threshold ``theta = eta delta /
    (e^eta - e^-eta)`` equalises both at ``eta delta / (e^eta + 1)``, and the entropy starts
    below ``ln m``.  ``eta = 1.28`` (the root of ``e^eta (eta - 1) = 1``) minimises the constant.

    Examples
    --------
    >>> round(winnow_mistake_bound(2.0, 1, 7), 3)   # 3.591 * 2 * 1 * ln 7
    13.976
    """
    return (math.exp(eta) + 1.0) / eta * float(R) * float(cut) * math.log(m)


# -- geometry: where instances come from ------------------------------------------------------
class _GraphGeometry:
    """Instances ``Psi L^+ (e_i - e_j)`` of a general graph (dense ``L^+``)."""

    def __init__(self, G: nx.Graph, what: str, edge_limit: int, alternative: str):
        G = validate_graph(G)
        self.n = G.number_of_nodes()
        edges = np.array(edge_list(G), dtype=np.int64).reshape(-1, 2)
        self.m = len(edges)
        _check_edges(self.m, what, edge_limit, alternative)
        if self.n > DENSE_LIMIT:
            raise ValueError(
                f"{what} needs the dense L^+ of G, limited to n <= {DENSE_LIMIT} vertices, but n={self.n}; "
                "run on the graph's Binary Support Tree instead (Thm. winnowandperceptron): "
                "BSTPerceptron.from_graph(G, seed), or MatrixWinnow(BinarySupportTree.from_graph(G, seed), cut_size=...)"
            )
        self.exact = self.m == self.n - 1  # a tree: psi is a signed path indicator
        check_memory(8 * (3 * self.m * self.n + 3 * self.n**2), f"{what} on G (three m x n float tables)",
                     "run it on the graph's Binary Support Tree: MatrixWinnow(BinarySupportTree.from_graph(G, seed), "
                     "cut_size=...) or BSTPerceptron.from_graph(G, seed)")
        Lp = laplacian_pinv(G)
        self._psi_rows = Lp[edges[:, 0]] - Lp[edges[:, 1]]  # psi(i, j) = column i - column j
        d = np.diag(Lp)
        Rmat = d[:, None] + d[None, :] - 2.0 * Lp
        self.R = float(Rmat.max())
        if self.exact:
            self.R = int(round(self.R))
        self.graph = G

    def instance(self, i: int, j: int):
        psi = self._psi_rows[:, i] - self._psi_rows[:, j]
        if self.exact:
            psi = np.rint(psi).astype(np.int64)
            idx = np.flatnonzero(psi)
            return idx, psi[idx]
        return np.arange(self.m), psi


class _BSTGeometry:
    """Instances ``Psi_B^+ (e_leaf(i) - e_leaf(j))``: signed leaf-to-leaf paths of a BST."""

    exact = True

    def __init__(self, bst: BinarySupportTree, what: str, edge_limit: int | None, alternative: str):
        if not isinstance(bst, BinarySupportTree):
            raise TypeError(f"expected a BinarySupportTree, got {type(bst).__name__}")
        self.bst = bst
        self.n = bst.n
        self.m = 2 * bst.num_leaves - 2
        if edge_limit is not None:
            _check_edges(self.m, what, edge_limit, alternative)
        self.R = 2 * bst.depth  # leaf-to-leaf diameter = resistance diameter of the tree B

    def instance(self, i: int, j: int):
        return bst_instance(self.bst, i, j)


def _check_edges(m: int, what: str, limit: int, alternative: str) -> None:
    if m > limit:
        raise ValueError(f"{what} is a dense reference limited to m <= {limit} edges, but this graph has m={m}; {alternative}")


def _geometry(G, what, edge_limit, alternative):
    if isinstance(G, BinarySupportTree):
        return _BSTGeometry(G, what, edge_limit, alternative)
    if isinstance(G, nx.Graph):
        return _GraphGeometry(G, what, edge_limit, alternative)
    raise TypeError(f"{what} takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")


# -- Matrix Perceptron -----------------------------------------------------------------------
class MatrixPerceptron(SimilarityLearner):
    """Algorithm 2's Matrix Perceptron, naive and dense: an ``m x m`` weight matrix ``W``.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph.  With a :class:`~simpred_lite.bst.BinarySupportTree` the instances
        come from ``Psi_B`` (Thm. winnowandperceptron): pairs are vertices of the original
        graph, mapped to their leaves; ``R = 2 log2 N``.

    Notes
    -----
    Predict ``1`` iff ``tr(W^T X_t) = psi^T W psi > R^2``; on a mistake
    ``W += (y - y_hat) psi psi^T``.  Each trial costs ``O(m^2)`` (a dense matrix–vector
    product and, on mistakes, a dense rank-one update): this is the reference that
    :class:`~simpred_lite.learners.BSTPerceptron` reproduces in ``O(log^2 n)``.

    On a tree (a networkx tree, or a BST) ``psi`` has entries in ``{-1, 0, 1}`` and ``W``
    is kept in exact integers, so ties ``tr(W^T X_t) == R^2`` (frequent) are decided
    exactly.  On other graphs the score is a rational computed in floating point; a score
    within ``1e-9`` (relative) of ``R^2`` is taken as equal (predict ``0``).

    Examples
    --------
    >>> learner = MatrixPerceptron(nx.path_graph(4))
    >>> learner.threshold, learner.predict_one(0, 3)
    (9, 0)
    >>> learner.learn_one(0, 3, 1); learner.score(0, 3), learner.score(0, 1)
    (9, 1)
    """

    def __init__(self, G):
        geo = _geometry(
            G, "MatrixPerceptron", DENSE_PERCEPTRON_EDGE_LIMIT,
            "on a Binary Support Tree use BSTPerceptron(bst), exact and O(log^2 n) per trial",
        )
        super().__init__(geo.n)
        self._geo = geo
        self.m = geo.m
        self.R = geo.R
        self.threshold = geo.R**2
        self.W = np.zeros((geo.m, geo.m), dtype=np.int64 if geo.exact else float)

    def _dense_instance(self, i, j) -> np.ndarray:
        idx, val = self._geo.instance(i, j)
        x = np.zeros(self.m, dtype=self.W.dtype)
        x[idx] = val
        return x

    def score(self, i: int, j: int):
        """``tr(W^T X_t)`` for the pair ``(i, j)`` (an ``int`` on trees)."""
        i, j = check_pair(i, j, self.n)
        x = self._dense_instance(i, j)
        s = x @ (self.W @ x)
        return int(s) if self._geo.exact else float(s)

    def _predict(self, i, j, path):
        s = self.score(i, j)
        if self._geo.exact:
            return int(s > self.threshold)
        return int(s > self.threshold * (1.0 + _TIE_RTOL))

    def _learn(self, i, j, y, y_hat, path):
        if y != y_hat:
            x = self._dense_instance(i, j)
            self.W += (y - y_hat) * np.outer(x, x)


# -- Matrix Winnow ---------------------------------------------------------------------------
def _check_winnow_params(cut_size, eta) -> tuple[float, float]:
    if cut_size is None:
        raise ValueError(
            "Matrix Winnow's threshold needs the cut size |Phi| (footnote of Algorithm 2): "
            "pass cut_size=simpred_lite.cut_size(G, labels), or bst.cut_size(labels) on a BST"
        )
    for name, v in (("cut_size", cut_size), ("eta", eta)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name} must be a positive number, got {v!r}")
        if not (math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a positive finite number, got {v!r}")
    return float(cut_size), float(eta)


class MatrixWinnow(SimilarityLearner):
    """Algorithm 2's Matrix Winnow, exact, without ``O(m^3)`` work per trial.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (``Psi_B`` for a BST, as in Thm. winnowandperceptron).
    cut_size : number
        ``|Phi|`` of the labeling on the graph the learner runs on (``cut_size(G, labels)``,
        or ``bst.cut_size(labels)`` for a BST): the threshold needs it (the paper's footnote).
    eta : float, default 1.28
        Learning rate.
    method : {"lowrank", "dense"}
        ``"lowrank"`` (default) keeps ``log W = -ln(m) I + Q M Q^T`` with ``Q`` an orthonormal
        basis of the mistaken instances and evaluates ``x^T W x`` in the log domain.
        ``"dense"`` is the paper's reference: ``W = scipy.linalg.expm(log W)`` recomputed on
        every mistake (``m <= DENSE_WINNOW_EDGE_LIMIT``).

    Notes
    -----
    With ``x = psi / sqrt(R_ij)`` (unit, so ``X^w_t = x x^T`` has trace 1) and
    ``z = Q^T x``, ``M = E diag(lam) E^T``, ``w = E^T z``,

        m * x^T W x = (1 - |z|^2) + sum_k exp(lam_k) w_k^2,

    and we compare ``log`` of it (a log-sum-exp) with ``log(m * threshold)``.

    Examples
    --------
    >>> learner = MatrixWinnow(nx.cycle_graph(6), cut_size=2)   # labels 0,0,0,1,1,1
    >>> round(learner.threshold, 4), learner.predict_one(0, 1)      # W_0 = I/6: 1/6 > threshold
    (0.1286, 1)
    >>> learner.learn_one(0, 1, 0); learner.predict_one(0, 1), round(learner.score(0, 1), 4)
    (0, 0.0463)
    """

    def __init__(self, G, cut_size=None, eta: float = 1.28, method: str = "lowrank"):
        cut, eta = _check_winnow_params(cut_size, eta)
        if method not in ("lowrank", "dense"):
            raise ValueError(f"method must be 'lowrank' or 'dense', got {method!r}")
        limit = DENSE_WINNOW_EDGE_LIMIT if method == "dense" else None
        alternative = "use method='lowrank' (the default), exact and without m x m matrices"
        if isinstance(G, BinarySupportTree):
            geo = _BSTGeometry(G, "MatrixWinnow(method='dense')", limit, alternative)
        elif isinstance(G, nx.Graph):
            geo = _GraphGeometry(G, "MatrixWinnow(method='dense')" if limit else "MatrixWinnow",
                                 limit or 10**12, alternative)
        else:
            raise TypeError(f"MatrixWinnow takes a networkx graph or a BinarySupportTree, got {type(G).__name__}")
        super().__init__(geo.n)
        self._geo = geo
        self.m = geo.m
        self.R = geo.R
        self.cut_size = cut
        self.eta = eta
        self.method = method
        self.threshold = eta / (math.exp(eta) - math.exp(-eta)) / (geo.R * cut)
        self._log_threshold = math.log(self.threshold)
        if method == "dense":
            self._logW = -math.log(self.m) * np.eye(self.m)
            self._W = np.eye(self.m) / self.m
        else:
            self._Q = np.zeros((self.m, 0))
            self._M = np.zeros((0, 0))
            self._lam = np.zeros(0)
            self._E = np.zeros((0, 0))

    @property
    def rank(self) -> int:
        """``r``: the dimension of the span of the mistaken instances (low-rank method)."""
        if self.method == "dense":
            return int(np.linalg.matrix_rank(self._logW + math.log(self.m) * np.eye(self.m)))
        return self._Q.shape[1]

    def _unit_instance(self, i, j):
        idx, val = self._geo.instance(i, j)
        val = val.astype(float)
        return idx, val * (1.0 / math.sqrt(float(np.dot(val, val))))

    def log_score(self, i: int, j: int) -> float:
        """``ln tr(W^T X^w_t)`` for the pair ``(i, j)``."""
        i, j = check_pair(i, j, self.n)
        idx, x = self._unit_instance(i, j)
        if self.method == "dense":
            with np.errstate(divide="ignore"):
                return float(np.log(x @ self._W[np.ix_(idx, idx)] @ x))
        return self._lowrank_log_score(idx, x)[0]

    def score(self, i: int, j: int) -> float:
        """``tr(W^T X^w_t)`` for the pair ``(i, j)`` (may be ``inf`` after huge promotions)."""
        with np.errstate(over="ignore"):
            return float(np.exp(self.log_score(i, j)))

    def _lowrank_log_score(self, idx, x):
        z = self._Q[idx].T @ x
        w2 = np.square(self._E.T @ z)
        residual = 1.0 - float(np.dot(z, z))  # the part of x outside span(Q) keeps weight 1
        keep = w2 > 0.0
        terms = self._lam[keep] + np.log(w2[keep])  # log of exp(lam_k) w_k^2: never overflows
        top = float(terms.max()) if terms.size else -math.inf
        if residual > 0.0:
            top = max(top, math.log(residual))
        if top == -math.inf:
            return -math.inf, z
        total = float(np.exp(terms - top).sum()) + (residual * math.exp(-top) if residual > 0.0 else 0.0)
        return top + math.log(total) - math.log(self.m), z

    def _predict(self, i, j, path):
        if self.method == "dense":
            idx, x = self._unit_instance(i, j)
            return int(float(x @ self._W[np.ix_(idx, idx)] @ x) > self.threshold)
        idx, x = self._unit_instance(i, j)
        return int(self._lowrank_log_score(idx, x)[0] > self._log_threshold)

    def _learn(self, i, j, y, y_hat, path):
        if y == y_hat:
            return
        step = self.eta * (y - y_hat)
        idx, x = self._unit_instance(i, j)
        if self.method == "dense":
            self._logW[np.ix_(idx, idx)] += step * np.outer(x, x)
            self._W = scipy.linalg.expm(self._logW)
            return
        with _one_blas_thread():
            self._extend_and_update(idx, x, step)

    def _extend_and_update(self, idx, x, step):
        xd = np.zeros(self.m)
        xd[idx] = x
        Q = self._Q
        z = Q.T @ xd
        u = xd - Q @ z
        dz = Q.T @ u  # second Gram-Schmidt pass: orthogonality to machine precision
        z += dz
        u -= Q @ dz
        rho = float(np.linalg.norm(u))
        if rho > _SPAN_TOL:
            self._Q = np.column_stack([Q, u / rho])
            r = self._Q.shape[1]
            M = np.zeros((r, r))
            M[: r - 1, : r - 1] = self._M
            self._M = M
            z = np.append(z, rho)
        self._M += step * np.outer(z, z)
        self._lam, self._E = np.linalg.eigh(self._M)
