"""The plane layer: every line it draws is the one viz.shapes cuts to the view, at every step."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, noisy, separable
from tests.reference.wire import unpack
from ui.stepper import Run, pack, perceptron_run
from viz.shapes import band, normal_arrow, segment

pytestmark = pytest.mark.browser

VIEW = ((-3.0, 3.0), (-2.0, 2.5))
CLIP = (60.0, 20.0, 400.0, 300.0)  # the plot area's left, top, width, height in pixels
# the plane layer drawn at each step over an overlay with a view of its own; what it drew
DRAW = """([text, ks, [xr, yr], clip]) => {
  const plane = pl.LAYERS.find((layer) => layer.name === "plane");
  const run = pl.unpack(pl.bytes(text));
  const host = pl.html("div", {}, document.body);
  const overlay = new pl.Overlay(host, "plane");
  const axes = { xr, yr, clip, width: 500, height: 380,
                 px: (x) => clip[0] + clip[2] * (x - xr[0]) / (xr[1] - xr[0]),
                 py: (y) => clip[1] + clip[3] * (yr[1] - y) / (yr[1] - yr[0]) };
  overlay.place(axes);
  const part = plane.build?.({}) ?? {};
  const read = (node) => Object.fromEntries(Array.from(node.attributes, (a) => [a.name, a.value]));
  return ks.map((k) => {
    plane.draw(part, { run, k, plane: { overlay, axes, chart: host } });
    const parts = Object.fromEntries(Object.entries(overlay.parts).map(([n, e]) => [n, read(e)]));
    parts.words = overlay.parts.offviewText?.textContent ?? null;
    parts.order = Array.from(overlay.layer.children, (e) => e.getAttribute("class"));
    parts.votes = part.voted ? Array.from(part.voted.values) : null;
    return parts;
  });
}"""


def pixels(points) -> np.ndarray:
    """Data coordinates on the test's view, in its pixels."""
    (x0, x1), (y0, y1) = VIEW
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    return np.c_[CLIP[0] + CLIP[2] * (p[:, 0] - x0) / (x1 - x0),
                 CLIP[1] + CLIP[3] * (y1 - p[:, 1]) / (y1 - y0)]


def drawn_line(attrs: dict) -> np.ndarray | None:
    """A line's two ends in pixels, or None when it is hidden."""
    if attrs.get("visibility") != "visible":
        return None
    return np.array([[float(attrs["x1"]), float(attrs["y1"])],
                     [float(attrs["x2"]), float(attrs["y2"])]])


def assert_line(attrs: dict, xs, ys) -> None:
    """The line is the segment (xs, ys) of viz.shapes, or hidden when that is empty."""
    got = drawn_line(attrs)
    if not len(xs):
        assert got is None
    else:
        assert got is not None and np.allclose(got, pixels(np.c_[xs, ys]), atol=1e-6)


def draw(page, run: Run, ks) -> list[dict]:
    blob = pack({**run.header, "run": run.id}, run.columns)
    return page.evaluate(DRAW, [base64.b64encode(blob).decode(), list(ks),
                                [list(VIEW[0]), list(VIEW[1])], list(CLIP)])


def same_polygon(got: np.ndarray, expected: np.ndarray) -> bool:
    """The same corners, whichever corner each starts from and whichever way round (a corner
    repeated where a cut passes through it counted once)."""
    def once(points):
        kept = []
        for p in points:
            if not any(np.allclose(p, q, atol=1e-6) for q in kept):
                kept.append(p)
        return kept
    got, expected = once(got), once(expected)
    return len(got) == len(expected) and all(
        any(np.allclose(p, q, atol=1e-6) for q in expected) for p in got)


LAYERS = ("boundary", "ghost", "normal", "visited", "band", "margins", "averaged", "voted")
SETTINGS = dict(eta=0.3, bias=True, order="cyclic", init="zeros", seed=0, max_epochs=4)
N = 64  # grid.js's KERNEL_GRID


@pytest.mark.parametrize("data", [separable(24, 0.3, 1), noisy(24, 0.8, 2),
                                  BUILTIN["Lecture notes' example: 4 points"]()])
