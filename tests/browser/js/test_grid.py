"""grid.js: sums kept step by step equal the sums made afresh; the zero contour lies on zero."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.browser

N = 64  # grid.js's KERNEL_GRID
# step t adds (t mod 7 - 3) * (cell index mod 5 + 1) to every cell, and 1 to alpha[t mod 3]:
# whole numbers, so any path to k gives the same sums exactly
WALK = """([ks, key]) => {
  let cache = null;
  const add = (c, t, sign) => {
    for (let j = 0; j < c.values.length; j++) c.values[j] += sign * ((t % 7) - 3) * ((j % 5) + 1);
    c.alpha[t % 3] += sign;
  };
  return ks.map((k) => {
    cache = pl.gridSums(cache, key, [-2, 6], [1, 3], 3, k, add);
    return { k: cache.k, values: Array.from(cache.values), alpha: Array.from(cache.alpha),
             gx: [cache.gx[0], cache.gx[N - 1], cache.gx[N]], gy: [cache.gy[0], cache.gy[N]] };
  });
}""".replace("N", str(N))


def afresh(k: int) -> tuple[np.ndarray, list[float]]:
    """The grid's values and alpha after steps 1..k, summed here in one go."""
    cells = np.arange(N * N) % 5 + 1
    values = sum(((t % 7) - 3) * cells for t in range(1, k + 1)) if k else np.zeros(N * N)
    alpha = [float(sum(1 for t in range(1, k + 1) if t % 3 == r)) for r in range(3)]
    return np.asarray(values, dtype=float), alpha


@settings(max_examples=25, deadline=None)
@given(ks=st.lists(st.integers(0, 60), min_size=1, max_size=8))
def test_any_walk_through_the_steps_gives_the_sums_afresh(js, ks):
    for k, got in zip(ks, js.evaluate(WALK, [ks, "run:view"]), strict=True):
        values, alpha = afresh(k)
        assert got["k"] == k
        assert np.array_equal(got["values"], values) and got["alpha"] == alpha
        # cell centres, row 0 at the top: x from -2 to 6, y from 3 down to 1
        assert got["gx"] == [-2 + 0.5 * 8 / N, -2 + (N - 0.5) * 8 / N, -2 + 0.5 * 8 / N]
        assert got["gy"] == [3 - 0.5 * 2 / N, 3 - 1.5 * 2 / N]


def test_another_run_or_view_starts_afresh(js):
    got = js.evaluate("""() => {
      const add = (c, t, sign) => { c.values[0] += sign * t; };
      const a = pl.gridSums(null, "one", [0, 1], [0, 1], 2, 5, add);
      const same = pl.gridSums(a, "one", [0, 1], [0, 1], 2, 5, add);
      const other = pl.gridSums(a, "two", [0, 1], [0, 1], 2, 2, add);
      return [same === a, other === a, a.values[0], other.values[0]];
    }""")
    assert got == [True, False, 15, 3]


CONTOUR = """([values, clip]) => pl.zeroContour(Float64Array.from(values), clip)"""


def segments(path: str) -> np.ndarray:
    """An SVG path of M x,y L x,y pieces as an array of (x0, y0, x1, y1)."""
    pieces = [p for p in path.split("M") if p]
    return np.array([[float(v) for v in p.replace("L", ",").split(",")] for p in pieces])


@settings(max_examples=30, deadline=None)
@given(a=st.floats(-3, 3), b=st.floats(-3, 3), c=st.floats(-60, 60))
def test_the_contour_of_a_plane_is_its_zero_line(js, a, b, c):
    """f = a q + b r + c at cell (q, r): linear, so each crossing lies on f = 0 exactly (to the
    path's tenth of a pixel); one piece in every cell whose corners differ in sign."""
    q, r = np.meshgrid(np.arange(N), np.arange(N))
    f = a * q + b * r + c
    clip = [10, 20, 320, 640]  # 5 px per cell across, 10 down
    found = segments(js.evaluate(CONTOUR, [f.ravel().tolist(), clip]) or "")
    pos = f > 0
    mixed = (pos[:-1, :-1] != pos[:-1, 1:]) | (pos[:-1, :-1] != pos[1:, :-1]) | \
        (pos[:-1, :-1] != pos[1:, 1:])
    assert len(found) == int(mixed.sum())
    for x, y in found.reshape(-1, 2) if len(found) else []:
        cell_q, cell_r = (x - 10) / 5 - 0.5, (y - 20) / 10 - 0.5
        # the path rounds to 0.05 px: a twentieth of a cell's 5 px across, 10 px down
        assert abs(a * cell_q + b * cell_r + c) <= 1.01 * (abs(a) * 0.01 + abs(b) * 0.005) + 1e-9


@pytest.mark.parametrize("corner", [-1.0, -0.1, -3.0])
def test_a_saddle_cuts_off_the_corners_unlike_its_centre(js, corner):
    """The first cell's corners alternate in sign round it: `corner`, 1, `corner`, 1. Its
    centre takes the sign of their mean, and the corners of that sign join through it: the
    contour cuts off the two others."""
    values = np.full((N, N), 1.0)
    values[0, 0] = values[1, 1] = corner
    found = segments(js.evaluate(CONTOUR, [values.ravel().tolist(), [0, 0, N, N]]))
    middle = (found[:, :2] + found[:, 2:]) / 2
    inside = found[((middle > 0.5) & (middle < 1.5)).all(axis=1)]  # the first cell's pieces
    # the crossing on each edge (0: top, 1: right, 2: bottom, 3: left), in pixels
    corners = [(0, 0), (1, 0), (1, 1), (0, 1)]
    hits = []
    for e in range(4):
        (q0, r0), (q1, r1) = corners[e], corners[(e + 1) % 4]
        v0, v1 = values[r0, q0], values[r1, q1]
        t = v0 / (v0 - v1)
        hits.append((q0 + 0.5 + t * (q1 - q0), r0 + 0.5 + t * (r1 - r0)))
    if 2 * corner + 2 > 0:  # the centre is positive: corners 0 and 2 are cut off
        pairs = [(hits[3], hits[0]), (hits[1], hits[2])]
    else:  # negative: corners 1 (between edges 0 and 1) and 3 are
        pairs = [(hits[0], hits[1]), (hits[2], hits[3])]
    assert len(inside) == 2
    for a, b in pairs:  # each piece as the path writes it, to a tenth of a pixel
        assert any(np.allclose(piece, ends, atol=0.051)
                   for piece in inside for ends in ([*a, *b], [*b, *a]))


def test_draw_contour_hides_the_path_without_values(js):
    got = js.evaluate("""() => {
      const o = new pl.Overlay(document.body, "grid");
      const axes = { clip: [0, 0, 64, 64] };
      const values = new Float64Array(64 * 64).map((_, j) => (j % 64) - 31.5);
      pl.drawContour(o, "c", values, axes, { class: "pl-boundary" });
      const shown = [o.parts.c.getAttribute("visibility"), o.parts.c.getAttribute("d").length > 0,
                     o.parts.c.getAttribute("class"), o.parts.c.getAttribute("fill")];
      pl.drawContour(o, "c", null, axes, {});
      return [shown, o.parts.c.getAttribute("visibility"), o.parts.c.getAttribute("d")];
    }""")
    assert got == [["visible", True, "pl-boundary", "none"], "hidden", ""]
