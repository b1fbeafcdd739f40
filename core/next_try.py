"""What to try after a run that stopped at its epoch cap with examples still wrong.

Separable data: the perceptron would finish, and Novikoff's bound says within how many
mistakes. Whether the data are separable is decided by the same linear programme as the
maximum-margin separator (:func:`core.geometry.best_unit_separator`), and a "yes" is then
certified exactly: the separator found is checked in rational arithmetic against every
example, on the data's short decimals where they are (:func:`core.decimals.decimal_integers`)
and on the floats' exact values otherwise. A separator that fails that check (a margin
within rounding of 0) makes no claim.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from core.decimals import decimal_integers
from core.geometry import best_unit_separator, radius
from core.validation import check_data

__all__ = ["AfterCap", "after_cap", "certified_separator"]


@dataclass(frozen=True)
class AfterCap:
    """What a capped run's data allow.

    Attributes
    ----------
    separable : bool
        Some line (with a bias, when the run has one) puts every example on its side,
        certified exactly.
    gamma : float
        The bound's margin: the best min_n y_n u·z_n of a unit u (z_n = (x_n, 1) with a
        bias); 0 when not separable.
    radius : float
        R = max_n ||z_n||.
    bound : float
        Novikoff's R²/γ² (``inf`` when not separable): from w = 0 the perceptron makes at
        most this many mistakes, in any order, at any η.
    mistakes : int
        The run's mistakes so far.
    epochs : int
        The epochs it ran.
    guaranteed : int or None
        From w = 0, an epoch cap by which the run must have converged: every epoch
        before convergence makes at least one more mistake, at most floor(bound) -
        mistakes remain, and one clean epoch ends it. None when not separable or the
        run did not start at w = 0.
    """

    separable: bool
    gamma: float
    radius: float
    bound: float
    mistakes: int
    epochs: int
    guaranteed: int | None


def certified_separator(X, y, w, b: float) -> bool:
    """Whether y_n (w·x_n + b) > 0 for every n, decided in exact rational arithmetic.

    Examples
    --------
    >>> certified_separator([[0.1, 0.2], [0.3, 0.0]], [-1, 1], [1.0, -1.0], 0.0)
    True
    >>> certified_separator([[0.1, 0.2], [0.2, 0.1]], [-1, 1], [1.0, 1.0], -0.3)  # a tie
    False
    """
    X = np.asarray(X, dtype=float)
    found = decimal_integers(X)
    if found is not None:  # the data as written: integers over one power of ten
        scale, integers = found
        rows = [[Fraction(int(v), 10**scale) for v in row] for row in integers]
    else:
        rows = [[Fraction(float(v)) for v in row] for row in X]
    ws = [Fraction(float(v)) for v in np.ravel(w)]
    bias = Fraction(float(b))
    return all(
        (1 if label > 0 else -1) * (sum(wi * xi for wi, xi in zip(ws, row, strict=True)) + bias)
        > 0
        for row, label in zip(rows, np.asarray(y, dtype=float), strict=True)
    )


def after_cap(X, y, *, mistakes: int, epochs: int, bias: bool = True,
              from_zero: bool = True) -> AfterCap:
    """Decide whether a capped run's data are separable, and what the bound then allows.

    Parameters
    ----------
    X, y : array_like
        The data (labels in {-1, +1}).
    mistakes, epochs : int
        The run's mistakes and epochs when it stopped.
    bias : bool, default True
        Whether the run learns a bias (the bound's z_n = (x_n, 1)).
    from_zero : bool, default True
        Whether the run started at w = 0, b = 0 (the bound counts from there).

    Returns
    -------
    AfterCap

    Examples
    --------
    >>> a = after_cap([[1.0], [-2.0]], [1, -1], mistakes=1, epochs=1, bias=False)
    >>> a.separable, a.bound, a.guaranteed
    (True, 4.0, 5)
    >>> after_cap([[0.0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1], mistakes=9,
    ...           epochs=5).separable
    False
    """
    X, y = check_data(X, y)
    R = radius(X, bias=bias)
    found = best_unit_separator(X, y, bias=bias)
    separable = False
    gamma = 0.0
    if found is not None:
        u, gamma = found
        u = np.asarray(u, dtype=float)
        w, b = (u[:-1], float(u[-1])) if bias else (u, 0.0)
        separable = gamma > 0 and certified_separator(X, y, w, b)
    if not separable:
        return AfterCap(False, 0.0, R, math.inf, mistakes, epochs, None)
    bound = max(1.0, R**2 / gamma**2)
    guaranteed = None
    if from_zero:
        guaranteed = epochs + max(0, math.floor(bound) - mistakes) + 1
    return AfterCap(True, float(gamma), float(R), float(bound), mistakes, epochs, guaranteed)
