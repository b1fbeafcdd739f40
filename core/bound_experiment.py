"""The margin lesson's experiment: the perceptron's mistakes against Novikoff's bound.

:func:`mistakes_against_bound` runs the perceptron on generated separable sets
in every visiting order and pairs its mistakes with R^2/gamma^2.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from core.geometry import mistake_bound
from core.max_margin import max_margin
from core.perceptron import ORDERS, perceptron

__all__ = ["BoundRun", "mistakes_against_bound"]


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
