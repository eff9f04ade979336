"""The adversary playground as an ipywidgets app (notebook 10, and ``make app`` with Voilà).

The logic is :class:`simpred_lite.game.playground.Playground` (plain Python, tested without a
browser); this module only draws it and wires buttons to it.  As every app of the suite,
it shows its state through widget values (the counter and status ``HTML``) and an
``Output`` whose content is set through its state (``out.outputs = ()`` then
``out.append_display_data(Image(png))``), so a notebook drives it as a student would
(``app.adversary.value = "adaptive"``, ``app.step_button.click()``) and strict nbval
checks what it prints.  The counter and the figure carry the CSS classes
``simpred-counter`` and ``simpred-figure``, which the real-browser test looks for.
"""

from __future__ import annotations

import html
import threading
import time
from typing import Any

import ipywidgets as W
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import ScaledTranslation

from ..checks import check_int
from ..game.adversaries import ADVERSARIES
from ..game.playground import GRAPHS, LEARNERS, Playground
from ..learners.registry import playable
from ..viz.curves import bound_cap, equal_stretches, plot_mistake_curves, wants_symlog
from ..viz.graphs import draw_labelled_graph, legend_below, pickable_layout
from ..viz.style import LEGEND_FONTSIZE, learner_colors
from ..viz.trees import bst_layout, draw_bst
from .controls import (
    BrowserClickButton,
    CheckedDropdown,
    CheckedSelectMultiple,
    WholeNumberText,
    clear_refusal_on_actions,
    focus_style,
    refusal_to_status,
)
from .figure_output import show_figure
from .similarity_game import LAYOUT_CLEARANCE
from .text import plain_text

__all__ = ["PlaygroundApp"]

#: The app's figure has one size whatever it shows (two or three panels), so the page never jumps.
#: 768 pixels wide at 96 dpi: narrower than JupyterLab's output area
#: (:data:`~simpred_lite.viz.style.NOTEBOOK_OUTPUT_WIDTH_PX`), so it is shown at full size and a
#: point of the figure is a point on the page.  The graph panel spans the top row (with the
#: BST path beside it when a learner has one), the mistake curves the bottom row: a student
#: playing the adversary picks vertices by the numbers written on them.
FIGURE_DPI = 96
FIGURE_WIDTH_IN = 8.0
FIGURE_HEIGHT_PX = 820
#: Heights of the top row (graph and BST, 420 px as before the mistake legend moved below its
#: panel) and the bottom row (the mistake panel, its legend under it).
ROW_HEIGHTS_PX = (420, 400)
#: The mistake legend gets two columns when it is at most the figure's width less this (the
#: axis labels on the left, the padding on the right), i.e. no wider than the panel.
LEGEND_SIDE_MARGIN_PX = 70
#: The mistake legend's top lies this many points under the panel's axes (below "trial t").
LEGEND_DROP_PT = 30
#: In a legend too wide for two columns, entries longer than this go on two lines.
WRAP_ENTRY_CHARS = 36
#: Vertex markers and numbers in the graph panel (at least MIN_PICKED_NUMBER_PT as shown).
GRAPH_NODE_SIZE = 300
GRAPH_FONT_SIZE = 10
#: The titles of the top row (two panels side by side: their titles must not touch).
PANEL_TITLE_SIZE = 10

#: The mistake panel draws a learner's bound only when it is at most this many times the top curve
#: (else the legend names it "off the chart").  The notebooks' static charts allow
#: :data:`~simpred_lite.viz.curves.BOUND_DRAW_FACTOR` (4): they are about 420 px high, this panel
#: 200 to 270 px (its legend under it), where a bound at 4 x the top curve would leave the curves
#: a band of 50 to 70 px.
WIDGET_BOUND_FACTOR = 1.5
#: A Play reports its progress (the counter and "trial k of T") at most this often, in seconds;
#: only what is shown while it runs depends on it, never the trials played.
PROGRESS_EVERY_S = 0.25


