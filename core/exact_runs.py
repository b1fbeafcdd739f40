"""The cyclic perceptron in exact integer arithmetic, and where floating point leaves it.

Floating point cannot decide y a <= 0 reliably at a tie (0.1 + 0.2 != 0.3),
so :func:`exact_perceptron` runs the notes' rule on data, eta and initial
weights that are short decimals (at most six places): every number is
scaled by a power of ten to an integer, activations keep their sign, and
weights compare exactly. :func:`float_departure` finds the first step where
the float run :func:`core.perceptron.perceptron` decides differently.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice, zip_longest

import numpy as np

from core._visits import FIRST_BLOCK, check_walk
from core.perceptron import Step, check_data, initial_weights, perceptron

__all__ = [
    "MAX_DECIMALS",
    "Departure",
    "ExactRun",
    "decimals",
    "exact_perceptron",
    "exact_run",
    "fixed_rows",
    "float_departure",
]

MAX_DECIMALS = 6
# A value counts as a short decimal when value * 10^k is this close to an integer
# (or within a few float spacings of one, for large values).
DECIMAL_TOL = 1e-9
# The search for a repeat stops after this many epochs or visited examples, whichever first.
# Activations in int64 stay exact below this bound; beyond it the run uses Python ints.
_INT64_SAFE = 2**62


# ---------------------------------------------------------------- short decimals


def decimals(values, *, max_decimals: int = MAX_DECIMALS, tol: float = DECIMAL_TOL) -> int | None:
    """The fewest decimal places k <= max_decimals that write every value exactly, or None.

    Parameters
    ----------
    values : array_like
        Finite numbers.
    max_decimals : int, default 6
        Largest k tried.
    tol : float, default 1e-9
        A value v has k decimals when v 10^k is within tol (or 8 float spacings,
        if larger) of an integer.

    Returns
    -------
    int or None
        The smallest such k, or None when none up to ``max_decimals`` works
        (or a scaled value is too large to be an exact float integer).

    Examples
    --------
    >>> decimals([1.5, 0.25, 3])
    2
    >>> decimals([0.1234567]) is None
    True
    """
    v = np.asarray(values, dtype=float).ravel()
    for k in range(max_decimals + 1):
        scaled = v * 10.0**k
        if np.any(np.abs(scaled) >= 2.0**53):
            return None
        # float spacing grows with the value: allow a few units of it beyond tol
        slack = np.maximum(tol, 8 * np.finfo(float).eps * np.abs(scaled))
        if np.all(np.abs(scaled - np.round(scaled)) <= slack):
            return k
    return None


def _scaled(values, k: int) -> list[int]:
    """Round values * 10^k to Python ints (exact once :func:`decimals` said k is enough)."""
    return [round(float(v) * 10**k) for v in np.asarray(values, dtype=float).ravel()]


def _not_short(name: str, values, max_decimals: int) -> str:
    """Say which value needs more than max_decimals places."""
    v = np.asarray(values, dtype=float)
    for index in np.ndindex(v.shape):
        if decimals([v[index]], max_decimals=max_decimals) is None:
            where = f"row {index[0]}, column x{index[1] + 1}" if v.ndim == 2 else name
            return (f"{where} = {float(v[index])!r} is not a decimal with at most "
                    f"{max_decimals} places")
    return f"{name} is not a short decimal"


# ---------------------------------------------------------------- the exact run


class ExactRun:
    """The cyclic perceptron on integers: w = W / 10^dw, b = B / 10^db, x = Xi / 10^dx.

    With eta = E / 10^de, an update adds E y Xi 10^(dw - de - dx) to W and
    E y 10^(db - de) to B, and the activation a = A / 10^da with
    A = W.Xi 10^(da - dw - dx) + B 10^(da - db). Every quantity is an integer,
    so the sign of a and the equality of two weight vectors are exact.
    """

    def __init__(self, X, y, rows, *, eta, w0, b0, bias, max_decimals):
        self.problem = None
        dx = decimals(X, max_decimals=max_decimals)
        de = decimals([eta], max_decimals=max_decimals)
        d0w = decimals(w0, max_decimals=max_decimals)
        d0b = decimals([b0], max_decimals=max_decimals)
        for d, name, values in ((dx, "X", X), (de, "eta", [eta]), (d0w, "initial w", w0),
                                (d0b, "initial b", [b0])):
            if d is None:
                self.problem = _not_short(name, values, max_decimals)
                return
        self.dw, self.db = max(dx + de, d0w), max(de, d0b)
        self.dx, self.da = dx, max(self.dw + dx, self.db)
        n, dim = X.shape
        self.n, self.bias = n, bias
        self.rows = np.asarray(rows)
        xi = _scaled(X, dx)
        e = _scaled([eta], de)[0]
        self.w_step = e * 10 ** (self.dw - de - dx)  # times y * Xi
        self.b_step = e * 10 ** (self.db - de) if bias else 0
        self.a_w, self.a_b = 10 ** (self.da - self.dw - dx), 10 ** (self.da - self.db)
        self.x_max = max((abs(v) for v in xi), default=0)
        self.Xi = np.array(xi, dtype=object).reshape(n, dim)
        self.y = np.array([int(v) for v in y], dtype=object)
        self.W = np.array(_scaled(w0, self.dw), dtype=object)
        self.B = _scaled([b0], self.db)[0]
        self.small, self._Xk, self._yk = None, None, None
        self._choose_dtype()

    def _choose_dtype(self) -> None:
        """Use int64 while no activation this epoch can reach 2^62, else Python ints."""
        dim = self.Xi.shape[1]
        grow_w = self.n * abs(self.w_step) * self.x_max
        grow_b = self.n * abs(self.b_step)
        w_bound = max((abs(int(v)) for v in self.W), default=0) + grow_w
        a_bound = dim * w_bound * self.x_max * self.a_w + (abs(int(self.B)) + grow_b) * self.a_b
        small = a_bound < _INT64_SAFE and w_bound < _INT64_SAFE
        if small != self.small:
            kind = np.int64 if small else object
            self._Xk, self._yk = self.Xi.astype(kind), self.y.astype(kind)
            self.W = np.array([int(v) for v in self.W], dtype=kind)
            self.small = small
        self.B = int(self.B)

    @property
    def key(self) -> tuple:
        """The exact state, hashable."""
        return (*(int(v) for v in self.W), int(self.B))

    def weights(self) -> tuple[np.ndarray, float]:
        """The current (w, b) as the nearest floats."""
        w = np.array([float(Fraction(int(v), 10**self.dw)) for v in self.W])
        return w, float(Fraction(self.B, 10**self.db))

    def exact_weights(self) -> tuple[tuple[Fraction, ...], Fraction]:
        """The current (w, b) as fractions."""
        return (tuple(Fraction(int(v), 10**self.dw) for v in self.W),
                Fraction(int(self.B), 10**self.db))

    def activation(self, i: int, W, B) -> Fraction:
        """The exact activation a = w.x_i + b of the integer weights (W, B)."""
        A = sum(int(w) * int(x) for w, x in zip(W, self.Xi[i], strict=True))
        return Fraction(A * self.a_w + int(B) * self.a_b, 10**self.da)

    def epoch(self, t0: int, visits: bool):
        """Visit every row once; yield (t, i, A, updated) for each visit (or each update)."""
        self._choose_dtype()
        rows = self.rows
        start, block = 0, FIRST_BLOCK
        while start < self.n:
            idx = rows[start:start + block]
            A = (self._Xk[idx] @ self.W) * self.a_w + self.B * self.a_b
            hits = np.flatnonzero(self._yk[idx] * A <= 0)
            stop = int(hits[0]) if hits.size else len(idx)
            if visits:
                for k in range(stop):
                    yield t0 + start + k + 1, int(idx[k]), int(A[k]), False
            if hits.size:
                i = int(idx[stop])
                self.W = self.W + self.w_step * self._yk[i] * self._Xk[i]
                self.B = self.B + self.b_step * int(self.y[i])
                yield t0 + start + stop + 1, i, int(A[stop]), True
                start, block = start + stop + 1, FIRST_BLOCK
            else:
                start, block = start + len(idx), block * 2


def exact_run(X, y, *, eta, init, bias, rows, max_decimals):
    """Validate like :func:`perceptron` and build the exact run.

    Parameters
    ----------
    X, y, eta, init, bias, rows, max_decimals
        As for :func:`exact_perceptron`.

    Returns
    -------
    (X, y, run, problem) : tuple
        The checked data, the :class:`ExactRun` (None for random initial
        weights) and why the numbers cannot be run exactly ("" when they can).

    Raises
    ------
    ValueError
        If the data, eta or rows are invalid.
    """
    X, y = check_data(X, y)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be > 0, got {eta}")
    n = X.shape[0]
    rows = np.arange(n) if rows is None else np.asarray(rows)
    if sorted(rows.tolist()) != list(range(n)):
        raise ValueError(f"rows must be an ordering of 0..{n - 1}")
    if isinstance(init, str) and init != "zeros":
        w0, b0 = None, None
    else:
        w0, b0 = initial_weights(X.shape[1], init=init, bias=bias)
    if w0 is None:
        run = None
        problem = "the initial weights are random, not short decimals"
    else:
        run = ExactRun(X, y, rows, eta=float(eta), w0=w0, b0=b0, bias=bias,
                     max_decimals=max_decimals)
        problem = run.problem
    return X, y, run, problem


def exact_perceptron(X, y, *, eta: float = 1.0, init="zeros", bias: bool = True, rows=None,
                     max_epochs: int = 100, every: str = "update", from_epoch: int = 1,
                     max_decimals: int = MAX_DECIMALS) -> Iterator[Step]:
    """The cyclic perceptron in exact arithmetic, as a stream of :class:`Step`.

    Parameters
    ----------
    X, y : array_like
        As for :func:`core.perceptron.perceptron`; every coordinate a decimal
        with at most ``max_decimals`` places.
    eta : float, default 1.0
        Learning rate, a short decimal > 0.
    init : "zeros" or (w, b), default "zeros"
        Starting weights, short decimals.
    bias : bool, default True
        Learn b.
    rows : array_like of int, optional
        The fixed visiting order (a permutation of 0..N-1); default 0, 1, ..., N-1.
    max_epochs : int, default 100
        Stop after this many epochs; the run also stops after an epoch with no update.
    every : "update" or "visit", default "update"
        Yield only the updating steps, or every visit.
    from_epoch : int, default 1
        Run the epochs before this one without yielding them (steps keep their
        real t, epoch and mistakes), to watch a late part of a long run.
    max_decimals : int, default 6
        Most decimal places accepted.

    Yields
    ------
    Step
        As from :func:`perceptron`, with ``w``, ``b`` and ``activation`` the
        floats nearest the exact values.

    Raises
    ------
    ValueError
        If an argument is invalid or a number is not a short decimal.

    Notes
    -----
    The rule is the notes': a = w^T x_n + b; if y_n a <= 0 then
    w <- w + eta y_n x_n, b <- b + eta y_n, with every number an integer
    multiple of a power of ten, so y_n a <= 0 is decided without rounding.

    Examples
    --------
    The origin, of class -1, sits on the boundary at the start of epoch 2
    (a = 0 exactly), so it is a mistake there too:

    >>> [(s.t, s.activation, s.b) for s in exact_perceptron([[0, 0], [1, 1]], [-1, 1])]
    [(1, 0.0, -1.0), (2, -1.0, 0.0), (3, 0.0, -1.0)]
    """
    X, y, run, problem = exact_run(X, y, eta=eta, init=init, bias=bias, rows=rows,
                                     max_decimals=max_decimals)
    if problem:
        raise ValueError(f"exact arithmetic needs short decimals: {problem}")
    check_walk(every=every, max_epochs=max_epochs)
    return _exact_steps(run, int(max_epochs), every == "visit", int(from_epoch))


def _exact_steps(run: ExactRun, max_epochs: int, visits: bool, from_epoch: int) -> Iterator[Step]:
    """Walk the exact run epoch by epoch, yielding float views of its steps."""
    mistakes = 0
    for epoch in range(max_epochs):
        quiet = epoch + 1 < from_epoch
        any_update = False
        for t, i, A, updated in run.epoch(epoch * run.n, visits and not quiet):
            mistakes += updated
            any_update |= updated
            if quiet:
                continue
            w, b = run.weights()
            w.setflags(write=False)
            yield Step(t, epoch + 1, i, float(Fraction(A, 10**run.da)), updated, w, b, mistakes)
        if not any_update:
            return


@dataclass(frozen=True)
class Departure:
    """The first step where floating point and exact arithmetic decide differently.

    ``exact_activation`` is the exact a = w.x + b of the exact run there (often
    0: a tie, so a mistake), ``float_activation`` what the float run computed.
    """

    t: int
    epoch: int
    index: int
    exact_activation: Fraction
    float_activation: float


def float_departure(X, y, *, max_epochs: int = 100, **settings) -> Departure | None:
    """Where :func:`core.perceptron.perceptron` leaves the exact run, or None if it never does.

    Parameters
    ----------
    X, y : array_like
        Training data (short decimals).
    max_epochs : int, default 100
        Epochs compared.
    **settings
        ``eta``, ``order`` ("cyclic" or "shuffle_once"), ``init``, ``bias``, ``seed``.

    Returns
    -------
    Departure or None

    Raises
    ------
    ValueError
        If the order is not fixed or a number is not a short decimal.

    Notes
    -----
    Both runs apply the same rule; they can differ only at a visit whose
    activation rounds across 0, e.g. an exact a = 0 (a mistake, since
    y a <= 0) computed in floats as 1e-14 (no mistake).
    """
    X, y = check_data(X, y)
    rows = fixed_rows(X, y, **settings)
    if rows is None:
        raise ValueError("order must be 'cyclic' or 'shuffle_once' to compare with exact runs")
    eta, init, bias = (settings.get(k, d) for k, d in (("eta", 1.0), ("init", "zeros"),
                                                         ("bias", True)))
    X, y, run, problem = exact_run(X, y, eta=eta, init=init, bias=bias, rows=rows,
                                     max_decimals=MAX_DECIMALS)
    if problem:
        raise ValueError(f"exact arithmetic needs short decimals: {problem}")
    fast = perceptron(X, y, max_epochs=max_epochs, every="update", **settings)
    w, b = initial_weights(X.shape[1], init=init, bias=bias, seed=settings.get("seed"))
    for event, step in zip_longest(_exact_events(run, int(max_epochs)), fast):
        if event is not None and step is not None and event[0] == step.t:
            w, b = step.w, step.b
            continue
        t_exact = event[0] if event is not None else math.inf
        t_float = step.t if step is not None else math.inf
        at = int(min(t_exact, t_float))
        k = int(run.rows[(at - 1) % run.n])
        a_float = step.activation if t_float == at else float(X[k] @ w + b)
        if t_exact == at:
            a_exact = Fraction(event[2], 10**run.da)
        else:
            a_exact = run.activation(k, *(event[3] if event is not None else (run.W, run.B)))
        return Departure(at, (at - 1) // run.n + 1, k, a_exact, a_float)
    return None


def _exact_events(run: ExactRun, max_epochs: int):
    """Each update of the exact run as (t, i, exact A, (W, B) before the update)."""
    before = (run.W.copy(), run.B)
    for epoch in range(max_epochs):
        updated = False
        for t, i, A, _ in run.epoch(epoch * run.n, visits=False):
            yield t, i, A, before
            before = (run.W.copy(), run.B)
            updated = True
        if not updated:
            return



def fixed_rows(X, y, *, order: str = "cyclic", seed: int | None = None, init="zeros",
               bias: bool = True, **_ignored) -> np.ndarray | None:
    """The visiting order of a run whose order repeats every epoch, else None.

    ``"cyclic"`` gives 0..N-1; ``"shuffle_once"`` the permutation
    :func:`perceptron` draws for this seed (read off its first epoch, which
    always visits every row). The other orders change from epoch to epoch.
    """
    X, y = check_data(X, y)
    if order == "cyclic":
        return np.arange(X.shape[0])
    if order != "shuffle_once":
        return None
    first = perceptron(X, y, order=order, seed=seed, init=init, bias=bias, max_epochs=1)
    return np.array([step.index for step in islice(first, X.shape[0])])

