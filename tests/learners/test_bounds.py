"""certified_bound: a bound rounded down to the digits that are the same on every machine."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from simpred_lite.checks import WorkLimitError
from simpred_lite.exact import ExactTooLargeError
from simpred_lite.learners.bounds import BOUND_DIGITS, certified_bound


def f(R):
    return 4 * R * R


def test_every_R_the_error_allows_gives_the_same_report():
    # R stands for the exact diameter; R (1 + s) with |s| R < R_error for what other machines compute
    rng = np.random.default_rng(0)
    asked = []
    for R in rng.uniform(1, 50, size=300):
        err = 1e-12 * R

        def exact(R=R):
            asked.append(R)
            return Fraction(f(R))

        got = certified_bound(f, R, err, exact=exact)
        assert f(R) * (1 - 10.0 ** (1 - BOUND_DIGITS)) <= got <= f(R)  # rounded down, 7 digits kept
        for s in (-9e-13, -3e-13, 3e-13, 9e-13):
            assert certified_bound(f, R * (1 + s), err, exact=exact) == got
    assert len(asked) < 5 * 10  # the exact value is a rare fallback


def test_integer_mode_and_the_undecided_case():
    R = 3.0 * (1 - 1e-15)  # 4 R^2 is just below 36: 36 lies inside the error band
    assert certified_bound(f, R, 1e-12, exact=lambda: Fraction(36), digits=None) == 36
    assert certified_bound(f, R, 1e-12, digits=None) == 35  # no exact value: the lower end, still a bound
    assert certified_bound(f, R, 1e-12, exact=lambda: Fraction(36)) == 36.0
    assert certified_bound(f, R, 1e-12) == 35.99999

    def too_large():
        raise ExactTooLargeError("too large")

    assert certified_bound(f, R, 1e-12, exact=too_large, digits=None) == 35

    def beyond_the_work_limit():  # a sparse kernel whose R cannot be certified within WORK_LIMIT
        raise WorkLimitError("too much work")

    assert certified_bound(f, R, 1e-12, exact=beyond_the_work_limit, digits=None) == 35
    # an exact R (a tree) with an integer bound: the formula's own rounding leaves the last
    # digit undecided, and the exact value settles it
    assert certified_bound(f, 3.0, 0.0, exact=lambda: Fraction(36)) == 36.0
    assert certified_bound(f, 3.0, None, digits=None) == 36  # unknown error: the plain rounding
    assert certified_bound(lambda R: 1e5 * R, 1.0, 0.0, exact=lambda: Fraction(10**5)) == 1e5  # across a power of 10
    assert math.isclose(certified_bound(f, 3.1234567891, 1e-12), 39.02392)


def test_certified_bound_checks_its_error():
    with pytest.raises(ValueError, match="R_error must be >= 0"):
        certified_bound(f, 1.0, -1.0)
    with pytest.raises(TypeError, match="R_error must be a real number"):
        certified_bound(f, 1.0, "0")