# -- the app ------------------------------------------------------------------------------
def _pair_label_drops(bst, leaf_pos: dict, i: int, j: int) -> tuple[float, float]:
    """How far (points) to lower the numbers of the pair's two leaves in the BST panel.

    Leaves a few places apart would run their numbers together ("30" and "18" read "3018"),
    so the right one of two close leaves goes a line lower; far apart, both stay on one line.
    """
    xs = sorted(x for x, _ in (leaf_pos[bst.leaf(v)] for v in range(bst.n)))
    spacing = min((b - a for a, b in zip(xs, xs[1:]) if b > a), default=1.0)
    xi, xj = leaf_pos[bst.leaf(i)][0], leaf_pos[bst.leaf(j)][0]
    if abs(xi - xj) >= 4 * spacing:
        return 0.0, 0.0
    return (0.0, 11.0) if xi <= xj else (11.0, 0.0)


def _trials(k: int) -> str:
    """``"1 trial"``, ``"3 trials"``: a count of trials for the status line."""
    return f"{k} trial" if k == 1 else f"{k} trials"


def _wrap_entry(text: str) -> str:
    """A long legend entry on two lines, broken before its last parenthesis (its bound)."""
    head, sep, tail = text.rpartition(" (")
    return f"{head}\n({tail}" if len(text) > WRAP_ENTRY_CHARS and sep and head else text


def _legend_under(ax, fig) -> None:
    """The mistake panel's legend under it (below the trial axis), so the curves keep the figure's width.

    Two columns when they fit in the panel's width (measured at the legend's font size); else two
    columns with the entries longer than :data:`WRAP_ENTRY_CHARS` characters on two lines, broken
    before their last parenthesis (an entry such as "r-norm Perceptron (= AlwaysSimilar) (bound
    1.59e+07, off the chart)" is 420 px wide on one line); else one column.  Constrained layout
    then shortens the panel to make room for it.
    """
    handles, texts = ax.get_legend_handles_labels()
    if not texts:
        return
    renderer = FigureCanvasAgg(fig).get_renderer()
    room = fig.bbox.width - LEGEND_SIDE_MARGIN_PX
    # anchored a fixed distance under the axes, so that it clears the tick labels and "trial t"
    # whatever height the layout gives the panel
    under = ax.transAxes + ScaledTranslation(0, -LEGEND_DROP_PT / 72, fig.dpi_scale_trans)
    for ncols, entries in ((2, texts), (2, [_wrap_entry(t) for t in texts]), (1, texts)):
        legend = ax.legend(handles, entries, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=under,
                           ncols=ncols, fontsize=LEGEND_FONTSIZE, frameon=False, borderaxespad=0.0,
                           columnspacing=1.5)
        if legend.get_window_extent(renderer).width <= room:
            return


