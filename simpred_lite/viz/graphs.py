"""Graph drawings: THE labelled-graph drawer and the drawings built on it.

:func:`draw_labelled_graph` is the one drawer of a labelled graph (classes as colours, cut
edges red and dashed, no axes, vertex numbers, a class legend, an optional queried pair and
revealed path); the other functions draw spanning trees, Wilson's loop erasure, the numbered
edges of §5 and the forest of revealed paths.
"""
from __future__ import annotations

from collections import Counter

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib import patheffects
from matplotlib.lines import Line2D

from ..checks import check_int, check_real
from ..graphs import cut_edges, validate_graph, validate_labels
from .style import CLASS_COLORS, LEGEND_FONTSIZE, new_axes

__all__ = [
    "MAX_NUMBERED_VERTICES",
    "graph_layout",
    "pickable_layout",
    "edge_clearance",
    "legend_below",
    "draw_labelled_graph",
    "draw_spanning_tree",
    "draw_loop_erasure",
    "draw_edge_numbering",
    "draw_forest_rounds",
    "draw_path_order",
]

#: Graphs up to this many vertices get their vertex numbers drawn by default.
MAX_NUMBERED_VERTICES = 40
#: A revealed path is drawn above the vertices (zorder 2) and below the vertex numbers (zorder 3),
#: with a white halo this many points wide on each side.
PATH_ZORDER = 2.5
PATH_HALO = 1.5


def graph_layout(G: nx.Graph, seed: int = 0) -> dict[int, np.ndarray]:
    """A deterministic 2-d layout (spring layout with a fixed seed).

    Parameters
    ----------
    G : networkx.Graph
    seed : int, default 0
        Seed of the spring layout (the same seed, the same picture).

    Examples
    --------
    >>> pos = graph_layout(nx.path_graph(3))
    >>> sorted(pos)
    [0, 1, 2]
    """
    return nx.spring_layout(validate_graph(G), seed=check_int(seed, "seed", low=0, high=2**32 - 1))


def pickable_layout(G: nx.Graph, pos: dict | None = None, clearance: float | None = None,
                    best_effort: bool = False) -> dict:
    """A layout that spreads the vertices evenly, for a drawing where a student picks vertices by number.

    A spring layout packs the vertices of a dense core on top of each other (karate club's
    0, 1, 2, 13, 32, 33); Kamada–Kawai, started from ``pos``, keeps graph distances as
    drawing distances and so leaves room for each number; vertices still closer than about a
    vertex's width, or lying on an edge they do not belong to, are then pushed apart.  A graph
    that is not connected keeps ``pos`` (Kamada–Kawai needs finite distances); so should a
    graph with a natural drawing (a grid): do not call this for it.

    Parameters
    ----------
    G : networkx.Graph
    pos : dict, optional
        The starting layout (default :func:`graph_layout`).
    clearance : float, optional
        The distance, as a fraction of the drawing's width, that every vertex keeps from every
        edge it is not an endpoint of (see :func:`edge_clearance`): the vertices and the edges
        are pushed apart until it holds, so that no edge runs under a vertex's disk and looks
        like an edge of that vertex.  Choose it at least the drawn vertex radius (plus a margin)
        divided by the drawing's width in points.  By default the older, looser spreading.
    best_effort : bool, default False
        When ``clearance`` cannot be reached, return the layout that came closest instead of
        raising (for widgets that draw any graph a student passes in).

    Returns
    -------
    dict
        Vertex -> position.

    Raises
    ------
    ValueError
        When ``clearance`` cannot be reached (then ask for less, or draw the graph larger).

    Examples
    --------
    >>> pos = pickable_layout(nx.cycle_graph(5))
    >>> sorted(pos) == list(range(5))
    True
    """
    G = validate_graph(G)
    pos = graph_layout(G) if pos is None else pos
    if clearance is not None:
        clearance = check_real(clearance, "clearance", low=0, high=0.2)
    if G.number_of_nodes() < 3 or not nx.is_connected(G):
        return pos
    kk = nx.kamada_kawai_layout(G, pos=pos)
    if clearance is None:
        return _spread(G, kk)
    out = _clear_edges(G, kk, clearance=clearance)
    reached = edge_clearance(G, out)
    if reached < clearance and not best_effort:
        raise ValueError(f"pickable_layout reached a clearance of {reached:.3f}, not {clearance}: ask for less")
    return out


