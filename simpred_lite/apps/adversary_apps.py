"""Adversary apps: you are the adversary (or the learner) on the lower-bound problems.

* :class:`PermutationAdversaryApp` — answer a learner's comparisons on the paired
  permutation problem (§7) so that it errs as often as possible
* :class:`GraphAdversaryApp` — label a graph's vertices as the game goes, against a learner
* :class:`MergeSortLearnerApp` — you are the learner against the merge-sort adversary

Their logic is in :mod:`simpred_lite.game.hand_played`; the mistake curves are drawn by
:func:`~simpred_lite.viz.plot_mistake_curves`.
"""

from __future__ import annotations

import copy
import html

import ipywidgets as W
import numpy as np
from matplotlib.figure import Figure

from ..checks import check_int
from ..game.hand_played import GraphAdversaryGame, PermutationAdversaryGame
from ..learners.registry import LEARNERS
from ..theory.lowerbound import (
    ComparisonAdversary,
    binary_insertion_min_comparisons,
    log2_factorial,
    merge_sort_min_comparisons,
)
from ..viz.curves import plot_mistake_curves
from ..viz.graphs import draw_labelled_graph, graph_layout, legend_below, pickable_layout
from .controls import CheckedDropdown, clear_refusal_on_actions, focus_style, refusal_to_status
from .figure_output import show_figure
from .similarity_game import LAYOUT_CLEARANCE
from .text import label_word, plain_text

__all__ = ["PERMUTATION_LEARNERS", "PermutationAdversaryApp", "GraphAdversaryApp", "MergeSortLearnerApp"]

#: The graph adversary's figure: 768 px wide at 96 dpi (shown at full size in JupyterLab), vertex
#: numbers of 10 pt (at least :data:`~simpred_lite.viz.style.MIN_PICKED_NUMBER_PT` on the page).
GRAPH_FIGURE_DPI = 96
GRAPH_FIGURE_WIDTH_IN = 8.0
GRAPH_FONT_SIZE = 10

def _pattern_learner(spec):
    """``K -> learner on the K² patterns``, from a registry spec (the learner uses n only)."""
    import networkx as nx

    return lambda K: spec.build(nx.empty_graph(K * K), 0, None)


#: Learners a student can pick on the paired permutation problem (K items -> K² patterns): from the
#: registry, its similarity learners of the paired permutation setting and the baselines (which use n
#: only), plus Lemma 7's reduction over the halving class learner.
PERMUTATION_LEARNERS = {
    **{name: _pattern_learner(spec) for name, spec in LEARNERS.items()
       if spec.setting in ("baseline", "paired permutations") and hasattr(spec.cls, "predict_one")},
    # Lemma 7 on the halving class learner (notebook 04); K <= 7 keeps its pool small
    "SimilarityFromClassifier(Halving)": lambda K: _similarity_from_halving(K),
}


def _similarity_from_halving(K):
    from ..learners import HalvingClassifier, SimilarityFromClassifier
    from ..theory.lowerbound import paired_permutation_hypotheses

    H = paired_permutation_hypotheses(K)
    return SimilarityFromClassifier(lambda: HalvingClassifier(H, K), K, max_histories=20000)


