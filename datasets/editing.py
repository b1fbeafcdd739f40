"""Editing a user's own points: snap to a grid, add, erase the nearest, write a CSV."""

from __future__ import annotations

import csv
import io
import re

import numpy as np

from datasets.dataset import Dataset

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


# A cell a spreadsheet would run as a formula (CSV injection), unless it is a plain number.
_FORMULA_START = ("=", "+", "-", "@", "'")
_PLAIN_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def safe_cell(name: str) -> str:
    """A class name as a spreadsheet shows it as text: a leading ``'`` before a formula sign.

    The mark also goes before a name that starts with ``'``, so that
    :func:`datasets.loader.load_csv`, which removes one, gives every name back.
    """
    if name.startswith(_FORMULA_START) and not _PLAIN_NUMBER.match(name):
        return "'" + name
    return name


def to_csv(data: Dataset) -> bytes:
    """The points as a CSV file: a header x1,x2,label, then one row per point.

    Parameters
    ----------
    data : Dataset
        The points and the user's class names.

    Returns
    -------
    bytes
        UTF-8 text. Cells holding a separator or a quote are quoted, and a
        class name a spreadsheet would run as a formula (``=...``, ``+...``,
        ``-...``, ``@...``) starts with ``'`` (:func:`safe_cell`), so
        ``load_csv(to_csv(data))`` reads the same points and names.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(("x1", "x2", "label"))
    names = [safe_cell(name) for name in data.classes]
    for (x1, x2), label in zip(data.X, data.y, strict=True):
        writer.writerow((repr(float(x1)), repr(float(x2)), names[int(label > 0)]))
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
