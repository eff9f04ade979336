"""ipywidgets apps used by the notebooks.

Every app keeps its logic in plain methods (tested without a browser) and shows its state
through widget *values* (``HTML.value``) and an ``Output`` widget whose content is set
through its state (``out.outputs = ()`` then ``out.append_display_data(...)``), with figures
rendered from a ``matplotlib.figure.Figure`` to PNG.  That way a notebook can drive an app
as a student would (``app.i.value = 3``, ``app.predict_button.click()``) and print the
facts it shows, and strict nbval checks them.
"""

from __future__ import annotations

import html
import re

import ipywidgets as W
import numpy as np
from IPython.display import Image
from matplotlib.figure import Figure

from .checks import check_int
from .graphs import validate_graph, validate_labels
from .plotting import draw_labelled_graph, figure_to_png, graph_layout

__all__ = ["SimilarityGame"]


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

    Attributes
    ----------
    i, j : ipywidgets.Dropdown
        The pair to query.
    predict_button, reveal_button : ipywidgets.Button
    status : ipywidgets.HTML
        What happened last, in words.
    out : ipywidgets.Output
        The figure: the graph with the current pair, and the mistake curve.
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
    """

    def __init__(self, G, labels, learner, layout_seed: int = 0):
        self.G = validate_graph(G)
        n = self.G.number_of_nodes()
        self.labels = validate_labels(labels, n)
        if getattr(learner, "n", n) != n:
            raise ValueError(f"the learner is for {learner.n} vertices but the graph has {n}")
        self.learner = learner
        self.pos = graph_layout(self.G, seed=check_int(layout_seed, "layout_seed", low=0))
        self.history: list[dict] = []
        self._pending: tuple[int, int, int] | None = None
        self.i = W.Dropdown(options=list(range(n)), value=0, description="vertex i")
        self.j = W.Dropdown(options=list(range(n)), value=1, description="vertex j")
        self.predict_button = W.Button(description="Predict", button_style="info")
        self.reveal_button = W.Button(description="Reveal", button_style="warning")
        self.status = W.HTML()
        self.out = W.Output()
        self.predict_button.on_click(lambda _: self.predict())
        self.reveal_button.on_click(lambda _: self.reveal())
        self.widget = W.VBox(
            [W.HBox([self.i, self.j]), W.HBox([self.predict_button, self.reveal_button]), self.status, self.out]
        )
        self._set_status("Pick two vertices, press <b>Predict</b>, then <b>Reveal</b>.")
        self._render()

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
        self._set_status(f"Learner predicts ({i}, {j}) {_word(y_hat)}. Press <b>Reveal</b>.")
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
            f"Truth: ({i}, {j}) {_word(y)} — the prediction was {verdict}. "
            f"Mistakes: {self.learner.mistakes} in {len(self.history)} trials."
        )
        self._render()
        return y

    @property
    def status_text(self) -> str:
        """The status line as plain text (what the student reads)."""
        return html.unescape(re.sub(r"<[^>]+>", "", self.status.value))

    # -- view ------------------------------------------------------------------------------
    def _set_status(self, text: str) -> None:
        self.status.value = text

    def _render(self) -> None:
        fig = Figure(figsize=(9, 3.6))
        ax_g, ax_m = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.3, 1]})
        pair = (int(self.i.value), int(self.j.value)) if self.i.value != self.j.value else None
        draw_labelled_graph(self.G, self.labels, ax=ax_g, pos=self.pos, highlight_pair=pair,
                            title="Your pair (circled)", node_size=60)
        wrong = np.array([h["prediction"] != h["truth"] for h in self.history], dtype=int)
        t = np.arange(1, wrong.size + 1)
        if wrong.size:
            ax_m.step(t, np.cumsum(wrong), where="post", color="tab:red")
        ax_m.set_xlim(0, max(10, wrong.size + 1))
        ax_m.set_ylim(0, max(3, int(wrong.sum()) + 1))
        ax_m.set_title("Learner's mistakes")
        ax_m.set_xlabel("trial")
        ax_m.set_ylabel("mistakes so far")
        self.out.outputs = ()
        self.out.append_display_data(Image(data=figure_to_png(fig)))

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (
            f"SimilarityGame: {type(self.learner).__name__} on {self.G.number_of_nodes()} vertices "
            "(pick a pair, Predict, Reveal)"
        )
        return bundle


def _word(y: int) -> str:
    return "DISSIMILAR (1)" if y == 1 else "SIMILAR (0)"


# -- adversary games on the paired permutation problem and on a graph -------------------
from .games import GraphAdversaryGame, PermutationAdversaryGame  # noqa: E402
from .learners.baselines import AlwaysSimilar, UnionFindLearner  # noqa: E402
from .lowerbound import (  # noqa: E402
    ComparisonAdversary,
    HalvingPermutationLearner,
    TransitiveOrderLearner,
    log2_factorial,
    merge_sort_min_comparisons,
    binary_insertion_min_comparisons,
)

__all__ += ["PermutationAdversaryApp", "GraphAdversaryApp", "MergeSortLearnerApp"]

#: Learners a student can pick on the paired permutation problem (K items -> K² patterns).
PERMUTATION_LEARNERS = {
    "TransitiveOrderLearner": lambda K: TransitiveOrderLearner(K),
    "UnionFindLearner": lambda K: UnionFindLearner(K * K),
    "AlwaysSimilar": lambda K: AlwaysSimilar(K * K),
    "HalvingPermutationLearner": lambda K: HalvingPermutationLearner(K),
    # Lemma equiv on the halving class learner (notebook 04); K <= 7 keeps its pool small
    "SimilarityFromClassifier(Halving)": lambda K: _similarity_from_halving(K),
}


def _similarity_from_halving(K):
    from .learners import HalvingClassifier, SimilarityFromClassifier
    from .lowerbound import paired_permutation_hypotheses

    H = paired_permutation_hypotheses(K)
    return SimilarityFromClassifier(lambda: HalvingClassifier(H, K), K, max_histories=20000)


def _mistake_axes(ax, curve, bounds, title):
    t = np.arange(1, curve.size + 1)
    if curve.size:
        ax.step(t, curve, where="post", color="tab:red", lw=2, marker="o", ms=4, label="learner's mistakes")
    for k, (name, value) in enumerate(bounds.items()):
        ax.axhline(value, ls=":", lw=1.5, color=("tab:blue", "tab:green", "tab:purple")[k % 3], label=f"{name} = {value:.1f}")
    top = max([3.0, *bounds.values(), float(curve[-1]) if curve.size else 0.0])
    ax.set_xlim(0, max(10, curve.size + 1))
    ax.set_ylim(0, top + 1)
    ax.set_title(title)
    ax.set_xlabel("query")
    ax.set_ylabel("mistakes so far")
    ax.legend(loc="upper left", fontsize=7)


def _plain(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


class _AdversaryApp:
    """Buttons and view shared by the two adversary apps (the student answers)."""

    def _build(self, first, second):
        self.ask_button = W.Button(description="Ask the learner", button_style="info")
        self.similar_button = W.Button(description="Answer: similar (0)", button_style="success")
        self.dissimilar_button = W.Button(description="Answer: dissimilar (1)", button_style="danger")
        self.status = W.HTML()
        self.out = W.Output()
        self.ask_button.on_click(lambda _: self.ask())
        self.similar_button.on_click(lambda _: self.answer(0))
        self.dissimilar_button.on_click(lambda _: self.answer(1))
        self.widget = W.VBox([W.HBox([first, second]), W.HBox([self.ask_button, self.similar_button,
                              self.dissimilar_button]), self.status, self.out])

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return _plain(self.status.value)

    def answer(self, y: int) -> bool | None:
        """Reveal ``y`` for the asked pair; returns whether the learner erred (None if refused)."""
        if self.game.pending is None:
            self.status.value = "Press <b>Ask the learner</b> first."
            return None
        try:
            erred = self.game.reveal(y)
        except ValueError as err:
            self.status.value = f"Not allowed: {html.escape(str(err))}."
            return None
        verdict = "made a MISTAKE" if erred else "was right"
        self.status.value = (f"You answered {_word(y)}: the learner {verdict}. "
                             f"Mistakes: {self.game.mistakes} in {len(self.game.history)} queries. {self._extra()}")
        self._render()
        return erred


class PermutationAdversaryApp(_AdversaryApp):
    """You are the adversary on the paired permutation problem (Theorem ``thm:lognec``).

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
        self.a = W.Dropdown(options=list(range(self.K)), value=0, description="item a")
        self.b = W.Dropdown(options=list(range(self.K)), value=1, description="item b")
        self._build(self.a, self.b)
        self.status.value = f"{learner} on K = {self.K} items. Pick a, b and press <b>Ask the learner</b>."
        self._render()

    def ask(self) -> int | None:
        """Pose the selected comparison; returns the learner's prediction."""
        a, b = int(self.a.value), int(self.b.value)
        if a == b:
            self.status.value = "Choose two <i>different</i> items."
            return None
        y_hat = self.game.ask(a, b)
        forced = self.game.allowed_answers()
        note = "" if len(forced) == 2 else f" Your answer is forced: {_word(forced[0])}."
        self.status.value = (f"Is z({a}) &lt; z({b})? The learner predicts {_word(y_hat)} "
                             f"({'yes' if y_hat == 0 else 'no'}).{note}")
        return y_hat

    def _extra(self) -> str:
        if self.game.determined():
            return f"The permutation is determined: z = {list(self.game.permutation())}."
        return ""

    def _render(self):
        fig = Figure(figsize=(6, 3.2))
        _mistake_axes(fig.subplots(), self.game.cumulative_mistakes(), self.game.bounds(),
                      f"{self.learner_name}, K = {self.K}")
        self.out.outputs = ()
        self.out.append_display_data(Image(data=figure_to_png(fig)))

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"PermutationAdversaryApp: you play the adversary against {self.learner_name} (K = {self.K})"
        return bundle


