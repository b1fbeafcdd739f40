"""Short decimals as integers: what makes a run's decisions exact.

When the data, eta and the start are short decimals (every built-in set, every
drawn point and nearly every CSV), a rule scales them by powers of ten to
integers and decides y*a <= 0 in integers: int64 while no value can reach
2^62, Python ints beyond. The steps report the floats nearest the exact
values. Other data run in floats, and :data:`TIE` says how far from its exact
value a float sum can land.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "INT64_SAFE", "MAX_DECIMALS", "TIE", "as_integers", "decimal_integers", "decimals",
    "integers_for", "scaled", "tie_tolerance", "to_float", "widen",
]

# Most decimal places a number may have for a run to be exact.
MAX_DECIMALS = 6
# Integers in int64 stay exact below this bound; beyond it a run uses Python ints.
INT64_SAFE = 2**62


def decimals(values, *, max_decimals: int = MAX_DECIMALS) -> int | None:
    """The fewest decimal places k <= max_decimals that write every value exactly, or None.

    Parameters
    ----------
    values : array_like
        Finite numbers.
    max_decimals : int, default 6
        Largest k tried.

    Returns
    -------
    int or None
        The smallest k such that every value is the float nearest to some
        m / 10^k with m an integer (what reading "m / 10^k" written with k
        decimals gives), or None when no k up to ``max_decimals`` works (or a
        scaled value is too large to be an exact float integer).

    Notes
    -----
    The check is exact, not a tolerance: m / 10^k of two exact floats is
    rounded correctly, so it equals v only when v really is that decimal.
    1.0000000004 is not 1 to six places, and 0.1 + 0.2 (which is not the
    float 0.3) is no short decimal either; a run on either is not exact.

    Examples
    --------
    >>> decimals([1.5, 0.25, 3])
    2
    >>> decimals([0.1234567]) is None
    True
    >>> decimals([1.0000000004]) is None
    True
    """
    found = decimal_integers(values, max_decimals=max_decimals)
    return None if found is None else found[0]


def decimal_integers(values, *, max_decimals: int = MAX_DECIMALS) -> tuple[int, np.ndarray] | None:
    """:func:`decimals` and the values times 10^k, integers held exactly as float64.

    The integers are the ones the check itself computed, so short-decimal data
    cost one rounding pass, not a check and then a conversion.

    Examples
    --------
    >>> k, integers = decimal_integers([[1.5, -0.25]])
    >>> k, integers.tolist()
    (2, [[150.0, -25.0]])
    """
    v = np.asarray(values, dtype=float)
    flat = v.ravel()
    # a sample says where to start (and most columns that are not short decimals show it
    # at once); the whole column is then checked from there, usually in one pass
    sample = (0,) if flat.size <= 64 else decimal_integers(flat[:64], max_decimals=max_decimals)
    if sample is None:
        return None
    low = sample[0]
    top = float(np.max(np.abs(flat), initial=0.0))
    for k in range(low, max_decimals + 1):
        if top * 10.0**k >= 2.0**53:
            return None
        integers = np.round(flat * 10.0**k)
        # exact, not a tolerance: m / 10^k is correctly rounded, so it is v only when v is it
        if np.array_equal(integers / 10.0**k, flat):
            return k, integers.reshape(v.shape)
    return None


def scaled(values, k: int) -> np.ndarray:
    """values * 10^k rounded to integers (exact once :func:`decimals` said k is enough).

    int64 when every value fits below 2^62, else Python ints (dtype object).
    """
    v = np.round(np.asarray(values, dtype=float) * 10.0**k)
    if np.all(np.abs(v) < INT64_SAFE):
        return v.astype(np.int64)
    return np.array([round(float(x) * 10**k) for x in np.ravel(values)],
                    dtype=object).reshape(np.shape(values))


def integers_for(bound):
    """The dtype that holds integers up to ``bound`` exactly, fastest first.

    float64 while every value, product and sum stays below 2^53 (the products
    then run in BLAS, and are exact); int64 below 2^62; Python ints beyond.
    """
    if bound < 2**53:
        return np.float64
    return np.int64 if bound < INT64_SAFE else object


def as_integers(values, kind) -> np.ndarray:
    """Integer values held as ``kind`` (see :func:`integers_for`), converted exactly."""
    values = np.asarray(values)
    if values.dtype == kind:
        return values
    if kind is object:
        return np.array([int(v) for v in values.ravel()], dtype=object).reshape(values.shape)
    if values.dtype == object:
        values = np.array([int(v) for v in values.ravel()], dtype=np.int64).reshape(values.shape)
    return values.astype(kind)


def widen(values, bound) -> np.ndarray:
    """Integers as int64 when ``bound`` (a bound on what they will reach) allows, else ints."""
    return as_integers(values, np.int64 if bound < INT64_SAFE else object)


def to_float(numerators, k: int) -> np.ndarray:
    """The floats nearest numerators / 10^k (correctly rounded, Python ints included)."""
    numerators = np.asarray(numerators)
    if numerators.dtype in (np.int64, np.float64) and np.all(np.abs(numerators) < 2**53):
        return numerators.astype(float) / 10.0**k  # both exact: one correctly rounded division
    scale = 10**k
    return np.array([int(v) / scale for v in numerators.ravel()]).reshape(numerators.shape)


# A float sum whose terms add up to S in size lands within TIE * S of its exact value.
TIE = 16 * float(np.finfo(float).eps)


def tie_tolerance(terms):
    """How far from 0 a float sum whose terms add up to ``terms`` in size can land at a tie."""
    return TIE * terms
