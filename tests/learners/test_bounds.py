"""floor_bound: an integer bound that is the same on every machine."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from simpred_lite.exact import ExactTooLargeError
from simpred_lite.learners.bounds import floor_bound


def test_floor_is_certified_away_from_integers():
    f = lambda R: 4 * R * R  # noqa: E731
    rng = np.random.default_rng(0)
    for R in rng.uniform(1, 50, size=200):
        err = 1e-10 * R
        got = floor_bound(f, R, err)
        # every R' the error bound allows gives the same floor, or the exact value decided
        lo, hi = math.floor(f(R - err)), math.floor(f(R + err))
        assert got == lo or (lo != hi and got == lo)


def test_undecided_floor_asks_the_exact_value_and_falls_back_to_the_lower_end():
    f = lambda R: 4 * R * R  # noqa: E731
    R = 3.0 * (1 - 1e-15)  # 4 R^2 is just below 36: an integer inside the error band
    assert floor_bound(f, R, 1e-12, exact=lambda: Fraction(36)) == 36
    assert floor_bound(f, R, 1e-12) == 35  # no exact value: the lower end, still a valid bound

    def too_large():
        raise ExactTooLargeError("too large")

    assert floor_bound(f, R, 1e-12, exact=too_large) == 35
    # an exact R (a tree) with an integer bound: the formula's own rounding still leaves the
    # floor undecided, and the exact value settles it
    assert floor_bound(f, 3.0, 0.0, exact=lambda: Fraction(36)) == 36
    assert floor_bound(f, 3.0, 0.0) == 35
    assert floor_bound(f, 3.0, None) == 36  # unknown error: the plain floor


def test_floor_bound_checks_its_error():
    with pytest.raises(ValueError, match="R_error must be >= 0"):
        floor_bound(lambda R: R, 1.0, -1.0)
    with pytest.raises(TypeError, match="R_error must be a real number"):
        floor_bound(lambda R: R, 1.0, "0")
