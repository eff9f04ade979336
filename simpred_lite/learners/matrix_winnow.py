"""Algorithm 1's Matrix Winnow on a known graph (§3.2; §4 on a BST), its reference and a low-rank form.

A pair ``(i, j)`` is the instance ``X_t = psi psi^T`` (:mod:`~simpred_lite.learners.instances`),
normalised to trace one, ``X^w_t = X_t / R_ij``.  The learner predicts ``1`` iff
``tr(W^T X^w_t) > eta / (e^eta - e^-eta) / (R |Phi|)`` and on a mistake
``log W <- log W + eta (y - y_hat) X^w_t`` from ``W_0 = I/m``; mistake bound
``M <= (e^eta + 1)/eta * R |Phi| ln m``
(:func:`~simpred_lite.learners.bounds.matrix_winnow_mistake_bound`).

``W = (1/m) exp(Q M Q^T)`` with ``Q`` an orthonormal basis of the span of the mistaken
instances: a prediction needs only ``Q^T x`` and the eigenvectors of the small matrix ``M``,
evaluated in the log domain so that large exponents never overflow.  Three learners compute it:

* :class:`MatrixWinnow` (use this one): instances only through kernel values
  (:mod:`~simpred_lite.learners.kernels`), ``Q = V F^{-1}`` with ``F`` the Cholesky factor of
  the Gram matrix of the independent mistaken instances, and the eigendecomposition of ``M``
  refreshed only every few dozen mistakes; in between, certified quadrature bounds decide
  (:class:`~simpred_lite.learners.certification.LazyExponential`).
* :class:`LowRankMatrixWinnow`: an explicit ``m x r`` orthonormal ``Q`` and a full ``eigh``
  of ``M`` on every mistake.  A learner of its own (not a ``method=`` switch): it keeps other
  state than :class:`MatrixWinnow`, is the stepping stone between the paper's formula and the
  kernel form in the tests and notebook 05, and is the faster of the two on small graphs.
* :class:`MatrixWinnowReference`: the paper's dense version, ``W = scipy.linalg.expm(log W)``
  of an ``m x m`` matrix recomputed on every mistake.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from typing import Any

import networkx as nx
import numpy as np
import scipy  # scipy.linalg (expm, lapack) loads on first use, through scipy's lazy submodules

from ..bst import BinarySupportTree
from ..checks import check_pair, check_winnow_params
from ..graphs import cut_size as graph_cut_size
from .base import SimilarityLearner
from .bounds import certified_matrix_winnow_bound
from .certification import WINNOW_LANCZOS_STEPS, LazyExponential, one_blas_thread
from .instances import instance_geometry
from .kernels import Forest, GrowingPairs, PrefetchHint, ResistanceDiameter, make_kernel

__all__ = ["DENSE_WINNOW_EDGE_LIMIT", "MatrixWinnow", "LowRankMatrixWinnow", "MatrixWinnowReference"]

#: Largest edge count ``m`` for the dense ``expm`` reference of Matrix Winnow (one ``expm`` of
#: an ``m x m`` matrix per mistake).
DENSE_WINNOW_EDGE_LIMIT = 1024

# A new mistaken Winnow instance extends the basis only if it sticks out of it by more than this.
_SPAN_TOL = 1e-10


def _forward(F, B):
    """``Z`` with ``F^T Z = B`` (``F`` upper triangular; ``B`` a vector or a matrix of columns)."""
    Z, info = scipy.linalg.lapack.dtrtrs(F, B if B.ndim == 2 else B[:, None], lower=0, trans=1)
    if info != 0:  # pragma: no cover - F has a positive diagonal
        raise np.linalg.LinAlgError(f"triangular solve failed (info={info})")
    return Z if B.ndim == 2 else Z[:, 0]


class _MatrixWinnowCommon(ResistanceDiameter, SimilarityLearner):
    """What the three forms share: the checked parameters, the threshold, promotions on mistakes."""

    needs_graph = True
    oracle = "|Phi|"
    bound_text = "(e^eta + 1)/eta R |Phi| ln m (Proposition 2), with the true |Phi|"

    @classmethod
    def for_graph(cls, G: nx.Graph, seed: int = 0, labels: Any = None) -> Any:
        """The learner on ``G``, its threshold set with the labels' ``|Phi|`` (the oracle)."""
        make: Any = cls  # a concrete form: the constructors take (G, cut_size, eta)
        return make(G, cut_size=graph_cut_size(G, labels))

    def mistake_bound(self, G: nx.Graph, labels: Any) -> float | None:
        """Proposition 2, certified (:func:`~.bounds.certified_matrix_winnow_bound`); None with a wrong ``|Phi|``."""
        args, kwargs = self._init_params
        return certified_matrix_winnow_bound(self, kwargs.get("G", args[0] if args else G), labels)

    def __init__(self, source: Any, cut: float, eta: float) -> None:
        # cut and eta come checked (check_winnow_params, before any work on the graph)
        super().__init__(source.n)
        self._geo = source
        self.m = source.m
        self.R = source.R
        self.cut_size = cut
        self.eta = eta
        self.threshold = eta / (math.exp(eta) - math.exp(-eta)) / (source.R * cut)
        self._log_threshold = math.log(self.threshold)

    def _diameter_source(self):
        return self._geo

    @abstractmethod
    def _log_score(self, i: int, j: int) -> float:
        """``ln tr(W^T X^w_t)`` for a checked pair (each form computes it its own way)."""

    @abstractmethod
    def _promote(self, i: int, j: int, step: float) -> None:
        """``log W += step X^w_t`` (each form updates its own state)."""

    def log_score(self, i: int, j: int) -> float:
        """``ln tr(W^T X^w_t)`` for the pair ``(i, j)``.

        Parameters
        ----------
        i, j : int
            The pair's vertices.

        Examples
        --------
        >>> import networkx as nx
        >>> from simpred_lite.learners import MatrixWinnow
        >>> round(MatrixWinnow(nx.cycle_graph(6), cut_size=2).log_score(0, 1), 4)   # ln(1/6)
        -1.7918
        """
        i, j = check_pair(i, j, self.n)
        return self._log_score(i, j)

    def score(self, i: int, j: int) -> float:
        """``tr(W^T X^w_t)`` for the pair ``(i, j)`` (may be ``inf`` after huge promotions).

        Parameters
        ----------
        i, j : int
            The pair's vertices.

        Examples
        --------
        >>> import networkx as nx
        >>> from simpred_lite.learners import MatrixWinnow
        >>> round(MatrixWinnow(nx.cycle_graph(6), cut_size=2).score(0, 1), 4)   # W_0 = I/6
        0.1667
        """
        with np.errstate(over="ignore"):
            return float(np.exp(self.log_score(i, j)))

    def _learn(self, i: int, j: int, y: int, y_hat: int, path: Any) -> None:
        if y != y_hat:
            self._promote(i, j, self.eta * (y - y_hat))

    def _unit_instance(self, i, j):
        idx, val = self._geo.instance(i, j)
        val = val.astype(float)
        return idx, val * (1.0 / math.sqrt(float(np.dot(val, val))))


