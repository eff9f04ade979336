"""A long Play: progress, Stop mid-run, controls disabled while it runs and back after (also on error).

A click in the browser plays in a background thread (the kernel stays free to read Stop);
``play_button.click()`` from Python plays synchronously.  ``game.step`` is wrapped so that
the Stop click and the failure happen at a chosen trial: nothing here depends on timing.
"""

from __future__ import annotations

import pytest

from simpred_lite.apps import PlaygroundApp

BROWSER_CLICK = {"event": "click"}  # what the front end sends when the student clicks a button


def controls(app):
    return {"graph": app.graph, "learners": app.learners, "adversary": app.adversary, "seed": app.seed,
            "steps": app.play_steps, "Step": app.step_button, "Play": app.play_button, "Reset": app.reset_button,
            "vertex i": app.i, "vertex j": app.j, "target": app.target}


def wrap_step(app, at, action):
    """Make ``app.game.step`` call ``action(app, seen)`` just before trial number ``at`` (1-based)."""
    step, seen = app.game.step, {"calls": 0}

    def wrapped(*args, **kwargs):
        seen["calls"] += 1
        if seen["calls"] == at:
            action(app, seen)
        return step(*args, **kwargs)

    app.game.step = wrapped
    return seen


def press_stop(app, seen):
    seen["disabled while playing"] = {name: w.disabled for name, w in controls(app).items()}
    seen["stop enabled"] = not app.stop_button.disabled
    seen["progress"] = (app.progress_box.layout.display, app.progress.description)
    seen["status"] = app.status_text
    app.stop_button.click()


def test_a_browser_click_on_play_runs_in_the_background_and_stop_works_mid_run():
    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], "random", play_steps=50)
    assert app.stop_button.disabled and app.progress_box.layout.display == "none"
    seen = wrap_step(app, 6, press_stop)
    app.play_button._handle_button_msg(None, BROWSER_CLICK, [])
    assert app._worker is not None
    app._worker.join(timeout=120)
    assert not app._worker.is_alive(), "the Play thread did not end"
    assert all(seen["disabled while playing"].values()), f"a control was enabled while playing: {seen}"
    assert seen["stop enabled"] and seen["progress"][0] == ""
    assert seen["status"] == "Playing 50 trials: press Stop to end after the current trial.", \
        "while Step and Play are greyed out the status line must not ask for them"
    assert seen["progress"][1].startswith("trial ") and seen["progress"][1].endswith(" of 50")
    assert len(app.game.history) == 6, "Stop (pressed during trial 6) must end the Play before trial 7"
    assert "Played 6 trials." in app.status_text and "Stopped by you after 6 of 50 trials." in app.status_text
    assert app.counter_text.startswith("trials: 6 |") and app.progress.description == "trial 6 of 50"
    assert not app.busy and app.stop_button.disabled and app.progress_box.layout.display == "none"
    back = {name: w.disabled for name, w in controls(app).items()}
    assert back == {**{name: False for name in back}, "vertex i": True, "vertex j": True, "target": True}
    assert app.out.outputs, "the figure is drawn when the Play ends"


def test_the_controls_come_back_when_a_trial_fails_and_the_error_is_shown():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "random", play_steps=30)

    def fail(app, seen):
        raise RuntimeError("a learner crashed")

    wrap_step(app, 4, fail)
    thread = app.play_in_background()
    thread.join(timeout=120)
    assert "Play failed after 3 trials" in app.status_text and "a learner crashed" in app.status_text
    assert not app.busy and not app.play_button.disabled and not app.graph.disabled and app.stop_button.disabled


def test_a_click_from_python_plays_synchronously_and_is_refused_while_busy():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "random", play_steps=12)
    app.play_button.click()  # a notebook cell: the result is there when the call returns
    assert len(app.game.history) == 12 and app.progress.description == "trial 12 of 12"
    assert app.status_text.startswith("Played 12 trials.") and app._worker is None

    def while_busy(app, seen):
        seen["play"] = app.play()
        seen["step"] = app.step()
        seen["again"] = app.play_in_background()
        app.seed.value = 5  # a setting changed from Python while playing does not restart the game
        seen["game"] = app.game

    app.reset_button.click()
    seen = wrap_step(app, 2, while_busy)
    app.play_in_background().join(timeout=120)
    assert seen["play"] == [] and seen["step"] is None and seen["again"] is None and seen["game"] is app.game
    assert len(app.game.history) == 12


def test_the_student_adversary_cannot_autoplay_from_either_path():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "student")
    assert app.play_in_background() is None and app.play() == [] and not app.busy
    assert "The student adversary is you" in app.status_text


