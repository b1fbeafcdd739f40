"""The soft-margin SVM for a given C, and the costs that relate C to the notes' lambda.

The soft-margin SVM is solved by scikit-learn's SVC and polished on its
active set (:func:`soft_margin`); :func:`lam_to_C` turns the lambda of the
notes' cost (:func:`notes_cost`) into the C with the same minimiser.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.max_margin import MaxMargin
from core.validation import check_data, check_positive, check_two_classes

__all__ = [
    "VIOLATION_TOL",
    "SoftMargin",
    "cost_gap",
    "hard_margin_C",
    "lam_to_C",
    "notes_cost",
    "primal_objective",
    "soft_margin",
]

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
        Bias (the notes' w_0).
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


def primal_objective(X, y, w, b: float, *, C: float) -> float:
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
    >>> primal_objective([[0.0], [2.0]], [-1, 1], [1.0], -1.0, C=10.0)
    0.5
    """
    X, y = check_data(X, y)
    w = np.asarray(w, dtype=float)
    return float(0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b))))


def lam_to_C(lam: float, *, n: int) -> float:
    """The C whose soft-margin SVM has the same minimiser as the notes' cost with lambda.

    Parameters
    ----------
    lam : float
        lambda of the notes' cost (1/N) sum_n hinge_n + (lambda/2)||w||^2, > 0.
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
    >>> lam_to_C(0.01, n=4)
    25.0
    """
    return 1.0 / (check_positive(lam, name="lam") * n)


def notes_cost(X, y, w, b: float, *, lam: float) -> float:
    """The notes' SVM cost J of a separator (w, b).

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
    >>> notes_cost(np.array([[0.0], [2.0]]), np.array([-1.0, 1.0]), np.array([1.0]), -1.0, lam=0.5)
    0.25
    """
    hinge = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return float(np.mean(hinge) + lam / 2 * w @ w)


def cost_gap(X, y, w, b: float, *, lam: float) -> tuple[float, float]:
    """How far a separator's cost is from the least: J(w, b) and J* = min J.

    Parameters
    ----------
    X, y : ndarray
        The data.
    w, b : ndarray, float
        A separator (a descent's last weights, say).
    lam : float
        lambda of the notes' cost.

    Returns
    -------
    (J, J_star) : tuple of float
        :func:`notes_cost` of (w, b) and of the exact minimiser, the soft-margin
        SVM with C = 1/(lambda N) (:func:`soft_margin`, which learns a bias).

    Examples
    --------
    >>> X, y = np.array([[0.0], [2.0]]), np.array([-1.0, 1.0])
    >>> J, J_star = cost_gap(X, y, np.array([0.0]), 0.0, lam=0.5)
    >>> J, round(J_star, 6)  # w = 0 pays a hinge of 1 on each; the best pays 0.25
    (1.0, 0.25)
    """
    sm = soft_margin(X, y, C=lam_to_C(lam, n=len(y)))
    return notes_cost(X, y, np.asarray(w, dtype=float), float(b), lam=lam), \
        notes_cost(X, y, sm.w, sm.b, lam=lam)


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


def soft_margin(X, y, *, C: float) -> SoftMargin:
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
    The notes' soft-margin SVM,

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

    X, y = check_data(X, y)
    check_two_classes(y)
    C = check_positive(C, name="C")
    svc = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    alpha = np.zeros(y.size)
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    w, b = svc.coef_[0].astype(float), float(svc.intercept_[0])
    polished = _polish(X, y, C, alpha, w, b)
    exact = polished is not None
    if exact:
        w, b, alpha = polished
    if np.max(np.abs(X @ w)) <= VIOLATION_TOL:
        # w moves no score by more than a violation can be told by: the optimum is w = 0
        # (its 1/||w|| would be a number of 1e15 for an infinite margin). With w = 0 the best b
        # is the larger class's +-1 exactly (every point of the other class pays 2, none of
        # its own; the solver leaves 0.9999999999999999); with classes of one size every b in
        # [-1, 1] costs the same.
        w = np.zeros_like(w)
        larger = int(np.sign(np.sum(y)))
        b = float(larger) if larger else float(np.clip(b, -1.0, 1.0))
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
