"""Explorers of the graph toolkit: a cut and its resistances, Wilson's walk, G → T → P → B.

Three small apps for notebooks 01, 02 and 03.  Each is a view only: what it shows is computed
by the concept it explains (:func:`~simpred_lite.resistance.effective_resistance` and
:func:`~simpred_lite.graphs.cut_edges`; :func:`~simpred_lite.spanning.wilson_trace` and
:func:`~simpred_lite.spanning.loop_erase`; :class:`~simpred_lite.bst.BinarySupportTree`).
Their state is plain Python (testable without a browser); the widgets only show it.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as W
import networkx as nx
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..bst import BinarySupportTree
from ..checks import check_int, check_labels
from ..graphs import barbell_graph, cut_edges, grid_graph
from ..resistance import effective_resistance
from ..spanning import loop_erase, wilson_parents, wilson_trace
from ..viz.graphs import LOOP_PATH_COLOR, LOOP_WALK_COLOR, draw_labelled_graph, draw_loop_erasure, draw_spanning_tree
from ..viz.style import CLASS_COLORS, LEGEND_FONTSIZE
from ..viz.trees import draw_bst
from .controls import CheckedDropdown, WholeNumberText, clear_refusal_on_actions, focus_style, refusal_to_status
from .figure_output import show_figure
from .text import plain_text

__all__ = ["ResistanceCutExplorer", "WilsonWalkExplorer", "BSTBuildExplorer"]

#: Size of the vertex numbers in the explorers' figures (points; the PNGs are shown at 1:1).
VERTEX_FONT = 12
#: Area of a numbered vertex (points²), large enough for a two-digit number at VERTEX_FONT.
VERTEX_SIZE = 480
SEED_MAX = 1_000_000


def _show_png(out, fig, dpi=80):
    show_figure(out, fig, dpi=dpi)


def _grid_pos(rows: int, cols: int) -> dict[int, tuple[float, float]]:
    return {r * cols + c: (float(c), -float(r)) for r in range(rows) for c in range(cols)}


def _if_changed(action):
    """An observer that runs ``action()`` only on a real change: a value typed in the browser and
    refused goes back to the old one, and traitlets still reports that as a change to itself."""
    return lambda change: action() if _real_change(change) else None


def _real_change(change: dict) -> bool:
    """A change between two values: not a refused value undone, nor ``None`` set and undone."""
    return change["new"] != change["old"] and change["new"] is not None and change["old"] is not None


def _status_text(status: W.HTML) -> str:
    return plain_text(status.value.replace("<br>", "\n"))


# -- 01: a cut, its edges' resistances, the resistance-weighted cut ----------------------------
def _cut_graphs():
    square = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])
    bar, bar_y = barbell_graph(4, 1)
    grid, grid_y = grid_graph(3, 4)
    bar_pos = {v: (float(x), float(y)) for v, (x, y) in nx.kamada_kawai_layout(bar).items()}
    return {
        "barbell: two 4-cliques and a bridge": (bar, bar_y, bar_pos),
        "3×4 grid": (grid, grid_y, _grid_pos(3, 4)),
        "square with a diagonal (as in section 1)": (square, np.array([0, 0, 1, 1]), {0: (0.0, 1.0), 1: (1.0, 1.0),
                                                                         2: (1.0, 0.0), 3: (0.0, 0.0)}),
    }


class ResistanceCutExplorer:
    """Put vertices into class 1 by hand and see the cut, its resistances and ``φ`` at once (paper §3, Theorem 3).

    Each vertex has a toggle button: pressed (the button is shaded) = class 1, released = class 0;
    the drawing colours each vertex by its class.
    The app shows the cut edges ``Φ^G`` (red, dashed, each with its effective resistance
    ``R_e``), the cut size ``|Φ^G|`` and the resistance-weighted cut size
    ``φ = Σ_{e ∈ Φ^G} R_e`` — the expected number of cut edges of a uniformly random
    spanning tree (Lemma 10).  **Preset cut** chooses a labelling in one go.

    Parameters
    ----------
    graph : str, default "barbell: two 4-cliques and a bridge"
        One of :attr:`GRAPHS`.

    Attributes
    ----------
    graph : CheckedDropdown
    preset : ipywidgets.Dropdown
        :attr:`presets` and ``"(by hand)"`` once a vertex was toggled.
    presets : tuple of str
        The preset cuts of the current graph: :attr:`PRESETS` (``"the graph's classes"``,
        ``"vertex 0 alone"``, ``"first half by number"``, ``"even / odd"``), except on the square,
        whose few cuts make those coincide: there :attr:`SQUARE_PRESETS`, three cuts with
        different ``|Φ^G|`` and ``φ``.
    toggles : list of ipywidgets.ToggleButton
        One per vertex, described by its number: pressed = class 1.
    labels : numpy.ndarray
        The current labelling (0/1 per vertex).
    R : numpy.ndarray
        The effective resistances of the graph (``n × n``).
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = ResistanceCutExplorer("square with a diagonal (as in section 1)")
    >>> app.cut, round(app.phi, 3)
    ([(0, 2), (0, 3), (1, 2)], 1.75)
    >>> app.toggles[2].value = False      # vertex 2 joins class 0: only vertex 3 is in class 1
    >>> app.cut, round(app.phi, 3)
    ([(0, 3), (2, 3)], 1.25)
    """

    GRAPHS = _cut_graphs()
    PRESETS = ("the graph's classes", "vertex 0 alone", "first half by number", "even / odd")
    SQUARE = "square with a diagonal (as in section 1)"
    # on the square, three of PRESETS give 3 cut edges and phi = 1.75: its own presets differ
    SQUARE_PRESETS = ("the graph's classes", "vertex 1 alone", "the diagonal's ends {0, 2}")

    def __init__(self, graph: str = "barbell: two 4-cliques and a bridge"):
        if graph not in self.GRAPHS:
            raise ValueError(f"graph must be one of {list(self.GRAPHS)}, got {graph!r}")
        refuse = refusal_to_status(self)
        self.graph = CheckedDropdown(options=list(self.GRAPHS), value=graph, description="graph",
                                     on_invalid=refuse, layout=W.Layout(width="360px"))
        self.preset = CheckedDropdown(options=[*self.PRESETS, "(by hand)"], value=self.PRESETS[0],
                                      description="preset cut", on_invalid=refuse,
                                      layout=W.Layout(width="300px"))
        self.title = W.HTML("<b>A cut and its resistances</b>: press a vertex to move it to the other class")
        self.toggle_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.status = W.HTML(layout=W.Layout(min_height="6.5em"))
        self.out = W.Output(layout=W.Layout(min_height="400px"))
        self._quiet = False
        self.graph.observe(_if_changed(self._load), names="value")
        self.preset.observe(self._on_preset, names="value")
        self.widget = W.VBox([self.title, W.HBox([self.graph, self.preset]),
                              W.HBox([W.Label("class 1 (pressed):"), self.toggle_box]), self.status, self.out,
                              focus_style()])
        self.widget.add_class("simpred-cut-explorer")  # for the browser test
        self._load()
        clear_refusal_on_actions(self)

    # state -------------------------------------------------------------------------------
    @property
    def G(self) -> nx.Graph:
        return self.GRAPHS[self.graph.value][0]

    @property
    def presets(self) -> tuple[str, ...]:
        """The preset cuts offered for the current graph."""
        return self.SQUARE_PRESETS if self.graph.value == self.SQUARE else self.PRESETS

    @property
    def labels(self) -> np.ndarray:
        return np.array([int(t.value) for t in self.toggles], dtype=np.int64)

    @property
    def cut(self) -> list[tuple[int, int]]:
        """The cut edges ``Φ^G`` of the current labelling (as :func:`~simpred_lite.graphs.cut_edges`)."""
        return cut_edges(self.G, self.labels)

    @property
    def phi(self) -> float:
        """``φ``: the sum of ``R_e`` over the cut edges."""
        return float(sum(self.R[u, v] for u, v in self.cut))

    @property
    def status_text(self) -> str:
        """The status as plain text (what the student reads)."""
        return _status_text(self.status)

    def set_labels(self, labels: Sequence[int] | np.ndarray) -> None:
        """Set the whole labelling (0/1 per vertex) and redraw once."""
        y = check_labels(labels, self.G.number_of_nodes())
        if set(np.unique(y).tolist()) - {0, 1}:
            raise ValueError(f"labels must be 0 or 1 for this explorer (two classes), got {sorted(set(y.tolist()))}")
        self._quiet = True
        try:
            for t, v in zip(self.toggles, y.tolist()):
                t.value = bool(v)
        finally:
            self._quiet = False
        self._update()

    def _preset_labels(self, name: str) -> np.ndarray:
        G, y, _ = self.GRAPHS[self.graph.value]
        n = G.number_of_nodes()
        if name == "the graph's classes":
            return y
        if name == "vertex 0 alone":
            return (np.arange(n) == 0).astype(np.int64)
        if name == "vertex 1 alone":
            return (np.arange(n) == 1).astype(np.int64)
        if name == "the diagonal's ends {0, 2}":
            return np.isin(np.arange(n), [0, 2]).astype(np.int64)
        if name == "first half by number":
            return (np.arange(n) >= n // 2).astype(np.int64)
        return np.arange(n) % 2

    # events --------------------------------------------------------------------------------
    def _load(self) -> None:
        G = self.G
        n = G.number_of_nodes()
        self.R = effective_resistance(G)
        for t in getattr(self, "toggles", []):  # the previous graph's buttons: close their models
            t.close()
        self.toggles = [W.ToggleButton(value=False, description=str(v), tooltip=f"vertex {v}: pressed = class 1",
                                       layout=W.Layout(width="44px")) for v in range(n)]
        for t in self.toggles:
            t.observe(self._on_toggle, names="value")
        self.toggle_box.children = self.toggles
        self._quiet = True
        self.preset.options = [*self.presets, "(by hand)"]
        self.preset.value = self.presets[0]
        self._quiet = False
        self.set_labels(self._preset_labels(self.presets[0]))

    def _on_preset(self, change: dict) -> None:
        preset = self.preset.value   # the current value: a refused None is already undone
        if self._quiet or preset is None or not _real_change(change):  # a refused None set and undone: no reset
            return
        if preset == "(by hand)":   # keeps the labelling; replaces a refusal message by the status
            self._update()
            return
        self.set_labels(self._preset_labels(preset))

    def _on_toggle(self, change: dict) -> None:
        if self._quiet:
            return
        self._quiet = True
        self.preset.value = "(by hand)"
        self._quiet = False
        self._update()

    def _update(self) -> None:
        y, cut, R = self.labels, self.cut, self.R
        ones = [v for v in range(len(y)) if y[v] == 1]
        if not ones:
            head = f"Class 1 is empty: all {len(y)} vertices are in class 0."
        elif len(ones) == len(y):
            head = f"All {len(y)} vertices are in class 1; class 0 is empty."
        else:
            head = f"Class 1 = {{{', '.join(map(str, ones))}}}; class 0 = the other {len(y) - len(ones)} vertices."
        if not cut:
            self.status.value = (head + "<br>Every vertex is in one class: no edge is cut, "
                                 "|Φ^G| = 0 and φ = 0. Press a vertex to move it to the other class.")
        else:
            inside = [R[u, v] for u, v in self.G.edges if y[u] == y[v]]
            listing = ", ".join(f"({u},{v}): {R[u, v]:.3f}" for u, v in cut)
            mean_in = f"{np.mean(inside):.3f}" if inside else "none (no edge inside a class)"
            self.status.value = "<br>".join([
                head,
                f"|Φ^G| = {len(cut)} cut edge{'s' if len(cut) > 1 else ''}; "
                f"φ = Σ R_e over them = <b>{self.phi:.3f}</b> "
                f"(the expected number of cut edges of a uniformly random spanning tree, Lemma 10).",
                f"R_e of the cut edges: {listing}. Mean R_e of the edges inside the classes: {mean_in}."])
        self._render()

    def _render(self) -> None:
        G, _, pos = self.GRAPHS[self.graph.value]
        cut = self.cut
        fig = Figure(figsize=(7.6, 4.6))
        ax = fig.subplots()
        draw_labelled_graph(G, self.labels, ax=ax, pos=pos, with_labels=True, node_size=VERTEX_SIZE,
                            font_size=VERTEX_FONT, title=f"{self.graph.value}: φ = {self.phi:.3f}")
        ax.set_title(f"{self.graph.value}: φ = {self.phi:.3f}\n"   # the notebook's symbol |Φ^G|, "1 cut edge"
                     f"|Φ$^G$| = {len(cut)} cut edge{'' if len(cut) == 1 else 's'} (red, dashed)")
        if cut:
            nx.draw_networkx_edge_labels(G, pos, edge_labels={e: f"{self.R[e]:.2f}" for e in cut}, ax=ax,
                                         font_size=10, font_color="tab:red", rotate=False,
                                         bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"})
        ax.margins(0.08)
        _show_png(self.out, fig, dpi=100)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"ResistanceCutExplorer: toggle the vertices of {self.graph.value!r} into class 1, "
                                "see the cut, R_e and phi")
        return bundle


# -- 02: Wilson's loop-erased random walk, one move at a time -----------------------------------
def _edges(k: int) -> str:
    """``"1 edge"``, ``"3 edges"``."""
    return f"{k} edge{'' if k == 1 else 's'}"


class WilsonWalkExplorer:
    """Step Wilson's algorithm one random-walk move at a time (§3): the walk, the erased loops, the tree.

    The moves replay :func:`~simpred_lite.spanning.wilson_trace` with the chosen seed and root,
    so the finished tree is exactly ``wilson(G, seed, root)``.  **Step** makes one move of the
    walk (a walk that closes a loop erases it, shown red dashed; a walk that hits the tree
    grafts its loop-erased path onto it); **Finish walk** runs to the end of the current walk,
    **Run** to the end of the algorithm, **Reset** starts again.

    Parameters
    ----------
    rows, cols : int, default 4, 5
        The grid graph walked on (2 .. 8 each).
    seed : int, default 0
        Seed of the walk (``0 .. 1000000``).
    root : int, default 0
        The vertex that forms the tree at the start.

    Attributes
    ----------
    seed, root : WholeNumberText
    step_button, walk_button, run_button, reset_button : ipywidgets.Button
    grid_shape : (int, int)
        ``(rows, cols)``.
    walks : list of dict
        :func:`~simpred_lite.spanning.wilson_trace`'s walks for the seed and root.
    tree_edges : list of (int, int)
        The tree so far.
    moves : int
        Moves made so far.
    last_erased : list of int
        The loop erased by the last move (``[]`` if none).
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = WilsonWalkExplorer(2, 3, seed=1, root=0)
    >>> app.step_button.click(); app.moves
    1
    >>> app.run_button.click(); app.done, sorted(app.tree_edges) == sorted(app.final_tree_edges)
    (True, True)
    """

    def __init__(self, rows: int = 4, cols: int = 5, seed: int = 0, root: int = 0):
        rows, cols = check_int(rows, "rows", low=2, high=8), check_int(cols, "cols", low=2, high=8)
        self.G, _ = grid_graph(rows, cols)
        self.n = rows * cols
        self.grid_shape = (rows, cols)
        self.pos = _grid_pos(rows, cols)
        refuse = refusal_to_status(self)
        self.seed = WholeNumberText(low=0, high=SEED_MAX, value=check_int(seed, "seed", low=0, high=SEED_MAX),
                                    description="seed", on_invalid=refuse, hint="; type a whole number",
                                    layout=W.Layout(width="190px"))
        self.root = WholeNumberText(low=0, high=self.n - 1, value=check_int(root, "root", low=0, high=self.n - 1),
                                    description="root", on_invalid=refuse, hint="; the root must be a vertex number",
                                    layout=W.Layout(width="160px"))
        self.step_button = W.Button(description="Step", button_style="info", tooltip="one move of the random walk")
        self.walk_button = W.Button(description="Finish walk", tooltip="move until this walk hits the tree")
        self.run_button = W.Button(description="Run", tooltip="run to the end: the whole spanning tree")
        self.reset_button = W.Button(description="Reset", button_style="warning",
                                     tooltip="start again with this seed and root")
        self.title = W.HTML(f"<b>Wilson's algorithm, one move at a time</b> on the {rows}×{cols} grid")
        self.status = W.HTML(layout=W.Layout(min_height="5em"))
        self.out = W.Output(layout=W.Layout(min_height="380px"))
        self.seed.observe(_if_changed(self.reset), names="value")
        self.root.observe(_if_changed(self.reset), names="value")
        self.step_button.on_click(lambda _: self.step())
        self.walk_button.on_click(lambda _: self.finish_walk())
        self.run_button.on_click(lambda _: self.run())
        self.reset_button.on_click(lambda _: self.reset())
        self.widget = W.VBox([self.title, W.HBox([self.seed, self.root]),
                              W.HBox([self.step_button, self.walk_button, self.run_button, self.reset_button]),
                              self.status, self.out, focus_style()])
        self.widget.add_class("simpred-wilson-explorer")  # for the browser test
        self.reset()
        clear_refusal_on_actions(self)

    # state -------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.walk_index >= len(self.walks)

    @property
    def final_tree_edges(self) -> list[tuple[int, int]]:
        """The edges of ``wilson(G, seed, root)``, the tree the moves end in."""
        parent = wilson_parents(self.G, int(self.seed.value), int(self.root.value))
        return [(v, int(p)) for v, p in enumerate(parent.tolist()) if p >= 0]

    @property
    def walk(self) -> list[int]:
        """The current walk so far (empty between walks)."""
        return [] if self.done else self.walks[self.walk_index]["walk"][: self.position + 1]

    @property
    def status_text(self) -> str:
        return _status_text(self.status)

    def reset(self) -> None:
        """Start again: the tree is the root alone."""
        root = int(self.root.value)
        _, self.walks = wilson_trace(self.G, int(self.seed.value), root)
        self.walk_index, self.position, self.moves = 0, 0, 0
        self.tree_edges: list[tuple[int, int]] = []
        self.last_erased: list[int] = []
        self.last_path: list[int] = []
        self._update(f"The tree is the root {root} alone. Press <b>Step</b>: a random walk starts from the "
                     f"first vertex not in the tree, vertex {self.walks[0]['start'] if self.walks else root}.")

    def step(self, redraw: bool = True) -> str:
        """One move of the walk; returns what happened, in words."""
        if self.done:
            text = "The spanning tree is complete: press <b>Reset</b> or change the seed."
            if redraw:
                self._update(text)
            return text
        w = self.walks[self.walk_index]["walk"]
        before = loop_erase(w[: self.position + 1])
        self.position += 1
        self.moves += 1
        u, v = w[self.position - 1], w[self.position]
        after = loop_erase(w[: self.position + 1])
        self.last_erased = before[before.index(v):] + [v] if v in before else []
        text = f"Move {self.moves}: the walk started at {w[0]} steps {u} → {v}."
        if self.last_erased:
            text += (f" It closed the loop {' → '.join(map(str, self.last_erased))}: erased "
                     f"({_edges(len(self.last_erased) - 1)}), the path is back to {' → '.join(map(str, after))}.")
        if self.position == len(w) - 1:  # hit the tree: graft the loop-erased path
            self.last_path = after
            self.tree_edges += list(zip(after[:-1], after[1:]))
            self.walk_index += 1
            self.position = 0
            text += (f" {v} is in the tree: the loop-erased path {' → '.join(map(str, after))} "
                     f"({_edges(len(after) - 1)}) joins it.")
            if self.done:
                text += " Every vertex is in the tree: it is the uniform spanning tree of this seed."
        else:
            self.last_path = []
        if redraw:
            self._update(text)
        return text

    def finish_walk(self) -> str:
        """Move until the current walk hits the tree."""
        start, text = self.walk_index, ""
        while not self.done and self.walk_index == start:
            text = self.step(redraw=False)
        self._update(text or "The spanning tree is complete: press <b>Reset</b> or change the seed.")
        return text

    def run(self) -> None:
        """Run to the end of the algorithm, saying in the status line how far it has come."""
        buttons = (self.step_button, self.walk_button, self.run_button, self.reset_button)
        for btn in buttons:
            btn.disabled = True
        while not self.done:
            index = self.walk_index
            self.status.value = (f"<b>Running…</b> walk {index + 1} of {len(self.walks)}; "
                                 f"moves so far: {self.moves}.")
            while not self.done and self.walk_index == index:
                self.step(redraw=False)
        self.status.value = f"<b>Running…</b> all {len(self.walks)} walks done; drawing the tree."
        self.reset_button.disabled = False
        self._update(f"Ran to the end: {self.moves} moves in {len(self.walks)} walks; "
                     f"the tree has {_edges(len(self.tree_edges))}.")

    def _update(self, text: str) -> None:
        in_tree = 1 + len(self.tree_edges)
        head = (f"Moves: {self.moves}; walks finished: {self.walk_index} of {len(self.walks)}; "
                f"vertices in the tree: {in_tree} of {self.n}.")
        self.status.value = head + "<br>" + text
        for b in (self.step_button, self.walk_button, self.run_button):
            b.disabled = self.done
        self._render()

    def _render(self) -> None:
        _show_png(self.out, self.figure())

    def figure(self) -> Figure:
        """The figure shown: the tree so far, the walk on show (none at the start and at the end), the legend."""
        rows, cols = self.grid_shape
        # about 0.85 inch per grid cell (square cells, room for a numbered vertex and its edges), legend at the side
        fig = Figure(figsize=(max(7.6, 0.85 * cols + 2.6), max(5.0, 0.85 * rows + 1.0)))
        ax = fig.subplots()
        # the walk on show: the current one, else the one just grafted; none at the start and at the end
        subtitle = None
        if self.done:
            walk, title = [], "The finished tree"
            subtitle = f"tree complete: {_edges(len(self.tree_edges))}, no walk left"
        elif len(self.walk) > 1:
            walk, title = self.walk, f"Walk {self.walk_index + 1} from vertex {self.walk[0]}"
        elif self.last_path:
            walk, title = self.walks[self.walk_index - 1]["walk"], f"Walk {self.walk_index} grafted"
        else:
            walk, title = [], f"The tree: the root {int(self.root.value)} alone"
            subtitle = "no walk yet: press Step"
        draw_loop_erasure(self.G, self.pos, self.tree_edges, walk, loop_erase(walk) if walk else [], ax=ax,
                          title=title, node_size=VERTEX_SIZE, font_size=VERTEX_FONT, subtitle=subtitle)
        for t in ax.texts:
            if "×" in t.get_text():
                t.set_fontsize(10)
        if self.last_erased:
            er = list(zip(self.last_erased[:-1], self.last_erased[1:]))
            nx.draw_networkx_edges(self.G, self.pos, edgelist=er, ax=ax, edge_color="tab:red", width=3.0,
                                   style="dashed")
        nx.draw_networkx_nodes(self.G, self.pos, nodelist=[int(self.root.value)], ax=ax, node_color="none",
                               node_size=VERTEX_SIZE * 1.9, edgecolors="black", linewidths=1.5, node_shape="s")
        handles = [Line2D([], [], color="black", lw=2, label="tree so far"),
                   Line2D([], [], color=LOOP_WALK_COLOR, lw=6, label="the walk's edges"),
                   Line2D([], [], color=LOOP_PATH_COLOR, lw=2.5, label="loop-erased path"),
                   Line2D([], [], color="tab:red", lw=3, ls="--", label="loop just erased"),
                   Line2D([], [], ls="none", marker="o", ms=9, mfc="tab:green", mec="0.3", label="walk's start"),
                   Line2D([], [], ls="none", marker="s", ms=12, mfc="none", mec="black", label="root")]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=LEGEND_FONTSIZE + 1,
                  frameon=False, borderaxespad=0.0)
        ax.margins(0.08)
        return fig

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"WilsonWalkExplorer: Wilson's loop-erased walk on {self.n} vertices (Step/Run/Reset)"
        return bundle


# -- 03: G -> T -> P -> B -------------------------------------------------------------------
def _draw_partial_path(ax: Axes, order: Sequence[int], labels: Sequence[int] | np.ndarray, total: int) -> int:
    """The first vertices of the path ``P`` on a line (room for ``total``); returns the cut size."""
    cut = 0
    for k in range(len(order) - 1):
        bad = labels[order[k]] != labels[order[k + 1]]
        cut += bad
        ax.plot([k, k + 1], [0, 0], color="tab:red" if bad else "0.3", lw=2.2 if bad else 1.5,
                ls="--" if bad else "-", zorder=1)
    for k, v in enumerate(order):
        ax.scatter([k], [0], s=VERTEX_SIZE, color=CLASS_COLORS[int(labels[v]) % 10], edgecolors="0.2", zorder=2)
        ax.text(k, 0, str(v), ha="center", va="center", fontsize=VERTEX_FONT, zorder=3)
        ax.text(k, -0.45, f"#{k + 1}", ha="center", va="center", fontsize=10, color="tab:purple", fontweight="bold")
    ax.set_xlim(-0.7, max(total, 2) - 0.3)
    ax.set_ylim(-1, 1)
    ax.set_axis_off()
    return cut


class BSTBuildExplorer:
    """Build a Binary Support Tree step by step (§4, Figure 1): ``G → T → P → B``, with the DFS numbers.

    **Next ▶** / **◀ Back** move through the stages: ``G``; the uniform random spanning tree
    ``T`` (Wilson, from the seed); the depth-first visit of ``T`` from the root, one vertex
    per stage, each numbered ``#k`` in ``T`` and appended to the path ``P``; the balanced tree
    ``B`` over ``P`` (dummy leaves hollow); and ``B`` with the labels propagated (each
    internal vertex copies its left child) and the three cut sizes.  **End** jumps to the
    last stage.  A new seed or root starts again.

    Parameters
    ----------
    G : networkx.Graph, optional
        Connected, on ``0 .. n-1`` with ``3 <= n <= 16`` (default: the 8-vertex graph of notebook 03).
    labels : array_like of int, optional
        Vertex classes (required with ``G``).
    seed : int, default 4
    root : int, default 0
    pos : dict, optional
        Vertex positions (a spring layout by default).

    Attributes
    ----------
    seed, root : WholeNumberText
    back_button, next_button, end_button : ipywidgets.Button
    stage : int
    bst : BinarySupportTree
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = BSTBuildExplorer()
    >>> app.next_button.click(); app.next_button.click(); app.stage_name, app.visited
    ('DFS #1', [0])
    >>> app.end_button.click(); app.stage_name, app.bst.cut_size(app.labels) <= 2 * app.cut_T * app.bst.depth
    ('B with labels', True)
    """

    def __init__(self, G: nx.Graph | None = None, labels: Sequence[int] | np.ndarray | None = None, seed: int = 4,
                 root: int = 0, pos: dict | None = None) -> None:
        if G is None:
            G = nx.Graph([(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 6), (5, 6), (5, 7), (6, 7),
                          (2, 6)])
            labels = [0, 0, 0, 1, 1, 2, 1, 2] if labels is None else labels
        if labels is None:
            raise ValueError("labels is required with G: pass one class per vertex, e.g. labels=[0, 0, 1, 1]")
        n = G.number_of_nodes()
        check_int(n, "the number of vertices of G", low=3, high=16)
        self.G = nx.Graph(G)
        if not nx.is_connected(self.G):
            raise ValueError("G must be connected (it needs a spanning tree); add edges between its components")
        self.labels = check_labels(labels, n)
        self.n = n
        self.pos = nx.spring_layout(self.G, seed=1) if pos is None else pos
        refuse = refusal_to_status(self)
        self.seed = WholeNumberText(low=0, high=SEED_MAX, value=check_int(seed, "seed", low=0, high=SEED_MAX),
                                    description="seed", on_invalid=refuse, hint="; type a whole number",
                                    layout=W.Layout(width="190px"))
        self.root = WholeNumberText(low=0, high=n - 1, value=check_int(root, "root", low=0, high=n - 1),
                                    description="DFS root", on_invalid=refuse,
                                    hint="; the root must be a vertex number", layout=W.Layout(width="170px"))
        self.back_button = W.Button(description="◀ Back", tooltip="the previous stage")
        self.next_button = W.Button(description="Next ▶", button_style="info", tooltip="the next stage")
        self.end_button = W.Button(description="End", tooltip="the last stage: B with its labels")
        self.title = W.HTML(f"<b>Building a Binary Support Tree</b>: G → T → P → B ({n} vertices)")
        self.status = W.HTML(layout=W.Layout(min_height="5em"))
        self.out = W.Output(layout=W.Layout(min_height="380px"))
        self.seed.observe(_if_changed(self._rebuild), names="value")
        self.root.observe(_if_changed(self._rebuild), names="value")
        self.back_button.on_click(lambda _: self.go(self.stage - 1))
        self.next_button.on_click(lambda _: self.go(self.stage + 1))
        self.end_button.on_click(lambda _: self.go(self.last_stage))
        self.widget = W.VBox([self.title, W.HBox([self.seed, self.root]),
                              W.HBox([self.back_button, self.next_button, self.end_button]), self.status, self.out,
                              focus_style()])
        self.widget.add_class("simpred-bst-explorer")  # for the browser test
        self._rebuild()
        clear_refusal_on_actions(self)

    # state -------------------------------------------------------------------------------
    @property
    def last_stage(self) -> int:
        return self.n + 3

    @property
    def stage_name(self) -> str:
        s = self.stage
        if s == 0:
            return "G"
        if s == 1:
            return "T"
        if s <= self.n + 1:
            return f"DFS #{s - 1}"
        return "B" if s == self.n + 2 else "B with labels"

    @property
    def visited(self) -> list[int]:
        """The vertices the depth-first visit has numbered so far (the path ``P`` so far)."""
        return self.bst.order[: max(0, min(self.stage - 1, self.n))].tolist()

    @property
    def cut_T(self) -> int:
        return len(cut_edges(self.T, self.labels))

    @property
    def status_text(self) -> str:
        return _status_text(self.status)

    def _rebuild(self) -> None:
        self.bst = BinarySupportTree.from_graph(self.G, seed=int(self.seed.value), root=int(self.root.value))
        self.T = self.bst.tree
        self.parent_in_T = dict(nx.bfs_predecessors(self.T, int(self.root.value)))
        self.go(0)

    def go(self, stage: int) -> None:
        """Show stage ``stage`` (``0 .. last_stage``; clipped at both ends)."""
        self.stage = max(0, min(int(stage), self.last_stage))
        self.back_button.disabled = self.stage == 0
        self.next_button.disabled = self.end_button.disabled = self.stage == self.last_stage
        self.status.value = (f"Stage {self.stage} of {self.last_stage} ({self.stage_name}). "
                             + self._explain())
        self._render()

    def _explain(self) -> str:
        s, n, r = self.stage, self.n, int(self.root.value)
        B = self.bst
        if s == 0:
            return (f"G: {n} vertices, {self.G.number_of_edges()} edges, |Φ^G| = {len(cut_edges(self.G, self.labels))}"
                    " cut edges. Next: a uniformly random spanning tree T (Wilson's algorithm).")
        if s == 1:
            return (f"T: a uniform random spanning tree of G (seed {int(self.seed.value)}), {n - 1} edges, "
                    f"|Φ^T| = {self.cut_T} cut tree edges. Next: visit T depth first from {r}, smaller children first.")
        if s <= n + 1:
            k, order = s - 1, self.visited
            v = order[-1]
            text = (f"#{k}: vertex {v}" + (" (the root)." if k == 1 else
                                           f", a child of {self.parent_in_T[v]} in T rooted at {r}."))
            if k > 1:
                u = order[-2]
                d = nx.shortest_path_length(self.T, u, v)
                text += (f"<br>P gets the edge ({u}, {v}); T joins {u} and {v} by a path of {d} edge(s)"
                         + (" (the visit went back up first)." if d > 1 else "."))
            return text + f"<br>P so far: {' – '.join(map(str, order))}."
        if s == n + 2:
            return (f"B: the balanced binary tree over P, N = {B.num_leaves} leaves "
                    + (f"({B.num_leaves - n} dummies, hollow squares), " if B.num_leaves > n
                       else "(no dummy: n is a power of two), ")
                    + f"depth log2 N = {B.depth}. "
                    "Leaves left to right are P in order.")
        cB, cP, cT = B.cut_size(self.labels), B.path_cut_size(self.labels), self.cut_T
        return (f"Labels propagated (each internal vertex copies its left child; dummies copy the last real leaf). "
                f"<br>|Φ^T| = {cT}, |Φ^P| = {cP} ≤ 2|Φ^T| = {2 * cT}, |Φ^B| = {cB} ≤ 2|Φ^T| log2 N = "
                f"{2 * cT * B.depth}.")

    def _render(self) -> None:
        s, n = self.stage, self.n
        fig = Figure(figsize=(11, 4.4))
        ax_l, ax_r = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.3]})
        if s == 0:
            draw_labelled_graph(self.G, self.labels, ax=ax_l, pos=self.pos, with_labels=True, node_size=VERTEX_SIZE,
                                font_size=VERTEX_FONT, legend=False, title="G")
        else:
            draw_spanning_tree(self.G, self.T, self.labels, ax=ax_l, pos=self.pos, node_size=VERTEX_SIZE,
                               title="T (uniform random)" + (f", DFS from {int(self.root.value)}" if s > 1 else ""))
            nx.draw_networkx_labels(self.G, self.pos, ax=ax_l, font_size=VERTEX_FONT)
            order = self.visited
            if order:
                nx.draw_networkx_nodes(self.G, self.pos, nodelist=[order[-1]] if s <= n + 1 else [], ax=ax_l,
                                       node_color="none", node_size=VERTEX_SIZE * 2.2, edgecolors="tab:purple",
                                       linewidths=2.0)
            xy = np.array([self.pos[v] for v in self.G], dtype=float)
            dx, dy = 0.06 * max(np.ptp(xy[:, 0]), 1e-9), 0.08 * max(np.ptp(xy[:, 1]), 1e-9)
            for k, v in enumerate(order):
                ax_l.text(self.pos[v][0] + dx, self.pos[v][1] + dy, f"#{k + 1}", fontsize=11, color="tab:purple",
                          fontweight="bold", ha="left", va="bottom")
        ax_l.margins(0.15)
        if s <= n + 1:
            order = self.visited
            cut = _draw_partial_path(ax_r, order, self.labels, n)
            ax_r.set_title("P: not started" if not order else
                           f"P so far ({len(order)} of {n}): |Φ| = {cut} cut edge(s) (red, dashed)")
        else:
            draw_bst(self.bst, self.labels if s == self.last_stage else None, ax=ax_r,
                     title="B" + (" with propagated labels" if s == self.last_stage else " over P"))
            for t in ax_r.texts:
                t.set_fontsize(VERTEX_FONT - 1)
            for c in ax_r.collections:
                if hasattr(c, "set_sizes") and len(c.get_offsets()):
                    c.set_sizes([360])
        fig.tight_layout()
        _show_png(self.out, fig)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"BSTBuildExplorer: build G -> T -> P -> B step by step on {self.n} vertices"
        return bundle