@pytest.mark.parametrize("steps", [1, 3])
def test_progress_ends_at_the_trials_played(steps):
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "random", play_steps=steps)
    app.play_in_background().join(timeout=120)
    assert app.progress.value == steps == app.progress.max and app.progress.description == f"trial {steps} of {steps}"


def test_a_valid_number_of_steps_clears_an_earlier_refusal():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "random", play_steps=20)
    with pytest.raises(ValueError, match="steps must be a whole number"):
        app.play_steps.value = "x"
    assert app.status_text.startswith("Not changed: steps must be a whole number")
    app.play_steps.value = 10
    assert "Not changed" not in app.status_text
    assert app.status_text == "Play will run 10 trials."
    app.play_button.click()
    assert len(app.game.history) == 10


def test_the_adversary_menu_lists_the_shortest_path_adversary_once():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "path-revealing")
    assert "path-revealing" not in app.adversary.options and "shortest path" in app.adversary.options
    assert app.adversary.value == "shortest path"
    assert app.game.adversary.name in ("shortest path", "path-revealing")


def test_settings_changed_from_code_during_a_background_play_are_put_back_and_said_so():
    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], "random", seed=0, play_steps=10)

    def change_settings(app, seen):
        app.seed.value = 5
        app.graph.value = "grid"
        app.seed.value = 7  # named once in the status
        seen["seed"], seen["graph"], seen["game"] = app.seed.value, app.graph.value, app.game

    seen = wrap_step(app, 3, change_settings)
    game = app.game
    app.play_in_background().join(timeout=120)
    assert seen["seed"] == 0 and seen["graph"] == "barbell" and seen["game"] is game
    assert app.game is game and len(app.game.history) == 10 and app.game.seed == 0
    assert app.seed.value == 0 and app.graph.value == "barbell"
    assert app.status_text.startswith("Played 10 trials.")
    assert "Not changed while playing: seed, graph (put back;" in app.status_text
    app.seed.value = 5  # after the Play a change applies again: a fresh game with the new seed
    assert app.game is not game and app.game.seed == 5 and not app.game.history
    assert "Not changed" not in app.status_text


def test_a_setting_changed_while_the_last_figure_is_drawn_is_said_in_that_plays_status():
    # the final status of a background Play is written, then its figure drawn, while the Play is
    # still busy: a setting changed from code during that drawing is put back, and the same
    # Play's status must say so (not the status of the next Play)
    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], "random", seed=0, play_steps=10)
    render, seen = app._render, {}

    def render_and_change():
        render()
        if app.busy and app.status_text.startswith("Played") and "graph" not in seen:
            app.graph.value = "grid"
            seen["graph"] = app.graph.value

    app._render = render_and_change
    game = app.game
    app.play_in_background().join(timeout=120)
    assert seen["graph"] == "barbell" and app.graph.value == "barbell" and app.game is game
    assert not app.busy
    assert app.status_text.startswith("Played 10 trials.")
    assert "Not changed while playing: graph (put back;" in app.status_text
    app._render = render
    app.play_button.click()  # the next Play says nothing about the earlier change
    assert app.status_text.startswith("Played 10 trials.") and "Not changed" not in app.status_text


def test_one_trial_is_counted_in_the_singular():
    # a Stop right after the first trial, or steps set to 1, said "1 trials"
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], "random", play_steps=20)
    with pytest.raises(ValueError):
        app.play_steps.value = "x"
    app.play_steps.value = 1  # replaces the refusal by the announcement
    assert app.status_text == "Play will run 1 trial."
    app.play_button.click()
    assert app.status_text.startswith("Played 1 trial. ")
    app.play_steps.value = 2
    app.play_button.click()
    assert app.status_text.startswith("Played 2 trials. ")


def test_step_is_greyed_out_with_play_when_the_adaptive_target_has_retired():
    # a reviewer's game: the target Similarity from class retires at trial 5; Step then only printed the refusal
    app = PlaygroundApp("planted partition", ["Similarity from class", "UnionFindLearner"], "adaptive", seed=0,
                        play_steps=100)
    app.target.value = "Similarity from class"
    app.play_button.click()
    assert "Similarity from class" in app.game.retired
    assert app.play_button.disabled and app.step_button.disabled
    assert app.step_button.tooltip.startswith("Step is off: the adaptive adversary's target")
    app.target.value = "UnionFindLearner"  # another target: a fresh game, both buttons back
    assert not app.play_button.disabled and not app.step_button.disabled
    assert app.step_button.tooltip == "play one trial"
    # the student adversary keeps Step (the student's pair) and greys out Play
    app.adversary.value = "student"
    assert app.play_button.disabled and not app.step_button.disabled
