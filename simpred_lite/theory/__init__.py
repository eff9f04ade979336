"""The paper's theory made executable: hardness, lower bounds, averages over spanning trees.

- :mod:`~simpred_lite.theory.hardness` — Ising partition functions, the graph → constrained
  path reduction (§6)
- :mod:`~simpred_lite.theory.lowerbound` — paired permutations, comparison sorting, the
  Ω(K log K) adversary (§7)
- :mod:`~simpred_lite.theory.similarity_lower_bound` — the Proposition-1 lower bound on a graph
- :mod:`~simpred_lite.theory.tree_averages` — bounds averaged over random spanning trees
- :mod:`~simpred_lite.theory.unknown_graphs` — the objects of the proof of Theorem 5 (§5)

>>> from simpred_lite.theory import partition_function
"""

from . import hardness, lowerbound, similarity_lower_bound, tree_averages, unknown_graphs
from .hardness import *
from .lowerbound import *
from .similarity_lower_bound import *
from .tree_averages import *
from .unknown_graphs import *

__all__ = [
    *hardness.__all__,
    *lowerbound.__all__,
    *similarity_lower_bound.__all__,
    *tree_averages.__all__,
    *unknown_graphs.__all__,
]

