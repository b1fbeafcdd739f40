"""Exports: the step trace table and its CSV against the stream."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from core.perceptron import perceptron
from core.trace import record
from datasets.builtin import NOTES_ETA, NOTES_INIT, notes_four_points
from viz.export import trace_csv, trace_table


def notes_trace():
    data = notes_four_points()
    steps = list(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))
    return data, steps, record(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))


def test_trace_table_has_one_row_per_step_with_the_streams_numbers():
    data, steps, trace = notes_trace()
    table = trace_table(trace, data.X, data.y)
    assert list(table.columns) == ["t", "epoch", "example", "x1", "x2", "y", "a", "updated",
                                   "w1", "w2", "b", "mistakes"]
    assert len(table) == len(steps) + 1
    start = table.iloc[0]
    assert start["example"] is pd.NA
    assert (start.t, start.w1, start.w2, start.b) == (0, 0.2, 0.0, -0.1)
    for row, step in zip(table.iloc[1:].itertuples(), steps, strict=True):
        # examples counted from 1, as the notes count them: row i of X is example i + 1
        assert (row.t, row.epoch, row.example, row.updated, row.mistakes) == (
            step.t, step.epoch, step.index + 1, step.updated, step.mistakes)
        assert (row.x1, row.x2, row.y) == (*data.X[step.index], data.y[step.index])
        assert row.a == step.activation and (row.w1, row.w2, row.b) == (*step.w, step.b)


def test_trace_csv_reads_back():
    import io

    import pandas as pd

    data, steps, trace = notes_trace()
    back = pd.read_csv(io.BytesIO(trace_csv(trace, data.X, data.y)))
    np.testing.assert_allclose(back[["w1", "w2", "b"]].to_numpy()[1:],
                               [[*s.w, s.b] for s in steps])
    assert back["a"].iloc[3] == 0.35  # the seeds' third point, written as they write it
    # the notes' "training example 1", "training example 2": the first steps' examples
    assert pd.isna(back["example"].iloc[0]) and back["example"].iloc[1:4].tolist() == [1, 2, 3]


def test_trace_csv_writes_no_negative_zero():
    import io

    import pandas as pd

    # generated sets round small negatives to -0.0 (Noisy blobs' row 15 did); a signed zero
    # anywhere (x, a, w, b) must read 0, as a student would write it
    X = np.array([[-0.0, 1.0], [1.0, -0.0], [-1.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0])
    trace = record(perceptron(X, y, init=((-0.0, 0.0), -0.0), max_epochs=3))
    text = trace_csv(trace, X, y).decode()
    assert not re.search(r"(^|,)-0(\.0*)?(,|$)", text, re.M), text
    back = pd.read_csv(io.StringIO(text))
    np.testing.assert_array_equal(back[["x1", "x2"]].to_numpy()[1:4], X[[0, 1, 2]] + 0.0)
