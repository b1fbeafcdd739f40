"""What a line can and cannot do on a small point set: every labeling, and the best line.

A line classifies the points x_n in R^2 by the sign of the activation a = w.x + b.
Only finitely many labelings of N points are possible with lines, and they can all
be listed: when the direction w turns, the order of the projections w.x_n changes
only where w is perpendicular to some difference x_i - x_j (a *critical* direction).
Between two consecutive critical directions the order is fixed, so one direction
per gap, with every threshold b between consecutive projections, reaches every
labeling a line can make. That makes the search below exact, not a sampling.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.validation import check_data

__all__ = ["MAX_POINTS", "BestLine", "best_line", "labelings"]

# The search looks at O(N^2) directions with N thresholds each: fine for a lesson's
# small sets, pointless for big ones.
MAX_POINTS = 100


@dataclass(frozen=True)
class BestLine:
    """The line that gets the most points of a set right.

    Attributes
    ----------
    correct : int
        How many points the best line classifies correctly (y_n a_n > 0).
    total : int
        How many points there are.
    w : ndarray, shape (2,)
        A unit normal of one best line (read-only).
    b : float
        Its bias: the line is w.x + b = 0.
    """

    correct: int
    total: int
    w: np.ndarray
    b: float

    @property
    def accuracy(self) -> float:
        """The share of points the best line gets right."""
        return self.correct / self.total


def _check_points(X, y=None) -> tuple[np.ndarray, np.ndarray | None]:
    """X as (N, 2) floats (and y in {-1, +1}), at most MAX_POINTS rows, or ValueError."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (N, 2) (points in the plane), got {X.shape}")
    X, y = check_data(X, np.ones(len(X)) if y is None else y)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns (points in the plane), got {X.shape[1]}")
    if X.shape[0] > MAX_POINTS:
        raise ValueError(f"the exact line search takes at most {MAX_POINTS} points, "
                         f"got {X.shape[0]}")
    return X, y


def _directions(P: np.ndarray) -> np.ndarray:
    """Unit directions, one inside each gap between consecutive critical directions."""
    diff = (P[:, None, :] - P[None, :, :])[np.triu_indices(len(P), k=1)]
    # w is critical when w.(x_i - x_j) = 0: w points along +-(x_i - x_j) turned by 90 degrees.
    base = np.arctan2(diff[:, 1], diff[:, 0]) + np.pi / 2
    angles = np.unique(np.mod(np.concatenate([base, base + np.pi]), 2 * np.pi))
    if angles.size == 0:
        angles = np.array([0.0])
    gaps = np.diff(np.append(angles, angles[0] + 2 * np.pi))
    middle = angles + gaps / 2
    return np.column_stack([np.cos(middle), np.sin(middle)])


def _unique_points(X: np.ndarray, y: np.ndarray):
    """Distinct points with their counts of class -1 and class +1."""
    P, inverse = np.unique(X, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    neg = np.bincount(inverse, weights=(y < 0), minlength=len(P))
    pos = np.bincount(inverse, weights=(y > 0), minlength=len(P))
    return P, inverse, neg, pos


def best_line(X, y) -> BestLine:
    """The most points any line can classify correctly, and one line that does it.

    Parameters
    ----------
    X : array_like, shape (N, 2)
        Points x_n in the plane, finite; N <= ``MAX_POINTS``. Repeats are allowed.
    y : array_like, shape (N,)
        Labels y_n in {-1, +1}.

    Returns
    -------
    BestLine
        ``correct`` = max over (w, b) of #{n : y_n (w.x_n + b) > 0}, with a unit
        ``w`` and a ``b`` that reach it (the line keeps a positive distance from
        every point, so no point sits on it).

    Raises
    ------
    ValueError
        If X is not (N, 2) finite numbers, y not (N,) in {-1, +1}, or N > MAX_POINTS.

    Notes
    -----
    Exhaustive over the finitely many labelings a line can make: for each
    direction w between consecutive critical directions (see the module notes)
    the points are sorted by w.x_n, and a threshold between the k-th and the
    (k+1)-th distinct projection gets right the class -1 points below it and the
    class +1 points above it. Both orientations of w are visited, so the
    labelings with +1 below are covered too. Cost O(N^3 log N).

    ``correct == N`` exactly when the data are linearly separable; for XOR the
    answer is 3 of 4 (Minsky and Papert: no line computes XOR).

    Examples
    --------
    >>> best_line([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1]).correct
    3
    """
    X, y = _check_points(X, y)
    P, _, neg, pos = _unique_points(X, y)
    U = _directions(P)
    proj = P @ U.T                                      # (points, directions)
    order = np.argsort(proj, axis=0, kind="stable")
    neg_sorted = np.take_along_axis(np.broadcast_to(neg[:, None], proj.shape), order, axis=0)
    pos_sorted = np.take_along_axis(np.broadcast_to(pos[:, None], proj.shape), order, axis=0)
    # Cut k puts the k lowest points below the threshold (k = 0..M).
    zero = np.zeros((1, proj.shape[1]))
    below_neg = np.vstack([zero, np.cumsum(neg_sorted, axis=0)])
    above_pos = pos.sum() - np.vstack([zero, np.cumsum(pos_sorted, axis=0)])
    score = below_neg + above_pos                        # (M + 1, directions)
    k, d = np.unravel_index(int(np.argmax(score)), score.shape)
    sorted_proj = np.take_along_axis(proj[:, [d]], order[:, [d]], axis=0)[:, 0]
    spread = max(float(sorted_proj[-1] - sorted_proj[0]), 1.0)
    if k == 0:
        threshold = sorted_proj[0] - spread
    elif k == len(sorted_proj):
        threshold = sorted_proj[-1] + spread
    else:
        threshold = (sorted_proj[k - 1] + sorted_proj[k]) / 2
    w = U[d].copy()
    w.setflags(write=False)
    correct = int(np.sum(y * (X @ w - threshold) > 0))
    return BestLine(correct=correct, total=len(y), w=w, b=float(-threshold))


def labelings(X) -> np.ndarray:
    """Every labeling of the points that some line makes.

    Parameters
    ----------
    X : array_like, shape (N, 2)
        Points in the plane, finite; N <= ``MAX_POINTS``.

    Returns
    -------
    ndarray of int, shape (K, N)
        The distinct sign vectors (sign(w.x_n + b))_n in {-1, +1}^N over all lines
        that miss every point, sorted lexicographically.

    Raises
    ------
    ValueError
        If X is not (N, 2) finite numbers or has more than MAX_POINTS rows.

    Notes
    -----
    Same enumeration as :func:`best_line`. For N points in general position
    there are N^2 - N + 2 of them (2 for N = 1); the four corners of the XOR
    square give 14 of the 16 labelings: the two missing are XOR and its negation.

    Examples
    --------
    >>> len(labelings([[0, 0], [0, 1], [1, 0], [1, 1]]))
    14
    """
    X, _ = _check_points(X)
    P, inverse, _, _ = _unique_points(X, np.ones(len(X)))
    U = _directions(P)
    proj = P @ U.T
    order = np.argsort(proj, axis=0, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(len(P))[:, None], axis=0)
    # Cut k labels the k lowest points -1 and the rest +1, for every direction.
    cuts = np.arange(len(P) + 1)
    signs = np.where(rank[None, :, :] >= cuts[:, None, None], 1, -1)   # (cuts, points, dirs)
    rows = signs.transpose(0, 2, 1).reshape(-1, len(P))[:, inverse]
    return np.unique(rows, axis=0)
