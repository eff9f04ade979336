"""The apps' input boxes refuse a bad value with a sentence, from Python and from the browser."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

from simpred_lite.apps import CheckedDropdown, PlaygroundApp, WholeNumberText


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
    box = WholeNumberText(low=0, high=5, value=2, description="n", on_invalid=seen.append)
    assert box.value == 2 and type(box.value) is int
    box.value = np.int64(5)
    assert box.value == 5 and type(box.value) is int
    with pytest.raises(ValueError, match="n must lie in 0..5, got 6; the box keeps 5"):
        box.value = 6
    assert seen == ["n must lie in 0..5, got 6; the box keeps 5"]
    for odd in (3.5, True, "3.0", "", "1e1", "three", None):  # refused, not truncated or cast
        with pytest.raises(ValueError, match=re.escape(f"n must be a whole number in 0..5, got {str(odd)!r}")):
            box.value = odd
        assert box.value == 5
    assert seen[-1].startswith("n must be a whole number in 0..5, got 'None'") and seen[-1].endswith("the box keeps 5")
    box.value = " 3 "  # the text of a whole number, as the browser sends it
    assert box.value == 3 and box.get_state("value") == {"value": "3"}  # the page gets text


@pytest.mark.parametrize("typed", ["2.5", "25.", "1e3", "", "ten", "-1", "6", "99999999999"])
def test_a_typed_value_is_refused_and_the_box_goes_back_in_the_browser(typed):
    seen, sent = [], []
    box = WholeNumberText(low=0, high=5, value=2, description="n", on_invalid=seen.append)
    box.send_state = lambda key=None: sent.append(box.get_state(key))
    box.set_state({"value": typed})  # what the browser sends when the student presses Enter
    assert box.value == 2 and sent == [{"value": "2"}], "the box should go back to 2 in the browser too"
    assert len(seen) == 1 and seen[0].startswith("n must") and seen[0].endswith("the box keeps 2")
    box.set_state({"value": " 4"})
    assert box.value == 4 and sent[-1] == {"value": "4"} and len(seen) == 1


    d = CheckedDropdown(options=[1, 2], value=1, description="k")
    with pytest.raises(ValueError, match=r"k must be one of \[1, 2\], got 3"):
        d.value = 3
    d.value = 2
    assert d.index == 1


def test_a_short_options_text_replaces_the_list_in_the_refusal():
    seen = []
    d = CheckedDropdown(options=list(range(34)), value=3, description="vertex i",
                        options_text="a vertex number 0..33", on_invalid=seen.append)
    with pytest.raises(ValueError, match=r"^vertex i must be a vertex number 0\.\.33, got 'a'; the choice stays 3$"):
        d.value = "a"
    with pytest.raises(ValueError, match=r"^vertex i must be a vertex number 0\.\.33, got None; the choice stays 3$"):
        d.value = None
    assert d.value == 3, "a refused None must leave the choice"
    assert seen[-1] == "vertex i must be a vertex number 0..33, got None; the choice stays 3", \
        "the None refusal should use the short description too"
    assert all("[" not in m for m in seen), "with options_text the refusal must not list the options"
    d.value = 7
    assert d.value == 7, "a valid vertex must still be taken"


def test_a_boolean_is_not_taken_for_the_vertex_it_equals():
    seen = []
    d = CheckedDropdown(options=[0, 1, 2], value=2, description="vertex i", on_invalid=seen.append)
    with pytest.raises(ValueError, match=r"vertex i must be one of \[0, 1, 2\], got True; the choice stays 2"):
        d.value = True
    assert d.value == 2 and len(seen) == 1, "a refused boolean must leave the choice and say why once"
    d.value = 1
    assert d.value == 1 and type(d.value) is int, "a whole number among the options must still be taken"
    flags = CheckedDropdown(options=[False, True], value=False, description="flag")
    flags.value = True
    assert flags.value is True, "where the options are booleans, a boolean is a valid choice"


def test_an_unknown_learner_set_from_code_is_refused_with_a_sentence():
    # SelectMultiple alone answers with traitlets' bare "Invalid selection: value not found"
    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], seed=3)
    app.step_button.click()
    game = app.game
    chosen = app.learners.value
    with pytest.raises(ValueError, match=r"^learners must each be one of \[.*'UnionFindLearner'.*\], got 'Foo'; "
                                         r"the choice stays \('AlwaysSimilar', 'UnionFindLearner'\)$"):
        app.learners.value = ("UnionFindLearner", "Foo")
    assert app.learners.value == chosen and app.game is game, "a refused learner must leave the game as it is"
    assert app.status_text.startswith("Not changed: learners must each be one of"), app.status_text
    for bad in ("UnionFindLearner", None, 3):  # a name alone is not read letter by letter
        with pytest.raises(ValueError, match=r"^learners takes a tuple of options, e\.g\. \('.*',\), got "):
            app.learners.value = bad
        assert app.learners.value == chosen
    app.learners.value = ["UnionFindLearner"]  # a valid list still works: a tuple, a new game
    assert app.learners.value == ("UnionFindLearner",) and app.game is not game


def test_the_multiple_choice_keeps_its_options_objects():
    from simpred_lite.apps import CheckedSelectMultiple

    s = CheckedSelectMultiple(options=[1, 2, 3], value=(1,), description="k")
    s.value = [np.int64(3), 2]
    assert s.value == (3, 2) and type(s.value[0]) is int and s.index == (2, 1)
    s.index = (0,)  # what the browser sends
    assert s.value == (1,)


def test_a_target_set_from_code_for_an_adversary_without_one_says_so_and_keeps_the_game():
    # greyed out in the browser; from code it was taken silently and restarted the game for nothing
    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], adversary="random", seed=3)
    app.step_button.click()
    game = app.game
    app.target.value = "UnionFindLearner"
    assert app.game is game and len(game.history) == 1, "the random game must go on"
    assert "does not use one" in app.status_text and "UnionFindLearner" in app.status_text, app.status_text
    app.adversary.value = "adaptive"  # the kept target is the adaptive adversary's
    assert app.game is not game and app.game.adversary.target == "UnionFindLearner"


def test_a_learner_listed_twice_from_code_is_refused_and_the_controls_keep_the_game():
    # the controls showed ('AlwaysSimilar', 'AlwaysSimilar') and target AlwaysSimilar while the game kept its learners
    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], adversary="adaptive", seed=3)
    app.target.value = "UnionFindLearner"
    game = app.game
    with pytest.raises(ValueError, match=r"^learners lists 'AlwaysSimilar' twice: choose each once; the choice stays "
                                         r"\('AlwaysSimilar', 'UnionFindLearner'\)$"):
        app.learners.value = ("AlwaysSimilar", "AlwaysSimilar")
    assert app.learners.value == ("AlwaysSimilar", "UnionFindLearner") and app.game is game
    assert app.target.options == ("AlwaysSimilar", "UnionFindLearner") and app.target.value == "UnionFindLearner"
    assert "twice" in app.status_text, app.status_text


def test_the_widget_legend_names_curves_equal_on_a_stretch_only():
    # equal on trials 1-19 only: the later curve hid the earlier with nothing said (the static figure has a box)
    app = PlaygroundApp("planted partition", ["AlwaysSimilar", "UnionFindLearner", "BST Perceptron", "Matrix Winnow"],
                        adversary="random", seed=0, play_steps=20)
    app.play_button.click()
    while app.busy:  # a Play of more than a few trials runs in a thread
        time.sleep(0.05)
    fig = app.figure()
    texts = [t.get_text() for t in fig.legends[0].get_texts()] if fig.legends else \
        [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    from simpred_lite.viz import equal_stretches

    stretches = equal_stretches({n: r.cumulative for n, r in app.game.results().items()})
    assert stretches, "this game should have curves equal on a stretch (the case the legend must name)"
    for _, _, same in stretches:
        for name in same[1:]:
            assert any(t.startswith(name) and "(= " in t for t in texts), (name, texts)
