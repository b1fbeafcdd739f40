"""The checks written once in core/validation.py, and that the algorithms say the same."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.max_margin import max_margin
from core.soft_margin import lam_to_C, soft_margin
from core.validation import check_data, check_positive, check_two_classes


@pytest.mark.parametrize(("X", "y", "message"), [
    ([1.0, 2.0], [1, -1], r"X must be a 2-D array \(N, D\), got shape \(2,\)"),
    (np.zeros((0, 2)), [], "X has no rows"),
    (np.zeros((2, 0)), [1, -1], "X has no columns"),
    ([[0.0], [math.nan]], [1, -1], "X must be finite"),
    ([[0.0], [1.0]], [1], r"y must have shape \(2,\) to match X, got \(1,\)"),
    ([[0.0], [1.0]], [1, 0], r"y must contain only -1 and \+1"),
    ([[0.0], [1.0]], ["a", "b"], r"y must contain only -1 and \+1"),
])
def test_bad_data_is_named(X, y, message):
    with pytest.raises(ValueError, match=message):
        check_data(X, y)


@pytest.mark.parametrize("value", [0, -1.0, math.nan, math.inf, True, "1", None])
def test_a_setting_that_must_be_positive(value):
    with pytest.raises(ValueError, match=f"^C must be > 0, got {value}$"):
        check_positive(value, name="C")


def test_zero_is_allowed_only_when_asked():
    assert check_positive(0, name="lam", zero=True) == 0.0
    assert check_positive(np.float32(0.5), name="lam") == 0.5
    with pytest.raises(ValueError, match=r"^lam must be >= 0, got -0.1$"):
        check_positive(-0.1, name="lam", zero=True)


def test_one_class_is_refused_by_every_separator_that_needs_two():
    X, y = [[0.0, 0.0], [1.0, 1.0]], [1, 1]
    with pytest.raises(ValueError, match=r"^two classes are needed: y has only one label$"):
        check_two_classes(np.array(y, dtype=float))
    for solve in (max_margin, lambda X, y: soft_margin(X, y, C=1.0)):
        with pytest.raises(ValueError, match=r"^two classes are needed"):
            solve(X, y)
    with pytest.raises(ValueError, match=r"^lam must be > 0, got 0$"):
        lam_to_C(0, n=4)
