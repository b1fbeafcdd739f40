"""The margin lesson's experiment: the perceptron's mistakes against Novikoff's bound.

:func:`mistakes_against_bound` runs the perceptron on generated separable sets
in every visiting order and pairs its mistakes with R^2/gamma^2;
:func:`mistakes_by_start` counts mistakes exactly for several starts and rates,
where the bound's condition w_0 = 0 does or does not hold.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from core.exact_runs import exact_perceptron
from core.geometry import mistake_bound
from core.max_margin import max_margin
from core.perceptron import ORDERS, perceptron

__all__ = ["BoundRun", "mistakes_against_bound", "mistakes_by_start"]


@dataclass(frozen=True)
class BoundRun:
    """One perceptron run of the bound experiment.

    Attributes
    ----------
    margin : float
        The generator's margin parameter.
    seed : int
        The data seed, also the seed of the run's visiting order.
    order : str
        The visiting order.
    gamma : float
        The data's geometric margin in the plane (of the maximum-margin line).
    bound : float
        R^2/gamma^2 in the space of (x, 1), from :func:`core.geometry.mistake_bound`.
    mistakes : int
        Updates the run made.
    converged : bool
        Whether the last weights separate the data.
    """

    margin: float
    seed: int
    order: str
    gamma: float
    bound: float
    mistakes: int
    converged: bool


def mistakes_against_bound(make, *, margins, seeds, orders) -> list[BoundRun]:
    """Train the perceptron on separable sets and pair its mistakes with the bound.

    Parameters
    ----------
    make : callable
        ``make(margin, seed)`` returns a linearly separable data set with
        attributes ``X`` (N, 2) and ``y`` (N,), e.g. ``datasets.builtin.separable``
        with a fixed size.
    margins : iterable of float
        Margins to pass to ``make``.
    seeds : iterable of int
        Data seeds; each run uses the same number as the seed of its order.
    orders : iterable of str
        Visiting orders of :func:`core.perceptron.perceptron`.

    Returns
    -------
    list of BoundRun
        One per (margin, seed, order), each from w = 0, b = 0 with eta = 1.

    Raises
    ------
    ValueError
        If an order is unknown, or ``make`` returns data that are not separable.

    Notes
    -----
    Novikoff's theorem promises mistakes <= R^2/gamma^2 for every order, with R
    and gamma measured on z_n = (x_n, 1). Each run may take up to
    ``100 (bound + 1)`` epochs, far more than it can need, so ``converged`` is
    False only if something is wrong.

    Examples
    --------
    >>> from datasets.builtin import separable
    >>> runs = mistakes_against_bound(lambda m, s: separable(20, m, s), margins=[0.3], seeds=[0],
    ...                               orders=["cyclic"])
    >>> runs[0].mistakes <= runs[0].bound
    True
    """
    orders = list(orders)
    for order in orders:
        if order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(ORDERS)}; got {order!r}")
    runs = []
    for margin in margins:
        for seed in seeds:
            data = make(margin, seed)
            bound = mistake_bound(data.X, data.y)
            found = max_margin(data.X, data.y)
            if found is None or not math.isfinite(bound):
                raise ValueError(f"the data for margin {margin:g}, seed {seed} are not "
                                 "linearly separable")
            limit = 100 * (math.ceil(bound) + 1)
            for order in orders:
                # only the last update matters: keep one step, not the whole run
                tail = deque(perceptron(data.X, data.y, order=order, seed=seed,
                                        max_epochs=limit, every="update"), maxlen=1)
                last = tail[0] if tail else None
                w, b = (last.w, last.b) if last is not None else (np.zeros(2), 0.0)
                converged = bool(np.all(data.y * (data.X @ w + b) > 0))
                mistakes = last.mistakes if last is not None else 0
                runs.append(BoundRun(float(margin), int(seed), order, found.gamma, bound,
                                     mistakes, converged))
    return runs


def mistakes_by_start(X, y, *, etas, starts, max_epochs: int = 100_000) -> list[dict]:
    """Mistakes of the cyclic perceptron to convergence, for each start and each eta, exactly.

    Parameters
    ----------
    X, y : array_like
        Short-decimal inputs (N, D) and labels (N,) in {-1, +1}, linearly separable.
    etas : iterable of float
        Learning rates (short decimals).
    starts : iterable of (w0, b0) or "zeros"
        Initial weights.
    max_epochs : int, default 100_000
        Epochs at most per run.

    Returns
    -------
    list of dict
        One per (start, eta): ``start`` (the init given), ``eta``, ``mistakes``,
        ``epochs`` and ``converged`` (an epoch without an update came first).

    Notes
    -----
    From w_0 = 0 every weight vector is eta times that of the eta = 1 run, so
    every decision, and the number of mistakes, is the same for every eta
    (exactly: :func:`core.exact_runs.exact_perceptron` decides in integers).
    From another start eta decides how far the first updates reach, and the
    count can exceed R^2/gamma^2, which Novikoff's theorem proves for w_0 = 0.

    Examples
    --------
    >>> X, y = [[1.0, 1.0], [2.0, 1.0], [1.5, 0.0], [2.0, 2.0]], [-1, 1, 1, -1]
    >>> [r["mistakes"] for r in mistakes_by_start(X, y, etas=[1, 0.1], starts=["zeros"])]
    [22, 22]
    """
    rows = []
    for init in starts:
        for eta in etas:
            last = None
            for step in exact_perceptron(X, y, eta=eta, init=init, max_epochs=max_epochs,
                                         every="update"):
                last = step
            mistakes = 0 if last is None else last.mistakes
            epochs = 0 if last is None else last.epoch
            # the stream stops after a clean epoch, or at max_epochs
            rows.append(dict(start=init, eta=eta, mistakes=mistakes, epochs=epochs + 1,
                             converged=epochs < max_epochs))
    return rows