class MatrixWinnow(PrefetchHint, _MatrixWinnowCommon):
    """Algorithm 1's Matrix Winnow, exact, without ``O(m^3)`` work per trial.

    Instances only through kernel values (signed path overlaps on a BST), ``Q = V F^{-1}``
    with ``F`` the Cholesky factor of the Gram matrix of the independent mistaken instances,
    and the eigendecomposition of ``M`` refreshed only every few dozen mistakes (see Notes):
    ``O(r^2 + r p)`` per trial (its ``O(r^2)`` part read ahead in blocks on an announced
    sequence) and ``O(r p)`` per mistake (plus ``O(p^3)`` for a spectral bound), and one
    ``O(r^3)`` refresh per ``96`` mistakes.  :class:`LowRankMatrixWinnow` and
    :class:`MatrixWinnowReference` compute the same predictions with explicit matrices.

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (``Psi_B`` for a BST, as in Theorem 3).
    cut_size : number
        ``|Phi|`` of the labeling on the graph the learner runs on (``cut_size(G, labels)``,
        or ``bst.cut_size(labels)`` for a BST): the threshold needs it (the paper's footnote).
    eta : float, default 1.28
        Learning rate.

    Attributes
    ----------
    fallbacks : int
        Trials the quadrature bounds could not decide, decided by a refresh and the exact sum
        below.

    Notes
    -----
    With ``x = psi / sqrt(R_ij)`` (unit, so ``X^w_t = x x^T`` has trace 1) and
    ``z = Q^T x``, ``M = E diag(lam) E^T``, ``w = E^T z``,

        m * x^T W x = (1 - |z|^2) + sum_k exp(lam_k) w_k^2,

    and we compare ``log`` of it (a log-sum-exp) with ``log(m * threshold)``.

    The kernel form does not decompose ``M`` after every mistake.  It keeps the
    decomposition ``M0 = E0 diag(lam0) E0^T`` of the last refresh and the ``p < 96``
    rank-one updates since, so that in ``E0``'s basis ``M = diag(lam0) + U D U^T``
    (``U`` is ``r x p``, a product costs ``O(r p)``).  A trial runs Lanczos on that matrix
    from ``w = E0^T z``: after ``k`` steps Gauss quadrature gives a lower bound and
    Gauss–Radau, with its free node at an upper bound of the spectrum (``max lam0`` plus
    ``eta`` times the largest eigenvalue of the Gram matrix of the pending promotions, by
    Weyl), an upper bound of ``w^T exp(M) w`` (Golub–Meurant; every derivative of ``exp``
    is positive).  Usually one or two steps separate both bounds from the threshold; if
    they have not after 40 steps, the current ``M`` is decomposed (a refresh) and the exact
    sum decides, as in :class:`LowRankMatrixWinnow`.

    The decision is tie-safe rather than exact: the score is a sum of exponentials of
    eigenvalues of a matrix with entries in ``Q(eta, L^+)`` and the threshold is
    ``eta / (e^eta - e^-eta) / (R |Phi|)``; an exact equality would be a transcendental
    coincidence.  The float log-score is accurate to about ``1e-13`` (relative), and the
    tests perturb ``L^+`` by ``1e-12`` (relative) on symmetric graphs and find identical
    predictions over long adaptive runs, because genuine scores do not come that close to
    the threshold.  The quadrature path keeps that argument: it decides only when a bound
    clears the log-threshold by a band ``1e-9 + 64 u rho (r + 40)`` (``u = 2^-53``, ``rho``
    the bound on the spectral radius), far above the rounding of the bounds (a backward
    error of order ``u rho`` in ``M``, full reorthogonalisation in Lanczos) and of the
    exact sum; then the true score lies outside the band and every accurate evaluation,
    :class:`LowRankMatrixWinnow` and :class:`MatrixWinnowReference` included, decides the same.  Inside the
    band the fallback computes exactly what the eigendecomposition-per-mistake form
    computes.

    With an announced sequence (:meth:`prefetch`, which ``evaluate`` gives on a graph) the
    ``O(r^2)`` part of a trial, ``z0 = F0^{-T} b0`` and ``w0 = E0^T z0`` on the basis of the
    last refresh, is computed for :attr:`LOOKAHEAD` coming pairs at once (their kernel values
    with the first ``r0`` basis pairs are known in advance, and ``F0``, ``E0`` change only at
    a refresh): one triangular solve and one product with ``64`` right-hand sides, which read
    the ``r x r`` matrices once instead of once per trial; the basis vectors added since the
    refresh are solved per trial (``O(r (r - r0))``).  The same quantities, rounded in
    another order: inside the accuracy the tie-safety argument above allows for.

    Examples
    --------
    >>> import networkx as nx
    >>> learner = MatrixWinnow(nx.cycle_graph(6), cut_size=2)   # labels 0,0,0,1,1,1
    >>> round(learner.threshold, 4), learner.predict_one(0, 1)      # W_0 = I/6: 1/6 > threshold
    (0.1286, 1)
    >>> learner.learn_one(0, 1, 0); learner.predict_one(0, 1), round(learner.score(0, 1), 4)
    (0, 0.0463)
    """

    display_name = "Matrix Winnow"
    description = "Algorithm 1 on G (kernel form); its threshold needs |Phi|"
    #: Pairs of an announced sequence whose basis coordinates are computed together (0: one by one).
    LOOKAHEAD = 64

    def __init__(self, G: nx.Graph | BinarySupportTree, cut_size: Any = None, eta: float = 1.28) -> None:
        cut, eta = check_winnow_params(cut_size, eta)  # before any work on the graph
        super().__init__(make_kernel(G, "MatrixWinnow"), cut, eta)
        self._pairs = GrowingPairs()  # the basis pairs (independent mistaken instances)
        self._norms = np.zeros(16)  # their R_s = ||psi_s||^2 ([:r] used)
        # upper triangular F (Gram of the unit basis = F^T F) in [:r, :r] of a Fortran-ordered
        # buffer that doubles: a new basis vector writes one column, a solve reads [:, :r]
        self._Fbuf = np.zeros((16, 16), order="F")
        self._forest = Forest(self.n)
        self._lazy = LazyExponential()
        self._lanczos_steps = WINNOW_LANCZOS_STEPS
        self._zw_cache: tuple[tuple[int, int, int], tuple[np.ndarray, float, np.ndarray]] | None = None
        #: Trials the quadrature bounds left undecided (decided by a refresh and the exact sum).
        self.fallbacks = 0
        self._ahead: tuple[Any, ...] | None = None  # the coming pairs' basis coordinates (see _basis_coords)
        self._seq_pos = -1

    @property
    def rank(self) -> int:
        """``r``: the dimension of the span of the mistaken instances."""
        return self._lazy.r

    def _log_score(self, i: int, j: int) -> float:
        z = self._zw(i, j)[0]
        lazy = self._lazy
        if lazy.p == 0:
            return self._log_score_z(z)
        with one_blas_thread():
            lam, E = np.linalg.eigh(lazy.current())  # exact, without touching the state
        return self._log_score_z(z, lam, E.T @ z)

    def _predict(self, i: int, j: int, path: Any) -> int:
        with one_blas_thread():
            return self._kernel_predict(i, j)

    def _promote(self, i: int, j: int, step: float) -> None:
        with one_blas_thread():
            self._kernel_update(i, j, step)

    def _kernel_z(self, i, j):
        """``(z, R_ij, w)``: ``z = Q^T x`` with ``Q = V F^{-1}`` (``V`` the unit basis instances),
        ``F^T z = V^T x``, and ``w = z`` in the eigenbasis of the last refresh if the pair's
        coordinates were read ahead (:meth:`_basis_coords`), else ``None``."""
        t = None if self._sequence is None else self._locate(i, j)  # follow the sequence on every trial
        q, r = self._geo.inner(self._pairs, i, j, self._stream)
        r = float(r)
        k = q.size
        if k == 0:
            return np.zeros(0), r, None
        b = np.asarray(q, dtype=float) / np.sqrt(self._norms[:k] * r)
        ahead = None if t is None else self._basis_coords(t)
        if ahead is None:
            return _forward(self._Fbuf[:, :k], b), r, None
        z0, w0 = ahead
        r0 = z0.size
        if k == r0:
            return z0, r, w0
        # the basis vectors added since the refresh: F = [[F0, F01], [0, F11]]
        z1 = _forward(self._Fbuf[r0:k, r0:k], b[r0:] - self._Fbuf[:r0, r0:k].T @ z0)
        return np.concatenate([z0, z1]), r, np.concatenate([w0, z1])

    def _locate(self, i, j):
        """The position of ``(i, j)`` in the announced sequence: the current one again or the next."""
        assert self._sequence is not None
        I, J = self._sequence
        t = self._seq_pos
        if t >= 0 and I[t] == i and J[t] == j:
            return t
        t += 1
        if t < I.size and I[t] == i and J[t] == j:
            self._seq_pos = t
            return t
        return None

    def _basis_coords(self, t):
        """``(z0, w0)``: pair ``t`` of the sequence on the basis of the last refresh (``F0^{-T} b0``)
        and in its eigenbasis (``E0^T z0``), read ahead in blocks (``None`` if the kernel cannot).

        The first ``r0`` basis vectors, ``F0`` and ``E0`` change only at a refresh, and the
        kernel values of an announced pair with them are known in advance: the coordinates of
        the next :attr:`LOOKAHEAD` pairs are computed at once, one triangular solve and one
        product with ``LOOKAHEAD`` right-hand sides (each reads the ``r0 x r0`` matrices once
        instead of once per trial, BLAS-3 instead of BLAS-2).  The same quantities as the
        pair-by-pair solve, rounded in another order (see the Notes on tie-safety).
        """
        lazy = self._lazy
        r0 = lazy.r0
        if r0 == 0 or self.LOOKAHEAD <= 0:
            return None
        ah = self._ahead
        if ah is None or ah[0] != lazy.refreshes or not ah[1] <= t < ah[2]:
            ah = self._ahead = self._read_ahead(t)
        if ah[3] is None:
            return None
        c = t - ah[1]
        return ah[3][:, c], ah[4][:, c]

    def _read_ahead(self, t):
        lazy = self._lazy
        r0 = lazy.r0
        assert self._sequence is not None
        I, J = self._sequence
        hi = min(t + self.LOOKAHEAD, I.size)
        out = self._geo.inner_ahead(self._pairs, r0, I, J, t, hi, self._stream)
        if out is None:
            return (lazy.refreshes, t, hi, None, None)
        Q, R = out
        B = Q / np.sqrt(self._norms[:r0][None, :] * R[:, None])  # row by row as in _kernel_z
        Z0 = _forward(self._Fbuf[:, :r0], B.T)  # F0 in place: the leading r0 x r0 block
        return (lazy.refreshes, t, t + Q.shape[0], Z0, lazy.E.T @ Z0)

    def _zw(self, i, j):
        """``(z, R_ij, w)`` with ``w = z`` in the eigenbasis of the last refresh (cached per state)."""
        key = (i, j, self._lazy.version)
        if self._zw_cache is not None and self._zw_cache[0] == key:
            return self._zw_cache[1]
        z, r, w = self._kernel_z(i, j)
        if w is None:
            w = self._lazy.coords(z) if z.size else z
        out = (z, r, w)
        self._zw_cache = (key, out)
        return out

    def _log_score_z(self, z, lam=None, w=None):
        """The log-sum-exp of the exact score from an eigendecomposition (the last refresh's)."""
        lazy = self._lazy
        if lam is None:
            lam, w = lazy.lam, (lazy.E.T @ z if z.size else z)
        terms = lazy.exact_terms(w, lam)  # log of exp(lam_k) w_k^2: never overflows
        residual = 1.0 - float(np.dot(z, z))  # the part of x outside span(Q) keeps weight 1
        top = float(terms.max()) if terms.size else -math.inf
        if residual > 0.0:
            top = max(top, math.log(residual))
        if top == -math.inf:
            return -math.inf
        total = float(np.exp(terms - top).sum()) + (residual * math.exp(-top) if residual > 0.0 else 0.0)
        return top + math.log(total) - math.log(self.m)


    def _kernel_predict(self, i, j):
        z, _, w = self._zw(i, j)
        lazy = self._lazy
        if lazy.p == 0:  # the last refresh is current: the exact sum
            return int(self._log_score_z(z) > self._log_threshold)
        if not np.any(w):  # x is orthogonal to every mistake: the score is 1 - |z|^2 = 1
            return int(self._log_score_z(z, w, w) > self._log_threshold)
        residual = 1.0 - float(np.dot(z, z))
        verdict = lazy.certified_log(w, residual, math.log(self.m), self._log_threshold, self._lanczos_steps)
        if verdict is not None:
            return verdict
        self.fallbacks += 1  # too close to call from the bounds: refresh, then the exact sum
        lazy.refresh()
        return int(self._log_score_z(z) > self._log_threshold)

    def _kernel_update(self, i, j, step):
        z, r, w = self._zw(i, j)
        lazy = self._lazy
        if self._forest.find(i) != self._forest.find(j):  # independent of the basis (exactly)
            rho2 = 1.0 - float(np.dot(z, z))
            rho = math.sqrt(rho2) if rho2 > 0.0 else 0.0
            if rho > _SPAN_TOL:
                self._forest.union(i, j)
                k = self._pairs.k
                self._pairs.append(i, j, -1 if self._stream is None else self._stream.current(i, j))
                if k == self._Fbuf.shape[0]:
                    F = np.zeros((2 * k, 2 * k), order="F")
                    F[:k, :k] = self._Fbuf
                    self._Fbuf = F
                    self._norms = np.concatenate([self._norms, np.zeros(k)])
                self._norms[k] = r
                self._Fbuf[:k, k] = z
                self._Fbuf[k, k] = rho
                lazy.grow()
                z = np.append(z, rho)
                w = np.append(w, rho)
        lazy.add(z, w, step)



