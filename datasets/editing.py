"""Editing a user's own points: snap to a grid, add, erase the nearest, write a CSV."""

from __future__ import annotations

import io

import numpy as np

from datasets import Dataset

# Clicked points land on this grid: exact decimals, so runs on them are exact too.
GRID_STEP = 0.5
MAX_POINTS = 1_000


def snap(value: float, step: float = GRID_STEP) -> float:
    """The nearest multiple of ``step`` (without -0.0)."""
    return float(np.round(value / step) * step) + 0.0


def add_point(X: np.ndarray, y: np.ndarray, x1: float, x2: float, label: int):
    """A copy of the points with (x1, x2) of class ``label`` added, snapped to the grid."""
    if label not in (-1, 1):
        raise ValueError(f"label must be -1 or +1, got {label}")
    if len(y) >= MAX_POINTS:
        raise ValueError(f"at most {MAX_POINTS} points can be drawn")
    point = np.array([[snap(x1), snap(x2)]])
    return np.vstack([X.reshape(-1, 2), point]), np.append(y, float(label))


def erase_nearest(X: np.ndarray, y: np.ndarray, x1: float, x2: float, *,
                  reach: float = GRID_STEP):
    """A copy without the point nearest to (x1, x2), if one lies within ``reach``."""
    if len(y) == 0:
        return X, y
    distance = np.hypot(X[:, 0] - x1, X[:, 1] - x2)
    nearest = int(np.argmin(distance))
    if distance[nearest] > reach:
        return X, y
    keep = np.arange(len(y)) != nearest
    return X[keep], y[keep]


def to_csv(data: Dataset) -> bytes:
    """The points as a CSV with a header x1,x2,label and the user's class names."""
    out = io.StringIO()
    out.write("x1,x2,label\n")
    for (x1, x2), label in zip(data.X, data.y, strict=True):
        name = data.classes[0] if label < 0 else data.classes[1]
        out.write(f"{x1:.15g},{x2:.15g},{name}\n")
    return out.getvalue().encode("utf-8")


def from_table(rows, classes: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Points from edited table rows (x1, x2, label name); ValueError names the bad row."""
    X, y = [], []
    for number, (x1, x2, name) in enumerate(rows, start=1):
        for column, value in (("x1", x1), ("x2", x2)):
            try:
                ok = value is not None and np.isfinite(float(value))
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ValueError(f"row {number}, column '{column}': {value!r} is not a number")
        if name not in classes:
            raise ValueError(f"row {number}, column 'label': {name!r} is not one of "
                             f"{classes[0]!r}, {classes[1]!r}")
        X.append((float(x1), float(x2)))
        y.append(-1.0 if name == classes[0] else 1.0)
    return np.array(X, dtype=float).reshape(-1, 2), np.array(y, dtype=float)
