"""Examples are numbered as the lecture notes number them, from 1, wherever a student reads one.

The stepper's words (its status line, maths, Predict's and the class's questions) are held to
this in tests/browser/js (test_status, test_explain, test_predict), the exported page in
tests/browser/test_own_data.py; the trace CSV in tests/test_export.py; the SVM's example and
the margin lesson's caption in their page tests. Here: the figures and tables.
"""

from __future__ import annotations

import numpy as np

from core.boolean import rows_right, truth_table
from datasets.builtin import notes_four_points
from lessons.boolean.figures import truth_figure, truth_frame
from lessons.variants.figures import dual_step_lines, sized_points


def test_a_truth_tables_hover_and_its_rows_carry_the_same_numbers_from_1():
    table = truth_table("AND")
    w, b = (20.0, 20.0), -30.0
    frame = truth_frame(table, w, b)
    assert frame.index.tolist() == [1, 2, 3, 4]
    figure = truth_figure(table, w, b)
    for trace in figure.data:
        if trace.customdata is None or not trace.hovertemplate.startswith("row"):
            continue
        for number, x1, x2 in zip(trace.customdata, trace.x, trace.y, strict=True):
            row = frame.loc[int(number)]
            assert (float(row["x₁"]), float(row["x₂"])) == (x1, x2)
    assert rows_right(table, w, b).all()


def test_a_kernel_runs_points_and_maths_number_examples_from_1():
    data = notes_four_points()
    traces = sized_points(data.X, data.y, data.classes, np.full(4, 8.0))
    numbers = sorted(int(n) for trace in traces for n in trace.customdata[:, 0])
    assert numbers == [1, 2, 3, 4]
    assert all(trace.hovertemplate.startswith("example ") for trace in traces)
    lines = dual_step_lines(i=1, y_i=-1.0, s_i=0.0, terms=[], updated=True, eta=1.0,
                            alpha_before=0.0, bias_term=None)
    assert r"\alpha_{1} \leftarrow" in lines[-1]


def test_your_points_table_numbers_them_from_1():
    from tests.apptest import by_key, open_app

    at = open_app("your_data")
    by_key(at.button, "your_data.copy").click().run()  # the notes' four points
    (table,) = [frame for frame in at.get("dataframe") if "label" in frame.value.columns]
    assert table.value.index.tolist() == [1, 2, 3, 4]
    assert table.value.iloc[0][["x1", "x2"]].tolist() == [1.0, 1.0]  # the notes' example 1