class LowRankMatrixWinnow(_MatrixWinnowCommon):
    """Matrix Winnow with an explicit ``m x r`` orthonormal basis ``Q`` and an ``eigh`` per mistake.

    The same predictions as :class:`MatrixWinnow` (tie-safe, see its Notes), written the
    direct way: the mistaken instances are orthonormalised into ``Q`` (two Gram–Schmidt
    passes), ``M`` (``r x r``) is updated and decomposed on every mistake, and the score is
    the log-sum-exp ``log((1 - |z|^2) + sum_k exp(lam_k) w_k^2) - log m`` with ``z = Q^T x``
    and ``w = E^T z``: ``O(m r)`` per trial and ``O(m r + r^3)`` per mistake.  Faster than
    :class:`MatrixWinnow` while ``r`` is small (a few hundred mistakes).

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (``Psi_B`` for a BST, as in Theorem 3).
    cut_size : number
        ``|Phi|`` of the labeling on the graph the learner runs on (``cut_size(G, labels)``,
        or ``bst.cut_size(labels)`` for a BST): the threshold needs it (the paper's footnote).
    eta : float, default 1.28
        Learning rate.

    Examples
    --------
    >>> import networkx as nx
    >>> learner = LowRankMatrixWinnow(nx.cycle_graph(6), cut_size=2)
    >>> learner.learn_one(0, 1, 0); learner.predict_one(0, 1), round(learner.score(0, 1), 4), learner.rank
    (0, 0.0463, 1)
    """

    display_name = "Matrix Winnow (low rank)"
    setting = "reference"
    description = "Algorithm 1 with an explicit m x r basis and an eigh per mistake"

    def __init__(self, G: nx.Graph | BinarySupportTree, cut_size: Any = None, eta: float = 1.28) -> None:
        cut, eta = check_winnow_params(cut_size, eta)
        what = "LowRankMatrixWinnow"
        alternative = "use MatrixWinnow (the kernel form), exact and without m x m matrices"
        geo = instance_geometry(G, what, None, alternative)
        super().__init__(geo, cut, eta)
        self._Q = np.zeros((self.m, 0))
        self._M = np.zeros((0, 0))
        self._lam = np.zeros(0)
        self._E = np.zeros((0, 0))

    @property
    def rank(self) -> int:
        """``r``: the dimension of the span of the mistaken instances (the columns of ``Q``)."""
        return self._M.shape[0]

    def _log_score(self, i: int, j: int) -> float:
        idx, x = self._unit_instance(i, j)
        return self._lowrank_log_score(idx, x)[0]

    def _predict(self, i: int, j: int, path: Any) -> int:
        idx, x = self._unit_instance(i, j)
        return int(self._lowrank_log_score(idx, x)[0] > self._log_threshold)

    def _promote(self, i: int, j: int, step: float) -> None:
        idx, x = self._unit_instance(i, j)
        with one_blas_thread():
            self._extend_and_update(idx, x, step)

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



