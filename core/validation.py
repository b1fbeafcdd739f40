"""Checks of the data every algorithm takes: X as (N, D) finite floats, y in {-1, +1}."""

from __future__ import annotations

import numpy as np

__all__ = ["check_X", "check_data"]


def check_X(X) -> np.ndarray:
    """Return X as (N, D) finite floats.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs, at least one row and one column.

    Returns
    -------
    ndarray of float, shape (N, D)

    Raises
    ------
    ValueError
        If X is not 2-D, has no rows or no columns, or holds NaN or infinity.

    Examples
    --------
    >>> check_X([[1, 2]]).dtype
    dtype('float64')
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (N, D), got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("X has no rows: at least one example is needed")
    if X.shape[1] == 0:
        raise ValueError("X has no columns: at least one feature is needed")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must be finite: it contains NaN or infinity")
    return X


def check_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    """Return X as (N, D) finite floats and y as (N,) floats in {-1, +1}.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs (see :func:`check_X`).
    y : array_like, shape (N,)
        Labels, each -1 or +1.

    Returns
    -------
    (X, y) : tuple of ndarray

    Raises
    ------
    ValueError
        If X is invalid, y does not match X's rows, or a label is not -1 or +1.

    Examples
    --------
    >>> check_data([[0.0], [1.0]], [-1, 1])[1].tolist()
    [-1.0, 1.0]
    >>> check_data([[0.0]], [0])
    Traceback (most recent call last):
    ...
    ValueError: y must contain only -1 and +1
    """
    X = check_X(X)
    try:
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("y must contain only -1 and +1") from None
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ValueError("y must contain only -1 and +1")
    return X, y
