"""Every control of every app has an accessible name: a non-empty ``description`` or ``tooltip``.

A screen reader announces a control by its label (ipywidgets renders ``description`` as a
``<label>`` tied to the control, and ``tooltip`` as its ``title``); a button is named by
its text.  ToggleButtons name each of their buttons by its option and ``tooltips``.
"""

from __future__ import annotations

import ipywidgets as W
import networkx as nx
import pytest

DISPLAY_ONLY = (W.HTML, W.HTMLMath, W.Label, W.Output, W.Image, W.Box)


def _apps():
    from simpred_lite import karate_club
    from simpred_lite.apps import (
        BSTBuildExplorer,
        BSTTrialExplorer,
        GraphAdversaryApp,
        IsingReductionExplorer,
        MatrixLearnerExplorer,
        MergeSortLearnerApp,
        PathForestExplorer,
        PermutationAdversaryApp,
        PlaygroundApp,
        ReductionExplorer,
        ResistanceCutExplorer,
        SimilarityGame,
        WilsonWalkExplorer,
        YourDataExplorer,
    )
    from simpred_lite.bst import BinarySupportTree
    from simpred_lite.learners import UnionFindLearner

    G, y = karate_club()
    return {
        "SimilarityGame": lambda: SimilarityGame(G, y, UnionFindLearner(34)),
        "PlaygroundApp": lambda: PlaygroundApp("barbell", adversary="random"),
        "GraphAdversaryApp": lambda: GraphAdversaryApp(nx.cycle_graph(6), UnionFindLearner(6)),
        "PermutationAdversaryApp": lambda: PermutationAdversaryApp(4),
        "MergeSortLearnerApp": lambda: MergeSortLearnerApp(4),
        "BSTTrialExplorer": lambda: BSTTrialExplorer(BinarySupportTree([0, 1, 2, 3]), labels=[0, 0, 1, 1]),
        "PathForestExplorer": lambda: PathForestExplorer(6),
        "IsingReductionExplorer": lambda: IsingReductionExplorer(),
        "ResistanceCutExplorer": lambda: ResistanceCutExplorer(),
        "WilsonWalkExplorer": lambda: WilsonWalkExplorer(4, 5, seed=0, root=0),
        "BSTBuildExplorer": lambda: BSTBuildExplorer(),
        "ReductionExplorer": lambda: ReductionExplorer(),
        "MatrixLearnerExplorer": lambda: MatrixLearnerExplorer(),
        "YourDataExplorer": lambda: YourDataExplorer(),
    }


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def test_every_app_of_the_package_is_checked():
    import simpred_lite.apps as apps

    classes = {name for name in apps.__all__ if name.endswith(("App", "Explorer", "Game"))}
    assert classes == set(_apps()), "add the new app to _apps() so that its controls are checked"


@pytest.mark.parametrize("name", sorted(_apps()))
def test_every_control_has_an_accessible_name(name):
    app = _apps()[name]()
    unnamed = []
    controls = [w for w in _walk(app.widget) if isinstance(w, W.DOMWidget) and not isinstance(w, DISPLAY_ONLY)]
    assert controls, f"{name} has no control"
    for w in controls:
        if not (str(getattr(w, "description", "")).strip() or str(getattr(w, "tooltip", "") or "").strip()):
            unnamed.append(f"{type(w).__name__}(value={getattr(w, 'value', None)!r})")
        if isinstance(w, W.ToggleButtons) and w.tooltips and len(w.tooltips) != len(w.options):
            unnamed.append(f"ToggleButtons {w.description!r}: one tooltip per option")
    assert not unnamed, f"{name}: controls without a description or tooltip: {unnamed}"


def test_the_toggle_buttons_of_06_say_what_each_label_does():
    from simpred_lite.apps import BSTTrialExplorer
    from simpred_lite.bst import BinarySupportTree

    app = BSTTrialExplorer(BinarySupportTree([0, 1, 2, 3]), labels=[0, 0, 1, 1])
    assert len(app.label.tooltips) == 2 and all("Learn will apply y =" in t for t in app.label.tooltips)


