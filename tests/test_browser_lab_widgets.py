"""Every widget of the twelve notebooks in JupyterLab, driven by Debian's Chromium through Playwright.

One JupyterLab server for the module; one page opens a small generated notebook that creates
each widget as its notebook does (``tests/browser_lab.py``: the list, the actions), runs all
its cells, and then:

* every widget gets its main action (a click, or a path typed and Enter), and its effect is
  checked: the number its status line must show after it and, where the widget has a
  figure that the action changes, a new figure;
* the whole-number boxes refuse a typed ``2.5`` and ``99999999999`` with a sentence and go
  back to their number (never ``25``, never clamped); 07's path box refuses ``-1 2``;
* 09's button labels are not cut off; a control reached with Tab shows the focus ring;
* the playground's long Play (2,000 trials) shows progress, disables the other controls and
  answers Stop, and its vertex numbers are legible (another notebook, same server).

The click-to-update times are printed (run with ``-s``), never asserted; ``benchmarks/bench_widgets.py``
measures them.  Skipped loudly (a warning in the summary) where Chromium or Playwright is missing.
"""

from __future__ import annotations

import re
import sys
import time
import warnings

import pytest
from browser_lab import (
    CHROMIUM,
    CHROMIUM_ARGS,
    WIDGET_NOTEBOOK,
    WIDGETS,
    act_and_wait,
    cell_of,
    chromium_missing,
    notebook,
    open_and_run,
    output_of,
    start_lab,
    wait_for_widget,
)

if (reason := chromium_missing()) is not None:
    reason = f"REAL-BROWSER TEST SKIPPED: {reason}."
    print(f"\n!!! {reason}", file=sys.stderr)
    warnings.warn(reason, UserWarning, stacklevel=1)
    pytest.skip(reason, allow_module_level=True)

LONG_PLAY_NOTEBOOK = notebook(["from simpred_lite.apps import PlaygroundApp\n"
                               "PlaygroundApp('karate club', adversary='random', seed=0, play_steps=2000)"])
