"""The playground's mistake panel: a bound far above the curves is named, not drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from matplotlib.colors import to_rgba  # noqa: E402

from simpred_lite.apps import PlaygroundApp  # noqa: E402
from simpred_lite.viz.style import learner_colors  # noqa: E402


def test_only_huge_bounds_leave_the_curves_the_height_of_the_panel():
    # the BST Perceptron's bound (1.44e4 on the karate club) against 30 adaptive trials: drawing it
    # would put both curves flat on the floor of an axis running to 14 000
    app = PlaygroundApp("karate club", ["AlwaysSimilar", "BST Perceptron"], "adaptive", play_steps=30)
    app.target.value = "BST Perceptron"
    app.play()
    ax = app.figure().axes[-1]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["AlwaysSimilar", "BST Perceptron (bound 1.44e+04, off the chart)"]
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
    assert any(t.startswith("Similarity from class (bound") and "off the chart" in t for t in texts), texts
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
