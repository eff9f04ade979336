"""The one timer of the benchmarks: best wall time of a few calls.

The machine is shared, so a benchmark reports the *best* of ``repeat`` calls (the least
disturbed one), and ratios against a reference timed the same way in the same run.
"""

from __future__ import annotations

import time


def timed(fn, repeat: int = 1, setup=None):
    """``(result, seconds)``: the last result of ``fn`` and its best wall time over ``repeat`` calls.

    With ``setup``, each call is ``fn(setup())`` and only ``fn`` is on the clock.

    >>> out, seconds = timed(lambda: sum(range(10)), repeat=2)
    >>> out, seconds >= 0
    (45, True)
    """
    best, out = float("inf"), None
    for _ in range(max(int(repeat), 1)):
        arg = None if setup is None else setup()
        start = time.perf_counter()
        out = fn() if setup is None else fn(arg)
        best = min(best, time.perf_counter() - start)
    return out, best


def best_of(fn, repeat: int = 3, setup=None) -> float:
    """Best wall time (seconds) of ``repeat`` calls of ``fn`` (see :func:`timed`).

    >>> best_of(lambda: None, repeat=3) >= 0
    True
    """
    return timed(fn, repeat, setup)[1]