def edge_clearance(G: nx.Graph, pos: dict) -> float:
    """The smallest distance from a vertex to an edge it is not an endpoint of, as a fraction of the drawing's width.

    Times the drawing's width in points, it must exceed the drawn vertex radius, or an edge runs
    under a vertex's disk and looks like an edge of that vertex.  ``inf`` when no such pair exists.

    Parameters
    ----------
    G : networkx.Graph
    pos : dict
        Vertex -> position.

    Examples
    --------
    Vertex 1 lies 0.5 above the edge 0-2 of a drawing 2 wide:

    >>> edge_clearance(nx.Graph([(0, 2), (1, 3)]), {0: (0, 0), 1: (1, 0.5), 2: (2, 0), 3: (1, 2)})
    0.25
    >>> edge_clearance(nx.path_graph(2), {0: (0, 0), 1: (1, 1)})
    inf
    """
    nodes = list(G.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    P = np.array([pos[v] for v in nodes], dtype=float)
    edges = np.array([(index[u], index[v]) for u, v in G.edges], dtype=int).reshape(-1, 2)
    gaps, on_edge, _, _ = _vertex_edge_gaps(P, edges)
    free = gaps[~on_edge]
    if free.size == 0:
        return float("inf")
    return float(free.min() / (float(np.ptp(P, axis=0).max()) or 1.0))


def _vertex_edge_gaps(P: np.ndarray, edges: np.ndarray):
    """Distances of each vertex (rows) to each edge (columns) of the segments ``edges`` between points ``P``;
    also which vertex is an end of which edge, where the closest point lies (0..1 along the edge) and the offset."""
    a, b = P[edges[:, 0]], P[edges[:, 1]]
    ab = b - a
    length2 = np.maximum((ab ** 2).sum(axis=1), 1e-12)
    s = np.clip(((P[:, None, :] - a[None]) * ab[None]).sum(axis=2) / length2[None], 0.0, 1.0)
    off = P[:, None, :] - (a[None] + s[..., None] * ab[None])
    vertex = np.arange(len(P))[:, None]
    on_edge = (edges[None, :, 0] == vertex) | (edges[None, :, 1] == vertex)
    return np.hypot(off[..., 0], off[..., 1]), on_edge, s, off


def _push_vertices_apart(P: np.ndarray, d_min: float) -> bool:
    """Move the points ``P`` (in place) apart where two are closer than ``d_min``, each half the shortfall;
    return whether any moved."""
    diff = P[:, None, :] - P[None, :, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    np.fill_diagonal(dist, d_min)
    close = dist < d_min
    if not close.any():
        return False
    safe = np.where(dist > 1e-12, dist, 1.0)
    P += (np.where(close, (d_min - dist) / 2 / safe, 0.0)[..., None] * diff).sum(axis=1)
    return True


def _clear_edges(G: nx.Graph, pos: dict, clearance: float, gap: float = 0.13, rounds: int = 500) -> dict:
    """Push apart vertices closer than ``gap`` and each vertex closer than ``clearance`` to an edge it is not on
    (the vertex one way, the edge's ends the other), both as fractions of the current drawing's width."""
    nodes = list(G.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    P = np.array([pos[v] for v in nodes], dtype=float)
    edges = np.array([(index[u], index[v]) for u, v in G.edges], dtype=int).reshape(-1, 2)
    for _ in range(rounds):
        P -= P.mean(axis=0)
        width = float(np.ptp(P, axis=0).max()) or 1.0
        d_min, c_min = gap * width, clearance * width * 1.02  # 2 % over, so the rule holds after the last step
        moved = _push_vertices_apart(P, d_min)
        if edges.size:
            gaps, on_edge, s, off = _vertex_edge_gaps(P, edges)
            hit = (gaps < c_min) & ~on_edge
            if hit.any():
                moved = True
                safe = np.where(gaps > 1e-12, gaps, 1.0)
                step = np.where(hit, (c_min - gaps) / safe, 0.0)[..., None] * off / 2
                P += step.sum(axis=1)
                np.add.at(P, edges[:, 0], -(step * (1 - s)[..., None]).sum(axis=0))
                np.add.at(P, edges[:, 1], -(step * s[..., None]).sum(axis=0))
        if not moved:
            break
    return {v: P[k] for k, v in enumerate(nodes)}


def _spread(G: nx.Graph, pos: dict, gap: float = 0.15, clearance: float = 0.035, rounds: int = 60) -> dict:
    """Push apart vertices closer than ``gap`` (a fraction of the drawing's width) and vertices
    closer than ``clearance`` to an edge they are not on, so that numbers and edges stay visible."""
    nodes = list(G.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    P = np.array([pos[v] for v in nodes], dtype=float)
    width = float(np.ptp(P, axis=0).max()) or 1.0
    d_min, c_min = gap * width, clearance * width
    edges = np.array([(index[u], index[v]) for u, v in G.edges], dtype=int).reshape(-1, 2)
    for _ in range(rounds):
        P -= P.mean(axis=0)
        moved = _push_vertices_apart(P, d_min)
        if edges.size:
            gap_e, on_edge, s, off = _vertex_edge_gaps(P, edges)
            hit = (gap_e < c_min) & ~on_edge & (s > 0.0) & (s < 1.0)
            if hit.any():
                moved = True
                safe = np.where(gap_e > 1e-12, gap_e, 1.0)
                push = np.where(hit, (c_min - gap_e) / safe, 0.0)
                P += (push[..., None] * off).sum(axis=1) / 2
        if not moved:
            break
    return {v: P[k] for k, v in enumerate(nodes)}


def legend_below(ax, ncols: int = 3) -> None:
    """Move ``ax``'s legend to one row under the drawing (it then covers nothing, and takes no width).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes with a legend (nothing happens without one).
    ncols : int, default 3
        Entries per row.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = draw_labelled_graph(nx.path_graph(4), [0, 0, 1, 1], new_axes())
    >>> legend_below(ax); ax.get_legend().get_frame_on()
    False
    """
    old = ax.get_legend()
    if old is None:
        return
    handles, texts = old.legend_handles, [t.get_text() for t in old.get_texts()]
    ax.legend(handles=handles, labels=texts, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncols=ncols,
              fontsize=LEGEND_FONTSIZE, frameon=False, borderaxespad=0.2, handletextpad=0.4, columnspacing=1.2)


def draw_labelled_graph(
    G: nx.Graph,
    labels,
    ax=None,
    pos=None,
    highlight_pair: tuple[int, ...] | None = None,
    title: str = "Graph, classes and cut edges",
    node_size: float = 80,
    with_labels: bool | None = None,
    *,
    path=None,
    legend: bool = True,
    font_size: float = 7,
    cut_width: float = 1.8,
    edge_gray: str = "0.75",
):
    """Draw ``G`` with vertices coloured by class and the cut edges ``Phi^G`` red and dashed.

    The one drawer of a labelled graph: no axes or ticks (positions mean nothing), vertex
    numbers when asked (by default for ``n <= 40``), a legend of the classes, and optionally
    the queried pair (circled) and the path revealed with it (black).

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int
        Class of each vertex.
    ax : matplotlib.axes.Axes, optional
        Where to draw the graph (a new figure by default).
    pos : dict, optional
        Vertex positions; :func:`graph_layout` when omitted.
    highlight_pair : (int, int) or (int,), optional
        A queried pair (or a single queried vertex), circled in black.
    title : str
    node_size : float
    with_labels : bool, optional
        Write vertex numbers on the vertices; default: when ``n <= 40``.
    path : sequence of int, optional
        A path revealed with the pair, drawn in black; the cut edges it crosses are drawn on top
        of it in solid red.
    legend : bool, default True
        A legend of the classes and of the cut edges.
    font_size : float, default 7
        Size of the vertex numbers; raise it (with ``node_size``) where a student picks
        vertices by number in a figure that is shown shrunk.
    cut_width : float, default 1.8
        Line width of the cut edges.
    edge_gray : str, default "0.75"
        Grey level of the other edges (a matplotlib grey string); darker with thinner cut
        edges keeps a small cut from looking like most of the graph.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = draw_labelled_graph(nx.path_graph(4), [0, 0, 1, 1], new_axes(), path=[0, 1, 2])
    >>> ax.axison, [t.get_text() for t in ax.get_legend().get_texts()]
    (False, ['class 0', 'class 1', 'cut edge'])
    """
    G = validate_graph(G)
    y = validate_labels(labels, G.number_of_nodes())
    ax = new_axes(ax, figsize=(6, 4.5))
    if pos is None:
        pos = graph_layout(G)
    if with_labels is None:
        with_labels = G.number_of_nodes() <= MAX_NUMBERED_VERTICES
    cut = cut_edges(G, y)
    cut_set = set(cut)
    inside = [e for e in G.edges if (min(e), max(e)) not in cut_set]
    nx.draw_networkx_edges(G, pos, edgelist=inside, ax=ax, edge_color=edge_gray, width=0.8)
    nx.draw_networkx_edges(G, pos, edgelist=cut, ax=ax, edge_color="tab:red", width=cut_width, style="dashed")
    colors = [CLASS_COLORS[int(c) % len(CLASS_COLORS)] for c in y]
    # colours are listed for vertices 0..n-1, so draw them in that order (not G's insertion order)
    nx.draw_networkx_nodes(G, pos, nodelist=range(len(y)), ax=ax, node_color=colors, node_size=node_size,
                           edgecolors="0.2", linewidths=0.5)
    if path is not None and len(path) >= 2:
        # the path goes over the vertices it does not visit, in a white halo, so that an edge passing
        # a vertex's disk is seen to pass it, not to end there; the path's own vertices go on top again
        halo = [patheffects.Stroke(linewidth=3.0 + 2 * PATH_HALO, foreground="white"), patheffects.Normal()]
        steps = list(zip(path[:-1], path[1:]))
        drawn = [nx.draw_networkx_edges(G, pos, edgelist=steps, ax=ax, edge_color="black", width=3.0)]
        crossed = [(a, b) for a, b in steps if (min(a, b), max(a, b)) in cut_set]
        if crossed:  # the cut edges the path crosses, on top in solid red, so they can be counted
            drawn.append(nx.draw_networkx_edges(G, pos, edgelist=crossed, ax=ax, edge_color="tab:red", width=3.0))
        for z, lines in enumerate(drawn):
            lines.set_zorder(PATH_ZORDER + 0.01 * z)
            lines.set_path_effects(halo)
        on_path = sorted({int(v) for v in path})
        nx.draw_networkx_nodes(G, pos, nodelist=on_path, ax=ax, node_color=[colors[v] for v in on_path],
                               node_size=node_size, edgecolors="0.2", linewidths=0.5).set_zorder(PATH_ZORDER + 0.1)
    if with_labels:
        nx.draw_networkx_labels(G, pos, ax=ax, font_size=font_size)
    if highlight_pair is not None:
        # the ring goes under the vertices and their numbers (zorder 1 < 2), so it never hides a number
        ring = nx.draw_networkx_nodes(
            G, pos, nodelist=list(highlight_pair), ax=ax, node_color="none",
            node_size=node_size * 2.4, edgecolors="black", linewidths=2.0,
        )
        ring.set_zorder(1)
    ax.set_title(f"{title}\n$|\\Phi^G|$ = {len(cut)} cut edge{'' if len(cut) == 1 else 's'} (red, dashed)")
    ax.set_axis_off()
    if legend:
        handles = [Line2D([], [], ls="none", marker="o", ms=7, mfc=CLASS_COLORS[int(k) % len(CLASS_COLORS)],
                          mec="0.2", label=f"class {int(k)}") for k in np.unique(y)]
        handles.append(Line2D([], [], color="tab:red", ls="--", lw=cut_width, label="cut edge"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=LEGEND_FONTSIZE,
                  frameon=False, borderaxespad=0.0)
    return ax


def draw_spanning_tree(G: nx.Graph, T: nx.Graph, labels=None, ax=None, pos=None, title: str = "A spanning tree T of G",
                       node_size: float = 40, cut_style: str = "solid"):
    """``G`` in light grey with the tree ``T`` drawn bold on top (cut edges of ``T`` in red).

    Parameters
    ----------
    G : networkx.Graph
    T : networkx.Graph
        A spanning tree of ``G``.
    labels : array_like of int, optional
        Vertex classes; cut tree edges are then red.
    ax : matplotlib.axes.Axes, optional
        Where to draw the tree (a new figure by default).
    pos : dict, optional
    title : str
    node_size : float, default 40
        Area of a vertex (large enough for a vertex number when one is written on it).
    cut_style : str, default "solid"
        Line style of the cut tree edges ("dashed" to match :func:`draw_labelled_graph`).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = draw_spanning_tree(nx.cycle_graph(4), nx.path_graph(4))
    >>> ax.get_title().splitlines()[0]
    'A spanning tree T of G'
    """
    G = validate_graph(G)
    ax = new_axes(ax)
    pos = graph_layout(G) if pos is None else pos
    nx.draw_networkx_edges(G, pos, ax=ax, edge_color="0.85", width=0.6)
    n = G.number_of_nodes()
    y = np.zeros(n, dtype=np.int64) if labels is None else validate_labels(labels, n)
    tree_edges = [(u, v) for u, v in T.edges]
    cut = [(u, v) for u, v in tree_edges if y[u] != y[v]]
    keep = [(u, v) for u, v in tree_edges if y[u] == y[v]]
    nx.draw_networkx_edges(G, pos, edgelist=keep, ax=ax, edge_color="0.2", width=1.8)
    nx.draw_networkx_edges(G, pos, edgelist=cut, ax=ax, edge_color="tab:red", width=2.2, style=cut_style)
    colors = [CLASS_COLORS[int(c) % len(CLASS_COLORS)] for c in y]
    nx.draw_networkx_nodes(G, pos, nodelist=range(n), ax=ax, node_color=colors, node_size=node_size,
                           edgecolors="0.2", linewidths=0.5)
    if labels is not None:
        suffix = f"\n$|\\Phi^T|$ = {len(cut)} cut tree edges (red{', dashed' if cut_style == 'dashed' else ''})"
    else:
        suffix = f"\n{len(tree_edges)} tree edges (bold)"
    ax.set_title(title + suffix)
    ax.set_axis_off()
    return ax


LOOP_WALK_COLOR = "#ffb25b"   # the raw walk of draw_loop_erasure: light orange, under the path
LOOP_PATH_COLOR = "#0044ff"   # its loop erasure: a saturated blue that stays blue on top of the orange
WALK_WIDTH = 6.0              # width (points) of the raw walk's band; the ×k counts stay outside it


def _segment_distances(c: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """Distances from the point ``c`` to the segments ``seg[k] = (x0, y0, x1, y1)``."""
    p, d = seg[:, :2], seg[:, 2:] - seg[:, :2]
    t = np.clip(((c - p) * d).sum(axis=1) / np.maximum((d * d).sum(axis=1), 1e-12), 0.0, 1.0)
    return np.hypot(*(p + t[:, None] * d - c).T)


def _label_beside_edges(ax, pos, edge_labels: dict, font_size: float, clear: float, node_size: float,
                        obstacles=(), edges=()) -> None:
    """Write ``edge_labels[(u, v)]`` beside each edge, never on it.

    A label on its edge would hide what is drawn along it (the walk's band, the widget's dashed
    erased loop), so each label's box sits ``clear`` points off the edge's centre line, on one
    side of it, at its middle or a little towards one end.  Among these spots each label takes
    the one that overlaps least with the other labels, the vertices, the ``obstacles`` edges
    and the outside of the drawing (first each in turn, then twice more each given all the
    others); ties go to the middle, above a horizontal edge and right of a vertical one.  A spot
    whose centre is not clearly nearer its own edge than any other of the drawn ``edges`` (at
    most 0.8 times as far) is taken only if no spot is (so a label never reads as belonging to a neighbouring edge).
    Each label is an annotation whose gid is ``"edge-label u-v"``.
    Geometry in points, from the axes' current scale.
    """
    if not edge_labels:
        return
    to_pt = 72.0 / ax.figure.dpi

    def pt(v) -> np.ndarray:
        return ax.transData.transform(np.asarray(pos[v], dtype=float)) * to_pt

    pad = 0.15 * font_size
    radius = 0.5 * float(np.sqrt(node_size))                      # a vertex disc, in points
    verts = np.array([pt(v) for v in pos])
    frame = (*(verts.min(axis=0) - radius), *(verts.max(axis=0) + radius))
    samples = []                                                  # points along the edges to keep clear
    for u, v in obstacles:
        p, q = pt(u), pt(v)
        k = max(2, int(np.hypot(*(q - p)) / 2.0))
        samples.append(((min(u, v), max(u, v)), p + np.linspace(0, 1, k)[:, None] * (q - p)))

    keys = [(min(u, v), max(u, v)) for u, v in edges]
    segs = np.array([[*pt(u), *pt(v)] for u, v in edges]).reshape(-1, 4)

    def area(r, s) -> float:
        return max(0.0, min(r[2], s[2]) - max(r[0], s[0])) * max(0.0, min(r[3], s[3]) - max(r[1], s[1]))

    spots = {}
    for (u, v), text in edge_labels.items():
        p, q = pt(u), pt(v)
        normal = np.array([p[1] - q[1], q[0] - p[0]]) / (float(np.hypot(*(q - p))) or 1.0)
        if normal[1] < -1e-9 or (abs(normal[1]) <= 1e-9 and normal[0] < 0):
            normal = -normal                                      # the preferred side: above, else right
        w, h = 0.75 * font_size * len(text) + 2 * pad, 1.25 * font_size + 2 * pad
        options = []
        for along, along_cost in ((0.5, 0.0), (0.35, 3.0), (0.65, 3.0)):
            for side, side_cost in ((normal, 0.0), (-normal, 1.0)):
                centre = p + along * (q - p) + (clear + 0.5 * abs(side[0]) * w + 0.5 * abs(side[1]) * h) * side
                box = (centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2)
                cost = along_cost + side_cost + 2.0 * (w * h - area(box, frame))
                for c in verts:
                    cost += 3.0 * area(box, (*(c - 0.8 * radius), *(c + 0.8 * radius)))
                grown = (box[0] - clear, box[1] - clear, box[2] + clear, box[3] + clear)
                for e, pts in samples:
                    if e != (min(u, v), max(u, v)):
                        inside = ((pts[:, 0] > grown[0]) & (pts[:, 0] < grown[2])
                                  & (pts[:, 1] > grown[1]) & (pts[:, 1] < grown[3]))
                        cost += 4.0 * int(inside.sum())
                own = (min(u, v), max(u, v))
                d_all = _segment_distances(centre, segs)
                d_own = float(np.hypot(*(centre - p - along * (q - p))))  # the own edge's nearest point at most
                d_other = min((float(d) for k, d in zip(keys, d_all) if k != own), default=np.inf)
                if d_own > 0.8 * d_other:                         # not clearly nearer its own edge: ambiguous
                    cost += 1e6 * (1.0 + d_own / max(d_other, 1e-9))
                options.append((cost, box, p + along * (q - p), side))
        spots[(u, v)] = options

    chosen: dict = {}
    for _ in range(3):
        for e, options in spots.items():
            others = [chosen[f][1] for f in chosen if f != e]
            near = [(r[0] - 1, r[1] - 1, r[2] + 1, r[3] + 1) for r in others]
            chosen[e] = min(options, key=lambda o: o[0] + 10.0 * sum(area(o[1], r) for r in near))
    for e, (_, _, anchor, side) in chosen.items():
        ha = "left" if side[0] > 0.3 else "right" if side[0] < -0.3 else "center"
        va = "bottom" if side[1] > 0.3 else "top" if side[1] < -0.3 else "center"
        off = (clear + pad) * side
        ax.annotate(edge_labels[e], xy=ax.transData.inverted().transform(anchor / to_pt),
                    xytext=(off[0], off[1]), textcoords="offset points", ha=ha, va=va, fontsize=font_size,
                    color="tab:red", zorder=6, gid=f"edge-label {e[0]}-{e[1]}",
                    bbox={"boxstyle": f"round,pad={pad / font_size}", "fc": "white", "ec": "tab:red", "lw": 0.6})


def draw_loop_erasure(G: nx.Graph, pos, tree_edges, walk, path, ax=None, title: str = "Wilson: one loop-erased walk",
                      node_size: float = 170, font_size: float = 8, root: int | None = None,
                      subtitle: str | None = None):
    """One step of Wilson's algorithm: the tree so far, the raw walk, and its loop erasure.

    ``tree_edges`` is the tree grown so far (black), ``walk`` the random walk from a new
    start vertex (green) until it hits the tree (orange, thin), ``path`` its loop erasure (blue,
    bold) that is grafted onto the tree.  Every vertex carries its number, and an edge the
    walk crossed more than once carries the count (``×3``) beside it, never on it (so that
    nothing drawn along the edge is hidden), nearer its own edge than any other, and the
    crossings add up to the number of steps in the title.  An empty ``walk`` draws the tree
    alone: no start, no walk.  The axes keep an equal aspect ratio (a grid's cells stay square).

    Parameters
    ----------
    G : networkx.Graph
    pos : dict
        Vertex positions.
    tree_edges : list of (int, int)
        The tree so far.
    walk : sequence of int
        The random walk.
    path : sequence of int
        Its loop erasure.
    ax : matplotlib.axes.Axes, optional
        Where to draw the step (a new figure by default).
    title : str
        The first line of the title (a second one counts the erased steps).
    subtitle : str, optional
        Replaces the lines counting the steps (e.g. ``"no walk yet"`` with an empty ``walk``).
    node_size : float, default 170
        Area of a vertex, large enough for its number.
    font_size : float, default 8
        Size of the vertex numbers and of the ``×k`` counts.
    root : int, optional
        The root of Wilson's algorithm, marked by a black square around it (not marked by default).

    Examples
    --------
    >>> G = nx.path_graph(4)
    >>> pos = {v: (v, 0) for v in G}
    >>> ax = draw_loop_erasure(G, pos, [(2, 3)], [0, 1, 0, 1, 2], [0, 1, 2], ax=new_axes())
    >>> ax.get_title().splitlines()[0], sorted(t.get_text() for t in ax.texts if "×" in t.get_text())
    ('Wilson: one loop-erased walk', ['×3'])
    """
    ax = new_axes(ax)
    nx.draw_networkx_edges(G, pos, ax=ax, edge_color="0.88", width=0.6)
    nx.draw_networkx_edges(G, pos, edgelist=list(tree_edges), ax=ax, edge_color="black", width=2.0)
    crossings = Counter((min(a, b), max(a, b)) for a, b in zip(walk[:-1], walk[1:]))
    nx.draw_networkx_edges(G, pos, edgelist=list(crossings), ax=ax, edge_color=LOOP_WALK_COLOR, width=WALK_WIDTH)
    nx.draw_networkx_edges(G, pos, edgelist=list(zip(path[:-1], path[1:])), ax=ax, edge_color=LOOP_PATH_COLOR,
                           width=2.5)
    nx.draw_networkx_nodes(G, pos, ax=ax, node_color="white", node_size=node_size, edgecolors="0.3", linewidths=0.6)
    if len(walk):
        nx.draw_networkx_nodes(G, pos, nodelist=[walk[0]], ax=ax, node_color="tab:green", node_size=node_size,
                               edgecolors="0.3", linewidths=0.6)
    if root is not None:
        nx.draw_networkx_nodes(G, pos, nodelist=[root], ax=ax, node_color="none", node_size=node_size * 1.9,
                               edgecolors="black", linewidths=1.5, node_shape="s")
    nx.draw_networkx_labels(G, pos, ax=ax, font_size=font_size)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.apply_aspect()                                   # the labels are placed in the final scale of the axes
    multiple = {e: f"×{c}" for e, c in crossings.items() if c > 1}
    _label_beside_edges(ax, pos, multiple, font_size=font_size, clear=WALK_WIDTH / 2 + 1.5, node_size=node_size,
                        obstacles=[*tree_edges, *crossings, *zip(path[:-1], path[1:])], edges=list(G.edges))
    if subtitle is None:
        erased = len(walk) - len(path)
        n_steps, n_path = max(len(walk) - 1, 0), max(len(path) - 1, 0)
        subtitle = (f"walk of {n_steps} step{'' if n_steps == 1 else 's'} (orange), {erased} erased,\n"
                    f"path of {n_path} (blue)")
    ax.set_title(f"{title}\n{subtitle}")
    return ax


def draw_edge_numbering(
    G: nx.Graph,
    labels=None,
    edges=None,
    ax=None,
    pos=None,
    thick=(),
    hidden=(),
    path=None,
    title: str = "Numbered, oriented edges",
    name_offset: int = 0,
    node_size: float = 420,
    font_size: float = 8,
    label_pos: float | str = 0.5,
    curved=None,
):
    """Draw ``G`` with edges oriented low -> high and numbered ``e1, e2, ...`` as in §5's figures.

    Parameters
    ----------
    G : networkx.Graph
    labels : array_like of int, optional
        Classes (vertex colours); edges joining two classes are drawn red.
    edges : list of (int, int), optional
        The numbering: ``edges[k]`` is labelled ``e{k+1}``.  Default: sorted edges of ``G``.
    ax : matplotlib.axes.Axes, optional
        Where to draw the numbered edges (a new figure by default).
    pos : dict, optional
    thick : iterable of (int, int)
        Edges drawn thick (a spanning tree, the forest of revealed paths).
    hidden : iterable of (int, int)
        Edges left out of the drawing (e.g. the cut edges, to show what the tree leaves connected).
    path : sequence of int, optional
        A vertex path drawn in blue underneath (an instance ``x_t``).
    title : str
    name_offset : int
        Vertex ``v`` is written ``v + name_offset`` (``1`` for the paper's vertex names).
    node_size : float
    font_size : float
        Size of the edge names ``e1, e2, ...`` (vertex numbers and the title are 1 and 2 points larger).
    label_pos : float
        Where an edge name sits along its edge, as in ``networkx.draw_networkx_edge_labels`` (0.5: the
        middle; a value off 0.5 separates the names of chords that cross at their middles); ``"auto"``:
        each name at the point of its edge farthest from the vertices and from the names drawn before it).
    curved : dict, optional
        ``{(a, b): rad}``: edges drawn as arcs (matplotlib's ``"arc3,rad=..."`` for the edge oriented
        low -> high; a negative ``rad`` bends it to the left of that direction), e.g. a chord that
        would otherwise cross other edges.  Their names sit on the arc.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> draw_edge_numbering(nx.path_graph(3), [0, 0, 1], ax=new_axes()).get_title()
    'Numbered, oriented edges'
    """
    if not isinstance(G, nx.Graph) or G.is_directed() or set(G.nodes) != set(range(G.number_of_nodes())):
        raise ValueError("draw_edge_numbering needs an undirected networkx.Graph on the vertices 0..n-1 "
                         "(it may be disconnected: a forest of revealed paths is fine)")
    n = G.number_of_nodes()
    y = None if labels is None else validate_labels(labels, n)
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    if pos is None:
        pos = graph_layout(G)
    key = lambda e: (min(e), max(e))  # noqa: E731 - the orientation low -> high
    edges = [key(e) for e in (sorted(G.edges) if edges is None else edges)]
    thick = {key(e) for e in thick}
    hidden = {key(e) for e in hidden}
    bend = {key(e): float(rad) for e, rad in (curved or {}).items()}

    def along(e, f):  # the point at fraction f of edge e (on its arc if it is curved)
        a, b = np.asarray(pos[e[0]], dtype=float), np.asarray(pos[e[1]], dtype=float)
        c = (a + b) / 2 + bend.get(e, 0.0) * np.array([b[1] - a[1], a[0] - b[0]])  # arc3's control point
        return (1 - f) ** 2 * a + 2 * f * (1 - f) * c + f**2 * b

    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    shown = [key(e) for e in G.edges if key(e) not in hidden]
    D.add_edges_from(shown)
    if path is not None and len(path) > 1:
        steps = [key(e) for e in zip(path, path[1:])]
        nx.draw_networkx_edges(D, pos, edgelist=steps, ax=ax, edge_color="tab:blue", width=9, alpha=0.5,
                               arrows=False, node_size=node_size)
    for group, width in (([e for e in shown if e not in thick], 1.0), ([e for e in shown if e in thick], 3.0)):
        cut = [e for e in group if y is not None and y[e[0]] != y[e[1]]]
        same = [e for e in group if e not in cut]
        for lst, colour in ((same, "0.25" if width > 1 else "0.6"), (cut, "tab:red")):
            styles = [("arc3", [e for e in lst if e not in bend])]
            styles += [(f"arc3,rad={bend[e]}", [e]) for e in lst if e in bend]
            for style, edgelist in styles:
                if edgelist:
                    nx.draw_networkx_edges(D, pos, edgelist=edgelist, ax=ax, width=width, edge_color=colour,
                                           arrows=True, arrowstyle="-|>", arrowsize=12, node_size=node_size,
                                           connectionstyle=style)
    number = {e: k + 1 for k, e in enumerate(edges)}
    named = {e: f"e{number[e]}" for e in shown if e in number}
    if label_pos == "auto":
        # each name at the point along its edge farthest from the vertices and the names placed before it
        placed = [np.asarray(pos[v], dtype=float) for v in range(n)]
        for e, text in named.items():
            spots = [along(e, f) for f in (0.5, 0.3, 0.7, 0.4, 0.6, 0.22, 0.78)]
            best = max(spots, key=lambda q: min(float(np.linalg.norm(q - o)) for o in placed))
            placed.append(best)
            ax.text(*best, text, fontsize=font_size, ha="center", va="center", zorder=5,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "lw": 0})
    else:
        straight = {e: text for e, text in named.items() if e not in bend}
        nx.draw_networkx_edge_labels(D, pos, edge_labels=straight, ax=ax, font_size=font_size, label_pos=label_pos,
                                     rotate=False, bbox={"boxstyle": "round,pad=0.1", "fc": "white", "lw": 0})
        for e in set(named) - set(straight):  # networkx puts labels on the straight segment: on the arc instead
            ax.text(*along(e, 1 - float(label_pos)), named[e], fontsize=font_size, ha="center", va="center", zorder=5,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "lw": 0})
    colours = ["0.85"] * n if y is None else [CLASS_COLORS[int(c) % len(CLASS_COLORS)] for c in y]
    nx.draw_networkx_nodes(D, pos, nodelist=range(n), ax=ax, node_color=colours, node_size=node_size,
                           edgecolors="0.2", linewidths=0.8)
    nx.draw_networkx_labels(D, pos, labels={v: str(v + name_offset) for v in range(n)}, ax=ax, font_size=font_size + 1)
    arcs = [along(e, f) for e in shown if e in bend for f in np.linspace(0, 1, 21)]
    if arcs:  # an arc may bulge beyond the vertices: make room for it (and its name) above the title's edge
        ax.update_datalim(np.vstack(arcs))
        ax.autoscale_view()
    ax.set_title(title, fontsize=font_size + 2)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.tick_params(left=False, bottom=False, labelleft=False, labelbottom=False)
    for spine in ax.spines.values():  # no frame; the axes stay on for a caption set as xlabel
        spine.set_visible(False)
    return ax


def draw_forest_rounds(n: int, rounds, pos, grow: str = "disconnected", labels=None, name_offset: int = 0, axes=None,
                       font_size: float = 8):
    """Replay revealed paths into a :class:`~simpred_lite.learners.PathForest`, one panel per round (Figure 7).

    Each panel shows the forest after the round (thick, numbered by disclosure), the pair's
    path *in the forest* in blue — the path ``x_t`` is built from, as in the paper's figure of
    these rounds — the revealed edges the forest did not keep as thin dotted lines and, in the
    title, the pair and its instance ``x_t``.

    Parameters
    ----------
    n : int
    rounds : sequence of (i, j, path)
    pos : dict
        Vertex positions.
    grow : {"disconnected", "always"}
    labels : array_like of int, optional
    name_offset : int
        ``1`` to print the paper's vertex names.
    axes : sequence of matplotlib.axes.Axes, optional
        One per round; a new row of panels when omitted.
    font_size : float, default 8
        Size of the edge names and the captions (vertex numbers and titles are larger, as in
        :func:`draw_edge_numbering`).

    Returns
    -------
    list of numpy.ndarray
        The instance vectors ``x_t``.

    Examples
    --------
    >>> axes = [new_axes(), new_axes()]
    >>> pos = {0: (0, 0), 1: (1, 0), 2: (2, 0)}
    >>> [x.tolist() for x in draw_forest_rounds(3, [(0, 1, [0, 1]), (2, 0, [2, 1, 0])], pos, axes=axes)]
    [[1, 0], [-1, -1]]
    """
    from ..learners.unknown import PathForest

    rounds = list(rounds)
    if axes is None:
        _, axes = plt.subplots(1, len(rounds), figsize=(3.2 * len(rounds), 3.4))
    axes = np.atleast_1d(axes)
    if len(axes) < len(rounds):
        raise ValueError(f"need one Axes per round: {len(rounds)} rounds, {len(axes)} axes")
    F = PathForest(n, grow=grow)
    xs = []
    for t, ((i, j, path), ax) in enumerate(zip(rounds, axes), start=1):
        verts, _, _ = F.instance_sparse(i, j, path)
        xs.append(F.instance(i, j, path))  # idempotent: the pair is now connected
        H = nx.Graph()
        H.add_nodes_from(range(n))
        H.add_edges_from(F.edges)
        vec = "(" + ",".join(str(v) for v in xs[-1]) + ")"
        draw_edge_numbering(H, labels, edges=F.edges, ax=ax, pos=pos, thick=F.edges, path=[int(v) for v in verts],
                            name_offset=name_offset, node_size=260 * (font_size / 8) ** 2, font_size=font_size,
                            title=f"t={t}: pair ({i + name_offset},{j + name_offset})\nx_{t} = {vec}")
        kept = {(min(e), max(e)) for e in F.edges}
        dropped = [(a, b) for a, b in zip(path[:-1], path[1:]) if (min(a, b), max(a, b)) not in kept]
        if dropped:
            nx.draw_networkx_edges(nx.Graph(dropped), pos, edgelist=dropped, ax=ax, style="dotted", width=1.6,
                                   edge_color="0.3", node_size=260 * (font_size / 8) ** 2)
        name = lambda vs: "→".join(str(v + name_offset) for v in vs)  # noqa: E731
        caption = f"forest path (blue): {name(verts)}"
        if [int(v) for v in verts] != [int(v) for v in path]:
            caption += f"\nrevealed path: {name(path)}"
        ax.set_xlabel(caption, fontsize=font_size)
        ax.set_ylabel("")
    return xs


def draw_path_order(order, labels=None, ax=None, title: str = "The path P (depth-first order)"):
    """The vertices of ``order`` on a line, joined in order, coloured by class.

    Parameters
    ----------
    order : sequence of int
        The vertices in path order.
    labels : array_like of int, optional
    ax : matplotlib.axes.Axes, optional
        Where to draw the path (a new figure by default).
    title : str

    Examples
    --------
    >>> draw_path_order([2, 0, 1], [0, 1, 1], ax=new_axes()).get_title().splitlines()[0]
    'The path P (depth-first order)'
    """
    ax = new_axes(ax)
    order = [int(v) for v in order]
    P = nx.path_graph(len(order))
    pos = {i: (float(i), 0.0) for i in range(len(order))}
    y = None if labels is None else validate_labels(labels, len(order))
    cut = [] if y is None else [(i, i + 1) for i in range(len(order) - 1) if y[order[i]] != y[order[i + 1]]]
    nx.draw_networkx_edges(P, pos, ax=ax, edgelist=[e for e in P.edges if e not in set(cut)], edge_color="0.3",
                           width=1.5)
    if cut:
        nx.draw_networkx_edges(P, pos, ax=ax, edgelist=cut, edge_color="tab:red", width=2.2, style="dashed")
    colors = ["white" if y is None else CLASS_COLORS[int(y[v]) % 10] for v in order]
    nx.draw_networkx_nodes(P, pos, ax=ax, node_color=colors, node_size=160 if len(order) <= 16 else 30,
                           edgecolors="0.2")
    if len(order) <= 32:
        nx.draw_networkx_labels(P, pos, labels=dict(enumerate(map(str, order))), ax=ax, font_size=7)
    extra = f"\n$|\\Phi^P|$ = {len(cut)} cut edges (red, dashed)" if y is not None else ""
    ax.set_title(title + extra)
    ax.set_ylim(-1, 1)
    ax.set_axis_off()
    return ax
