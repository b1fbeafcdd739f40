"""The perceptron as a stream of steps.

The rule is the seeds' Algorithm 1, one example at a time::

    a = w @ x + b
    if y * a <= 0:
        w += eta * y * x
        b += eta * y

:func:`perceptron` yields a :class:`Step` after every visited example (or only
after the updating ones), so a page can animate the run and a test can check
every single update.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

# The visiting orders are walked in core._visits, shared with the kernel and SVM streams.
from core._visits import FIRST_BLOCK, Walk, check_walk
from core._visits import ORDERS as ORDERS

INITS = ("zeros", "random")


@dataclass(frozen=True)
class Step:
    """The state after one visited example.

    Attributes
    ----------
    t : int
        Examples visited so far (1-based).
    epoch : int
        Pass over the data (1-based); an epoch is N steps.
    index : int
        Row of X visited at this step.
    activation : float
        a = w.x + b, computed BEFORE the update.
    updated : bool
        True when y*a <= 0 and the weights changed.
    w : ndarray of shape (D,)
        Weights AFTER this step, read-only.
    b : float
        Bias AFTER this step (0.0 and never updated when ``bias=False``).
    mistakes : int
        Updates made so far.
    """

    t: int
    epoch: int
    index: int
    activation: float
    updated: bool
    w: np.ndarray
    b: float
    mistakes: int


def check_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    """Return X as (N, D) floats and y as (N,) floats in {-1, +1}, or raise ValueError."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (N, D), got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("X has no rows: at least one example is needed")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must be finite: it contains NaN or infinity")
    if not np.all((y == 1) | (y == -1)):
        raise ValueError("y must contain only -1 and +1")
    return X, y


def _initial_weights(init, dim: int, bias: bool, rng: np.random.Generator):
    """The starting (w, b) for ``init``."""
    if isinstance(init, str):
        if init == "zeros":
            return np.zeros(dim), 0.0
        if init == "random":
            w = rng.standard_normal(dim)
            return w, float(rng.standard_normal()) if bias else 0.0
        raise ValueError(f"init must be 'zeros', 'random' or a (w, b) pair, got {init!r}")
    try:
        w0, b0 = init
    except (TypeError, ValueError):
        raise ValueError(
            f"init must be 'zeros', 'random' or a (w, b) pair, got {init!r}"
        ) from None
    w = np.array(w0, dtype=float).reshape(-1)
    if w.shape != (dim,):
        raise ValueError(f"init weights must have {dim} values, got {w.size}")
    b = float(b0)
    if not (np.all(np.isfinite(w)) and np.isfinite(b)):
        raise ValueError("init weights and bias must be finite")
    if not bias and b != 0.0:
        raise ValueError(f"init bias must be 0 when bias=False, got {b}")
    return w, b


def initial_weights(dim: int, *, init="zeros", bias: bool = True, seed: int | None = None):
    """The (w, b) that :func:`perceptron` starts from with the same arguments."""
    return _initial_weights(init, dim, bias, np.random.default_rng(seed))


