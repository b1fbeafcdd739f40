"""The perceptron loss over weight space: against a plain loop, the zero-loss region against
each grid point's own check, and the two-point example's page."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.loss_surface import MAX_GRID, loss_surface, weight_grid
from datasets.builtin import notes_four_points, notes_two_points
from tests.apptest import assert_clean, chart, open_app, plotly_array


def loop_loss(X, y, w) -> float:
    total = 0.0
    for x, label in zip(X, y, strict=True):
        total += max(0.0, -label * (w[0] * x[0] + w[1] * x[1]))
    return total


short = st.integers(-30, 30).map(lambda v: v / 10)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(short, short), min_size=1, max_size=6),
       signs=st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=6),
       w1s=st.lists(short, min_size=1, max_size=7), w2s=st.lists(short, min_size=1, max_size=7))
def test_every_grid_value_is_the_sum_of_the_hinges(points, signs, w1s, w2s):
    X, y = np.array(points), np.array(signs[:len(points)], dtype=float)
    surface = loss_surface(X, y, w1s, w2s)
    assert surface.shape == (len(w2s), len(w1s))
    for r, w2 in enumerate(w2s):
        for c, w1 in enumerate(w1s):
            assert surface[r, c] == pytest.approx(loop_loss(X, y, (w1, w2)), abs=1e-12)
            # zero loss exactly where no example is on its wrong side
            assert (surface[r, c] == 0) == all(
                label * (w1 * x[0] + w2 * x[1]) >= -1e-12 for x, label in zip(X, y, strict=True))


def test_the_two_point_examples_zero_region_is_the_cone_between_its_two_lines():
    data = notes_two_points()
    w1s, w2s = weight_grid([[0, 0]], size=41)
    surface = loss_surface(data.X, data.y, w1s, w2s)
    W1, W2 = np.meshgrid(w1s, w2s)
    # x1 = (1, 1) in class -1 wants w1 + w2 <= 0; x2 = (2, 1) in class +1 wants 2 w1 + w2 >= 0
    np.testing.assert_array_equal(surface == 0, (W1 + W2 <= 1e-12) & (2 * W1 + W2 >= -1e-12))
    assert surface[w2s.tolist().index(0.0), w1s.tolist().index(0.0)] == 0  # w = 0: zero loss


@pytest.mark.parametrize("args, message", [
    (([[1, 2, 3]], [1], [0.0], [0.0]), "X must have shape"),
    (([[1, 2]], [0], [0.0], [0.0]), "labels in"),
    (([[1, 2]], [1], [], [0.0]), "w1 grid must be"),
    (([[1, 2]], [1], [0.0], np.zeros(MAX_GRID + 1)), "w2 grid must be"),
    (([[1, 2]], [1], [np.nan], [0.0]), "w1 grid must be"),
])
def test_bad_input_says_what_is_wrong(args, message):
    with pytest.raises(ValueError, match=message):
        loss_surface(*args)


def test_the_grid_holds_the_path_and_has_zero_on_it():
    w1s, w2s = weight_grid([[3, -1], [-1, 2]], size=7)
    assert w1s[0] < -3 and w1s[-1] > 3 and 0.0 in w1s.tolist() and w1s.tolist() == w2s.tolist()
    with pytest.raises(ValueError, match="size must be odd"):
        weight_grid([[0, 0]], size=4)


def fraction_path(eta: str):
    """The notes' run on the two points (no bias, cyclic, from 0) in fractions."""
    from fractions import Fraction

    eta = Fraction(eta)
    X = [(1, 1), (2, 1)]
    y = [-1, 1]
    w, path = (Fraction(0), Fraction(0)), [(0, 0)]
    while True:
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (w[0] * x[0] + w[1] * x[1]) <= 0:
                w = (w[0] + eta * label * x[0], w[1] + eta * label * x[1])
                path.append(w)
                clean = False
        if clean:
            return [(float(a), float(b)) for a, b in path]


@pytest.mark.parametrize("eta", ["1", "0.1"])
def test_the_step_through_page_draws_the_surface_and_the_runs_path(eta):
    at = open_app()
    at.selectbox(key="data.choice").set_value("Lecture notes' example: 2 points").run()
    if eta != "1":
        at.number_input(key="train.eta").set_value(float(eta)).run()
    assert_clean(at)
    figure = chart(at, "step_through.loss_surface")
    path = next(t for t in figure["data"] if t.get("name") == "w after each update")
    drawn = np.column_stack([plotly_array(path["x"]), plotly_array(path["y"])])
    np.testing.assert_allclose(drawn, np.array(fraction_path(eta)), rtol=1e-12)
    contour = next(t for t in figure["data"] if t.get("type") == "contour")
    data = notes_two_points()
    w1s, w2s = plotly_array(contour["x"]), plotly_array(contour["y"])
    np.testing.assert_allclose(plotly_array(contour["z"]),
                               loss_surface(data.X, data.y, w1s, w2s))
    assert any("without a bias" in c.value for c in at.caption)  # the sidebar's bias is on


def test_other_data_have_no_loss_surface():
    at = open_app()
    assert_clean(at)
    assert notes_four_points().name in at.selectbox(key="data.choice").value
    with pytest.raises(KeyError):
        chart(at, "step_through.loss_surface")
