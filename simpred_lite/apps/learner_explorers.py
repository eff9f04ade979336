"""Explorers of the learners: the class ⇄ similarity reductions, the matrix learners, your data.

Three small apps for notebooks 04, 05 and 11.  Each is a view only: what it shows is computed
by the objects it explains (:class:`~simpred_lite.learners.SimilarityFromClassifier` and
:class:`~simpred_lite.learners.ClassifierFromSimilarity`; the registry's ``"Matrix Perceptron"``
and ``"Matrix Winnow"`` against an adversary of :mod:`simpred_lite.game.adversaries`;
:func:`~simpred_lite.game.evaluate` on a bundled data set).  Their state is plain Python
(testable without a browser); the widgets only show it.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W
import networkx as nx
import numpy as np
from matplotlib import colormaps
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from ..checks import check_int, check_pair
from ..game.evaluation import TIME_LIMIT
from ..graphs import cut_size, planted_partition
from ..learners import (
    ClassifierFromSimilarity,
    HalvingClassifier,
    SimilarityFromClassifier,
    UnionFindLearner,
    labelings_with_small_cut,
)
from ..learners.bounds import reduction_constant, similarity_from_classifier_mistake_bound
from ..viz.graphs import draw_labelled_graph
from ..viz.style import CLASS_COLORS, LEGEND_FONTSIZE
from .basics_explorers import SEED_MAX, VERTEX_FONT, VERTEX_SIZE, _if_changed, _status_text
from .controls import (
    CheckedDropdown,
    CheckedSelectMultiple,
    WholeNumberText,
    clear_refusal_on_actions,
    focus_style,
    refusal_note,
    refusal_to_status,
    show_refusal,
)
from .figure_output import show_figure

__all__ = ["ReductionExplorer", "MatrixLearnerExplorer", "YourDataExplorer"]

#: Bars of the Lemma-7 vote panel: neither a class colour of the path (blue, orange, green for
#: K = 3) nor the red of a cut edge; the markers (o / D) tell them apart without colour too.
VOTE_SIMILAR, VOTE_DISSIMILAR = "tab:purple", "0.72"


def _show(out: W.Output, fig: Figure, dpi: int = 80) -> None:
    """Show ``fig`` in ``out`` at a fixed size (laid out by hand: one render, no tight cropping)."""
    show_figure(out, fig, dpi=dpi, tight=False)


def _path_pos(n: int) -> dict[int, tuple[float, float]]:
    return {v: (float(v), 0.0) for v in range(n)}


# -- 04: the two reductions, trial by trial ------------------------------------------------------
def _entries(k: int) -> str:
    """``"1 entry"``, ``"6 entries"``."""
    return f"{k} entr{'y' if k == 1 else 'ies'}"


class ReductionExplorer:
    """Play the class ⇄ similarity reductions of Theorem 1 (§2) one trial at a time.

    The graph is the path ``0 - 1 - 2 - 3 - 4 - 5`` with the classes ``0 0 1 1 2 2``
    (``K = 3``, two cut edges).  Two directions:

    * **similarity from class (Lemma 7)**: the master algorithm over halving learners on
      ``H = {y : |Φ(y)| <= 2}`` (153 labelings, ``B = 7``).  Ask a pair ``(i, j)``: every
      history's class learner predicts the classes of ``i`` and ``j``, hence *similar* or
      *dissimilar*; the master takes the weighted vote; on a master mistake the histories that
      erred are split, and children whose learners reach the same state are merged into one pool
      entry (weights added).  Mistakes ``M`` against ``c_K B``.
    * **class from similarity (Lemma 8)**: a union-find similarity learner drives a class
      learner.  Ask a vertex ``x``: the similarity learner judges ``(p, x)`` for every
      representative ``p`` (the pool of candidate classes); the class of the one judged
      similar is predicted.  Mistakes ``M <= M_s + |P| <= B_s + K`` with ``B_s = n - K``.

    **Ask** plays the pair (or vertex) in the boxes, **Random** a random one (from the seed),
    **Reset** starts again.

    Parameters
    ----------
    direction : str, default "similarity from class (Lemma 7)"
        One of :attr:`DIRECTIONS`.
    seed : int, default 0
        Seed of the random trials (``0 .. 1000000``).

    Attributes
    ----------
    direction : CheckedDropdown
    i_box, j_box : WholeNumberText
        The pair asked (Lemma 7) — only ``i_box`` (the vertex) for Lemma 8.
    seed : WholeNumberText
    ask_button, random_button, reset_button : ipywidgets.Button
    learner : SimilarityFromClassifier or ClassifierFromSimilarity
        The learner being played (fresh after Reset).
    history : list of dict
        One record per trial played: the pair or vertex, the prediction, the truth, and what
        the reduction did.
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = ReductionExplorer()
    >>> app.ask(0, 5)["prediction"], app.learner.mistakes          # the empty history: all similar
    (0, 1)
    >>> app.direction.value = "class from similarity (Lemma 8)"
    >>> app.ask(3)["prediction"], app.learner.representatives        # no representative yet
    (0, {1: 3})
    """

    DIRECTIONS = ("similarity from class (Lemma 7)", "class from similarity (Lemma 8)")
    G = nx.path_graph(6)
    LABELS = np.array([0, 0, 1, 1, 2, 2])
    K = 3
    MAX_CUT = 2

    def __init__(self, direction: str = "similarity from class (Lemma 7)", seed: int = 0):
        if direction not in self.DIRECTIONS:
            raise ValueError(f"direction must be one of {list(self.DIRECTIONS)}, got {direction!r}")
        self.n = self.G.number_of_nodes()
        self.H = labelings_with_small_cut(self.G, self.K, self.MAX_CUT)
        bound_B = HalvingClassifier(self.H).mistake_bound()
        assert bound_B is not None, "the halving learner over a finite class always has a bound"
        self.B = int(bound_B)
        refuse = refusal_to_status(self)
        self._refused: str | None = None  # the refusal of the last edit of i or j, until Ask reports it

        def refuse_vertex(message: str) -> None:
            self._refused = message
            refuse(message)

        self.direction = CheckedDropdown(options=list(self.DIRECTIONS), value=direction, description="direction",
                                         on_invalid=refuse, layout=W.Layout(width="380px"))
        hint = f"; type a vertex number 0..{self.n - 1}"
        self.i_box = WholeNumberText(low=0, high=self.n - 1, value=0, description="i", on_invalid=refuse_vertex,
                                     hint=hint, layout=W.Layout(width="120px"))
        self.j_box = WholeNumberText(low=0, high=self.n - 1, value=5, description="j", on_invalid=refuse_vertex,
                                     hint=hint, layout=W.Layout(width="120px"))
        self.seed = WholeNumberText(low=0, high=SEED_MAX, value=check_int(seed, "seed", low=0, high=SEED_MAX),
                                    description="seed", on_invalid=refuse, hint="; type a whole number",
                                    layout=W.Layout(width="190px"))
        self.ask_button = W.Button(description="Ask", button_style="info", tooltip="play the pair (or vertex) typed")
        self.random_button = W.Button(description="Random", tooltip="play a random pair (or vertex) from the seed")
        self.reset_button = W.Button(description="Reset", button_style="warning",
                                     tooltip="start again: a fresh learner, the seed's first trial")
        self.title = W.HTML()
        self.status = W.HTML(layout=W.Layout(min_height="7em"))
        self.out = W.Output(layout=W.Layout(min_height="360px"))
        self.direction.observe(_if_changed(self.reset), names="value")
        self.seed.observe(_if_changed(self.reset), names="value")
        # a valid value typed after a refusal clears the refusal (the status line shows the state again);
        # only a real change does: a value refused in the browser goes back to the old one, and that
        # undo must leave the refusal on screen (and in _refused, for the next Ask)
        self.i_box.observe(_if_changed(self._clear_refusal), names="value")
        self.j_box.observe(_if_changed(self._clear_refusal), names="value")
        self.ask_button.on_click(lambda _: self._ask_boxes())
        self.random_button.on_click(lambda _: self.random_trial())
        self.reset_button.on_click(lambda _: self.reset())
        self.widget = W.VBox([self.title, W.HBox([self.direction, self.seed]),
                              W.HBox([self.i_box, self.j_box, self.ask_button, self.random_button,
                                      self.reset_button]), self.status, self.out, focus_style()])
        self.widget.add_class("simpred-reduction-explorer")  # for the browser test
        self.reset()
        clear_refusal_on_actions(self)

    # state -------------------------------------------------------------------------------
    @property
    def lemma7(self) -> bool:
        return self.direction.value == self.DIRECTIONS[0]

    @property
    def bound(self) -> float:
        """The mistake bound the notebook states: ``c_K B`` (Lemma 7) or ``B_s + K = n`` (Lemma 8)."""
        if self.lemma7:
            return similarity_from_classifier_mistake_bound(self.B, self.K)
        return float((self.n - self.K) + self.K)

    @property
    def mistakes(self) -> int:
        return int(self.learner.mistakes)

    @property
    def status_text(self) -> str:
        return _status_text(self.status)

    def reset(self) -> None:
        """A fresh learner; the random trials start again from the seed."""
        self.rng = np.random.default_rng(int(self.seed.value))
        self.learner: Any  # SimilarityFromClassifier (Lemma 7) or ClassifierFromSimilarity (Lemma 8)
        if self.lemma7:
            H = self.H
            self.learner = SimilarityFromClassifier(lambda: HalvingClassifier(H), self.K, max_histories=5000)
            self.title.value = ("<b>Similarity from class (Lemma 7)</b>: ask a pair; the histories' halving "
                                "learners vote, the master follows the weighted majority")
        else:
            self.learner = ClassifierFromSimilarity(UnionFindLearner(self.n), K=self.K)
            self.title.value = ("<b>Class from similarity (Lemma 8)</b>: ask a vertex; union-find judges it "
                                "against each representative, the class of the one judged similar is predicted")
        self.j_box.layout.visibility = "visible" if self.lemma7 else "hidden"
        self.i_box.description = "i" if self.lemma7 else "vertex"
        self.history: list[dict] = []
        self._last: dict | None = None
        self._refused = None
        what = "a pair i ≠ j" if self.lemma7 else "a vertex"
        self._update(f"A fresh learner. Type {what} and press <b>Ask</b>, or press <b>Random</b>.")

    def _clear_refusal(self) -> None:
        self._refused = None
        if self.status.value.startswith("Not "):
            self._update(self._last_text, render=False)

    def _ask_boxes(self) -> None:
        if self._refused is not None:  # the click came right after a refused edit: say so, play nothing
            self.status.value = (f"Not asked: the last value typed was refused ({html.escape(self._refused)}). "
                                 "Press <b>Ask</b> again to play the boxes as they are, or type another value.")
            self._refused = None
            return
        if self.lemma7:
            if int(self.i_box.value) == int(self.j_box.value):
                self.status.value = (f"Not asked: i and j are both {self.i_box.value}; a pair needs two "
                                     "different vertices — change one of the boxes.")
                return
            self.ask(int(self.i_box.value), int(self.j_box.value))
        else:
            self.ask(int(self.i_box.value))

    def random_trial(self, redraw: bool = True) -> dict:
        """Play a random pair (Lemma 7) or vertex (Lemma 8) drawn from the seed's generator."""
        if self.lemma7:
            i, j = (int(v) for v in self.rng.choice(self.n, size=2, replace=False))
            return self.ask(i, j, redraw=redraw)
        return self.ask(int(self.rng.integers(self.n)), redraw=redraw)

    def ask(self, i: int, j: int | None = None, redraw: bool = True) -> dict:
        """Play one trial: the pair ``(i, j)`` (Lemma 7) or the vertex ``i`` (Lemma 8); returns its record.

        The status line follows every trial; ``redraw=False`` skips the figure (for scripted runs).
        """
        if self.lemma7:
            if j is None:
                raise ValueError("ask needs a pair (i, j) in the Lemma 7 direction, e.g. app.ask(0, 5)")
            i, j = check_pair(i, j, self.n)
            if redraw:  # a trial and its redraw take seconds on a busy machine: say so while they run
                self._working(f"pair ({i}, {j})")
            rec = self._ask_pair(i, j)
        else:
            if j is not None:
                raise ValueError("ask takes one vertex in the Lemma 8 direction, e.g. app.ask(3)")
            i = check_int(i, "vertex", low=0, high=self.n - 1)
            if redraw:
                self._working(f"vertex {i}")
            rec = self._ask_vertex(i)
        self.history.append(rec)
        self._last = rec
        self._update(rec["text"], render=redraw)
        return rec

    def _ask_pair(self, i: int, j: int) -> dict:
        sim = self.learner
        entries = list(sim._pool)  # the histories before the trial: each one's learner and weight
        votes = []
        for e in entries:
            a, b = int(e.learner.predict_class(i)), int(e.learner.predict_class(j))
            votes.append((e.weight, a, b))
        W_total = sum(w for w, _, _ in votes)
        w_same = sum(w for w, a, b in votes if a == b)
        y = int(self.LABELS[i] != self.LABELS[j])
        y_hat = int(sim.predict_one(i, j))
        sim.learn_one(i, j, y)
        mistake = y_hat != y
        erred = sum(1 for _, a, b in votes if int(a != b) != y)  # entries, each standing for some literal histories
        heavy = max(range(len(votes)), key=lambda k: votes[k][0])
        _, a, b = votes[heavy]
        tied = sum(1 for w, _, _ in votes if w == votes[heavy][0]) > 1
        heaviest = "One of the heaviest entries'" if tied else "The heaviest entry's"
        text = (f"Trial {len(self.history) + 1}: pair ({i}, {j}); truth {'dissimilar' if y else 'similar'} "
                f"(classes {self.LABELS[i]} and {self.LABELS[j]}). "
                f"{_entries(len(votes))} of the pool vote{'s' if len(votes) == 1 else ''}: "
                f"weight {float(w_same / W_total):.3f} of W says similar, "
                f"{float(1 - w_same / W_total):.3f} dissimilar. {heaviest} halving learner predicts "
                f"classes {a} and {b} → {'similar' if a == b else 'dissimilar'}. "
                f"The master predicts <b>{'dissimilar' if y_hat else 'similar'}</b>: ")
        if mistake:
            each = self.K * (self.K - 1) if y else self.K
            children = erred * each
            # the kept entries and the children before merging; merging adds the weights of equal states
            unmerged = len(entries) - erred + children
            merged = ", all in different states" if unmerged == sim.pool_size else \
                "; equal states are merged (weights added)"
            histories = sim.histories_represented[-1]
            who = "entry that erred is" if erred == 1 else "entries that erred are"
            text += (f"<b>a mistake</b>; the {erred} {who} split into {children} children"
                     f"{'' if erred == 1 else f' ({each} each)'}{merged}: the pool now holds "
                     f"{_entries(sim.pool_size)} ({histories} literal histor{'y' if histories == 1 else 'ies'}).")
        else:
            text += "right; the pool is unchanged (only master mistakes split histories)."
        return {"pair": (i, j), "truth": y, "prediction": y_hat, "mistake": mistake, "votes": votes,
                "weight_similar": float(w_same / W_total), "pool_size": sim.pool_size, "text": text}

    def _ask_vertex(self, x: int) -> dict:
        clf = self.learner
        reps_before = clf.representatives
        answers = [(k, p, int(clf.sim_learner.predict_one(p, x))) for k, p in sorted(reps_before.items()) if p != x]
        y = int(self.LABELS[x])
        ms_before = clf.sim_learner.mistakes
        y_hat = int(clf.predict_class(x))
        clf.learn_class(x, y)
        mistake = y_hat != y
        said = (", ".join(f"({p}, {x}): {'similar' if s == 0 else 'dissimilar'}" for _, p, s in answers)
                or ("no other representative to compare with" if x in reps_before.values()
                    else "no representative to compare with"))
        own = next((k for k, p in reps_before.items() if p == x), None)
        if own is not None:
            said += f"; vertex {x} is itself the representative of class {own}"
        text = (f"Trial {len(self.history) + 1}: vertex {x}, true class {y}. The pool of candidate classes "
                f"P = {{{', '.join(f'{k}: vertex {p}' for k, p in sorted(reps_before.items()))}}}; union-find says "
                f"{said}. Predicted class <b>{y_hat}</b>: ")
        fed = clf.sim_learner.mistakes - ms_before
        if not mistake:
            text += "right; nothing is learned (the class learner is conservative)."
        elif y not in reps_before:
            text += f"<b>a mistake</b>; no representative had class {y}, so vertex {x} becomes its representative."
        elif len(answers) == 1:
            text += (f"<b>a mistake</b>; the one true similarity example ({answers[0][1]}, {x}) is given to "
                     f"union-find, which {'erred on it' if fed else 'had predicted it right'}.")
        else:
            text += (f"<b>a mistake</b>; the {len(answers)} true similarity examples (p, {x}) are given to "
                     f"union-find, which erred on {fed} of them.")
        return {"vertex": x, "truth": y, "prediction": y_hat, "mistake": mistake, "answers": answers,
                "representatives": reps_before, "text": text}

    # view ----------------------------------------------------------------------------------
    def _working(self, what: str) -> None:
        """Keep the status line's header and say that the trial on ``what`` is being computed."""
        head = self.status.value.split("<br>")[0]
        self.status.value = f"{head}<br><i>Computing… playing {what} and redrawing the figure.</i>"

    def _update(self, text: str, render: bool = True) -> None:
        T = len(self.history)
        if self.lemma7:
            head = (f"Trials: {T}; master mistakes M = {self.mistakes} ≤ c_K B = {reduction_constant(self.K):.2f} × "
                    f"{self.B} = {self.bound:.1f} (Lemma 7, K = {self.K}, B = ⌊log₂ {len(self.H)}⌋); "
                    f"pool: {_entries(self.learner.pool_size)}.")
        else:
            clf = self.learner
            head = (f"Trials: {T}; class mistakes M = {self.mistakes} ≤ M_s + |P| = {clf.sim_learner.mistakes} + "
                    f"{len(clf.representatives)} ≤ B_s + K = {self.n - self.K} + {self.K} = {self.bound:.0f} "
                    "(Lemma 8, union-find's B_s = n − K).")
        self._last_text = text
        if render:  # the redraw takes seconds on a busy machine: say so until the figure is there
            self.status.value = head + "<br>" + text + "<br><i>Computing… redrawing the figure.</i>"
            self._render()
        self.status.value = head + "<br>" + text

    def _render(self) -> None:
        rec = self._last
        # 768 px wide at 96 dpi: shown unscaled in JupyterLab, so a 9-point legend reads as 9 points
        fig = Figure(figsize=(8, 3.7))
        ax_g, ax_v = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.3, 1]})
        pos = _path_pos(self.n)
        class_handles = [Line2D([], [], ls="none", marker="o", ms=9, mfc=CLASS_COLORS[k], mec="0.3", label=f"class {k}")
                         for k in range(self.K)] + [Line2D([], [], color="tab:red", ls="--", lw=1.5, label="cut edge")]
        if self.lemma7:
            pair = rec["pair"] if rec else None
            draw_labelled_graph(self.G, self.LABELS, ax=ax_g, pos=pos, highlight_pair=pair, with_labels=True,
                                node_size=VERTEX_SIZE, font_size=VERTEX_FONT, legend=False,
                                title=f"The path, K = {self.K}" + (f": pair {pair}" if pair else ""))
            handles = class_handles
            self._draw_votes(ax_v, rec)
        else:
            x = rec["vertex"] if rec else None
            # the vertex asked is circled as the pair asked is in the Lemma 7 direction
            draw_labelled_graph(self.G, self.LABELS, ax=ax_g, pos=pos, highlight_pair=None if x is None else (x,),
                                with_labels=True, node_size=VERTEX_SIZE, font_size=VERTEX_FONT, legend=False,
                                title=f"The path, K = {self.K}" + (f": vertex {x}" if rec else ""))
            reps = self.learner.representatives
            nx.draw_networkx_nodes(self.G, pos, nodelist=list(reps.values()), ax=ax_g, node_color="none",
                                   node_shape="s", node_size=VERTEX_SIZE * 2.0, edgecolors="black", linewidths=1.6)
            if rec:
                for _, p, s in rec["answers"]:
                    # an arc rises |rad| * distance / 2 off the path: at least half a vertex spacing, so an
                    # arc between neighbours clears their circles and squares
                    rad = -max(0.5, 1.0 / max(abs(pos[rec["vertex"]][0] - pos[p][0]), 1.0))
                    ax_g.annotate("", xy=pos[rec["vertex"]], xytext=pos[p], zorder=0,
                                  arrowprops={"arrowstyle": "-", "color": "tab:green" if s == 0 else "0.55",
                                              "lw": 2.0, "ls": "-" if s == 0 else ":",
                                              "connectionstyle": f"arc3,rad={rad}"})
            handles = class_handles + [
                Line2D([], [], ls="none", marker="s", ms=12, mfc="none", mec="black", label="representative"),
                Line2D([], [], color="tab:green", lw=2, label="judged similar"),
                Line2D([], [], color="0.55", lw=2, ls=":", label="judged dissimilar")]
            self._draw_mistakes(ax_v)
        ax_g.set_ylim(-1.9, 0.7)
        ax_g.legend(handles=handles, loc="lower center", ncol=4 if self.lemma7 else 3, fontsize=LEGEND_FONTSIZE,
                    frameon=False, handlelength=1.4, columnspacing=0.8)
        fig.subplots_adjust(left=0.02, right=0.97, top=0.85, bottom=0.2, wspace=0.35)
        _show(self.out, fig, dpi=96)

    def _draw_votes(self, ax: Any, rec: dict | None) -> None:
        if rec is None:
            ax.text(0.5, 0.5, "Ask a pair: the histories'\nvotes appear here", ha="center", va="center",
                    transform=ax.transAxes, fontsize=11)
            ax.set_title("The weighted vote")
            ax.set_axis_off()
            return
        # h1, h2, ...: the histories in pool order, so that bars with the same prediction differ
        votes = sorted(((w, a, b, k + 1) for k, (w, a, b) in enumerate(rec["votes"])), key=lambda v: -v[0])[:12]
        W_total = sum(float(w) for w, _, _ in rec["votes"])
        shares = [float(w) / W_total for w, _, _, _ in votes]
        # not blue / orange / green: those are classes 0, 1, 2 in the left panel
        colors = [VOTE_SIMILAR if a == b else VOTE_DISSIMILAR for _, a, b, _ in votes]
        ys = np.arange(len(votes))[::-1]
        ax.barh(ys, shares, color=colors, edgecolor="0.2")
        # a light history's bar is a pixel or two wide: a marker at the tip of each bar shows its vote
        for similar, marker in ((True, "o"), (False, "D")):
            tips = [(s, y) for s, y, (_, a, b, _) in zip(shares, ys, votes) if (a == b) == similar]
            if tips:
                ax.plot([s for s, _ in tips], [y for _, y in tips], ls="none", marker=marker, ms=7, mec="0.2",
                        mfc=VOTE_SIMILAR if similar else VOTE_DISSIMILAR, clip_on=False, zorder=3)
        ax.set_yticks(ys, [f"h{k}: {a},{b}" for _, a, b, k in votes], fontsize=9)
        ax.set_ylabel("history h: predicted classes of i, j")
        ax.set_xlabel("share of the total weight W")
        more = f" (heaviest 12 of {len(rec['votes'])})" if len(rec["votes"]) > 12 else ""
        ax.set_title(f"Votes on ({rec['pair'][0]}, {rec['pair'][1]}){more}", fontsize=10)
        ax.set_xlim(0, max(shares) * 1.15)
        ax.legend(handles=[Line2D([], [], color=VOTE_SIMILAR, lw=6, marker="o", ms=7, mec="0.2",
                                  label=f"similar: {rec['weight_similar']:.2f}"),
                           Line2D([], [], color=VOTE_DISSIMILAR, lw=6, marker="D", ms=7, mec="0.2",
                                  label=f"dissimilar: {1 - rec['weight_similar']:.2f}")],
                  loc="upper left", bbox_to_anchor=(0.0, -0.2), ncol=2, fontsize=LEGEND_FONTSIZE, frameon=False)

    def _draw_mistakes(self, ax: Any) -> None:
        m = np.cumsum([int(r["mistake"]) for r in self.history]) if self.history else np.zeros(0, dtype=int)
        # M after trial t is drawn at x = t; the line starts at (0, 0) and stops at the last trial played
        # (x = T): a mistake on the last trial is the final step up, and a dot marks M after each trial
        levels = np.concatenate([[0], m])
        ax.step(np.arange(len(levels)), levels, where="post", color="tab:purple", lw=2, label="class mistakes M")
        if len(m):
            ax.plot(np.arange(1, len(m) + 1), m, ls="none", marker="o", ms=4, color="tab:purple", clip_on=False)
        ax.axhline(self.bound, color="k", ls="--", lw=1.2, label=f"B_s + K = {self.bound:.0f}")
        ax.set_xlim(0, max(10, len(m)))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # trials are whole numbers
        ax.set_ylim(0, self.bound + 1.5)
        ax.set_xlabel("trial")
        ax.set_ylabel("mistakes")
        ax.set_title("Mistakes against Lemma 8's bound", fontsize=10)
        # below the axes, as the vote panel's legend: it can cover neither the step line nor the bound
        ax.legend(loc="upper left", bbox_to_anchor=(0.0, -0.2), ncol=2, fontsize=LEGEND_FONTSIZE, frameon=False)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = ("ReductionExplorer: ask pairs (Lemma 7) or vertices (Lemma 8) on a 6-vertex path "
                                "with K = 3, see each side's predictions and mistakes against the bound")
        return bundle


