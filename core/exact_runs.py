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

from core.decimals import MAX_DECIMALS, decimals
from core.perceptron import Linear, _initial_weights, check_data, perceptron
from core.runs import Step, Walk, check_walk

__all__ = [
    "MAX_DECIMALS",
    "Departure",
    "decimals",
    "exact_perceptron",
    "exact_rule",
    "fixed_rows",
    "float_departure",
]


# ---------------------------------------------------------------- short decimals


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


def exact_rule(X, y, *, eta, init, bias, max_decimals=MAX_DECIMALS):
    """Validate like :func:`perceptron` and build the perceptron's rule in integers.

    Parameters
    ----------
    X, y, eta, init, bias, max_decimals
        As for :func:`exact_perceptron`.

    Returns
    -------
    (X, y, rule, problem) : tuple
        The checked data, the :class:`core.perceptron.Linear` rule (None for
        random initial weights) and why the numbers cannot be run exactly ("" when
        they can).

    Raises
    ------
    ValueError
        If the data or eta are invalid.
    """
    X, y = check_data(X, y)
    check_walk(eta=eta)
    if isinstance(init, str) and init != "zeros":
        return X, y, None, "the initial weights are random, not short decimals"
    w0, b0 = _initial_weights(init, X.shape[1], bias, np.random.default_rng())
    for name, values in (("X", X), ("eta", [eta]), ("initial w", w0), ("initial b", [b0])):
        if decimals(values, max_decimals=max_decimals) is None:
            return X, y, None, _not_short(name, values, max_decimals)
    rule = Linear(X, y, w0, b0, eta=float(eta), bias=bool(bias))
    return X, y, rule, "" if rule.exact else _not_short("X", X, MAX_DECIMALS)


def _fixed(rows, n: int) -> np.ndarray:
    """``rows`` as a permutation of 0..n-1 (default the data's order), or ValueError."""
    rows = np.arange(n) if rows is None else np.asarray(rows)
    if sorted(rows.tolist()) != list(range(n)):
        raise ValueError(f"rows must be an ordering of 0..{n - 1}")
    return rows


def exact_perceptron(X, y, *, eta: float = 1.0, init="zeros", bias: bool = True, rows=None,
                     max_epochs: int = 100, every: str = "visit", from_epoch: int = 1,
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
    every : "visit" or "update", default "visit"
        Yield every visit, or only the updating steps.
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

    >>> steps = exact_perceptron([[0, 0], [1, 1]], [-1, 1], every="update")
    >>> [(s.t, s.activation, s.b) for s in steps]
    [(1, 0.0, -1.0), (2, -1.0, 0.0), (3, 0.0, -1.0)]
    """
    X, y, rule, problem = exact_rule(X, y, eta=eta, init=init, bias=bias,
                                     max_decimals=max_decimals)
    if problem:
        raise ValueError(f"exact arithmetic needs short decimals: {problem}")
    check_walk(every=every, max_epochs=max_epochs)
    return Walk(rule, order=_fixed(rows, len(y)), every=every, max_epochs=max_epochs, seed=None,
               from_epoch=from_epoch)


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


def float_departure(X, y, *, max_epochs: int = 100, exact_updates=None,
                    **settings) -> Departure | None:
    """Where :func:`core.perceptron.perceptron` leaves the exact run, or None if it never does.

    Parameters
    ----------
    X, y : array_like
        Training data (short decimals).
    max_epochs : int, default 100
        Epochs compared.
    exact_updates : array_like of int, optional
        The steps at which the exact run updates in those epochs, when it was
        walked already (:func:`core.cycles.updates_until`); else it is walked here.
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
    y a <= 0) computed in floats as 1e-14 (no mistake). The first step
    where their updates differ is where they part.
    """
    X, y = check_data(X, y)
    rows = fixed_rows(X, y, **settings)
    if rows is None:
        raise ValueError("order must be 'cyclic' or 'shuffle_once' to compare with exact runs")
    eta, init, bias = (settings.get(k, d) for k, d in (("eta", 1.0), ("init", "zeros"),
                                                         ("bias", True)))

    def exact(epochs: int) -> tuple[Walk, Linear]:
        """The exact run (a fresh rule each time: the rule holds the run's state)."""
        *_, rule, problem = exact_rule(X, y, eta=eta, init=init, bias=bias)
        if problem:
            raise ValueError(f"exact arithmetic needs short decimals: {problem}")
        return Walk(rule, order=rows, every="update", max_epochs=epochs, seed=None), rule

    def rounded(every: str, epochs: int, first: int = 1) -> Walk:
        """The same run with rounding alone deciding (no tie tolerance)."""
        return Walk(Linear(X, y, w0, b0, eta=float(eta), bias=bool(bias), naive=True),
                   order=rows, every=every, max_epochs=epochs, seed=None, from_epoch=first)

    run, _ = exact(max_epochs)
    w0, b0 = run.start
    exact_t = (s.t for s in run) if exact_updates is None else iter(exact_updates)
    for e, f in zip_longest(exact_t, (s.t for s in rounded("update", max_epochs))):
        if e == f:
            continue
        at = int(min(math.inf if e is None else e, math.inf if f is None else f))
        epoch, k = (at - 1) // len(y) + 1, int(rows[(at - 1) % len(y)])
        # what each run computed there: replay both to that step (only a departure pays this)
        a_float = next(s.activation for s in rounded("visit", epoch, epoch) if s.t == at)
        run, rule = exact(epoch)
        before = rule.key
        for step in run:
            if step.t >= at:
                break
            before = rule.key
        return Departure(at, epoch, k, rule.exact_activation(k, before), a_float)
    return None


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

