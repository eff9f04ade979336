"""The explorers of notebooks 04, 05 and 11 in a real browser: Voilà + Debian's Chromium via Playwright.

One action each (Random in the reduction explorer, Step in the matrix explorer, Run in the
your-data explorer), checked by the status line and the figure it changes, and the
click-to-update time printed (never asserted: run with ``-s`` to see it).  Reuses the Voilà
fixture of ``tests/test_browser_app.py``; skipped loudly there when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("playwright")
# importing it skips this module (loudly) where Chromium is missing
from test_browser_app import CHROMIUM, CHROMIUM_ARGS, SERVICE_BUDGET_S, _start_voila  # noqa: E402

NOTEBOOK = {
    "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": src}
              for src in ["from simpred_lite.apps import ReductionExplorer\nReductionExplorer()",
                          "from simpred_lite.apps import MatrixLearnerExplorer\nMatrixLearnerExplorer()",
                          "from simpred_lite.apps import YourDataExplorer\nYourDataExplorer('karate club', T=200)"]],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}
#: (CSS class of the app, the button to press, what its status says after it, whether it shows a figure before)
ACTIONS = [
    ("simpred-reduction-explorer", "Random", "Trials: 1; master mistakes M =", True),
    ("simpred-matrix-explorer", "Step", "Trials: 1; mistakes M =", True),
    ("simpred-yourdata-explorer", "Run", "Done: karate club: n=34", False),
]


@pytest.fixture
def learner_explorers_url(tmp_path):
    nb = tmp_path / "learner_explorers.ipynb"
    nb.write_text(json.dumps(NOTEBOOK))
    yield from _start_voila(tmp_path, nb, "--VoilaConfiguration.template=simpred")


def test_each_learner_explorer_answers_a_click_in_a_real_browser(learner_explorers_url):
    from playwright.sync_api import sync_playwright

    start = time.monotonic()

    def left_ms(cap_s: float) -> float:
        remaining = SERVICE_BUDGET_S - (time.monotonic() - start)
        assert remaining > 0, f"the explorers test ran out of its {SERVICE_BUDGET_S:.0f} s budget"
        return min(remaining, cap_s) * 1000

    timings = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=left_ms(20))
        try:
            page = browser.new_page()
            page.goto(learner_explorers_url, timeout=left_ms(120))
            for css, name, after, has_figure in ACTIONS:
                app = page.locator(f".{css}")
                control = app.get_by_role("button", name=name, exact=True)
                control.wait_for(state="visible", timeout=left_ms(120))
                src0 = ""
                if has_figure:
                    img = app.locator("img")
                    img.wait_for(state="visible", timeout=left_ms(30))
                    src0 = img.get_attribute("src", timeout=left_ms(5))
                t0 = time.perf_counter()
                control.click(timeout=left_ms(10))
                page.wait_for_function(
                    "([css, text, old]) => { const app = document.querySelector('.' + css);"
                    " const img = app && app.querySelector('img');"
                    " return !!img && app.innerText.includes(text) && img.src !== old; }",
                    arg=[css, after, src0], timeout=left_ms(60))
                timings[css] = time.perf_counter() - t0
                assert after in app.inner_text(timeout=left_ms(5))
        finally:
            browser.close()
    print("\nclick-to-update (status and figure) in Chromium: "
          + ", ".join(f"{k}: {v:.2f} s" for k, v in timings.items()))
    assert set(timings) == {css for css, _, _, _ in ACTIONS}
