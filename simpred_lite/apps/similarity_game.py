"""The similarity game played by hand: propose pairs, see the prediction, reveal the truth.

All apps of :mod:`simpred_lite.apps` follow the same pattern.

Every app keeps its logic in plain methods (tested without a browser) and shows its state
through widget *values* (``HTML.value``) and an ``Output`` widget whose content is set
through its state (``out.outputs = ()`` then ``out.append_display_data(...)``), with figures
rendered from a ``matplotlib.figure.Figure`` to PNG.  That way a notebook can drive an app
as a student would (``app.i.value = 3``, ``app.predict_button.click()``) and print the
facts it shows, and strict nbval checks them.
"""

from __future__ import annotations

import copy
from typing import Any

import ipywidgets as W
import networkx as nx
import numpy as np
from matplotlib.figure import Figure

from ..checks import check_int, check_real
from ..graphs import validate_graph, validate_labels
from ..viz.curves import plot_mistake_curves
from ..viz.graphs import draw_labelled_graph, graph_layout, legend_below, pickable_layout
from ..viz.style import LEGEND_FONTSIZE
from .controls import CheckedDropdown, clear_refusal_on_actions, focus_style, refusal_to_status
from .figure_output import show_figure
from .text import label_word, plain_text

__all__ = ["SimilarityGame"]

#: 768 x 432 pixels at 96 dpi: narrower than JupyterLab's output area, so shown at full size and
#: a point of the figure is a point on the page; the student picks vertices by their numbers
#: (at least :data:`~simpred_lite.viz.style.MIN_PICKED_NUMBER_PT` as shown).
FIGURE_DPI = 96
FIGURE_WIDTH_IN = 8.0
FIGURE_HEIGHT_IN = 5.0
GRAPH_NODE_SIZE = 300
GRAPH_FONT_SIZE = 10
#: Every vertex keeps this fraction of the drawing's width from the edges it is not on (about its
#: 10 pt radius plus a margin, at the size the game draws the graph), see ``pickable_layout``.
LAYOUT_CLEARANCE = 0.05


