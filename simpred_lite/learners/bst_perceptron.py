"""The Matrix Perceptron on a Binary Support Tree in ``O(log^2 n)`` per trial (§4.1).

The learner keeps a symmetric integer matrix ``F`` over the vertices of the BST ``B``.  On
trial ``t`` the pair's leaves ``i_t, j_t`` are joined by the path ``P_t`` (at most
``2 log2 N + 1`` vertices).  The tags ``f_t`` number the path ``1, 2, ..., |P_t|`` and
give each neighbour of the path the tag of its neighbour on the path;
``S_t = N_t \\ (P_t \\ {i_t, j_t})`` is the set of off-path neighbours plus the two endpoints.

* predict ``1`` iff  ``sum_{l, l' in P_t} F[l, l'] > 2 R^2``,  ``R = 2 log2 N``;
* on a mistake, for every ``l, l'`` in ``S_t``:  ``F[l, l'] += (y - y_hat) (f_t(l) - f_t(l'))^2``
  (the paper's ``(2y - 1)``, which equals ``y - y_hat`` on mistaken trials).

**The constant.**  Let ``psi_s`` be the signed path indicator of mistaken trial ``s`` (the
instance of Algorithm 1 on ``Psi_B``).  By Lemma 12 the potentials
``(L_B^+)(e_{j_s} - e_{i_s})`` are constant, equal to ``f_s(l)``, on the region
``Lambda_s(l)`` hanging from each ``l`` in ``S_s``, so
``psi_s^T psi_t = f_s(l) - f_s(l')`` where ``l, l'`` are the vertices of ``S_s`` through which
``P_t`` enters and leaves those regions; by Lemma 13 ``P_t`` meets ``S_s`` in at most
these two vertices (and ``psi_s^T psi_t = 0`` when it meets fewer).  Hence mistake ``s``
contributes to the double sum over *ordered* pairs of ``P_t`` twice — once as
``F[l, l']`` and once as ``F[l', l]`` — and

    sum_{l, l' in P_t} F[l, l']  =  2 sum_s (y_s - y_hat_s) (psi_s^T psi_t)^2  =  2 tr(W^T X_t).

So the rule is Algorithm 1's ``tr(W^T X_t) > R^2`` exactly when the ordered sum is compared
with ``2 R^2 = 8 log2^2 N`` (the paper prints ``>= 4 log^2 n``, i.e. half the threshold and
``>=`` instead of ``>``).  The update (equation (5)) itself is exact.  The code stores each
unordered pair once and doubles the sum.

**Lazy F.**  ``F`` holds only the entries ``F[l, l']`` (``l < l'``) that a mistake has touched
(``O(log^2 n)`` new entries per mistake); an absent entry is zero.  Construction is ``O(n)``
(the leaf map) and never the ``O(n^2)`` of a dense matrix: this plays the role of the paper's
per-vertex growing subtrees (Theorem 4), with a hash table in place of the subtree.

**Compiled.**  The table is two numpy arrays (keys ``l * 2N + l'`` and their integer values,
open addressing), and the path sum and the update are loops compiled by numba over them, so
a trial costs a few microseconds of machine code instead of hundreds of dictionary look-ups
in the interpreter.  The arithmetic is 64-bit integer (an entry changes by at most
``(2 log2 N)^2`` per mistake), so the predictions are those of exact integers on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import networkx as nx
import numba
import numpy as np

from ..bst import BinarySupportTree, heap_path
from ..checks import check_int
from .base import SimilarityLearner, check_pair
from .bounds import bst_perceptron_mistake_bound

__all__ = ["TrialStructure", "trial_structure", "extended_tags", "BSTPerceptron"]

# -- the compiled kernels: F as an open-addressing hash table in one numpy array ----------------
# Row h of ``table`` is a slot: (key, value).  The key of the unordered pair l < l' (heap indices
# below 2N) is l * 2N + l'; an empty slot has key -1.  Fibonacci hashing (multiply by 2^64 over
# the golden ratio, keep the top bits), linear probing; key and value side by side, so a probe
# reads one cache line.
_EMPTY = -1
_INITIAL_SLOTS = 1 << 10
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@numba.njit(cache=True, nogil=True)
def _slot(table, key, shift):
    """The slot of ``key``: where it is stored, or the empty slot that ends its probe."""
    mask = table.shape[0] - 1
    h = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(shift))
    while True:
        k = table[h, 0]
        if k == key or k == _EMPTY:
            return h
        h = (h + 1) & mask


@numba.njit(cache=True, nogil=True, inline="always")
def _get(table, p, q, width, shift):
    key = p * width + q if p < q else q * width + p
    h = _slot(table, key, shift)
    return table[h, 1] if table[h, 0] == key else 0


@numba.njit(cache=True, nogil=True)
def _path_sum_kernel(a, b, width, table, shift):
    """``sum_{l, l' in P} F[l, l']`` over ordered pairs of the path between leaves ``a != b``.

    The path is ``a >> t`` and ``b >> t`` for ``t < k`` and their ancestor ``a >> k``; its
    pairs are enumerated from the shifts, without building it.
    """
    k = 0
    while (a >> k) != (b >> k):
        k += 1
    lca = a >> k
    total = 0
    for t in range(k):
        p, q = a >> t, b >> t
        total += _get(table, p, lca, width, shift) + _get(table, q, lca, width, shift)
        for r in range(t + 1, k):  # the same side, higher up
            total += _get(table, p, a >> r, width, shift) + _get(table, q, b >> r, width, shift)
        for r in range(k):  # the other side
            total += _get(table, p, b >> r, width, shift)
    return 2 * total


@numba.njit(cache=True, nogil=True)
def _update_kernel(a, b, sign, width, table, shift):
    """Add ``sign (f(l) - f(l'))^2`` to ``F[l, l']`` for ``l < l'`` in ``S``; the number of new keys.

    ``S`` and the tags ``f`` as in :func:`_structure`: with ``k`` edges from each leaf up to the
    lowest common ancestor, the leaf ``a`` has tag 1, the ``s``-th vertex above it ``s + 1``, the
    ancestor ``k + 1``, and the path goes down to ``b`` with tags up to ``2k + 1``; each off-path
    neighbour takes the tag of its neighbour on the path.
    """
    S = np.empty(128, dtype=np.int64)  # |S| <= 2 log2 N + 1 <= 127 for any int64 heap index
    f = np.empty(128, dtype=np.int64)
    k = 0
    while (a >> k) != (b >> k):
        k += 1
    lca = a >> k
    m = 0
    for s in range(1, k):  # up[s - 1] = a >> (s - 1), down[s - 1] = b >> (s - 1)
        S[m] = (a >> (s - 1)) ^ 1
        f[m] = s + 1  # the tag of up[s]
        S[m + 1] = (b >> (s - 1)) ^ 1
        f[m + 1] = 2 * k + 1 - s  # the tag of down[s]
        m += 2
    if lca != 1:
        S[m] = lca >> 1
        f[m] = k + 1
        m += 1
    S[m] = a
    f[m] = 1
    S[m + 1] = b
    f[m + 1] = 2 * k + 1
    m += 2
    new = 0
    for x in range(m):
        p = S[x]
        for y in range(x + 1, m):
            q = S[y]
            key = p * width + q if p < q else q * width + p
            h = _slot(table, key, shift)
            if table[h, 0] == _EMPTY:
                table[h, 0] = key
                table[h, 1] = 0
                new += 1
            dt = f[x] - f[y]
            table[h, 1] += sign * dt * dt
    return new


@numba.njit(cache=True, nogil=True)
def _rehash_kernel(table, new_table, shift):
    for h in range(table.shape[0]):
        key = table[h, 0]
        if key != _EMPTY:
            g = _slot(new_table, key, shift)
            new_table[g, 0] = key
            new_table[g, 1] = table[h, 1]


@dataclass(frozen=True)
class TrialStructure:
    """What §4.1 builds on a trial: the path ``P_t``, the set ``S_t`` and the tags ``f_t``.

    Attributes
    ----------
    path : tuple of int
        Heap indices of ``P_t`` from leaf ``i_t`` to leaf ``j_t``.
    S : tuple of int
        Heap indices of ``S_t`` (off-path neighbours of ``P_t``, then ``i_t`` and ``j_t``).
    tags : dict
        ``f_t`` on ``P_t`` and on its neighbours.
    """

    path: tuple[int, ...]
    S: tuple[int, ...]
    tags: dict


def _structure(a: int, b: int) -> TrialStructure:
    """``P_t``, ``S_t`` and ``f_t`` for the leaves ``a != b`` (heap indices)."""
    path = heap_path(a, b)
    k = len(path) // 2  # edges from each leaf to the lowest common ancestor path[k]
    up, down = path[: k + 1], path[::-1][: k + 1]  # leaf a (resp. b) up to the ancestor
    tags = {v: s for s, v in enumerate(path, start=1)}
    S = []
    for s in range(1, k):  # interior vertices on both sides: the child not on the path
        S.append(up[s - 1] ^ 1)
        tags[up[s - 1] ^ 1] = tags[up[s]]
        S.append(down[s - 1] ^ 1)
        tags[down[s - 1] ^ 1] = tags[down[s]]
    lca = up[k]
    if lca != 1:  # the lowest common ancestor's parent hangs off the path
        S.append(lca // 2)
        tags[lca // 2] = tags[lca]
    S += [up[0], down[0]]
    return TrialStructure(tuple(path), tuple(S), tags)


def trial_structure(bst: BinarySupportTree, i: int, j: int) -> TrialStructure:
    """``P_t``, ``S_t`` and the tags ``f_t`` of §4.1 for the pair of graph vertices ``(i, j)``.

    Parameters
    ----------
    bst : BinarySupportTree
    i, j : int
        The pair, as vertices of the graph.

    Examples
    --------
    >>> B = BinarySupportTree(list(range(8)))
    >>> st = trial_structure(B, 1, 4)          # leaves 9 and 12
    >>> st.path
    (9, 4, 2, 1, 3, 6, 12)
    >>> sorted(st.S), [st.tags[v] for v in sorted(st.S)]
    ([5, 7, 8, 9, 12, 13], [3, 5, 2, 1, 7, 6])
    """
    i, j = check_pair(i, j, bst.n)
    return _structure(bst.leaf(i), bst.leaf(j))


def extended_tags(bst: BinarySupportTree, structure: TrialStructure) -> np.ndarray:
    """The tags ``f~_t`` of Lemma 12 on every vertex of ``B`` (index = heap index).

    Interior path vertices keep their tag; every vertex of the region ``Lambda_t(l)`` (the
    largest subtree through ``l`` in ``S_t`` avoiding the interior of ``P_t``) gets ``f_t(l)``.
    Claim 1: ``L_B f~_t = e_{j_t} - e_{i_t}``, so ``f~_t`` is the potential of the unit flow
    from ``j_t`` to ``i_t`` (up to a constant).  ``O(n)``: for teaching and tests.

    Parameters
    ----------
    bst : BinarySupportTree
    structure : TrialStructure
        The trial's path, ``S_t`` and tags (:func:`trial_structure`).

    Examples
    --------
    >>> B = BinarySupportTree(list(range(4)))
    >>> extended_tags(B, trial_structure(B, 0, 1)).tolist()   # leaves 4, 5 under vertex 2
    [0, 2, 2, 2, 1, 3, 2, 2]
    """
    N = bst.num_leaves
    f = np.zeros(2 * N, dtype=np.int64)
    interior = set(structure.path[1:-1])
    for v in interior:
        f[v] = structure.tags[v]
    for l in structure.S:
        stack, seen = [l], {l}
        while stack:
            v = stack.pop()
            f[v] = structure.tags[l]
            nbrs = ([v // 2] if v > 1 else []) + ([2 * v, 2 * v + 1] if v < N else [])
            for w in nbrs:
                if w not in interior and w not in seen:
                    seen.add(w)
                    stack.append(w)
    return f


class BSTPerceptron(SimilarityLearner):
    """Matrix Perceptron on ``Psi_B`` in ``O(log^2 n)`` per trial (§4.1, Theorem 4).

    Makes exactly the predictions of ``MatrixPerceptron(bst)`` (Algorithm 1 on the BST with
    threshold ``R^2 = (2 log2 N)^2``, ``N`` the number of leaves after padding); see the
    module docstring for why the ordered-pair sum is compared with ``2 R^2``.

    Exact: the path sums and the threshold are Python integers, so every decision (ties
    included) is the same on every machine.

    Parameters
    ----------
    bst : BinarySupportTree
        The tree; pairs are vertices ``0 .. n-1`` of the original graph.
    threshold : int, optional
        For experiments only, a non-negative integer (the path sums are integers).
        Default ``2 R^2``, the value equivalent to Algorithm 1.
    strict : bool, default True
        Compare with ``>`` (Algorithm 1).  ``threshold=4 * bst.depth**2, strict=False`` is the
        rule as printed in equation (4), which is *not* equivalent.

    Attributes
    ----------
    threshold : int
        ``2 R^2 = 8 (log2 N)^2``, compared (strictly) with the ordered-pair sum.
    entries : int
        Number of stored (unordered, nonzero-touched) entries of ``F``.

    Examples
    --------
    >>> B = BinarySupportTree([0, 1, 2, 3])
    >>> learner = BSTPerceptron(B)
    >>> learner.threshold
    32
    >>> learner.learn_one(0, 3, 1); learner.path_sum(0, 3), learner.path_sum(1, 2)
    (32, 8)
    """

    display_name = "BST Perceptron"
    needs_graph = True
    description = "the O(log^2 n) Matrix Perceptron on a Binary Support Tree (§4.1)"
    bound_text = "R^2 ||U_B||_F^2 for its own BST (Proposition 2 on B)"

    @classmethod
    def for_graph(cls, G, seed=0, labels=None):
        """The learner on the BST of a random spanning tree of ``G`` drawn with ``seed``."""
        return cls.from_graph(G, seed)

    def mistake_bound(self, G, labels):
        """``R^2 ||U_B||_F^2`` on its own BST (:func:`~simpred_lite.learners.bounds.bst_perceptron_mistake_bound`);
        None with a threshold other than Algorithm 1's."""
        if self.threshold != 2 * self.R**2 or not self.strict:
            return None
        return bst_perceptron_mistake_bound(self.bst, labels)

    def __init__(self, bst: BinarySupportTree, *, threshold: int | None = None, strict: bool = True):
        if not isinstance(bst, BinarySupportTree):
            raise TypeError(
                f"BSTPerceptron takes a BinarySupportTree, got {type(bst).__name__}; "
                "from a graph use BSTPerceptron.from_graph(G, seed)"
            )
        super().__init__(bst.n)
        self.bst = bst
        N = bst.num_leaves
        leaf_of = np.empty(bst.n, dtype=np.int64)
        leaf_of[bst.order] = N + np.arange(bst.n)
        self._leaf = leaf_of.tolist()
        self.R = 2 * bst.depth
        self.threshold = 2 * self.R**2 if threshold is None else check_int(threshold, "threshold", low=0)
        if not isinstance(strict, (bool, np.bool_)):
            raise TypeError(f"strict must be True (compare with >) or False (>=), got {strict!r}")
        self.strict = bool(strict)
        # F, lazily: the touched entries F[l, l'] with l < l' (F is symmetric with a zero
        # diagonal, so the upper triangle is all of it), in a hash table that doubles when a quarter full.
        self._width = 2 * N
        self._entries = 0
        self._alloc(_INITIAL_SLOTS)

    def _alloc(self, slots: int) -> None:
        self._table = np.zeros((slots, 2), dtype=np.int64)
        self._table[:, 0] = _EMPTY
        self._shift = 64 - (slots.bit_length() - 1)

    @classmethod
    def from_graph(cls, G: nx.Graph, seed, root: int = 0) -> BSTPerceptron:
        """Build the BST of ``G`` (random spanning tree drawn with ``seed``) and the learner.

        Examples
        --------
        >>> BSTPerceptron.from_graph(nx.cycle_graph(5), seed=0).bst.num_leaves
        8
        """
        return cls(BinarySupportTree.from_graph(G, seed, root=root))

    @property
    def entries(self) -> int:
        """Number of stored entries of ``F`` (each unordered pair once)."""
        return self._entries

    def F(self, l1: int, l2: int) -> int:
        """The entry ``F[l1, l2]`` (heap indices; symmetric, zero on the diagonal)."""
        a, b = (int(l1), int(l2)) if l1 <= l2 else (int(l2), int(l1))
        if a == b:
            return 0
        key = a * self._width + b
        h = _slot(self._table, key, self._shift)
        return int(self._table[h, 1]) if self._table[h, 0] == key else 0

    def path_sum(self, i: int, j: int) -> int:
        """``sum_{l, l' in P_t} F[l, l']`` over ordered pairs (``= 2 tr(W^T X_t)``)."""
        i, j = check_pair(i, j, self.n)
        return self._path_sum(i, j)

    def _path_sum(self, i: int, j: int) -> int:
        return int(_path_sum_kernel(self._leaf[i], self._leaf[j], self._width, self._table, self._shift))

    def explain(self, i: int, j: int) -> dict:
        """Everything the learner computes to predict the pair ``(i, j)``, without learning.

        Parameters
        ----------
        i, j : int
            Two distinct vertices of the graph.

        Returns
        -------
        dict
            ``leaves`` (the heap indices of ``i`` and ``j``), ``path`` (``P_t``), ``S``
            (``S_t``, sorted), ``tags`` (``f_t`` on ``P_t`` and ``S_t``), ``path_sum`` (the
            ordered-pair sum of ``F`` over ``P_t``, ``= 2 tr(W^T X_t)``), ``threshold``,
            ``comparison`` (``">"`` or ``">="``) and ``prediction`` (``1`` dissimilar,
            ``0`` similar), plus ``update``: the values ``(f_t(l) - f_t(l'))^2`` that a
            mistake adds (times ``y - y_hat``) to ``F[l, l']`` for ``l < l'`` in ``S_t``.

        Examples
        --------
        >>> learner = BSTPerceptron(BinarySupportTree([0, 1, 2, 3]))
        >>> e = learner.explain(0, 3)
        >>> e["path"], e["path_sum"], e["threshold"], e["prediction"]
        ((4, 2, 1, 3, 7), 0, 32, 0)
        >>> learner.learn_one(0, 3, 1); learner.explain(0, 3)["path_sum"]
        32
        """
        i, j = check_pair(i, j, self.n)
        st = _structure(self._leaf[i], self._leaf[j])
        s = self._path_sum(i, j)
        S = sorted(st.S)
        update = {(a, b): (st.tags[a] - st.tags[b]) ** 2 for a, b in combinations(S, 2)}
        return {"leaves": (self._leaf[i], self._leaf[j]), "path": st.path, "S": tuple(S), "tags": dict(st.tags),
                "path_sum": s, "threshold": self.threshold, "comparison": ">" if self.strict else ">=",
                "prediction": self._predict(i, j, None), "update": update}

    def _predict(self, i, j, path):
        s = _path_sum_kernel(self._leaf[i], self._leaf[j], self._width, self._table, self._shift)
        return int(s > self.threshold if self.strict else s >= self.threshold)

    def _learn(self, i, j, y, y_hat, path):
        if y == y_hat:
            return
        # at most |S| (|S| - 1) / 2 new keys, |S| <= 2 log2 N + 1: keep the table at most a quarter
        # full (most look-ups of a path sum miss, and a miss probes until an empty slot)
        size = len(self._table)
        need = self._entries + (2 * self.bst.depth + 1) * self.bst.depth
        if 4 * need > size:
            while 4 * need > size:
                size *= 2
            old = self._table
            self._alloc(size)
            _rehash_kernel(old, self._table, self._shift)
        self._entries += int(_update_kernel(self._leaf[i], self._leaf[j], y - y_hat, self._width, self._table,
                                            self._shift))