class MatrixWinnowReference(_MatrixWinnowCommon):
    """The paper's Matrix Winnow: ``W = expm(log W)`` of an ``m x m`` matrix on every mistake.

    The plain reference of :class:`MatrixWinnow` and :class:`LowRankMatrixWinnow`
    (``m <= DENSE_WINNOW_EDGE_LIMIT`` edges; ``O(m^3)`` per mistake).

    Parameters
    ----------
    G : networkx.Graph or BinarySupportTree
        The known graph (``Psi_B`` for a BST, as in Theorem 3).
    cut_size : number
        ``|Phi|`` of the labeling on the graph the learner runs on (``cut_size(G, labels)``,
        or ``bst.cut_size(labels)`` for a BST): the threshold needs it (the paper's footnote).
    eta : float, default 1.28
        Learning rate.

    Examples
    --------
    >>> import networkx as nx
    >>> ref = MatrixWinnowReference(nx.cycle_graph(6), cut_size=2)
    >>> ref.learn_one(0, 1, 0); ref.predict_one(0, 1), round(ref.score(0, 1), 4), ref.rank
    (0, 0.0463, 1)
    """

    display_name = "Matrix Winnow (reference)"
    setting = "reference"
    description = "Algorithm 1 as printed: expm of an m x m matrix on every mistake"

    def __init__(self, G: nx.Graph | BinarySupportTree, cut_size: Any = None, eta: float = 1.28) -> None:
        cut, eta = check_winnow_params(cut_size, eta)
        geo = instance_geometry(G, "MatrixWinnowReference", DENSE_WINNOW_EDGE_LIMIT,
                                "use MatrixWinnow (the kernel form), exact and without m x m matrices")
        super().__init__(geo, cut, eta)
        self._logW = -math.log(self.m) * np.eye(self.m)
        self._W = np.eye(self.m) / self.m

    @property
    def rank(self) -> int:
        """``r``: the rank of ``log W - log W_0`` (the span of the mistaken instances)."""
        return int(np.linalg.matrix_rank(self._logW + math.log(self.m) * np.eye(self.m)))

    def _log_score(self, i: int, j: int) -> float:
        idx, x = self._unit_instance(i, j)
        with np.errstate(divide="ignore"):
            return float(np.log(x @ self._W[np.ix_(idx, idx)] @ x))

    def _predict(self, i: int, j: int, path: Any) -> int:
        idx, x = self._unit_instance(i, j)
        return int(float(x @ self._W[np.ix_(idx, idx)] @ x) > self.threshold)

    def _promote(self, i: int, j: int, step: float) -> None:
        idx, x = self._unit_instance(i, j)
        self._logW[np.ix_(idx, idx)] += step * np.outer(x, x)
        self._W = scipy.linalg.expm(self._logW)
