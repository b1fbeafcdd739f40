"""The boundary glides to its new place after a step that moves w: every frame on the way is a
line between the old one and the new one, and the normal turns the way w turned; a new step
during a glide shows at once; with reduced motion there is no glide at all."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.builtin import separable
from tests.browser.js.test_stepper import SETTINGS, mount, packed

pytestmark = pytest.mark.browser

# every painted frame of the boundary and its normal, in data coordinates, from now until
# `ms` later (read at the start of each frame: what the frame before painted)
RECORD = """(ms) => {
  window.seen = null;
  const box = document.querySelector(".pl-stepper");
  const gd = box.querySelector(".pl-plane .js-plotly-plot");
  const L = gd._fullLayout;
  const x = (p) => L.xaxis.p2l(p - L.xaxis._offset);
  const y = (p) => L.yaxis.p2l(p - L.yaxis._offset);
  const ends = (sel) => {
    const line = box.querySelector(`.pl-plane .pl-overlay ${sel}`);
    if (!line || line.getAttribute("visibility") !== "visible") return null;
    const a = (n) => Number(line.getAttribute(n));
    return [[x(a("x1")), y(a("y1"))], [x(a("x2")), y(a("y2"))]];
  };
  const frames = [];
  const end = performance.now() + ms;
  const tick = (now) => {
    frames.push({ t: now, k: Number(box.dataset.step), line: ends("line.pl-boundary"),
                  normal: ends("line.pl-boundary[marker-end]") });
    if (now < end) requestAnimationFrame(tick);
    else window.seen = frames;
  };
  requestAnimationFrame(tick);
}"""


GLIDING = "() => document.querySelector('.pl-plane .pl-overlay[data-gliding]') !== null"


def recorded(page, press: list[str], ms: int = 700) -> list[dict]:
    """The frames painted while the keys in `press` are pressed, one after another."""
    page.evaluate(RECORD, ms)
    for i, key in enumerate(press):
        if i:  # the next press while the boundary glides
            page.wait_for_function(GLIDING)
        page.keyboard.press(key)
    page.wait_for_function("() => window.seen !== null", timeout=5000)
    return page.evaluate("() => window.seen")


# what reading a line back through the chart's axes (pixels to data) loses
TOL = 1e-5


def f(w, b, p) -> float:
    return float(np.dot(w, p) + b)


def key(frame) -> tuple | None:
    return None if frame["line"] is None else tuple(np.round(np.ravel(frame["line"]), 9))


def test_the_boundary_glides_between_the_old_line_and_the_new(page):
    text, trace = packed()
    mount(page, text)
    w0, b0, w1, b1 = trace.W[0], trace.b[0], trace.W[1], trace.b[1]
    assert trace.updated[1]
    frames = recorded(page, ["ArrowRight"])
    moved = [f for f in frames if f["k"] == 1]
    lines = [key(f) for f in moved]
    old, new = key(frames[0]), lines[-1]
    between = [line for line in dict.fromkeys(lines) if line not in (old, new)]
    assert len(between) >= 5, "a glide has frames between the two lines"
    for frame in moved:
        # a point of a line between the two: f0 and f1 of opposite signs, or one of them 0
        for p in [*frame["line"], np.mean(frame["line"], axis=0)]:
            assert f(w0, b0, p) * f(w1, b1, p) <= TOL, (frame, p)
    # it ends on the new line (as viz.shapes cuts it), within 200-400 ms of the press
    first = next(i for i, line in enumerate(lines) if line != old)
    last = lines.index(new)
    took = moved[last]["t"] - moved[max(first - 1, 0)]["t"]
    assert 200 <= took <= 400 + 50, took  # a frame's slack
    end = np.array(moved[-1]["line"])
    assert all(abs(f(w1, b1, p)) < TOL for p in end)
    # the normal turns one way, from w before to w after, never beyond
    angle = lambda v: np.arctan2(v[1], v[0])
    turned = [angle(np.subtract(*frame["normal"][::-1])) for frame in moved]
    start, stop = angle(w0), angle(w1)
    assert np.isclose(turned[-1], stop)
    steps = np.diff([start, *turned])
    # (a step back smaller than what reading the arrow back through the axes loses is that
    # loss, not a turn: the frame before the last can land a hair past the end; 7e-5 rad was
    # seen, a hundredth of a pixel at the arrow's tip; a turn the wrong way is whole degrees)
    assert np.all(np.sign(steps[np.abs(steps) > 1e-3]) == np.sign(stop - start)), steps


def test_a_step_during_a_glide_shows_at_once(page):
    text, trace = packed()
    mount(page, text)
    assert trace.updated[1] and trace.updated[2]
    frames = recorded(page, ["ArrowRight", "ArrowRight"], ms=500)
    # the second press comes while step 1's glide runs: the first frame that shows step 2
    # already shows step 2's line, and it stays there
    at_one = [key(f) for f in frames if f["k"] == 1]
    at_two = [f for f in frames if f["k"] == 2]
    assert at_one and at_two
    w2, b2 = trace.W[2], trace.b[2]
    for frame in at_two[1:]:
        assert all(abs(f(w2, b2, p)) < TOL for p in frame["line"]), frame


def test_no_glide_under_reduced_motion(page):
    page.emulate_media(reduced_motion="reduce")
    text, trace = packed()
    mount(page, text)
    frames = recorded(page, ["ArrowRight"])
    moved = [f for f in frames if f["k"] == 1]
    # from the first frame that shows step 1 to the last: one line, step 1's
    assert len({key(f) for f in moved[1:]}) == 1
    assert all(abs(f(trace.W[1], trace.b[1], p)) < TOL for p in moved[-1]["line"])


def test_no_glide_from_no_line(page):
    # from w = 0 (no line at all) the first update's line just appears
    text, trace = packed(separable(24, 0.3, 1), dict(SETTINGS, init="zeros"))
    mount(page, text)
    assert not np.any(trace.W[0]) and np.any(trace.W[1])
    frames = recorded(page, ["ArrowRight"])
    moved = [f for f in frames if f["k"] == 1]
    assert len({key(f) for f in moved[1:]}) == 1
    assert moved[-1]["line"] is not None


PATH = """([pairs, ts]) => pairs.map(([w0, b0, w1, b1]) => {
  const path = pl.glidePath([w0, b0], [w1, b1]);
  return path && ts.map((t) => path(t));
})"""


def test_glide_path_lies_between_and_refuses_where_a_line_would_vanish(page):
    rng = np.random.default_rng(26)
    pairs = [[list(rng.normal(size=2)), float(rng.normal()), list(rng.normal(size=2)),
              float(rng.normal())] for _ in range(200)]
    ts = list(np.linspace(0, 1, 21))
    for (w0, b0, w1, b1), path in zip(pairs, page.evaluate(PATH, [pairs, ts]), strict=True):
        w0, w1 = np.array(w0), np.array(w1)
        cos = w0 @ w1 / np.hypot(*w0) / np.hypot(*w1)
        if np.sqrt((1 + cos) / 2) < 0.1:  # a turn of more than about 170 degrees
            assert path is None
            continue
        assert path is not None
        ends = [(w0 / np.hypot(*w0), b0 / np.hypot(*w0)), (w1 / np.hypot(*w1), b1 / np.hypot(*w1))]
        for (w, b), (ew, eb) in zip([path[0], path[-1]], ends, strict=True):
            assert np.allclose(w, ew) and np.isclose(b, eb)
        for w, b in path:
            w = np.array(w)
            assert np.hypot(*w) >= 0.1 - 1e-12  # a line every time
            # the line's point nearest the origin and two more along it: between the two
            foot = -b * w / (w @ w)
            along = np.array([-w[1], w[0]])
            for p in (foot, foot + 3 * along, foot - 3 * along):
                assert (w0 @ p + b0) * (w1 @ p + b1) <= 1e-9
    # where a line is undefined on the way, or nothing moves: no glide
    none = [[[1, 0], 0, [-1, 0], 0],  # the same line, its sides swapped: w passes through 0
            [[1, 0], 0, [-1, 1e-3], 2],  # w turns by about 180 degrees
            [[0, 0], 1, [1, 1], 0],  # from no line
            [[1, 1], 0, [0, 0], 0],  # to no line
            [[1, 2], 3, [2, 4], 6]]  # the same line, w scaled
    assert page.evaluate(PATH, [none, [0.5]]) == [None] * len(none)
    # a quarter turn glides, about the point where the two lines cross
    (mid,) = page.evaluate(PATH, [[[[1, 0], -1, [0, 1], -1]], [0.5]])[0]
    w, b = np.array(mid[0]), mid[1]
    assert np.isclose(w @ [1, 1] + b, 0)
