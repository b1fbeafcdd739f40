"""Editing the user's points: snapping, adding, erasing, the table and the CSV round trip."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import Dataset
from datasets.editing import GRID_STEP, add_point, erase_nearest, from_table, snap, to_csv
from datasets.loader import load_csv

EMPTY_X, EMPTY_Y = np.empty((0, 2)), np.empty(0)


@given(st.floats(-1e3, 1e3))
def test_snap_lands_on_the_nearest_grid_node(value):
    snapped = snap(value)
    assert abs(snapped - value) <= GRID_STEP / 2 + 1e-9
    assert (snapped / GRID_STEP) == round(snapped / GRID_STEP)


def test_add_snaps_and_keeps_the_old_points():
    X, y = add_point(EMPTY_X, EMPTY_Y, 1.26, -0.74, 1)
    X, y = add_point(X, y, 0.1, 0.2, -1)
    np.testing.assert_array_equal(X, [[1.5, -0.5], [0.0, 0.0]])
    np.testing.assert_array_equal(y, [1, -1])
    assert str(X[1, 0]) == "0.0"  # no -0.0 in the CSV


def test_add_refuses_a_bad_label():
    with pytest.raises(ValueError, match="label must be -1 or \\+1, got 0"):
        add_point(EMPTY_X, EMPTY_Y, 0, 0, 0)


def test_erase_removes_only_the_nearest_point_within_reach():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 3.0]])
    y = np.array([1.0, -1.0, 1.0])
    X2, y2 = erase_nearest(X, y, 0.9, 0.1)
    np.testing.assert_array_equal(X2, [[0.0, 0.0], [3.0, 3.0]])
    np.testing.assert_array_equal(y2, [1.0, 1.0])
    _, y3 = erase_nearest(X, y, -3.0, -3.0)  # nothing near: nothing erased
    assert len(y3) == 3


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.booleans()),
                min_size=2, max_size=40))
def test_csv_download_loads_back_identically(rows):
    X = np.array([(a * GRID_STEP, b * GRID_STEP) for a, b, _ in rows])
    y = np.array([1.0 if c else -1.0 for *_, c in rows])
    if len(set(y)) < 2:
        y[0] = -y[0]
    data = Dataset("mine", X, y, ("cat", "dog"))
    loaded = load_csv(to_csv(data))
    np.testing.assert_array_equal(loaded.X, data.X)
    np.testing.assert_array_equal(loaded.y, data.y)
    assert loaded.classes == ("cat", "dog")


def test_table_rows_become_points_and_bad_cells_are_named():
    X, y = from_table([(1, 2, "a"), ("0.5", -1, "b")], ("a", "b"))
    np.testing.assert_array_equal(X, [[1, 2], [0.5, -1]])
    np.testing.assert_array_equal(y, [-1, 1])
    with pytest.raises(ValueError, match="row 2, column 'x1': 'abc' is not a number"):
        from_table([(1, 2, "a"), ("abc", 1, "b")], ("a", "b"))
    with pytest.raises(ValueError, match="row 1, column 'x2': None is not a number"):
        from_table([(1, None, "a")], ("a", "b"))
    with pytest.raises(ValueError, match="row 1, column 'label': 'c' is not one of 'a', 'b'"):
        from_table([(1, 1, "c")], ("a", "b"))
