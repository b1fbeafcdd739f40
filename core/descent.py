"""Stochastic subgradient descent on a margin loss: the perceptron and the SVM as one loop.

The SVM the notes train by stochastic subgradient descent on the
L2-regularised hinge loss (:func:`svm_sgd`) is streamed as the perceptron's
:class:`~core.perceptron.Step` records, so the pages animate both the same
way; both come out of one loop, :func:`margin_sgd`, which differs between
them only in the loss threshold (0 or 1), the penalty lambda and the step size.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from core._visits import Walk, check_walk
from core.losses import hinge_slope, perceptron_slope
from core.perceptron import Step, check_data

__all__ = ["SCHEDULES", "Descent", "margin_sgd", "svm_sgd", "svm_step_size"]


# dL/dz of each loss, with the subgradient each algorithm takes at its kink.
_SLOPES = {"perceptron": perceptron_slope, "hinge": hinge_slope}
SCHEDULES = ("constant", "sqrt")


def svm_step_size(t: int, eta0: float) -> float:
    """The SVM's step size at step t.

    Parameters
    ----------
    t : int
        Step, 1-based (the notes count from 0 and write lr / sqrt(t + 1)).
    eta0 : float
        Step size at t = 1.

    Returns
    -------
    float
        ``eta0 / sqrt(t)``.

    Examples
    --------
    >>> svm_step_size(4, 1.0)
    0.5
    """
    return float(eta0) / math.sqrt(t)


def margin_sgd(
    X,
    y,
    *,
    loss: str = "hinge",
    lam: float = 0.0,
    eta0: float = 1.0,
    schedule: str = "sqrt",
    order: str = "cyclic",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
) -> Iterator[Step]:
    """Stochastic subgradient descent on a margin loss plus (lambda/2)||w||^2, step by step.

    The perceptron and the SVM are this one loop: ``loss="perceptron", lam=0,
    schedule="constant"`` is the perceptron (the same steps as
    :func:`core.perceptron.perceptron` from zero weights), ``loss="hinge"``
    with ``lam > 0`` and ``schedule="sqrt"`` is the notes' SVM (:func:`svm_sgd`).

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    y : array_like of shape (N,)
        Labels in {-1, +1}.
    loss : {"hinge", "perceptron"}, default "hinge"
        ``max(0, 1 - z)`` (threshold 1, no update at z = 1) or ``max(0, -z)``
        (threshold 0, an update at z = 0), from :mod:`core.losses`.
    lam : float, default 0
        Weight of the penalty (lambda/2)||w||^2, >= 0. The bias is not penalised.
    eta0 : float, default 1
        Step size (``"constant"``) or its value at t = 1 (``"sqrt"``), > 0.
    schedule : {"sqrt", "constant"}, default "sqrt"
        eta_t = eta0 / sqrt(t), or eta_t = eta0 at every step.
    order : str, default "cyclic"
        One of :data:`core.perceptron.ORDERS`; the shuffled orders draw the
        same permutations as the perceptron with the same seed, so both visit
        the examples in the same sequence. ``"random"`` draws an example with
        replacement each step; ``"random_misclassified"`` picks a random
        example with a nonzero loss gradient (a margin violation for the hinge).
    bias : bool, default True
        Learn b; with False it stays 0.
    max_epochs : int, default 100
        Stop after this many epochs of N steps.
    seed : int or None
        Seed of the generator behind every random choice.
    every : {"visit", "update"}, default "visit"
        Yield every step, or only those where the loss gradient was nonzero.

    Yields
    ------
    Step
        ``activation`` a = w.x + b before the step; ``updated`` True when the
        loss gradient was nonzero (y a <= 0 for the perceptron, y a < 1 for
        the hinge); ``w``, ``b`` after the step (``w`` read-only);
        ``mistakes`` the number of such steps so far.

    Raises
    ------
    ValueError
        If an argument is invalid; the message names it.

    Notes
    -----
    With z = y_n (w^T x_n + b) and eta_t the step size, one step is

        w <- (1 - eta_t lambda) w - eta_t L'(z) y_n x_n,    b <- b - eta_t L'(z) y_n,

    with L'(z) = -1 below the threshold and 0 above (:func:`core.losses.margin_slope`).
    With lambda > 0 the weights shrink on EVERY step, so ``updated`` only
    marks the loss part of the step. The run stops early only when nothing
    can change any more: lambda = 0 and a whole epoch (for the random orders:
    the whole data set) without a nonzero gradient; ``"random_misclassified"``
    also stops when no example has one.

    Examples
    --------
    >>> steps = list(margin_sgd([[1.0, 1.0], [2.0, 1.0]], [-1, 1], loss="perceptron",
    ...                         schedule="constant"))
    >>> steps[0].w.tolist(), steps[0].b, steps[0].updated
    ([-1.0, -1.0], -1.0, True)
    """
    X, y = check_data(X, y)
    if loss not in _SLOPES:
        raise ValueError(f"loss must be 'hinge' or 'perceptron', got {loss!r}")
    if not (math.isfinite(lam) and lam >= 0):
        raise ValueError(f"lam must be >= 0, got {lam}")
    if not (math.isfinite(eta0) and eta0 > 0):
        raise ValueError(f"eta0 must be > 0, got {eta0}")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be 'sqrt' or 'constant', got {schedule!r}")
    check_walk(order=order, every=every, max_epochs=max_epochs)
    run = Descent(X, y, _SLOPES[loss], lam=float(lam), eta0=float(eta0),
                   decay=schedule == "sqrt", bias=bool(bias))
    rng = np.random.default_rng(seed)
    return run.steps(order, rng, int(max_epochs), visits=every == "visit")


def svm_sgd(
    X,
    y,
    *,
    lam: float = 0.01,
    eta0: float = 1.0,
    order: str = "cyclic",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
    center: bool = False,
) -> Iterator[Step]:
    """The SVM of the notes: stochastic subgradient descent on the L2-regularised hinge loss.

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    y : array_like of shape (N,)
        Labels in {-1, +1}.
    lam : float, default 0.01
        lambda of the penalty (lambda/2)||w||^2, >= 0 (the bias is not penalised).
    eta0 : float, default 1
        Step size at t = 1; step t uses eta0 / sqrt(t).
    order, bias, max_epochs, seed, every
        As for :func:`core.perceptron.perceptron` (see :func:`margin_sgd`);
        the weights always start at zero, as in the notes' code.
    center : bool, default False
        Descend on the data minus its mean and report (w, b) for the data as
        given. The cost is the same function of the boundary (the bias is not
        penalised, so b absorbs the shift), hence the same minimiser; far from
        the origin (Iris at x near 5) the plain descent spends most of its
        steps moving b, and centring lets it reach the maximum margin.

    Yields
    ------
    Step
        The perceptron's record: ``updated`` is True when the example violated
        the margin (y a < 1) and the hinge pushed w; ``mistakes`` counts those
        margin violations so far; ``w``, ``b`` are after the step. With
        lambda > 0, w also shrinks by the factor (1 - eta_t lambda) on every
        step, updated or not, so consecutive steps differ even when
        ``updated`` is False.

    Raises
    ------
    ValueError
        If an argument is invalid; the message names it.

    Notes
    -----
    The cost per example is max(0, 1 - y_n (w^T x_n + b)) + (lambda/2)||w||^2,
    whose average over the data is the notes' SVM cost J(w). A subgradient
    step with eta_t = eta0 / sqrt(t) gives

        if y_n a_n < 1:  w <- (1 - eta_t lambda) w + eta_t y_n x_n,  b <- b + eta_t y_n
        else:            w <- (1 - eta_t lambda) w.

    It is the perceptron's update with the threshold moved from 0 to 1, a
    shrinking penalty, and a decaying step. For lambda <= 1 / (N max_n alpha_n)
    (alpha the dual coefficients of the hard-margin SVM) the minimiser is the
    maximum-margin separator of separable data; smaller lambda needs more
    steps to get there, since the penalty is what pulls w towards it.

    Examples
    --------
    >>> steps = list(svm_sgd([[1.0, 1.0], [2.0, 1.0]], [-1, 1], lam=0.1, max_epochs=1))
    >>> [s.updated for s in steps], steps[0].w.tolist(), steps[0].b
    ([True, True], [-1.0, -1.0], -1.0)
    """
    kwargs = dict(loss="hinge", lam=lam, eta0=eta0, schedule="sqrt", order=order, bias=bias,
                  max_epochs=max_epochs, seed=seed, every=every)
    if not center:
        return margin_sgd(X, y, **kwargs)
    if not bias:
        raise ValueError("center=True needs bias=True: without a bias, moving the data moves "
                         "the problem")
    X = np.asarray(X, dtype=float)
    shift = X.mean(axis=0) if X.ndim == 2 and len(X) else 0.0
    # w.(x - c) + b = w.x + (b - w.c): activations stay those of the data as given
    return (replace(step, b=float(step.b - step.w @ shift))
            for step in margin_sgd(X - shift, y, **kwargs))


class Descent(Walk):
    """The weights of one :func:`margin_sgd` run and the step that moves them.

    ``slope`` is dL/dz of the loss (:func:`core.losses.perceptron_slope` or
    :func:`core.losses.hinge_slope`); ``lam`` the penalty; ``decay`` whether
    the step size falls as eta0 / sqrt(t). :meth:`visit` is the whole
    algorithm, for the perceptron and the SVM alike; the cyclic, shuffled and
    PLA orders are walked as the perceptron's are (core._visits.Walk).
    """

    def __init__(self, X, y, slope, *, lam, eta0, decay, bias):
        super().__init__(X.shape[0])
        self.X, self.y, self.slope = X, y, slope
        self.lam, self.eta0, self.decay, self.bias = lam, eta0, decay, bias
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        self.t = self.mistakes = 0
        self.visits = True

    def visit(self, i: int, a: float | None = None) -> Step:
        """One subgradient step on example i."""
        self.t += 1
        if a is None:
            a = float(self.X[i] @ self.w + self.b)
        g = self.slope(float(self.y[i]) * a)  # dL/dz: -1 inside the loss, 0 beyond it
        eta = self.eta0 / math.sqrt(self.t) if self.decay else self.eta0
        if self.lam:
            self.w = (1.0 - eta * self.lam) * self.w
        if g:
            self.w = self.w - eta * g * self.y[i] * self.X[i]
            if self.bias:
                self.b = self.b - eta * g * self.y[i]
            self.mistakes += 1
        w = self.w.copy()
        w.setflags(write=False)
        return Step(self.t, (self.t - 1) // self.n + 1, int(i), a, bool(g), w, float(self.b),
                    self.mistakes)

    def _violators(self) -> tuple[np.ndarray, np.ndarray]:
        """Rows with a nonzero loss gradient under the current weights, and all activations."""
        a = self.X @ self.w + self.b
        return np.flatnonzero(self.slope(self.y * a) != 0), a

    def _step(self, t: int, i: int, a: float, updated: bool) -> Step:
        """The walks' step: :meth:`visit`, which counts the steps and decides the update."""
        return self.visit(i, float(a))

    def _scan(self, rows: np.ndarray, t0: int):
        """Visit ``rows`` one by one; return whether another epoch could change anything."""
        any_update = False
        for i in rows:
            step = self.visit(i)
            any_update |= step.updated
            if self.visits or step.updated:
                yield step
        # with a penalty w shrinks on every step: only without one can an epoch be the last
        return any_update or bool(self.lam)

    def with_replacement(self, rng, max_epochs: int):
        """Random order: N draws with replacement per epoch, visited one by one.

        Without a penalty only a loss step moves w: at the start and after each
        one, the run stops if no example is left to push, as the perceptron's does.
        """
        recheck = not self.lam
        for _ in range(max_epochs):
            for i in rng.integers(0, self.n, size=self.n):
                if recheck and self._violators()[0].size == 0:
                    return
                step = self.visit(i)
                recheck = not self.lam and step.updated
                if self.visits or step.updated:
                    yield step

    def steps(self, order: str, rng, max_epochs: int, *, visits: bool):
        """Walk the data in ``order``; yield the steps (all, or the updating ones)."""
        self.visits = visits
        return self.walk(order, rng, max_epochs)
