"""The kernel layer: its regions are the sign of core.kernel's s(x), its discs alpha's sizes."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.kernel import Kernel, KernelModel, kernel_perceptron
from core.trace import record
from datasets.shapes import circles, moons, xor_blobs
from lessons.variants.figures import alpha_sizes
from ui.stepper import pack
from viz.palette import BOUNDARY, CLASS_NEG, CLASS_POS, VISITED

pytestmark = pytest.mark.browser

N = 64  # grid.js's KERNEL_GRID
TINT = [[0, 114, 178, 41], [213, 94, 0, 41]]
CLIP = [40, 10, 320, 256]
# the kernel layer drawn at steps ks over a chart of its own with the data's view; what it drew
DRAW = """([text, ks, [xr, yr], clip]) => {
  const kernel = pl.LAYERS.find((layer) => layer.name === "kernel");
  const run = pl.unpack(pl.bytes(text));
  const chart = pl.html("div", {}, document.body);
  const overlay = new pl.Overlay(chart, "kernel");
  const axes = { xr, yr, clip, width: 400, height: 300,
                 px: (x) => clip[0] + clip[2] * (x - xr[0]) / (xr[1] - xr[0]),
                 py: (y) => clip[1] + clip[3] * (yr[1] - y) / (yr[1] - yr[0]) };
  const part = kernel.build({});
  return ks.map((k) => {
    kernel.draw(part, { run, k, plane: { overlay, axes, chart } });
    const image = part.canvas.getContext("2d").getImageData(0, 0, 64, 64).data;
    return {
      values: Array.from(part.grid.values), alpha: Array.from(part.grid.alpha),
      pixels: Array.from(image), first: chart.firstChild === part.canvas,
      placed: ["left", "top", "width", "height"].map((n) => part.canvas.style[n]),
      discs: part.discs.map((d) => d && [d.getAttribute("visibility"), Number(d.getAttribute("r")),
                                         d.getAttribute("fill")]),
      boundary: overlay.parts.kernelBoundary.getAttribute("visibility"),
      ring: overlay.parts.visited.getAttribute("visibility"),
    };
  });
}"""


def kernel_run(data, params: dict, *, eta: float, bias: bool) -> tuple[bytes, object]:
    """A kernel run packed as its lesson packs it, and its trace."""
    trace = record(kernel_perceptron(data.X, data.y, kernel=Kernel(**params), eta=eta,
                                     bias=bias, max_epochs=4))
    header = {"steps": trace.steps, "eta": eta, "bias": bias, "classes": list(data.classes),
              "layers": ["kernel", "visited"], "lecture": False,
              "palette": {"boundary": BOUNDARY, "ghost": BOUNDARY, "visited": VISITED,
                          "update": BOUNDARY, "tint": TINT, "classes": [CLASS_NEG, CLASS_POS]},
              "result": {"converged": False, "message": ""}, "words": {},
              "kernel": {"degree": 2, "offset": 1.0, "width": 1.0, **params,
                         "describe": Kernel(**params).describe()}, "run": "k"}
    columns = {"X": np.asarray(data.X, dtype=np.float64), "y": data.y.astype(np.int8),
               "index": trace.index.astype(np.int16), "updated": trace.updated.astype(np.uint8),
               "epoch": trace.epoch.astype(np.int16)}
    return pack(header, columns), trace


@pytest.mark.parametrize(("data", "params", "bias"), [
    (moons(30, 0.1, 0), {"name": "rbf", "width": 0.5}, True),
    (circles(30, 0.1, 1), {"name": "polynomial", "degree": 2, "offset": 1.0}, True),
    (xor_blobs(24, 0.3, 2), {"name": "polynomial", "degree": 3, "offset": 0.5}, False),
    (moons(30, 0.1, 3), {"name": "linear"}, True),
])
def test_the_regions_are_the_sign_of_the_kernel_perceptrons_score(js, data, params, bias):
    blob, trace = kernel_run(data, params, eta=0.5, bias=bias)
    X = np.asarray(data.X, dtype=float)
    xr = [float(X[:, 0].min()) - 0.5, float(X[:, 0].max()) + 0.5]
    yr = [float(X[:, 1].min()) - 0.5, float(X[:, 1].max()) + 0.5]
    grid = np.c_[np.tile(xr[0] + (np.arange(N) + 0.5) * (xr[1] - xr[0]) / N, N),
                 np.repeat(yr[1] - (np.arange(N) + 0.5) * (yr[1] - yr[0]) / N, N)]
    ks = sorted({0, 1, trace.steps // 3, trace.steps, trace.steps // 2, 2})  # there and back
    got = js.evaluate(DRAW, [base64.b64encode(blob).decode(), ks, [xr, yr], CLIP])
    for k, drawn in zip(ks, got, strict=True):
        alpha = trace.w(k)
        score = KernelModel(X, data.y, alpha, Kernel(**params), bias).decision(grid)
        assert np.allclose(drawn["values"], score, rtol=1e-9, atol=1e-9), k
        assert np.allclose(drawn["alpha"], alpha), k
        rgba = np.array(drawn["pixels"]).reshape(-1, 4)
        values = np.array(drawn["values"])
        # one pixel a cell, tinted by the sign of s there (read back through the canvas's
        # premultiplied alpha: a colour within a few levels)
        for cells, tint in ((values > 1e-9, TINT[1]), (values < -1e-9, TINT[0])):
            assert (np.abs(rgba[cells] - tint) <= [4, 4, 4, 0]).all(), k
        assert (rgba[np.abs(values) <= 1e-9] == 0).all()
        assert drawn["first"] and drawn["placed"] == ["40px", "10px", "320px", "256px"]
        sizes = alpha_sizes(alpha)
        for i, disc in enumerate(drawn["discs"]):
            if alpha[i] > 0:
                color = CLASS_NEG if data.y[i] < 0 else CLASS_POS
                assert disc == ["visible", pytest.approx(sizes[i] / 2), color], (k, i)
            else:
                assert disc is None or disc[0] == "hidden"
        assert drawn["boundary"] == ("visible" if k and np.any(values > 0) != np.all(values > 0)
                                     else "hidden")
        assert drawn["ring"] == ("visible" if k else "hidden")


def test_beside_the_steps_it_says_which_kernel_paints_the_regions(js):
    blob, _ = kernel_run(circles(30, 0.1, 1), {"name": "polynomial"}, eta=1.0, bias=True)
    said = js.evaluate("""([text]) => {
      const kernel = pl.LAYERS.find((layer) => layer.name === "kernel");
      const side = pl.html("div", {}, document.body);
      const part = kernel.build({ side });
      const run = pl.unpack(pl.bytes(text));
      kernel.load(part, run);
      const shown = [part.note.hidden, part.note.textContent, part.note.parentNode === side];
      // the next run the stepper loads is another lesson's: the note goes
      kernel.load(part, { header: { ...run.header, layers: ["boundary"] } });
      return [...shown, part.note.hidden];
    }""", [base64.b64encode(blob).decode()])
    assert said == [False, "Regions: sign s(x), polynomial (degree 2, offset 1).", True, True]
