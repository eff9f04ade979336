"""Ising partition functions, and the reduction behind Theorem 2.

The (ferromagnetic) Ising distribution over labelings ``y in {1, 2}^n`` of a graph ``G`` is
``p(y) ∝ 2^(-β |cut^G(y)|)``; its normaliser is the *partition function*

    Z_G(β) = Σ_y 2^(-β |cut^G(y)|).

On a path the marginals (and Z) cost linear time by passing messages along the path (the
transfer matrix ``[[1, q], [q, 1]]`` with ``q = 2^-β``; belief propagation).  With pairwise
*equality constraints* ``C`` between path vertices,

    Z_P(C, β) = Σ_{y : y_i = y_j for (i, j) in C} 2^(-β |cut^P(y)|),

the theorem says the problem is #P-complete: any graph ``G`` reduces to a constrained path
``(P, C)`` with ``Z_G(2β) = Z_P(C, β)`` (:func:`reduce_to_constrained_path`).

Everything is exact: partition functions are :class:`fractions.Fraction`, never floats, and
``β`` is a positive integer (the theorem's ``β`` is a natural number written in unary).
Labels are stored as bits ``0``/``1`` here (the paper's ``1``/``2``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx
import numpy as np

from ..checks import check_int, check_vertex
from ..graphs import validate_graph

__all__ = [
    "MAX_BRUTE_FORCE_VERTICES",
    "cut_size_counts",
    "partition_function",
    "constrained_partition_function",
    "path_partition_function",
    "path_marginals",
    "path_marginals_bruteforce",
    "transfer_matrix_operations",
    "brute_force_terms",
    "ReductionSteps",
    "reduction_steps",
    "reduce_to_constrained_path",
    "constraint_frontier",
    "reduction_stages",
]

#: Brute force enumerates 2^(free vertices) labelings; beyond this it refuses instead of hanging.
MAX_BRUTE_FORCE_VERTICES = 20


def _check_size(free: int, what: str) -> None:
    if free > MAX_BRUTE_FORCE_VERTICES:
        raise ValueError(
            f"brute force would enumerate 2^{free} labelings of {what}, too many (the limit is "
            f"{MAX_BRUTE_FORCE_VERTICES} free vertices); computing Z exactly is #P-hard in general. "
            "What scales: on a path without constraints use path_partition_function / path_marginals "
            "(linear time); otherwise use a smaller graph"
        )


def _weighted_sum(counts, beta: int) -> Fraction:
    """``Σ_c counts[c] · 2^(-β c)`` exactly."""
    top = len(counts) - 1
    num = sum(int(k) << (beta * (top - c)) for c, k in enumerate(counts) if k)
    return Fraction(num, 1 << (beta * top))


def _cut_counts_multigraph(m: int, edges) -> np.ndarray:
    """Number of labelings of ``m`` vertices with each cut size, edges counted with multiplicity.

    Vertex 0 is fixed to label 0 and the counts doubled: flipping every label keeps the cut.
    """
    _check_size(m, f"{m} vertices")
    if m == 0:
        return np.array([1], dtype=np.int64)
    y = np.arange(1 << (m - 1), dtype=np.int64) << 1  # bit v = label of vertex v; bit 0 = 0
    cut = np.zeros(y.shape, dtype=np.int64)
    for (u, v), mult in Counter((min(a, b), max(a, b)) for a, b in edges).items():
        cut += mult * (((y >> u) ^ (y >> v)) & 1)
    return 2 * np.bincount(cut)


def cut_size_counts(G: nx.Graph) -> np.ndarray:
    """``N[c]`` = number of labelings ``y in {1,2}^n`` of ``G`` with ``|cut^G(y)| = c``.

    So ``Z_G(β) = Σ_c N[c] 2^(-β c)``: the partition function is a polynomial in ``2^-β``.

    Parameters
    ----------
    G : networkx.Graph
        A graph with at most ``MAX_BRUTE_FORCE_VERTICES`` vertices.

    Examples
    --------
    >>> import networkx as nx
    >>> cut_size_counts(nx.cycle_graph(3)).tolist()   # a triangle cuts 0 or 2 edges
    [2, 0, 6]
    """
    G = validate_graph(G)
    return _cut_counts_multigraph(G.number_of_nodes(), G.edges())


def partition_function(G: nx.Graph, beta: int) -> Fraction:
    """Brute-force Ising partition function ``Z_G(β) = Σ_y 2^(-β |cut^G(y)|)``, exactly.

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1`` with ``n <= 20`` (checked).
    beta : int
        A positive integer.

    Returns
    -------
    fractions.Fraction

    Raises
    ------
    ValueError
        If ``n > 20`` (brute force would take too long; see the message for what scales).

    Examples
    --------
    >>> import networkx as nx
    >>> partition_function(nx.path_graph(2), 1)     # y equal (2 ways) or cut (2 ways, 1/2)
    Fraction(3, 1)
    >>> partition_function(nx.cycle_graph(3), 1)
    Fraction(7, 2)
    """
    beta = check_int(beta, "beta", low=1)
    return _weighted_sum(cut_size_counts(G), beta)


def _check_constraints(m: int, constraints) -> list[tuple[int, int]]:
    out = []
    for c in constraints:
        try:
            i, j = c
        except (TypeError, ValueError):
            raise ValueError(f"each constraint must be a pair (i, j) of vertices, got {c!r}") from None
        for v in (i, j):
            check_vertex(v, m, "constraint vertex")
        out.append((int(i), int(j)))
    return out


def constrained_partition_function(P: nx.Graph, constraints, beta: int) -> Fraction:
    """Brute-force ``Z_P(C, β)``: the sum over labelings with ``y_i = y_j`` for all ``(i, j) in C``.

    Works on any graph ``P`` (the theorem's instance is a path).  The constraints glue the
    vertices into classes; brute force enumerates the ``2^(#classes)`` labelings that satisfy
    them (never the others), so it is limited to 20 classes.

    Parameters
    ----------
    P : networkx.Graph
        A connected graph on ``0 .. m-1``, typically a path.
    constraints : iterable of (int, int)
        Pairs of vertices forced to carry the same label.
    beta : int
        A positive integer.

    Returns
    -------
    fractions.Fraction

    Examples
    --------
    >>> import networkx as nx
    >>> constrained_partition_function(nx.path_graph(3), [(0, 2)], 1)   # y0=y2: cut 0 or 2
    Fraction(5, 2)
    """
    beta = check_int(beta, "beta", low=1)
    P = validate_graph(P)
    m = P.number_of_nodes()
    constraints = _check_constraints(m, constraints)
    # classes of the equality constraints, numbered in order of their smallest vertex
    uf = nx.utils.UnionFind(range(m))
    for i, j in constraints:
        uf.union(i, j)
    cls: dict = {}
    index = [cls.setdefault(uf[v], len(cls)) for v in range(m)]
    _check_size(len(cls), f"{len(cls)} constraint classes")
    edges = [(index[u], index[v]) for u, v in P.edges()]
    # an edge inside a class is never cut, so only edges between classes matter
    counts = _cut_counts_multigraph(len(cls), [(a, b) for a, b in edges if a != b])
    return _weighted_sum(counts, beta)


def _path_messages(n: int, beta: int, observed):
    """Forward and backward messages along a path ``0 - 1 - ... - n-1``, as exact integers.

    ``fwd[v][s]`` is ``2^(β v)`` times the weight of the labelings of ``0..v`` with ``y_v = s``,
    ``bwd[v][s]`` is ``2^(β (n-1-v))`` times the weight of ``v+1..n-1`` given ``y_v = s``: scaling
    by powers of two keeps every message an integer, so no gcd is ever computed on the way.
    """
    beta = check_int(beta, "beta", low=1)
    n = check_int(n, "n", low=1)
    if observed is not None and not isinstance(observed, Mapping):
        raise TypeError(
            f"observed must be a dict {{vertex: label}}, got {type(observed).__name__}; e.g. observed={{0: 1}}"
        )
    observed = {} if observed is None else dict(observed)
    for v, lab in observed.items():
        check_vertex(v, n, "observed vertex")
        if lab not in (0, 1):
            raise ValueError(f"observed labels are bits 0 or 1 (the paper's 1 or 2), got {lab!r} at vertex {v}")
    inv_q = 1 << beta  # 1/q: the transfer matrix [[1, q], [q, 1]] times 2^beta is [[2^beta, 1], [1, 2^beta]]
    # evidence vector of vertex v: (1, 1) if free, one-hot on its label if observed
    ev = [(1, 1) if v not in observed else ((1, 0) if observed[v] == 0 else (0, 1)) for v in range(n)]
    fwd: list[tuple[int, int]] = [ev[0]] * n  # fwd[v] for v >= 1 is set below
    for v in range(1, n):
        p0, p1 = fwd[v - 1]
        e0, e1 = ev[v]
        fwd[v] = ((inv_q * p0 + p1) * e0, (p0 + inv_q * p1) * e1)
    bwd: list[tuple[int, int]] = [(1, 1)] * n  # bwd[v] for v <= n - 2 is set below
    for v in range(n - 2, -1, -1):
        n0, n1 = bwd[v + 1]
        e0, e1 = ev[v + 1]
        bwd[v] = (inv_q * e0 * n0 + e1 * n1, e0 * n0 + inv_q * e1 * n1)
    return fwd, bwd, beta * (n - 1)


def path_partition_function(n: int, beta: int, observed=None) -> Fraction:
    """Linear-time ``Z`` of the Ising model on the path ``0 - 1 - ... - n-1``, exactly.

    Transfer matrix: with ``q = 2^-β`` each edge multiplies by ``[[1, q], [q, 1]]``; an
    observed vertex keeps only its label's row.  ``4(n-1)`` multiply-adds instead of ``2^n``
    terms (linear in the unit-cost model of the paper; exact numbers here grow to ``O(βn)``
    bits, which is why messages are kept as integers scaled by powers of two).  Without
    observations ``Z = 2 (1 + q)^(n-1)``.

    Parameters
    ----------
    n : int
        Number of path vertices.
    beta : int
        A positive integer.
    observed : dict, optional
        ``{vertex: label}`` with labels ``0``/``1``, clamped (the evidence of the paper's
        "given a set of vertices and associated labels").

    Examples
    --------
    >>> path_partition_function(3, 1)
    Fraction(9, 2)
    >>> path_partition_function(3, 1, observed={0: 0, 2: 1})   # y1 free: 1*q + q*1
    Fraction(1, 1)
    """
    fwd, _, shift = _path_messages(n, beta, observed)
    return Fraction(fwd[-1][0] + fwd[-1][1], 1 << shift)


def path_marginals(n: int, beta: int, observed=None) -> list[Fraction]:
    """Linear-time marginals ``P(y_v = 1 | observed)`` on a path (forward–backward, exact).

    Label ``1`` is the paper's label ``2``.  Raises ``ValueError`` if the observations have
    probability zero (never: every labeling has positive weight).

    Examples
    --------
    >>> path_marginals(3, 1, observed={0: 1})
    [Fraction(1, 1), Fraction(2, 3), Fraction(5, 9)]
    """
    fwd, bwd, _ = _path_messages(n, beta, observed)
    Z = fwd[-1][0] + fwd[-1][1]  # both scaled by 2^(β(n-1)): the scales cancel
    return [Fraction(fwd[v][1] * bwd[v][1], Z) for v in range(n)]


def path_marginals_bruteforce(n: int, beta: int, observed=None) -> list[Fraction]:
    """Plain reference for :func:`path_marginals`: enumerate all ``2^n`` labelings (``n <= 20``).

    Examples
    --------
    >>> path_marginals_bruteforce(3, 1, observed={0: 1}) == path_marginals(3, 1, observed={0: 1})
    True
    """
    _path_messages(n, beta, observed)  # same validation
    observed = dict(observed or {})
    _check_size(n, f"a {n}-vertex path")
    y = np.arange(1 << n, dtype=np.int64)
    keep = np.ones(y.shape, dtype=bool)
    for v, lab in observed.items():
        keep &= ((y >> v) & 1) == lab
    y = y[keep]
    cut = np.zeros(y.shape, dtype=np.int64)
    for v in range(n - 1):
        cut += ((y >> v) ^ (y >> (v + 1))) & 1
    Z = _weighted_sum(np.bincount(cut, minlength=1), beta)
    return [_weighted_sum(np.bincount(cut[((y >> v) & 1) == 1], minlength=1), beta) / Z
            if np.any(((y >> v) & 1) == 1) else Fraction(0) for v in range(n)]


def transfer_matrix_operations(n: int) -> int:
    """Multiplications of the transfer-matrix ``Z`` on an ``n``-vertex path: ``4(n-1)``.

    Each of the ``n - 1`` edges multiplies the 2-entry message by the 2 x 2 transfer matrix: 4
    multiplications (and 2 additions, not counted).

    Parameters
    ----------
    n : int
        Vertices of the path the transfer matrix runs along.

    Examples
    --------
    >>> transfer_matrix_operations(10)
    36
    """
    return 4 * (n - 1)


def brute_force_terms(n: int) -> int:
    """Terms of the brute-force sum over ``{1,2}^n``: ``2^n``.

    Parameters
    ----------
    n : int
        Vertices of the path whose labelings are enumerated.

    Examples
    --------
    >>> brute_force_terms(10)
    1024
    """
    return 1 << check_int(n, "n", low=0)


@dataclass(frozen=True)
class ReductionSteps:
    """The stages of the reduction of Theorem 2 (the paper's Ising figure).

    Attributes
    ----------
    tree_edges : list of (int, int)
        The spanning tree ``T`` of ``G`` (DFS tree from vertex 0, neighbours in increasing order).
    non_tree_edges : list of (int, int)
        ``R = E_G - E_T``, each as ``(u, v)`` with ``u < v``, in increasing order.
    visit : list of int
        The depth-first visit sequence of ``T`` (``2n - 1`` G-vertices): the labels of ``P_0``.
    paths : list of list of int
        ``paths[0]`` is ``P_0``; ``paths[k]`` is the labelled path after splicing the first
        ``k`` non-tree edges; ``paths[-1]`` is ``P``.  Entry ``p`` of a path is the G-vertex
        that path vertex ``p`` copies.
    splices : list of (int, int)
        For each non-tree edge, the position of ``v'`` in the path before the splice and the
        position of its neighbour ``v''''``; the new vertices land between them.
    """

    tree_edges: list
    non_tree_edges: list
    visit: list
    paths: list
    splices: list


def reduction_steps(G: nx.Graph) -> ReductionSteps:
    """Run the construction of the proof of Theorem 2 step by step.

    1. ``T``: the depth-first-search spanning tree of ``G`` from vertex ``0`` (neighbours
       visited in increasing order, so the result is deterministic); ``R = E_G - E_T``.
    2. ``P_0``: the depth-first visit sequence of ``T`` (enter a vertex, and come back to it
       after each child), ``2n - 1`` vertices; each tree edge is walked twice.
    3. For each ``(v_r', v_r'') in R`` (in increasing order): ``v'`` = the first path vertex
       copying ``v_r'``, ``v''''`` = its successor on the path (its predecessor if ``v'`` is
       last); insert two vertices copying ``v_r''`` and ``v_r'`` between them.  The removed
       edge ``(v', v'''')`` comes back as ``(v''', v'''')`` with the same labels, and the
       edges ``(v', v'')``, ``(v'', v''')`` are the two analogues of the non-tree edge.

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.

    Examples
    --------
    >>> import networkx as nx
    >>> steps = reduction_steps(nx.cycle_graph(3))
    >>> steps.visit, steps.non_tree_edges
    ([0, 1, 2, 1, 0], [(0, 2)])
    >>> steps.paths[-1]
    [0, 2, 0, 1, 2, 1, 0]
    """
    G = validate_graph(G)
    n = G.number_of_nodes()
    # iterative DFS with sorted neighbours: the Euler-tour visit sequence and the tree
    seen = {0}
    visit = [0]
    tree = []
    stack = [(0, iter(sorted(G.neighbors(0))))]
    while stack:
        v, it = stack[-1]
        for w in it:
            if w not in seen:
                seen.add(w)
                tree.append((min(v, w), max(v, w)))
                visit.append(w)
                stack.append((w, iter(sorted(G.neighbors(w)))))
                break
        else:
            stack.pop()
            if stack:
                visit.append(stack[-1][0])  # come back to the parent
    assert len(visit) == 2 * n - 1
    tree_set = set(tree)
    rest = sorted((min(u, v), max(u, v)) for u, v in G.edges() if (min(u, v), max(u, v)) not in tree_set)
    path = list(visit)
    paths = [list(path)]
    splices = []
    for a, b in rest:
        p = path.index(a)  # v' : the first path vertex copying v_r' = a
        q = p + 1 if p + 1 < len(path) else p - 1  # v'''' : a neighbour of v' on the path
        splices.append((p, q))
        lo = min(p, q)
        # between v' and v'''' insert v'' (copies b) then v''' (copies a), seen from v'
        path[lo + 1:lo + 1] = [b, a] if q > p else [a, b]
        paths.append(list(path))
    return ReductionSteps(sorted(tree), rest, visit, paths, splices)


def reduce_to_constrained_path(G: nx.Graph):
    """Reduce ``Z_G`` to a constrained path: ``Z_G(2β) = Z_P(C, β)`` (Theorem 2).

    See :func:`reduction_steps` for the construction (DFS spanning tree from vertex 0).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.

    Returns
    -------
    P : networkx.Graph
        The path ``0 - 1 - ... - m-1`` with ``m = 2n - 1 + 2|R|``; node attribute ``"copy"``
        is the G-vertex each path vertex copies.
    C : list of (int, int)
        All pairs ``(i, j)``, ``i < j``, of path vertices copying the same G-vertex.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(3)
    >>> P, C = reduce_to_constrained_path(G)
    >>> P.number_of_nodes(), len(C)
    (7, 5)
    >>> partition_function(G, 2) == constrained_partition_function(P, C, 1)
    True
    """
    labels = reduction_steps(G).paths[-1]
    P = nx.path_graph(len(labels))
    nx.set_node_attributes(P, dict(enumerate(labels)), "copy")
    C = [(i, j) for i in range(len(labels)) for j in range(i + 1, len(labels)) if labels[i] == labels[j]]
    return P, C


def constraint_frontier(m: int, constraints) -> list[int]:
    """How many constraint classes span each edge ``(p, p+1)`` of an ``m``-vertex path.

    A left-to-right message must remember the label of every class that has vertices on
    both sides of the edge, so it needs ``2^frontier`` numbers instead of 2: the width of
    the frontier is what destroys the linear-time transfer matrix.

    Examples
    --------
    >>> constraint_frontier(4, [(0, 3)])
    [1, 1, 1]
    """
    m = check_int(m, "m (the number of vertices of the path)", low=1)
    constraints = _check_constraints(m, constraints)
    uf = nx.utils.UnionFind(range(m))
    for i, j in constraints:
        uf.union(i, j)
    span: dict = {}
    for v in range(m):
        r = uf[v]
        lo, hi = span.get(r, (v, v))
        span[r] = (min(lo, v), max(hi, v))
    return [sum(1 for lo, hi in span.values() if lo <= p < hi) for p in range(m - 1)]


def reduction_stages(G: nx.Graph, beta: int) -> list[dict]:
    """Each stage of the reduction of Theorem 2 with its two partition functions.

    Stage ``k`` is the labelled path after the first ``k`` splices (stage ``0`` is ``P_0``,
    the last one is ``P``) with its equality constraints ``C_k`` (every pair of path
    vertices copying the same G-vertex).  Each stage walks every edge of
    ``G_k = T + (the first k non-tree edges)`` exactly twice, so

        Z_{P_k}(C_k, β) = Z_{G_k}(2β),

    and the last stage is the theorem's identity ``Z_P(C, β) = Z_G(2β)``.  Exact
    (:class:`fractions.Fraction`), by brute force: small graphs only (at most 20 vertices).

    Parameters
    ----------
    G : networkx.Graph
        A connected graph on ``0 .. n-1``.
    beta : int
        A positive integer.

    Returns
    -------
    list of dict
        One per stage: ``path`` (G-vertex copied by each path vertex), ``new`` (positions
        the last splice added), ``spliced`` (the non-tree edge just spliced, or ``None``),
        ``constraints`` (``C_k``), ``edges`` (the edges of ``G_k``), ``Z_path``
        (``Z_{P_k}(C_k, β)``), ``Z_graph_k`` (``Z_{G_k}(2β)``) and ``Z_graph``
        (``Z_G(2β)``, the same on every stage).

    Examples
    --------
    >>> stages = reduction_stages(nx.cycle_graph(3), beta=1)
    >>> [len(s["path"]) for s in stages], [s["spliced"] for s in stages]
    ([5, 7], [None, (0, 2)])
    >>> stages[0]["Z_path"] == stages[0]["Z_graph_k"], stages[-1]["Z_path"] == stages[-1]["Z_graph"]
    (True, True)
    """
    G = validate_graph(G)
    beta = check_int(beta, "beta", low=1)
    steps = reduction_steps(G)
    n = G.number_of_nodes()
    Z_graph = partition_function(G, 2 * beta)
    stages = []
    for k, path in enumerate(steps.paths):
        C = [(a, b) for a in range(len(path)) for b in range(a + 1, len(path)) if path[a] == path[b]]
        edges = list(steps.tree_edges) + list(steps.non_tree_edges[:k])
        Gk = nx.Graph()
        Gk.add_nodes_from(range(n))
        Gk.add_edges_from(edges)
        if k:
            lo = min(steps.splices[k - 1])
            new: tuple[int, ...] = (lo + 1, lo + 2)
        else:
            new = ()
        stages.append({"path": list(path), "new": new, "spliced": steps.non_tree_edges[k - 1] if k else None,
                       "constraints": C, "edges": sorted(edges),
                       "Z_path": constrained_partition_function(nx.path_graph(len(path)), C, beta),
                       "Z_graph_k": partition_function(Gk, 2 * beta), "Z_graph": Z_graph})
    return stages
