"""The web apps in a real browser: Voilà + Debian's Chromium driven by Playwright.

* the playground: pytest starts Voilà on a free loopback port serving ``app/playground.ipynb``
  (the app notebook that ``make app`` serves, with ``app/voila.json``), opens it in Debian's
  Chromium (headless, never a downloaded browser) through Playwright, clicks **Step** a few
  times and checks that the mistake counter and the figure change;
* the app as a service: with short culling settings, the page is loaded and reloaded several
  times; the kernels of the closed pages are culled (read through ``GET /api/kernels/<id>``:
  Voilà serves no list), the open page's kernel lives on, and no request leaves 127.0.0.1;
* a long Play (2,000 trials) in Voilà: progress while it runs, the other controls disabled,
  Stop answered mid-run, the controls back after (the same in JupyterLab:
  ``tests/test_browser_lab_widgets.py``, which also drives every widget of the notebooks);
* a control reached with Tab shows a visible focus ring.

Every wait is bounded by one deadline per test, so a test takes a bounded time or fails.
They run in ``make test`` whenever ``/usr/bin/chromium`` exists (``.ci/run`` installs it
with apt) and skip LOUDLY otherwise — a warning in the summary as well as the skip.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

import pytest
from browser_lab import CHROMIUM, CHROMIUM_ARGS, _free_port  # the browser and its flags, shared

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app" / "playground.ipynb"
TEMPLATES = ROOT / "app" / "share" / "jupyter"
BUDGET_S = 240.0  # the whole test (make test runs other tests beside it: a page load took > 30 s at load 15)
COUNTER = re.compile(r"trials: (\d+) \| mistakes: (.*)")

if not os.path.exists(CHROMIUM):
    reason = (f"REAL-BROWSER TEST SKIPPED: {CHROMIUM} not found. Install Debian's Chromium with "
              "`apt-get install -y chromium chromium-driver` (.ci/run does this) to test the web app.")
    print(f"\n!!! {reason}", file=sys.stderr)
    warnings.warn(reason, UserWarning, stacklevel=1)
    pytest.skip(reason, allow_module_level=True)


def _parse(counter: str) -> tuple[int, int]:
    """Trials and total mistakes shown by the counter."""
    m = COUNTER.search(counter)
    assert m, f"unexpected counter text {counter!r}"
    mistakes = sum(int(x) for x in re.findall(r" (\d+)(?:,|$)", m.group(2)))
    return int(m.group(1)), mistakes


def _start_voila(tmp_path, notebook: Path, *extra: str):
    """Voilà on a free loopback port serving ``notebook`` from its folder (which holds app/voila.json
    for the app); yields the URL and stops Voilà and its kernels at the end."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               MPLBACKEND="Agg", JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               # no user-level kernelspecs or config: the kernel is this environment's python3
               JUPYTER_DATA_DIR=str(tmp_path / "data"), JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               # the app's own Voilà template (as `make app` does)
               JUPYTER_PATH=os.pathsep.join(filter(None, [str(TEMPLATES), os.environ.get("JUPYTER_PATH")])))
    log_path = tmp_path / f"voila-{port}.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(notebook), f"--port={port}", "--Voila.ip=127.0.0.1", "--no-browser",
         "--Voila.root_dir=" + str(notebook.parent), *extra],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=notebook.parent, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60  # a loaded 2-core machine needs more than 25 s
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"Voilà exited with code {proc.returncode}:\n{log_path.read_text()[-2000:]}")
            try:  # listening is enough: a GET of the page itself would already start a kernel
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Voilà did not answer on {url} within 60 s:\n{log_path.read_text()[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # Voilà and the kernels it started (its own session)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        log.close()


@pytest.fixture(scope="module")
def voila_url(tmp_path_factory):
    """One Voilà server for the module's tests (each page load still gets its own kernel)."""
    yield from _start_voila(tmp_path_factory.mktemp("voila"), APP)


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
            page.goto(voila_url, timeout=left_ms(120))
            step = page.get_by_role("button", name="Step")
            step.wait_for(state="visible", timeout=left_ms(120))  # Voilà ran the app notebook
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


# -- the app as a service: reloaded pages leave no kernel behind, no request leaves the machine --
# short culling for the test (app/voila.json: 300 s every 60 s), but not so short that a kernel may be
# culled between Voilà running the page and a slow browser connecting to it: with 4 s, at load 15 on 2
# cores, the first page twice never showed its Step button within 60-120 s
CULL_IDLE_S, CULL_INTERVAL_S = 15, 1
RELOADS = 4
SERVICE_BUDGET_S = 600.0


def _kernel_alive(url: str, kernel_id: str) -> bool:
    """Whether the server still has ``kernel_id`` (Voilà serves ``GET /api/kernels/<id>``, not the list)."""
    try:
        with urllib.request.urlopen(f"{url}api/kernels/{kernel_id}", timeout=5) as r:
            return json.load(r)["id"] == kernel_id
    except urllib.error.HTTPError as err:
        if err.code == 404:
            return False
        raise


@pytest.fixture
def culling_voila(tmp_path):
    gen = _start_voila(tmp_path, APP, f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_S}",
                       f"--MappingKernelManager.cull_interval={CULL_INTERVAL_S}")
    url = next(gen)
    yield url, next(tmp_path.glob("voila-*.log"))
    gen.close()


def test_reloaded_pages_leave_at_most_one_kernel_and_nothing_leaves_the_machine(culling_voila):
    from playwright.sync_api import sync_playwright

    url, log_path = culling_voila
    start = time.monotonic()

    def left_ms(cap_s: float) -> float:
        remaining = SERVICE_BUDGET_S - (time.monotonic() - start)
        assert remaining > 0, f"the service test ran out of its {SERVICE_BUDGET_S:.0f} s budget"
        return min(remaining, cap_s) * 1000

    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=left_ms(20))
        try:
            page = browser.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.on("websocket", lambda ws: requests.append(ws.url))
            page.goto(url, timeout=left_ms(120))
            page.get_by_role("button", name="Step").wait_for(state="visible", timeout=left_ms(120))
            for _ in range(RELOADS):
                page.reload(timeout=left_ms(60))
                page.get_by_role("button", name="Step").wait_for(state="visible", timeout=left_ms(120))
            started = re.findall(r"Kernel started: ([0-9a-f-]{36})", log_path.read_text())
            assert len(started) >= RELOADS + 1, f"expected a kernel per page load, the log shows {started}"
            current = started[-1]
            deadline = time.monotonic() + 6 * (CULL_IDLE_S + CULL_INTERVAL_S) + 10
            alive = [k for k in started if _kernel_alive(url, k)]
            print(f"\n{len(started)} page loads: {len(alive)} kernels alive right after the last load")
            while len(alive) > 1 and time.monotonic() < deadline:
                time.sleep(1)
                alive = [k for k in started if _kernel_alive(url, k)]
            print(f"after {time.monotonic() - start:.0f} s: alive {alive}")
            assert alive == [current], (
                f"after {RELOADS} reloads and the cull window, kernels still alive: {alive} (current page: {current})")
            # the open page's kernel is connected, so it is never culled: the app still answers
            page.wait_for_timeout(1000 * (CULL_IDLE_S + 2 * CULL_INTERVAL_S))
            page.get_by_role("button", name="Step").click(timeout=left_ms(10))
            page.wait_for_function("(document.querySelector('.simpred-counter')?.innerText || '').includes('trials: 1 ')",
                                   timeout=left_ms(20))
            assert _kernel_alive(url, current)
        finally:
            browser.close()
    outside = sorted({u for u in requests if urllib.parse.urlsplit(u).scheme in ("http", "https", "ws", "wss")
                      and urllib.parse.urlsplit(u).hostname != "127.0.0.1"})
    assert requests and not outside, f"the page asked hosts outside the machine: {outside}"