class SimilarityGame:
    """Play the similarity game by hand: propose pairs, see the prediction, reveal the truth.

    The student is the adversary: pick two vertices ``i`` and ``j``, press **Predict** to see
    what the learner says (``dissimilar`` or ``similar``), then **Reveal** to tell it the
    truth (computed from ``labels``); the learner updates and its mistakes are counted.

    Parameters
    ----------
    G : networkx.Graph
        The graph (drawn with its classes and cut edges).
    labels : array_like of int
        The hidden classes: they give the true similarity labels.
    learner : SimilarityLearner
        A fresh learner on ``G``'s vertices.
    layout_seed : int
        Seed of the drawing's layout.
    bound : float, optional
        A mistake bound of the learner (e.g. ``n - K`` for ``UnionFindLearner``), drawn as a
        dashed line in the mistake panel so that the student sees how far the learner can be pushed.

    Attributes
    ----------
    i, j : ipywidgets.Dropdown
        The pair to query.
    predict_button, reveal_button : ipywidgets.Button
    restart_button : ipywidgets.Button
        **New game**: a fresh copy of the learner, an empty history.
    status : ipywidgets.HTML
        What happened last, in words (cleared when the pair changes after a prediction).
    busy : ipywidgets.HTML
        "drawing…" while the figure is redrawn (the buttons are disabled meanwhile).
    out : ipywidgets.Output
        The figure: the graph with the last predicted pair circled, and the mistake curve
        (redrawn on Predict, Reveal and New game, not on a vertex change).
    history : list of dict
        One entry per revealed trial: ``i, j, prediction, truth``.

    Examples
    --------
    >>> from simpred_lite import karate_club
    >>> from simpred_lite.learners import UnionFindLearner
    >>> G, y = karate_club()
    >>> game = SimilarityGame(G, y, UnionFindLearner(34))
    >>> game.i.value, game.j.value = 0, 33
    >>> game.predict(), game.reveal()
    (1, 1)
    >>> game.learner.mistakes
    0
    >>> SimilarityGame(G, y, UnionFindLearner(34), bound=32).bound
    32.0
    """

    def __init__(self, G, labels, learner, layout_seed: int = 0, bound: float | None = None):
        self.G = validate_graph(G)
        self._pair_circle: tuple[Figure | None, Any] = (None, None)  # the figure and the circle drawn on it
        n = self.G.number_of_nodes()
        self.labels = validate_labels(labels, n)
        if getattr(learner, "n", n) != n:
            raise ValueError(f"the learner is for {learner.n} vertices but the graph has {n}")
        self.learner = learner
        self.bound = None if bound is None else check_real(bound, "bound", low=0)
        self._fresh_learner = copy.deepcopy(learner)
        self.pos = pickable_layout(self.G, graph_layout(self.G, seed=check_int(layout_seed, "layout_seed", low=0)),
                                   clearance=LAYOUT_CLEARANCE)
        self.history: list[dict] = []
        self._shown: Figure | None = None
        self._pending: tuple[int, int, int] | None = None
        self.i = CheckedDropdown(options=list(range(n)), value=0, description="vertex i",
                                 options_text=f"a vertex number 0..{n - 1}", on_invalid=refusal_to_status(self))
        self.j = CheckedDropdown(options=list(range(n)), value=1, description="vertex j",
                                 options_text=f"a vertex number 0..{n - 1}", on_invalid=refusal_to_status(self))
        self.predict_button = W.Button(description="Predict", button_style="info")
        self.reveal_button = W.Button(description="Reveal", button_style="warning")
        self.restart_button = W.Button(description="New game", tooltip="Start again with a fresh learner")
        self.status = W.HTML()
        self.busy = W.HTML()
        self.out = W.Output()
        self.predict_button.on_click(lambda _: self.predict())
        self.reveal_button.on_click(lambda _: self.reveal())
        self.restart_button.on_click(lambda _: self.restart())
        self.i.observe(self._pair_changed, names="value")
        self.j.observe(self._pair_changed, names="value")
        self.widget = W.VBox(
            [W.HBox([self.i, self.j]),
             W.HBox([self.predict_button, self.reveal_button, self.restart_button, self.busy]),
             self.status, self.out, focus_style()]
        )
        self._set_status("Pick two vertices, press <b>Predict</b>, then <b>Reveal</b>.")
        self._render()
        clear_refusal_on_actions(self)

    # -- logic (plain Python) ------------------------------------------------------------
    def predict(self) -> int | None:
        """Ask the learner about the selected pair (it does not learn yet)."""
        i, j = int(self.i.value), int(self.j.value)
        if i == j:
            self._pending = None
            self._set_status("Choose two <i>different</i> vertices.")
            return None
        y_hat = self.learner.predict_one(i, j)
        self._pending = (i, j, y_hat)
        self._set_status(f"Learner predicts ({i}, {j}) {label_word(y_hat)}. Press <b>Reveal</b>.")
        self._render()
        return y_hat

    def reveal(self) -> int | None:
        """Tell the learner the truth about the predicted pair; returns the true label."""
        if self._pending is None or self._pending[:2] != (int(self.i.value), int(self.j.value)):
            self._set_status("Press <b>Predict</b> for this pair first.")
            return None
        i, j, y_hat = self._pending
        y = int(self.labels[i] != self.labels[j])
        self.learner.learn_one(i, j, y)
        self.history.append({"i": i, "j": j, "prediction": y_hat, "truth": y})
        self._pending = None
        verdict = "correct" if y == y_hat else "a MISTAKE"
        self._set_status(
            f"Truth: ({i}, {j}) {label_word(y)} — the prediction was {verdict}. "
            f"Mistakes: {self.learner.mistakes} in {len(self.history)} "
            f"{'trial' if len(self.history) == 1 else 'trials'}."
        )
        self._render()
        return y

    def restart(self) -> None:
        """A new game: a fresh copy of the learner as it was given, no history, no pending prediction."""
        self.learner = copy.deepcopy(self._fresh_learner)
        self.history = []
        self._pending = None
        self._set_status("New game. Pick two vertices, press <b>Predict</b>, then <b>Reveal</b>.")
        self._render()

    def _pair_changed(self, change) -> None:
        if change["new"] == change["old"] or change["new"] is None or change["old"] is None:
            return  # a refused value undone (or None set and undone): the pair has not changed
        # no redraw here (a redraw takes seconds on a busy machine): the new pair is circled on Predict
        if self._pending is not None:
            self._pending = None
            self._set_status(f"Pair changed to ({self.i.value}, {self.j.value}): press <b>Predict</b> "
                             "(the figure circles it then).")

    @property
    def status_text(self) -> str:
        """The status line as plain text (what the student reads)."""
        return plain_text(self.status.value)

    # -- view ------------------------------------------------------------------------------
    def _set_status(self, text: str) -> None:
        self.status.value = text

    def figure(self) -> Figure:
        """The figure the game shows: the graph with the last predicted pair circled, and the mistake curve."""
        fig = Figure(figsize=(FIGURE_WIDTH_IN, FIGURE_HEIGHT_IN), layout="constrained")
        ax_g, ax_m = fig.subplots(1, 2, width_ratios=[1.5, 1])
        draw_labelled_graph(self.G, self.labels, ax=ax_g, pos=self.pos,
                            title="Pair last predicted (circled)", node_size=GRAPH_NODE_SIZE, font_size=GRAPH_FONT_SIZE)
        ax_g.set_aspect("equal", adjustable="datalim")
        legend_below(ax_g)
        self._draw_pair(fig)
        self._draw_mistakes(ax_m)
        return fig

    def _draw_pair(self, fig: Figure) -> None:
        """Circle the pair of the last Predict (pending, or the last revealed trial) on ``fig``'s graph."""
        drawn_on, old = self._pair_circle
        if old is not None and drawn_on is fig:
            old.remove()
        if self._pending is not None:
            pair = self._pending[:2]
        elif self.history:
            pair = (self.history[-1]["i"], self.history[-1]["j"])
        else:
            pair = None
        circle = None
        if pair is not None:
            circle = nx.draw_networkx_nodes(self.G, self.pos, nodelist=list(pair), ax=fig.axes[0], node_color="none",
                                            node_size=GRAPH_NODE_SIZE * 2.4, edgecolors="black", linewidths=2.0)
        self._pair_circle = (fig, circle)

    def _draw_mistakes(self, ax_m) -> None:
        """The cumulative mistakes (and the dashed bound) on ``ax_m``."""
        wrong = np.array([h["prediction"] != h["truth"] for h in self.history], dtype=int)
        name = type(self.learner).__name__
        plot_mistake_curves({name: np.cumsum(wrong)}, ax_m, title="Learner's mistakes", legend=None)
        if self.bound is not None:
            # the bound black and under the curve (as in the notebook's static figures): a curve that
            # reaches the bound stays visible on it, and the bound goes on to the right of the curve
            ax_m.axhline(self.bound, color="black", ls="--", lw=1.2, zorder=1.5,
                         label=f"bound of {name}: {self.bound:g}")
            # room above the bound for the legend (upper left), so that it covers no line
            ax_m.set_ylim(0, max(ax_m.get_ylim()[1], 1.4 * self.bound + 1))
        ax_m.legend(loc="upper left", fontsize=LEGEND_FONTSIZE)

    def _render(self) -> None:
        buttons = (self.predict_button, self.reveal_button, self.restart_button)
        for b in buttons:
            b.disabled = True
        self.busy.value = "<i>drawing…</i>"
        try:
            if self._shown is None:
                self._shown = self.figure()
                show_figure(self.out, self._shown, dpi=FIGURE_DPI, tight=False)
                # keep the layout computed for the first drawing: later drawings only change the circle
                # and the mistake panel, and skip the layout pass (a redraw takes seconds on a busy machine)
                self._shown.set_layout_engine("none")
            else:
                self._draw_pair(self._shown)
                self._shown.axes[1].clear()
                self._draw_mistakes(self._shown.axes[1])
                show_figure(self.out, self._shown, dpi=FIGURE_DPI, tight=False)
        finally:
            self.busy.value = ""
            for b in buttons:
                b.disabled = False

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (
            f"SimilarityGame: {type(self.learner).__name__} on {self.G.number_of_nodes()} vertices "
            "(pick a pair, Predict, Reveal)"
        )
        return bundle