OPEN_S = 300.0  # the server, the page and Run All on a loaded 2-core machine
ACTION_S = 60.0  # one action and its update
TIMES: dict[str, float] = {}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    try:
        with start_lab(tmp_path_factory.mktemp("lab"), {"widgets.ipynb": WIDGET_NOTEBOOK,
                                                         "long_play.ipynb": LONG_PLAY_NOTEBOOK}) as url:
            yield url
    except RuntimeError as err:
        pytest.fail(str(err))


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def widgets_page(lab, browser):
    """The widget notebook, all cells run (1280 × 900, the file browser open, as a student sees it)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    open_and_run(page, f"{lab}lab/workspaces/widgets/tree/widgets.ipynb?reset", OPEN_S * 1000)
    for w in WIDGETS:  # Run All done: a click is not queued behind the cells still running
        wait_for_widget(page, w, OPEN_S * 1000)
    yield page
    page.close()
    # reported, never asserted (no timed asserts): run with -s to see them
    print("\nclick-to-update in JupyterLab (Chromium): " + ", ".join(f"{k} {v:.2f} s" for k, v in TIMES.items()))


def _name(w) -> str:
    return f"{w.notebook}-{w.name.split()[0]}"


@pytest.mark.parametrize("widget", WIDGETS, ids=_name)
def test_the_widget_answers_its_action_in_jupyterlab(widgets_page, widget):
    wait_for_widget(widgets_page, widget, OPEN_S * 1000)
    if widget.prepare is not None:
        widget.prepare(output_of(widgets_page, cell_of(widget)))
    TIMES[_name(widget)] = act_and_wait(widgets_page, widget, 1, ACTION_S * 1000)
    text = output_of(widgets_page, cell_of(widget)).inner_text()
    assert "Error" not in text and "Traceback" not in text, f"{widget.name}: {text[:400]!r}"


def _widget(name: str):
    return next(w for w in WIDGETS if w.name.startswith(name))


@pytest.mark.parametrize(("widget_name", "label", "keeps", "typed", "sentence"), [
    ("WilsonWalkExplorer", "seed", "0", "2.5", "seed must be a whole number in 0..1000000, got '2.5' (it is not"),
    ("WilsonWalkExplorer", "seed", "0", "99999999999", "seed must lie in 0..1000000, got 99999999999"),
    ("YourDataExplorer", "T", "200", "2.5", "T must be a whole number in 1..5000, got '2.5' (it is not rounded)"),
    ("PlaygroundApp", "seed", "0", "99999999999", "seed must lie in 0..1000000, got 99999999999"),
    ("PlaygroundApp", "steps", "40", "0", "steps must lie in 1..2000, got 0"),
])
def test_a_whole_number_box_refuses_odd_input_with_a_sentence(widgets_page, widget_name, label, keeps, typed,
                                                             sentence):
    out = wait_for_widget(widgets_page, _widget(widget_name), OPEN_S * 1000)
    box = out.get_by_label(label, exact=True)
    box.fill(typed)
    box.press("Enter")
    out.get_by_text(sentence, exact=False).first.wait_for(timeout=ACTION_S * 1000)
    widgets_page.wait_for_function("([box, keeps]) => box.value === keeps", arg=[box.element_handle(), keeps],
                                   timeout=ACTION_S * 1000)
    assert box.input_value() == keeps, f"the {label} box should go back to {keeps}, not keep {typed!r} or change it"
    assert f"Not changed: {sentence}" in out.inner_text()


def test_the_path_box_refuses_a_negative_vertex_and_enter_adds_a_path(widgets_page):
    out = wait_for_widget(widgets_page, _widget("PathForestExplorer"), OPEN_S * 1000)
    added = int(re.search(r"Paths revealed: (\d+),", out.inner_text()).group(1))
    box = out.get_by_label("path", exact=True)
    box.fill("-1 2")
    box.press("Enter")
    out.get_by_text("Not a path:", exact=False).wait_for(timeout=ACTION_S * 1000)
    text = out.inner_text()
    assert "-1" in text.split("Not a path:")[1][:200], f"the refusal should name -1: {text[:300]!r}"
    assert f"Paths revealed: {added}," in text, "-1 2 must not be added (as the path 1, 2 or any other)"
    box.fill("1 6")
    box.press("Enter")  # Enter alone submits
    out.get_by_text(f"Paths revealed: {added + 1},", exact=False).wait_for(timeout=ACTION_S * 1000)


def test_the_buttons_of_09_show_their_whole_label(widgets_page):
    cut = []
    for name in ("MergeSortLearnerApp", "PermutationAdversaryApp"):
        out = wait_for_widget(widgets_page, _widget(name), OPEN_S * 1000)
        for b in out.locator("button").all():
            full = b.evaluate("b => b.scrollWidth <= b.clientWidth")
            if not full:
                cut.append(f"{name}: {b.inner_text()!r}")
    assert not cut, f"labels cut off: {cut}"


def test_a_control_reached_with_tab_shows_the_focus_ring_in_jupyterlab(widgets_page):
    out = wait_for_widget(widgets_page, _widget("WilsonWalkExplorer"), OPEN_S * 1000)
    out.get_by_label("root", exact=True).focus()
    widgets_page.keyboard.press("Tab")  # to the Step button, with the keyboard
    ring = widgets_page.evaluate("() => { const e = document.activeElement, s = getComputedStyle(e);"
                                 " return [e.tagName, e.innerText.trim(), s.outlineStyle, s.outlineWidth]; }")
    assert ring[0] == "BUTTON", f"Tab from the root box reached {ring}"
    assert ring[2] == "solid" and float(ring[3].removesuffix("px")) >= 3, f"focus ring of {ring[1]!r}: {ring}"


def test_the_playground_in_jupyterlab_plays_in_the_background_and_its_numbers_are_legible(lab, browser):
    from test_browser_app import _play_and_stop

    from simpred_lite.apps.playground_app import FIGURE_DPI, GRAPH_FONT_SIZE
    from simpred_lite.viz.style import MIN_PICKED_NUMBER_PT, displayed_font_pt

    start = time.monotonic()

    def left_ms(cap_s: float) -> float:
        remaining = OPEN_S + 240 - (time.monotonic() - start)
        assert remaining > 0, "the JupyterLab long-play test ran out of its budget"
        return min(remaining, cap_s) * 1000

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        open_and_run(page, f"{lab}lab/workspaces/long-play/tree/long_play.ipynb?reset", left_ms(OPEN_S))
        figure = page.locator(".simpred-figure img")
        figure.wait_for(state="visible", timeout=left_ms(180))
        natural, shown = page.evaluate("() => { const i = document.querySelector('.simpred-figure img');"
                                       " return [i.naturalWidth, i.getBoundingClientRect().width]; }")
        run = _play_and_stop(page, left_ms)
    finally:
        page.close()
    on_page = GRAPH_FONT_SIZE * FIGURE_DPI / 96 * min(1.0, shown / natural)
    print(f"\nJupyterLab: figure {natural} px shown at {shown:.0f} px, vertex numbers {on_page:.1f} pt; long Play: "
          f"first progress {run['first progress']:.2f} s after the click, Stop answered in {run['stop']:.2f} s "
          f"after {run['played']} of 2000 trials")
    assert on_page >= MIN_PICKED_NUMBER_PT, f"JupyterLab shows the vertex numbers at {on_page:.1f} pt"
    assert abs(on_page - displayed_font_pt(GRAPH_FONT_SIZE, FIGURE_DPI, natural, shown)) < 1e-9