class _AdversaryApp:
    """Buttons and view shared by the two adversary apps (the student answers)."""

    def _build(self, first, second):
        wide = {"layout": W.Layout(width="auto")}  # the default button width cuts these labels short
        self.ask_button = W.Button(description="Ask the learner", button_style="info", **wide)
        self.similar_button = W.Button(description="Answer: similar (0)", button_style="success", **wide)
        self.dissimilar_button = W.Button(description="Answer: dissimilar (1)", button_style="danger", **wide)
        self.new_game_button = W.Button(description="New game", **wide)
        self.status = W.HTML()
        self.out = W.Output()
        self.ask_button.on_click(lambda _: self.ask())
        self.similar_button.on_click(lambda _: self.answer(0))
        self.dissimilar_button.on_click(lambda _: self.answer(1))
        self.new_game_button.on_click(lambda _: self.new_game())
        first.observe(self._withdraw_if_changed, names="value")
        second.observe(self._withdraw_if_changed, names="value")
        self._pair_controls = (first, second)
        self.widget = W.VBox([W.HBox([first, second]), W.HBox([self.ask_button, self.similar_button,
                              self.dissimilar_button, self.new_game_button]), self.status, self.out,
                              focus_style()])

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return plain_text(self.status.value)

    def _sync_answer_buttons(self) -> None:
        """The answer buttons are enabled only while a question waits for its answer."""
        waiting = self.game.pending is not None
        self.similar_button.disabled = self.dissimilar_button.disabled = not waiting

    def _withdraw_if_changed(self, change) -> None:
        """Withdraw the waiting question when the student picks another pair after Ask.

        An answer then never goes to a pair that the controls no longer show.  ``None`` is
        skipped: it is a refused value that the dropdown undoes at once.
        """
        p = self.game.pending
        if p is None or change["new"] is None:
            return
        first, second = (c.value for c in self._pair_controls)
        asked = (p["a"], p["b"]) if "a" in p else (p["i"], p["j"])
        if (first, second) == asked:
            return
        self.game.pending = None
        self._sync_answer_buttons()
        self.status.value = f"You changed the pair: press <b>Ask the learner</b> for ({first}, {second})."
        self._render()

    def answer(self, y: int) -> bool | None:
        """Reveal ``y`` for the asked pair; returns whether the learner erred (None if refused)."""
        if self.game.pending is None:
            self.status.value = "Press <b>Ask the learner</b> first."
            return None
        self.status.value = "The learner is updating…"   # shown while a slow learner works
        try:
            erred = self.game.reveal(y)
        except ValueError as err:
            p = self.game.pending                 # items (a, b) in the permutation game, else vertices (i, j)
            pair = (p["a"], p["b"]) if "a" in p else (p["i"], p["j"])
            self.status.value = f"Not allowed for ({pair[0]}, {pair[1]}): {html.escape(str(err))}."
            return None
        verdict = "made a MISTAKE" if erred else "was right"
        self.status.value = (f"You answered {label_word(y)}: the learner {verdict}. "
                             f"Mistakes: {self.game.mistakes} in {len(self.game.history)} "
                             f"{'query' if len(self.game.history) == 1 else 'queries'}. {self._extra()}")
        self._render()
        return erred


