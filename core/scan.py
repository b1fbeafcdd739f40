"""The walk's inner loop, compiled: visit rows and make their updates.

:class:`core.runs.Walk` walks every perceptron-like run; for the linear rule
(:class:`core.perceptron.Linear`: the perceptron and the SVM's descent) the
rows are visited here, one at a time, in int64 for the exact runs and
float64 for the others, and each update is recorded for the walk to hand out
as a step. numba compiles these functions when it is installed, caching the
machine code on disk (next to this file, or in the user's cache when this
folder is read-only); without numba the very same functions run as Python,
slowly but with the same results.

Plainly, for the row i of each visit at step t::

    margin = y_i (x_i, 1).(w, b)                     # in the rule's units
    if fails(margin):                                # y*a <= 0, < 0 or < 1
        w += eta_t y_i x_i; b += eta_t y_i           # (after the shrink) recorded
    if lam: w *= 1 - eta_t lam                       # the penalty: at every visit
"""

from __future__ import annotations

import math

from core.decimals import TIE

__all__ = ["HINGE", "PERCEPTRON", "STRICT", "advance", "compiled", "fails", "move", "python",
           "tolerance", "visit"]

# The threshold tests: y*a <= 0 (the perceptron), y*a < 0 (strict), y*a < 1 (the hinge).
PERCEPTRON, STRICT, HINGE = 0, 1, 2


def compiled(function):
    """``function`` compiled by numba (machine code cached on disk), or as it is without numba."""
    try:
        import numba
    except ImportError:
        return function
    try:
        return numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:  # no writable place for the cache: compile in each process instead
        return numba.njit(nogil=True)(function)


def python(function):
    """The Python function behind a compiled one (for numbers numba cannot hold: Python ints)."""
    return getattr(function, "py_func", function)


@compiled
def fails(margin, test, bar, tie):
    """The threshold test on y*a: a tie (|y*a - threshold| <= tie) fails the perceptron's."""
    if test == HINGE:
        return margin < bar - tie
    if test == STRICT:
        return margin < -tie
    return margin <= tie


@compiled
def tolerance(wb, x_size, bar):
    """Floats: how far from the threshold a margin of (w, b) can land at a tie."""
    size = abs(wb[0])
    for j in range(1, wb.size - 1):
        size = max(size, abs(wb[j]))
    return TIE * (x_size * size + abs(wb[-1]) + bar)


@compiled
def move(wb, yx_i, steps, t, lam, decay, updated):
    """One visit's step on wb = (w, b), in place: w += eta_t*y*x, b += eta_t*y when
    ``updated``; with a penalty lam, w first shrinks by (1 - eta_t lam) at every visit.

    eta_t is ``steps`` (eta in the units of w and b), over sqrt(t) with ``decay``.
    """
    root = math.sqrt(t) if decay else 1.0
    if lam:
        shrink = 1.0 - steps[0] / root * lam if decay else 1.0 - steps[0] * lam
        for j in range(wb.size - 1):
            wb[j] = shrink * wb[j]
    if updated:
        for j in range(wb.size):
            if decay:
                wb[j] = wb[j] + steps[j] / root * yx_i[j]
            else:  # integers stay integers
                wb[j] = wb[j] + steps[j] * yx_i[j]


@compiled
def visit(yx, rows, start, end, wb, units, steps, seen, limits, test, lam, decay, t0, x_size,
          tolerate):
    """Visit rows[start:end] in turn, stopping at the first that fails the threshold test.

    Parameters
    ----------
    yx : ndarray of shape (N, D + 1)
        The rows y*(x, 1), int64 (exact) or float64.
    rows : ndarray of int
        The order of the visits; step t0 + p + 1 visits rows[p].
    start, end : int
        Positions in ``rows`` to visit.
    wb, units, steps : ndarray of shape (D + 1,), the dtype of ``yx``
        (w, b); what turns them into the units of y*a; eta in their own units.
    seen : ndarray
        Receives the margin y*a of each visited row, from position ``start`` on.
    limits : ndarray of shape (2,), the dtype of ``yx``
        The hinge's threshold and the tie tolerance (updated here when the
        penalty moves w and ``tolerate``).
    test : int
        PERCEPTRON, STRICT or HINGE.
    lam : float
        The penalty: with lam > 0 every visit before the failing row moves wb.
    decay : bool
        The step size falls as eta / sqrt(t).
    x_size : float
        A bound on sum_j |x_j| (for the tolerance).
    tolerate : bool
        Floats with a tie tolerance.

    Returns
    -------
    int
        The position of the first row that fails (not yet updated on), or ``end``.
    """
    zero = units[0] - units[0]  # +0 in the numbers' type: a sum of -0.0 terms is +0.0
    scaled = wb * units  # (w, b) in the units of y*a
    for p in range(start, end):
        i = rows[p]
        margin = zero
        for j in range(wb.size):
            margin += yx[i, j] * scaled[j]
        seen[p - start] = margin
        if fails(margin, test, limits[0], limits[1]):
            return p
        if lam:
            move(wb, yx[i], steps, t0 + p + 1, lam, decay, False)
            scaled = wb * units
            if tolerate:
                limits[1] = tolerance(wb, x_size, limits[0])
    return end


@compiled
def advance(yx, rows, start, end, wb, units, steps, seen, limits, test, lam, decay, t0, x_size,
            tolerate, at, states, most):
    """Visit rows[start:end] making their updates, at most ``most`` of them.

    The arguments of :func:`visit`, and where to record the updates: ``at[k]``
    the position of the k-th, ``states[k]`` (w, b) after it. ``seen`` receives
    the margin of every visited row (position start + k in seen[k]).

    Returns
    -------
    (int, int)
        The position after the last row visited (``end``, or just after the
        ``most``-th update) and the number of updates.
    """
    count, p = 0, start
    while p < end and count < most:
        stop = visit(yx, rows, p, end, wb, units, steps, seen[p - start:], limits, test, lam,
                     decay, t0, x_size, tolerate)
        if stop == end:
            break
        move(wb, yx[rows[stop]], steps, t0 + stop + 1, lam, decay, True)
        if tolerate:
            limits[1] = tolerance(wb, x_size, limits[0])
        at[count] = stop
        states[count] = wb
        count += 1
        p = stop + 1
    return (end if count < most else p), count

