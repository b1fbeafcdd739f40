"""Checks written once: the data every algorithm takes (X as (N, D) finite floats, y in
{-1, +1}, both classes where a separator needs them) and settings that must be positive."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["check_X", "check_data", "check_positive", "check_two_classes"]


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


def check_two_classes(y: np.ndarray) -> None:
    """Raise ValueError unless the labels (already checked) hold both -1 and +1.

    Parameters
    ----------
    y : ndarray, shape (N,)
        Labels in {-1, +1}.

    Raises
    ------
    ValueError
        "two classes are needed: y has only one label".

    Examples
    --------
    >>> check_two_classes(np.array([1.0, 1.0]))
    Traceback (most recent call last):
    ...
    ValueError: two classes are needed: y has only one label
    """
    if not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError("two classes are needed: y has only one label")


def check_positive(value, *, name: str, zero: bool = False) -> float:
    """Return a setting as a float when it is a finite number > 0 (>= 0 with ``zero=True``).

    Parameters
    ----------
    value : float
        The setting's value.
    name : str
        Its name, for the message.
    zero : bool, default False
        Whether 0 is allowed.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the setting and the value: "C must be > 0, got -1".

    Examples
    --------
    >>> check_positive(2, name="C")
    2.0
    >>> check_positive(0.0, name="lam")
    Traceback (most recent call last):
    ...
    ValueError: lam must be > 0, got 0.0
    """
    number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, bool)
    if not (number and math.isfinite(value) and (value >= 0 if zero else value > 0)):
        raise ValueError(f"{name} must be {'>=' if zero else '>'} 0, got {value}")
    return float(value)
