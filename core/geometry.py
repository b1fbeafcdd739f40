"""Margins, radius and Novikoff's mistake bound, computed exactly.

Notation follows the notes: a data set D = {(x_n, y_n)}, n = 1..N, with
x_n in R^D and y_n in {-1, +1}; a separator (w, b) classifies by the sign
of the activation a = w.x + b. The perceptron with a bias really works on
the augmented vectors z_n = (x_n, 1) and the weights (w, b), so the mistake
bound's R and gamma are measured there.

The margins come from the least-distance programme of core/margin_solvers.py
(the hard-margin SVM without an intercept, rows y_n z_n), and separability
from its linear programme: :func:`separating_direction` is the one test every
lesson asks.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import numpy as np

from core.decimals import Misclassified
from core.margin_solvers import best_box_margin, least_distance
from core.validation import check_data, check_X

__all__ = [
    "SEPARABLE_TOL",
    "best_unit_separator",
    "exact_mistake_bound",
    "geometric_margin",
    "linearly_separable",
    "mistake_bound",
    "non_separable_bound",
    "proof_quantities",
    "radius",
    "separating_direction",
]

# Data count as separable when the best unit-radius margin the LP finds is above this.
SEPARABLE_TOL = 1e-13


def _augment(X: np.ndarray, bias: bool) -> np.ndarray:
    """The vectors the perceptron sees: (x, 1) with a bias, x without."""
    if not bias:
        return X
    return np.hstack([X, np.ones((X.shape[0], 1))])


def separating_direction(P: np.ndarray) -> tuple[float, np.ndarray] | None:
    """The one separability test: a direction v with P_n.v > 0 for every row, or None.

    Parameters
    ----------
    P : ndarray, shape (N, D)
        Rows y_n z_n, scaled so that the longest has length about 1 (the
        callers centre and scale their data first).

    Returns
    -------
    (t, v) or None
        The linear programme's best box-bounded direction v and its margin
        ``t = min_n P_n.v`` (see :func:`best_box_margin`); None when t is not
        above ``SEPARABLE_TOL``: no direction puts every row strictly on its side.

    Examples
    --------
    >>> separating_direction(np.array([[1.0, 0.0], [0.0, 1.0]]))[0]
    1.0
    >>> separating_direction(np.array([[1.0], [-1.0]])) is None
    True
    """
    t, v = best_box_margin(P)
    return (t, v) if t > SEPARABLE_TOL else None


def linearly_separable(X, y, *, bias: bool = True) -> bool:
    """Whether some (w, b) (b = 0 when ``bias=False``) has y_n (w^T x_n + b) > 0 for all n.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n.
    y : array_like, shape (N,)
        Labels y_n in {-1, +1} (one class alone is separable).
    bias : bool, default True
        Whether the separator may have a bias.

    Returns
    -------
    bool

    Notes
    -----
    :func:`separating_direction` on the rows y_n (x_n, 1), the data first
    centred (with a bias the answer does not depend on where the data sit)
    and scaled to unit radius; the same test :func:`core.max_margin.max_margin`
    and :func:`mistake_bound` make, so the lessons never disagree.

    Examples
    --------
    >>> linearly_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])
    False
    >>> X, y = [[1.0], [2.0]], [1, -1]
    >>> linearly_separable(X, y), linearly_separable(X, y, bias=False)
    (True, False)
    """
    X, y = check_data(X, y)
    if bias:
        X = X - X.mean(axis=0)
    scale = float(np.max(np.linalg.norm(X, axis=1)))
    Xs = X / scale if scale > 0 else X
    return separating_direction(y[:, None] * _augment(Xs, bias)) is not None


def _through_origin(P: np.ndarray) -> np.ndarray | None:
    """Max-margin unit u over min_n P_n.u (rows P_n = y_n z_n), or None if no u gives > 0."""
    scale = float(np.max(np.linalg.norm(P, axis=1)))
    if scale == 0.0:
        return None
    P = P / scale
    found = separating_direction(P)
    if found is None:
        return None
    # Right-hand side t (the LP margin) keeps ||v|| near 1 whatever gamma: well conditioned.
    found = least_distance(P, np.full(P.shape[0], found[0]))
    if found is None:
        return None
    v = found[0]
    return v / np.linalg.norm(v)


def geometric_margin(X, y, w, b: float = 0.0) -> float:
    """Geometric margin of the separator (w, b) on a data set.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n.
    y : array_like, shape (N,)
        Labels y_n in {-1, +1}.
    w : array_like, shape (D,)
        Weight vector (the normal of the boundary).
    b : float, default 0.0
        Bias.

    Returns
    -------
    float
        ``min_n y_n (w.x_n + b) / ||w||`` when every example is strictly on its
        side (y_n (w.x_n + b) > 0), otherwise ``-inf`` (also for w = 0).

    Raises
    ------
    ValueError
        If X, y or w have the wrong shape, X is not finite or y is not in {-1, +1}.

    Notes
    -----
    The notes' Margin(D, w): the distance from the boundary w.x + b = 0 to the
    nearest point when w separates D, and -inf otherwise. The notes write it
    with ||w|| = 1; here any w is accepted and the distance is normalised.

    Examples
    --------
    >>> geometric_margin([[1.0, 1.0], [2.0, 1.0]], [-1, 1], [2.0, 0.0], -3.0)
    0.5

    The notes' 4 points after 28 steps at eta = 0.1: example 0 has a = 0 exactly, a tie (in
    floats a = 5.6e-17):

    >>> geometric_margin([[1, 1], [2, 1], [1.5, 0], [2, 2]], [-1, 1, 1, -1], [0.3, -0.4], 0.1)
    -inf
    """
    X, y = check_data(X, y)
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],):
        raise ValueError(f"w must have shape ({X.shape[1]},) to match X, got {w.shape}")
    if not (np.all(np.isfinite(w)) and math.isfinite(b)):
        raise ValueError("w and b must be finite")
    norm = float(np.linalg.norm(w))
    functional = y * (X @ w + b)
    # whether every example is strictly on its side is decided as the rule decides it: in
    # integers when X, w and b are short decimals (a tie, a = 0 exactly, is a mistake even
    # where the float sum lands a rounding above 0), else in floats
    if norm == 0.0 or Misclassified(X, y).rows(w, b).any() or not np.all(functional > 0):
        return -math.inf
    return float(functional.min() / norm)


def radius(X, *, bias: bool = True) -> float:
    """Radius R of the vectors the perceptron sees.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n.
    bias : bool, default True
        Whether the perceptron learns a bias, so that it sees z_n = (x_n, 1).

    Returns
    -------
    float
        ``R = max_n ||z_n||`` with z_n = (x_n, 1) when ``bias`` else x_n.

    Raises
    ------
    ValueError
        If X is not an (N, D) array of finite numbers.

    Notes
    -----
    R is the bound ||x_n||_2 <= R of the mistake bound theorem; with a bias it
    is sqrt(1 + max_n ||x_n||^2), so it grows with the distance of the data
    from the origin.

    Examples
    --------
    >>> radius([[3.0, 4.0]], bias=False)
    5.0
    """
    X = check_X(X)
    return float(np.max(np.linalg.norm(_augment(X, bias), axis=1)))


def best_unit_separator(X, y, *, bias: bool = True) -> tuple[np.ndarray, float] | None:
    """The unit vector u with the largest margin gamma through the origin.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n.
    y : array_like, shape (N,)
        Labels y_n in {-1, +1}; a single class is allowed.
    bias : bool, default True
        Work on z_n = (x_n, 1) (u then has D + 1 entries, the last one for the
        bias) or on x_n itself.

    Returns
    -------
    (u, gamma) or None
        ``u`` (read-only, unit length) maximises ``gamma = min_n y_n u.z_n``;
        None when no u gives gamma > 0 (not separable through the origin).

    Raises
    ------
    ValueError
        If X, y are malformed (see :func:`geometric_margin`).

    Notes
    -----
    This is the u of the mistake bound theorem at its best: gamma =
    sup_{||u||=1} min_n y_n u^T z_n. It is the hard-margin SVM without an
    intercept on z_n, min ||v||^2 s.t. y_n v^T z_n >= 1, with u = v/||v|| and
    gamma = 1/||v||. With ``bias=True`` gamma is smaller than the geometric
    margin of the maximum-margin line, because ||u|| also counts the bias.

    The data are first checked with a linear programme (HiGHS), then the
    least-distance programme is solved by NNLS (Lawson and Hanson), polished
    on its active set and verified against the KKT conditions to 1e-9.
    Margins below about 1e-13 of R are treated as not separable.

    Examples
    --------
    >>> u, gamma = best_unit_separator([[1.0], [-2.0]], [1, -1], bias=False)
    >>> u.tolist(), gamma
    ([1.0], 1.0)
    """
    X, y = check_data(X, y)
    P = y[:, None] * _augment(X, bias)
    u = _through_origin(P)
    if u is None:
        return None
    gamma = float(np.min(P @ u))
    if not gamma > 0:  # pragma: no cover - guarded by the LP and the KKT check
        return None
    u.setflags(write=False)
    return u, gamma


def mistake_bound(X, y, *, bias: bool = True) -> float:
    """Novikoff's mistake bound R^2/gamma^2 at its tightest.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs x_n.
    y : array_like, shape (N,)
        Labels y_n in {-1, +1}.
    bias : bool, default True
        Whether the perceptron learns a bias (then it sees z_n = (x_n, 1)).

    Returns
    -------
    float
        ``R^2 / gamma^2`` with R = max_n ||z_n|| and gamma the best margin of a
        unit vector through the origin of z-space (see
        :func:`best_unit_separator`); ``math.inf`` when there is none.

    Raises
    ------
    ValueError
        If X, y are malformed.

    Notes
    -----
    Theorem (Novikoff 1962, Block 1962): if ||z_n|| <= R and some unit u has
    y_n u^T z_n >= gamma > 0 for all n, the perceptron started at w_0 = 0
    makes at most R^2/gamma^2 mistakes, in any order, for any eta > 0.
    The bound is tightest for the largest such gamma, which this function
    computes exactly. Data far from the origin get a large bound even when
    their 2-D margin is wide: R grows and gamma shrinks with the shift.

    Examples
    --------
    >>> mistake_bound([[1.0], [-2.0]], [1, -1], bias=False)
    4.0
    >>> mistake_bound([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [-1, -1, 1, 1])
    inf
    """
    X, y = check_data(X, y)
    found = best_unit_separator(X, y, bias=bias)
    if found is None:
        return math.inf
    # gamma <= ||z_n|| <= R for every n, so the bound is never below 1 (up to rounding).
    return max(1.0, radius(X, bias=bias) ** 2 / found[1] ** 2)


def exact_mistake_bound(X, y, *, bias: bool = True) -> Fraction | None:
    """R^2/gamma^2 as an exact fraction, where the data are short decimals and the solver's
    answer can be certified; None otherwise (then only :func:`mistake_bound`'s float is known).

    Examples
    --------
    >>> exact_mistake_bound([[2.0, 2.0], [1.0, 1.0], [-1.0, -1.0], [0.5, 0.5]], [1, -1, 1, -1])
    >>> exact_mistake_bound([[0.0, 0.0], [1.0, 1.0]], [-1, 1])  # v = (1, 1, -1), R² = 3
    Fraction(9, 1)
    >>> exact_mistake_bound([[1.0], [-2.0]], [1, -1], bias=False)
    Fraction(4, 1)

    Notes
    -----
    gamma = 1/||v|| for the least ||v|| with y_n v.z_n >= 1 (:func:`best_unit_separator`).
    From the float v the points on its margin are taken, v is solved again in fractions as
    v = sum alpha_n y_n z_n with y_n v.z_n = 1 on a set of them, and kept only when the KKT
    conditions hold exactly: every alpha_n >= 0 and every y_n v.z_n >= 1 (then v is the
    optimum, whatever rounding found it). Then R^2/gamma^2 = max ||z_n||^2 ||v||^2.
    """
    from core.decimals import exact_decimals

    found = best_unit_separator(X, y, bias=bias)
    decimals = exact_decimals(np.asarray(X, dtype=float))
    if found is None or decimals is None:
        return None
    u, gamma = found
    X = np.asarray(X, dtype=float)
    labels = [int(v) for v in np.asarray(y)]
    Z = [[*row, Fraction(1)] if bias else list(row) for row in decimals.tolist()]
    P = [[label * v for v in z] for label, z in zip(labels, Z, strict=True)]
    v_float = np.asarray(u) / gamma
    on = [n for n, p in enumerate(P) if abs(float(np.dot([float(c) for c in p], v_float)) - 1)
          <= 1e-7]
    dot = lambda a, b: sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))
    lengths = max(dot(z, z) for z in Z)
    # the optimum's v is a non-negative combination of at most dim independent margin points:
    # each such set is tried (a handful: the margin holds few points) until one certifies
    dim = len(Z[0])
    if len(on) > 12:
        return None
    for size in range(1, dim + 1):
        for chosen in combinations(on, size):
            rows = [P[n] for n in chosen]
            alpha = _solve([[dot(a, b) for b in rows] for a in rows], [Fraction(1)] * size)
            if alpha is None or any(a < 0 for a in alpha):
                continue
            v = [sum((a * r[j] for a, r in zip(alpha, rows, strict=True)), Fraction(0))
                 for j in range(dim)]
            if all(dot(p, v) >= 1 for p in P):
                return max(Fraction(1), lengths * dot(v, v))
    return None


def _solve(A: list, rhs: list) -> list | None:
    """A x = rhs in fractions by Gauss-Jordan elimination; None when A is singular."""
    n = len(A)
    M = [[*r, b] for r, b in zip(A, rhs, strict=True)]
    for c in range(n):
        pivot = next((r for r in range(c, n) if M[r][c]), None)
        if pivot is None:
            return None
        M[c], M[pivot] = M[pivot], M[c]
        for r in range(n):
            if r != c and M[r][c]:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * b for a, b in zip(M[r], M[c], strict=True)]
    return [M[r][n] / M[r][r] for r in range(n)]


def proof_quantities(ws, u) -> tuple[np.ndarray, np.ndarray]:
    """The two quantities of the mistake bound proof along a run.

    Parameters
    ----------
    ws : array_like, shape (T, D')
        Weights after each of the T updates, w_1..w_T, in the space the
        perceptron sees: (w, b) concatenated when it learns a bias.
    u : array_like, shape (D',)
        A unit vector, e.g. from :func:`best_unit_separator`.

    Returns
    -------
    (projections, squared_norms) : tuple of ndarray, each shape (T,)
        ``u.w_t`` and ``||w_t||^2`` for t = 1..T.

    Raises
    ------
    ValueError
        If ws is not 2-D, u does not match its width, or either is not finite.

    Notes
    -----
    With w_0 = 0 and eta = 1 the proof shows, after t mistakes,

    1. u^T w_t >= t gamma  (each update adds y_n u^T z_n >= gamma), and
    2. ||w_t||^2 <= t R^2  (each update adds 2 y_n w^T z_n + ||z_n||^2 <= R^2),

    so t gamma <= ||w_t|| <= R sqrt(t), i.e. t <= R^2/gamma^2. With a learning
    rate eta both sides scale: u^T w_t >= t eta gamma and ||w_t||^2 <= t eta^2 R^2,
    and the bound on t is unchanged.

    Examples
    --------
    >>> proj, sq = proof_quantities([[1.0, 0.0], [1.0, 2.0]], [1.0, 0.0])
    >>> proj.tolist(), sq.tolist()
    ([1.0, 1.0], [1.0, 5.0])
    """
    ws = np.asarray(ws, dtype=float)
    u = np.asarray(u, dtype=float)
    if ws.ndim != 2:
        raise ValueError(f"ws must be a 2-D array (T, D'), got shape {ws.shape}")
    if u.shape != (ws.shape[1],):
        raise ValueError(f"u must have shape ({ws.shape[1]},) to match ws, got {u.shape}")
    if not (np.all(np.isfinite(ws)) and np.all(np.isfinite(u))):
        raise ValueError("ws and u must be finite")
    return ws @ u, np.einsum("td,td->t", ws, ws)


def non_separable_bound(X, y, u, *, passes: int = 1, bias: bool = True) -> tuple[float, float]:
    """Freund and Schapire's mistake bound for data no line separates, for a given u.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    u : array_like
        A direction in the space the perceptron sees ((w, b) with a bias);
        it is scaled to unit length.
    passes : int, default 1
        Epochs over the data: the sequence is the data repeated this often.
    bias : bool, default True
        Whether the perceptron sees z = (x, 1) or x itself.

    Returns
    -------
    (bound, gamma) : tuple of float
        The least ((R + D)/gamma)^2 over a grid of gamma > 0, where R = max
        ||z_n||, d_n = max(0, gamma - y_n u.z_n) and D = sqrt(passes) times
        sqrt(sum_n d_n^2) (each pass repeats every deviation), and the gamma
        that gives it; (inf, nan) when u puts no example on its side.

    Notes
    -----
    Freund and Schapire (1999), Theorem 2: from w = 0, in any order, the
    perceptron makes at most ((R + D)/gamma)^2 mistakes on the sequence, for
    every unit u and gamma > 0. The bound holds for each gamma, so its
    minimum over any set of gammas is a bound too. With separable data and
    the best u, D = 0 at gamma = the margin and it is Novikoff's R^2/gamma^2;
    otherwise it grows with the passes, as a bound on non-separable data must.

    Examples
    --------
    >>> bound, gamma = non_separable_bound([[1.0], [2.0]], [-1, 1], [2.0, -3.0])  # R^2 = 5
    >>> round(bound, 6), round(gamma, 6)
    (65.0, 0.27735)
    """
    X, y = check_data(X, y)
    Z = np.column_stack([X, np.ones(len(y))]) if bias else X
    u = np.asarray(u, dtype=float)
    u = u / np.linalg.norm(u)
    margins = y * (Z @ u)
    top = float(np.max(margins))
    if top <= 0:
        return math.inf, math.nan
    R = float(np.max(np.linalg.norm(Z, axis=1)))
    gammas = np.unique(np.concatenate([np.linspace(top / 400, top, 400),
                                       margins[margins > 0]]))
    deviations = np.maximum(0.0, gammas[:, None] - margins[None, :])
    D = math.sqrt(passes) * np.linalg.norm(deviations, axis=1)
    bounds = ((R + D) / gammas) ** 2
    best = int(np.argmin(bounds))
    return float(bounds[best]), float(gammas[best])

