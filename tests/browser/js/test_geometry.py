"""geometry.js against viz.shapes and core.geometry: the same lines, polygons and margins."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.geometry import geometric_margin
from datasets.builtin import BUILTIN, separable
from viz import describe
from viz.shapes import clip, corners, normal_arrow, segment

pytestmark = pytest.mark.browser

coordinate = st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 2))
vector = st.tuples(coordinate, coordinate)
box = st.tuples(st.tuples(coordinate, st.floats(0.5, 40)), st.tuples(coordinate, st.floats(0.5, 40))
                ).map(lambda b: ((b[0][0], b[0][0] + b[0][1]), (b[1][0], b[1][0] + b[1][1])))


def call(page, name: str, *args):
    return page.evaluate("([name, args]) => pl[name](...args)", [name, list(args)])


@settings(max_examples=150, deadline=None)
@given(w=vector, b=coordinate, view=box)
def test_clip_line_is_viz_segment(js, w, b, view):
    got = call(js, "clipLine", w, b, *view)
    xs, ys = segment(w, b, view)
    if not xs:  # nothing, or a line that touches a corner only (a point)
        assert got is None or got[0] == got[1]
    else:
        assert got == [[xs[0], ys[0]], [xs[1], ys[1]]]


@settings(max_examples=100, deadline=None)
@given(w=vector, b=coordinate, view=box)
def test_normal_arrow_is_viz_normal_arrow(js, w, b, view):
    got = call(js, "normalArrow", w, b, *view)
    xs, ys = normal_arrow(w, b, view, 0.18 * (view[0][1] - view[0][0]))
    if not xs:
        assert got is None
    else:
        near = [[pytest.approx(v, rel=1e-9, abs=1e-9) for v in point]
                for point in zip(xs, ys, strict=True)]
        assert got == near


def corners_once(points: list) -> list:
    """A polygon's corners with a corner at the one before it dropped (viz.shapes.clip
    repeats a corner that lies on the cutting line; NumPy's products may place it a rounding
    off it, or on it)."""
    kept = []
    for p in points:
        if not kept or not np.allclose(p, kept[-1], rtol=1e-9, atol=1e-9):
            kept.append(p)
    return kept[:-1] if len(kept) > 1 and np.allclose(kept[-1], kept[0], atol=1e-9) else kept


@settings(max_examples=150, deadline=None)
@given(a=vector, c=coordinate, view=box)
def test_clip_polygon_keeps_what_viz_clip_keeps(js, a, c, view):
    square = corners(view)
    got = corners_once(call(js, "clipPolygon", [p.tolist() for p in square], a, c))
    # clipPolygon keeps a.p <= c; viz.shapes.clip keeps w.p + b >= 0: w = -a, b = c
    expected = corners_once([p.tolist() for p in clip(square, [-a[0], -a[1]], c)])
    assert len(got) == len(expected)
    if got:
        assert np.allclose(got, expected, rtol=1e-9, atol=1e-9)


@settings(max_examples=80, deadline=None)
@given(data=st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9), st.sampled_from([-1, 1])),
                     min_size=2, max_size=30),
       w=st.tuples(st.integers(-5, 5), st.integers(-5, 5)), b=st.integers(-9, 9))
def test_margins_are_core_geometrys(js, data, w, b):
    """Whole numbers: every y a is exact on both sides, so the counts agree exactly."""
    X = np.array([[x0, x1] for x0, x1, _ in data], dtype=float)
    y = np.array([label for *_, label in data])
    got = js.evaluate("([X, y, w, b]) => pl.margins(new Float64Array(X), new Int8Array(y), w, b)",
                      [X.ravel().tolist(), y.tolist(), list(w), b])
    functional = y * (X @ np.array(w, dtype=float) + b)
    assert got["wrong"] == int(np.sum(functional <= 0))
    margin = geometric_margin(X, y, np.array(w, dtype=float), float(b))
    if math.isinf(margin):
        assert got["margin"] is None or got["margin"] == -math.inf  # -Infinity crosses as null
    else:
        assert got["margin"] == pytest.approx(margin, rel=1e-12)
        assert functional[got["closest"]] == functional.min()
    assert got["norm"] == pytest.approx(math.hypot(*w), rel=1e-12)


OFF_VIEW = """([w, b, xr, yr]) => pl.offView(w, b, {
  xr, yr, px: (x) => 100 + 10 * (x - xr[0]), py: (y) => 500 - 20 * (y - yr[0]) })"""


@settings(max_examples=100, deadline=None)
@given(w=vector, b=st.floats(-500, 500), view=box)
def test_off_view_points_from_the_nearest_corner_toward_the_line(js, w, b, view):
    (x0, x1), (y0, y1) = view
    got = js.evaluate(OFF_VIEW, [list(w), b, [x0, x1], [y0, y1]])
    norm = math.hypot(*w)
    if norm < 1e-12:
        assert got is None
        return
    distance = {(x, y): abs(w[0] * x + w[1] * y + b) / norm for x in (x0, x1) for y in (y0, y1)}
    (x, y), nearest = min(distance.items(), key=lambda item: item[1])
    assert got["distance"] == pytest.approx(nearest, rel=1e-9, abs=1e-9)
    assert got["corner"] == [pytest.approx(100 + 10 * (x - x0)), pytest.approx(500 - 20 * (y - y0))]
    assert (got["left"], got["top"]) == (x == x0, y == y1)
    # a step along the way, in data units (the screen's y runs down), nears the line
    way = np.array([got["way"][0] / 10, -got["way"][1] / 20])
    f = w[0] * x + w[1] * y + b
    if abs(f) > 1e-9:
        step = 1e-3 * nearest / max(np.linalg.norm(way), 1e-300)
        assert abs(w[0] * (x + step * way[0]) + w[1] * (y + step * way[1]) + b) < abs(f)


# a boundary in words, from the columns' flat rows of X and their labels
DESCRIBE = """([X, y, w, b, name]) => pl.describeBoundary(new Float64Array(X.flat()),
                                                       Int8Array.from(y), w, b, name)"""


@pytest.mark.parametrize(("w", "b"), [((0.3, 0.0), -0.1), ((0.1, -0.1), -0.2), ((0, 0), 0.5),
                                      ((1, 0), 0), ((-1, 2.5), 0.25)])
def test_a_boundary_in_words_is_viz_describes(js, w, b):
    for data in (BUILTIN["Lecture notes' example: 4 points"](), separable(30, 0.3, 2),
                 type("Points", (), {"X": np.array([[1, 0], [2, 1], [-1, 0], [0, 3]], float),
                                     "y": np.array([1, 1, -1, -1])})()):
        got = js.evaluate(DESCRIBE, [data.X.tolist(), data.y.tolist(), list(w), b,
                                     "The perceptron's boundary"])
        assert got == describe.boundary(data.X, data.y, w, b, name="The perceptron's boundary")
