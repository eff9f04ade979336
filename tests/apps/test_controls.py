"""The apps' input boxes refuse a bad value with a sentence, from Python and from the browser."""

from __future__ import annotations

import pytest

from simpred_lite.apps import CheckedDropdown, CheckedIntText, PlaygroundApp


def test_python_setters_raise_and_the_app_says_why():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], seed=3)
    app.step_button.click()
    game = app.game
    with pytest.raises(ValueError, match=r"seed must lie in 0..1000000, got 99999999999; the box keeps 3"):
        app.seed.value = 99999999999
    assert app.seed.value == 3 and app.game is game  # not clamped, game untouched
    assert app.status_text.startswith("Not changed: seed must lie in 0..1000000")
    with pytest.raises(ValueError, match=r"steps must lie in 1..2000, got 0; the box keeps 20"):
        app.play_steps.value = 0
    with pytest.raises(ValueError, match=r"adversary must be one of \[.*'random'.*\], got 'randon'"):
        app.adversary.value = "randon"
    assert app.adversary.value == "random" and app.game is game
    app.seed.value = 4  # a valid value still works: a new game
    assert app.game is not game


def test_a_value_typed_in_the_browser_is_refused_with_a_sentence_not_clamped():
    app = PlaygroundApp("barbell", ["AlwaysSimilar"], seed=3)
    app.step_button.click()
    game, sent = app.game, []
    app.seed.send_state = lambda key=None: sent.append(app.seed.value)
    app.seed.set_state({"value": 99999999999})  # what the browser sends when the student types it
    assert app.seed.value == 3 and sent == [3]  # the box goes back to 3 in the browser too
    assert app.game is game and len(game.history) == 1  # the game is not restarted
    assert "seed must lie in 0..1000000, got 99999999999" in app.status_text


def test_controls_alone():
    seen = []
    box = CheckedIntText(low=0, high=5, value=2, description="n", on_invalid=seen.append)
    box.value = 5
    with pytest.raises(ValueError, match="n must lie in 0..5, got 6; the box keeps 5"):
        box.value = 6
    assert seen == ["n must lie in 0..5, got 6; the box keeps 5"]
    d = CheckedDropdown(options=[1, 2], value=1, description="k")
    with pytest.raises(ValueError, match=r"k must be one of \[1, 2\], got 3"):
        d.value = 3
    d.value = 2
    assert d.index == 1


def test_a_non_integer_typed_in_the_browser_is_refused_not_mangled():
    seen, sent = [], []
    box = CheckedIntText(low=0, high=100, value=3, description="seed", on_invalid=seen.append)
    box.send_state = lambda key=None: sent.append(box.value)
    box.set_state({"value": "2.5"})  # the browser sends the text as typed
    assert box.value == 3 and sent == [3], "a non-integer leaves the box at its previous value, in the browser too"
    assert seen == ["seed must be a whole number in 0..100, got '2.5'; the box keeps 3"], \
        "the refusal says that a whole number is needed and what the box keeps"
    box.set_state({"value": " 25 "})
    assert box.value == 25 and isinstance(box.value, int), "a whole number typed in the browser is taken as an int"
    box.set_state({"value": "101"})
    assert box.value == 25 and "must lie in 0..100, got 101" in seen[-1], "a number out of range is refused"
    for bad in (2.5, True, "7"):
        with pytest.raises(ValueError, match="seed must be a whole number in 0..100"):
            box.value = bad  # from Python only an integer is a value
    assert box.value == 25, "a refused value from Python leaves the box unchanged"
