"""Short decimals as integers: what makes a run's decisions exact.

When the data, eta and the start are short decimals (every built-in set, every
drawn point and nearly every CSV), a rule scales them by powers of ten to
integers and decides y*a <= 0 in integers: int64 while no value can reach
2^62, Python ints beyond. The steps report the floats nearest the exact
values. Other data run in floats, and :data:`TIE` says how far from its exact
value a float sum can land. Which examples any weights get wrong is decided the
same way (:class:`Misclassified`), so counts of training errors agree with the
run's own decisions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = [
    "INT64_SAFE", "MAX_DECIMALS", "TIE", "Misclassified", "as_integers", "decimal_integers",
    "decimals", "exact_decimals", "integers_for", "running_sums", "scaled", "tie_tolerance",
    "to_float", "widen",
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


def exact_decimals(values, *, max_decimals: int = MAX_DECIMALS) -> np.ndarray | None:
    """The short decimals the values are the floats of, as Fractions; None if some is not one.

    The numbers an exact run computes with (:func:`decimal_integers`, then m / 10^k),
    for checking its decisions in exact arithmetic outside the walk.

    Examples
    --------
    >>> exact_decimals([0.1, 0.3]).tolist()
    [Fraction(1, 10), Fraction(3, 10)]
    >>> exact_decimals([0.1 + 0.2]) is None
    True
    """
    found = decimal_integers(values, max_decimals=max_decimals)
    if found is None:
        return None
    k, integers = found
    out = np.empty(integers.shape, dtype=object)
    out.flat[:] = [Fraction(int(m), 10**k) for m in integers.ravel()]
    return out


class Misclassified:
    """Which examples weights (w, b) get wrong, y_n (w.x_n + b) <= 0, decided exactly when
    the numbers allow it.

    When X, w and b are short decimals (w and b with up to twice the places of a run's
    data, as an exact run's weights are), the sign is decided in integers: a tie is exactly
    0, and a mistake. Otherwise in floats. X is read once, for many weights.

    Examples
    --------
    >>> X, y, w = [[0.3, 2.1]], [-1], [0.7, -0.1]
    >>> Misclassified(X, y).count(w, 0.0)  # 0.21 - 0.21 = 0 exactly: a tie, a mistake
    1
    >>> -1 * (0.3 * 0.7 + 2.1 * -0.1) > 0  # in floats the tie looks correct
    True
    """

    def __init__(self, X, y):
        self.X, self.y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        found = decimal_integers(self.X)
        self._kx, self._Xi = (None, None) if found is None else found
        if found is not None:
            self._top = float(np.max(np.abs(self._Xi), initial=0.0))
            self._yi = np.where(self.y > 0, 1, -1).astype(np.int64)
            self._X64 = self._Xi.astype(np.int64)
            self._width = (self._Xi.shape[1] * self._top + 10**self._kx)

    def rows(self, w, b) -> np.ndarray:
        """For every example, whether (w, b) gets it wrong (bool array)."""
        w = np.asarray(w, dtype=float).ravel()
        if self._Xi is not None:
            found = _few_decimals([*w.tolist(), float(b)], 2 * MAX_DECIMALS)
            if found is not None:
                return self._exact(found[1])
        return self.y * (self.X @ w + float(b)) <= 0

    def rows_scaled(self, Wi) -> np.ndarray | None:
        """:meth:`rows` for weights given as integers (w and b times one power of ten, say
        a sum of weights kept exact); None when X is not short decimals."""
        return None if self._Xi is None else self._exact([int(v) for v in Wi])

    def count(self, w, b) -> int:
        """How many examples (w, b) gets wrong."""
        return int(np.sum(self.rows(w, b)))

    def counts(self, W, b, *, block: int = 64) -> np.ndarray:
        """:meth:`count` of many weights at once: row k of W with b[k] (int array)."""
        W, b = np.asarray(W, dtype=float), np.asarray(b, dtype=float)
        found = None if self._Xi is None else decimal_integers(
            np.column_stack([W, b]), max_decimals=2 * MAX_DECIMALS)
        if found is None or self._width * float(np.max(np.abs(found[1]), initial=0.0)) >= 2**53:
            return np.array([self.count(w, c) for w, c in zip(W, b, strict=True)], dtype=int)
        Wi, scale = found[1], 10**self._kx  # exact float integers: BLAS decides exactly
        out = np.empty(len(W), dtype=int)
        for start in range(0, len(W), block):
            part = Wi[start:start + block]
            a = self._Xi @ part[:, :-1].T + part[:, -1] * scale
            out[start:start + block] = np.sum(self.y[:, None] * a <= 0, axis=0)
        return out

    def _exact(self, Wi: list[int]) -> np.ndarray:
        """y*a * 10^(kx + kw) = y * (Xi.Wi[:-1] + Wi[-1] * 10^kx), in integers: w and b
        are Wi / 10^kw, and the power kw does not change a sign."""
        scale = 10**self._kx
        reach = self._width * max(map(abs, Wi), default=0)
        if reach < 2**53:  # every product and sum an exact float: BLAS decides exactly
            return self.y * (self._Xi @ np.array(Wi[:-1], dtype=float) + Wi[-1] * scale) <= 0
        if reach < INT64_SAFE:
            a = self._X64 @ np.array(Wi[:-1], dtype=np.int64) + Wi[-1] * scale
            return self._yi * a <= 0
        Xi = self._Xi.astype(object)
        w = np.array(Wi[:-1], dtype=object)
        a = Xi @ w + Wi[-1] * scale
        return np.array([int(y) * int(v) <= 0 for y, v in zip(self._yi, a, strict=True)],
                        dtype=bool)


def running_sums(values, rows=None) -> np.ndarray | None:
    """Exact running sums of rows of short decimals, in integer units, or None.

    Parameters
    ----------
    values : array_like, shape (R, K)
        Rows of short decimals (weights (w, b) of a run, each with up to twice a
        run's decimal places).
    rows : array_like of int, optional
        Which row is added at each step (default: every row in turn).

    Returns
    -------
    ndarray of int64, shape (T, K), or None
        Row t is the sum of the first t + 1 rows added, times 10^k (one k for all):
        :class:`Misclassified`'s ``rows_scaled`` decides their signs exactly. None
        when the rows are not short decimals or the sums could leave int64.

    Examples
    --------
    >>> running_sums([[0.1, 0.2], [0.2, -0.1]]).tolist()  # 0.1 + 0.2 is 3/10 exactly
    [[1, 2], [3, 1]]
    """
    found = decimal_integers(values, max_decimals=2 * MAX_DECIMALS)
    if found is None:
        return None
    picked = found[1] if rows is None else found[1][np.asarray(rows, dtype=int)]
    if float(np.max(np.abs(picked), initial=0.0)) * max(len(picked), 1) >= INT64_SAFE:
        return None
    return np.cumsum(picked.astype(np.int64), axis=0)


def _few_decimals(values: list[float], max_decimals: int) -> tuple[int, list[int]] | None:
    """:func:`decimal_integers` of a few numbers, in plain Python (no array overhead)."""
    top = max(map(abs, values), default=0.0)
    for k in range(max_decimals + 1):
        scale = 10.0**k
        if top * scale >= 2.0**53:
            return None
        integers = [round(v * scale) for v in values]
        if all(m / scale == v for m, v in zip(integers, values, strict=True)):
            return k, integers
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
