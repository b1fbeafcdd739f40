"""Stochastic subgradient descent on a margin loss: the perceptron and the SVM as one loop.

The SVM the notes train by stochastic subgradient descent on the
L2-regularised hinge loss (:func:`svm_sgd`) is streamed as the perceptron's
:class:`~core.perceptron.Step` records, so the pages animate both the same
way; both come out of one loop, :func:`margin_sgd`, which differs between
them only in the loss threshold (0 or 1), the penalty lambda and the step size.
"""

from __future__ import annotations

import math

import numpy as np

from core.perceptron import LOSSES, Linear
from core.runs import Walk, check_data, check_walk
from core.validation import check_positive

__all__ = ["SCHEDULES", "margin_sgd", "svm_sgd", "svm_step_size"]

SCHEDULES = ("constant", "sqrt")


def svm_step_size(t: int, eta: float) -> float:
    """The SVM's step size at step t.

    Parameters
    ----------
    t : int
        Step, 1-based (the notes count from 0 and write lr / sqrt(t + 1)).
    eta : float
        Step size at t = 1.

    Returns
    -------
    float
        ``eta / sqrt(t)``.

    Examples
    --------
    >>> svm_step_size(4, 1.0)
    0.5
    """
    return float(eta) / math.sqrt(t)


def margin_sgd(
    X,
    y,
    *,
    loss: str = "hinge",
    lam: float = 0.0,
    eta: float = 1.0,
    schedule: str = "sqrt",
    order: str = "cyclic",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
    center: bool = False,
) -> Walk:
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
    eta : float, default 1
        Step size (``"constant"``) or its value at t = 1 (``"sqrt"``), > 0.
    schedule : {"sqrt", "constant"}, default "sqrt"
        eta_t = eta / sqrt(t), or eta_t = eta at every step.
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
    center : bool, default False
        Descend on the data minus its mean and report (w, b) for the data as
        given (see :func:`svm_sgd`).

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
    if loss not in LOSSES:
        raise ValueError(f"loss must be 'hinge' or 'perceptron', got {loss!r}")
    check_positive(lam, name="lam", zero=True)
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be 'sqrt' or 'constant', got {schedule!r}")
    check_walk(eta=eta, order=order, every=every, max_epochs=max_epochs)
    if center and not bias:
        raise ValueError("center=True needs bias=True: without a bias, moving the data moves "
                         "the problem")
    shift = X.mean(axis=0) if center else None
    rule = Linear(X if shift is None else X - shift, y, np.zeros(X.shape[1]), 0.0,
                  eta=float(eta), bias=bool(bias), loss=loss, lam=float(lam),
                  decay=schedule == "sqrt", shift=shift)
    return Walk(rule, order=order, every=every, max_epochs=max_epochs, seed=seed)


def svm_sgd(
    X,
    y,
    *,
    lam: float = 0.01,
    eta: float = 1.0,
    order: str = "cyclic",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
    center: bool = False,
) -> Walk:
    """The SVM of the notes: stochastic subgradient descent on the L2-regularised hinge loss.

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    y : array_like of shape (N,)
        Labels in {-1, +1}.
    lam : float, default 0.01
        lambda of the penalty (lambda/2)||w||^2, >= 0 (the bias is not penalised).
    eta : float, default 1
        Step size at t = 1; step t uses eta / sqrt(t).
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
    step with eta_t = eta / sqrt(t) gives

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
    return margin_sgd(X, y, loss="hinge", lam=lam, eta=eta, schedule="sqrt", order=order,
                      bias=bias, max_epochs=max_epochs, seed=seed, every=every, center=center)
