"""The playground web app in a real browser: Voilà + Debian's Chromium driven by Playwright.

pytest starts Voilà on a free loopback port serving ``app/playground.ipynb`` (the app
notebook that ``make app`` serves), opens it in Debian's Chromium (headless, never a
downloaded browser) through Playwright, clicks **Step** a few times and checks that the
mistake counter and the figure change.  Every wait is bounded by one deadline, so the
test takes well under a minute or fails.

It runs in ``make test`` whenever ``/usr/bin/chromium`` exists (``.ci/run`` installs it
with apt) and skips LOUDLY otherwise — a warning in the summary as well as the skip.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app" / "playground.ipynb"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
BUDGET_S = 50.0  # the whole test, server start included
COUNTER = re.compile(r"trials: (\d+) \| mistakes: (.*)")

if not os.path.exists(CHROMIUM):
    reason = (f"REAL-BROWSER TEST SKIPPED: {CHROMIUM} not found. Install Debian's Chromium with "
              "`apt-get install -y chromium chromium-driver` (.ci/run does this) to test the web app.")
    print(f"\n!!! {reason}", file=sys.stderr)
    warnings.warn(reason, UserWarning, stacklevel=1)
    pytest.skip(reason, allow_module_level=True)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _parse(counter: str) -> tuple[int, int]:
    """Trials and total mistakes shown by the counter."""
    m = COUNTER.search(counter)
    assert m, f"unexpected counter text {counter!r}"
    mistakes = sum(int(x) for x in re.findall(r" (\d+)(?:,|$)", m.group(2)))
    return int(m.group(1)), mistakes


@pytest.fixture
def voila_url(tmp_path):
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               MPLBACKEND="Agg", JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               # no user-level kernelspecs or config: the kernel is this environment's python3
               JUPYTER_DATA_DIR=str(tmp_path / "data"), JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    log = open(tmp_path / "voila.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(APP), f"--port={port}", "--Voila.ip=127.0.0.1", "--no-browser",
         "--Voila.root_dir=" + str(APP.parent)],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=APP.parent, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 25
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"Voilà exited with code {proc.returncode}:\n{(tmp_path / 'voila.log').read_text()[-2000:]}")
            try:  # listening is enough: a GET of the page itself would already start a kernel
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Voilà did not answer on {url} within 25 s:\n{(tmp_path / 'voila.log').read_text()[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # Voilà and the kernel it started (its own session)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        log.close()


def test_step_in_a_real_browser_changes_the_counter_and_the_figure(voila_url):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    start = time.monotonic()

    def left_ms(cap_s: float = BUDGET_S) -> float:
        remaining = BUDGET_S - (time.monotonic() - start)
        assert remaining > 0, f"the browser test ran out of its {BUDGET_S:.0f} s budget"
        return min(remaining, cap_s) * 1000

    def wait_until(page, js, arg, cap_s, what):
        try:
            page.wait_for_function(js, arg=arg, timeout=left_ms(cap_s))
        except PlaywrightTimeout:
            pytest.fail(f"{what} within {cap_s:.0f} s (counter: {page.locator('.simpred-counter').inner_text()!r})")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=left_ms(20))
        try:
            page = browser.new_page()
            page.goto(voila_url, timeout=left_ms(30))
            step = page.get_by_role("button", name="Step")
            step.wait_for(state="visible", timeout=left_ms(30))  # Voilà ran the app notebook
            counter = page.locator(".simpred-counter")
            figure = page.locator(".simpred-figure img")
            figure.wait_for(state="visible", timeout=left_ms(10))
            trials0, mistakes0 = _parse(counter.inner_text(timeout=left_ms(5)))
            src0 = figure.get_attribute("src", timeout=left_ms(5))
            assert (trials0, mistakes0) == (0, 0), "the app should open on a fresh game"
            assert src0 and src0.startswith("data:image/png"), f"the figure is not a PNG image: {src0!r:.80}"

            for k in range(1, 4):
                step.click(timeout=left_ms(5))
                wait_until(page, "([sel, k]) => (document.querySelector(sel)?.innerText || '').includes('trials: ' + k + ' ')",
                           [".simpred-counter", k], 10, f"the counter did not reach {k} trials")
            trials, mistakes = _parse(counter.inner_text(timeout=left_ms(5)))
            wait_until(page, "([sel, old]) => { const img = document.querySelector(sel); return !!img && img.src !== old; }",
                       [".simpred-figure img", src0], 10, "the figure did not change after Step")
            src = figure.get_attribute("src", timeout=left_ms(5))
        finally:
            browser.close()
    assert trials == 3
    assert mistakes > mistakes0, "three steps against AlwaysSimilar and UnionFindLearner should cost a mistake"
    assert src != src0 and src.startswith("data:image/png"), "the figure did not change after Step"
