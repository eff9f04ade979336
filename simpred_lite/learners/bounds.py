"""Mistake-bound ingredients computed from cut counts, without ``m x m`` matrices.

The Perceptron bound of Proposition 2 is ``R^2 ||U||_F^2`` with the comparator
``U = Psi (sum_k u_k u_k^T) Psi^T`` (:func:`~simpred_lite.learners.matrix.comparator_matrix`,
dense ``m x m``).  With ``A = Psi [u_1 ... u_K]`` (``m x K``, row ``e`` is ``+1`` / ``-1`` in
the columns of the two classes a cut edge joins, zero on other edges),
``||U||_F^2 = ||A A^T||_F^2 = ||A^T A||_F^2`` and ``A^T A`` is the ``K x K`` matrix with
``|Phi_k|`` on the diagonal (cut edges touching class ``k``) and ``-|Phi_kl|`` off it (cut
edges between ``k`` and ``l``).  Hence

    ||U||_F^2 = sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2,

an ``O(m + K^2)`` count instead of ``O(m^2)`` memory.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..graphs import validate_graph, validate_labels

__all__ = ["comparator_norm_sq"]


def comparator_norm_sq(G: nx.Graph, labels) -> int:
    """``||U||_F^2`` of Proposition 2's comparator, from cut counts in ``O(m + K^2)``.

    Parameters
    ----------
    G : networkx.Graph
        Connected, unweighted, vertices ``0 .. n-1``.
    labels : array_like of int
        Class of each vertex.

    Returns
    -------
    int
        ``sum_k |Phi_k|^2 + sum_{k != l} |Phi_kl|^2`` (ordered pairs ``k != l``).

    Examples
    --------
    >>> comparator_norm_sq(nx.path_graph(4), [0, 0, 1, 1])     # one cut edge: 1 + 1 + 2 * 1
    4
    >>> comparator_norm_sq(nx.path_graph(3), [0, 1, 2])        # |Phi_1| = 2: 1 + 4 + 1 + 2 * (1 + 1)
    10
    """
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    edges = np.array(list(G.edges), dtype=np.int64).reshape(-1, 2)
    a, b = y[edges[:, 0]], y[edges[:, 1]]
    cut = a != b
    K = int(y.max()) + 1
    between = np.zeros((K, K), dtype=np.int64)
    np.add.at(between, (a[cut], b[cut]), 1)
    between = between + between.T  # |Phi_kl|, symmetric, zero diagonal
    touching = between.sum(axis=1)  # |Phi_k|
    return int((touching**2).sum() + (between**2).sum())