class PermutationAdversaryApp(_AdversaryApp):
    """You are the adversary on the paired permutation problem (Theorem 9).

    Choose two items ``a`` and ``b``, press **Ask** to see whether the learner thinks
    ``z(a) < z(b)`` (the pair ``((a, b), (b, b))`` similar), then answer.  Answers forced by
    transitivity are refused if contradicted.  The figure tracks the mistakes against what
    the merge-sort adversary guarantees and against ``log2 K!``.

    Parameters
    ----------
    K : int
        Number of items.
    learner : str
        A key of ``PERMUTATION_LEARNERS``.

    Examples
    --------
    >>> app = PermutationAdversaryApp(4)
    >>> app.a.value, app.b.value = 0, 1
    >>> app.ask(), app.answer(1 - app.game.pending["prediction"])
    (0, True)
    >>> app.game.mistakes
    1
    """

    def __init__(self, K: int = 5, learner: str = "TransitiveOrderLearner"):
        if learner not in PERMUTATION_LEARNERS:
            raise ValueError(f"unknown learner {learner!r}; choose one of {sorted(PERMUTATION_LEARNERS)}")
        self.K = check_int(K, "K", low=2)
        self.learner_name = learner
        self.game = PermutationAdversaryGame(self.K, PERMUTATION_LEARNERS[learner](self.K))
        self._start_text = f"{learner} on K = {self.K} items. Pick a, b and press <b>Ask the learner</b>."
        self.a = CheckedDropdown(options=list(range(self.K)), value=0, description="item a",
                                 on_invalid=refusal_to_status(self))
        self.b = CheckedDropdown(options=list(range(self.K)), value=1, description="item b",
                                 on_invalid=refusal_to_status(self))
        self._build(self.a, self.b)
        self.status.value = self._start_text
        self._render()
        clear_refusal_on_actions(self)

    def new_game(self) -> None:
        """Start again: a fresh learner of the same kind, no answers yet."""
        self.game = PermutationAdversaryGame(self.K, PERMUTATION_LEARNERS[self.learner_name](self.K))
        self.status.value = "New game. " + self._start_text
        self._render()

    def ask(self) -> int | None:
        """Pose the selected comparison; returns the learner's prediction."""
        a, b = int(self.a.value), int(self.b.value)
        if a == b:
            self.status.value = "Choose two <i>different</i> items."
            return None
        self.status.value = "The learner is thinking…"   # shown while a slow learner works
        y_hat = self.game.ask(a, b)
        forced = self.game.allowed_answers()
        note = "" if len(forced) == 2 else f" Your answer is forced: {label_word(forced[0])}."
        self.status.value = (f"Is z({a}) &lt; z({b})? The learner predicts {label_word(y_hat)} "
                             f"({'yes' if y_hat == 0 else 'no'}).{note}")
        self._sync_answer_buttons()
        return y_hat

    def _extra(self) -> str:
        if self.game.determined():
            return f"The permutation is determined: z = {list(self.game.permutation())}."
        return ""

    def _render(self):
        self._sync_answer_buttons()
        fig = Figure(figsize=(6, 3.2))
        plot_mistake_curves({self.learner_name: self.game.cumulative_mistakes()}, fig.subplots(), self.game.bounds(),
                            f"{self.learner_name}, K = {self.K}", xlabel="query", legend="outside")
        show_figure(self.out, fig, dpi=90)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"PermutationAdversaryApp: you play the adversary against {self.learner_name} "
                                f"(K = {self.K})")
        return bundle


