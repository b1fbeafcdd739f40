"""Editing the user's points: snapping, adding, erasing, the table and the CSV round trip."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from datasets import Dataset
from datasets.editing import GRID_STEP, add_point, erase_nearest, from_table, snap, to_csv
from datasets.loader import load_csv
from tests.names import class_pair, is_text_label

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


def _labelled(rows, classes):
    X = np.array([(a * GRID_STEP, b * GRID_STEP) for a, b, _ in rows])
    y = np.array([1.0 if c else -1.0 for *_, c in rows])
    y[0], y[1] = -1.0, 1.0  # both classes present
    return Dataset("mine", X, y, classes)


points = st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.booleans()),
                  min_size=2, max_size=40)


@settings(max_examples=300, deadline=None)
@given(points, class_pair)
@example([(0, 0, False), (1, 1, True)], ("=cmd|' /C calc'!A0", "@SUM(A1)"))
@example([(0, 0, False), (1, 1, True)], ("'=x", "''y"))
@example([(0, 0, False), (1, 1, True)], ('a,"b"', "c;d"))
def test_csv_export_loads_back_with_any_text_names(rows, classes):
    assume(all(is_text_label(name) for name in classes))
    data = _labelled(rows, tuple(sorted(classes)))  # the loader's order for text labels
    content = to_csv(data)
    loaded = load_csv(content)
    np.testing.assert_array_equal(loaded.X, data.X)
    np.testing.assert_array_equal(loaded.y, data.y)
    assert loaded.classes == data.classes
    # No cell a spreadsheet would run as a formula.
    for row in csv.reader(io.StringIO(content.decode("utf-8"))):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")) or _is_number(cell), cell


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@settings(max_examples=100, deadline=None)
@given(points, class_pair)
def test_csv_export_keeps_each_points_name_in_any_order(rows, classes):
    assume(all(is_text_label(name) for name in classes))
    data = _labelled(rows, classes)
    loaded = load_csv(to_csv(data))
    np.testing.assert_array_equal(loaded.X, data.X)
    names = [data.classes[int(v > 0)] for v in data.y]
    assert [loaded.classes[int(v > 0)] for v in loaded.y] == names


@pytest.mark.parametrize("classes", [("-1", "+1"), ("0", "1"), ("-2.5", "1e3"), ("false", "true")])
def test_csv_export_of_numeric_and_boolean_names(classes):
    data = _labelled([(0, 0, False), (1, 1, True), (2, 0, True)], classes)
    loaded = load_csv(to_csv(data))
    np.testing.assert_array_equal(loaded.y, data.y)
    assert loaded.classes == classes
    assert b"'" not in to_csv(data)  # numbers need no text mark