# -- 05: Matrix Perceptron / Matrix Winnow, trial by trial -------------------------------------
class MatrixLearnerExplorer:
    """Step the Matrix Perceptron or Matrix Winnow trial by trial (§3.2, Algorithm 1, Proposition 2).

    The graph is notebook 05's clustered graph (``planted_partition(12, 3, 0.7, 0.08, seed=2)``).
    Each **Step** lets the adversary pose a pair; the learner predicts *dissimilar* when its
    score ``⟨W, X_t⟩`` exceeds the threshold ``θ`` (``R²`` for the Perceptron; for Winnow
    ``η/(e^η − e^{−η}) / (R|Φ|)`` with ``X_t`` scaled to trace one), learns, and the app shows
    the margin ``(score − θ)/θ`` of that pair, the learner's margin on **every** vertex pair as a
    heatmap (vertices ordered by class: the weights seen through the instances), and the
    mistakes so far against the bound of Proposition 2.

    Parameters
    ----------
    learner : str, default "Matrix Perceptron"
        ``"Matrix Perceptron"`` or ``"Matrix Winnow"`` (built by the registry's
        :func:`~simpred_lite.learners.registry.resolve`).
    adversary : str, default "random"
        ``"random"``, ``"cut-biased"`` or ``"adaptive"`` (:mod:`simpred_lite.game.adversaries`).
    seed : int, default 0

    Attributes
    ----------
    learner, adversary : CheckedDropdown
    seed : WholeNumberText
    step_button, run_button, reset_button : ipywidgets.Button
    model : SimilarityLearner
        The learner being played.
    trials : list of dict
        One record per trial: pair, truth, prediction, score, threshold, margin.
    bound : float
        The learner's mistake bound on this labelled graph (Proposition 2).
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = MatrixLearnerExplorer("Matrix Perceptron", "cut-biased", seed=1)
    >>> rec = app.step(); rec["prediction"] == int(rec["score"] > rec["threshold"])
    True
    >>> app.run_button.click(); len(app.trials), app.mistakes <= app.bound
    (11, True)
    """

    LEARNERS = ("Matrix Perceptron", "Matrix Winnow")
    ADVERSARIES = ("random", "cut-biased", "adaptive")
    RUN_STEPS = 10

    def __init__(self, learner: str = "Matrix Perceptron", adversary: str = "random", seed: int = 0):
        for name, value, options in (("learner", learner, self.LEARNERS), ("adversary", adversary, self.ADVERSARIES)):
            if value not in options:
                raise ValueError(f"{name} must be one of {list(options)}, got {value!r}")
        self.G, self.labels = planted_partition(12, 3, 0.7, 0.08, seed=2)
        self.n = self.G.number_of_nodes()
        self.order = np.argsort(self.labels, kind="stable")
        refuse = self._refuse
        self.learner = CheckedDropdown(options=list(self.LEARNERS), value=learner, description="learner",
                                       on_invalid=refuse, layout=W.Layout(width="280px"))
        self.adversary = CheckedDropdown(options=list(self.ADVERSARIES), value=adversary, description="adversary",
                                         on_invalid=refuse, layout=W.Layout(width="240px"))
        self.seed = WholeNumberText(low=0, high=SEED_MAX, value=check_int(seed, "seed", low=0, high=SEED_MAX),
                                    description="seed", on_invalid=refuse, hint="; type a whole number",
                                    layout=W.Layout(width="190px"))
        self.step_button = W.Button(description="Step", button_style="info", tooltip="one trial")
        self.run_button = W.Button(description=f"Step ×{self.RUN_STEPS}", tooltip=f"{self.RUN_STEPS} trials")
        self.reset_button = W.Button(description="Reset", button_style="warning",
                                     tooltip="a fresh learner, the adversary starts again from the seed")
        self.title = W.HTML()
        self.status = W.HTML(layout=W.Layout(min_height="5.5em"))
        self.out = W.Output(layout=W.Layout(min_height="400px"))
        for box in (self.learner, self.adversary, self.seed):
            box.observe(_if_changed(self.reset), names="value")
        self.step_button.on_click(lambda _: self.step())
        self.run_button.on_click(lambda _: self.run(self.RUN_STEPS))
        self.reset_button.on_click(lambda _: self.reset())
        self.widget = W.VBox([self.title, W.HBox([self.learner, self.adversary, self.seed]),
                              W.HBox([self.step_button, self.run_button, self.reset_button]), self.status, self.out,
                              focus_style()])
        self.widget.add_class("simpred-matrix-explorer")  # for the browser test
        self.reset()
        clear_refusal_on_actions(self)

    # state -------------------------------------------------------------------------------
    @property
    def mistakes(self) -> int:
        return int(self.model.mistakes)

    @property
    def status_text(self) -> str:
        return _status_text(self.status)

    def reset(self) -> None:
        """A fresh learner from the registry; the adversary starts again from the seed."""
        from ..game.adversaries import GameState, make_adversary
        from ..learners.registry import resolve

        spec = resolve(self.learner.value)
        seed = int(self.seed.value)
        self.model = spec.build(self.G, seed, self.labels)
        bound = spec.bound_for(self.G, self.labels, self.model)
        self.bound = float(bound) if bound is not None else float("inf")
        self.state = GameState(self.labels, seed, G=self.G, learner=self.model)
        self._adv = make_adversary(self.adversary.value)
        self.trials: list[dict] = []
        self.title.value = (f"<b>{html.escape(self.learner.value)}, trial by trial</b> on a clustered graph "
                            f"(n = {self.n}, m = {self.G.number_of_edges()}, K = 3, |Φ| = "
                            f"{cut_size(self.G, self.labels)}), pairs from the {html.escape(self.adversary.value)} "
                            "adversary")
        start = "W = 0" if self.learner.value == "Matrix Perceptron" else f"W = I/m (m = {self.G.number_of_edges()})"
        self._update(f"A fresh {html.escape(self.learner.value)}: {start}. Press <b>Step</b>.")

    def scores(self) -> np.ndarray:
        """The margin ``(score − θ)/θ`` of every vertex pair (``n × n``, zero diagonal)."""
        S = np.zeros((self.n, self.n))
        th = float(self.model.threshold)
        for a in range(self.n):
            for b in range(a + 1, self.n):
                S[a, b] = S[b, a] = (float(self.model.score(a, b)) - th) / th
        return S

    def step(self, redraw: bool = True) -> dict:
        """One trial: the adversary's pair, the learner's score against its threshold, the update."""
        i, j, _ = self._adv.choose(self.state)
        y = self.state.label(i, j)
        score, th = float(self.model.score(i, j)), float(self.model.threshold)
        y_hat = int(self.model.predict_one(i, j))
        self.model.learn_one(i, j, y)
        rec = {"pair": (int(i), int(j)), "truth": y, "prediction": y_hat, "mistake": y_hat != y,
               "score": score, "threshold": th, "margin": (score - th) / th,
               "score_after": float(self.model.score(i, j))}
        self.trials.append(rec)
        if redraw:
            self._update(self._explain(rec))
        return rec

    def run(self, steps: int, redraw: bool = True) -> None:
        """``steps`` trials, then the status line and (unless ``redraw=False``) one redraw.

        While the trials run (with ``redraw``), the buttons are disabled and the status line says
        "Working… trial k of steps", so a slow run under load shows that it is under way.
        """
        steps = check_int(steps, "steps", low=1, high=1000)
        buttons = (self.step_button, self.run_button, self.reset_button)
        if redraw:
            for button in buttons:
                button.disabled = True
        try:
            for k in range(steps):
                if redraw:
                    self._update(f"<i>Working… trial {k + 1} of {steps}</i>", render=False)
                rec = self.step(redraw=False)
            if redraw:
                self._update(f"<i>Working… drawing the {steps} trials</i>", render=False)
        finally:
            for button in buttons:
                button.disabled = False
        self._update(f"{steps} trials played; the last: " + self._explain(rec), render=redraw)

    def _refuse(self, message: str) -> None:
        """A refused box value: the sentence below the status line's header (trials, mistakes, bound)."""
        if hasattr(self, "model"):
            note = refusal_note(message)
            show_refusal(self, note, lambda: self._update(note, render=False))

    def _explain(self, rec: dict) -> str:
        i, j = rec["pair"]
        word = "dissimilar" if rec["prediction"] else "similar"
        side = ">" if rec["score"] > rec["threshold"] else "≤"
        # Winnow scores the trace-one instance X^w_t = X_t / R_ij (notebook 05 names it so), the Perceptron X_t itself
        x = "X_t" if self.learner.value == "Matrix Perceptron" else "X^w_t"
        text = (f"Trial {len(self.trials)}: pair ({i}, {j}), classes {self.labels[i]} and {self.labels[j]} "
                f"({'dissimilar' if rec['truth'] else 'similar'}). Score ⟨W, {x}⟩ = {rec['score']:.6g} {side} "
                f"θ = {rec['threshold']:.6g} (margin {rec['margin']:+.3f}): predicts <b>{word}</b>")
        if not rec["mistake"]:
            return text + ", right: W is unchanged."
        how = f"promotion (W grows along {x})" if rec["truth"] else f"demotion (W shrinks along {x})"
        return text + f", <b>a mistake</b>: {how}; the pair's score is now {rec['score_after']:.4g}."

    def _update(self, text: str, render: bool = True) -> None:
        head = (f"Trials: {len(self.trials)}; mistakes M = {self.mistakes} ≤ bound {int(np.floor(self.bound))} "
                f"({'R² ||U||²_F' if self.learner.value == 'Matrix Perceptron' else '(e^η+1)/η R |Φ| ln m'}, "
                "Proposition 2).")
        self.status.value = head + "<br>" + text
        if render:
            self._render()

    def _render(self) -> None:
        fig = Figure(figsize=(9.0, 4.3))
        ax_h, ax_m = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
        S = self.scores()[np.ix_(self.order, self.order)]
        np.fill_diagonal(S, np.nan)  # a vertex with itself is no pair
        cmap = colormaps["RdBu_r"].with_extremes(bad="0.85")
        # Diverging at the threshold (margin 0), each side scaled to its own range: Winnow's margins
        # are >= -1 but can reach several units above 0, and a shared +-lim would leave its
        # similar (blue) blocks near white.
        low, high = min(-1.0, float(np.nanmin(S))), max(1.0, float(np.nanmax(S)))
        im = ax_h.imshow(S, cmap=cmap, norm=TwoSlopeNorm(0.0, low, high))
        ticks = np.arange(self.n)
        ax_h.set_xticks(ticks, [str(v) for v in self.order], fontsize=10)
        ax_h.set_yticks(ticks, [str(v) for v in self.order], fontsize=10)
        for k in np.flatnonzero(np.diff(self.labels[self.order])):
            ax_h.axhline(k + 0.5, color="k", lw=1)
            ax_h.axvline(k + 0.5, color="k", lw=1)
        if self.trials:
            i, j = self.trials[-1]["pair"]
            pi, pj = int(np.flatnonzero(self.order == i)[0]), int(np.flatnonzero(self.order == j)[0])
            for a, b in ((pi, pj), (pj, pi)):
                ax_h.add_patch(Rectangle((b - 0.5, a - 0.5), 1, 1, fill=False, ec="black", lw=2.2))
        ax_h.set_xlabel("vertex (ordered by class)")
        ax_h.set_ylabel("vertex (ordered by class)")
        ax_h.set_title("Margin (score − θ)/θ of every pair\n> 0 predicts dissimilar; last pair boxed", fontsize=10)
        cbar = fig.colorbar(im, ax=ax_h, fraction=0.046, pad=0.03)
        cbar.set_label("margin: 0 at θ, blue similar, red dissimilar", fontsize=10)
        cbar.ax.tick_params(labelsize=10)
        t = np.arange(1, len(self.trials) + 1)
        if self.trials:
            margins = np.array([r["margin"] for r in self.trials])
            wrong = np.array([r["mistake"] for r in self.trials])
            dis = np.array([r["truth"] == 1 for r in self.trials])
            for mask, marker, label in ((dis, "^", "dissimilar"), (~dis, "o", "similar")):
                ax_m.scatter(t[mask & ~wrong], margins[mask & ~wrong], marker=marker, s=36, color="tab:green",
                             label=f"{label}, right")
                ax_m.scatter(t[mask & wrong], margins[mask & wrong], marker=marker, s=36, color="tab:red",
                             label=f"{label}, mistake")
        ax_m.axhline(0, color="k", lw=1.0, ls="--", label="threshold θ")
        low = min([-1.1] + [r["margin"] - 0.1 for r in self.trials])
        ax_m.set_ylim(low, max([1.1] + [r["margin"] + 0.1 for r in self.trials]))
        ax_m.set_xlim(0, max(10, len(self.trials) + 1))
        ax_m.set_xlabel("trial")
        ax_m.set_ylabel("margin before the update")
        ax_m.set_title(f"Each trial's margin; mistakes {self.mistakes} (bound {int(np.floor(self.bound))})",
                       fontsize=10)
        ax_m.tick_params(labelsize=10)
        for ax in (ax_h, ax_m):
            ax.xaxis.label.set_size(11)
            ax.yaxis.label.set_size(11)
        ax_m.legend(loc="upper center", bbox_to_anchor=(0.45, -0.19), ncol=2, fontsize=LEGEND_FONTSIZE + 1,
                    frameon=False)
        fig.subplots_adjust(left=0.08, right=0.98, top=0.88, bottom=0.3, wspace=0.55)
        _show(self.out, fig)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = ("MatrixLearnerExplorer: step the Matrix Perceptron or Matrix Winnow on a 12-vertex "
                                "clustered graph; margins, all pairs' scores, mistakes vs Proposition 2's bound")
        return bundle