class GraphAdversaryApp(_AdversaryApp):
    """You are the adversary on a small graph: any answers that fit some labeling.

    The figure shows the finest labeling your answers allow (one class per block of
    *similar* answers), its cut edges, and the learner's mistakes against the union-find
    bound ``n - K``.

    Examples
    --------
    >>> import networkx as nx
    >>> app = GraphAdversaryApp(nx.cycle_graph(5), UnionFindLearner(5))
    >>> app.i.value, app.j.value = 0, 2
    >>> app.ask(), app.answer(0)
    (1, True)
    """

    def __init__(self, G, learner, layout_seed: int = 0):
        self.game = GraphAdversaryGame(G, learner)
        n = self.game.n
        self.pos = graph_layout(self.game.G, seed=check_int(layout_seed, "layout_seed", low=0))
        self.i = W.Dropdown(options=list(range(n)), value=0, description="vertex i")
        self.j = W.Dropdown(options=list(range(n)), value=1, description="vertex j")
        self._build(self.i, self.j)
        self.status.value = f"{type(learner).__name__} on {n} vertices. Pick i, j and press <b>Ask the learner</b>."
        self._render()

    def ask(self) -> int | None:
        """Pose the selected pair; returns the learner's prediction."""
        i, j = int(self.i.value), int(self.j.value)
        if i == j:
            self.status.value = "Choose two <i>different</i> vertices."
            return None
        y_hat = self.game.ask(i, j)
        forced = self.game.allowed_answers()
        note = "" if len(forced) == 2 else f" Your answer is forced: {_word(forced[0])}."
        self.status.value = f"The learner predicts ({i}, {j}) {_word(y_hat)}.{note}"
        self._render()
        return y_hat

    def _extra(self) -> str:
        y = self.game.labeling()
        return f"Your answers allow {int(y.max()) + 1} classes with |Φ| = {self.game.cut_size()}."

    def _render(self):
        fig = Figure(figsize=(9, 3.6))
        ax_g, ax_m = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.2, 1]})
        p = self.game.pending
        draw_labelled_graph(self.game.G, self.game.labeling(), ax=ax_g, pos=self.pos, with_labels=True,
                            highlight_pair=None if p is None else (p["i"], p["j"]),
                            title="Finest labeling your answers allow", node_size=160)
        y = self.game.labeling()
        _mistake_axes(ax_m, self.game.cumulative_mistakes(), {"n - K (K of this labeling)": float(self.game.n - int(y.max()) - 1)},
                      "Learner's mistakes")
        self.out.outputs = ()
        self.out.append_display_data(Image(data=figure_to_png(fig)))

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
        self.adversary = ComparisonAdversary(K, strategy)
        self.K = self.adversary.K
        self.strategy = strategy
        self.mistakes = 0
        self.floor = (merge_sort_min_comparisons if strategy == "merge" else binary_insertion_min_comparisons)(self.K)
        self.similar_button = W.Button(description="similar: z(a) < z(b)", button_style="success")
        self.dissimilar_button = W.Button(description="dissimilar: z(a) > z(b)", button_style="danger")
        self.similar_button.on_click(lambda _: self.predict(0))
        self.dissimilar_button.on_click(lambda _: self.predict(1))
        self.question_html = W.HTML()
        self.status = W.HTML()
        self.out = W.Output()
        self.widget = W.VBox([self.question_html, W.HBox([self.similar_button, self.dissimilar_button]),
                              self.status, self.out])
        self.status.value = f"{strategy} adversary on K = {self.K} items: it will ask at least {self.floor} questions."
        self._show_question()
        self._render()

    @property
    def question(self) -> tuple[int, int] | None:
        """The items ``(a, b)`` of the current question, or None when the game is over."""
        return self.adversary.query()

    @property
    def status_text(self) -> str:
        return _plain(self.status.value)

    @property
    def question_text(self) -> str:
        return _plain(self.question_html.value)

    def predict(self, y_hat: int) -> int | None:
        """Your prediction for the current question; returns the adversary's answer."""
        if self.adversary.done:
            self.status.value = "The game is over."
            return None
        y = self.adversary.answer(y_hat)
        self.mistakes += int(y != y_hat)
        if self.adversary.done:
            self.status.value = (f"Over: {self.mistakes} mistakes in {len(self.adversary.asked)} questions "
                                 f"(floor {self.floor}, log2 K! = {log2_factorial(self.K):.2f}). "
                                 f"The adversary reveals z = {list(self.adversary.permutation())}.")
        else:
            self.status.value = f"The adversary says {_word(y)}. Mistakes: {self.mistakes}."
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
        _mistake_axes(fig.subplots(), curve, {"floor": float(self.floor), "log2 K!": log2_factorial(self.K)},
                      f"You against the {self.strategy} adversary, K = {self.K}")
        self.out.outputs = ()
        self.out.append_display_data(Image(data=figure_to_png(fig)))

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"MergeSortLearnerApp: you are the learner against the {self.strategy} adversary (K = {self.K})"
        return bundle