# -- a long Play: progress while it runs, controls disabled, Stop answered mid-run -------------
LONG_PLAY_BUDGET_S = 240.0


def _disabled(page, name: str, left_ms) -> bool:
    return page.get_by_role("button", name=name, exact=True).is_disabled(timeout=left_ms(5))


def _play_and_stop(page, left_ms) -> dict:
    """Click Play (steps = 2000), see progress and the controls disabled, click Stop, see them back."""
    assert _disabled(page, "Stop", left_ms) and not _disabled(page, "Play", left_ms)
    t0 = time.perf_counter()
    page.get_by_role("button", name="Play", exact=True).click(timeout=left_ms(5))
    # the kernel is free while the trials are played: progress arrives, k grows
    page.wait_for_function("() => /trial ([1-9]\\d*) of 2000/.test(document.body.innerText)", timeout=left_ms(60))
    first_progress = time.perf_counter() - t0
    for name in ("Play", "Step", "Reset"):
        assert _disabled(page, name, left_ms), f"{name} is enabled while playing"
    assert not _disabled(page, "Stop", left_ms)
    assert page.get_by_label("steps", exact=True).is_disabled(timeout=left_ms(5))
    trials_then, _ = _parse(page.locator(".simpred-counter").inner_text(timeout=left_ms(5)))
    t1 = time.perf_counter()
    page.get_by_role("button", name="Stop", exact=True).click(timeout=left_ms(5))
    page.wait_for_function("() => document.body.innerText.includes('Stopped by you after')", timeout=left_ms(60))
    stop_s = time.perf_counter() - t1
    # each button's state comes in its own widget message, applied one at a time: wait for all three, not only
    # Step (a check of Play right after Step was enabled failed once under load, Play's message not yet applied)
    page.wait_for_function("() => ['Step', 'Play', 'Reset'].every(name => { const b = "
                           "[...document.querySelectorAll('button')].find(b => b.innerText.trim() === name); "
                           "return b && !b.disabled; })", timeout=left_ms(20))
    assert not _disabled(page, "Play", left_ms) and not _disabled(page, "Reset", left_ms)
    assert _disabled(page, "Stop", left_ms)
    status = page.locator("body").inner_text(timeout=left_ms(5))
    played = int(re.search(r"Stopped by you after (\d+) of 2000 trials", status).group(1))
    trials, _ = _parse(page.locator(".simpred-counter").inner_text(timeout=left_ms(5)))
    assert trials == played < 2000 and played >= trials_then >= 1
    return {"first progress": first_progress, "stop": stop_s, "played": played}


