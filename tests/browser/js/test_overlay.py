"""overlay.js: parts made once and placed in pixels through a chart's axes."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from tests.browser.js.conftest import ORIGIN
from ui.stepper import pack

pytestmark = pytest.mark.browser

# a view of [-2, 3] x [-1, 1] on a 500 x 300 plot area at (50, 20), the screen's y running down
AXES = """const axes = { xr: [-2, 3], yr: [-1, 1], width: 600, height: 400,
  clip: [50, 20, 500, 300], px: (x) => 50 + 100 * (x + 2), py: (y) => 170 - 150 * y };"""


def test_parts_are_made_once_and_the_layer_covers_the_chart(js):
    got = js.evaluate(f"""() => {{
      {AXES}
      const host = pl.html("div", {{ class: "host" }}, document.body);
      const o = new pl.Overlay(host, "t1");
      const line = o.line("a", {{ class: "pl-ghost" }});
      const again = o.line("a", {{ class: "other" }});
      const under = o.shape("band", "polygon", {{ class: "pl-band" }}, true);
      const heads = [o.arrowHead("#000"), o.arrowHead("#111"), o.arrowHead("#000")];
      o.place(axes);
      const rect = o.clipRect;
      return {{ same: line === again, cls: again.getAttribute("class"),
               first: o.layer.firstChild === under, heads,
               size: [o.svg.getAttribute("width"), o.svg.getAttribute("height")],
               clip: ["x", "y", "width", "height"].map((k) => rect.getAttribute(k)),
               clipped: o.layer.getAttribute("clip-path"),
               markers: o.defs.querySelectorAll("marker").length,
               parent: o.svg.parentElement === host }};
    }}""")
    assert got == {"same": True, "cls": "pl-ghost", "first": True,
                   "heads": ["url(#t1-head-0)", "url(#t1-head-1)", "url(#t1-head-0)"],
                   "size": ["600", "400"], "clip": ["50", "20", "500", "300"],
                   "clipped": "url(#t1-clip)", "markers": 2, "parent": True}


def test_a_line_is_placed_through_the_axes_or_hidden(js):
    got = js.evaluate(f"""() => {{
      {AXES}
      const line = pl.el("line", {{}});
      pl.setLine(line, [0, 0.5], [3, -1], axes);
      const placed = ["x1", "y1", "x2", "y2", "visibility"].map((k) => line.getAttribute(k));
      pl.setLine(line, null);
      return [placed, line.getAttribute("visibility")];
    }}""")
    assert got == [["250", "95", "550", "320", "visible"], "hidden"]


def test_the_axes_of_a_plotly_chart_map_the_view_to_its_plot_area(js):
    js.add_script_tag(url=f"{ORIGIN}/app/static/plotly.min.js")
    got = js.evaluate("""async () => {
      const gd = pl.html("div", {}, document.body);
      await Plotly.newPlot(gd, [{ x: [0, 4], y: [1, 2], mode: "markers" }],
        { width: 640, height: 480, xaxis: { range: [4, -1] }, yaxis: { range: [-3, 5] },
          margin: { l: 70, r: 30, t: 20, b: 60 } });
      const a = pl.axesOf(gd);
      return { xr: a.xr, yr: a.yr, size: [a.width, a.height], clip: a.clip,
               corners: [a.px(-1), a.px(4), a.py(-3), a.py(5)] };
    }""")
    assert got["xr"] == [-1, 4] and got["yr"] == [-3, 5]  # ascending, a reversed axis too
    assert got["size"] == [640, 480] and got["clip"] == [70, 20, 540, 400]
    assert got["corners"] == pytest.approx([70 + 540, 70, 20 + 400, 20])


RING = """([text, k, drawn]) => {
  const axes = { px: (x) => 10 * x, py: (y) => -10 * y };
  const o = new pl.Overlay(document.body, "ring");
  pl.visitedRing(o, pl.unpack(pl.bytes(text)), k, axes, drawn);
  const ring = o.parts.visited;
  return ["visibility", "cx", "cy", "r", "stroke-width"].map((n) => ring.getAttribute(n));
}"""


@pytest.mark.parametrize("lecture", [False, True])
def test_the_ring_is_round_the_example_visited(js, lecture):
    X = np.array([[1.0, 2.0], [-3.0, 0.5], [0.25, -4.0]])
    header = {"steps": 3, "lecture": lecture}
    blob = base64.b64encode(pack(header, {"X": X, "index": np.array([-1, 2, 0, 1], np.int16)}))
    r, width = ("20.8", "7.2") if lecture else ("13", "4")
    for k, row in [(1, 2), (2, 0), (3, 1)]:
        assert js.evaluate(RING, [blob.decode(), k, True]) == [
            "visible", str(X[row, 0] * 10).removesuffix(".0"),
            str(-X[row, 1] * 10).removesuffix(".0"), r, width]
    assert js.evaluate(RING, [blob.decode(), 0, True])[0] == "hidden"
    assert js.evaluate(RING, [blob.decode(), 2, False])[0] == "hidden"