def perceptron(
    X,
    y,
    *,
    eta: float = 1.0,
    order: str = "cyclic",
    init="zeros",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
) -> Iterator[Step]:
    """Train a perceptron, yielding the state after every step.

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    y : array_like of shape (N,)
        Labels in {-1, +1}.
    eta : float, default 1.0
        Learning rate, > 0.
    order : str, default "cyclic"
        How examples are visited: ``"cyclic"`` (rows in order, every epoch),
        ``"shuffle_once"`` (one random permutation, reused), ``"shuffle_each_epoch"``
        (a new permutation every epoch), ``"random"`` (an example drawn with
        replacement each step) or ``"random_misclassified"`` (a random
        misclassified example each step, the PLA).
    init : "zeros", "random" or (w, b), default "zeros"
        Starting weights; ``"random"`` draws them from a standard normal.
    bias : bool, default True
        Learn b; with False, b stays 0 and the boundary passes through the origin.
    max_epochs : int, default 100
        Stop after this many epochs (of N steps each).
    seed : int or None
        Seed of the generator behind every random choice.
    every : "visit" or "update", default "visit"
        Yield every visited example, or only those that changed the weights.

    Yields
    ------
    Step
        The state after the step; ``w`` is a read-only copy.

    Raises
    ------
    ValueError
        If an argument is invalid; the message says which and why.

    Notes
    -----
    For the example (x_n, y_n) the activation is a = w^T x_n + b. When
    y_n a <= 0 the example is a mistake and w <- w + eta y_n x_n,
    b <- b + eta y_n. The run stops after an epoch with no update
    (converged) or after ``max_epochs``; with the random orders, as soon as no
    example is misclassified. ``every="update"`` yields exactly the updating
    steps of ``every="visit"`` for the same arguments, without a Python loop
    over the examples in between.

    Examples
    --------
    >>> X = [[1.0, 1.0], [2.0, 1.0]]; y = [-1, 1]
    >>> steps = list(perceptron(X, y, eta=0.1, init=([0.2, 0.0], -0.1)))
    >>> steps[0].w, steps[0].b
    (array([ 0.1, -0.1]), -0.2)
    """
    X, y = check_data(X, y)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be > 0, got {eta}")
    check_walk(order=order, every=every, max_epochs=max_epochs)
    rng = np.random.default_rng(seed)
    w, b = _initial_weights(init, X.shape[1], bias, rng)
    run = _Run(X, y, w, b, eta=float(eta), bias=bias, visits=every == "visit")
    return run.walk(order, rng, int(max_epochs))


class _Run(Walk):
    """The weights of one run; the ways of walking the data are core._visits.Walk's."""

    def __init__(self, X, y, w, b, *, eta, bias, visits):
        super().__init__(X.shape[0])
        self.X, self.y, self.w, self.b = X, y, w, b
        self.eta, self.bias, self.visits = eta, bias, visits
        self.mistakes = 0
        # y*x once: then y*a = (y*x).w + y*b is one product, and a = y*(y*a) exactly
        self.signed = X * y[:, None]
        # y*x and y in the order being walked: views in the data's own order, gathered
        # once for each new order (a shuffle, a block of draws), not once per epoch
        self._rows, self._signed, self._labels = self.in_order, self.signed, self.y

    def _step(self, t: int, i: int, a: float, updated: bool) -> Step:
        """Apply the rule to example i with activation a and record the step."""
        if updated:
            self.w = self.w + self.eta * self.y[i] * self.X[i]
            if self.bias:
                self.b = self.b + self.eta * self.y[i]
            self.mistakes += 1
        w = self.w.copy()
        w.setflags(write=False)
        t = int(t)
        return Step(t, (t - 1) // self.n + 1, int(i), float(a), updated, w,
                    float(self.b), self.mistakes)

    def _scan(self, rows: np.ndarray, t0: int):
        """Visit ``rows`` in turn from step t0 + 1, yielding steps; return whether any updated.

        The margins of a whole block come from one matrix product; after an
        update the rest of the block is stale, so the scan restarts just past
        it with a block twice as long as the last stretch between updates.
        """
        if rows is not self._rows:
            self._rows, self._signed, self._labels = rows, self.signed[rows], self.y[rows]
        signed, labels = self._signed, self._labels
        any_update = False
        start, block, previous = 0, FIRST_BLOCK, 0
        while start < len(rows):
            end = min(start + block, len(rows))
            margins = signed[start:end] @ self.w + labels[start:end] * self.b
            wrong = margins <= 0
            stop = int(wrong.argmax())  # the first mistake, or 0 when there is none
            hit = bool(wrong[stop])
            if not hit:
                stop = end - start
            if self.visits:
                for k in range(stop):
                    yield self._step(t0 + start + k + 1, rows[start + k],
                                     labels[start + k] * margins[k], False)
            if hit:
                at = start + stop
                yield self._step(t0 + at + 1, rows[at], labels[at] * margins[stop], True)
                any_update = True
                start, block, previous = at + 1, max(FIRST_BLOCK, 2 * (at - previous)), at
            else:
                start, block = end, block * 2
        return any_update

    def _all_correct(self) -> bool:
        """True when every example has y*a > 0."""
        return bool(np.all(self.y * (self.X @ self.w + self.b) > 0))

    def _violators(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows with y*a <= 0, and the activations a of all rows."""
        a = self.X @ self.w + self.b
        return np.flatnonzero(self.y * a <= 0), a