# -- one BST Perceptron trial, the forest of revealed paths, the Ising reduction ---------
from .hardness import reduction_stages  # noqa: E402
from .learners.bst_perceptron import BSTPerceptron, trial_structure  # noqa: E402
from .learners.unknown import PathForest, parse_path  # noqa: E402
from .plotting import draw_bst_trial, draw_edge_numbering, draw_labelled_path  # noqa: E402

__all__ += ["BSTTrialExplorer", "PathForestExplorer", "IsingReductionExplorer"]


def _show_png(out, fig, dpi=80):
    out.outputs = ()
    out.append_display_data(Image(data=figure_to_png(fig, dpi=dpi)))


class BSTTrialExplorer:
    """Step through one trial of the BST Perceptron (§4.1): path, ``S_t``, the ``F`` sum, the decision.

    Choose a pair ``(i, j)`` of graph vertices: the app shows the path ``P_t`` between their
    leaves, the set ``S_t``, the tags ``f_t``, the sum of ``F`` over ``P_t x P_t``, the
    threshold ``2R^2`` and the prediction.  **Learn** tells the learner the label (the true
    one from ``labels``, preset when the pair changes; you may flip it) and updates ``F``
    on a mistake.

    Parameters
    ----------
    bst : BinarySupportTree
    labels : array_like of int, optional
        Vertex classes: leaf colours, and the true label of each pair.

    Attributes
    ----------
    i, j : ipywidgets.Dropdown
        The pair (vertex numbers of the graph).
    label : ipywidgets.ToggleButtons
        The label **Learn** applies: ``0`` similar, ``1`` dissimilar.
    learn_button : ipywidgets.Button
    status : ipywidgets.HTML
        The computation of the trial, in words.
    out : ipywidgets.Output
        The BST with ``P_t`` (light blue), ``S_t`` (thick borders) and the tags (red).
    learner : BSTPerceptron
    history : list of dict
        One entry per **Learn**: ``i, j, path_sum, prediction, label, mistake``.

    Examples
    --------
    >>> from simpred_lite.bst import BinarySupportTree
    >>> app = BSTTrialExplorer(BinarySupportTree([0, 1, 2, 3]), labels=[0, 0, 1, 1])
    >>> app.i.value, app.j.value = 0, 3
    >>> app.explanation["prediction"], app.label.value
    (0, 1)
    >>> app.learn_button.click(); app.explanation["path_sum"]
    32
    """

    def __init__(self, bst, labels=None):
        self.learner = BSTPerceptron(bst)
        self.bst = bst
        n = bst.n
        self.labels = None if labels is None else validate_labels(labels, n)
        self.history: list[dict] = []
        self.i = W.Dropdown(options=list(range(n)), value=0, description="vertex i")
        self.j = W.Dropdown(options=list(range(n)), value=n - 1, description="vertex j")
        self.label = W.ToggleButtons(options=[("similar (0)", 0), ("dissimilar (1)", 1)], value=0,
                                     description="label y")
        self.learn_button = W.Button(description="Learn", button_style="warning",
                                     tooltip="tell the learner the label; F changes on a mistake")
        self.title = W.HTML(f"<b>One trial of the BST Perceptron</b> ({n} vertices, N = {bst.num_leaves} leaves, "
                            f"R = 2 log2 N = {self.learner.R})")
        self.status = W.HTML(layout=W.Layout(min_height="7.5em"))
        self.out = W.Output(layout=W.Layout(min_height="330px"))
        self.i.observe(self._on_pair, names="value")
        self.j.observe(self._on_pair, names="value")
        self.learn_button.on_click(lambda _: self.learn())
        self.widget = W.VBox([self.title, W.HBox([self.i, self.j]), W.HBox([self.label, self.learn_button]),
                              self.status, self.out])
        self.last = ""
        self._on_pair(None)

    @property
    def explanation(self) -> dict | None:
        """:meth:`BSTPerceptron.explain` for the chosen pair (None if ``i == j``)."""
        i, j = int(self.i.value), int(self.j.value)
        return None if i == j else self.learner.explain(i, j)

    @property
    def status_text(self) -> str:
        """The status as plain text (what the student reads)."""
        return _plain(self.status.value.replace("<br>", "\n"))

    def learn(self) -> bool | None:
        """Apply the chosen label to the chosen pair; returns whether it was a mistake."""
        e = self.explanation
        if e is None:
            self.last = "Choose two <i>different</i> vertices."
            self._update()
            return None
        i, j, y = int(self.i.value), int(self.j.value), int(self.label.value)
        before = self.learner.entries
        self.learner.learn_one(i, j, y)
        mistake = y != e["prediction"]
        self.history.append({"i": i, "j": j, "path_sum": e["path_sum"], "prediction": e["prediction"],
                             "label": y, "mistake": mistake})
        if mistake:
            self.last = (f"Learned y = {y}: a MISTAKE, so F[l, l'] += ({y} - {e['prediction']}) (f(l) - f(l'))² on "
                         f"S_t × S_t ({len(e['update'])} pairs; F now has {self.learner.entries} stored entries, "
                         f"was {before}).")
        else:
            self.last = f"Learned y = {y}: the prediction was right, F is unchanged."
        self._update()
        return mistake

    def _on_pair(self, change) -> None:
        i, j = int(self.i.value), int(self.j.value)
        if self.labels is not None and i != j:
            self.label.value = int(self.labels[i] != self.labels[j])
        self.last = ""
        self._update()

    def _update(self) -> None:
        e = self.explanation
        head = f"Trials learned: {len(self.history)}, mistakes: {self.learner.mistakes}."
        if e is None:
            self.status.value = head + "<br>Choose two <i>different</i> vertices."
            self.out.outputs = ()
            return
        i, j = int(self.i.value), int(self.j.value)
        decide = e["path_sum"] > e["threshold"] if e["comparison"] == ">" else e["path_sum"] >= e["threshold"]
        word = "DISSIMILAR (1)" if e["prediction"] else "SIMILAR (0)"
        lines = [head,
                 f"Pair ({i}, {j}) sits at leaves {e['leaves'][0]} and {e['leaves'][1]}. "
                 f"P_t = {list(e['path'])} ({len(e['path'])} vertices); S_t = {list(e['S'])}.",
                 f"Sum of F over P_t × P_t = {e['path_sum']}; threshold 2R² = {e['threshold']}; "
                 f"{e['path_sum']} {e['comparison']} {e['threshold']}? {'yes' if decide else 'no'} → predicts {word}."]
        if self.last:
            lines.append(self.last)
        self.status.value = "<br>".join(lines)
        fig = Figure(figsize=(9, 4.2))
        ax = fig.subplots()
        draw_bst_trial(self.bst, trial_structure(self.bst, i, j), ax=ax, labels=self.labels,
                       title=f"Pair ({i}, {j}): P_t light blue, S_t thick borders, tags f_t in red")
        ax.set_axis_off()
        _show_png(self.out, fig)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"BSTTrialExplorer: one BST Perceptron trial on {self.bst.n} vertices "
                                "(pick i, j; Learn)")
        return bundle


