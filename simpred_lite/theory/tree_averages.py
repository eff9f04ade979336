"""Averages over random spanning trees (Theorem 3) and an adaptive class adversary (Theorem 9).

Theorem 3 (label ``t:winnowandperceptron``) bounds the *expected* mistakes of Matrix Winnow
and of the Matrix Perceptron run on the Binary Support Tree ``B`` of a uniformly random
spanning tree ``T``.  Its proof is a chain of per-tree inequalities, then an expectation:

* on a fixed ``B`` (Proposition 2, ``prop:percwin``, with ``R_B = 2 log2 N`` the diameter of
  ``B`` and ``m = 2N - 2`` its edges): the Perceptron errs at most ``R_B^2 ||U_B||_F^2 <=
  4 R_B^2 |Phi^B|^2`` times, Matrix Winnow at most ``(e^eta + 1)/eta R_B |Phi^B| ln m``;
* ``|Phi^B| <= 2 |Phi^T| log2 N`` (the BST construction);
* Lemma 10 (``l:expected``): ``E|Phi^T| = phi`` and ``E|Phi^T|^2 <= 2 phi^2``, where ``phi`` is
  the resistance-weighted cut size.  (The lemma is stated per class; the same negative
  correlation argument gives it for the whole cut, because ``E|Phi^T| >= 1`` whenever the
  cut is not empty.)

Hence, with explicit constants (:func:`theorem3_phi_bounds`),

    E[M_perceptron] <= 4 R_B^2 (2 log2 N)^2 * 2 phi^2 = 128 (log2 N)^4 phi^2,
    E[M_winnow]     <= (e^eta + 1)/eta * R_B * 2 log2 N * phi * ln(2N - 2).

:func:`spanning_tree_bound_table` draws many BSTs and evaluates every per-tree quantity, so
a notebook can average them and hold the averages against these forms.

Theorem 9 (``thm:lognec``), class side: :func:`adaptive_class_run` is an adversary that
keeps the set of paired permutations consistent with its answers and, on every trial, poses
a pattern on which the learner's prediction can still be declared wrong.  The sequence it
produces belongs to the paired permutation problem (a permutation explains every answer),
so the class algorithm's bound ``4.40 (K-1)`` must hold against it.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

import networkx as nx
import numpy as np

from ..bst import BinarySupportTree
from ..checks import check_int, check_random_state
from ..graphs import cut_size, validate_labels
from ..learners.bounds import bst_comparator_norm_sq  # the one implementation, re-exported here
from .lowerbound import paired_permutation_hypotheses

__all__ = [
    "bst_comparator_norm_sq",
    "spanning_tree_bound_table",
    "theorem3_phi_bounds",
    "adaptive_class_run",
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


def adaptive_class_run(learner: Any, K: int, seed: Any, max_trials: int | None = None) -> Any:
    """An adaptive adversary for the class side of Theorem 9 (paired permutations).

    The adversary keeps the version space ``V`` of permutations consistent with its answers
    (all ``K!`` at the start, ``K <= 8``).  On each trial it asks the learner's prediction on
    every pattern ``(x', x'')``; among the patterns where some ``z`` in ``V`` disagrees with the
    prediction it poses the one, with the wrong label, that keeps ``V`` largest (ties broken by
    a seeded random order), so every trial is a mistake and the game lasts as long as it can
    greedily.  It stops when the learner is right on every pattern for every ``z`` in ``V``.

    Parameters
    ----------
    learner : object with ``predict_one((x', x''))`` and ``learn_one((x', x''), y)``
        E.g. :class:`simpred_lite.theory.lowerbound.PairedPermutationClassLearner`.
    K : int
        Number of items, ``2 <= K <= 8``.
    seed : int or numpy.random.Generator
    max_trials : int, optional
        Stop after this many trials.

    Returns
    -------
    examples : list of ((int, int), int)
        The sequence played; every example is a mistake of the learner.
    z : tuple of int
        A permutation consistent with every example (the first left in ``V``).

    Examples
    --------
    >>> from simpred_lite.learners import PairedPermutationClassLearner
    >>> from simpred_lite.theory.lowerbound import paired_permutation_label
    >>> A = PairedPermutationClassLearner(3)
    >>> examples, z = adaptive_class_run(A, 3, seed=0)
    >>> A.mistakes == len(examples) <= 2 * 4.4035
    True
    >>> all(paired_permutation_label(z, a, b) == y for (a, b), y in examples)
    True
    """
    K = check_int(K, "K", low=1)
    if not 2 <= K <= 8:
        raise ValueError(f"K must lie in 2..8 (the adversary enumerates all K! permutations), got {K}")
    if max_trials is not None:
        max_trials = check_int(max_trials, "max_trials", low=1)
    rng = check_random_state(seed)
    H = paired_permutation_hypotheses(K)           # K! x K^2 labels y_z(x', x'')
    perms = np.array(list(permutations(range(K))), dtype=np.int64)   # the row order of H
    alive = np.ones(len(H), dtype=bool)
    examples: list[tuple[Any, int]] = []
    while max_trials is None or len(examples) < max_trials:
        best = None
        for p in rng.permutation(K * K):
            x = (int(p) // K, int(p) % K)
            y_hat = learner.predict_one(x)
            values, counts = np.unique(H[alive, p], return_counts=True)
            for v, c in zip(values, counts):
                if v != y_hat and (best is None or c > best[0]):
                    best = (int(c), x, int(v), int(p))
        if best is None:
            break
        _, x, y, p = best
        learner.learn_one(x, y)
        alive &= H[:, p] == y
        examples.append((x, y))
    z = tuple(int(v) for v in perms[np.flatnonzero(alive)[0]])
    return examples, z