class GraphAdversaryApp(_AdversaryApp):
    """You are the adversary on a small graph: any answers that fit some labeling.

    The figure shows the finest labeling your answers allow (one class per block of
    *similar* answers), its cut edges, and the learner's mistakes against the union-find
    bound ``n - K``.  The answer buttons are enabled only while an asked pair waits for its
    answer; choosing another vertex after **Ask the learner** withdraws the question.

    Examples
    --------
    >>> import networkx as nx
    >>> from simpred_lite.learners import UnionFindLearner
    >>> app = GraphAdversaryApp(nx.cycle_graph(5), UnionFindLearner(5))
    >>> app.i.value, app.j.value = 0, 2
    >>> app.ask(), app.answer(0)
    (1, True)
    """

    def __init__(self, G, learner, layout_seed: int = 0):
        self._G, self._fresh_learner = G, copy.deepcopy(learner)   # for a new game
        self.game = GraphAdversaryGame(G, learner)
        n = self.game.n
        start = graph_layout(self.game.G, seed=check_int(layout_seed, "layout_seed", low=0))
        self.pos = pickable_layout(self.game.G, start, clearance=LAYOUT_CLEARANCE, best_effort=True)
        self.i = CheckedDropdown(options=list(range(n)), value=0, description="vertex i",
                                 on_invalid=refusal_to_status(self))
        self.j = CheckedDropdown(options=list(range(n)), value=1, description="vertex j",
                                 on_invalid=refusal_to_status(self))
        self._build(self.i, self.j)
        self._start_text = f"{type(learner).__name__} on {n} vertices. Pick i, j and press <b>Ask the learner</b>."
        self.status.value = self._start_text
        self._render()
        clear_refusal_on_actions(self)

    def new_game(self) -> None:
        """Start again: a copy of the learner as it was given, no answers yet."""
        self.game = GraphAdversaryGame(self._G, copy.deepcopy(self._fresh_learner))
        self.status.value = "New game. " + self._start_text
        self._render()

    def ask(self) -> int | None:
        """Pose the selected pair; returns the learner's prediction."""
        i, j = int(self.i.value), int(self.j.value)
        if i == j:
            # (a pair asked before was withdrawn when i or j changed: nothing waits for an answer)
            self.status.value = "Choose two <i>different</i> vertices."
            return None
        self.status.value = "The learner is thinking…"   # shown while a slow learner works
        y_hat = self.game.ask(i, j)
        forced = self.game.allowed_answers()
        note = "" if len(forced) == 2 else f" Your answer is forced: {label_word(forced[0])}."
        self.status.value = f"The learner predicts ({i}, {j}) {label_word(y_hat)}.{note}"
        self._render()
        return y_hat

    def _extra(self) -> str:
        y = self.game.labeling()
        K = int(y.max()) + 1
        return f"Your answers allow {K} class{'' if K == 1 else 'es'} with |Φ| = {self.game.cut_size()}."

    def figure(self) -> Figure:
        """The current figure (also what the app shows): the labeling and the mistakes."""
        # 768 px wide at 96 dpi: shown at full size in JupyterLab, so the vertex numbers the
        # student picks by keep their 10 pt; the class legend sits under the graph
        fig = Figure(figsize=(GRAPH_FIGURE_WIDTH_IN, 4.2), layout="constrained")
        ax_g, ax_m = fig.subplots(1, 2, width_ratios=[1.4, 1])
        p = self.game.pending
        draw_labelled_graph(self.game.G, self.game.labeling(), ax=ax_g, pos=self.pos, with_labels=True,
                            highlight_pair=None if p is None else (p["i"], p["j"]),
                            title="Finest labeling your answers allow", node_size=320, font_size=GRAPH_FONT_SIZE)
        ax_g.set_aspect("equal", adjustable="datalim")
        legend_below(ax_g)
        y = self.game.labeling()
        bound = {"n - K (K of this labeling)": float(self.game.n - int(y.max()) - 1)}
        plot_mistake_curves({type(self.game.learner).__name__: self.game.cumulative_mistakes()}, ax_m, bound,
                            "Learner's mistakes", xlabel="query", legend="inside")
        # before any similar answer n - K is 0: lift the x-axis a little so that its dashed line shows;
        # the curve and the bound stay in the lower 70 % of the axes, under the legend (upper left),
        # so that the legend covers neither where the curve runs along the bound
        high = max(bound.values())
        curve = self.game.cumulative_mistakes()
        if len(curve):
            high = max(high, float(np.max(curve)))
        ax_m.set_ylim(-0.5, max(ax_m.get_ylim()[1], (high + 0.5) / 0.7 - 0.5))
        return fig

    def _render(self):
        self._sync_answer_buttons()
        show_figure(self.out, self.figure(), dpi=GRAPH_FIGURE_DPI, tight=False)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"GraphAdversaryApp: you play the adversary against "
                                f"{type(self.game.learner).__name__} on {self.game.n} vertices")
        return bundle


