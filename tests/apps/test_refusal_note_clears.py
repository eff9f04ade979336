"""A refusal note ("Not changed: …") goes at the app's next successful action.

When a control refuses a value (a dropdown set to ``None``, a box given ``2.5``), the app shows
a sentence on its status line.  Re-selecting the value already chosen sends nothing to the
kernel, so the note must (a) say that it is about the refused entry and (b) go at the next
successful action of the app: any valid change of any control, any button press.  The
widgets are driven from code as the browser drives them (``set_state`` under ipywidgets'
property lock) and from Python.
"""

from __future__ import annotations

import ipywidgets as W
import pytest
from test_accessible_names import _apps, _walk  # the same apps, built the same way (tests/apps is on sys.path)

from simpred_lite.apps.controls import REFUSAL_NOTE_END, CheckedDropdown, WholeNumberText

DISPLAY_ONLY = (W.HTML, W.HTMLMath, W.Label, W.IntProgress, W.FloatProgress)


def _refusing(app) -> list:
    """The controls of ``app`` that refuse with a sentence (and can be changed by the student)."""
    return [w for w in _walk(app.widget) if isinstance(w, (CheckedDropdown, WholeNumberText))
            and not w.disabled and (not isinstance(w, CheckedDropdown) or len(w.options) > 1)]


def _refuse(control) -> None:
    """A refused entry, as the browser sends it: no choice (index None) or a typed 2.5."""
    if isinstance(control, CheckedDropdown):
        control.set_state({"index": None})
    else:
        control.set_state({"value": "2.5"})


def _shows_note(app) -> bool:
    return "Not changed:" in app.status.value


def _another_value(w):
    """A valid value of control ``w`` other than its current one (None if it has none)."""
    if isinstance(w, WholeNumberText):
        return w.value + 1 if w.value < w._high else w.value - 1
    if isinstance(w, W.SelectMultiple):
        return tuple(w.options[:1]) if tuple(w.value) != tuple(w.options[:1]) else tuple(w.options[:2])
    if isinstance(w, (W.Dropdown, W.ToggleButtons, W.Select, W.RadioButtons)):
        values = [o[1] if isinstance(o, tuple) else o for o in w.options]
        return next((v for v in values if v != w.value), None)
    if isinstance(w, W.ToggleButton):
        return not w.value
    if isinstance(w, W.Text):
        return "0-1" if w.value != "0-1" else "1-2"
    return None


def _actions(app) -> list[tuple[str, object]]:
    """Every successful action a student can take now: a valid change of a control, a button press."""
    actions: list[tuple[str, object]] = []
    for w in _walk(app.widget):
        if getattr(w, "disabled", False) or getattr(getattr(w, "layout", None), "visibility", None) == "hidden":
            continue
        if isinstance(w, W.Button):
            actions.append((f"press {w.description!r}", w))
        elif isinstance(w, W.ValueWidget) and not isinstance(w, DISPLAY_ONLY) and _another_value(w) is not None:
            actions.append((f"change {w.description or type(w).__name__!r}", w))
    return actions


def _do(w) -> None:
    if isinstance(w, W.Button):
        w.click()
    else:
        w.value = _another_value(w)


APPS = sorted(name for name in _apps() if name not in ("MergeSortLearnerApp", "PathForestExplorer"))


def test_every_app_with_a_refusing_control_is_covered():
    for name, make in _apps().items():
        if name not in APPS:
            assert not _refusing(make()), f"{name} has a refusing control: add it to APPS"


@pytest.mark.parametrize("name", APPS)
def test_the_refusal_note_says_it_is_about_the_refused_entry(name):
    app = _apps()[name]()
    for control in _refusing(app):
        _refuse(control)
        assert _shows_note(app), f"{name}: refusing {control.description} should show a note on the status line"
        assert REFUSAL_NOTE_END.strip(" ()") in app.status.value.replace("</br>", ""), (
            f"{name}: the note for {control.description} should say it is about the refused entry")


@pytest.mark.parametrize("name", APPS)
def test_the_refusal_note_goes_at_the_next_successful_action(name):
    app = _apps()[name]()
    refusing = _refusing(app)
    assert refusing, f"{name} should have a control that refuses a value"
    for label, w in _actions(app):
        for control in refusing:
            if control.disabled:
                continue
            _refuse(control)
            assert _shows_note(app), f"{name}: refusing {control.description} should show a note"
            _do(w)
            assert not _shows_note(app), (
                f"{name}: after refusing {control.description}, {label} should clear the refusal note; "
                f"the status still reads {app.status.value[:300]!r}")


@pytest.mark.parametrize("name", APPS)
def test_a_refusal_from_python_is_cleared_by_a_valid_value_of_the_same_control(name):
    app = _apps()[name]()
    for control in _refusing(app):
        with pytest.raises(ValueError, match="must"):
            control.value = "not a choice" if isinstance(control, CheckedDropdown) else 2.5
        assert _shows_note(app), f"{name}: a refused {control.description} should be explained on the status line"
        _do(control)
        assert not _shows_note(app), (
            f"{name}: a valid {control.description} after a refusal should clear the note; "
            f"the status still reads {app.status.value[:300]!r}")


def test_a_note_inside_a_longer_status_is_cut_out_and_the_status_before_comes_back():
    """The helpers alone: a note alone is replaced by the status before it; several refusals in a row too."""
    from simpred_lite.apps.controls import clear_refusal, refusal_note, show_refusal

    class App:
        status = W.HTML("Stage 2 of 5.")

    app = App()
    show_refusal(app, refusal_note("seed must lie in 0..10"))
    show_refusal(app, refusal_note("seed must lie in 0..10, again"))
    assert clear_refusal(app) and app.status.value == "Stage 2 of 5.", (
        "clearing should bring back the status shown before the first of the refusals")
    assert not clear_refusal(app), "a note already cleared should not be cleared twice"
    note = refusal_note("vertex i must be one of [0, 1]")
    show_refusal(app, note, lambda: setattr(app.status, "value", "Trials: 3.<br>" + note))
    assert clear_refusal(app) and app.status.value == "Trials: 3.", "a note below a header should be cut out"


def test_a_browser_click_on_play_clears_the_note_before_its_thread_writes_the_status():
    """The refusal goes when Play is clicked in the browser, and the Play's own report stays after it."""
    from simpred_lite.apps import PlaygroundApp

    app = PlaygroundApp("barbell", ["AlwaysSimilar", "UnionFindLearner"], "random", play_steps=3)
    _refuse(app.seed)
    assert _shows_note(app), "a refused seed should show a note"
    seen = {}
    step = app.game.step

    def wrapped(*args, **kwargs):  # what the status reads while the thread plays
        seen.setdefault("while playing", app.status.value)
        return step(*args, **kwargs)

    app.game.step = wrapped
    app.play_button._handle_button_msg(None, {"event": "click"}, [])
    app._worker.join(timeout=120)
    assert not app._worker.is_alive(), "the Play thread did not end"
    assert "Not changed" not in seen["while playing"], "the note should go as soon as Play is clicked"
    assert app.status_text.startswith("Played 3 trials."), f"the Play's report should stay: {app.status_text!r}"
