"""Every widget of the twelve notebooks, in JupyterLab, driven by Debian's Chromium through Playwright.

Shared by ``tests/test_browser_lab_widgets.py`` (one real action per widget, its effect checked)
and ``benchmarks/bench_widgets.py`` (the click-to-update time of the same actions):

* :func:`start_lab` — a JupyterLab server on a free loopback port, serving a folder of
  generated notebooks, with the notebook's windowing off (every cell in the page, so that a
  widget is found by its cell);
* :data:`WIDGET_NOTEBOOK` — one small notebook creating each widget as its notebook does
  (one cell per widget, after a setup cell);
* :data:`WIDGETS` — per widget: its notebook, what to prepare, the main action, and the
  regular expression its cell's output must match after the k-th action;
* :func:`open_and_run` / :func:`act_and_wait` — open a notebook, Run All Cells, act on a
  widget and wait for its visible update (status text and, where it has one, figure).
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here (None when they can)."""
    if not os.path.exists(CHROMIUM):
        return (f"{CHROMIUM} not found: install Debian's Chromium with `apt-get install -y chromium "
                "chromium-driver` (.ci/run does this)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install -e '.[browser]')"
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notebook(sources: list[str]) -> dict:
    """A notebook (nbformat 4 dict) with one code cell per source, for the python3 kernel."""
    return {
        "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "id": f"c{k}",
                   "source": src} for k, src in enumerate(sources)],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