# -- 11: your data --------------------------------------------------------------------------------
#: Largest ``T`` the data explorer plays (each learner of the suite takes at most about 1.5 ms a trial
#: on the bundled data sets, so ``T`` learners × 5000 trials stay within seconds).
YOUR_DATA_MAX_T = 5000
#: Largest total of trials over the chosen learners (``T`` × number of learners).
YOUR_DATA_MAX_WORK = 20000
#: The slow learners (a pool of hallucinated histories): the largest graph and ``T`` they are offered.
SLOW_MAX_N, SLOW_MAX_T = 40, 300
#: Vertices of each bundled data set (the same for every ``k``), so that a choice is judged before loading.
DATASET_SIZES = {"iris": 150, "wine": 178, "breast cancer": 569, "digits": 1797, "karate club": 34,
                 "southern women": 32}


def fewest_mistakes(ev: Any) -> str:
    """Which learners of ``ev`` made the fewest mistakes over the whole sequence, ties named together.

    A learner that retired is compared on no more than the trials it played, so it is left out
    (and the sentence says so).

    Parameters
    ----------
    ev : Evaluation

    Examples
    --------
    >>> from simpred_lite.game import evaluate
    >>> fewest_mistakes(evaluate(["UnionFindLearner", "AlwaysSimilar"], "karate club", T=50, seed=0))
    'Fewest mistakes: AlwaysSimilar (22)'
    """
    played = {r.name: r.mistakes for r in ev.learners.values() if not r.retired}
    retired = [r.name for r in ev.learners.values() if r.retired]
    note = f"; {', '.join(retired)} retired and not compared" if retired else ""
    if not played:
        return "Every learner retired: none played the whole sequence" + note.replace("; ", " (") + ")"
    least = min(played.values())
    tied = [name for name, m in played.items() if m == least]
    return f"Fewest mistakes: {' and '.join(tied)} ({least}{' each' if len(tied) > 1 else ''}){note}"


