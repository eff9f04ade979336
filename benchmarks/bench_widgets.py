"""Benchmark: click-to-update time of every widget of the notebooks, in JupyterLab, in Chromium.

Starts JupyterLab on a loopback port, opens a generated notebook that creates each widget as
its notebook does (``tests/browser_lab.py``, shared with ``tests/test_browser_lab_widgets.py``),
runs all its cells in Debian's Chromium (headless, through Playwright) and, per widget, performs
its main action and times it from the click (or Enter) to the visible update: the status line
showing the new number and, where the action changes it, the new figure in the page.  An
action that can follow itself (Step, Next, Random, ...) is timed 5 times (3 with ``--quick``)
and the median is reported; the others once.

The reference, measured the same way in the same page and run: a bare ipywidgets button whose
click sets a label (the round trip browser → kernel → browser with no work and no figure).
The ratio widget / reference says how much of the wait is the widget's own work.

Prints a markdown section (benchmarks/README.md).  Without ``/usr/bin/chromium`` or the
Python package playwright it prints the section with the reason and exits 0.  Even with
``--quick`` it takes a few minutes, not well under one: JupyterLab must start and draw every
widget first (the section says how long that took).

Usage: python benchmarks/bench_widgets.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser_lab import (  # noqa: E402  (tests/ holds the list of widgets and their actions)
    CHROMIUM,
    CHROMIUM_ARGS,
    SETUP,
    WIDGETS,
    Widget,
    act_and_wait,
    cell_of,
    chromium_missing,
    notebook,
    open_and_run,
    output_of,
    start_lab,
    wait_for_widget,
)

HEADING = "## bench_widgets.py — click-to-update time of every widget, in JupyterLab (Chromium)"

#: The round-trip floor: a button that sets a label, nothing else.
REFERENCE = Widget("—", "reference: a bare button setting a label",
                   "import ipywidgets as W\n"
                   "_n = W.Label('clicks: 0'); _b = W.Button(description='Count')\n"
                   "_b.on_click(lambda b: setattr(_n, 'value', f'clicks: {int(_n.value.split()[1]) + 1}'))\n"
                   "W.VBox([_b, _n])",
                   "Count", lambda out: out.get_by_role("button", name="Count", exact=True).click(),
                   lambda k: rf"clicks: {k}\b", figure=False, repeat=5)


def measure(repeat: int) -> tuple[list[tuple[Widget, list[float]]], float]:
    """``[(widget, seconds of each action)]`` (the reference first) and the seconds to open and run the page."""
    from playwright.sync_api import sync_playwright

    # the reference is the last cell, so that the widget cells keep the numbers cell_of gives them
    widgets = [(REFERENCE, len(WIDGETS) + 1), *((w, cell_of(w)) for w in WIDGETS)]
    nb = notebook([SETUP] + [w.source for w in WIDGETS] + [REFERENCE.source])
    results = []
    with tempfile.TemporaryDirectory() as tmp, start_lab(Path(tmp), {"widgets.ipynb": nb}, 300) as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            t0 = time.perf_counter()
            open_and_run(page, f"{url}lab/workspaces/bench/tree/widgets.ipynb?reset", 300_000)
            for w, cell in widgets:
                wait_for_widget(page, w, 300_000, cell)
            opened = time.perf_counter() - t0
            for w, cell in widgets:
                if w.prepare is not None:
                    w.prepare(output_of(page, cell))
                n = min(w.repeat, repeat)
                results.append((w, [act_and_wait(page, w, k, 120_000, cell) for k in range(1, n + 1)]))
        finally:
            browser.close()
    return results, opened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 5")
    args = parser.parse_args()
    print(HEADING + "\n")
    reason = chromium_missing()
    if reason is not None:
        print(f"**Skipped**: {reason}.")
        return
    load0 = os.getloadavg()
    results, opened = measure(3 if args.quick else 5)
    load1 = os.getloadavg()
    ref = statistics.median(results[0][1])
    print("From the click (or Enter) to the visible update — the status line with the new number and, "
          "where the action changes it, the new figure — in headless Chromium driving JupyterLab on this "
          "machine (1280 × 900 page). *median of n* actions in a row; *ratio* = median / the reference's "
          "median, measured in the same page and run (the round trip alone). The machine is shared: load "
          f"average {load0[0]:.1f} at the start, {load1[0]:.1f} at the end (2 cores); the absolute seconds "
          "move with the load, the ratios less.\n")
    print("| notebook | widget | action | update awaited | n | median (s) | min–max (s) | ratio to the reference |")
    print("|---|---|---|---|---:|---:|---|---:|")
    for w, times in results:
        med = statistics.median(times)
        awaited = "status + figure" if w.figure else "status"
        print(f"| {w.notebook} | {w.name} | {w.action} | {awaited} | {len(times)} | {med:.2f} | "
              f"{min(times):.2f}–{max(times):.2f} | {med / ref:.1f} |")
    print(f"\nOpening the notebook and running its {len(WIDGETS) + 2} cells (every widget drawn) took {opened:.0f} s.")


if __name__ == "__main__":
    main()
