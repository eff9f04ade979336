"""Certified decisions of the matrix learners: exact where floats cannot decide (§3.2).

* :class:`PerceptronCertifier` makes the Matrix Perceptron's decision ``sum_s c_s q_s^2 > R^2``
  exact on a non-tree graph: a rigorous error bound on the float score, and rational
  arithmetic (:class:`~simpred_lite.exact.ExactLaplacian`) only inside the error band.
* :class:`LazyExponential` decides Matrix Winnow's ``w^T exp(A) w`` against its threshold
  from certified Gauss / Gauss–Radau quadrature bounds (Lanczos, :func:`log_quadrature`),
  without an eigendecomposition per mistake.
* :func:`one_blas_thread` runs the small dense linear algebra of both on one BLAS thread.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np
import scipy  # scipy.linalg (lapack) loads on first use, through scipy's lazy submodules

from ..exact import UNIT_ROUNDOFF, certified_compare, pinv_error_bound
from .kernels import DenseKernel, GrowingPairs, SparseKernel

# Building blocks of matrix_perceptron.py and matrix_winnow.py, not part of the package's interface.
__all__: list[str] = []

_BLAS_LIBS = None


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run small dense linear algebra on one BLAS thread.

    For the ``r x r`` eigendecompositions and products of the low-rank Winnow, BLAS threads
    cost far more than they save (on a loaded 2-core machine ``eigh`` of a 100 x 100 matrix
    took 70 ms threaded and 1 ms single-threaded, a product with a 1000 x 1000 matrix 4 ms
    and 0.5 ms).  The BLAS libraries are looked up once; entering and leaving costs a few
    microseconds, so it wraps every trial.
    """
    global _BLAS_LIBS
    if _BLAS_LIBS is None:
        try:
            from threadpoolctl import ThreadpoolController  # installed with scikit-learn

            _BLAS_LIBS = ThreadpoolController().select(user_api="blas").lib_controllers
        except ImportError:  # pragma: no cover - without threadpoolctl, just slower
            _BLAS_LIBS = []
    old = [lib.get_num_threads() for lib in _BLAS_LIBS]
    for lib, n in zip(_BLAS_LIBS, old):
        if n != 1:
            lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, n in zip(_BLAS_LIBS, old):
            if n != 1:
                lib.set_num_threads(n)


