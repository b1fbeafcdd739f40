"""The weights layer: w, w before an update and the step eta y x, as arrows in weight space."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, noisy
from tests.browser.js.conftest import ORIGIN
from ui.stepper import pack, perceptron_run

pytestmark = pytest.mark.browser

# the layer on its own chart (the run's weight-space figure); each arrow in the chart's data
# coordinates, read back through Plotly's own axes, or null when hidden
DRAW = """async ([text, ks]) => {
  const weights = pl.LAYERS.find((layer) => layer.name === "weights");
  const run = pl.unpack(pl.bytes(text));
  const side = pl.html("div", { style: "width: 500px" }, document.body);
  const part = weights.build({ side });
  weights.load(part, run);
  if (part.host.hidden) return "hidden";
  await weights.plot(part, run, Plotly, {});
  const L = part.chart._fullLayout;
  const data = (line) => line.getAttribute("visibility") === "hidden" ? null : [
    [L.xaxis.p2l(+line.getAttribute("x1") - L.xaxis._offset),
     L.yaxis.p2l(+line.getAttribute("y1") - L.yaxis._offset)],
    [L.xaxis.p2l(+line.getAttribute("x2") - L.xaxis._offset),
     L.yaxis.p2l(+line.getAttribute("y2") - L.yaxis._offset)]];
  return ks.map((k) => {
    weights.draw(part, { run, k });
    const { before, step, after } = part.overlay.parts;
    return { before: data(before), step: data(step), after: data(after),
             heads: [before, step, after].map((l) => l.getAttribute("marker-end")),
             size: part.overlay.svg.getAttribute("height") };
  });
}"""


def packed(data, layers=None) -> tuple[str, object]:
    settings = dict(eta=0.1, bias=True, order="cyclic", init=((0.2, 0.0), -0.1), seed=0,
                    max_epochs=4)
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=4),
                         **({"layers": layers} if layers else {}))
    return base64.b64encode(pack(run.header, run.columns)).decode(), trace


@pytest.fixture(scope="module")
def plotly(js):
    js.add_script_tag(url=f"{ORIGIN}/app/static/plotly.min.js")
    return js


@pytest.mark.parametrize("data", [BUILTIN["Lecture notes' example: 4 points"](), noisy(20, 0.8, 1)])
def test_w_and_at_an_update_w_before_and_the_step(plotly, data):
    text, trace = packed(data)
    ks = list(range(trace.steps + 1))
    scale = np.abs(trace.W).max()

    def near(got, expected) -> bool:  # through pixels and back: to a hundredth of a pixel
        return got is not None and np.allclose(got, expected, atol=1e-4 * scale)

    for k, got in zip(ks, plotly.evaluate(DRAW, [text, ks]), strict=True):
        assert near(got["after"], [[0, 0], trace.W[k]]), k
        if k and trace.updated[k]:
            assert near(got["before"], [[0, 0], trace.W[k - 1]]), k
            assert near(got["step"], [trace.W[k - 1], trace.W[k]]), k
        else:
            assert got["before"] is None and got["step"] is None, k
        assert got["size"] == "320"
    assert len(set(got["heads"])) == 3  # each its own colour's head


def test_a_run_without_weight_space_hides_it(plotly):
    text, _ = packed(noisy(10, 0.8, 1), layers=("boundary", "explain"))
    assert plotly.evaluate(DRAW, [text, [0]]) == "hidden"