@contextmanager
def start_lab(folder: Path, notebooks: dict[str, dict], start_timeout_s: float = 120.0) -> Iterator[str]:
    """JupyterLab on a free loopback port serving ``folder``, where ``notebooks`` ({file name: notebook})
    are written; yields the base URL (``http://127.0.0.1:<port>/``) and stops the server and its
    kernels at the end.  Raises ``RuntimeError`` when the server does not start."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, nb in notebooks.items():
        (folder / name).write_text(json.dumps(nb))
    # every cell stays in the page (JupyterLab 4 renders only the cells in view by default)
    tracker = folder / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True, exist_ok=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}))
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               MPLBACKEND="Agg", JUPYTER_RUNTIME_DIR=str(folder / "runtime"),
               JUPYTER_DATA_DIR=str(folder / "data"), JUPYTER_CONFIG_DIR=str(folder / "config"),
               JUPYTERLAB_SETTINGS_DIR=str(folder / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(folder / "workspaces"))
    log_path = folder / "lab.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
         f"--ServerApp.root_dir={folder}"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder, start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with code {proc.returncode}:\n{log_path.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab did not answer within {start_timeout_s:.0f} s:\n"
                                   f"{log_path.read_text()[-2000:]}")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the server and its kernels (its own session)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        log.close()


def open_and_run(page, url: str, timeout_ms: float) -> None:
    """Open the notebook at ``url`` in ``page`` and Run All Cells (answering "Select Kernel" if asked)."""
    page.goto(url, timeout=timeout_ms)
    page.wait_for_function("() => document.querySelector('.jp-Dialog') || "
                           "document.body.innerText.includes('Python 3 (ipykernel) | Idle')", timeout=timeout_ms)
    if page.locator(".jp-Dialog").count():  # "Select Kernel": the notebook's own python3
        page.locator(".jp-Dialog .jp-mod-accept").click(timeout=timeout_ms)
    page.locator(".jp-Notebook").click(timeout=timeout_ms)
    page.get_by_role("menuitem", name="Run", exact=True).click(timeout=timeout_ms)
    page.get_by_text("Run All Cells", exact=True).click(timeout=timeout_ms)


def output_of(page, cell: int):
    """The output area of code cell number ``cell`` (0-based) of the open notebook."""
    return page.locator(".jp-Notebook .jp-CodeCell").nth(cell).locator(".jp-Cell-outputArea")


_UPDATED = """([k, pattern, oldText, oldSrc, figure]) => {
  const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[k];
  const out = cell && cell.querySelector('.jp-Cell-outputArea');
  if (!out) return false;
  const text = out.innerText, img = out.querySelector('img');
  return text !== oldText && new RegExp(pattern).test(text) && (!figure || (!!img && img.src !== oldSrc));
}"""


def _button(name: str) -> Callable:
    return lambda out: out.get_by_role("button", name=name, exact=True).click()


def _enter(label: str, text: str) -> Callable:
    def act(out):
        box = out.get_by_label(label, exact=True)
        box.fill(text)
        box.press("Enter")
    return act


@dataclass(frozen=True)
class Widget:
    """One widget of a notebook and its main action.

    ``expect(k)`` is the regular expression the cell's output text matches after the k-th action
    (k = 1, 2, ...); ``repeat`` says how many times the action can follow itself with a new,
    checkable update (1: once only).
    """

    notebook: str
    name: str
    source: str
    action: str
    act: Callable
    expect: Callable[[int], str]
    figure: bool = True
    prepare: Callable | None = None
    repeat: int = 1


def _game_prepare(out):
    out.get_by_label("vertex j", exact=True).select_option("33")
    out.get_by_role("button", name="Predict", exact=True).click()
    out.get_by_text("Learner predicts (0, 33)").wait_for(timeout=60_000)  # as long as any action may take under load


#: Every widget the twelve notebooks show, as its notebook creates it (a smaller instance where the
#: notebook's own input is long to build), with its main action.
WIDGETS: list[Widget] = [
    Widget("00", "SimilarityGame", "SimilarityGame(*karate_club(), UnionFindLearner(34))",
           "Predict (0, 33), then Reveal", _button("Reveal"), lambda k: r"Truth: \(0, 33\).*Mistakes: \d+ in 1 trial\.",
           prepare=_game_prepare),
    Widget("01", "ResistanceCutExplorer", "ResistanceCutExplorer()", "click vertex 0 (moves it between classes)",
           _button("0"), lambda k: r"Class 1 = \{0, 5, 6, 7, 8\}" if k % 2 else r"Class 1 = \{5, 6, 7, 8\}", repeat=5),
    Widget("02", "WilsonWalkExplorer", "WilsonWalkExplorer(4, 5, seed=0, root=0)", "Step",
           _button("Step"), lambda k: rf"Moves: {k};", repeat=5),
    Widget("03", "BSTBuildExplorer", "BSTBuildExplorer()", "Next ▶", _button("Next ▶"),
           lambda k: rf"Stage {k} of 11", repeat=5),
    Widget("04", "ReductionExplorer", "ReductionExplorer()", "Random", _button("Random"),
           lambda k: rf"Trials: {k}; master mistakes M =", repeat=5),
    Widget("05", "MatrixLearnerExplorer", "MatrixLearnerExplorer()", "Step", _button("Step"),
           lambda k: rf"Trials: {k}; mistakes M =", repeat=5),
    Widget("06", "BSTTrialExplorer", "BSTTrialExplorer(BinarySupportTree(list(range(8))), labels=[0] * 4 + [1] * 4)",
           "label dissimilar (1), then Learn", _button("Learn"), lambda k: rf"Trials learned: {k}, mistakes: \d",
           figure=False, prepare=lambda out: out.get_by_role("button", name="dissimilar (1)").click(), repeat=5),
    Widget("07", "PathForestExplorer", "PathForestExplorer(8)", "type the path 0 3 5 2 and press Enter",
           _enter("path", "0 3 5 2"), lambda k: r"Paths revealed: 1, forest edges: 3"),
    Widget("08", "IsingReductionExplorer", "IsingReductionExplorer()", "Next splice ▶", _button("Next splice ▶"),
           lambda k: r"Stage 1 of 2: spliced"),
    Widget("09", "MergeSortLearnerApp", "MergeSortLearnerApp(K=6)", "answer similar: z(a) < z(b)",
           _button("similar: z(a) < z(b)"), lambda k: rf"Question {k + 1}: is z", figure=True, repeat=5),
    Widget("09", "PermutationAdversaryApp", "PermutationAdversaryApp(K=5, learner='TransitiveOrderLearner')",
           "Ask the learner", _button("Ask the learner"), lambda k: r"The learner predicts (SIMILAR|DISSIMILAR)",
           figure=False),
    Widget("10", "PlaygroundApp", "PlaygroundApp(graph='karate club', adversary='random', seed=0, play_steps=40)",
           "Step", _button("Step"), lambda k: rf"trials: {k} \|", repeat=5),
    Widget("10", "GraphAdversaryApp (the student adversary)",
           "GraphAdversaryApp(nx.cycle_graph(6), UnionFindLearner(6))",
           "Ask the learner", _button("Ask the learner"), lambda k: r"The learner predicts \(0, 1\)"),
    Widget("11", "YourDataExplorer", "YourDataExplorer('karate club', T=200)", "Run",
           _button("Run"), lambda k: r"Done: karate club: n=34"),
]

SETUP = ("import networkx as nx\n"
         "from simpred_lite import karate_club\n"
         "from simpred_lite.apps import *\n"
         "from simpred_lite.bst import BinarySupportTree\n"
         "from simpred_lite.learners import UnionFindLearner")
#: The setup cell, then one cell per widget of :data:`WIDGETS` (widget ``w`` is in code cell ``w + 1``).
WIDGET_NOTEBOOK = notebook([SETUP] + [w.source for w in WIDGETS])


def cell_of(widget: Widget) -> int:
    return WIDGETS.index(widget) + 1


def wait_for_widget(page, widget: Widget, timeout_ms: float, cell: int | None = None):
    """The output area of ``widget`` (in code cell ``cell``, by default :func:`cell_of`) once its cell
    has run and its controls are shown."""
    out = output_of(page, cell_of(widget) if cell is None else cell)
    out.locator(".widget-button, .jupyter-button").first.wait_for(state="visible", timeout=timeout_ms)
    if widget.figure and widget.name != "YourDataExplorer":
        out.locator("img").first.wait_for(state="visible", timeout=timeout_ms)
    return out


def act_and_wait(page, widget: Widget, k: int, timeout_ms: float, cell: int | None = None) -> float:
    """Perform ``widget``'s action for the k-th time and wait for its visible update; returns the
    seconds from the action (click or Enter) to the update (status text and figure)."""
    cell = cell_of(widget) if cell is None else cell
    out = output_of(page, cell)
    old_text = out.inner_text(timeout=timeout_ms)
    img = out.locator("img")
    old_src = img.first.get_attribute("src", timeout=timeout_ms) if img.count() else None
    t0 = time.perf_counter()
    widget.act(out)
    page.wait_for_function(_UPDATED, arg=[cell, widget.expect(k), old_text, old_src, widget.figure],
                           timeout=timeout_ms)
    seconds = time.perf_counter() - t0
    text = out.inner_text(timeout=timeout_ms)
    assert re.search(widget.expect(k), text), f"{widget.name}: {widget.expect(k)!r} not in {text[:300]!r}"
    return seconds