def test_a_long_play_shows_progress_and_stops_when_asked_in_a_real_browser(voila_url):
    from playwright.sync_api import sync_playwright

    start = time.monotonic()

    def left_ms(cap_s: float) -> float:
        remaining = LONG_PLAY_BUDGET_S - (time.monotonic() - start)
        assert remaining > 0, f"the long-play test ran out of its {LONG_PLAY_BUDGET_S:.0f} s budget"
        return min(remaining, cap_s) * 1000

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=left_ms(20))
        try:
            page = browser.new_page()
            page.goto(voila_url, timeout=left_ms(60))
            page.get_by_role("button", name="Play", exact=True).wait_for(state="visible", timeout=left_ms(60))
            steps = page.get_by_label("steps", exact=True)
            steps.fill("2000", timeout=left_ms(5))
            steps.press("Enter", timeout=left_ms(5))
            run = _play_and_stop(page, left_ms)
        finally:
            browser.close()
    # reported, never asserted against a time (no timed asserts): run with -s to see them
    print(f"\nlong Play in Chromium (Voilà): first progress {run['first progress']:.2f} s after the click; "
          f"Stop answered in {run['stop']:.2f} s, after {run['played']} of 2000 trials")


def test_a_control_reached_with_the_keyboard_shows_a_visible_focus_ring(voila_url):
    from playwright.sync_api import sync_playwright

    start = time.monotonic()

    def left_ms(cap_s: float) -> float:
        remaining = BUDGET_S * 2 - (time.monotonic() - start)
        assert remaining > 0, "the focus test ran out of its budget"
        return min(remaining, cap_s) * 1000

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=left_ms(20))
        try:
            page = browser.new_page()
            page.goto(voila_url, timeout=left_ms(60))
            page.get_by_role("button", name="Step", exact=True).wait_for(state="visible", timeout=left_ms(60))
            for _ in range(40):  # Tab through the page until the Step button has the focus
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement && document.activeElement.innerText.trim() === 'Step'"):
                    break
            ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                                 " return [document.activeElement.innerText.trim(), s.outlineStyle, s.outlineWidth]; }")
        finally:
            browser.close()
    assert ring[0] == "Step", "Tab never reached the Step button"
    assert ring[1] == "solid" and float(ring[2].removesuffix("px")) >= 3, f"focus ring of the Step button: {ring}"
