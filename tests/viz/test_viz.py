"""The figure standard: titles and labels, readable legends, bounds dashed in the learner's
colour, integer ticks for counts, no axes on graph drawings, one BST layout everywhere."""

import matplotlib

matplotlib.use("Agg")

import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from simpred_lite.bst import BinarySupportTree  # noqa: E402
from simpred_lite.game import Playground, RunResult, evaluate  # noqa: E402
from simpred_lite.graphs import barbell_graph, planted_partition  # noqa: E402
from simpred_lite.viz import (  # noqa: E402
    bst_layout,
    draw_bst,
    draw_bst_trial,
    draw_labelled_graph,
    draw_lambda_regions,
    plot_mistake_curves,
    plot_scaling,
)


def _ax():
    return Figure().add_subplot()


def _run(curve):
    curve = np.asarray(curve)
    wrong = np.diff(np.concatenate([[0], curve]))
    return RunResult(wrong, wrong, curve)


RESULTS = {f"learner {k}": _run(np.minimum(np.arange(1, 31), 3 + 2 * k)) for k in range(6)}
BOUNDS = {f"learner {k}": 10.0 + k for k in range(6)}


def test_mistake_curves_have_title_labels_and_a_readable_legend():
    ax = plot_mistake_curves(RESULTS, _ax(), BOUNDS, "six learners")
    assert ax.get_title() == "six learners" and ax.get_xlabel() and ax.get_ylabel()
    legend = ax.get_legend()
    assert all(t.get_fontsize() >= 9 for t in legend.get_texts())
    # many entries: the legend sits outside the axes, to their right
    assert legend.get_bbox_to_anchor().x0 >= ax.get_window_extent().x1 - 1


def test_each_bound_is_dashed_in_its_learners_colour():
    ax = plot_mistake_curves(RESULTS, _ax(), BOUNDS)
    lines = {line.get_label(): line for line in ax.get_lines()}
    for name in RESULTS:
        curve, bound = lines[name], lines[f"bound of {name}: {BOUNDS[name]:.4g}"]
        assert bound.get_linestyle() == "--"
        assert to_rgba(bound.get_color()) == to_rgba(curve.get_color())


def test_learners_differ_by_colour_and_marker():
    ax = plot_mistake_curves(RESULTS, _ax())
    curves = [line for line in ax.get_lines() if line.get_label() in RESULTS]
    assert len({to_rgba(c.get_color()) for c in curves}) == len(curves)
    assert len({c.get_marker() for c in curves}) == len(curves)


def test_count_axes_have_integer_ticks():
    ax = plot_mistake_curves({"a": _run([1, 1, 2])}, _ax())
    ticks = ax.yaxis.get_major_locator().tick_values(0, 7.3)
    assert np.allclose(ticks, np.round(ticks))


def test_bounds_off_the_chart_are_named_not_drawn():
    ax = plot_mistake_curves({"a": _run([1, 2])}, _ax(), {"a": 1e6}, cap=10)
    assert [line.get_label() for line in ax.get_lines()] == ["a (bound 1e+06, off the chart)"]


def test_evaluation_and_playground_figures_use_the_plotter():
    G, y = barbell_graph(5)
    ax = evaluate(["AlwaysSimilar", "UnionFindLearner"], G, y, T=40).plot()
    assert any(line.get_linestyle() == "--" for line in ax.get_lines())
    game = Playground("barbell", ["AlwaysSimilar", "UnionFindLearner"], seed=0)
    game.play(5)
    from simpred_lite.apps import PlaygroundApp

    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], seed=0)
    app.step()
    race = app.figure().axes[-1]
    assert race.get_legend() is not None and race.get_legend().get_texts()[0].get_fontsize() >= 9


def test_coinciding_curves_keep_their_markers_apart():
    same = _run([1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6])
    ax = plot_mistake_curves({"a": same, "b": same}, _ax())
    a, b = (line for line in ax.get_lines() if line.get_label() in ("a", "b"))
    assert a.get_markevery() != b.get_markevery(), "two equal curves should carry their markers at different trials"


def test_evaluation_legend_names_each_bound_once():
    G, y = barbell_graph(5)
    ax = evaluate(["AlwaysSimilar", "UnionFindLearner"], G, y, T=40, seed=0).plot()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    bound = [t for t in texts if "bound" in t]
    assert bound == ["UnionFindLearner: 8 mistakes; bound 8"], f"the learner's entry gives its bound once: {texts}"


@pytest.mark.parametrize("n, numbered", [(12, True), (60, False)])
def test_graph_drawings_have_no_axes_numbers_for_small_graphs_and_a_class_legend(n, numbered):
    G, y = planted_partition(n, 3, 0.4, 0.1, seed=1)
    ax = draw_labelled_graph(G, y, _ax())
    assert not ax.axison and ax.get_title()
    assert bool(ax.texts) == numbered
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[:3] == ["class 0", "class 1", "class 2"] and "cut edge" in texts
    assert all(t.get_fontsize() >= 9 for t in ax.get_legend().get_texts())


def test_vertex_numbers_are_an_option():
    G, y = planted_partition(12, 2, 0.5, 0.1, seed=2)
    assert not draw_labelled_graph(G, y, _ax(), with_labels=False).texts
    assert draw_labelled_graph(*planted_partition(60, 2, 0.2, 0.05, seed=2), _ax(), with_labels=True).texts


def test_a_revealed_path_is_drawn_over_the_vertices_it_passes_and_under_its_own():
    # vertex 2 lies on the edge 0-1 of the path [0, 1]: the drawing must show the path passing over
    # it (black at its centre), not ending at it; the path's own vertices stay on top (their colour
    # at their centres)
    G = nx.Graph([(0, 1), (1, 2), (2, 3)])
    pos = {0: np.array([0.0, 0.0]), 1: np.array([1.0, 0.0]), 2: np.array([0.5, 0.0]), 3: np.array([0.5, 1.0])}
    fig = Figure(figsize=(4, 3), dpi=100)
    ax = draw_labelled_graph(G, [0, 0, 1, 1], fig.add_subplot(), pos=pos, path=[0, 1], with_labels=False,
                             legend=False, node_size=300)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    pixels = np.asarray(canvas.buffer_rgba())[..., :3] / 255.0

    def colour_at(v):
        x, y = ax.transData.transform(pos[v])
        return pixels[int(round(fig.bbox.height - y)), int(round(x))]

    assert np.allclose(colour_at(2), 0, atol=0.1), f"the path should be drawn over vertex 2: {colour_at(2)}"
    for v in (0, 1):
        assert np.allclose(colour_at(v), to_rgba("tab:blue")[:3], atol=0.1), f"vertex {v} of the path is hidden"