class PathForestExplorer:
    """Type revealed paths and watch the forest of revealed paths grow (§5, Figure 3).

    Type a path such as ``0 3 5 2`` (the pair is its two ends) and press **Add**: the
    forest keeps the path's edges that close no circuit, numbered by first disclosure and
    oriented low → high, and the app shows the instance ``x_t``, the signed indicator of
    the pair's path *in the forest*.

    Parameters
    ----------
    n : int
        Number of vertices (drawn on a circle, numbered ``0 .. n-1``).
    grow : {"disconnected", "always"}
        Passed to :class:`~simpred_lite.learners.PathForest`.

    Attributes
    ----------
    path_text : ipywidgets.Text
    add_button, reset_button : ipywidgets.Button
    status : ipywidgets.HTML
    out : ipywidgets.Output
    forest : PathForest
    history : list of dict
        One entry per added path: ``path``, ``new_edges``, ``forest_path``, ``x``.

    Examples
    --------
    >>> app = PathForestExplorer(6)
    >>> app.path_text.value = "0 3 5 2"; app.add_button.click()
    >>> app.history[-1]["x"]
    [1, 1, -1]
    >>> app.path_text.value = "0 0"; app.add_button.click(); len(app.history)
    1
    """

    def __init__(self, n: int = 8, grow: str = "disconnected"):
        self.n = check_int(n, "n", low=2, high=40)
        self.grow = grow
        import networkx as nx

        self.pos = nx.circular_layout(nx.empty_graph(self.n))
        self.path_text = W.Text(value="", placeholder="e.g. 0 3 5 2", description="path",
                                tooltip=f"vertex numbers 0..{self.n - 1}, separated by spaces")
        self.add_button = W.Button(description="Add", button_style="info", tooltip="reveal this path")
        self.reset_button = W.Button(description="Reset", button_style="warning", tooltip="an empty forest")
        self.title = W.HTML(f"<b>The forest of revealed paths</b> on {self.n} vertices")
        self.status = W.HTML(layout=W.Layout(min_height="5em"))
        self.out = W.Output(layout=W.Layout(min_height="360px"))
        self.add_button.on_click(lambda _: self.add())
        self.reset_button.on_click(lambda _: self.reset())
        self.widget = W.VBox([self.title, W.HBox([self.path_text, self.add_button, self.reset_button]),
                              self.status, self.out])
        self.reset()

    @property
    def status_text(self) -> str:
        return _plain(self.status.value.replace("<br>", "\n"))

    def reset(self) -> None:
        """An empty forest."""
        self.forest = PathForest(self.n, grow=self.grow)
        self.history: list[dict] = []
        self._update(f"Type a path of vertex numbers 0..{self.n - 1} (e.g. 0 3 5 2) and press <b>Add</b>.")

    def add(self) -> dict | None:
        """Reveal the typed path; returns the new history entry (None if the text is not a path)."""
        try:
            path = parse_path(self.path_text.value, self.n)
        except (ValueError, TypeError) as err:
            self._update(f"Not a path: {html.escape(str(err))}.")
            return None
        before = len(self.forest.edges)
        verts, idx, sgn = self.forest.instance_sparse(path[0], path[-1], path)
        x = [0] * (self.n - 1)
        for e, s in zip(idx, sgn):
            x[e] = int(s)
        entry = {"path": list(path), "new_edges": self.forest.edges[before:], "forest_path": list(verts),
                 "x": x[: len(self.forest.edges)]}
        self.history.append(entry)
        new = ", ".join(f"e{before + k + 1} = {a}→{b}" for k, (a, b) in enumerate(entry["new_edges"])) or "none"
        self._update(f"t = {len(self.history)}: pair ({path[0]}, {path[-1]}), revealed path {list(path)}; "
                     f"new forest edges: {new}.<br>Forest path: {' → '.join(map(str, verts))}; "
                     f"x_{len(self.history)} = ({', '.join(map(str, entry['x']))}) over the "
                     f"{len(self.forest.edges)} forest edges.")
        return entry

    def _update(self, text: str) -> None:
        self.status.value = f"Paths added: {len(self.history)}, forest edges: {len(self.forest.edges)}.<br>{text}"
        import networkx as nx

        H = nx.Graph()
        H.add_nodes_from(range(self.n))
        H.add_edges_from(self.forest.edges)
        last = self.history[-1] if self.history else None
        fig = Figure(figsize=(5.6, 4.6))
        ax = fig.subplots()
        draw_edge_numbering(H, edges=self.forest.edges, ax=ax, pos=self.pos, thick=self.forest.edges,
                            path=last["forest_path"] if last else None, node_size=380,
                            title=("The forest: edges numbered by disclosure, low → high\n"
                                   + (f"blue: the forest path of the last pair, x_{len(self.history)}" if last
                                      else "no path revealed yet")))
        ax.set_axis_off()
        _show_png(self.out, fig)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"PathForestExplorer: type paths on {self.n} vertices, Add, watch the forest and x_t"
        return bundle


