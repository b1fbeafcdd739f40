"""Why an update helps: how much one update moves y*a at the example it visits, and how
many such updates it takes to get the example right, counted exactly (a tie is a mistake)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["UpdateEffect", "update_effect", "update_gain", "updates_to_flip"]


def update_gain(x, *, eta: float, bias: bool = True) -> float:
    """How much one update on x raises y*a on x itself: eta (||x||^2 + 1) with a bias.

    Parameters
    ----------
    x : array_like, shape (D,)
        The example updated on.
    eta : float
        Learning rate.
    bias : bool, default True
        Whether b is learned (it adds eta y to b, so eta to y*a).

    Returns
    -------
    float
        y*a after the update minus y*a before, whatever the label:
        y (w + eta y x).x + y (b + eta y) = y a + eta (||x||^2 + 1), as y^2 = 1.

    Examples
    --------
    >>> update_gain([2.0, 1.0], eta=0.1)  # 0.1 * (4 + 1 + 1)
    0.6000000000000001
    """
    x = np.asarray(x, dtype=float)
    return float(eta * (x @ x + (1.0 if bias else 0.0)))


def updates_to_flip(margin, gain) -> int | None:
    """Updates on one example, and on it alone, until its y*a is above 0.

    Parameters
    ----------
    margin : int, Fraction or float
        Its y*a now.
    gain : int, Fraction or float
        What one update on it adds to y*a (:func:`update_effect`), >= 0.

    Returns
    -------
    int or None
        0 when y*a > 0 already; else the least m with margin + m gain > 0. A
        tie y*a = 0 is a mistake, so a margin that lands on 0 needs one more.
        None when no number of updates does it: a gain of 0 (x = 0 without a
        bias, where an update changes nothing).

    Notes
    -----
    Counted exactly: the numbers are taken as the fractions they are (a float
    at its exact binary value, which is why an exact run passes the Fractions of
    its short decimals, :func:`update_effect`). In floats, -0.3 + 0.30000000000000004
    is above 0, while the run's own -3/10 + 3/10 is a tie.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> updates_to_flip(F(-13, 10), F(6, 10)), updates_to_flip(F(-12, 10), F(6, 10))
    (3, 3)
    >>> updates_to_flip(F(-3, 10), F(3, 10)), updates_to_flip(F(1, 2), F(6, 10))
    (2, 0)
    """
    margin, gain = Fraction(margin), Fraction(gain)
    if gain < 0:
        raise ValueError(f"an update never lowers y*a: gain must be >= 0, got {gain}")
    if margin > 0:
        return 0
    if gain == 0:
        return None
    return int(-margin // gain) + 1


@dataclass(frozen=True)
class UpdateEffect:
    """What one update on an example does to y*a on that same example.

    ``before`` and ``after`` are y*a before and after the update, ``gain`` their
    difference eta(||x||^2 + 1) (without the 1 when there is no bias), ``needed``
    the updates on it alone that make y*a > 0 (:func:`updates_to_flip`; None when
    none can, x = 0 without a bias), and
    ``exact`` whether they are the run's exact numbers (Fractions) or floats.
    """

    before: Fraction | float
    after: Fraction | float
    gain: Fraction | float
    needed: int | None
    exact: bool

    @property
    def flipped(self) -> bool:
        """Whether this one update put the example strictly on its side (y*a > 0)."""
        return self.after > 0


def update_effect(x, y, w, b, *, eta, bias: bool = True) -> UpdateEffect:
    """The effect of one update on (x, y) from the weights (w, b), on that example.

    Parameters
    ----------
    x : sequence
        The example (D,): Fractions for an exact run, else floats.
    y : int or float
        Its label, -1 or +1.
    w, b : sequence, number
        The weights before the update, Fractions or floats as x.
    eta : Fraction or float
        The learning rate.
    bias : bool, default True
        Whether b is learned (it adds eta y to b, so eta to y*a).

    Returns
    -------
    UpdateEffect
        Exact when every number is an int or a Fraction.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> e = update_effect([F(1), F(1)], -1, [F(-1, 10), F(-1, 10)], F(0), eta=F(1, 10))
    >>> str(e.before), str(e.after), str(e.gain), e.needed, e.flipped
    ('1/5', '1/2', '3/10', 0, True)
    """
    values = [*x, *w, b, eta]
    exact = all(isinstance(v, (int, Fraction)) for v in values)
    y = int(y)
    if exact:
        before = y * (sum(wi * xi for wi, xi in zip(w, x, strict=True)) + b)
        gain = eta * (sum(xi * xi for xi in x) + (1 if bias else 0))
        after = before + gain
        return UpdateEffect(before, after, gain, updates_to_flip(before, gain), True)
    x, w = np.asarray(x, dtype=float), np.asarray(w, dtype=float)
    before = y * float(x @ w + float(b))
    step = float(eta) * y
    after = y * float(x @ (w + step * x) + float(b) + (step if bias else 0.0))
    gain = update_gain(x, eta=float(eta), bias=bias)
    return UpdateEffect(before, after, gain, _float_updates(x, y, w, float(b), step, bias, gain),
                        False)


# Past this many updates the floats' rounding cannot change the count's sense: counted exactly.
_COUNTED = 1000


def _float_updates(x, y: int, w, b: float, step: float, bias: bool, gain: float) -> int | None:
    """:func:`updates_to_flip` in the arithmetic the float run's ``after`` is in: the updates
    repeated in floats until y*a > 0, so that an update whose float y*a lands on 0 is never
    followed by "needs 1 update"."""
    if gain == 0:
        return None
    estimate = updates_to_flip(y * float(x @ w + b), gain)
    if estimate is None or estimate > _COUNTED:
        return estimate
    for m in range(1, _COUNTED + 2):
        w = w + step * x
        b = b + (step if bias else 0.0)
        if y * float(x @ w + b) > 0:
            return m
    return estimate