def test_every_part_at_every_step(js, data):
    data = type(data)(data.name, np.asarray(data.X) / np.abs(data.X).max() * 2, data.y,
                      data.classes)  # inside the test's view
    trace = record(perceptron(data.X, data.y, **SETTINGS))
    run = perceptron_run(data, trace, SETTINGS, outcome(trace, data.X, data.y, max_epochs=4),
                         layers=LAYERS)
    run = Run(run.id, run.steps, {**run.header, "averaged": True,
                                  "palette": {**run.header["palette"], "averaged": "#56B4E9",
                                              "voted": "#CC79A7"}}, run.columns)
    _, c = unpack(pack(run.header, run.columns))
    X, y = c["X"], c["y"]
    (x0, x1), (y0, y1) = VIEW
    gx = np.tile(x0 + (np.arange(N) + 0.5) * (x1 - x0) / N, N)
    gy = np.repeat(y1 - (np.arange(N) + 0.5) * (y1 - y0) / N, N)
    votes = np.zeros(N * N)
    ks = range(run.steps + 1)
    for k, got in zip(ks, draw(js, run, ks), strict=True):
        w, b = c["W"][k], c["b"][k]
        # the order they are drawn in: the band under all, the ring over the lines
        assert got["order"][:6] == ["pl-band", "pl-ghost", "pl-boundary", "pl-boundary",
                                    "pl-reach", "pl-visited"], k
        assert_line(got["boundary"], *segment(w, b, VIEW))
        if k and c["updated"][k]:
            assert_line(got["ghost"], *segment(c["W"][k - 1], c["b"][k - 1], VIEW))
        else:
            assert drawn_line(got["ghost"]) is None
        if len(segment(w, b, VIEW)[0]):
            assert_line(got["normal"], *normal_arrow(w, b, VIEW, 0.18 * (x1 - x0)))
        assert_line(got["upper"], *segment(w, b - 1, VIEW))  # w.x + b = +1 and -1
        assert_line(got["lower"], *segment(w, b + 1, VIEW))
        functional = y * (w[0] * X[:, 0] + w[1] * X[:, 1] + b)
        norm = np.hypot(*w)
        if norm > 0 and functional.min() > 0:
            xs, ys = band(w, b, functional.min(), VIEW)
            points = np.array([float(v) for v in got["band"]["points"].replace(",", " ").split()])
            assert got["band"]["visibility"] == "visible"
            assert same_polygon(points.reshape(-1, 2), pixels(np.c_[xs[:-1], ys[:-1]])), k
            p = X[int(np.argmin(functional))]
            foot = p - (w @ p + b) / norm**2 * w
            assert np.allclose(drawn_line(got["reach"]), pixels([p, foot]), atol=1e-6)
        else:
            assert got["band"]["visibility"] == "hidden" and drawn_line(got["reach"]) is None
        if k:
            assert_line(got["averaged"], *segment(c["Wavg"][k], c["bavg"][k], VIEW))
            votes += np.sign(w[0] * gx + w[1] * gy + b)  # a vote for the weights after visit k
            assert np.array_equal(got["votes"], votes), k
            assert got["voted"]["visibility"] == ("visible" if got["voted"]["d"] else "hidden")
        else:
            assert drawn_line(got["averaged"]) is None and got["voted"]["visibility"] == "hidden"
        ring = got["visited"]
        if k:
            i = int(c["index"][k])
            assert ring["visibility"] == "visible"
            assert np.allclose([float(ring["cx"]), float(ring["cy"])], pixels(X[i]), atol=1e-6)
        else:
            assert ring["visibility"] == "hidden"
        # a boundary that misses the view is an arrow at its edge instead
        away = not len(segment(w, b, VIEW)[0]) and norm > 1e-12
        assert got["offview"]["visibility"] == ("visible" if away else "hidden"), k


def test_a_boundary_outside_the_view_is_an_arrow_at_its_edge(js):
    data = BUILTIN["Lecture notes' example: 4 points"]()
    settings = dict(SETTINGS, init=((1.0, 1.0), 30.0), eta=0.1)
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=4))
    got = draw(js, run, [0])[0]
    assert drawn_line(got["boundary"]) is None and drawn_line(got["normal"]) is None
    assert got["offview"]["visibility"] == "visible"
    assert got["offviewText"]["visibility"] == "visible"
    # at the view's corner nearest the line x1 + x2 = -30 (the lower left), 8 px inside it
    corner = pixels([VIEW[0][0], VIEW[1][0]])[0]
    tip = drawn_line(got["offview"])[1]
    assert np.allclose(tip, corner + np.array([8, -8]))
    # 25 / sqrt(2) from that corner, rounded: it says so
    assert got["words"] == f"boundary ≈ {25 / np.sqrt(2):.6g} away"
    # x1 = 5 is 2 from the view's right edge x1 = 3, exactly: no "≈"
    settings = dict(SETTINGS, init=((1.0, 0.0), -5.0))
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=4))
    assert draw(js, run, [0])[0]["words"] == "boundary 2 away"


def test_the_boundary_its_ghost_and_its_normal_are_drawn_only_when_the_run_names_them(js):
    data = BUILTIN["Lecture notes' example: 4 points"]()
    trace = record(perceptron(data.X, data.y, **SETTINGS))
    result = outcome(trace, data.X, data.y, max_epochs=4)
    # an update from a w that draws a line (the first, from w = 0, has no boundary before it)
    k = next(int(k) for k in np.flatnonzero(trace.updated) if k > 0 and trace.W[k - 1].any())
    for named in [("boundary", "ghost", "normal"), ("boundary", "normal"), ("boundary", "ghost"),
                  ("ghost", "normal"), ("visited",)]:
        got = draw(js, perceptron_run(data, trace, SETTINGS, result, layers=named), [k])[0]
        drawn = {part for part in ("boundary", "ghost", "normal")
                 if drawn_line(got[part]) is not None}
        # the normal stands on the boundary: without it, no normal
        assert drawn == set(named) - ({"normal"} if "boundary" not in named else set()) \
            - {"visited"}, named
    # nor the arrow that says where a boundary outside the view lies
    settings = dict(SETTINGS, init=((1.0, 1.0), 30.0), eta=0.1)
    trace = record(perceptron(data.X, data.y, **settings))
    result = outcome(trace, data.X, data.y, max_epochs=4)
    for named, shown in ((("boundary",), "visible"), (("ghost", "normal"), "hidden")):
        got = draw(js, perceptron_run(data, trace, settings, result, layers=named), [0])[0]
        assert got["offview"]["visibility"] == got["offviewText"]["visibility"] == shown
