"""Exports: a run's trace as a table (and as CSV text)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.trace import Trace


def trace_table(trace: Trace, X, y) -> pd.DataFrame:
    """One row per step: t, epoch, example, x, y, a, updated, w, b, mistakes (row 0 = start).

    ``example`` counts the training examples from 1, as the lecture notes do (the data's
    first row is example 1); the start visits none and leaves it empty.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    visited = trace.index >= 0
    example = pd.array(np.where(visited, trace.index + 1, 0), dtype="Int64")
    example[~visited] = pd.NA
    columns = {"t": trace.t, "epoch": trace.epoch, "example": example}
    for d in range(X.shape[1]):
        columns[f"x{d + 1}"] = np.where(visited, X[trace.index, d], np.nan)
    columns["y"] = np.where(visited, y[trace.index], np.nan)
    columns["a"] = trace.activation
    columns["updated"] = trace.updated
    for d in range(trace.W.shape[1]):
        columns[f"w{d + 1}"] = trace.W[:, d]
    columns["b"] = trace.b
    columns["mistakes"] = trace.mistakes
    return pd.DataFrame(columns)


def trace_csv(trace: Trace, X, y) -> bytes:
    """The trace table as CSV text; a zero is written 0, never -0 (its sign means nothing here)."""
    table = trace_table(trace, X, y)
    floats = table.select_dtypes("float").columns
    table[floats] = table[floats] + 0.0  # -0.0 + 0.0 == +0.0
    return table.to_csv(index=False, float_format="%.12g").encode("utf-8")

