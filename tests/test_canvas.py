"""The drawing canvas costs the same whatever the coordinates of the points on it."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.editing import GRID_STEP
from lessons.your_data.figures import MAX_CLICK_NODES, canvas_box, canvas_figure, click_nodes
from tests.apptest import assert_clean, chart_elements
from tests.test_url_state import open_link

coordinate = st.floats(-1e6, 1e6, allow_nan=False)


def drawn_nodes(figure) -> np.ndarray:
    grid = figure.data[0]
    assert grid.name == "grid"
    return np.column_stack([grid.x, grid.y])


def test_the_default_canvas_has_a_click_node_on_every_snap_node():
    nodes = drawn_nodes(canvas_figure(np.empty((0, 2)), np.empty(0), ("a", "b")))
    expected = {(a * GRID_STEP, b * GRID_STEP) for a in range(-10, 11) for b in range(-10, 11)}
    assert {tuple(node) for node in nodes.tolist()} == expected


@pytest.mark.parametrize("far", [0.0, 3.7, -250.0, 1e6])
def test_the_canvas_draws_its_click_nodes(far):
    X = np.array([[0.0, 0.0], [far, -far / 2]])
    figure = canvas_figure(X, np.array([-1.0, 1.0]), ("a", "b"))
    np.testing.assert_array_equal(drawn_nodes(figure), click_nodes(X))


# the grid itself, without the figure around it (building one costs 100 times the grid)
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=5))
def test_any_extent_gets_a_bounded_grid_on_the_snap_grid_that_covers_the_canvas(points):
    X = np.array(points)
    nodes = click_nodes(X)
    assert len(nodes) <= MAX_CLICK_NODES**2
    np.testing.assert_array_equal(np.round(nodes / GRID_STEP) * GRID_STEP, nodes)
    x0, x1, y0, y1 = canvas_box(X)
    xs, ys = np.unique(nodes[:, 0]), np.unique(nodes[:, 1])
    step = xs[1] - xs[0]
    # No spot of the canvas is further than one spacing from a node along an axis.
    assert xs[0] - x0 <= step and x1 - xs[-1] <= step
    assert ys[0] - y0 <= step and y1 - ys[-1] <= step
    assert np.allclose(np.diff(xs), step) and np.allclose(np.diff(ys), step)
    assert step <= (x1 - x0) / (MAX_CLICK_NODES - 1) * 5 + GRID_STEP


def test_a_link_with_far_apart_points_draws_a_canvas_of_the_usual_size():
    small = open_link({"pts": "0,0,-;1,1,+"}, "your_data")
    far = open_link({"pts": "0,0,-;1000,1000,+"}, "your_data")
    for at in (small, far):
        assert_clean(at)
    sizes = [len(json.dumps(chart_elements(at)[0][1])) for at in (small, far)]
    grid = chart_elements(far)[0][1]["data"][0]
    assert grid["name"] == "grid"
    nodes = len(base64.b64decode(grid["x"]["bdata"])) // 8  # float64 values
    assert 100 < nodes <= MAX_CLICK_NODES**2
    assert sizes[1] < 4 * sizes[0]  # was about four million markers