def test_every_bst_figure_uses_the_one_layout():
    B = BinarySupportTree.from_graph(nx.path_graph(6), seed=0)
    pos = bst_layout(B)
    ax = draw_bst(B, [0, 0, 0, 1, 1, 1], _ax(), path=B.path(0, 5))
    xy = {tuple(np.round(p, 6)) for coll in ax.collections for p in coll.get_offsets()}
    real = [v for v in pos if v < B.num_leaves + B.n]  # heap vertices above real leaves and the real leaves
    assert {tuple(np.round(pos[v], 6)) for v in real} <= xy
    assert ax.get_title() and not ax.axison
    from simpred_lite.learners.bst_perceptron import trial_structure

    ax = draw_bst_trial(B, trial_structure(B, 0, 5), _ax())
    assert ax.get_title() and not ax.axison


def test_lambda_regions_colour_each_region_and_leave_the_path_interior_white():
    from simpred_lite.learners.bst_perceptron import extended_tags, trial_structure

    B = BinarySupportTree(list(range(8)))
    st = trial_structure(B, 1, 4)
    ax = draw_lambda_regions(B, st, _ax())
    assert ax.get_title() and not ax.axison
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[:-1] == [rf"$\Lambda_t({l})$: $f_t = {st.tags[l]}$" for l in sorted(st.S)]
    assert all(t.get_fontsize() >= 9 for t in ax.get_legend().get_texts())
    # one scatter per vertex: same face colour <=> same region <=> same extended tag
    at = {tuple(np.round(p, 6)): h for h, p in bst_layout(B).items()}
    faces = {at[tuple(np.round(c.get_offsets()[0], 6))]: tuple(np.round(c.get_facecolors()[0][:3], 6))
             for c in ax.collections}
    f = extended_tags(B, st)
    interior = set(st.path[1:-1])
    for a in range(1, 16):
        for b in range(1, 16):
            if a not in interior and b not in interior:
                assert (faces[a] == faces[b]) == (f[a] == f[b])
    assert all(faces[v] == (1.0, 1.0, 1.0) for v in interior)


def test_scaling_plot_draws_each_measured_curve_and_no_fitted_one():
    ax = plot_scaling([64, 256, 1024], {"fast": [36.0, 64.0, 100.0], "slow": [1.0, 2.0, 3.0]}, _ax())
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"fast", "slow"}
    assert np.allclose(lines["fast"].get_ydata(), [36.0, 64.0, 100.0])
    assert lines["fast"].get_marker() != lines["slow"].get_marker()
    assert all(t.get_fontsize() >= 9 for t in ax.get_legend().get_texts())


