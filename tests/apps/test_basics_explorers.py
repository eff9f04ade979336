"""The explorers of notebooks 01–03, driven as a student would, against the concepts they show.

* the cut explorer's cut and ``φ`` are :func:`cut_edges` and :func:`resistance_weighted_cut`
  of the labelling the toggles show, for presets and hand toggles;
* Wilson's walk, one move at a time, ends in ``wilson(G, seed, root)`` and erases exactly
  the loops :func:`loop_erase` erases;
* the BST builder's stages are the depth-first order of ``T`` and the cut sizes of
  :class:`BinarySupportTree`, within the inequalities of §4;
* odd input (a seed out of range, a root that is not a vertex, an unknown graph) is refused
  with a sentence, never clamped.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from simpred_lite.apps import BSTBuildExplorer, ResistanceCutExplorer, WilsonWalkExplorer
from simpred_lite.bst import BinarySupportTree, dfs_linearize
from simpred_lite.graphs import cut_edges
from simpred_lite.resistance import resistance_weighted_cut
from simpred_lite.spanning import loop_erase, wilson_parents


# -- 01: the cut explorer --------------------------------------------------------------------
@pytest.mark.parametrize("graph", list(ResistanceCutExplorer.GRAPHS))
def test_the_cut_and_phi_follow_every_toggle_and_preset(graph):
    app = ResistanceCutExplorer(graph)
    G, y0, _ = ResistanceCutExplorer.GRAPHS[graph]
    assert app.labels.tolist() == list(y0) and app.preset.value == "the graph's classes"
    rng = np.random.default_rng(0)
    for _ in range(3):
        v = int(rng.integers(G.number_of_nodes()))
        app.toggles[v].value = not app.toggles[v].value
        assert app.preset.value == "(by hand)"
        y = app.labels
        assert app.cut == cut_edges(G, y)
        assert app.phi == pytest.approx(resistance_weighted_cut(G, y), abs=1e-12)
        if app.cut:
            assert f"φ = Σ R_e over them = {app.phi:.3f}" in app.status_text
            assert f"|Φ^G| = {len(app.cut)} cut edge" in app.status_text
    for name in app.presets:
        app.preset.value = name
        assert app.phi == pytest.approx(resistance_weighted_cut(G, app.labels), abs=1e-12)
    assert app.out.outputs and app.out.outputs[0]["output_type"] == "display_data"


def test_the_barbell_bridge_costs_one_and_a_clique_vertex_less():
    app = ResistanceCutExplorer("barbell: two 4-cliques and a bridge")
    assert app.cut == [(4, 5)] and app.phi == pytest.approx(1.0)  # a bridge is in every spanning tree
    app.preset.value = "vertex 0 alone"  # 3 clique edges of resistance 2/4 each
    assert len(app.cut) == 3 and app.phi == pytest.approx(1.5)
    app.set_labels(np.zeros(9, dtype=int))
    assert app.cut == [] and "no edge is cut" in app.status_text
    assert app.status_text.startswith("Class 1 is empty: all 9 vertices are in class 0."), \
        "with no vertex pressed the status should say that class 1 is empty"
    app.set_labels(np.ones(9, dtype=int))
    assert app.status_text.startswith("All 9 vertices are in class 1; class 0 is empty."), \
        "with every vertex pressed the status should say that class 0 is empty"


def test_the_square_presets_give_different_cuts():
    app = ResistanceCutExplorer(ResistanceCutExplorer.SQUARE)
    seen = []
    for name in app.presets:
        app.preset.value = name
        seen.append((len(app.cut), round(app.phi, 9)))
    assert len(set(seen)) == len(seen), f"the square's presets should differ in |Phi^G| and phi, got {seen}"
    app.graph.value = "barbell: two 4-cliques and a bridge"     # back to the general presets
    assert app.presets == ResistanceCutExplorer.PRESETS and app.cut == [(4, 5)]


def test_choosing_by_hand_after_a_refusal_shows_the_status_again():
    app = ResistanceCutExplorer()
    with pytest.raises(ValueError):
        app.graph.value = "moon"
    assert app.status_text.startswith("Not changed:"), "a refused graph should be explained in the status"
    app.preset.value = "(by hand)"
    assert app.status_text.startswith("Class 1 = {5, 6, 7, 8}"), \
        "choosing (by hand) should replace the refusal by the status of the current labelling"
    assert app.cut == [(4, 5)], "choosing (by hand) should keep the labelling"


def test_the_cut_explorer_refuses_odd_input_with_a_sentence():
    app = ResistanceCutExplorer()
    with pytest.raises(ValueError, match=r"graph must be one of \[.*\], got 'moon'"):
        app.graph.value = "moon"
    assert app.status_text.startswith("Not changed: graph must be one of")
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        app.set_labels([0, 1, 2, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="graph must be one of"):
        ResistanceCutExplorer("moon")
    app.graph.value = "3×4 grid"  # a new graph: one toggle per vertex, its own classes
    assert len(app.toggles) == 12 and len(app.toggle_box.children) == 12
    assert all(t.description == str(v) for v, t in enumerate(app.toggles))


# -- 02: Wilson's walk, move by move ----------------------------------------------------------
@pytest.mark.parametrize("seed, root", [(1, 7), (123, 10)])
def test_the_moves_end_in_wilsons_tree_and_erase_what_loop_erase_erases(seed, root):
    app = WilsonWalkExplorer(4, 5, seed=seed, root=root)
    G = app.G
    erased_edges, moves = 0, 0
    while not app.done:
        walk_before = app.walk
        app.step(redraw=False)  # the figure is drawn by the other tests; here only the state
        moves += 1
        assert app.moves == moves
        if app.last_erased:  # the loop erased is closed, and the path shrank to its first vertex
            erased_edges += len(app.last_erased) - 1
            assert app.last_erased[0] == app.last_erased[-1]
            assert app.last_erased[0] in loop_erase(walk_before)
        for u, v in app.tree_edges:
            assert G.has_edge(u, v)
    parent = wilson_parents(G, seed, root)
    assert sorted(map(tuple, map(sorted, app.tree_edges))) == sorted(
        tuple(sorted((v, int(p)))) for v, p in enumerate(parent.tolist()) if p >= 0)
    assert moves == sum(len(w["walk"]) - 1 for w in app.walks)
    assert "complete" in app.step()  # one more Step: nothing to do, and the buttons are disabled
    assert app.step_button.disabled and app.run_button.disabled and app.walk_button.disabled
    # every step of a walk either stays on its loop-erased path or is erased with a loop
    assert erased_edges == sum(len(w["walk"]) - len(w["path"]) for w in app.walks)


def test_finish_walk_run_and_reset():
    app = WilsonWalkExplorer(3, 3, seed=2, root=4)
    first = app.walks[0]
    app.walk_button.click()
    assert app.walk_index == 1 and app.moves == len(first["walk"]) - 1
    assert app.tree_edges == list(zip(first["path"][:-1], first["path"][1:]))
    app.run_button.click()
    assert app.done and len(app.tree_edges) == 8 and "Ran to the end" in app.status_text
    app.reset_button.click()
    assert app.moves == 0 and app.tree_edges == [] and not app.step_button.disabled
    app.seed.value = 3  # a new seed: a new walk, from scratch
    assert app.moves == 0 and app.walks == WilsonWalkExplorer(3, 3, seed=3, root=4).walks


def test_run_says_how_far_it_has_come():
    app = WilsonWalkExplorer(6, 6, seed=2, root=35)
    shown = []
    app.status.observe(lambda change: shown.append(change["new"]), names="value")
    app.run_button.click()
    running = [t for t in shown if t.startswith("<b>Running…</b>")]
    n = len(app.walks)
    assert n > 1, "the example should need several walks"
    first = f"<b>Running…</b> walk 1 of {n}; moves so far: 0."
    assert running[:1] == [first], \
        "Run should first say that it is on walk 1 of all the walks"
    assert len(running) == n + 1, "Run should report each walk as it starts, then the drawing"
    assert "Ran to the end" in app.status_text and not app.reset_button.disabled and app.run_button.disabled, \
        "after Run the status says it ended, Reset is usable and Run is not"


def _green_vertices(ax):
    """Vertices painted green (the walk's start) in the widget's figure."""
    from matplotlib.colors import to_rgba

    green = to_rgba("tab:green")
    return [tuple(off) for coll in ax.collections if hasattr(coll, "get_offsets")
            for off, fc in zip(coll.get_offsets(), coll.get_facecolors()) if np.allclose(fc, green)]


def test_wilson_explorer_shows_no_walk_before_the_first_and_after_the_last():
    app = WilsonWalkExplorer(4, 5, seed=0, root=0)
    ax = app.figure().axes[0]
    assert _green_vertices(ax) == [], "no walk yet: no vertex is marked as the walk's start"
    assert ax.get_title().splitlines() == ["The tree: the root 0 alone", "no walk yet: press Step"]
    app.step()
    ax = app.figure().axes[0]
    start = app.walk[0]
    assert _green_vertices(ax) == [app.pos[start]], "during a walk its start is green"
    assert "walk of 1 step" in ax.get_title()
    app.finish_walk()
    ax = app.figure().axes[0]
    done = app.walks[0]
    assert ax.get_title().splitlines()[0] == "Walk 1 grafted" and _green_vertices(ax) == [app.pos[start]]
    assert f"walk of {len(done['walk']) - 1} step" in ax.get_title(), "the grafted walk is shown whole"
    app.run()
    ax = app.figure().axes[0]
    assert _green_vertices(ax) == [], "the tree is complete: no walk's start is left on it"
    assert ax.get_title().splitlines() == ["The finished tree", "tree complete: 19 edges, no walk left"]
    assert "walk of" not in ax.get_title()


@pytest.mark.parametrize("rows, cols", [(4, 5), (8, 8), (2, 8)])
def test_wilson_explorer_keeps_the_grid_cells_square(rows, cols):
    app = WilsonWalkExplorer(rows, cols, seed=3, root=rows * cols - 1)
    app.finish_walk()
    fig = app.figure()
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    (x0, y0), (x1, y1) = ax.transData.transform([app.pos[0], app.pos[cols + 1]])
    assert abs(x1 - x0) == pytest.approx(abs(y1 - y0), rel=1e-6), "a grid cell is as tall as it is wide"
    from simpred_lite.apps.basics_explorers import VERTEX_SIZE

    diameter = np.sqrt(VERTEX_SIZE) * fig.dpi / 72             # a vertex disc, in pixels
    assert abs(x1 - x0) - diameter >= diameter, "an edge between two vertices is at least as long as a vertex is wide"


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_wilson_explorer_counts_are_nearer_their_own_edge(seed):
    app = WilsonWalkExplorer(5, 5, seed=seed, root=12)
    checked = 0
    while not app.done:
        app.step(redraw=False)
        if len(app.walk) > 3 or app.last_path:
            fig = app.figure()
            FigureCanvasAgg(fig).draw()
            ax = fig.axes[0]
            renderer = fig.canvas.get_renderer()
            for t in ax.texts:
                if not t.get_text().startswith("×"):
                    continue
                u, v = map(int, t.get_gid().removeprefix("edge-label ").split("-"))
                box = t.get_bbox_patch().get_window_extent(renderer)
                c = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
                dist = {}
                for a, b in app.G.edges:
                    p, q = ax.transData.transform(app.pos[a]), ax.transData.transform(app.pos[b])
                    s = np.clip(np.dot(c - p, q - p) / np.dot(q - p, q - p), 0.0, 1.0)
                    dist[(min(a, b), max(a, b))] = float(np.hypot(*(p + s * (q - p) - c)))
                own = dist.pop((min(u, v), max(u, v)))
                assert own <= 0.8 * min(dist.values()), f"the count of edge {u}-{v} is not clearly nearer its own edge"
                checked += 1
    assert checked > 0, "some walk crosses an edge more than once"


def test_wilson_explorer_refuses_odd_seeds_and_roots_with_a_sentence():
    app = WilsonWalkExplorer(3, 3, seed=2, root=4)
    app.step()
    with pytest.raises(ValueError, match=r"seed must lie in 0..1000000, got 99999999999; the box keeps 2"):
        app.seed.value = 99999999999
    assert app.seed.value == 2 and app.moves == 1  # not clamped, not restarted
    assert app.status_text.startswith("Not changed: seed must lie in 0..1000000")
    with pytest.raises(ValueError, match=r"root must lie in 0..8, got 9; the box keeps 4"):
        app.root.value = 9
    sent = []  # typed in the browser: the box goes back, the sentence is shown
    app.root.send_state = lambda key=None: sent.append(app.root.value)
    app.root.set_state({"value": -1})
    assert app.root.value == 4 and sent == [4] and "root must lie in 0..8, got -1" in app.status_text
    with pytest.raises(ValueError, match="rows"):
        WilsonWalkExplorer(1, 5)


# -- 03: G -> T -> P -> B ----------------------------------------------------------------------
@pytest.mark.parametrize("seed, root", [(4, 0), (9, 7)])
def test_the_stages_are_the_depth_first_order_and_the_cut_sizes(seed, root):
    app = BSTBuildExplorer(seed=seed, root=root)
    app.seed.value, app.root.value = seed, root
    B = BinarySupportTree.from_graph(app.G, seed=seed, root=root)
    assert app.bst.order.tolist() == B.order.tolist() == dfs_linearize(B.tree, root)
    assert app.stage == 0 and app.back_button.disabled and app.stage_name == "G"
    app.next_button.click()
    assert app.stage_name == "T" and f"|Φ^T| = {len(cut_edges(B.tree, app.labels))}" in app.status_text
    for k in range(1, app.n + 1):
        app.next_button.click()
        assert app.stage_name == f"DFS #{k}" and app.visited == B.order[:k].tolist()
        v = app.visited[-1]
        assert f"#{k}: vertex {v}" in app.status_text
        if k > 1:
            u = app.visited[-2]
            assert f"a path of {nx.shortest_path_length(B.tree, u, v)} edge(s)" in app.status_text
    app.next_button.click()
    assert app.stage_name == "B" and f"N = {B.num_leaves} leaves" in app.status_text
    app.next_button.click()
    cT, cP, cB = len(cut_edges(B.tree, app.labels)), B.path_cut_size(app.labels), B.cut_size(app.labels)
    assert app.stage_name == "B with labels" and app.next_button.disabled and app.end_button.disabled
    assert f"|Φ^T| = {cT}, |Φ^P| = {cP} ≤ 2|Φ^T| = {2 * cT}, |Φ^B| = {cB} ≤" in app.status_text
    assert cP <= 2 * cT and cB <= 2 * cT * B.depth
    app.back_button.click()
    assert app.stage_name == "B"


def test_the_bst_builder_refuses_odd_input():
    app = BSTBuildExplorer()
    app.end_button.click()
    with pytest.raises(ValueError, match=r"DFS root must lie in 0..7, got 8; the box keeps 0"):
        app.root.value = 8
    assert app.stage == app.last_stage  # not restarted
    app.root.value = 5  # a valid root: from the start, the visit starts at 5
    assert app.stage == 0 and app.bst.order[0] == 5
    with pytest.raises(ValueError, match="labels is required"):
        BSTBuildExplorer(nx.path_graph(4))
    with pytest.raises(ValueError, match="connected"):
        BSTBuildExplorer(nx.Graph([(0, 1), (2, 3)]), [0, 0, 1, 1])
    with pytest.raises(ValueError, match="number of vertices"):
        BSTBuildExplorer(nx.path_graph(20), [0] * 20)
