"""The SimilarityGame widget of notebook 00, driven without a browser."""

import pytest

from simpred_lite.apps import SimilarityGame
from simpred_lite.graphs import karate_club
from simpred_lite.learners import AlwaysSimilar, UnionFindLearner


@pytest.fixture
def game():
    G, y = karate_club()
    return SimilarityGame(G, y, UnionFindLearner(34))


def _png_count(game):
    return sum("image/png" in o.get("data", {}) for o in game.out.outputs)


def test_predict_then_reveal_updates_learner_history_and_figure(game):
    assert _png_count(game) == 1
    game.i.value, game.j.value = 0, 1
    game.predict_button.click()
    assert "predicts (0, 1) DISSIMILAR" in game.status_text
    assert game.learner.trials == 0  # predicting does not teach the learner
    game.reveal_button.click()
    assert game.history == [{"i": 0, "j": 1, "prediction": 1, "truth": 0}]
    assert game.learner.mistakes == 1 and "MISTAKE" in game.status_text
    assert _png_count(game) == 1  # the figure is replaced, not appended


def test_reveal_requires_a_prediction_for_the_current_pair(game):
    game.i.value, game.j.value = 0, 1
    game.predict_button.click()
    game.j.value = 2  # the student changed the pair after predicting
    assert game.reveal() is None
    assert "Predict" in game.status_text and game.history == []


def test_same_vertex_twice_is_refused_politely(game):
    game.i.value, game.j.value = 5, 5
    assert game.predict() is None
    assert "different" in game.status_text


def test_a_bad_vertex_is_refused_with_a_short_sentence(game):
    game.i.value = 4
    with pytest.raises(ValueError):
        game.i.value = "a"
    assert game.i.value == 4, "a refused vertex must leave the choice"
    assert "vertex i must be a vertex number 0..33, got 'a'" in game.status_text, \
        "the refusal should say which vertex numbers are allowed"
    assert "[" not in game.status_text, "the refusal should not list all 34 vertices"


def test_learner_size_must_match_graph():
    G, y = karate_club()
    with pytest.raises(ValueError, match="34"):
        SimilarityGame(G, y, AlwaysSimilar(10))


def test_repr_is_short_and_deterministic(game):
    bundle = game._repr_mimebundle_()
    assert bundle["text/plain"].startswith("SimilarityGame: UnionFindLearner on 34 vertices")
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_changing_the_pair_after_predict_clears_the_stale_prediction(game):
    game.i.value, game.j.value = 0, 1
    game.predict_button.click()
    game.j.value = 2
    assert "predicts" not in game.status_text, "the status line still shows the old pair's prediction"
    assert "(0, 2)" in game.status_text and "Predict" in game.status_text


def test_new_game_restores_a_fresh_learner_and_empty_history(game):
    game.i.value, game.j.value = 0, 1
    game.predict_button.click()
    game.reveal_button.click()
    assert game.learner.mistakes == 1
    game.restart_button.click()
    assert game.history == [] and game.learner.mistakes == 0 and game.learner.trials == 0
    game.predict_button.click()
    assert "predicts (0, 1) DISSIMILAR" in game.status_text, "a fresh learner knows nothing about (0, 1)"
    assert not game.predict_button.disabled and game.busy.value == "", "the busy state is cleared after drawing"


def test_bound_is_a_dashed_labelled_line_in_the_mistake_panel():
    G, y = karate_club()
    fig = SimilarityGame(G, y, UnionFindLearner(34), bound=32).figure()
    ax_m = fig.axes[1]
    dashed = [line for line in ax_m.get_lines() if line.get_linestyle() == "--"]
    assert [line.get_label() for line in dashed] == ["bound of UnionFindLearner: 32"]
    assert list(dashed[0].get_ydata()) == [32, 32]
    assert ax_m.get_ylim()[1] > 32, "the bound must lie inside the panel"
    labels = [t.get_text() for t in ax_m.get_legend().get_texts()]
    assert "bound of UnionFindLearner: 32" in labels
    plain = SimilarityGame(G, y, UnionFindLearner(34)).figure()
    assert not [line for line in plain.axes[1].get_lines() if line.get_linestyle() == "--"]


def _png(game):
    return next(o["data"]["image/png"] for o in game.out.outputs if "image/png" in o.get("data", {}))


def test_one_trial_is_singular_and_a_vertex_change_does_not_redraw(game):
    game.i.value, game.j.value = 0, 1
    game.predict_button.click()
    game.reveal_button.click()
    assert "Mistakes: 1 in 1 trial." in game.status_text, "one revealed trial is '1 trial', not '1 trials'"
    shown = _png(game)
    game.j.value = 2
    assert _png(game) == shown, "changing a vertex should not redraw the figure (it is redrawn on Predict)"
    game.predict_button.click()
    assert _png(game) != shown, "Predict should redraw the figure with the new pair circled"
    game.reveal_button.click()
    assert "in 2 trials." in game.status_text, "two revealed trials are '2 trials'"