def test_loop_erasure_numbers_every_vertex_and_counts_repeated_crossings():
    from simpred_lite.viz import draw_loop_erasure

    G = nx.grid_2d_graph(3, 3)
    G = nx.convert_node_labels_to_integers(G, ordering="sorted")
    pos = {v: (v % 3, -(v // 3)) for v in G}
    walk = [0, 1, 0, 1, 2, 5, 4, 5, 8]                      # (0, 1) three times, (4, 5) twice
    path = [0, 1, 2, 5, 8]
    ax = draw_loop_erasure(G, pos, [], walk, path, ax=_ax())
    texts = [t.get_text() for t in ax.texts]
    assert {str(v) for v in G} <= set(texts), "every vertex carries its number"
    counts = sorted(t for t in texts if t.startswith("×"))
    assert counts == ["×2", "×3"], "edges walked more than once carry their crossing count"
    assert all(t.get_fontsize() >= 8 for t in ax.texts)
    assert not ax.axison


@pytest.mark.parametrize("font_size", [8, 11])
def test_loop_erasure_counts_sit_beside_their_edges_and_hide_no_walked_edge(font_size):
    from simpred_lite.viz import draw_loop_erasure
    from simpred_lite.viz.graphs import WALK_WIDTH

    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 4), ordering="sorted")
    pos = {v: (v % 4, -(v // 4)) for v in G}
    # (0, 1) x3 and (0, 4) x2 meet at a corner; (5, 6), (6, 10), (9, 10) x2 or more around one cell
    walk = [0, 1, 0, 1, 5, 6, 10, 9, 10, 6, 5, 1, 0, 4, 0, 4, 8, 12]
    path = [0, 4, 8, 12]
    fig = Figure(figsize=(4, 4))
    FigureCanvasAgg(fig)
    ax = draw_loop_erasure(G, pos, [], walk, path, ax=fig.add_subplot(), node_size=300, font_size=font_size)
    fig.canvas.draw()                                   # places the boxes around the counts
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_bbox_patch().get_window_extent(renderer) for t in ax.texts if t.get_text().startswith("×")]
    assert all(box.width > font_size for box in boxes), "the boxes are measured in pixels, after drawing"
    assert len(boxes) == 6, "every edge walked more than once carries its count"
    band = WALK_WIDTH / 2 * fig.dpi / 72                  # half the walk's band, in pixels
    for a, b in {(min(u, v), max(u, v)) for u, v in zip(walk[:-1], walk[1:])}:
        p, q = ax.transData.transform(pos[a]), ax.transData.transform(pos[b])
        line = p + np.linspace(0, 1, 200)[:, None] * (q - p)
        for box in boxes:
            inside = ((line[:, 0] > box.x0 - band) & (line[:, 0] < box.x1 + band)
                      & (line[:, 1] > box.y0 - band) & (line[:, 1] < box.y1 + band))
            assert not inside.any(), f"a count's box covers the walked edge {a}-{b}"
    for i, one in enumerate(boxes):
        for other in boxes[i + 1:]:
            assert not one.overlaps(other), "two counts overlap"


def _segment_distance(c, p, q):
    d = q - p
    t = np.clip(np.dot(c - p, d) / max(np.dot(d, d), 1e-12), 0.0, 1.0)
    return float(np.hypot(*(p + t * d - c)))


def _count_distances_to_edges(ax, G, pos):
    """For each ``×k`` count (after drawing): its own edge, then the nearest other edge, from its box centre (px)."""
    renderer = ax.figure.canvas.get_renderer()
    found = []
    for t in ax.texts:
        if t.get_text().startswith("×"):
            u, v = map(int, t.get_gid().removeprefix("edge-label ").split("-"))
            box = t.get_bbox_patch().get_window_extent(renderer)
            c = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
            dist = {tuple(sorted(e)): _segment_distance(c, ax.transData.transform(pos[e[0]]),
                                                        ax.transData.transform(pos[e[1]])) for e in G.edges}
            own = dist.pop((min(u, v), max(u, v)))
            found.append(((u, v), own, min(dist.values())))
    return found


def test_loop_erasure_counts_are_clearly_nearer_their_own_edge_than_any_other():
    # the figure of notebook 02 (cell 7): three walks on the 6x6 grid, seed 2, root 14; in walk 6 the x2 of
    # edge 24-25 once sat beside edge 18-24
    from simpred_lite.graphs import grid_graph
    from simpred_lite.spanning import wilson_trace
    from simpred_lite.viz import draw_loop_erasure

    G, _ = grid_graph(6, 6)
    pos = {v: (v % 6, -(v // 6)) for v in G}
    _, steps = wilson_trace(G, seed=2, root=14)
    fig = Figure(figsize=(10, 4.2))
    FigureCanvasAgg(fig)
    seen = 0
    axes = fig.subplots(1, 3)
    for ax, k in zip(axes, (2, 5, 7)):                  # walks 3, 6 and 8, as in the notebook
        tree_k = [e for s in steps[:k] for e in zip(s["path"][:-1], s["path"][1:])]
        draw_loop_erasure(G, pos, tree_k, steps[k]["walk"], steps[k]["path"], ax=ax, node_size=300, font_size=11,
                          root=14)
    fig.tight_layout()
    fig.canvas.draw()
    for ax in axes:
        for edge, own, other in _count_distances_to_edges(ax, G, pos):
            seen += 1
            assert own <= 0.8 * other, f"the count of edge {edge} is not clearly nearer its own edge ({own:.0f} px) " \
                                       f"than another ({other:.0f} px)"
    assert seen >= 4, "walks 6 and 8 cross edges more than once"
    counts = sorted(t.get_gid() for t in axes[1].texts if t.get_text().startswith("×"))
    assert "edge-label 24-25" in counts, "walk 6 crosses edge 24-25 twice"


def test_figure1_numbers_the_depth_first_order_on_T_in_readable_type():
    from simpred_lite.viz import plot_figure1

    G = nx.cycle_graph(6)
    B = BinarySupportTree.from_graph(G, seed=0, root=0)
    fig = plot_figure1(G, B, [0, 0, 0, 1, 1, 1])
    t_panel = fig.axes[1]
    ranks = sorted(t.get_text() for t in t_panel.texts if t.get_text().startswith("#"))
    assert ranks == sorted(f"#{k}" for k in range(1, 7)), "T shows the position of each vertex in P"
    assert all(t.get_fontsize() >= 9 for ax in fig.axes for t in ax.texts), "vertex numbers of at least 9 pt"


def _px_box(artist, renderer):
    return artist.get_window_extent(renderer)


def test_graph_adversary_legend_stays_clear_of_the_mistakes_panel():
    from simpred_lite.apps import GraphAdversaryApp
    from simpred_lite.learners import UnionFindLearner

    app = GraphAdversaryApp(nx.cycle_graph(6), UnionFindLearner(6))
    fig = app.figure()
    renderer = FigureCanvasAgg(fig).get_renderer()
    graph_ax, mistakes_ax = fig.axes[0], fig.axes[-1]
    legend = _px_box(graph_ax.get_legend(), renderer)
    assert legend.x1 < mistakes_ax.get_tightbbox(renderer).x0, "the class legend runs into the mistakes panel"


def _picking_apps():
    """Every app where a student picks vertices by the numbers drawn on them: (name, app, figure, dpi)."""
    from simpred_lite import karate_club
    from simpred_lite.apps import (
        GraphAdversaryApp,
        PlaygroundApp,
        SimilarityGame,
        adversary_apps,
        playground_app,
        similarity_game,
    )
    from simpred_lite.learners import UnionFindLearner

    G, y = karate_club()
    for graph in ("karate club", "planted partition", "grid", "barbell"):
        app = PlaygroundApp(graph, adversary="student", seed=0)  # the BST Perceptron's panel too: the narrowest
        yield f"playground ({graph})", app.game.n, app.figure, playground_app.FIGURE_DPI
    game = SimilarityGame(G, y, UnionFindLearner(34), bound=32)
    yield "similarity game (00)", 34, game.figure, similarity_game.FIGURE_DPI
    for H in (nx.cycle_graph(6), G):
        app = GraphAdversaryApp(H, UnionFindLearner(H.number_of_nodes()))
        yield f"graph adversary ({H.number_of_nodes()} vertices)", H.number_of_nodes(), app.figure, \
            adversary_apps.GRAPH_FIGURE_DPI


@pytest.mark.parametrize("name, n, figure, dpi", list(_picking_apps()), ids=lambda v: v if isinstance(v, str) else "")
def test_vertex_numbers_the_student_picks_by_are_legible_at_the_size_jupyterlab_shows(name, n, figure, dpi):
    from simpred_lite.viz.style import MIN_PICKED_NUMBER_PT, NOTEBOOK_OUTPUT_WIDTH_PX, displayed_font_pt

    fig = figure()
    from simpred_lite.viz.style import figure_to_png

    png = figure_to_png(fig, dpi=dpi, tight=False)
    width_px = int.from_bytes(png[16:20], "big")
    numbers = [t for t in fig.axes[0].texts if t.get_text().isdigit()]
    assert sorted(int(t.get_text()) for t in numbers) == list(range(n)), f"{name}: every vertex carries its number"
    shown = min(displayed_font_pt(t.get_fontsize(), dpi, width_px) for t in numbers)
    assert shown >= MIN_PICKED_NUMBER_PT, (
        f"{name}: a {width_px}-px image at {dpi} dpi shows its vertex numbers at {shown:.1f} pt in a "
        f"{NOTEBOOK_OUTPUT_WIDTH_PX}-px output area; the student picks vertices by them")


def test_the_legibility_rule_catches_a_wide_figure():
    from simpred_lite.viz.style import MIN_PICKED_NUMBER_PT, displayed_font_pt

    # the playground's previous figure: 9.5-pt numbers in a 1008-px image at 80 dpi (about 6 pt shown)
    assert displayed_font_pt(9.5, 80, 1008) < MIN_PICKED_NUMBER_PT
    assert displayed_font_pt(10, 96, 768) == 10 and displayed_font_pt(10, 96, 1552) == pytest.approx(5, rel=0.01)


def _legend_clear_of_data(ax):
    """The legend's box does not overlap the axes' data area (it sits outside, to the right or below)."""
    renderer = FigureCanvasAgg(ax.figure).get_renderer()
    legend, axes = _px_box(ax.get_legend(), renderer), ax.get_window_extent(renderer)
    return not legend.overlaps(axes) and (legend.x0 >= axes.x1 or legend.y1 <= axes.y0)


EIGHT = ["AlwaysSimilar", "UnionFindLearner", "Matrix Perceptron", "Matrix Winnow", "BST Perceptron", "TreeWinnow",
         "r-norm Perceptron"]


def test_evaluation_plot_stays_readable_with_eight_learners():
    from simpred_lite.learners import UnionFindLearner

    G, y = planted_partition(40, 4, 0.5, 0.05, seed=1)
    G.graph["name"] = "four blocks"
    ev = evaluate({**{name: name for name in EIGHT}, "UnionFind (class)": UnionFindLearner}, G, y, T=300, seed=0)
    ax = ev.plot()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(texts) == 8, "one legend entry per learner; bounds are explained once, in the title"
    assert _legend_clear_of_data(ax), "the legend covers the curves"
    title = ax.get_title()
    assert all(part in title for part in ("four blocks", "n = 40", "300 random trials", "dashed")), title
    assert any("[graph, true |Φ|]" in t for t in texts), "Matrix Winnow's oracle is named in its entry"
    top = ev["AlwaysSimilar"].mistakes
    others = sorted(r.mistakes for k, r in ev.learners.items() if k != "AlwaysSimilar")
    assert (ax.get_yscale() == "symlog") == (top > 4 * float(np.median([top, *others]))), \
        "the mistake axis is logarithmic exactly when one curve towers over the median"
    assert ev.plot(log=True).get_yscale() == "symlog" and ev.plot(log=False).get_yscale() == "linear"


def test_evaluation_plot_goes_logarithmic_when_always_similar_squeezes_the_others():
    G, y = barbell_graph(20)
    ev = evaluate(["AlwaysSimilar", "UnionFindLearner", "Matrix Winnow"], G, y, T=600, seed=0)
    assert ev["AlwaysSimilar"].mistakes > 4 * ev["UnionFindLearner"].mistakes
    ax = ev.plot()
    assert ax.get_yscale() == "symlog", "AlwaysSimilar squeezes the others into the bottom of a linear axis"
    assert _legend_clear_of_data(ax)


def test_constraint_arcs_can_be_told_apart_and_cross_little():
    from simpred_lite.theory import reduce_to_constrained_path
    from simpred_lite.viz import draw_labelled_path

    G = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (0, 3), (1, 4)])     # the running example of notebook 08
    P, C = reduce_to_constrained_path(G)
    copies = [P.nodes[p]["copy"] for p in P]
    ax = draw_labelled_path(copies, ax=_ax(), constraints=C)
    arcs = {a.get_gid(): a for a in ax.patches if str(a.get_gid()).startswith("constraint ")}
    assert set(arcs) == {f"constraint {min(i, j)}-{max(i, j)}" for i, j in C}, "one arc per constraint"
    look = {}
    for i, j in C:
        arc = arcs[f"constraint {min(i, j)}-{max(i, j)}"]
        look.setdefault(copies[i], set()).add((to_rgba(arc.get_edgecolor()), arc.get_linestyle()))
    assert all(len(s) == 1 for s in look.values()), "all arcs of one vertex look alike"
    assert len({next(iter(s)) for s in look.values()}) == len(look), "other vertices, other arcs"
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {f"copies of {v}" for v in G}, "a legend names them"
    ys = {gid: a.get_path().vertices[:, 1] for gid, a in arcs.items()}
    assert any(y.min() < 0 for y in ys.values()) and any(y.max() > 0 for y in ys.values()), \
        "arcs on both sides of the path"
    for gid, a in arcs.items():
        lo, hi = map(int, gid.split()[1].split("-"))
        v = a.get_path().vertices
        assert tuple(v[0]) == (lo, 0) and tuple(v[-1]) == (hi, 0), f"arc {gid} ends exactly at its two vertices"

    def first_step(lo, hi, end):      # the direction in which the arc leaves its end `end`
        v = arcs[f"constraint {lo}-{hi}"].get_path().vertices
        d = v[1] - v[0] if end == lo else v[-2] - v[-1]
        return np.degrees(np.arctan2(abs(d[1]), abs(d[0])))

    # nested arcs sharing an end (0-12 and 2-12 at vertex 12, 3-11 and 5-11 at vertex 11) leave it at angles
    # at least 20 degrees apart, so that they do not run together
    for (a, b), (c, d), end in [((0, 12), (2, 12), 12), ((3, 11), (5, 11), 11), ((1, 9), (1, 7), 1)]:
        assert abs(first_step(a, b, end) - first_step(c, d, end)) >= 20, f"arcs {a}-{b} and {c}-{d} fan out at {end}"
    assert all(t.get_fontsize() >= 9 for t in ax.get_xticklabels()), "tick labels of at least 9 pt"


def test_a_learner_keeps_its_colour_whatever_the_other_learners():
    """One mapping name -> colour: the same learner, drawn beside different learners in two
    figures, has the same colour in both, and it is the colour of :func:`learner_color`."""
    from simpred_lite.game import label_spreading_anchor
    from simpred_lite.viz import LEARNER_COLORS, learner_color, learner_colors

    G, y = barbell_graph(5)
    anchor = label_spreading_anchor("similarity", refit_every=20)
    first = evaluate(["AlwaysSimilar", "Matrix Winnow", "BST Perceptron"], G, y, T=40, seed=0).plot(ax=_ax())
    second = evaluate(["BST Perceptron", anchor, "UnionFindLearner", "Matrix Winnow"], G, y, T=40,
                      seed=0).plot(ax=_ax())

    def colours(ax):
        return {line.get_label().split(" [")[0].split(":")[0]: to_rgba(line.get_color())
                for line in ax.get_lines() if line.get_linestyle() in ("-", ":")}  # not the dashed bounds

    one, two = colours(first), colours(second)
    for name in ("Matrix Winnow", "BST Perceptron"):
        assert one[name] == two[name] == to_rgba(learner_color(name)), f"{name} changed colour between figures"
    assert two[anchor.name] == to_rgba(LEARNER_COLORS["LabelSpreading, similarity"])
    assert len(set(two.values())) == len(two), "learners of one figure differ by colour"
    # the registry's learners have distinct colours, and learners outside it keep theirs too
    assert len(set(LEARNER_COLORS.values())) == len(LEARNER_COLORS)
    assert learner_colors(["mine", "Matrix Winnow"])["mine"] == learner_color("mine") not in LEARNER_COLORS.values()


def test_evaluation_legend_sits_below_the_axes_clear_of_the_data():
    G, y = barbell_graph(5)
    fig = Figure(figsize=(8, 4.6))
    ax = fig.add_subplot()
    evaluate(["AlwaysSimilar", "UnionFindLearner", "Matrix Winnow", "BST Perceptron", "Matrix Perceptron"],
             G, y, T=40, seed=0).plot(ax=ax)
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    legend, axes = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    label = ax.xaxis.label.get_window_extent(renderer)
    assert legend.y1 <= label.y0, "the legend starts below the trial axis' label"
    assert axes.width >= 0.7 * fig.bbox.width, "the data area keeps most of the figure's width"
    assert all(t.get_fontsize() >= 9 for t in ax.get_legend().get_texts())


def test_a_mistake_on_trial_t_rises_at_t():
    ax = plot_mistake_curves({"a": _run([1, 1, 2])}, _ax())
    (line,) = [line for line in ax.get_lines() if line.get_label() == "a"]
    assert line.get_drawstyle() == "steps-post", "the count M_t holds from trial t to trial t + 1"
    assert list(line.get_xdata()) == [0, 1, 2, 3] and list(line.get_ydata()) == [0, 1, 1, 2]


def test_a_curve_on_an_earlier_one_is_drawn_thinner_on_top_in_the_same_style():
    from simpred_lite.viz import plot_mistake_curves

    base = np.minimum(np.arange(1, 201), 30)
    other = np.arange(1, 201) // 3
    ax = plot_mistake_curves({"first": base, "same": base.copy(), "apart": other}, _ax())
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert all(line.get_linestyle() == "-" for line in lines.values())   # a shared legend still names each
    assert lines["same"].get_linewidth() < lines["first"].get_linewidth() == lines["apart"].get_linewidth()
    assert lines["same"].get_zorder() > lines["first"].get_zorder()


def test_bound_lines_are_drawn_above_every_curve_so_a_curve_along_its_bound_does_not_hide_it():
    from simpred_lite.viz import plot_mistake_curves

    reach = np.minimum(np.arange(1, 101), 20)            # reaches its bound 20 and runs along it
    ax = plot_mistake_curves({"reach": reach, "later": np.minimum(np.arange(1, 101), 20), "other": np.arange(100) // 4},
                             _ax(), {"reach": 20.0, "floor": 20.0})
    lines = ax.get_lines()
    curves = [ln for ln in lines if ln.get_linestyle() == "-"]
    bounds = [ln for ln in lines if ln.get_linestyle() != "-"]
    assert len(curves) == 3 and len(bounds) == 2
    # above the later curves (drawn after the bound) and the thinner one on top of "reach" too
    assert min(b.get_zorder() for b in bounds) > max(c.get_zorder() for c in curves)


def test_equal_stretches_name_every_pair_hidden_under_another_and_merge_those_of_one_stretch():
    from simpred_lite.viz import equal_stretches

    a = np.array([1, 2, 3, 4, 5, 6, 7, 8])
    curves = {"a": a, "b": np.r_[a[:3], 9, 9, 6, 7, 8], "c": a.copy(), "retired": a[:4], "apart": a + 10}
    stretches = equal_stretches(curves, least=3)
    assert stretches[0] == (1, 8, ["a", "c"]), "longest first"
    assert (1, 3, ["a", "b", "c", "retired"]) in stretches, "equal on the same trials: one group, in the order given"
    assert (6, 8, ["a", "b", "c"]) in stretches, "a curve can meet another again later"
    assert (1, 4, ["a", "c", "retired"]) in stretches, "a shorter (retired) curve is compared on its trials"
    assert not any("apart" in names for _, _, names in stretches)
    assert all(last - first + 1 >= 3 for first, last, _ in stretches)
    assert equal_stretches(curves, least=9) == [] and equal_stretches({}) == []


def test_the_bst_drawing_shows_the_cut_edges_on_a_path_in_solid_red():
    from simpred_lite.viz import draw_bst

    B = BinarySupportTree(list(range(8)))
    labels = [0, 0, 0, 0, 1, 1, 1, 1]
    ax = draw_bst(B, labels, _ax(), path=B.path(0, 7))
    assert "the 1 on the path solid red" in ax.get_title()


def test_pickable_layout_keeps_every_vertex_clear_of_the_edges_it_is_not_on():
    """Notebook 00's karate drawing: an edge that runs under a vertex's disk looks like an edge of
    that vertex (the old layout ran 2-9 and 19-33 under vertex 30, 31-33 under 8, 0-31 under 3)."""
    from simpred_lite.apps.similarity_game import GRAPH_NODE_SIZE, LAYOUT_CLEARANCE, SimilarityGame
    from simpred_lite.graphs import karate_club
    from simpred_lite.learners import UnionFindLearner
    from simpred_lite.viz.graphs import edge_clearance, pickable_layout

    G, y = karate_club()
    assert edge_clearance(G, pickable_layout(G)) < 0.03, "the old, looser spreading is what the rule fixes"
    pos = pickable_layout(G, clearance=LAYOUT_CLEARANCE)
    assert edge_clearance(G, pos) >= LAYOUT_CLEARANCE, "a vertex lies too close to an edge it is not on"
    # in points, as the game draws it: every edge keeps more than a vertex radius (plus 2 pt) from other vertices
    game = SimilarityGame(G, y, UnionFindLearner(34), bound=32)
    fig = game.figure()
    gap, a, b, v = _closest_edge_to_a_vertex_pt(fig, fig.axes[0], G, game.pos)
    assert gap > np.sqrt(GRAPH_NODE_SIZE) / 2 + 2, f"edge {a}-{b} passes {gap:.1f} pt from the centre of vertex {v}"
    with pytest.raises(ValueError, match="clearance"):
        pickable_layout(G, clearance=0.15)


def _closest_edge_to_a_vertex_pt(fig, ax, G, pos):
    """(gap, a, b, v): the smallest distance, in points as drawn, from the centre of a vertex ``v`` to an edge ``a-b``
    it is not on."""
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    P = {v: ax.transData.transform(pos[v]) * 72 / fig.dpi for v in G}
    closest = (np.inf, None, None, None)
    for a, b in G.edges:
        d = P[b] - P[a]
        for v in G:
            if v not in (a, b):
                t = np.clip(np.dot(P[v] - P[a], d) / np.dot(d, d), 0.0, 1.0)
                closest = min(closest, (float(np.linalg.norm(P[a] + t * d - P[v])), a, b, v))
    return closest


@pytest.mark.parametrize("graph", ["barbell", "grid"])
def test_the_playground_draws_its_teaching_graphs_naturally_with_no_edge_under_a_vertex(graph):
    """Notebook 10, exercise 1: drawn with a spring layout, the barbell's clique edges ran under vertices and the
    bold revealed path 15-10 grazed vertex 11, so that it read as 15-11-10.  Any edge may be on a revealed path:
    drawn that wide, it must still leave white between itself and every disk it does not end in."""
    from matplotlib.collections import LineCollection

    from simpred_lite.apps import PlaygroundApp
    from simpred_lite.apps.playground_app import GRAPH_NODE_SIZE
    from simpred_lite.datasets import GRAPHS

    app = PlaygroundApp(graph, adversary="adaptive", seed=0, play_steps=20)
    app.target.value = "UnionFindLearner"
    app.play_button.click()
    G = app.game.G
    natural = GRAPHS[graph].layout(G)
    assert all(np.array_equal(app.pos[v], natural[v]) for v in G), "the app draws the graph's natural layout"
    fig = app.figure()
    ax = fig.axes[0]
    widest = max(float(np.max(c.get_linewidth())) for c in ax.collections if isinstance(c, LineCollection))
    assert widest >= 3.0, "the revealed path is drawn wider than the other edges"
    gap, a, b, v = _closest_edge_to_a_vertex_pt(fig, ax, G, app.pos)
    assert gap > np.sqrt(GRAPH_NODE_SIZE) / 2 + widest / 2 + 1, \
        f"edge {a}-{b}, drawn as a path, passes {gap:.1f} pt from the centre of vertex {v}"


def test_bound_vs_measured_tells_markers_from_bounds():
    from simpred_lite.viz import plot_bound_vs_measured

    ax = plot_bound_vs_measured([2, 3, 4], [3, 4, 5], [10.0, 20.0, 30.0], [12.0, 24.0, 36.0], ax=_ax())
    measured, bound, paper = ax.lines
    # each K is its own experiment: the measured values are markers only, not joined
    assert measured.get_linestyle() == "None" and measured.get_marker() == "o"
    # a bound is a function of K: joined, and in a colour different from the measured markers
    assert bound.get_linestyle() == "--" and paper.get_linestyle() == ":"
    assert to_rgba(measured.get_color()) not in (to_rgba(bound.get_color()), to_rgba(paper.get_color()))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "not joined" in labels[0] and all("joined over K" in lab for lab in labels[1:])


def test_playground_bst_panel_keeps_the_numbers_of_neighbouring_leaves_apart():
    # two vertices on neighbouring leaves: their bold numbers under the BST used to run together
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from simpred_lite.apps import PlaygroundApp

    app = PlaygroundApp("planted partition", ["BST Perceptron"], "random", seed=0)
    bst = app.game.learners[app.game.bst_learner()].bst
    for k in (10, 0, bst.n - 2):                       # neighbours inside, at the left end, at the right end
        i, j = int(bst.order[k]), int(bst.order[k + 1])
        app.game.step(pair=(i, j))
        fig = app.figure()
        renderer = FigureCanvasAgg(fig).get_renderer()
        numbers = [t for t in fig.axes[1].texts if t.get_text() in (str(i), str(j)) and t.get_fontweight() == "bold"]
        assert len(numbers) == 2
        a, b = (t.get_window_extent(renderer) for t in numbers)
        assert not a.overlaps(b), f"the numbers {i} and {j} of neighbouring leaves overlap"


def test_history_tree_edge_labels_interrupt_their_edge_clear_of_the_glyphs():
    """Each edge label's white box cuts the (thick, red) edge it sits on with room to spare, so
    no part of the line shows next to the characters."""
    from simpred_lite.learners import (
        HalvingClassifier,
        SimilarityFromClassifier,
        history_tree,
        labelings_with_small_cut,
    )
    from simpred_lite.viz import draw_history_tree

    H = labelings_with_small_cut(nx.path_graph(6), K=2, max_cut=2)
    sim = SimilarityFromClassifier(lambda: HalvingClassifier(H), K=2, merge=False)
    truth = [0, 0, 1, 1, 1, 0]
    for i, j in [(0, 3), (1, 5), (2, 5), (0, 4)]:
        sim.predict_one(i, j)
        sim.learn_one(i, j, int(truth[i] != truth[j]))
    fig = Figure(figsize=(9, 4.2), dpi=100)
    ax = draw_history_tree(history_tree(sim), K=2, ax=fig.add_subplot(), truth=truth)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    labels = [t for t in ax.texts if "," in t.get_text() and ":" not in t.get_text()]
    lines = [ln for ln in ax.lines if len(ln.get_xdata()) == 2]
    assert labels and lines
    checked = 0
    for text in labels:
        glyphs = text.get_window_extent(renderer)
        patch = text.get_bbox_patch()
        centre = np.array([(glyphs.x0 + glyphs.x1) / 2, (glyphs.y0 + glyphs.y1) / 2])
        for ln in lines:
            p, q = ln.get_transform().transform(np.column_stack([ln.get_xdata(), ln.get_ydata()]))
            s = np.linspace(0, 1, 2001)[:, None]
            pts = p + s * (q - p)
            if np.min(np.linalg.norm(pts - centre, axis=1)) > 2:
                continue                                  # the label is not on this edge
            checked += 1
            half_width = ln.get_linewidth() * fig.dpi / 72 / 2
            visible = np.array([not patch.contains_point(pt) for pt in pts])
            dx = np.maximum(np.maximum(glyphs.x0 - pts[:, 0], pts[:, 0] - glyphs.x1), 0)
            dy = np.maximum(np.maximum(glyphs.y0 - pts[:, 1], pts[:, 1] - glyphs.y1), 0)
            gap = np.hypot(dx, dy)[visible]
            assert gap.min() >= half_width + 2, (text.get_text(), gap.min(), half_width)
    assert checked == len(labels)


@pytest.mark.parametrize("label_pos", [0.5, "auto"])
def test_draw_edge_numbering_curved_edge_is_an_arc_with_its_name_on_it(label_pos):
    from matplotlib.patches import FancyArrowPatch

    from simpred_lite.viz import draw_edge_numbering

    G = nx.Graph([(0, 1), (1, 2), (0, 2)])
    pos = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (2.0, 0.0)}
    ax = draw_edge_numbering(G, [0, 0, 1], edges=[(0, 1), (1, 2), (0, 2)], ax=_ax(), pos=pos,
                             curved={(2, 0): -0.5}, label_pos=label_pos)
    styles = [p.get_connectionstyle() for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert sum(getattr(s, "rad", 0.0) == -0.5 for s in styles) == 1  # only the chord (0, 2) is bent
    # arc3 with rad -0.5 on 0 -> 2: control point (1, 1), so the arc's middle is at (1, 0.5)
    e3 = [t for t in ax.texts if t.get_text() == "e3"][0]
    if label_pos == 0.5:
        assert e3.get_position() == pytest.approx((1.0, 0.5))
    else:  # somewhere on the arc, not on the straight segment y = 0 (which runs through vertex 1)
        x, y = e3.get_position()
        assert y == pytest.approx(2 * (x / 2) * (1 - x / 2)) and y > 0.2
    assert ax.get_ylim()[1] >= 0.5  # the axes make room for the arc


def test_a_drawn_bound_can_be_named_in_its_learners_entry_instead_of_its_own():
    # the playground's low panel: one entry per learner, the bound line without an entry of its own
    ax = plot_mistake_curves({"a": _run([1, 2]), "b": _run([0, 1])}, _ax(), {"a": 3.0, "b": 1e6, "floor": 1.0},
                             cap=10, bound_in_entry=True)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["a (bound 3, dashed)", "b (bound 1e+06, off the chart)", "floor: 1"]
    assert any(line.get_linestyle() == "--" and line.get_ydata()[0] == 3.0 and line.get_label() == "_nolegend_"
               for line in ax.get_lines())
    # the default keeps the bound's own entry (the notebooks' static charts)
    ax = plot_mistake_curves({"a": _run([1, 2])}, _ax(), {"a": 3.0})
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "bound of a: 3"]


def test_one_rule_for_the_symlog_axis_and_a_cap_with_its_own_factor():
    from simpred_lite.viz.curves import bound_cap, wants_symlog

    assert wants_symlog([1093, 16, 4, 13, 4, 66, 6, 22])  # 1093 > 4 x 14.5
    assert not wants_symlog([82, 30, 11, 65, 22, 54, 62, 70])  # 82 <= 4 x 58
    assert not wants_symlog([4, 0, 0]) and wants_symlog([5, 0, 0])  # the median counts as at least 1
    assert bound_cap(82) == 328 and bound_cap(82, factor=1.5) == 123


def test_with_bound_in_entry_each_drawn_bound_ends_in_its_learners_marker_and_value():
    # a dashed bound of one learner drawn through another's curve read as that learner crossing its bound:
    # the line's right end now says whose it is (marker and colour of its curve, its value above it)
    from simpred_lite.viz.curves import MARKERS

    runs = {"a": _run([1, 2, 3]), "b": _run([0, 1, 1]), "c": _run([1, 1, 2])}
    colours = {"a": "tab:red", "b": "tab:blue", "c": "tab:green"}
    fig = Figure(figsize=(7.5, 3.0))
    ax = fig.subplots()
    plot_mistake_curves(runs, ax, {"a": 49.0, "b": 51.3, "c": 10.0}, colors=colours, bound_in_entry=True)
    right = ax.get_xlim()[1]
    ends = {(line.get_marker(), to_rgba(line.get_color())): float(line.get_ydata()[0]) for line in ax.get_lines()
            if list(line.get_xdata()) == [right] and line.get_linestyle() == "None"}
    assert ends == {(MARKERS[0], to_rgba("tab:red")): 49.0, (MARKERS[1], to_rgba("tab:blue")): 51.3,
                    (MARKERS[2], to_rgba("tab:green")): 10.0}
    assert all(not line.get_clip_on() for line in ax.get_lines() if list(line.get_xdata()) == [right])
    texts = {t.get_text(): t for t in ax.texts}
    assert set(texts) == {"49", "51", "10"}
    assert to_rgba(texts["51"].get_color()) == to_rgba("tab:blue")
    # 49 and 51 are close: their values must not overlap
    renderer = FigureCanvasAgg(fig).get_renderer()
    assert not texts["49"].get_window_extent(renderer).overlaps(texts["51"].get_window_extent(renderer))
    # the static charts (default) are unchanged: no marker at the end, no value
    ax = plot_mistake_curves(runs, _ax(), {"a": 49.0}, colors=colours)
    assert not ax.texts and not [line for line in ax.get_lines() if line.get_linestyle() == "None"]


@pytest.mark.parametrize("log", [True, False])
def test_close_bound_ends_stand_side_by_side_each_value_with_its_own_marker(log):
    # the playground's barbell after 300 random trials: on the symlog axis (AlwaysSimilar far above) the bounds
    # 49 and 51 lie almost on one line; their markers sat on top of each other and their values crowded together
    runs = {"a": _run(np.arange(1, 161)), "b": _run(np.minimum(np.arange(1, 161), 40)),
            "c": _run(np.minimum(np.arange(1, 161), 3)), "d": _run(np.minimum(np.arange(1, 161), 16)),
            "e": _run(np.minimum(np.arange(1, 161), 20))}
    colours = {"a": "tab:gray", "b": "tab:orange", "c": "tab:red", "d": "tab:olive", "e": "tab:blue"}
    bounds = {"b": 49.0, "c": 51.0, "d": 62.0, "e": 16.0}
    fig = Figure(figsize=(8.0, 2.6))  # an axes of about 140 pt, the playground's lowest
    ax = fig.subplots()
    plot_mistake_curves(runs, ax, bounds, colors=colours, bound_in_entry=True, log=log, legend=None)
    assert ax.get_yscale() == ("symlog" if log else "linear")
    renderer = FigureCanvasAgg(fig).get_renderer()
    marks = {to_rgba(line.get_color()): line.get_window_extent(renderer) for line in ax.get_lines()
             if line.get_linestyle() == "None" and not line.get_clip_on()}
    values = {to_rgba(t.get_color()): (t.get_text(), t.get_window_extent(renderer)) for t in ax.texts}
    assert set(marks) == set(values) == {to_rgba(colours[n]) for n in bounds}
    assert {v[0] for v in values.values()} == {"49", "51", "62", "16"}
    boxes = [(("mark", c), box) for c, box in marks.items()] + [(("value", c), box) for c, (_, box) in values.items()]
    for k, (what, box) in enumerate(boxes):  # no marker or value covers another
        for other, box2 in boxes[k + 1:]:
            assert not box.overlaps(box2), (what, other)
    for c, (text, box) in values.items():
        # next to its own marker: closer to it than to any other, and inside the axes' height and the figure
        mine = marks[c]
        gap = {c2: np.hypot(box.x1 - m.x1, (box.y0 + box.y1 - m.y0 - m.y1) / 2) for c2, m in marks.items()}
        assert min(gap, key=gap.get) == c, text
        assert abs(box.x1 - (mine.x0 + mine.x1) / 2) < 2 and (box.y0 >= mine.y1 - 1 or box.y1 <= mine.y0 + 1)
        assert ax.bbox.y0 <= box.y0 and box.y1 <= ax.bbox.y1 and fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
    # each marker on its own line (its bound), whatever its shift to the left
    for line in ax.get_lines():
        if line.get_linestyle() == "None" and not line.get_clip_on():
            assert float(line.get_ydata()[0]) == bounds[[n for n in bounds if to_rgba(colours[n]) ==
                                                         to_rgba(line.get_color())][0]]


def test_a_retired_learners_short_curve_goes_under_the_curves_that_go_on():
    from simpred_lite.viz import plot_mistake_curves

    ax = plot_mistake_curves({"on": np.arange(1, 101) // 2, "gave up": np.array([1, 2, 3])}, _ax(),
                             retired={"gave up"})
    lines = {line.get_label(): line for line in ax.get_lines()}
    short = lines["gave up (retired)"]
    assert short.get_zorder() < lines["on"].get_zorder(), "the retired curve must not cover the others' start"
    cross = [ln for ln in ax.get_lines() if ln.get_marker() == "x"]
    assert len(cross) == 1 and cross[0].get_zorder() >= lines["on"].get_zorder(), "its cross stays visible"


def test_bound_ends_stand_clear_of_the_curves_that_end_on_their_bound():
    # the playground after 60 random trials on the karate club: union-find's curve ends on its bound 32, two other
    # curves end near it; the bound's marker and value sat on the curves' last points at the right edge
    runs = {"uf": _run(np.minimum(np.arange(1, 61), 32)), "bst": _run(np.minimum(np.arange(1, 61), 31)),
            "mp": _run(np.minimum(np.arange(1, 61) // 2 + 3, 33))}
    fig = Figure(figsize=(8.2, 2.6))
    ax = fig.subplots()
    plot_mistake_curves(runs, ax, {"uf": 32.0, "bst": 40.0}, bound_in_entry=True)
    renderer = FigureCanvasAgg(fig).get_renderer()
    curve_ends = [float(ax.transData.transform((60, 32))[0])]
    marks = [line for line in ax.get_lines() if line.get_linestyle() == "None" and line.get_marker() not in ("x",)]
    assert len(marks) == 2
    lefts = [line.get_window_extent(renderer).x0 for line in marks]
    lefts += [t.get_window_extent(renderer).x0 for t in ax.texts]
    assert min(lefts) > max(curve_ends) + 2, "a bound end's marker or value overlaps the curves' last points"