class PerceptronCertifier:
    """The Perceptron's decision ``sum_s c_s q_s^2 > R^2`` on a non-tree graph, made exact.

    Float kernel values ``q~_s`` carry an error ``E_s``: ``4 delta`` from the float ``L^+``
    (``delta`` = :func:`~simpred_lite.exact.pinv_error_bound`, computed once) plus
    ``gamma_2`` times the magnitudes subtracted.  Then ``|q~^2 - q^2| <= E (2|q~| + E)``,
    squaring rounds by ``u q~^2`` and the signed sum by ``gamma_k sum q~^2`` (any order).
    ``R~`` (the max of float resistances) is within ``4 delta + gamma_3 * 4 max|L^+|`` of
    ``R``.  If ``|score~ - R~^2|`` exceeds the sum of the bounds the float decides
    (:func:`~simpred_lite.exact.certified_compare`); otherwise one exact solve does.

    On the sparse kernel ``E_s = 2 e + gamma_2 * 2 max_v |g~_v|`` with ``e`` the residual
    bound on ``||g~ - g||_2`` of the trial's one solve (:meth:`~.kernels.SparseKernel.pair_error`)
    and ``R``'s bound from the certified solves of its candidate pairs
    (:meth:`~.kernels.SparseKernel.diameter_error`).
    """

    def __init__(self, kern: DenseKernel) -> None:
        self.kern = kern
        self.u = UNIT_ROUNDOFF
        u = self.u
        if isinstance(kern, SparseKernel):
            self.delta = None  # per-pair residual bounds instead (SparseKernel.pair)
            E_R = kern.R_error
        else:
            # from the kernel's current L^+ (computed once per L^+ array, shared by the learners
            # on one kernel; a test that swaps in a perturbed L^+ gets its bound afresh)
            if kern._pinv_error_of is not kern.Lp or kern._pinv_error is None:
                kern._pinv_error, kern._R_error = pinv_error_bound(kern.graph, kern.Lp), None
                kern._pinv_error_of = kern.Lp
            self.delta = kern._pinv_error
            E_R = kern.diameter_error()
        R = float(kern.R)
        self.E_R = E_R
        self.E_R2 = (E_R * (2 * R + E_R) + u * R * R) * (1 + 8 * u)
        self.fallbacks = 0  # exact recomputations so far (ties, in practice)

    def _kernel_errors(self, i, j, pairs, stream=None):
        u = self.u
        g2 = 2 * u / (1 - 2 * u)
        kern = self.kern
        if self.delta is not None:
            w = (np.abs(kern.Lp[i]) + np.abs(kern.Lp[j])) * (1 + 2 * u)
            return 4 * self.delta + g2 * (w[pairs.a] + w[pairs.b]) * (1 + 2 * u)
        # sparse: g = grounded potential of e_i - e_j with a rigorous bound on ||g~ - g||_2 from
        # its residual (SparseKernel.pair_error, computed once per pair and shared; from the
        # block solves of a prefetched sequence when there is one), and |g~_a| + |g~_b| <= 2 max|g~|
        assert isinstance(kern, SparseKernel)
        err_g, gmax = kern.pair_error(pairs, i, j, stream)
        return np.full(pairs.k, 2 * err_g + g2 * 2 * gmax * (1 + 2 * u))

    def bound(self, i: int, j: int, q: np.ndarray, c: np.ndarray, pairs: GrowingPairs, stream: Any = None) -> float:
        """A rigorous bound on ``|score~ - score|`` for the current pair."""
        k = q.size
        if k == 0:
            return 0.0
        u = self.u
        E = self._kernel_errors(i, j, pairs, stream)
        aq = np.abs(q)
        gk = k * u / (1 - k * u)
        sq = float(np.dot(aq, aq))
        total = float(np.dot(E, 2 * aq + E)) + u * sq + gk * sq * (1 + u)
        return total * (1 + (k + 4) * u) * 1.0000001

    def decide(self, i: Any, j: Any, q: Any, c: Any, pairs: Any, stream: Any = None) -> int:
        s = float(np.dot(c, q * q))
        R2 = float(self.kern.R) ** 2
        verdict = certified_compare(s, R2, self.bound(i, j, q, c, pairs, stream) + self.E_R2)
        if verdict is not None:
            return verdict
        self.fallbacks += 1
        return int(self.exact_score(i, j, c, pairs) > self.exact_R2())

    def _exact_laplacian(self):
        return self.kern.exact_laplacian()  # ExactTooLargeError (a RuntimeError) beyond its limits

    def exact_score(self, i: int, j: int, c: np.ndarray, pairs: GrowingPairs) -> Fraction:
        b = np.zeros(self.kern.n, dtype=np.int64)
        b[i], b[j] = 1, -1
        # exact potentials only where the score needs them: the ends of the mistaken pairs
        pot = self._exact_laplacian().potentials_at(b, np.r_[pairs.a, pairs.b].tolist())
        total = Fraction(0)
        for a, bb, cs in zip(pairs.a.tolist(), pairs.b.tolist(), c.tolist()):
            qs = pot[a] - pot[bb]
            total += cs * qs * qs
        return total

    def exact_R2(self) -> Fraction:
        return self.kern.exact_R2()


# Pending rank-one updates after which Matrix Winnow refreshes its eigendecomposition (on the
# 1000-vertex BST benchmark 64-128 is fastest: fewer O(r^3) refreshes vs O(r p) products).
WINNOW_REFRESH = 96
# Lanczos steps after which an undecided Matrix Winnow trial falls back to the exact evaluation.
WINNOW_LANCZOS_STEPS = 40
# The Lanczos steps at which the quadrature bounds are evaluated (two tiny eigh each).
_WINNOW_CHECKS = frozenset([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 26, 30, 35, 40, 48, 56, 64])


