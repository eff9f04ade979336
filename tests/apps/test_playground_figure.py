"""The playground's mistake panel: a bound far above the curves is named, not drawn; one legend entry per
learner; a symlog axis when one curve is far above the others; the controls with no learner chosen."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from simpred_lite.apps import PlaygroundApp  # noqa: E402
from simpred_lite.apps.playground_app import WIDGET_BOUND_FACTOR  # noqa: E402
from simpred_lite.viz.style import learner_colors  # noqa: E402


def test_only_huge_bounds_leave_the_curves_the_height_of_the_panel():
    # the BST Perceptron's bound (1.44e4 on the karate club) against 30 adaptive trials: drawing it
    # would put both curves flat on the floor of an axis running to 14 000
    app = PlaygroundApp("karate club", ["AlwaysSimilar", "BST Perceptron"], "adaptive", play_steps=30)
    app.target.value = "BST Perceptron"
    app.play()
    ax = app.figure().axes[-1]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    # the two curves are equal for a while (AlwaysSimilar's every mistake is one of the target's): said in the entry
    assert texts[0] == "AlwaysSimilar" and len(texts) == 2, texts
    assert re.fullmatch(r"BST Perceptron (\(= AlwaysSimilar on trials 1–\d+\) )?\(bound 1\.44e\+04, off the chart\)",
                        texts[1]), texts
    assert ax.get_ylim()[1] <= 4 * 30  # at most BOUND_DRAW_FACTOR times the top curve (<= 30)
    assert max(max(line.get_ydata()) for line in ax.get_lines()) >= 0.5 * ax.get_ylim()[1]


def test_after_a_long_play_a_bound_far_above_the_curves_is_named_not_drawn():
    # 285 random trials: the top curve (AlwaysSimilar) ends near 140, Similarity from class's bound is 784.
    # A cap of 4 x the trials played (1140) drew it and squeezed every curve into the panel's bottom fifth
    names = ["AlwaysSimilar", "UnionFindLearner", "Similarity from class"]
    app = PlaygroundApp("karate club", names, "random", seed=0, play_steps=285)
    app.play()
    top = max(app.game.mistakes.values())
    assert 4 * top < app.game.bounds()["Similarity from class"] < 4 * len(app.game.history)
    ax = app.figure().axes[-1]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("Similarity from class (") and "(bound 784, off the chart)" in t for t in texts), texts
    assert top >= 0.25 * ax.get_ylim()[1]


def test_a_bound_near_the_curves_is_still_drawn_dashed():
    app = PlaygroundApp("barbell", ["UnionFindLearner"], "adaptive", play_steps=20)
    app.play()
    ax = app.figure().axes[-1]
    bound = app.game.bounds()["UnionFindLearner"]
    assert any(line.get_linestyle() == "--" and line.get_ydata()[0] == bound for line in ax.get_lines())
    assert ax.get_ylim()[1] >= bound


def test_each_learner_keeps_its_registry_colour_as_in_the_static_charts():
    names = ["AlwaysSimilar", "UnionFindLearner", "Matrix Winnow"]
    app = PlaygroundApp("karate club", names, "random", play_steps=20)
    app.play()
    ax = app.figure().axes[-1]
    colours = learner_colors(names)
    # a curve's label is its name, with "(bound ..., off the chart)" when its bound is not drawn
    drawn = {line.get_label().split(" (")[0]: line.get_color() for line in ax.get_lines()
             if line.get_label().split(" (")[0] in names and line.get_linestyle() != "--"}
    assert set(drawn) == set(names)
    assert all(to_rgba(drawn[n]) == to_rgba(colours[n]) for n in names), (drawn, colours)


def test_deselecting_the_adaptive_target_says_which_learner_it_now_targets():
    app = PlaygroundApp("karate club", ["UnionFindLearner", "Matrix Winnow"], "adaptive")
    app.target.value = "Matrix Winnow"
    app.learners.value = ("UnionFindLearner",)
    assert app.target.value == "UnionFindLearner"
    assert ("The adaptive adversary's target Matrix Winnow is no longer playing: it now targets UnionFindLearner."
            in app.status_text)
    # a change that keeps the target says nothing of it
    app.learners.value = ("UnionFindLearner", "Matrix Winnow")
    assert "no longer playing" not in app.status_text


def _legend_texts(app):
    return [t.get_text() for t in app.figure().axes[-1].get_legend().get_texts()]


def _dashed_levels(ax):
    return sorted(float(line.get_ydata()[0]) for line in ax.get_lines() if line.get_linestyle() == "--")


def _legend_under_a_wide_panel(app):
    """The mistake legend's texts, after checking it lies under a panel of the figure's width, inside the figure."""
    fig = app.figure()
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[-1]
    legend = ax.get_legend()
    panel = ax.get_window_extent(renderer)
    assert panel.width >= 0.8 * fig.bbox.width, (panel, fig.bbox)  # the curves span the figure, not half of it
    assert panel.height >= 150, panel  # the legend under it leaves the curves room
    xaxis = ax.xaxis.get_tightbbox(renderer)
    for t in legend.get_texts():
        box = t.get_window_extent(renderer)
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 and fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1, (
            t.get_text(), box, fig.bbox)
        assert box.y1 <= xaxis.y0, (t.get_text(), box, xaxis)  # below the tick labels and "trial t"
    # the top row (graph and BST) keeps its height: the legend takes it from the bottom row
    assert fig.axes[0].get_window_extent(renderer).y0 > panel.y1
    return [t.get_text() for t in legend.get_texts()]


def test_with_all_learners_the_mistake_legend_lies_under_a_panel_of_the_figures_width():
    # karate club, all 8 learners, 40 random trials: the legend right of the panel took half the figure's
    # width and four curves ran together between 15 and 22 mistakes in a 260 px wide box
    app = PlaygroundApp("karate club", adversary="random", seed=0, play_steps=40)
    app.play()
    texts = _legend_under_a_wide_panel(app)
    assert len(texts) == len(app.game.names) == 8
    # the longest entry, on two lines so that two columns fit
    assert any(t.replace("\n", " ") == "r-norm Perceptron (= AlwaysSimilar) (bound 1.59e+07, off the chart)"
               for t in texts), texts
    # curves equal on a stretch only are named with it (here BST Perceptron's first trials are AlwaysSimilar's)
    assert any(re.match(r"BST Perceptron \(= AlwaysSimilar on trials 1–\d+\)", t) for t in texts), texts


def test_a_long_adaptive_play_keeps_every_legend_entry_inside_the_figure():
    # barbell, adaptive adversary against union-find, all learners, 2000 trials: with one entry per
    # drawn bound the legend had 13 entries and the last (the r-norm Perceptron's bound 866, drawn)
    # fell below the figure.  Now each drawn bound is named in its learner's entry
    app = PlaygroundApp("barbell", adversary="adaptive", play_steps=2000)
    app.target.value = "UnionFindLearner"
    app.play()
    texts = _legend_under_a_wide_panel(app)
    assert len(texts) == len(app.game.names)
    ax = app.figure().axes[-1]
    bounds = app.game.bounds()
    drawn = _dashed_levels(ax)
    # 16, 49, 51.3, 61.6 and 866.0 (the BST Perceptron's 6400 is off the chart)
    assert len(drawn) == 5 and round(drawn[-1]) == 866
    for name, b in bounds.items():
        entry = next(t for t in texts if t.startswith(name))
        if b in drawn:  # a whole number from 10 to 9999 is shown without decimals
            assert f"(bound {b:.0f}, dashed)" in entry, entry
        else:
            assert "off the chart" in entry, entry


def test_one_curve_far_above_the_others_gets_a_symlog_axis():
    # after 2000 adaptive trials AlwaysSimilar's 1093 mistakes squeezed the 7 other curves (at most 66)
    # and 4 bounds (16..62) into the bottom 6 % of a linear axis
    app = PlaygroundApp("barbell", adversary="adaptive", play_steps=2000)
    app.target.value = "UnionFindLearner"
    app.play()
    ax = app.figure().axes[-1]
    assert ax.get_yscale() == "symlog" and "symlog" in ax.get_ylabel()
    # curves of similar heights keep a linear axis
    app = PlaygroundApp("karate club", adversary="random-walk path", play_steps=130)
    app.play()
    ax = app.figure().axes[-1]
    assert ax.get_yscale() == "linear" and ax.get_ylabel() == "cumulative mistakes"


@pytest.mark.parametrize(("graph", "adversary", "steps", "squeezer"), [
    ("karate club", "random-walk path", 130, "Matrix Winnow"),  # its bound 316 against a top curve of 82
    ("planted partition", "random", 300, "Matrix Winnow"),  # 510 against 205
])
def test_a_bound_above_one_and_a_half_times_the_top_curve_is_named_not_drawn(graph, adversary, steps, squeezer):
    app = PlaygroundApp(graph, adversary=adversary, play_steps=steps)
    app.play()
    top = max(app.game.mistakes.values())
    bound = app.game.bounds()[squeezer]
    assert WIDGET_BOUND_FACTOR * top < bound <= 4 * top  # drawn by the static charts' rule, not by the widget's
    ax = app.figure().axes[-1]
    assert bound not in _dashed_levels(ax)
    assert any(t.startswith(squeezer) and "off the chart" in t for t in _legend_texts(app))
    assert top >= ax.get_ylim()[1] / WIDGET_BOUND_FACTOR  # the curves keep at least 2/3 of the height


def test_union_finds_bound_is_drawn_once_the_curves_come_near_it():
    # exercise 1's game: 20 adaptive trials against union-find, whose bound n - K = 16 it reaches
    app = PlaygroundApp("barbell", adversary="adaptive", play_steps=20)
    app.target.value = "UnionFindLearner"
    app.play()
    bound = app.game.bounds()["UnionFindLearner"]
    assert bound == 16 and max(app.game.mistakes.values()) * WIDGET_BOUND_FACTOR >= bound
    assert bound in _dashed_levels(app.figure().axes[-1])
    assert "UnionFindLearner (bound 16, dashed)" in _legend_texts(app)


def test_with_no_learner_the_target_is_disabled_and_the_counter_says_so():
    app = PlaygroundApp("karate club", ["UnionFindLearner", "Matrix Winnow"], "adaptive")
    assert not app.target.disabled
    app.learners.value = ()
    assert app.status_text == "Choose at least one learner."
    assert app.target.disabled and app.step_button.disabled and app.play_button.disabled
    assert app.counter_text == "No learner playing."
    app.learners.value = ("Matrix Winnow",)
    assert not app.target.disabled and app.target.value == "Matrix Winnow"
    assert app.counter_text.startswith("trials: 0")


@pytest.mark.parametrize("adversary, steps", [("random", 300), ("adaptive", 2000)])
def test_close_bounds_on_the_symlog_panel_keep_their_markers_and_values_apart(adversary, steps):
    # the barbell with every learner: AlwaysSimilar switches the symlog axis on and the bounds of Matrix
    # Perceptron (49) and Matrix Winnow (51) lie almost on one line; their end markers covered each other
    # and their values crowded together, so the two dashed lines could not be told apart
    app = PlaygroundApp("barbell", None, adversary, seed=0, play_steps=steps)
    app.play()
    fig = app.figure()
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[-1]
    assert ax.get_yscale() == "symlog"
    marks = [line for line in ax.get_lines() if line.get_linestyle() == "None" and not line.get_clip_on()]
    colours = learner_colors(app.game.results())
    mine = {to_rgba(colours["Matrix Perceptron"]), to_rgba(colours["Matrix Winnow"])}
    assert mine <= {to_rgba(line.get_color()) for line in marks}
    boxes = [line.get_window_extent(renderer) for line in marks] + [t.get_window_extent(renderer) for t in ax.texts]
    assert {t.get_text() for t in ax.texts} >= {"49", "51"}
    assert not any(a.overlaps(b) for k, a in enumerate(boxes) for b in boxes[k + 1:])
    assert all(fig.bbox.x0 <= b.x0 and b.x1 <= fig.bbox.x1 for b in boxes)
