"""The perceptron loss over weight space: L(w) = sum_i max(0, -y_i w.x_i), on a grid.

The lecture notes draw it for their two-point example, with the perceptron
written without a bias (a constant feature can carry one), so the surface
lives in the plane of (w1, w2) and every level set is made of lines through
the origin and kinks where some w.x_i = 0.
"""

from __future__ import annotations

import numpy as np

from core.validation import check_X

MAX_GRID = 401  # grid points per axis: at most 401 x 401 values


def loss_surface(X, y, w1s, w2s) -> np.ndarray:
    """The perceptron loss at every grid point w = (w1, w2), without a bias.

    Parameters
    ----------
    X : array_like of shape (N, 2)
        The examples x_i.
    y : array_like of shape (N,)
        Their labels in {-1, +1}.
    w1s, w2s : array_like, 1-D
        The grid's values of w1 and w2 (at most ``MAX_GRID`` each).

    Returns
    -------
    ndarray of shape (len(w2s), len(w1s))
        ``L[r, c] = sum_i max(0, -y_i (w1s[c] x_i1 + w2s[r] x_i2))``: rows follow w2,
        as a contour plot reads them.

    Raises
    ------
    ValueError
        If X is not (N, 2), the labels are not +-1 of the same length, or a
        grid axis is empty, not finite or longer than ``MAX_GRID``.

    Notes
    -----
    L(w) = 0 exactly when y_i w.x_i >= 0 for every i: the closed cone of
    weights that put no example on its wrong side. Its boundary, where some
    y_i w.x_i = 0, still counts as a mistake for the update rule.

    Examples
    --------
    >>> loss_surface([[1, 1], [2, 1]], [-1, 1], [-1.0, 0.0, 1.0], [0.0]).tolist()
    [[2.0, 0.0, 1.0]]
    """
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have shape (N, 2), got {X.shape}")
    y = np.asarray(y, dtype=float)
    if y.shape != (len(X),) or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must be {len(X)} labels in {{-1, +1}}")
    axes = []
    for name, values in (("w1", w1s), ("w2", w2s)):
        values = np.asarray(values, dtype=float)
        if values.ndim != 1 or not 1 <= values.size <= MAX_GRID or not np.all(
                np.isfinite(values)):
            raise ValueError(f"{name} grid must be 1 to {MAX_GRID} finite values")
        axes.append(values)
    w1, w2 = axes
    # a_i(w) = w1 x_i1 + w2 x_i2 for every grid point: (rows, cols, N), summed over i
    margins = y * (w2[:, None, None] * X[:, 1] + w1[None, :, None] * X[:, 0])
    return np.maximum(0.0, -margins).sum(axis=2)


def weight_grid(W, *, size: int = 201, pad: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
    """A square grid of (w1, w2) around the origin that holds every weight vector in W.

    Parameters
    ----------
    W : array_like of shape (T, 2)
        The weights a run visits.
    size : int, default 201
        Points per axis (odd, so 0 is on the grid), at most ``MAX_GRID``.
    pad : float, default 0.25
        Room left around the farthest weight, as a fraction of its size.

    Returns
    -------
    (w1s, w2s) : ndarray, ndarray
        The same symmetric ticks for both axes.

    Examples
    --------
    >>> w1s, w2s = weight_grid([[0, 0], [2, -1]], size=5)
    >>> w1s.tolist()
    [-2.5, -1.25, 0.0, 1.25, 2.5]
    """
    if not 3 <= size <= MAX_GRID or size % 2 == 0:
        raise ValueError(f"size must be odd, from 3 to {MAX_GRID}, got {size}")
    W = np.asarray(W, dtype=float).reshape(-1, 2)
    reach = max(float(np.max(np.abs(W))) if W.size else 0.0, 1.0) * (1 + pad)
    ticks = np.linspace(-reach, reach, size)
    return ticks, ticks.copy()
