"""The two solvers behind every exact margin: a linear programme and a least-distance programme.

:func:`best_box_margin` is the linear programme (HiGHS) that decides whether
any direction puts every row on its positive side; :func:`least_distance`
solves

    minimise ||v||  subject to  G v >= h  (h > 0),

the hard-margin SVM without an intercept, exactly: Lawson and Hanson's
reduction to non-negative least squares (``scipy.optimize.nnls``, a finite
active-set method), polished on the active set and checked against its KKT
conditions.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog, lsq_linear, nnls

__all__ = ["best_box_margin", "least_distance"]

# Relative tolerance of the KKT check on a polished solution.
_KKT_TOL = 1e-9
# HiGHS tolerances well below the margins a lesson can show.
_LP_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def best_box_margin(P: np.ndarray) -> tuple[float, np.ndarray]:
    """The best margin of a box-bounded direction: max t s.t. P v >= t, |v_i| <= 1 (HiGHS).

    Parameters
    ----------
    P : ndarray, shape (N, D)
        Rows y_n z_n, each example signed by its label.

    Returns
    -------
    (t, v) : tuple of float and ndarray
        The margin ``min_n P_n.v`` that v really achieves, and v. ``t > 0``
        exactly when some direction puts every row on its positive side.

    Examples
    --------
    >>> t, v = best_box_margin(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> round(t, 9), v.round(9).tolist()
    (1.0, [1.0, 1.0])
    """
    n_rows, dim = P.shape
    cost = np.zeros(dim + 1)
    cost[-1] = -1.0
    A_ub = np.hstack([-P, np.ones((n_rows, 1))])
    bounds = [(-1.0, 1.0)] * dim + [(None, 1.0)]
    res = linprog(
        cost,
        A_ub=A_ub,
        b_ub=np.zeros(n_rows),
        bounds=bounds,
        method="highs",
        options=_LP_OPTIONS,
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible (v = 0, t = 0)
        raise RuntimeError(f"linear programme failed: {res.message}")
    v = res.x[:-1]
    # The margin v really achieves: HiGHS's t is only optimal to its tolerances.
    return float(np.min(P @ v)), v


def _ldp_candidate(G: np.ndarray, h: np.ndarray, method: str):
    """Lawson-Hanson: LDP via NNLS on E = [G^T; h^T], f = e_last; (v, active) or None."""
    n_rows, dim = G.shape
    E = np.vstack([G.T, h[None, :]])
    f = np.zeros(dim + 1)
    f[-1] = 1.0
    if method == "nnls":
        u, _ = nnls(E, f, maxiter=max(50, 10 * n_rows))
    else:
        u = lsq_linear(E, f, bounds=(0.0, np.inf), method="bvls", tol=1e-14).x
    r = E @ u - f
    # -r[-1] = 1 / (1 + ||v||^2): ~0 means f lies in the cone of E, i.e. G v >= h is infeasible.
    if not r[-1] < -1e-12 or not np.all(np.isfinite(r)):
        return None
    return -r[:dim] / r[-1], u > 0


def _rounding(G: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Bound on the rounding error of G @ v, row by row."""
    return 64.0 * np.finfo(float).eps * np.linalg.norm(G, axis=1) * np.linalg.norm(v)


def _kkt_ok(G: np.ndarray, h: np.ndarray, v: np.ndarray, active: np.ndarray) -> bool:
    """Check feasibility, complementary slackness and v in cone(G_active rows) to _KKT_TOL."""
    slack = G @ v - h
    if not np.all(slack >= -(_KKT_TOL * h + _rounding(G, v))):
        return False
    G_s, h_s = G[active], h[active]
    if G_s.shape[0] == 0 or not np.all(np.abs(slack[active]) <= _KKT_TOL * h_s + _rounding(G_s, v)):
        return False
    lam, _ = nnls(G_s.T, v, maxiter=max(50, 10 * G_s.shape[0]))
    return bool(np.linalg.norm(G_s.T @ lam - v) <= _KKT_TOL * np.linalg.norm(v))


def least_distance(G: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The least-distance programme min ||v|| s.t. G v >= h (h > 0), solved exactly.

    Parameters
    ----------
    G : ndarray, shape (M, D)
        Constraint rows.
    h : ndarray, shape (M,)
        Right-hand sides, all > 0.

    Returns
    -------
    (v, active) or None
        The minimiser and a boolean mask of its active rows, or None when
        G v >= h has no solution.

    Notes
    -----
    Lawson and Hanson's reduction to NNLS, with bounded-variable least
    squares as a second opinion, polished on the active set and checked
    against the KKT conditions.

    Examples
    --------
    >>> v, active = least_distance(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([1.0, 3.0]))
    >>> v.round(9).tolist(), active.tolist()
    ([1.5, 1.5], [False, True])
    """
    best = None
    for method in ("nnls", "bvls"):
        try:
            found = _ldp_candidate(G, h, method)
        except (RuntimeError, np.linalg.LinAlgError):
            continue
        if found is None:
            continue  # infeasible by this solver; the other one gives a second opinion
        v, active = found
        # Polish: the optimum is the minimum-norm solution of G_S v = h_S on its active set S.
        polished = np.linalg.lstsq(G[active], h[active], rcond=None)[0]
        for cand in (polished, v):
            if _kkt_ok(G, h, cand, active):
                return cand, active
        # Not certified: keep the shortest feasible point (scaled onto the constraints).
        for cand in (polished, v):
            slack = (G @ cand) / h
            if slack.min() > 0:
                cand = cand / slack.min()
                if best is None or np.linalg.norm(cand) < np.linalg.norm(best[0]):
                    best = (cand, active)
    return best