def _ising_graphs():
    import networkx as nx

    return {
        "triangle": nx.cycle_graph(3),
        "square with a diagonal": nx.Graph([(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]),
        "the 5-vertex graph of this notebook": nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (0, 3), (1, 4)]),
        "complete graph K4": nx.complete_graph(4),
    }


class IsingReductionExplorer:
    """Step through the splices of the graph → constrained-path reduction (Theorem ``t:hardness``).

    Choose a small graph ``G`` and ``β``; **Next splice** / **Back** move through the stages
    of :func:`~simpred_lite.hardness.reduction_stages`: ``P_0`` (the depth-first visit of the
    spanning tree ``T``), then one non-tree edge spliced in per stage.  At every stage the
    app shows ``Z_{P_k}(C_k, β)`` beside ``Z_{G_k}(2β)`` (``G_k`` = ``T`` plus the edges
    spliced so far) and the target ``Z_G(2β)``: exact fractions, equal at the last stage.

    Attributes
    ----------
    graph : ipywidgets.Dropdown
    beta : ipywidgets.IntSlider
    back_button, next_button : ipywidgets.Button
    stage : int
    stages : list of dict
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = IsingReductionExplorer()
    >>> app.graph.value = "triangle"; app.next_button.click()
    >>> app.stage, app.stages[app.stage]["Z_path"] == app.stages[app.stage]["Z_graph"]
    (1, True)
    """

    GRAPHS = _ising_graphs()

    def __init__(self, graph: str = "the 5-vertex graph of this notebook", beta: int = 1):
        if graph not in self.GRAPHS:
            raise ValueError(f"unknown graph {graph!r}; choose one of {list(self.GRAPHS)}")
        self.graph = W.Dropdown(options=list(self.GRAPHS), value=graph, description="graph G")
        self.beta = W.IntSlider(value=check_int(beta, "beta", low=1, high=4), min=1, max=4, description="β")
        self.back_button = W.Button(description="◀ Back", tooltip="undo the last splice")
        self.next_button = W.Button(description="Next splice ▶", button_style="info",
                                    tooltip="splice the next non-tree edge into the path")
        self.title = W.HTML("<b>From a graph to a constrained path</b>: Z_G(2β) = Z_P(C, β)")
        self.status = W.HTML(layout=W.Layout(min_height="6.5em"))
        self.out = W.Output(layout=W.Layout(min_height="430px"))
        self.graph.observe(lambda _: self._rebuild(), names="value")
        self.beta.observe(lambda _: self._rebuild(keep_stage=True), names="value")
        self.back_button.on_click(lambda _: self.go(self.stage - 1))
        self.next_button.on_click(lambda _: self.go(self.stage + 1))
        self.widget = W.VBox([self.title, W.HBox([self.graph, self.beta]),
                              W.HBox([self.back_button, self.next_button]), self.status, self.out])
        self.stage = 0
        self._rebuild()

    @property
    def G(self):
        return self.GRAPHS[self.graph.value]

    @property
    def status_text(self) -> str:
        return _plain(self.status.value.replace("<br>", "\n"))

    def _rebuild(self, keep_stage: bool = False) -> None:
        self.stages = reduction_stages(self.G, int(self.beta.value))
        self.go(min(self.stage, len(self.stages) - 1) if keep_stage else 0)

    def go(self, stage: int) -> None:
        """Show stage ``stage`` (clipped to the stages that exist)."""
        self.stage = max(0, min(int(stage), len(self.stages) - 1))
        last = len(self.stages) - 1
        self.back_button.disabled = self.stage == 0
        self.next_button.disabled = self.stage == last
        s, b = self.stages[self.stage], int(self.beta.value)
        what = ("P_0: the depth-first visit of the spanning tree T" if s["spliced"] is None
                else f"spliced the non-tree edge {s['spliced']}")
        equal = s["Z_path"] == s["Z_graph_k"]
        done = (f"Last stage: Z_P(C, {b}) = {s['Z_path']} and Z_G({2 * b}) = {s['Z_graph']}: "
                f"{'equal' if s['Z_path'] == s['Z_graph'] else 'NOT equal'}." if self.stage == last else
                f"Target Z_G({2 * b}) = {s['Z_graph']}; {last - self.stage} splice(s) to go.")
        self.status.value = "<br>".join([
            f"Stage {self.stage} of {last}: {what}. The path has {len(s['path'])} vertices, "
            f"|C| = {len(s['constraints'])} equality constraints.",
            f"Z_P(C, {b}) = {s['Z_path']} and Z_(T + spliced edges)({2 * b}) = {s['Z_graph_k']}: "
            f"{'equal' if equal else 'NOT equal'}.",
            done])
        self._render(s)

    def _render(self, s) -> None:
        import networkx as nx

        G = self.G
        fig = Figure(figsize=(9, 5.2), layout="constrained")
        top, bottom = fig.subfigures(2, 1, height_ratios=[1.5, 1])
        ax_g = top.subplots()
        pos = nx.circular_layout(G)
        done = {tuple(sorted(e)) for e in s["edges"]}
        todo = [e for e in G.edges if tuple(sorted(e)) not in done]
        nx.draw_networkx_edges(G, pos, edgelist=sorted(done), ax=ax_g, width=2.2)
        nx.draw_networkx_edges(G, pos, edgelist=todo, ax=ax_g, width=1.4, style="dashed", edge_color="tab:red")
        nx.draw_networkx_nodes(G, pos, ax=ax_g, node_color="white", edgecolors="0.1", node_size=380)
        nx.draw_networkx_labels(G, pos, ax=ax_g, font_size=10)
        ax_g.set_title("G: solid = in the path so far (T and spliced edges), red dashed = still to splice",
                       fontsize=10)
        ax_g.set_axis_off()
        ax_p = bottom.subplots()
        draw_labelled_path(s["path"], ax=ax_p, new=s["new"], constraints=s["constraints"],
                           title=f"P_{self.stage}: each vertex shows the G-vertex it copies; arcs = constraints C")
        _show_png(self.out, fig)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = "IsingReductionExplorer: choose G and β, step through the splices, compare Z_G(2β) and Z_P(C, β)"
        return bundle