def log_quadrature(alpha: np.ndarray, beta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """``(log e_1^T exp(T) e_1, theta, Y)`` for the symmetric tridiagonal ``T(alpha, beta)``."""
    k = alpha.size
    if k == 1:
        return float(alpha[0]), alpha[:1].copy(), np.ones((1, 1))
    theta, Y, info = scipy.linalg.lapack.dstev(alpha, beta, compute_v=1)
    if info != 0:  # pragma: no cover - the QL iteration of a tiny tridiagonal converges
        raise np.linalg.LinAlgError(f"dstev failed (info={info})")
    y2 = Y[0] ** 2
    keep = y2 > 0.0
    terms = theta[keep] + np.log(y2[keep])
    top = float(terms.max())
    return top + math.log(float(np.exp(terms - top).sum())), theta, Y


class LazyExponential:
    """``w^T exp(A) w`` decisions for ``A = M0 + sum_i d_i z_i z_i^T`` without an ``eigh`` per update.

    ``M0 = E0 diag(lam0) E0^T`` is the matrix at the last *refresh* (one ``eigh``); the
    ``p`` updates since are kept *pending*.  In the coordinates of ``E0`` (extended by the
    identity on basis directions added since), the current matrix is
    ``A = diag(lam0, 0) + U D U^T`` with ``U = [E0^T z_1, ..., E0^T z_p]`` (``r x p``): a
    product with ``A`` costs ``O(r p)``.  A trial runs Lanczos on ``A`` from ``w = E0^T z``;
    after ``k`` steps, Gauss quadrature ``|w|^2 e_1^T exp(T_k) e_1`` is a lower bound of
    ``w^T exp(A) w`` and Gauss–Radau with the node prescribed at an upper bound ``b`` of the
    spectrum of ``A`` is an upper bound (every derivative of ``exp`` is positive: Golub and
    Meurant, *Matrices, Moments and Quadrature*, Thm. 6.3/6.4).  ``b`` is
    ``max(lam0, 0) + eta * lambda_max(Gram of the promoted u_i)`` (Weyl; demotions only
    lower the spectrum).  The bounds are evaluated in the log domain, shifted by their
    largest Ritz value, so that huge exponents never overflow.

    Every ``refresh_every`` updates (and on a fallback) the current matrix is formed from
    ``M0`` and the pending terms and decomposed afresh: no factor is ever updated
    incrementally, so nothing drifts over thousands of mistakes.
    """

    def __init__(self, refresh_every: int = WINNOW_REFRESH):
        self.refresh_every = int(refresh_every)
        self.r = 0  # current dimension
        self.r0 = 0  # dimension at the last refresh
        self._M = np.zeros((16, 16))  # [:r0, :r0] is M0 (rows/columns beyond are zero)
        self.lam = np.zeros(0)
        self.E = np.zeros((0, 0))
        J = self.refresh_every
        self._Z = np.zeros((16, J))  # pending z_i (raw coordinates), zero below their length
        self._U = np.zeros((16, J))  # pending E0^T z_i (extended coordinates)
        self._d = np.zeros(J)
        self._G = np.zeros((J, J))  # Gram matrix of the pending u_i
        self.p = 0
        # (upper, lower) bounds of the spectrum, None when stale
        self._bounds: tuple[float, float] | None = (0.0, 0.0)
        self.refreshes = 0
        self.version = 0  # changes whenever coordinates or the matrix do
        self.products = 0  # Lanczos products with A so far

    def grow(self) -> None:
        """Add one basis direction (a zero row and column of the matrix)."""
        if self.r == self._M.shape[0]:
            cap = 2 * self.r
            M = np.zeros((cap, cap))
            M[: self.r, : self.r] = self._M[: self.r, : self.r]
            self._M = M
            for name in ("_Z", "_U"):
                old = getattr(self, name)
                new = np.zeros((cap, old.shape[1]))
                new[: self.r] = old[: self.r]
                setattr(self, name, new)
        self.r += 1
        self.version += 1
        self._bounds = None

    def coords(self, z: np.ndarray) -> np.ndarray:
        """``w``: ``z`` in the extended eigenbasis of ``M0``."""
        r0 = self.r0
        if r0 == z.size:
            return self.E.T @ z
        return np.concatenate([self.E.T @ z[:r0], z[r0:]])

    def add(self, z: np.ndarray, w: np.ndarray, step: float) -> None:
        """Record ``A += step * z z^T`` (``w = coords(z)``); refresh when enough are pending."""
        p, r = self.p, self.r
        if p == self._Z.shape[1]:  # refresh_every was raised: more pending columns
            self._Z = np.concatenate([self._Z, np.zeros_like(self._Z)], axis=1)
            self._U = np.concatenate([self._U, np.zeros_like(self._U)], axis=1)
            self._d = np.concatenate([self._d, np.zeros_like(self._d)])
            G = np.zeros((2 * p, 2 * p))
            G[:p, :p] = self._G
            self._G = G
        self._Z[:r, p] = z
        self._U[:r, p] = w
        self._d[p] = step
        g = self._U[:r, : p + 1].T @ w
        self._G[p, : p + 1] = g
        self._G[: p + 1, p] = g
        self.p = p + 1
        self.version += 1
        self._bounds = None
        if self.p >= self.refresh_every:
            self.refresh()

    def _spectral_bounds(self) -> tuple[float, float]:
        if self._bounds is None:  # computed once per state, when a trial needs it
            self._bounds = (self._spread(True), self._spread(False))
        return self._bounds

    @property
    def top(self) -> float:
        """An upper bound of the spectrum of the current matrix."""
        return self._spectral_bounds()[0]

    @property
    def bottom(self) -> float:
        """A lower bound of the spectrum of the current matrix."""
        return self._spectral_bounds()[1]

    def _spread(self, upper: bool) -> float:
        """A bound of the largest (``upper``) or smallest eigenvalue of the current ``A``."""
        lam = self.lam
        ext = 0.0 if self.r > self.r0 or lam.size == 0 else None
        base = (float(lam.max()) if upper else float(lam.min())) if lam.size else 0.0
        if ext is not None:
            base = max(base, ext) if upper else min(base, ext)
        p = self.p
        sel = (self._d[:p] > 0) if upper else (self._d[:p] < 0)
        extra = 0.0
        if sel.any():
            Gs = self._G[:p, :p][np.ix_(sel, sel)]
            extra = float(np.abs(self._d[:p][sel]).max()) * float(np.linalg.eigvalsh(Gs)[-1])
        scale = abs(base) + extra + 1.0
        slack = 64 * UNIT_ROUNDOFF * (self.r + p + 1) * scale + 1e-12 * scale
        return base + extra + slack if upper else base - extra - slack

    def current(self) -> np.ndarray:
        """The current matrix ``M0 + sum_i d_i z_i z_i^T`` (``r x r``, a new array)."""
        r, p = self.r, self.p
        M = self._M[:r, :r].copy()
        if p:
            Z = self._Z[:r, :p]
            M += (Z * self._d[:p]) @ Z.T
        return M

    def refresh(self) -> None:
        """Fold the pending updates into ``M0`` and decompose it (``O(r^3)``)."""
        r, p = self.r, self.p
        M = self.current()
        self._M[:r, :r] = M
        self.lam, self.E = np.linalg.eigh(M)
        self._Z[:r, :p] = 0.0
        self._U[:r, :p] = 0.0
        self.p = 0
        self.r0 = r
        self.refreshes += 1
        self.version += 1
        self._bounds = None

    def exact_terms(self, w: np.ndarray, lam: Any = None) -> np.ndarray:
        """``lam_k + log w_k^2`` over ``w_k != 0``: the log of each term of ``w^T exp(M0) w``."""
        lam = self.lam if lam is None else lam
        w2 = np.square(w)
        keep = w2 > 0.0
        return lam[keep] + np.log(w2[keep])

    def certified_log(self, w: np.ndarray, residual: float, log_scale: float, log_threshold: float,
                      steps: int = WINNOW_LANCZOS_STEPS) -> int | None:
        """Decide ``log(residual + w^T exp(A) w) - log_scale > log_threshold`` from quadrature bounds.

        Returns ``1`` or ``0`` once the certified lower bound exceeds the threshold, or the
        upper bound falls below it, by more than the tie band; ``None`` if neither happens
        within ``steps`` Lanczos steps.
        """
        r, p = self.r, self.p
        lam = self.lam if self.r0 == r else np.concatenate([self.lam, np.zeros(r - self.r0)])
        U = self._U[:r, :p]
        d = self._d[:p]
        rho = max(abs(self.top), abs(self.bottom), 1.0)
        band = 1e-9 + 64 * UNIT_ROUNDOFF * rho * (r + steps)
        beta0 = float(np.linalg.norm(w))
        res = residual if residual > 0.0 else 0.0
        log_res = math.log(res) if res > 0.0 else -math.inf
        b = self.top
        V = np.empty((steps + 1, r))
        alpha = np.empty(steps)
        beta = np.empty(steps)
        V[0] = w / beta0
        for k in range(steps):
            v = V[k]
            u = lam * v + U @ (d * (U.T @ v))
            self.products += 1
            a = float(v @ u)
            u -= a * v
            if k:
                u -= beta[k - 1] * V[k - 1]
            Vk = V[: k + 1]
            u -= Vk.T @ (Vk @ u)  # full reorthogonalisation (twice is enough)
            u -= Vk.T @ (Vk @ u)
            nb = float(np.linalg.norm(u))
            alpha[k], beta[k] = a, nb
            invariant = nb <= 1e-13 * rho
            if not invariant and (k + 1) not in _WINNOW_CHECKS and k + 1 < steps:
                V[k + 1] = u / nb
                continue
            g, theta, Y = log_quadrature(alpha[: k + 1], beta[:k])
            lo = self._combine(log_res, 2 * math.log(beta0) + g) - log_scale
            if invariant:
                hi = lo  # an invariant Krylov space: the quadrature is exact
            else:
                # Gauss-Radau: append the node b, alpha_hat = b + beta_k^2 [(T_k - b)^-1]_kk
                gap = theta - b
                if np.any(gap >= 0.0):
                    return None  # the spectral bound is violated by rounding: do not trust it
                a_hat = b + nb * nb * float(np.sum(Y[-1] ** 2 / gap))
                alpha_r = np.append(alpha[: k + 1], a_hat)
                gr, _, _ = log_quadrature(alpha_r, beta[: k + 1])
                hi = self._combine(log_res, 2 * math.log(beta0) + gr) - log_scale
            if lo > log_threshold + band:
                return 1
            if hi < log_threshold - band:
                return 0
            if invariant or k + 1 == steps:
                return None
            V[k + 1] = u / nb
        return None

    @staticmethod
    def _combine(log_a: float, log_b: float) -> float:
        top = max(log_a, log_b)
        if top == -math.inf:
            return top
        return top + math.log(math.exp(log_a - top) + math.exp(log_b - top))