class PlaygroundApp:
    """Choose a graph, learners and an adversary, then Step / Play / Reset and watch.

    Parameters
    ----------
    graph : str
        A key of :data:`~simpred_lite.game.playground.GRAPHS`.
    learners : sequence of str, optional
        Keys of :data:`~simpred_lite.game.playground.LEARNERS` (default: all).
    adversary : str
        A key of :data:`~simpred_lite.game.playground.ADVERSARIES`.
    seed : int
    play_steps : int
        How many trials **Play** runs.

    Attributes
    ----------
    graph, adversary, target : ipywidgets.Dropdown
        The graph, the adversary, and the learner the adaptive adversary attacks (``target`` is
        enabled only for the adaptive adversary, and while at least one learner is chosen).
    learners : CheckedSelectMultiple
        The learners played (ctrl/shift-click for several); a name that is not offered, set from
        code, is refused with a ``ValueError`` naming the options (and the status line says it).
    seed, play_steps : WholeNumberText
        Integer boxes for ``0 .. 10^6`` and ``1 .. 2000``: a value outside is refused (a
        ``ValueError`` from Python, a sentence in the status line from the browser), never
        clamped.
    i, j : ipywidgets.Dropdown
        Your pair, when the adversary is ``"student"``.
    step_button, play_button, reset_button : ipywidgets.Button
        **Play** clicked in the browser plays in a background thread (the kernel stays free
        to read a **Stop**); ``play_button.click()`` from Python plays synchronously.
    stop_button : ipywidgets.Button
        Enabled only while a Play runs: stops it after the current trial.
    progress : ipywidgets.IntProgress
        Trials played by the running Play (hidden when idle); ``progress.description`` reads
        "trial k of T".
    counter : ipywidgets.HTML
        Trials played and each learner's mistakes ("No learner playing." when none is chosen).
    status : ipywidgets.HTML
        The last trial, in words.
    out : ipywidgets.Output
        The figure: graph with the pair and its path, the BST path (if a learner playing
        has a BST), and the mistake curves with their bounds.
    game : Playground
        The game being played (rebuilt when a setting changes).

    Examples
    --------
    >>> app = PlaygroundApp("barbell", ["AlwaysSimilar"], "adaptive")
    >>> app.step_button.click(); app.counter_text
    'trials: 1 | mistakes: AlwaysSimilar 1'
    """

    def __init__(self, graph: str = "karate club", learners=None, adversary: str = "random",
                 seed: int = 0, play_steps: int = 20):
        if isinstance(learners, str):
            raise TypeError(f"learners must be a list of learner names, got the string {learners!r}; e.g. "
                            f"[{learners!r}]")
        seed = check_int(seed, "seed", low=0, high=10**6)  # the seed box holds 0..10^6; never clamp silently
        play_steps = check_int(play_steps, "play_steps", low=1, high=2000)
        offered = playable()
        names = offered if learners is None else list(learners)
        for what, value, choices in (("graph", [graph], GRAPHS), ("learner", names, LEARNERS),
                                     ("adversary", [adversary], ADVERSARIES)):
            unknown = [v for v in value if v not in choices]
            if unknown:
                raise ValueError(f"unknown {what} {unknown[0]!r}; choose from {list(choices)}")
        refuse = refusal_to_status(self)  # a refused value of a box: its sentence goes to the status line
        self.graph = CheckedDropdown(options=list(GRAPHS), value=graph, description="graph", on_invalid=refuse)
        self.learners = CheckedSelectMultiple(options=offered, value=names, description="learners",  # all rows
                                              rows=len(offered), on_invalid=refuse)  # visible: no scrolling
        # "path-revealing" is another name for "shortest path": the registry keeps it, the menu lists it once
        adversary = "shortest path" if adversary == "path-revealing" else adversary
        self.adversary = CheckedDropdown(options=[a for a in ADVERSARIES if a != "path-revealing"], value=adversary,
                                         description="adversary", on_invalid=refuse)
        self.target = CheckedDropdown(options=names, value=names[0] if names else None, description="target",
                                      on_invalid=refuse)
        self.seed = WholeNumberText(value=seed, low=0, high=10**6, description="seed", on_invalid=refuse,
                                    hint="; choose a seed in 0..1000000")
        self.i = CheckedDropdown(options=[0, 1], value=0, description="vertex i", on_invalid=refuse)
        self.j = CheckedDropdown(options=[0, 1], value=1, description="vertex j", on_invalid=refuse)
        self.step_button = W.Button(description="Step", button_style="info", tooltip="play one trial")
        self.play_button = BrowserClickButton(description="Play", button_style="primary",
                                              tooltip="play several trials")
        self.stop_button = W.Button(description="Stop", button_style="danger", disabled=True,
                                    tooltip="stop playing after the current trial")
        self.progress = W.IntProgress(value=0, min=0, max=play_steps, description=f"trial 0 of {play_steps}",
                                      style={"description_width": "initial"},
                                      layout=W.Layout(width="22em"))
        # the bar lives in a box shown only while playing: a saved page never shows a stale bar
        self.progress_box = W.HBox([self.progress], layout=W.Layout(display="none"))
        self.play_steps = WholeNumberText(value=play_steps, low=1, high=2000, description="steps", on_invalid=refuse,
                                          hint="; Play runs 1..2000 trials at a time")
        self.reset_button = W.Button(description="Reset", button_style="warning", tooltip="fresh learners")
        # fixed heights: the panel must not jump when a status line wraps or the figure changes
        self.counter = W.HTML(layout=W.Layout(min_height="2.6em"))
        self.counter.add_class("simpred-counter")
        self.status = W.HTML(layout=W.Layout(min_height="3.9em"))
        self.out = W.Output(layout=W.Layout(height=f"{FIGURE_HEIGHT_PX + 8}px"))
        self.out.add_class("simpred-figure")
        self.step_button.on_click(lambda _: self.step())
        self.play_button.on_click(lambda _: self.play())
        self.play_button.on_browser_click(lambda _: self.play_in_background())
        self.stop_button.on_click(lambda _: self.stop())
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._busy = False
        self._reverting = False
        self._refused_while_busy: list[str] = []  # settings changed (and put back) during a background Play
        # the check "busy?" and the note on settings put back are taken together with the end of a
        # Play, so that no setting is put back after the Play's last status without a word
        self._busy_lock = threading.RLock()
        self._pair_status = False  # the status is about the student's pair (a refused Step): redrawn on i/j
        self.reset_button.on_click(lambda _: self.reset())
        for w in (self.graph, self.learners, self.adversary, self.target, self.seed):
            w.observe(self._on_setting, names="value")
        self.play_steps.observe(self._on_steps, names="value")
        for w in (self.i, self.j):
            w.observe(self._on_pair, names="value")
        self.widget = W.VBox([
            W.HBox([self.graph, self.adversary, self.seed]),
            W.HBox([self.learners, W.VBox([self.target, self.i, self.j])]),
            W.HBox([self.step_button, self.play_button, self.play_steps, self.stop_button, self.reset_button]),
            self.progress_box,
            self.counter,
            self.status,
            self.out,
            focus_style(),
        ])
        self._building = False
        self._rebuild()
        clear_refusal_on_actions(self)

    # -- logic (plain Python) ------------------------------------------------------------
    def _rebuild(self) -> None:
        """A new game for the current settings (fresh learners, no trials)."""
        self._building = True
        try:
            names = list(self.learners.value)
            old_target = self.target.value
            target = old_target if old_target in names else (names[0] if names else None)
            self.target.options = names
            self.target.value = target
            if not names:
                self.game = None
                self.target.disabled = True  # no learner to target: enabled again with the first learner
                self._show("Choose at least one learner.")
                return
            options = {"target": target} if self.adversary.value == "adaptive" else {}
            self.game = Playground(self.graph.value, names, self.adversary.value, seed=int(self.seed.value),
                                   adversary_options=options)
            vertices = list(range(self.game.n))
            if list(self.i.options) != vertices:
                self.i.options, self.j.options = vertices, vertices
                self.i.value, self.j.value = 0, self.game.n - 1
            # a refusal names the range, not all n vertex numbers
            self.i._options_text = self.j._options_text = f"a vertex number 0..{self.game.n - 1}"
            natural = GRAPHS[self.graph.value].layout is not None  # the grid keeps its rows, the barbell its circles
            self.pos = self.game.layout() if natural else pickable_layout(self.game.G, self.game.layout(),
                                                                          clearance=LAYOUT_CLEARANCE, best_effort=True)
            student = self.adversary.value == "student"
            self.i.disabled = self.j.disabled = not student
            self.target.disabled = self.adversary.value != "adaptive"
            hint = "pick i and j, then press <b>Step</b>" if student else "press <b>Step</b> or <b>Play</b>"
            moved = ""
            if self.adversary.value == "adaptive" and old_target is not None and old_target != target:
                # the target left the learners: say which learner the adversary now targets
                moved = (f" The adaptive adversary's target {html.escape(str(old_target))} is no longer playing: "
                         f"it now targets {html.escape(str(target))}.")
            self._show(f"{GRAPHS[self.graph.value].description}; adversary: <b>{self.adversary.value}</b> — "
                       f"{hint}.{moved}")
        finally:
            self._building = False

    def _on_setting(self, change) -> None:
        # a value typed in the browser and refused goes back to the old one: traitlets still
        # reports a "change" from it to itself, which must not restart the game; nor must a
        # refused None (set, then undone by the dropdown), which would also hide its refusal
        if self._reverting or self._building or change["new"] == change["old"]:
            return
        with self._busy_lock:
            if self.busy:
                # a setting changed from code during a background Play: put back, and said so when the
                # Play ends, so that the controls always show the settings of the game on screen
                self._reverting = True
                try:
                    change["owner"].value = change["old"]
                finally:
                    self._reverting = False
                name = str(change["owner"].description or "setting")
                if name not in self._refused_while_busy:
                    self._refused_while_busy.append(name)
                return
        if change["new"] is not None and change["old"] is not None:
            if change["owner"] is self.target and self.adversary.value != "adaptive" and self.game is not None:
                # (greyed out in the browser) only the adaptive adversary uses a target: the game goes on
                self.status.value = (f"The target {html.escape(str(change['new']))} is kept for the adaptive "
                                     f"adversary; the {html.escape(str(self.adversary.value))} adversary does not "
                                     "use one, so the game goes on unchanged.")
                return
            self._rebuild()

    def _refused_note(self) -> str:
        """The sentence on settings put back during the Play that just ended (empty if none)."""
        names, self._refused_while_busy = self._refused_while_busy, []
        if not names:
            return ""
        return (f" Not changed while playing: {html.escape(', '.join(names))} (put back; "
                "change it when the Play has ended, or press Stop first).")

    def _on_pair(self, change) -> None:
        # after a refused Step, a valid new i or j makes the refusal false: say what Step will ask now
        new, old = change["new"], change["old"]
        if (not self._pair_status or self._building or self.busy or self.game is None or new is None
                or old is None or new == old or self.adversary.value != "student"):
            return
        i, j = int(self.i.value), int(self.j.value)
        if i == j:
            self.status.value = (f"Next pair ({i}, {j}): a pair needs two distinct vertices; "
                                 "pick another i or j.")
        else:
            self.status.value = f"Next pair ({i}, {j}): press <b>Step</b>."

    def _on_steps(self, change) -> None:
        # a valid number of steps replaces an earlier refusal on the status line
        if change["new"] != change["old"] and self.status.value.startswith("Not changed:"):
            self.status.value = f"Play will run {_trials(change['new'])}."

    @property
    def busy(self) -> bool:
        """Whether a Play runs in the background."""
        return self._busy

    def step(self):
        """One trial (the student's pair ``(i, j)`` when the adversary is ``"student"``)."""
        if self.game is None or self.busy:
            return None
        pair = (int(self.i.value), int(self.j.value)) if self.adversary.value == "student" else None
        try:
            record = self.game.step(pair)
        except ValueError as err:
            self._show(html.escape(str(err)))
            self._pair_status = pair is not None  # a refused pair: changing i or j redraws this line
            return None
        self._show(self._describe(record))
        return record

    def play(self):
        """``play_steps`` trials of the adversary (the student adversary cannot autoplay).

        Synchronous: this is what ``play_button.click()`` from Python runs.  A click in the
        browser runs :meth:`play_in_background` instead.
        """
        if not self._can_play():
            return []
        self._stop.clear()
        return self._play_loop(int(self.play_steps.value))

    def play_in_background(self) -> threading.Thread | None:
        """Start ``play_steps`` trials in a thread: progress shown, controls disabled, **Stop** enabled.

        The controls come back when the trials are played, when **Stop** is pressed, and also
        when a trial fails (its error is shown in the status line).

        Returns
        -------
        threading.Thread or None
            The thread playing (``None`` if nothing could be played).
        """
        if self.busy or not self._can_play():
            return None
        self._stop.clear()
        self._set_busy(True)
        steps = int(self.play_steps.value)
        # the last status line asked for Step or Play, both greyed out now: say what is going on
        self.status.value = f"Playing {_trials(steps)}: press <b>Stop</b> to end after the current trial."
        self._worker = threading.Thread(target=self._play_in_thread, args=(steps,),
                                        name="simpred-play", daemon=True)
        self._worker.start()
        return self._worker

    def stop(self) -> None:
        """Ask the running Play to stop after its current trial."""
        self._stop.set()

    def _can_play(self) -> bool:
        if self.game is None or self.busy:
            return False
        if self.adversary.value == "student":
            self._show("The student adversary is you: pick a pair and press <b>Step</b>.")
            return False
        return True

    def _play_in_thread(self, steps: int) -> None:
        try:
            self._play_loop(steps)
        except Exception as err:  # shown to the student; the controls come back below
            self.status.value = (f"Play failed after {_trials(len(self.game.history))}: {html.escape(repr(err))}."
                                 + self._refused_note())
        finally:
            # a setting changed while the last status and figure were drawn was put back after that
            # status was written: say so now, in the same step that ends the busy state
            with self._busy_lock:
                self._set_busy(False)
                late = self._refused_note()
            if late:
                self.status.value += late

    def _play_loop(self, steps: int) -> list:
        """Play up to ``steps`` trials, reporting progress, until done, stopped or refused."""
        records, stopped = [], ""
        self.progress.max = steps
        self._report(0, steps)
        last = time.monotonic()
        for k in range(steps):
            if self._stop.is_set():
                stopped = f" Stopped by you after {k} of {_trials(steps)}."
                break
            try:
                records.append(self.game.step())
            except ValueError as err:  # e.g. the adaptive adversary's target retired
                target = getattr(self.game.adversary, "target", None) or self.game.names[0]
                if records and self.game.retired.get(target, "").startswith(
                        f"retired at trial {len(self.game.history)}:"):  # the last trial's line gives the reason
                    stopped = (f" Stopped: the adaptive adversary's target {html.escape(repr(target))} has retired "
                               f"at trial {len(self.game.history)} (reason above); choose another target.")
                else:
                    stopped = f" Stopped: {html.escape(str(err))}."
                break
            if time.monotonic() - last >= PROGRESS_EVERY_S:
                self._report(k + 1, steps)
                last = time.monotonic()
        self._report(len(records), steps)
        self._show(f"Played {_trials(len(records))}. " + (self._describe(records[-1]) if records else "") + stopped
                   + self._refused_note())
        return records

    def _report(self, done: int, steps: int) -> None:
        self.progress.value = done
        self.progress.description = f"trial {done} of {steps}"
        self.counter.value = f"<b>{html.escape(self.game.summary())}</b>"

    def _set_busy(self, busy: bool) -> None:
        """Disable every control but Stop while a Play runs; enable them (as the game allows) after."""
        for w in (self.graph, self.learners, self.adversary, self.target, self.seed, self.play_steps,
                  self.reset_button):
            w.disabled = busy
        self._busy = busy
        self.stop_button.disabled = not busy
        self.progress_box.layout.display = "" if busy else "none"
        if busy:
            self.step_button.disabled = self.play_button.disabled = True
            self.i.disabled = self.j.disabled = True
        else:
            student = self.adversary.value == "student"
            self.i.disabled = self.j.disabled = not student
            self.target.disabled = self.adversary.value != "adaptive" or self.game is None
            self._update_buttons()

    def reset(self) -> None:
        """Fresh learners and adversary, same settings."""
        if not self.busy:
            self._rebuild()

    def _describe(self, record) -> str:
        t = record.trial
        truth = "dissimilar (1)" if t.y else "similar (0)"
        wrong = [name for name, w in record.wrong.items() if w]
        verdict = "wrong: " + ", ".join(wrong) if wrong else "every learner was right"
        edges = len(t.path) - 1 if t.path is not None else 0
        via = f" with a revealed path of {edges} edge{'s' if edges != 1 else ''}" if t.path is not None else ""
        retired = "".join(f" {name} {why}." for name, why in self.game.retired.items()
                          if why.startswith(f"retired at trial {len(self.game.history)}:"))
        return f"Trial {len(self.game.history)}: pair ({t.i}, {t.j}){via} is {truth}; {verdict}.{retired}"

    @property
    def counter_text(self) -> str:
        """The counter as plain text: trials and mistakes per learner."""
        return plain_text(self.counter.value)

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return plain_text(self.status.value)

    # -- view ------------------------------------------------------------------------------
    def _show(self, status: str) -> None:
        self._pair_status = False
        self.status.value = status
        self.counter.value = f"<b>{html.escape(self.game.summary())}</b>" if self.game else "No learner playing."
        self._update_buttons()
        self._render()

    def _update_buttons(self) -> None:
        """Step and Play are enabled only when they can act (see ``Playground.blocked``)."""
        game = self.game
        if self._busy:  # _set_busy(False) enables them when the Play ends
            return
        blocked = "choose at least one learner" if game is None else game.blocked()
        everyone_retired = game is None or len(game.retired) == len(game.names)
        # the student adversary blocks Play only: Step plays the student's pair
        student = game is not None and game.adversary.name == "student"
        step_blocked = None if student and not everyone_retired else blocked
        self.step_button.disabled = step_blocked is not None
        self.step_button.tooltip = "play one trial" if step_blocked is None else f"Step is off: {step_blocked}"
        self.play_button.disabled = blocked is not None
        self.play_button.tooltip = "play several trials" if blocked is None else f"Play is off: {blocked}"

    def figure(self) -> Figure | None:
        """The current figure (also what the app shows).

        The mistake panel (bottom) spans the figure's width; its legend, under it, has one entry
        per learner, in two columns when they fit (long entries on two lines), else one.  A
        learner's bound is drawn (dashed, in its colour, and named in its entry: "bound 16,
        dashed") when it is at most :data:`WIDGET_BOUND_FACTOR` times the most mistakes of any
        learner so far; otherwise its entry says "bound ..., off the chart".  A drawn bound's right
        end carries its learner's marker and its value, in its colour, so that a line through
        another learner's curve says whose bound it is; the ends of bounds close together stand
        side by side, each value above its own marker.  The mistake axis is symmetric-log (and
        its label says so) when the most mistakes exceed 4 times the median learner's
        (:func:`~simpred_lite.viz.curves.wants_symlog`).

        Returns
        -------
        matplotlib.figure.Figure or None
            ``None`` when no learner is chosen.

        Examples
        --------
        >>> app = PlaygroundApp("barbell", ["UnionFindLearner"], "adaptive", play_steps=20)
        >>> _ = app.play()
        >>> [t.get_text() for t in app.figure().axes[-1].get_legend().get_texts()]
        ['UnionFindLearner (bound 16, dashed)']
        """
        game = self.game
        if game is None:
            return None
        bst_name = game.bst_learner()
        bst_path = game.bst_path(bst_name) if bst_name is not None else None
        # the BST panel is there from the start (empty before the first trial): the layout
        # must not jump at the first step
        fig = Figure(figsize=(FIGURE_WIDTH_IN, FIGURE_HEIGHT_PX / FIGURE_DPI), layout="constrained")
        # two sub-figures: the mistake panel's legend (under it) takes height from the bottom row
        # only, so the graph and the BST's 64 leaves keep theirs
        subfigs: Any = fig.subfigures(2, 1, height_ratios=list(ROW_HEIGHTS_PX))  # an array of two (stubs: SubFigure)
        top, bottom = subfigs
        if bst_name is not None:
            axes = [*top.subplots(1, 2, width_ratios=[1, 1.25]), bottom.subplots()]
        else:
            axes = [top.subplots(), bottom.subplots()]
        cur = game.current
        pair = (cur.trial.i, cur.trial.j) if cur else None
        draw_labelled_graph(game.G, game.labels, ax=axes[0], pos=self.pos, highlight_pair=pair,
                            path=cur.trial.path if cur else None, node_size=GRAPH_NODE_SIZE, font_size=GRAPH_FONT_SIZE,
                            title=f"{game.graph_name}: current pair circled")
        # the legend under the drawing says which edges are cut: a shorter title leaves room for the BST's
        axes[0].set_title(axes[0].get_title().replace(" (red, dashed)", ""), fontsize=PANEL_TITLE_SIZE)
        axes[0].set_aspect("equal", adjustable="datalim")  # the layout's shape, whatever the panel's width
        legend_below(axes[0])
        if bst_name is not None and bst_path is None:
            axes[1].text(0.5, 0.5, "The BST path of the pair\nappears after the first trial.",
                         ha="center", va="center", transform=axes[1].transAxes, color="0.4")
            axes[1].set_title(f"BST path ({bst_name})", fontsize=PANEL_TITLE_SIZE)
            axes[1].set_axis_off()
        elif bst_path is not None and bst_name is not None:
            bst = getattr(game.learners[bst_name], "bst", None)
            if bst is not None:
                # only the pair's two leaves are numbered: all N numbers would run together at this size
                draw_bst(bst, game.labels, ax=axes[1], path=bst_path, title=f"BST path ({bst_name})",
                         show_vertices=False)
                leaf_pos = bst_layout(bst)
                last = game.history[-1].trial
                for v, drop in zip((last.i, last.j), _pair_label_drops(bst, leaf_pos, last.i, last.j)):
                    axes[1].annotate(str(v), leaf_pos[bst.leaf(v)], xytext=(0, -6 - drop), textcoords="offset points",
                                     ha="center", va="top", fontsize=9, fontweight="bold")
                # one line less wide, so that the titles of neighbouring panels never touch
                axes[1].set_title(axes[1].get_title().replace(": N =", "\nN =", 1), fontsize=PANEL_TITLE_SIZE)
            else:  # the learner exposes only bst_path(i, j): show the heap indices
                axes[1].text(0.5, 0.5, "BST path (heap indices):\n" + " - ".join(map(str, bst_path)),
                             ha="center", va="center", wrap=True, transform=axes[1].transAxes)
                axes[1].set_title(f"BST path ({bst_name})", fontsize=PANEL_TITLE_SIZE)
                axes[1].set_axis_off()
        # a bound far above the top curve would flatten the curves onto the floor: it is named in the
        # legend, "off the chart".  The cap follows the curves, not the trials played: after a long
        # Play a cap tied to the trials would still draw bounds far above curves that rise slowly
        bounds = game.bounds()
        # curves equal on every trial hide each other (markers too, when every trial has one): the legend says so
        results = game.results()
        finals = [float(np.max(r.cumulative)) for r in results.values() if len(r.cumulative)]
        cap = bound_cap(*finals, factor=WIDGET_BOUND_FACTOR)
        # one curve far above the others (AlwaysSimilar after a long Play): a symmetric-log axis
        log = wants_symlog(finals)
        labels: dict[str, str] = {}
        seen: dict[tuple, str] = {}
        for name, res in results.items():
            key = tuple(np.asarray(res.cumulative).tolist())
            if key in seen and len(key):
                labels[name] = f"{name} (= {seen[key]})"
            seen.setdefault(key, name)
        # equal on a stretch only (10 trials or more): hidden there too, so the entry says where (longest first)
        for start, end, same in equal_stretches({n: r.cumulative for n, r in results.items()}):
            for name in same[1:]:
                labels.setdefault(name, f"{name} (= {same[0]} on trials {start}–{end})")
        # each learner in its registry colour, as in the notebooks' static mistake charts; a drawn
        # bound is named in its learner's entry (one entry per learner) and marked at its right end
        ax = plot_mistake_curves(results, axes[-1], bounds, cap=cap, labels=labels, colors=learner_colors(results),
                                 retired=game.retired, legend=None, log=log, bound_in_entry=True,
                                 title=f"Mistakes against the {game.adversary.name} adversary")
        if log:
            ax.set_ylabel("cumulative mistakes (symlog)")
        _legend_under(ax, fig)
        return fig

    def _render(self) -> None:
        fig = self.figure()
        if fig is None:
            self.out.outputs = ()
        else:
            show_figure(self.out, fig, dpi=FIGURE_DPI, tight=False)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = "PlaygroundApp: choose graph, learners, adversary; Step / Play / Reset"
        return bundle