class YourDataExplorer:
    """Your data: choose a bundled data set, ``k``, the learners, the adversary, ``T`` and a seed; press Run.

    **Run** plays every chosen learner on one trial sequence of the labelled graph, exactly as
    :func:`~simpred_lite.game.evaluate` does (same trials, same learner seeds, same bounds), one
    learner after the other with a progress bar and a line saying which learner plays (i of N),
    and shows ``evaluate``'s mistake curves and table.
    It keeps ``evaluate``'s time limit (a learner projected to exceed it is retired, with the reason).
    Choices that would take long are refused with a sentence before anything runs: ``T`` above
    :data:`YOUR_DATA_MAX_T`, more than :data:`YOUR_DATA_MAX_WORK` trials over all the learners, or
    a slow learner (``"Similarity from class"``) on more than :data:`SLOW_MAX_N` vertices or
    :data:`SLOW_MAX_T` trials.

    Parameters
    ----------
    dataset : str, default "iris"
        A key of :data:`simpred_lite.datasets.DATASETS`.
    k : int, default 10
        Neighbours of the kNN graph (``1 .. 30``; the kNN data sets only).
    learners : sequence of str, default ("UnionFindLearner", "Matrix Perceptron", "Matrix Winnow")
        Names of :func:`~simpred_lite.learners.registry.playable` learners, or of the two batch
        anchors of :func:`~simpred_lite.game.label_spreading_anchor` (refit every 100 trials), offered
        last in the list: ``"LabelSpreading, classes (batch, refit 100)"`` and
        ``"LabelSpreading, similarity (batch, refit 100)"``.
    trials : str, default "random"
        ``"random"``, ``"cut-biased"`` or ``"adaptive"``.
    T : int, default 1000
    seed : int, default 0
    time_limit : float or None, default :data:`~simpred_lite.game.evaluation.TIME_LIMIT`
        As in :func:`~simpred_lite.game.evaluate`: seconds one learner may take; ``None`` never
        retires a learner on time, so that the result does not depend on the machine's load.

    Attributes
    ----------
    dataset, trials : CheckedDropdown
    k, T, seed : WholeNumberText
        Whole-number boxes: a typed ``2.5`` or ``ten`` is refused with a sentence in ``status``,
        never truncated; ``app.k.value`` is the number (an ``int``).
    learners : CheckedSelectMultiple
        The learners played (ctrl/shift-click for several); a name that is not offered, set from
        code, is refused with a ``ValueError`` naming the options (and the status line says it).
    run_button : ipywidgets.Button
    progress : ipywidgets.IntProgress
        Inside ``busy``, an HBox shown only while a run is under way.
    now_playing : ipywidgets.Label
        Beside ``progress``: which learner plays, "learner i of N: name".
    evaluation : Evaluation or None
        The last run's result.
    status : ipywidgets.HTML
    out : ipywidgets.Output

    Examples
    --------
    >>> app = YourDataExplorer("karate club", learners=["UnionFindLearner", "Matrix Perceptron"], T=200)
    >>> app.run_button.click(); sorted(app.evaluation.mistakes)
    ['Matrix Perceptron', 'UnionFindLearner']
    >>> app.T.value = 10**6
    Traceback (most recent call last):
    ...
    ValueError: T must lie in 1..5000, got 1000000; the box keeps 200; fewer trials run in seconds
    >>> try:
    ...     app.k.value = 2.5
    ... except ValueError as refusal:
    ...     print(str(refusal).split(";")[0])
    k (kNN) must be a whole number in 1..30, got '2.5' (it is not rounded)
    """

    TRIALS = ("random", "cut-biased", "adaptive")

    def __init__(self, dataset: str = "iris", k: int = 10,
                 learners: tuple[str, ...] = ("UnionFindLearner", "Matrix Perceptron", "Matrix Winnow"),
                 trials: str = "random",
                 T: int = 1000, seed: int = 0, time_limit: float | None = TIME_LIMIT):
        from ..datasets import DATASETS
        from ..game.batch_anchor import TOLD, label_spreading_anchor
        from ..game.evaluation import _check_time_limit
        from ..learners.registry import playable

        self.DATASETS = tuple(DATASETS)
        # the batch anchors of notebook 11 are entries, not registry names: offered by their names
        self.ANCHORS = {spec.name: spec for spec in (label_spreading_anchor(told) for told in TOLD)}
        self.PLAYABLE = (*playable(), *self.ANCHORS)
        self.time_limit = _check_time_limit(time_limit)
        for name, value, options in (("dataset", dataset, self.DATASETS), ("trials", trials, self.TRIALS)):
            if value not in options:
                raise ValueError(f"{name} must be one of {list(options)}, got {value!r}")
        chosen = list(learners)
        bad = [x for x in chosen if x not in self.PLAYABLE]
        if bad:
            raise ValueError(f"learners {bad} are not offered; choose among {list(self.PLAYABLE)}")
        status_refuse = refusal_to_status(self)

        def refuse(message: str) -> None:
            self._refused = message
            status_refuse(message)

        self.dataset = CheckedDropdown(options=list(self.DATASETS), value=dataset, description="data set",
                                       on_invalid=refuse, layout=W.Layout(width="300px"))
        self.k = WholeNumberText(low=1, high=30, value=check_int(k, "k", low=1, high=30), description="k (kNN)",
                                on_invalid=refuse, hint="; k is the number of neighbours of each point",
                                layout=W.Layout(width="170px"))
        self.trials = CheckedDropdown(options=list(self.TRIALS), value=trials, description="trials",
                                      on_invalid=refuse, layout=W.Layout(width="220px"))
        self.T = WholeNumberText(low=1, high=YOUR_DATA_MAX_T, value=check_int(T, "T", low=1, high=YOUR_DATA_MAX_T),
                                description="T", on_invalid=refuse, hint="; fewer trials run in seconds",
                                layout=W.Layout(width="170px"))
        self.seed = WholeNumberText(low=0, high=SEED_MAX, value=check_int(seed, "seed", low=0, high=SEED_MAX),
                                   description="seed", on_invalid=refuse, hint="; type a whole number",
                                   layout=W.Layout(width="190px"))
        self.learners = CheckedSelectMultiple(options=list(self.PLAYABLE), value=tuple(learners),
                                              rows=len(self.PLAYABLE), description="learners",
                                              layout=W.Layout(width="330px"), on_invalid=refuse)
        self.run_button = W.Button(description="Run", button_style="info", tooltip="play the learners and compare")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress",
                                      layout=W.Layout(width="330px"))
        self.now_playing = W.Label(value="")
        # shown only while running
        self.busy = W.HBox([self.progress, self.now_playing], layout=W.Layout(display="none"))
        self.title = W.HTML("<b>Your data</b>: a bundled data set, its kNN graph, the learners of your choice")
        self.status = W.HTML(layout=W.Layout(min_height="4em"))
        self.table = W.HTML()
        self.out = W.Output(layout=W.Layout(min_height="380px"))
        self.evaluation: Any = None  # the last run's Evaluation
        # a refused None is set and undone: describing it (or the undo) would hide the refusal
        self.dataset.observe(_if_changed(self._describe), names="value")
        self.run_button.on_click(lambda _: self.run())
        # a valid value typed after a refusal clears the refusal (the status line describes the choice again)
        for box in (self.k, self.trials, self.T, self.seed, self.learners):
            box.observe(_if_changed(self._clear_refusal), names="value")
        self._controls = (self.dataset, self.k, self.trials, self.T, self.seed, self.learners, self.run_button)
        self.widget = W.VBox([self.title,
                              W.HBox([W.VBox([self.dataset, self.k, self.trials, self.T, self.seed]),
                                      W.VBox([self.learners, W.HBox([self.run_button]), self.busy])]),
                              self.status, self.table, self.out, focus_style()])
        self.widget.add_class("simpred-yourdata-explorer")  # for the browser test
        self._describe()
        clear_refusal_on_actions(self)

    @property
    def knn(self) -> bool:
        """Whether the chosen data set is a kNN graph (so that ``k`` applies)."""
        return self.dataset.value not in ("karate club", "southern women")

    @property
    def status_text(self) -> str:
        return _status_text(self.status)

    def _describe(self) -> None:
        from ..datasets import DATASETS

        self.k.disabled = not self.knn
        note = "" if self.knn else " (a graph already: k does not apply)"
        self.status.value = (f"{html.escape(self.dataset.value)}: {html.escape(DATASETS[self.dataset.value])}{note}. "
                             "Choose the learners (Ctrl/Shift-click for several) and press <b>Run</b>.")

    def _clear_refusal(self) -> None:
        """After a refused entry ("Not changed: …"), a valid one shows the description again."""
        if self.status.value.startswith("Not changed"):
            self._describe()

    def refusal(self, n: int | None = None) -> str | None:
        """Why the current choice would take too long (a sentence), or None if it may run."""
        chosen = list(self.learners.value)
        if not chosen:
            return "no learner is chosen: select one or more in the list (Ctrl/Shift-click for several)"
        T = int(self.T.value)
        if T * len(chosen) > YOUR_DATA_MAX_WORK:
            return (f"{len(chosen)} learners × T = {T} is {T * len(chosen):,} trials, more than "
                    f"{YOUR_DATA_MAX_WORK:,}: lower T to {YOUR_DATA_MAX_WORK // len(chosen):,} "
                    "or choose fewer learners")
        if "Similarity from class" in chosen:
            if n is not None and n > SLOW_MAX_N:
                return (f"'Similarity from class' keeps a pool of hallucinated histories (Lemma 7) that grows "
                        f"with its mistakes, too slow on {n} vertices: it is offered on graphs of at most "
                        f"{SLOW_MAX_N} vertices (karate club, southern women); unselect it or choose one of those")
            if T > SLOW_MAX_T:
                return (f"'Similarity from class' keeps a pool of hallucinated histories (Lemma 7) that grows "
                        f"with its mistakes: it is offered for T ≤ {SLOW_MAX_T}; lower T or unselect it")
        return None

    def graph(self):
        """The chosen labelled graph (:func:`~simpred_lite.datasets.load_graph`)."""
        from ..datasets import load_graph

        return load_graph(self.dataset.value, int(self.k.value) if self.knn else None)

    def run(self) -> None:
        """Play the chosen learners as :func:`evaluate` would; show the curves and the table."""
        from ..game.evaluation import Evaluation, _play, _resolve_learners, make_trials

        why = self.refusal(DATASET_SIZES.get(self.dataset.value))
        if why is not None:
            self.status.value = f"Not run: {html.escape(why)}."
            return
        for c in self._controls:
            c.disabled = True
        self.progress.value = 0
        self.busy.layout.display = ""
        try:
            self.status.value = f"Loading {html.escape(self.dataset.value)} …"
            lg = self.graph()
            why = self.refusal(lg.n)
            if why is not None:
                self.status.value = f"Not run: {html.escape(why)}."
                return
            G, y = lg.graph, np.asarray(lg.labels)
            T, seed = int(self.T.value), int(self.seed.value)
            specs = _resolve_learners([self.ANCHORS.get(name, name) for name in self.learners.value])
            self.progress.max, self.progress.value = len(specs) + 1, 0
            self.now_playing.value = "drawing the trials"
            self.status.value = f"{html.escape(lg.name)}: drawing the {T} {self.trials.value} trials …"
            kind, trial_list = make_trials(self.trials.value, G, y, T, seed, specs)
            self.progress.value = 1
            block = max(1, T // 10)
            results = []
            for k, spec in enumerate(specs, start=1):
                self.now_playing.value = f"learner {k} of {len(specs)}: {spec.name}"
                self.status.value = (f"{html.escape(lg.name)}: learner {k} of {len(specs)}, "
                                     f"{html.escape(spec.name)}, plays {T} trials …")
                results.append(_play(spec, G, y, trial_list, seed, block, False, self.time_limit))
                self.progress.value = k + 1
            self.evaluation = Evaluation(lg.name, G, y, kind, T, seed, min(block, T), results)
        finally:
            for c in self._controls:
                c.disabled = False
            self.k.disabled = not self.knn
            self.busy.layout.display = "none"
            self.now_playing.value = ""
        ev = self.evaluation
        self.status.value = (f"Done: {html.escape(ev.title())}. {html.escape(fewest_mistakes(ev))} — one sequence, "
                             "one seed: change the seed to see the spread.")
        self.table.value = ev._repr_html_()
        # 8.4 in at 90 dpi is 756 px, narrower than JupyterLab's output area: shown unscaled, the
        # 9-pt legend (below the axes) reads at 8.4 pt
        fig = Figure(figsize=(8.4, 4.2))
        ax = fig.subplots()
        ev.plot(ax=ax)
        show_figure(self.out, fig, dpi=90)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = ("YourDataExplorer: choose a data set, k, the learners, the trials, T and a seed; "
                                "Run shows evaluate's mistake curves and table")
        return bundle