class MergeSortLearnerApp:
    """You are the learner; a :class:`ComparisonAdversary` asks the questions.

    Each question is "is ``z(a) < z(b)``?" (the pair ``((a, b), (b, b))``); answer with the
    buttons.  The adversary always says the opposite — and stays consistent with a
    permutation it reveals at the end.  You cannot beat the floor: merge sort asks at least
    :func:`merge_sort_min_comparisons` questions whatever you say.

    Examples
    --------
    >>> app = MergeSortLearnerApp(3)
    >>> app.question                   # merge sort splits [0] | [1, 2] and sorts [1, 2] first
    (1, 2)
    >>> while app.question is not None:
    ...     _ = app.predict(0)
    >>> app.mistakes, app.adversary.permutation()
    (3, (2, 1, 0))
    """

    def __init__(self, K: int = 6, strategy: str = "merge"):
        # the same check and sentence as PermutationAdversaryApp: with one item there is no question
        self.adversary = ComparisonAdversary(check_int(K, "K", low=2), strategy)
        self.K = self.adversary.K
        self.strategy = strategy
        self.mistakes = 0
        self.floor = (merge_sort_min_comparisons if strategy == "merge" else binary_insertion_min_comparisons)(self.K)
        wide = {"layout": W.Layout(width="auto")}  # the default button width cuts these labels short
        self.similar_button = W.Button(description="similar: z(a) < z(b)", button_style="success", **wide)
        self.dissimilar_button = W.Button(description="dissimilar: z(a) > z(b)", button_style="danger", **wide)
        self.similar_button.on_click(lambda _: self.predict(0))
        self.dissimilar_button.on_click(lambda _: self.predict(1))
        self.new_game_button = W.Button(description="New game", **wide)
        self.new_game_button.on_click(lambda _: self.new_game())
        self.question_html = W.HTML()
        self.status = W.HTML()
        self.out = W.Output()
        self.widget = W.VBox([self.question_html,
                              W.HBox([self.similar_button, self.dissimilar_button, self.new_game_button]),
                              self.status, self.out, focus_style()])
        self.status.value = f"{strategy} adversary on K = {self.K} items: it will ask at least {self.floor} questions."
        self._show_question()
        self._render()

    def new_game(self) -> None:
        """Start again: a fresh adversary with the same strategy, no mistakes yet."""
        self.adversary = ComparisonAdversary(self.K, self.strategy)
        self.mistakes = 0
        self.status.value = (f"New game: {self.strategy} adversary on K = {self.K} items: it will ask at least "
                             f"{self.floor} questions.")
        self._show_question()
        self._render()

    @property
    def question(self) -> tuple[int, int] | None:
        """The items ``(a, b)`` of the current question, or None when the game is over."""
        return self.adversary.query()

    @property
    def status_text(self) -> str:
        return plain_text(self.status.value)

    @property
    def question_text(self) -> str:
        return plain_text(self.question_html.value)

    def predict(self, y_hat: int) -> int | None:
        """Your prediction for the current question; returns the adversary's answer."""
        if self.adversary.done:
            self.status.value = "The game is over. Press <b>New game</b> to play again."
            return None
        y = self.adversary.answer(y_hat)
        self.mistakes += int(y != y_hat)
        if self.adversary.done:
            self.status.value = (f"Over: {self.mistakes} mistakes in {len(self.adversary.asked)} questions "
                                 f"(floor {self.floor}, log2 K! = {log2_factorial(self.K):.4g}). "
                                 f"The adversary reveals z = {list(self.adversary.permutation())}.")
        else:
            self.status.value = f"The adversary says {label_word(y)}. Mistakes: {self.mistakes}."
        self._show_question()
        self._render()
        return y

    def _show_question(self):
        q = self.question
        self.question_html.value = ("No more questions." if q is None else
                                    f"Question {len(self.adversary.asked) + 1}: is z({q[0]}) &lt; z({q[1]})? "
                                    f"(the pair (({q[0]}, {q[1]}), ({q[1]}, {q[1]})))")

    def _render(self):
        fig = Figure(figsize=(6, 3.2))
        curve = np.arange(1, len(self.adversary.asked) + 1)[: self.mistakes]
        plot_mistake_curves({"your mistakes": curve}, fig.subplots(),
                            {"floor": float(self.floor), "log2 K!": log2_factorial(self.K)},
                            f"You against the {self.strategy} adversary, K = {self.K}",
                            xlabel="query", legend="outside")
        show_figure(self.out, fig, dpi=90)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"MergeSortLearnerApp: you are the learner against the {self.strategy} adversary "
                                f"(K = {self.K})")
        return bundle
