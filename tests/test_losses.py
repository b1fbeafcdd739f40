"""The losses of the margin z and their (sub)gradients, at and around the kinks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import losses
from core.losses import (
    LOSSES,
    hinge_loss,
    hinge_slope,
    logistic_loss,
    logistic_slope,
    margin_loss,
    margin_slope,
    perceptron_loss,
    perceptron_slope,
    subdifferential,
    zero_one_loss,
    zero_one_slope,
)

KINKS = {"perceptron": 0.0, "hinge": 1.0}
EPS = 1e-9
margins = st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False)


# ---------------------------------------------------------------- values against the formulas


@pytest.mark.parametrize("z", [-3.0, -1.0, -1e-12, 0.0, 1e-12, 0.5, 1.0 - 1e-12, 1.0, 1.5, 3.0])
def test_values_match_their_formulas(z):
    assert perceptron_loss(z) == max(0.0, -z)
    assert hinge_loss(z) == max(0.0, 1.0 - z)
    assert zero_one_loss(z) == (1.0 if z <= 0 else 0.0)
    assert logistic_loss(z, math.e) == pytest.approx(math.log(1 + math.exp(-z)), rel=1e-14)
    assert logistic_loss(z, 2.0) == pytest.approx(math.log2(1 + math.exp(-z)), rel=1e-14)


@given(z=margins, threshold=st.floats(-3.0, 3.0))
def test_one_loss_with_a_threshold_is_both(z, threshold):
    assert margin_loss(z, threshold) == max(0.0, threshold - z)
    assert perceptron_loss(z) == margin_loss(z, 0.0)
    assert hinge_loss(z) == margin_loss(z, 1.0)


def test_arrays_keep_their_shape():
    z = np.linspace(-2, 2, 12).reshape(3, 4)
    for name in LOSSES:
        assert losses.loss(name, z).shape == (3, 4)
        assert losses.slope(name, z).shape == (3, 4)
    assert isinstance(hinge_loss(0.5), float) and isinstance(hinge_slope(0.5), float)


def test_logistic_base_two_is_one_at_zero_and_bounds_the_zero_one_loss():
    z = np.linspace(-5, 5, 2001)
    assert logistic_loss(0.0) == 1.0
    assert logistic_loss(0.0, math.e) == pytest.approx(math.log(2))
    assert np.all(logistic_loss(z) >= zero_one_loss(z))
    assert np.all(hinge_loss(z) >= zero_one_loss(z))
    # the natural log is the same curve scaled by ln 2
    np.testing.assert_allclose(logistic_loss(z, math.e), math.log(2) * logistic_loss(z), rtol=1e-14)


def test_logistic_does_not_overflow():
    assert logistic_loss(-1000.0, math.e) == pytest.approx(1000.0)
    assert logistic_loss(1000.0) == 0.0
    assert logistic_slope(-1000.0, math.e) == pytest.approx(-1.0)
    assert logistic_slope(1000.0) == pytest.approx(0.0, abs=1e-300)


# ---------------------------------------------------------------- slopes at and around the kinks


@pytest.mark.parametrize(
    ("slope", "kink", "at_kink"),
    [(perceptron_slope, 0.0, -1.0), (hinge_slope, 1.0, 0.0)],
)
def test_slopes_at_and_either_side_of_the_kink(slope, kink, at_kink):
    assert slope(kink - EPS) == -1.0
    assert slope(kink) == at_kink
    assert slope(kink + EPS) == 0.0
    assert slope(kink - 5.0) == -1.0 and slope(kink + 5.0) == 0.0


def test_the_perceptron_updates_at_zero_and_the_svm_does_not_at_one():
    # the seeds' rules: update on y*a <= 0; violations are y*yh < 1
    assert perceptron_slope(0.0) != 0 and hinge_slope(1.0) == 0
    assert perceptron_slope(np.array([0.0]))[0] == -1.0
    assert hinge_slope(np.array([1.0]))[0] == 0.0


@pytest.mark.parametrize("name", ["perceptron", "hinge"])
def test_subdifferential_is_the_interval_at_the_kink_and_a_point_elsewhere(name):
    kink = KINKS[name]
    assert subdifferential(name, kink) == (-1.0, 0.0)
    assert subdifferential(name, kink - EPS) == (-1.0, -1.0)
    assert subdifferential(name, kink + EPS) == (0.0, 0.0)
    low, high = subdifferential(name, kink)
    assert low <= losses.slope(name, kink) <= high  # the algorithm's pick is a subgradient


def test_zero_one_loss_has_no_slope_at_its_jump():
    assert zero_one_loss(0.0) == 1.0 and zero_one_loss(EPS) == 0.0
    assert math.isnan(zero_one_slope(0.0))
    assert zero_one_slope(-EPS) == 0.0 and zero_one_slope(EPS) == 0.0
    low, high = subdifferential("zero_one", 0.0)
    assert math.isnan(low) and math.isnan(high)
    assert subdifferential("zero_one", 2.0) == (0.0, 0.0)


@settings(max_examples=300)
@given(z=margins, name=st.sampled_from(LOSSES), base=st.sampled_from([2.0, math.e]))
def test_slopes_match_numerical_derivatives_away_from_the_kinks(z, name, base):
    h = 1e-6
    kink = {"perceptron": 0.0, "hinge": 1.0, "zero_one": 0.0}.get(name)
    if kink is not None and abs(z - kink) < 10 * h:
        return  # no derivative there: the kink tests cover it
    numeric = (losses.loss(name, z + h, base=base) - losses.loss(name, z - h, base=base)) / (2 * h)
    assert losses.slope(name, z, base=base) == pytest.approx(numeric, abs=1e-6)


@settings(max_examples=300)
@given(z=margins, other=margins, name=st.sampled_from(["perceptron", "hinge", "logistic"]))
def test_every_subgradient_supports_the_convex_loss(z, other, name):
    # g is a subgradient at z iff L(z') >= L(z) + g (z' - z) for all z'
    for g in subdifferential(name, z):
        assert losses.loss(name, other) >= losses.loss(name, z) + g * (other - z) - 1e-9


def test_gradient_in_w_by_the_chain_rule():
    # dL/dw = L'(z) y x with z = y (w.x + b): check against finite differences in w
    x, y, b = np.array([2.0, 1.0]), -1.0, 0.3
    w = np.array([0.4, -0.7])
    for name in ("perceptron", "hinge", "logistic"):
        def value(v, name=name):
            return losses.loss(name, y * (v @ x + b))

        z = y * (w @ x + b)
        analytic = losses.slope(name, z) * y * x
        numeric = np.array([(value(w + 1e-6 * e) - value(w - 1e-6 * e)) / 2e-6
                            for e in np.eye(2)])
        np.testing.assert_allclose(analytic, numeric, atol=1e-6)


# ---------------------------------------------------------------- scikit-learn's kinship


def test_same_as_scikit_learns_sgd_losses_away_from_the_kink():
    sgd_fast = pytest.importorskip("sklearn.linear_model._sgd_fast")
    for threshold, ours in ((0.0, perceptron_loss), (1.0, hinge_loss)):
        theirs = sgd_fast.Hinge(threshold)
        for p in (-2.0, -0.3, 0.4, 0.8, 1.7):
            for y in (-1.0, 1.0):
                z = p * y
                assert ours(z) == pytest.approx(theirs.py_loss(p, y))
                # sklearn's dloss is dL/dp = L'(z) y
                assert losses.margin_slope(z, threshold, at_kink=-1.0) * y == pytest.approx(
                    theirs.py_dloss(p, y))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: margin_slope(0.0, 0.0, at_kink=0.5), r"at_kink must be in \[-1, 0\]"),
        (lambda: logistic_loss(0.0, base=1.0), "base must be > 0 and not 1"),
        (lambda: logistic_loss(0.0, base=-2.0), "base must be > 0 and not 1"),
        (lambda: hinge_loss(float("nan")), "z must be a number"),
        (lambda: hinge_slope(np.array([0.0, np.nan])), "z must be a number"),
        (lambda: losses.loss("squared", 0.0), "loss must be one of"),
        (lambda: losses.slope("squared", 0.0), "loss must be one of"),
    ],
)
def test_bad_input_is_rejected_with_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()
