"""Averages over random spanning trees (Theorem 3).

Theorem 3 bounds the *expected* mistakes of Matrix Winnow
and of the Matrix Perceptron run on the Binary Support Tree ``B`` of a uniformly random
spanning tree ``T``.  Its proof is a chain of per-tree inequalities, then an expectation:

* on a fixed ``B`` (Proposition 2, with ``R_B = 2 log2 N`` the diameter of
  ``B`` and ``m = 2N - 2`` its edges): the Perceptron errs at most ``R_B^2 ||U_B||_F^2 <=
  4 R_B^2 |Phi^B|^2`` times, Matrix Winnow at most ``(e^eta + 1)/eta R_B |Phi^B| ln m``;
* ``|Phi^B| <= 2 |Phi^T| log2 N`` (the BST construction);
* Lemma 10: ``E|Phi^T| = phi`` and ``E|Phi^T|^2 <= 2 phi^2``, where ``phi`` is
  the resistance-weighted cut size.  (The lemma is stated per class; the same negative
  correlation argument gives it for the whole cut, because ``E|Phi^T| >= 1`` whenever the
  cut is not empty.)

Hence, with explicit constants (:func:`theorem3_phi_bounds`),

    E[M_perceptron] <= 4 R_B^2 (2 log2 N)^2 * 2 phi^2 = 128 (log2 N)^4 phi^2,
    E[M_winnow]     <= (e^eta + 1)/eta * R_B * 2 log2 N * phi * ln(2N - 2).

:func:`spanning_tree_bound_table` draws many BSTs and evaluates every per-tree quantity, so
a notebook can average them and hold the averages against these forms.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np

from ..bst import BinarySupportTree
from ..checks import check_int, check_random_state
from ..graphs import cut_size, validate_labels
from ..learners.bounds import bst_comparator_norm_sq  # the one implementation, re-exported here

__all__ = [
    "bst_comparator_norm_sq",
    "spanning_tree_bound_table",
    "theorem3_phi_bounds",
]

#: Matrix Winnow's learning rate in Algorithm 1 (label ``a:2``).
WINNOW_ETA = 1.28


def spanning_tree_bound_table(G: nx.Graph, labels: Any, trees: int, seed: Any, eta: float = WINNOW_ETA) -> dict:
    """Per-tree quantities of the proof of Theorem 3 over ``trees`` random spanning trees.

    Each BST is ``BinarySupportTree.from_graph(G, s)`` (Wilson's algorithm) with a seed ``s``
    drawn from ``seed``.

    Parameters
    ----------
    G : networkx.Graph
        Connected, vertices ``0 .. n-1``.
    labels : array_like of int
    trees : int
        Number of random spanning trees.
    seed : int or numpy.random.Generator
    eta : float, default 1.28

    Returns
    -------
    dict of numpy.ndarray (one entry per tree) and ints
        ``seeds`` (the BST seeds), ``cut_T`` (``|Phi^T|``), ``cut_B`` (``|Phi^B|``),
        ``U_sq`` (``||U_B||_F^2``), ``perceptron`` (``R_B^2 ||U_B||_F^2``), ``winnow``
        (``(e^eta+1)/eta R_B |Phi^B| ln m``); and ``N`` (leaves), ``R`` (``2 log2 N``),
        ``m`` (``2N - 2``).

    Examples
    --------
    >>> G = nx.cycle_graph(8)
    >>> table = spanning_tree_bound_table(G, [0] * 4 + [1] * 4, trees=3, seed=0)
    >>> table["N"], table["R"], table["cut_T"].tolist()     # a spanning tree of C_8 keeps 1 or 2 cut edges
    (8, 6, [2, 1, 2])
    >>> bool(np.all(table["cut_B"] <= 2 * table["cut_T"] * 3))
    True
    """
    trees = check_int(trees, "trees", low=1)
    y = validate_labels(labels, G.number_of_nodes())
    rng = check_random_state(seed)
    seeds = rng.integers(2**31, size=trees)
    cut_T: list[int] = []
    cut_B_list: list[int] = []
    U_sq_list: list[int] = []
    N = 1
    for s in seeds:
        B = BinarySupportTree.from_graph(G, seed=int(s))
        N = B.num_leaves
        cut_T.append(cut_size(B.tree, y))
        cut_B_list.append(B.cut_size(y))
        U_sq_list.append(bst_comparator_norm_sq(B, y))
    R = 2 * int(round(math.log2(N)))
    m = 2 * N - 2
    cut_B = np.asarray(cut_B_list, dtype=np.int64)
    U_sq = np.asarray(U_sq_list, dtype=np.int64)
    return {
        "seeds": seeds,
        "cut_T": np.asarray(cut_T, dtype=np.int64),
        "cut_B": cut_B,
        "U_sq": U_sq,
        "perceptron": (R**2 * U_sq).astype(float),
        "winnow": (math.exp(eta) + 1) / eta * R * cut_B * math.log(m),
        "N": int(N),
        "R": R,
        "m": m,
    }


def theorem3_phi_bounds(phi: float, N: int, eta: float = WINNOW_ETA) -> dict:
    """The ``phi`` forms of Theorem 3 with the proof's constants.

    ``perceptron = 4 R_B^2 (2 log2 N)^2 * 2 phi^2 = 128 (log2 N)^4 phi^2`` and
    ``winnow = (e^eta + 1)/eta * R_B * 2 log2 N * phi * ln(2N - 2)``, with ``R_B = 2 log2 N``.
    Also ``cut_B = 2 log2 N * phi`` (the bound on ``E|Phi^B|``) and ``cut_T_sq = 2 phi^2``
    (Lemma 10, 2).

    Examples
    --------
    >>> b = theorem3_phi_bounds(1.0, 16)
    >>> b["perceptron"], b["cut_B"]
    (32768.0, 8.0)
    """
    N = check_int(N, "N", low=1)
    log_n = math.log2(N)
    R = 2 * log_n
    phi = float(phi)
    return {
        "perceptron": 4 * R**2 * (2 * log_n) ** 2 * 2 * phi**2,
        "winnow": (math.exp(eta) + 1) / eta * R * 2 * log_n * phi * math.log(2 * N - 2),
        "cut_B": 2 * log_n * phi,
        "cut_T_sq": 2 * phi**2,
    }
