"""The status line after a refused Step of the student adversary follows the pair chosen next.

A refused pair (i = j) gives a sentence that names the pair; once the student picks a valid
vertex, that sentence is false and must not stay (nor come back when a refused entry's note
is cleared).
"""

from __future__ import annotations

import pytest

from simpred_lite.apps import PlaygroundApp


def refused_step():
    app = PlaygroundApp("grid", adversary="student", seed=0)
    app.i.value, app.j.value = 5, 5
    app.step_button.click()
    assert "got i == j == 5" in app.status_text and not app.game.history
    return app


def test_a_valid_i_after_a_refused_step_replaces_the_refusal_by_the_next_pair():
    app = refused_step()
    app.i.value = 3
    assert "i == j" not in app.status_text
    assert app.status_text == "Next pair (3, 5): press Step."
    app.j.value = 3  # the line follows every change while it is about the pair
    assert app.status_text.startswith("Next pair (3, 3): a pair needs two distinct vertices")
    app.j.value = 7
    assert app.status_text == "Next pair (3, 7): press Step."
    app.step_button.click()
    assert app.status_text.startswith("Trial 1: pair (3, 7)") and len(app.game.history) == 1


def test_the_stale_refusal_does_not_come_back_after_a_refused_entry():
    app = refused_step()
    with pytest.raises(ValueError):
        app.i.value = "a"
    assert app.status_text.startswith("Not changed: vertex i")
    app.i.value = 3
    assert app.status_text == "Next pair (3, 5): press Step."


def test_after_a_played_trial_changing_the_pair_keeps_the_trials_line():
    app = PlaygroundApp("grid", adversary="student", seed=0)
    app.i.value, app.j.value = 1, 2
    app.step_button.click()
    line = app.status_text
    assert line.startswith("Trial 1: pair (1, 2)")
    app.i.value = 4
    assert app.status_text == line
