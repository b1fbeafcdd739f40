"""Classification losses as functions of the margin z = y f(x), with their (sub)gradients.

The perceptron and the SVM share one loss: ``max(0, threshold - z)``. With the
threshold at 0 it is the perceptron's loss (zero as soon as an example is on
the right side); with the threshold at 1 it is the hinge (zero only once the
example is a full unit beyond the boundary). The SVM adds a penalty
(lambda/2)||w||^2 on top; the perceptron has none. Scikit-learn's SGD builds
its ``"perceptron"`` loss the same way, as its hinge with threshold 0.

Every function takes z as a number or an array and returns the same shape.
``*_slope`` functions give dL/dz; the gradient in the weights follows by the
chain rule, dL/dw = L'(z) y x and dL/db = L'(z) y, since z = y (w.x + b).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "LOSSES",
    "hinge_loss",
    "hinge_slope",
    "logistic_loss",
    "logistic_slope",
    "loss",
    "margin_loss",
    "margin_slope",
    "perceptron_loss",
    "perceptron_slope",
    "slope",
    "subdifferential",
    "zero_one_loss",
    "zero_one_slope",
]

LOSSES = ("zero_one", "perceptron", "hinge", "logistic")

# dL/dz each algorithm takes AT its kink, z = threshold (any value in [-1, 0] is a subgradient).
# The perceptron updates on y a <= 0 (the notes' rule), so it takes -1 at z = 0; the notes'
# subgradient SVM updates only on y a < 1, so it takes 0 at z = 1.
PERCEPTRON_AT_KINK = -1.0
HINGE_AT_KINK = 0.0


def _z(z) -> np.ndarray:
    """z as a float array, or ValueError."""
    z = np.asarray(z, dtype=float)
    if np.any(np.isnan(z)):
        raise ValueError("z must be a number, got NaN")
    return z


def _out(values: np.ndarray):
    """A plain float for scalar input, the array otherwise."""
    return float(values) if values.ndim == 0 else values


def margin_loss(z, threshold: float):
    """The loss the perceptron and the SVM share: ``max(0, threshold - z)``.

    Parameters
    ----------
    z : float or array_like
        Margins z = y (w.x + b).
    threshold : float
        Where the loss starts: 0 for the perceptron, 1 for the hinge.

    Returns
    -------
    float or ndarray
        ``max(0, threshold - z)``, same shape as z.

    Notes
    -----
    Zero for z >= threshold, linear with slope -1 below. Threshold 0 gives the
    notes' perceptron loss max(0, -y^(n)(w^T x^(n) + w_0)); threshold 1 gives
    the hinge loss max(0, 1 - y^(n)(w^T x^(n) + w_0)) of the soft-margin SVM.

    Examples
    --------
    >>> margin_loss(0.5, 0.0), margin_loss(0.5, 1.0)
    (0.0, 0.5)
    """
    return _out(np.maximum(0.0, float(threshold) - _z(z)))


def margin_slope(z, threshold: float, *, at_kink: float):
    """dL/dz of :func:`margin_loss`, with the subgradient ``at_kink`` chosen at z = threshold.

    Parameters
    ----------
    z : float or array_like
        Margins.
    threshold : float
        The kink of the loss.
    at_kink : float
        The subgradient used at z = threshold; must lie in [-1, 0].

    Returns
    -------
    float or ndarray
        -1 where z < threshold, 0 where z > threshold, ``at_kink`` at z = threshold.

    Raises
    ------
    ValueError
        If ``at_kink`` is outside [-1, 0] (then it is not a subgradient).

    Notes
    -----
    At the kink the loss has no derivative; its subdifferential is the whole
    interval [-1, 0] (see :func:`subdifferential`), and an algorithm must pick
    one value. The pick decides whether an example exactly at the threshold
    triggers an update.
    """
    if not -1.0 <= at_kink <= 0.0:
        raise ValueError(f"at_kink must be in [-1, 0] (a subgradient), got {at_kink}")
    if type(z) is float and z == z:  # one plain number: the SGD loop's case, kept cheap
        return -1.0 if z < threshold else 0.0 if z > threshold else float(at_kink)
    z = _z(z)
    return _out(np.where(z < threshold, -1.0, np.where(z > threshold, 0.0, float(at_kink))))


def perceptron_loss(z):
    """The perceptron's loss ``max(0, -z)``: :func:`margin_loss` with threshold 0.

    Examples
    --------
    >>> perceptron_loss(-2.0), perceptron_loss(0.3)
    (2.0, 0.0)
    """
    return margin_loss(z, 0.0)


def hinge_loss(z):
    """The hinge loss ``max(0, 1 - z)``: :func:`margin_loss` with threshold 1.

    Examples
    --------
    >>> hinge_loss(-2.0), hinge_loss(0.3), hinge_loss(1.5)
    (3.0, 0.7, 0.0)
    """
    return margin_loss(z, 1.0)


def perceptron_slope(z):
    """dL/dz of the perceptron loss: -1 for z <= 0 (an update), 0 for z > 0.

    Notes
    -----
    At z = 0 the notes pick the subgradient of the misclassified case, so an
    example with y a = 0 updates w by eta y x.
    """
    return margin_slope(z, 0.0, at_kink=PERCEPTRON_AT_KINK)


def hinge_slope(z):
    """dL/dz of the hinge: -1 for z < 1 (a margin violation), 0 for z >= 1.

    Notes
    -----
    At z = 1 the notes' subgradient code takes 0 (it collects the violations
    ``y*yh < 1``), so an example exactly on its margin does not push w.
    """
    return margin_slope(z, 1.0, at_kink=HINGE_AT_KINK)


def zero_one_loss(z):
    """The 0-1 loss: 1 when z <= 0 (wrong, or on the boundary), else 0.

    Notes
    -----
    A tie (z = 0) counts as an error, as in the perceptron's rule y a <= 0.

    Examples
    --------
    >>> zero_one_loss(0.0), zero_one_loss(1e-9)
    (1.0, 0.0)
    """
    return _out(np.where(_z(z) <= 0.0, 1.0, 0.0))


def zero_one_slope(z):
    """dL/dz of the 0-1 loss: 0 wherever z != 0, NaN at the jump z = 0 (no derivative).

    Notes
    -----
    The loss is flat almost everywhere and jumps at 0, so it gives gradient
    descent no direction at all; it is not convex either, so it has no
    subgradient at the jump. This is why the perceptron, the SVM and logistic
    regression all minimise a convex surrogate instead.
    """
    z = _z(z)
    return _out(np.where(z == 0.0, np.nan, 0.0))


def _log_base(base: float) -> float:
    """ln(base), or ValueError for a base that is not a logarithm base."""
    base = float(base)
    if not (math.isfinite(base) and base > 0 and base != 1.0):
        raise ValueError(f"base must be > 0 and not 1, got {base}")
    return math.log(base)


def logistic_loss(z, base: float = 2.0):
    """The logistic loss ``log_base(1 + e^(-z))``.

    Parameters
    ----------
    z : float or array_like
        Margins.
    base : float, default 2
        Base of the logarithm: 2 makes the loss equal 1 at z = 0, where the
        0-1 loss jumps, so it bounds the 0-1 loss from above like the hinge
        does; ``math.e`` gives the notes' natural log, the same curve times ln 2.

    Returns
    -------
    float or ndarray
        The loss, computed without overflow for large |z|.

    Examples
    --------
    >>> logistic_loss(0.0), round(logistic_loss(0.0, math.e), 6)
    (1.0, 0.693147)
    """
    return _out(np.logaddexp(0.0, -_z(z)) / _log_base(base))


def logistic_slope(z, base: float = 2.0):
    """dL/dz of the logistic loss: ``-1 / ((1 + e^z) ln base)``, smooth everywhere.

    Notes
    -----
    It never reaches 0: logistic regression keeps pushing every example,
    however far on the right side, a little further.
    """
    z = _z(z)
    # 1/(1 + e^z) = e^(-logaddexp(0, z)), without overflow
    return _out(-np.exp(-np.logaddexp(0.0, z)) / _log_base(base))


def loss(name: str, z, *, base: float = 2.0):
    """The loss ``name`` at z.

    Parameters
    ----------
    name : str
        One of :data:`LOSSES`: "zero_one", "perceptron", "hinge" or "logistic".
    z : float or array_like
        Margins.
    base : float, default 2
        Logarithm base of the logistic loss.

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`LOSSES`.

    Examples
    --------
    >>> [loss(name, 0.0) for name in LOSSES]
    [1.0, 0.0, 1.0, 1.0]
    """
    return _pair(name)[0](z, base)


def slope(name: str, z, *, base: float = 2.0):
    """The dL/dz the algorithm of loss ``name`` uses at z (its pick at a kink).

    Parameters
    ----------
    name : str
        One of :data:`LOSSES`.
    z : float or array_like
        Margins.
    base : float, default 2
        Logarithm base of the logistic loss.

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`LOSSES`.

    Examples
    --------
    >>> slope("perceptron", 0.0), slope("hinge", 1.0), slope("hinge", 0.0)
    (-1.0, 0.0, -1.0)
    """
    return _pair(name)[1](z, base)


def _pair(name: str):
    """The (loss, slope) functions of ``name``, each called as f(z, base)."""
    pairs = {
        "zero_one": (lambda z, _: zero_one_loss(z), lambda z, _: zero_one_slope(z)),
        "perceptron": (lambda z, _: perceptron_loss(z), lambda z, _: perceptron_slope(z)),
        "hinge": (lambda z, _: hinge_loss(z), lambda z, _: hinge_slope(z)),
        "logistic": (logistic_loss, logistic_slope),
    }
    if name not in pairs:
        raise ValueError(f"loss must be one of {', '.join(LOSSES)}; got {name!r}")
    return pairs[name]


def subdifferential(name: str, z: float, *, base: float = 2.0) -> tuple[float, float]:
    """Every subgradient dL/dz of loss ``name`` at one z, as an interval (low, high).

    Parameters
    ----------
    name : str
        One of :data:`LOSSES`.
    z : float
        One margin.
    base : float, default 2
        Logarithm base of the logistic loss.

    Returns
    -------
    (low, high)
        ``low == high`` where the loss is differentiable; (-1, 0) at the kink
        of the perceptron loss (z = 0) and of the hinge (z = 1); (nan, nan) for
        the 0-1 loss at z = 0, where it jumps and has no subgradient.

    Examples
    --------
    >>> subdifferential("hinge", 1.0), subdifferential("hinge", 0.0)
    ((-1.0, 0.0), (-1.0, -1.0))
    """
    z = float(_z(z))
    kinks = {"perceptron": 0.0, "hinge": 1.0}
    if name in kinks and z == kinks[name]:
        return (-1.0, 0.0)
    value = float(slope(name, z, base=base))
    return (value, value)