@pytest.mark.parametrize("name", sorted(_apps()))
def test_every_figure_has_a_text_summary_naming_what_is_plotted(name):
    app = _apps()[name]()
    if name == "YourDataExplorer":   # its figure appears on Run
        app.T.value = 50
        app.run_button.click()
    images = [(w, k) for w in _walk(app.widget) if isinstance(w, W.Output)
              for k, o in enumerate(w.outputs) if "image/png" in o.get("data", {})]
    assert images, f"{name} shows no figure when built"
    for out, k in images:
        figure = out.outputs[k]
        summary = figure["data"].get("text/plain", "")
        assert summary.startswith("Figure") and "Panel 1: " in summary, (
            f"{name}: the figure's text/plain should be its summary naming the panels, got {summary!r}")
        assert "untitled" not in summary, f"{name}: a panel of the figure has no title to name it: {summary!r}"
        assert "\\" not in summary and "$" not in summary, (
            f"{name}: the summary a screen reader reads should be plain text, not TeX: {summary!r}")
        hidden = out.outputs[k + 1]["data"].get("text/html", "") if k + 1 < len(out.outputs) else ""
        assert "simpred-figure-summary" in hidden and summary.split(".")[0] in hidden, (
            f"{name}: the figure should be followed by its visually hidden HTML summary")


def test_the_summary_reads_mathtext_as_plain_text():
    from matplotlib.figure import Figure

    from simpred_lite.apps.figure_output import figure_summary

    fig = Figure()
    ax = fig.subplots()
    ax.set(title=r"Pair (2, 3): $\mathcal{P}_t$ light blue, $\mathcal{S}_t$ black rings, tags $f_t$ in red",
           xlabel=r"$|\Phi^G|$", ylabel=r"mistakes $\leq \sqrt{2}\,\eta$")
    assert figure_summary(fig) == ("Figure. Panel 1: Pair (2, 3): P_t light blue, S_t black rings, tags f_t in red "
                                   "(x: |Φ^G|, y: mistakes ≤ √2 η).")
    ax.set_title("costs $5 per run")  # a lone dollar is text, not mathtext
    assert "costs $5 per run" in figure_summary(fig)


@pytest.mark.parametrize("name", sorted(_apps()))
def test_value_none_on_a_choice_is_refused_and_leaves_the_app_working(name):
    from simpred_lite.apps.controls import CheckedDropdown

    app = _apps()[name]()
    for d in [w for w in _walk(app.widget) if isinstance(w, CheckedDropdown) and len(w.options) > 1]:
        before = d.value
        with pytest.raises(ValueError, match="got None"):
            d.value = None
        assert d.value == before, f"{name}: {d.description} = None should be refused and the old choice kept"
        other = next(v for v in d._options_values if not d.equals(v, before))
        d.value = other   # the app still follows a valid choice
        assert d.value == other, f"{name}: {d.description} should accept a valid choice after a refused None"


def test_none_stays_when_there_is_nothing_to_choose_and_while_options_are_swapped():
    from simpred_lite.apps.controls import CheckedDropdown

    d = CheckedDropdown(options=["a", "b"], value="a", description="target")
    d.options = []
    assert d.value is None, "an empty dropdown should hold None"
    d.options = ["c", "d"]
    d.value = "d"
    d.options = ["x", "y"]   # ipywidgets picks the first option, passing through None
    assert d.value == "x", "after an options swap the dropdown should hold ipywidgets' new choice"
    d.value = "y"
    assert d.value == "y", "after an options swap a valid choice should be accepted"


@pytest.mark.parametrize("name", sorted(_apps()))
def test_every_app_carries_the_visible_focus_ring(name):
    from simpred_lite.apps import FOCUS_CSS

    app = _apps()[name]()
    styles = [w for w in _walk(app.widget) if isinstance(w, W.HTML) and FOCUS_CSS in w.value]
    assert styles, f"{name} should carry focus_style(), so that a control reached with Tab shows a ring in JupyterLab"
