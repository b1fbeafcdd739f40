"""Support vector machines: the exact hard-margin (maximum-margin) separator.

The hard-margin SVM of the seeds,

    min_{w, b} ||w||^2  subject to  y_n (w^T x_n + b) >= 1  for all n,

is solved exactly and quickly on any input:

1. a linear programme (HiGHS) decides separability, so non-separable data
   return at once instead of running a huge-C solver for minutes;
2. eliminating b turns the problem into a least-distance programme over
   pairs (i in class +1, j in class -1): min ||w|| s.t. w^T (x_i - x_j) >= 2.
   It is solved by NNLS (Lawson and Hanson) on a small working set of
   points, adding the points that violate the margin until none does
   (constraint generation; the working set stays a few points per class);
3. the result is polished on its active set and checked against the KKT
   conditions, then scaled to the canonical form min_n y_n (w^T x_n + b) = 1.

Beside it, the SVM the seeds train by stochastic subgradient descent on the
L2-regularised hinge loss (:func:`svm_sgd`), streamed as the perceptron's
:class:`~core.perceptron.Step` records so the pages animate both the same way;
both come out of one loop, :func:`margin_sgd`, which differs between them only
in the loss threshold (0 or 1), the penalty lambda and the step size. The
soft-margin SVM for a given C is solved by scikit-learn's SVC and polished on
its active set (:func:`soft_margin`); :func:`split`, :func:`error_rate` and
:func:`leave_one_out_errors` measure how the separators generalise.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from core._visits import Walk, check_walk
from core.geometry import _best_box_margin, _check_data, _least_distance
from core.losses import hinge_slope, perceptron_slope
from core.perceptron import Step, check_data, perceptron
from core.trace import Trace

__all__ = [
    "Descent",
    "Generalization",
    "MaxMargin",
    "SoftMargin",
    "align",
    "error_rate",
    "generalization",
    "hard_margin_C",
    "lam_to_C",
    "leave_one_out_errors",
    "margin_sgd",
    "margins_over_lambda",
    "max_margin",
    "primal_objective",
    "seeds_cost",
    "soft_margin",
    "split",
    "svm_sgd",
    "svm_step_size",
]

# A point is a support vector when y (w.x + b) is this close to 1 (canonical form).
SUPPORT_TOL = 1e-7
# A working-set solution is accepted when no point falls below the margin by more than this.
_FEASIBILITY_TOL = 1e-10


@dataclass(frozen=True)
class MaxMargin:
    """The maximum-margin separator of a linearly separable data set.

    Attributes
    ----------
    w : ndarray, shape (D,)
        Weights in canonical form, ``min_n y_n (w.x_n + b) = 1`` (read-only).
    b : float
        Bias (the seeds' w_0).
    gamma : float
        Geometric margin ``min_n y_n (w.x_n + b) / ||w|| = 1 / ||w||``.
    support : ndarray of int
        Sorted indices of the support vectors: the points on the margin,
        ``|y_n (w.x_n + b) - 1| <= 1e-7`` (read-only).
    """

    w: np.ndarray
    b: float
    gamma: float
    support: np.ndarray


def _pairs(Xs: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """Rows x_i - x_j for every i in pos and j in neg."""
    return (Xs[pos][:, None, :] - Xs[neg][None, :, :]).reshape(-1, Xs.shape[1])


def _closest(scores: np.ndarray, index: np.ndarray, k: int) -> np.ndarray:
    """The k entries of index with the smallest scores."""
    if index.size <= k:
        return index
    return index[np.argpartition(scores, k - 1)[:k]]


def max_margin(X, y) -> MaxMargin | None:
    """Exact hard-margin separator (maximum geometric margin, with intercept).

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n, finite.
    y : array_like, shape (N,)
        Labels y_n in {-1, +1}; both classes must be present.

    Returns
    -------
    MaxMargin or None
        The separator (w, b) maximising ``min_n y_n (w.x_n + b) / ||w||``,
        scaled so that the closest points have ``y_n (w.x_n + b) = 1``, with
        its margin ``gamma = 1/||w||`` and its support vectors; None when the
        data are not linearly separable (XOR, overlapping classes, the same
        point with both labels).

    Raises
    ------
    ValueError
        If X is not an (N, D) array of finite numbers, y is not (N,) in
        {-1, +1}, or only one class is present ("two classes are needed").

    Notes
    -----
    The seeds' max-margin classifier: max_{w, w_0} M subject to
    M <= y^(n) (w^T x^(n) + w_0) / ||w||_2; fixing ||w||_2 = 1/M gives the
    hard-margin SVM min ||w||^2 s.t. y^(n) (w^T x^(n) + w_0) >= 1. The
    points with equality are the support vectors.

    Exactness: b is eliminated (some b fits iff w^T (x_i - x_j) >= 2 for
    every i of class +1 and j of class -1), the remaining least-distance
    programme is solved by NNLS with constraint generation, polished on its
    active set and verified against the KKT conditions to 1e-9. Speed: a
    linear programme rejects non-separable data first, and the NNLS
    problems only ever hold a few points of each class. The data are
    centred and scaled internally; margins below about 1e-13 of the data's
    spread are treated as not separable.

    Examples
    --------
    >>> mm = max_margin([[1.0, 1.0], [2.0, 1.0]], [-1, 1])
    >>> mm.w.tolist(), mm.b, mm.gamma, mm.support.tolist()
    ([2.0, 0.0], -3.0, 0.5, [0, 1])
    >>> max_margin([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]) is None
    True
    """
    X, y = _check_data(X, y)
    pos = np.flatnonzero(y > 0)
    neg = np.flatnonzero(y < 0)
    if pos.size == 0 or neg.size == 0:
        raise ValueError("two classes are needed: y has only one label")

    # The margin is invariant under translation and scales with X: solve on centred, unit data.
    center = X.mean(axis=0)
    scale = float(np.max(np.linalg.norm(X - center, axis=1)))
    if scale == 0.0:
        return None  # every point is the same point, with both labels
    Xs = (X - center) / scale

    # 1. Separability: max t s.t. y_n (w.x_n + b) >= t, |w_i| <= 1 (b is then bounded too).
    P = y[:, None] * np.hstack([Xs, np.ones((Xs.shape[0], 1))])
    t, wb = _best_box_margin(P)
    if not t > 1e-13:
        return None

    # 2. Constraint generation, starting from the points closest to the LP's boundary.
    k = Xs.shape[1] + 1
    lp_scores = P @ wb
    work_pos = _closest(lp_scores[pos], pos, k)
    work_neg = _closest(lp_scores[neg], neg, k)
    for _ in range(y.size + 1):
        G = _pairs(Xs, work_pos, work_neg)
        # Right-hand side 2t keeps ||w|| near 1 whatever the margin: well conditioned.
        found = _least_distance(G, np.full(G.shape[0], 2.0 * t))
        if found is None:
            return None
        w = found[0]
        proj = Xs @ w
        b = -(proj[work_pos].min() + proj[work_neg].max()) / 2.0
        functional = y * (proj + b)
        # Xs has unit radius, so |x.w| rounds to within a few eps * ||w||.
        floor = t * (1.0 - _FEASIBILITY_TOL) - 64.0 * np.finfo(float).eps * np.linalg.norm(w)
        viol_pos = np.setdiff1d(pos[functional[pos] < floor], work_pos)
        viol_neg = np.setdiff1d(neg[functional[neg] < floor], work_neg)
        if viol_pos.size == 0 and viol_neg.size == 0:
            break
        work_pos = np.union1d(work_pos, _closest(functional[viol_pos], viol_pos, k))
        work_neg = np.union1d(work_neg, _closest(functional[viol_neg], viol_neg, k))
    else:  # pragma: no cover - every round adds a point, so N rounds suffice
        raise RuntimeError("constraint generation did not converge")

    # 3. Best b over all points, canonical scaling, back to the user's coordinates.
    b = -(proj[pos].min() + proj[neg].max()) / 2.0
    functional = y * (proj + b)
    lowest = float(functional.min())
    if not lowest > 0:  # pragma: no cover - guarded by the LP and the KKT check
        return None
    w_s, b_s = w / lowest, b / lowest
    functional = functional / lowest
    w_out = w_s / scale
    b_out = float(b_s - w_out @ center)
    support = np.flatnonzero(np.abs(functional - 1.0) <= SUPPORT_TOL)
    w_out.setflags(write=False)
    support.setflags(write=False)
    return MaxMargin(w=w_out, b=b_out, gamma=float(scale / np.linalg.norm(w_s)), support=support)


# ---------------------------------------------------------------- SGD: the perceptron's loop


# dL/dz of each loss, with the subgradient each algorithm takes at its kink.
_SLOPES = {"perceptron": perceptron_slope, "hinge": hinge_slope}
SCHEDULES = ("constant", "sqrt")


def svm_step_size(t: int, eta0: float) -> float:
    """The SVM's step size at step t.

    Parameters
    ----------
    t : int
        Step, 1-based (the seeds count from 0 and write lr / sqrt(t + 1)).
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
    with ``lam > 0`` and ``schedule="sqrt"`` is the seeds' SVM (:func:`svm_sgd`).

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
    """The SVM of the seeds: stochastic subgradient descent on the L2-regularised hinge loss.

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
        the weights always start at zero, as in the seeds' code.
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
    whose average over the data is the seeds' SVM cost J(w). A subgradient
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


# ---------------------------------------------------------------- soft margin (exact, via SVC)


# A slack above this (relative to the margin 1) makes a point a margin violator.
VIOLATION_TOL = 1e-9
# KKT conditions are accepted to this relative tolerance after polishing.
_SOFT_KKT_TOL = 1e-8


@dataclass(frozen=True)
class SoftMargin:
    """The soft-margin SVM for one C.

    Attributes
    ----------
    w : ndarray, shape (D,)
        Weights (read-only).
    b : float
        Bias (the seeds' w_0).
    slack : ndarray, shape (N,)
        xi_n = max(0, 1 - y_n (w.x_n + b)) for every example (read-only).
    support : ndarray of int
        Sorted indices of the support vectors (dual coefficient alpha_n > 0).
    violations : ndarray of int
        Sorted indices of the margin violators, xi_n > 0: inside the margin
        (0 < xi_n < 1), on the boundary (xi_n = 1) or misclassified (xi_n > 1).
    C : float
        The penalty the separator was solved for.
    exact : bool
        True when the solution passed the KKT check after polishing (the
        usual case); False when SVC's own answer is returned unpolished.
    """

    w: np.ndarray
    b: float
    slack: np.ndarray
    support: np.ndarray
    violations: np.ndarray
    C: float
    exact: bool


def primal_objective(X, y, w, b: float, C: float) -> float:
    """The soft-margin objective of a separator (w, b).

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    w : array_like, shape (D,)
        Weights.
    b : float
        Bias.
    C : float
        Weight of the slacks.

    Returns
    -------
    float
        ``(1/2)||w||^2 + C sum_n max(0, 1 - y_n (w.x_n + b))``.

    Examples
    --------
    >>> primal_objective([[0.0], [2.0]], [-1, 1], [1.0], -1.0, 10.0)
    0.5
    """
    X, y = _check_data(X, y)
    w = np.asarray(w, dtype=float)
    return float(0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b))))


def lam_to_C(lam: float, n: int) -> float:
    """The C whose soft-margin SVM has the same minimiser as the seeds' cost with lambda.

    Parameters
    ----------
    lam : float
        lambda of the seeds' cost (1/N) sum_n hinge_n + (lambda/2)||w||^2, > 0.
    n : int
        Number of examples N.

    Returns
    -------
    float
        C = 1 / (lambda N).

    Raises
    ------
    ValueError
        If lam is not > 0.

    Notes
    -----
    (1/N) sum_n xi_n + (lambda/2)||w||^2 is (1/2)||w||^2 + C sum_n xi_n
    divided by C N, with C = 1 / (lambda N).

    Examples
    --------
    >>> lam_to_C(0.01, 4)
    25.0
    """
    if not (math.isfinite(lam) and lam > 0):
        raise ValueError(f"lam must be > 0, got {lam}")
    return 1.0 / (lam * n)


def seeds_cost(X, y, w, b: float, lam: float) -> float:
    """The seeds' SVM cost J of a separator (w, b).

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Inputs x_n.
    y : ndarray of shape (N,)
        Labels y_n in {-1, +1}.
    w : ndarray of shape (D,)
        Weights.
    b : float
        Bias (not penalised).
    lam : float
        lambda of the penalty.

    Returns
    -------
    float
        ``J = (1/N) sum_n max(0, 1 - y_n (w.x_n + b)) + (lambda/2)||w||^2``.

    Examples
    --------
    >>> seeds_cost(np.array([[0.0], [2.0]]), np.array([-1.0, 1.0]), np.array([1.0]), -1.0, 0.5)
    0.25
    """
    hinge = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return float(np.mean(hinge) + lam / 2 * w @ w)


def hard_margin_C(mm: MaxMargin) -> float:
    """A C for which the soft-margin SVM is the hard margin ``mm``.

    Parameters
    ----------
    mm : MaxMargin
        The maximum-margin separator (:func:`max_margin`).

    Returns
    -------
    float
        ``2 ||w||^2``.

    Notes
    -----
    Any C at least the largest dual coefficient alpha_n gives the hard
    margin, and sum_n alpha_n = ||w||^2 bounds every alpha_n; twice that
    leaves room for the solver's tolerance.
    """
    return 2.0 * float(mm.w @ mm.w)


def soft_margin(X, y, C: float) -> SoftMargin:
    """The soft-margin SVM: scikit-learn's ``SVC(kernel="linear", C=C)``, polished.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n, finite.
    y : array_like, shape (N,)
        Labels in {-1, +1}; both classes must be present.
    C : float
        Penalty of the slacks, > 0: large C approaches the hard margin, small
        C buys a wider margin with more violations.

    Returns
    -------
    SoftMargin
        w, b, the slack of every point, the support vectors and the violators.

    Raises
    ------
    ValueError
        If X, y are malformed, only one class is present, or C is not > 0.

    Notes
    -----
    The seeds' soft-margin SVM,

        min_{w, w_0} (1/2)||w||^2 + C sum_n xi_n
        s.t. y_n (w^T x_n + w_0) >= 1 - xi_n,  xi_n >= 0,

    whose optimal slacks are xi_n = max(0, 1 - y_n (w^T x_n + w_0)): the hinge
    losses. libsvm stops at a tolerance, which on large C leaves the margins
    off by up to about 1e-3; the answer is then polished: with the support
    vectors split as libsvm found them (on the margin, 0 < alpha < C; at the
    bound, alpha = C), the KKT conditions are a linear system, solved and
    checked (0 <= alpha <= C, margins on the right side of 1). When the check
    fails, SVC's own answer is kept and ``exact`` is False.

    Examples
    --------
    >>> sm = soft_margin([[0.0, 0.0], [1.0, 1.0], [0.2, 0.2]], [-1, 1, 1], C=1.0)
    >>> sm.w.round(6).tolist(), sm.slack.round(6).tolist(), sm.violations.tolist()
    ([0.2, 0.2], [1.76, 0.0, 0.16], [0, 2])
    """
    from sklearn.svm import SVC  # heavy import, only when a soft margin is asked for

    X, y = _check_data(X, y)
    if not np.any(y > 0) or not np.any(y < 0):
        raise ValueError("two classes are needed: y has only one label")
    if not (isinstance(C, (int, float, np.floating)) and math.isfinite(C) and C > 0):
        raise ValueError(f"C must be > 0, got {C}")
    C = float(C)
    svc = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    alpha = np.zeros(y.size)
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    w, b = svc.coef_[0].astype(float), float(svc.intercept_[0])
    polished = _polish(X, y, C, alpha, w, b)
    exact = polished is not None
    if exact:
        w, b, alpha = polished
    slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
    slack[slack <= VIOLATION_TOL] = 0.0
    support = np.flatnonzero(alpha > 0)
    violations = np.flatnonzero(slack > 0)
    for array in (w, slack, support, violations):
        array.setflags(write=False)
    return SoftMargin(w=w, b=float(b), slack=slack, support=support, violations=violations,
                      C=C, exact=exact)


def _polish(X, y, C, alpha, w, b):
    """Solve the KKT system on libsvm's active set; (w, b, alpha) if it checks out, else None."""
    at_bound = alpha >= C * (1 - 1e-12)
    free = np.flatnonzero((alpha > 0) & ~at_bound)
    bound = np.flatnonzero(at_bound)
    d = X.shape[1]
    fixed = C * (y[bound] @ X[bound])  # the bound points' pull on w
    if free.size == 0:
        # No point on the margin: w is fixed by the bound points, b only bounded; keep libsvm's.
        w_new, b_new, alpha_free = fixed, b, np.zeros(0)
    else:
        # Unknowns (w, b, alpha_free): w - sum_free alpha y x = fixed; sum_free alpha y =
        # -C sum_bound y; y_i (w.x_i + b) = 1 on the free points.
        k = free.size
        A = np.zeros((d + 1 + k, d + 1 + k))
        rhs = np.zeros(d + 1 + k)
        A[:d, :d] = np.eye(d)
        A[:d, d + 1:] = -(y[free, None] * X[free]).T
        rhs[:d] = fixed
        A[d, d + 1:] = y[free]
        rhs[d] = -C * np.sum(y[bound])
        A[d + 1:, :d] = y[free, None] * X[free]
        A[d + 1:, d] = y[free]
        rhs[d + 1:] = 1.0
        solution = np.linalg.lstsq(A, rhs, rcond=None)[0]
        if not np.allclose(A @ solution, rhs, rtol=0, atol=_SOFT_KKT_TOL * max(1.0, C)):
            return None
        w_new, b_new, alpha_free = solution[:d], float(solution[d]), solution[d + 1:]
    if np.any(alpha_free < -_SOFT_KKT_TOL * C) or np.any(alpha_free > C * (1 + _SOFT_KKT_TOL)):
        return None
    margins = y * (X @ w_new + b_new)
    others = np.setdiff1d(np.arange(y.size), np.r_[free, bound])
    scale = _SOFT_KKT_TOL * max(1.0, float(np.max(np.abs(X @ w_new))) + abs(b_new))
    if np.any(margins[others] < 1 - scale) or np.any(margins[bound] > 1 + scale):
        return None
    alpha_new = np.zeros(y.size)
    alpha_new[bound] = C
    alpha_new[free] = np.clip(alpha_free, 0.0, C)
    return np.asarray(w_new, dtype=float), float(b_new), alpha_new


# ---------------------------------------------------------------- side by side, generalisation


def align(*traces: Trace) -> tuple[Trace, ...]:
    """Pad recorded runs to the same number of steps, so one step slider drives them all.

    Parameters
    ----------
    *traces : Trace
        Recorded runs (:func:`core.trace.record`).

    Returns
    -------
    tuple of Trace
        The runs in the same order, each with ``max(trace.steps)`` steps. A run
        that ended early keeps its last weights and mistakes in the padded
        rows, which are marked ``index = -1``, ``updated = False`` and NaN
        ``activation``; the longest run is returned unchanged.
    """
    steps = max(trace.steps for trace in traces)
    return tuple(_pad(trace, steps) for trace in traces)


def _pad(trace: Trace, steps: int) -> Trace:
    """The trace with its last state repeated up to ``steps``."""
    extra = steps - trace.steps
    if extra == 0:
        return trace
    last = trace.steps
    return Trace(
        t=np.r_[trace.t, trace.t[last] + np.arange(1, extra + 1)],
        epoch=np.r_[trace.epoch, np.full(extra, trace.epoch[last])],
        index=np.r_[trace.index, np.full(extra, -1)],
        activation=np.r_[trace.activation, np.full(extra, np.nan)],
        updated=np.r_[trace.updated, np.zeros(extra, dtype=bool)],
        W=np.vstack([trace.W, np.repeat(trace.W[last:], extra, axis=0)]),
        b=np.r_[trace.b, np.full(extra, trace.b[last])],
        mistakes=np.r_[trace.mistakes, np.full(extra, trace.mistakes[last])],
        complete=trace.complete,
    )


def split(y, test_fraction: float, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A stratified train/test split: sorted row indices (train, test).

    Parameters
    ----------
    y : array_like, shape (N,)
        Labels in {-1, +1}.
    test_fraction : float
        Share of each class held out, in (0, 1); rounded per class, with at
        least one point of each class kept for training.
    seed : int or None
        Seed of the shuffle.

    Raises
    ------
    ValueError
        If test_fraction is not in (0, 1), or the split leaves the test set empty.
    """
    y = np.asarray(y, dtype=float)
    if not 0 < test_fraction < 1:
        raise ValueError(f"test fraction must be between 0 and 1, got {test_fraction}")
    rng = np.random.default_rng(seed)
    test = []
    for label in (-1.0, 1.0):
        rows = rng.permutation(np.flatnonzero(y == label))
        test.extend(rows[: min(round(test_fraction * rows.size), max(rows.size - 1, 0))])
    test = np.sort(np.array(test, dtype=int))
    if test.size == 0:
        raise ValueError(f"the test set is empty: {y.size} points are too few for a test "
                         f"fraction of {test_fraction:g}")
    return np.setdiff1d(np.arange(y.size), test), test


def error_rate(X, y, w, b: float) -> float:
    """The share of examples a separator gets wrong.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    w : array_like, shape (D,)
        Weights.
    b : float
        Bias.

    Returns
    -------
    float
        The fraction of n with y_n (w.x_n + b) <= 0 (a tie counts as an error, as in
        the perceptron's rule).

    Examples
    --------
    >>> error_rate([[0.0], [1.0], [2.0]], [-1, 1, 1], [1.0], -1.0)
    0.3333333333333333
    """
    X, y = _check_data(X, y)
    return float(np.mean(y * (X @ np.asarray(w, dtype=float) + b) <= 0))


def leave_one_out_errors(X, y, *, max_epochs: int = 100) -> int:
    """How many examples the perceptron gets wrong when trained on all the others.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs.
    y : array_like, shape (N,)
        Labels in {-1, +1}.
    max_epochs : int, default 100
        Epochs per run (each run is the cyclic perceptron from w = 0, eta 1, with a bias).

    Returns
    -------
    int
        The number of i with y_i (w^(-i).x_i + b^(-i)) <= 0.

    Notes
    -----
    The quantity (*) in the proof of Theorem 2.6: a point the perceptron never
    errs on while training on all N points can be left out without changing
    the run, so on separable data this count is at most the mistakes of the
    full run, hence at most R^2/gamma^2.
    """
    X, y = check_data(X, y)
    errors = 0
    for i in range(y.size):
        keep = np.arange(y.size) != i
        w, b = np.zeros(X.shape[1]), 0.0
        for step in perceptron(X[keep], y[keep], max_epochs=max_epochs, every="update"):
            w, b = step.w, step.b
        errors += int(y[i] * (X[i] @ w + b) <= 0)
    return errors


def margins_over_lambda(X, y, lams, **sgd) -> tuple[np.ndarray, np.ndarray]:
    """Geometric margins of the exact minimiser and of the SGD run, for each lambda.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}, both classes present.
    lams : sequence of float
        Values of lambda, each > 0.
    **sgd
        Settings of :func:`svm_sgd` other than ``lam`` (eta0, order, bias,
        max_epochs, seed).

    Returns
    -------
    (exact, sgd) : tuple of ndarray
        For each lambda, the geometric margin on the data of the exact
        minimiser of the seeds' cost (:func:`soft_margin` with C = 1/(lambda N))
        and of the subgradient run's last step; 0 where the separator does
        not separate the data.

    Notes
    -----
    On separable data the exact margin reaches the maximum gamma once
    lambda <= 1/(N max_n alpha_n) and stays there; the SGD run follows it
    until lambda is so small that the penalty, which is what pulls w towards
    the maximum margin, needs more steps than the run has.
    """
    from core.geometry import geometric_margin

    X, y = _check_data(X, y)
    exact, found = [], []
    for lam in lams:
        sm = soft_margin(X, y, lam_to_C(lam, len(y)))
        exact.append(max(geometric_margin(X, y, sm.w, sm.b), 0.0))
        last = deque(svm_sgd(X, y, lam=lam, **sgd), maxlen=1)
        found.append(max(geometric_margin(X, y, last[0].w, last[0].b), 0.0) if last else 0.0)
    return np.array(exact), np.array(found)


@dataclass(frozen=True)
class Generalization:
    """Several perceptron runs and one SVM, trained on one split and scored on the other.

    Attributes
    ----------
    train, test : ndarray of int
        Row indices of the split.
    runs : list of (w, b, test_error)
        The perceptron's final weights for seeds 0, 1, ... and their test error.
    svm : (w, b)
        The maximum-margin separator of the training set, or its soft margin
        for C when it is not separable.
    separable : bool
        Whether the training set is linearly separable.
    svm_error : float
        The SVM's test error.
    ratio : float
        R^2/gamma^2 of the training set as the perceptron sees it (inf when
        not separable).
    loo : int or None
        Leave-one-out errors of the perceptron on the training set (None when
        not computed).
    """

    train: np.ndarray
    test: np.ndarray
    runs: list
    svm: tuple
    separable: bool
    svm_error: float
    ratio: float
    loo: int | None


def generalization(X, y, *, test_fraction: float, split_seed: int | None, runs: int,
                   order: str, max_epochs: int, C: float = 1.0,
                   loo_limit: int = 150) -> Generalization:
    """Train the perceptron from several seeds and the SVM on a split; score both on the rest.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    test_fraction, split_seed
        As for :func:`split`.
    runs : int
        Perceptron runs, with seeds 0 .. runs - 1 (eta 1, from w = 0).
    order : str
        Their visiting order (one of :data:`core.perceptron.ORDERS`; a random
        one, or every run is the same).
    max_epochs : int
        Epochs per perceptron run.
    C : float, default 1
        The soft margin's C, used only when the training set is not separable.
    loo_limit : int, default 150
        Leave-one-out errors are counted only up to this many training points
        (it trains the perceptron once per point), and only on separable data.

    Returns
    -------
    Generalization

    Raises
    ------
    ValueError
        If the split is impossible or a setting is invalid.

    Notes
    -----
    The seeds' point: every run separates the training data (zero in-sample
    error), yet their out-of-sample errors differ; the maximum-margin
    separator is a function of the training data alone. Theorem 2.6 bounds
    the perceptron's expected error by E[R^2/gamma^2]/(N + 1); ``ratio`` is
    this training set's R^2/gamma^2.
    """
    from core.geometry import mistake_bound

    X, y = check_data(X, y)
    train, test = split(y, test_fraction, split_seed)
    Xtr, ytr = X[train], y[train]
    found = []
    for seed in range(runs):
        w, b = np.zeros(X.shape[1]), 0.0
        for step in perceptron(Xtr, ytr, order=order, seed=seed, max_epochs=max_epochs,
                               every="update"):
            w, b = step.w, step.b
        found.append((w, b, error_rate(X[test], y[test], w, b)))
    mm = max_margin(Xtr, ytr)
    svm = mm if mm is not None else soft_margin(Xtr, ytr, C)
    loo = (leave_one_out_errors(Xtr, ytr, max_epochs=max_epochs)
           if mm is not None and len(train) <= loo_limit else None)
    return Generalization(train=train, test=test, runs=found, svm=(svm.w, svm.b),
                          separable=mm is not None,
                          svm_error=error_rate(X[test], y[test], svm.w, svm.b),
                          ratio=mistake_bound(Xtr, ytr), loo=loo)
