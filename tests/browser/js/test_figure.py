"""figure.js: the plane's figure from a run's header and columns."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, separable
from tests.browser.js.conftest import GAP
from ui.stepper import pack, perceptron_run
from viz.plane import CHART_CONFIG

pytestmark = pytest.mark.browser

SETTINGS = dict(eta=0.1, bias=True, order="cyclic", init="zeros", seed=0, max_epochs=4)
# the figure for a place, twice (the header's own must come out of the first untouched)
FIGURE = """([text, place]) => {
  const run = pl.unpack(pl.bytes(text));
  const first = pl.planeFigure(run, place);
  return { first, again: pl.planeFigure(run, place), header: run.header.figure };
}"""
LAPTOP = {"width": 600, "top": 300, "windowWidth": 1280, "windowHeight": 720}


def figure(js, data, *, lecture=False, **place):
    trace = record(perceptron(data.X, data.y, **SETTINGS))
    run = perceptron_run(data, trace, SETTINGS, outcome(trace, data.X, data.y, max_epochs=4),
                         lecture=lecture)
    # the page's toolbar, as ui.stepper.stepper sends it
    header = {**run.header, "run": run.id, "config": CHART_CONFIG}
    text = base64.b64encode(pack(header, run.columns)).decode()
    return js.evaluate(FIGURE, [text, {**LAPTOP, "lecture": lecture, **place}])


@pytest.mark.parametrize("data", [BUILTIN["Lecture notes' example: 4 points"](),
                                  separable(40, 0.3, 5)], ids=["notes", "separable"])
def test_each_class_trace_gets_its_points_and_the_headers_figure_stays_empty(js, data):
    got = figure(js, data)
    traces = got["first"]["data"]
    for trace, label in ((0, -1), (1, 1)):  # the header's point_traces: class -1, then +1
        mine = data.X[data.y == label]
        assert np.array_equal(np.c_[traces[trace]["x"], traces[trace]["y"]], mine)
    assert got["again"] == got["first"]  # drawn again from the same header: the same
    assert all("x" not in trace or not trace["x"] for trace in got["header"]["data"][:2])


def test_the_toolbar_is_the_pages_and_nothing_goes_to_plotlys_cloud(js):
    config = figure(js, BUILTIN["Lecture notes' example: 4 points"]())["first"]["config"]
    assert config["modeBarButtonsToRemove"] == CHART_CONFIG["modeBarButtonsToRemove"]
    assert config["displaylogo"] is False and config["scrollZoom"] is False
    assert config["showSendToCloud"] is False and config["plotlyServerURL"] == ""


def test_on_a_projector_it_is_sized_for_the_window_and_its_legend_sits_at_the_foot(js):
    data = BUILTIN["Lecture notes' example: 4 points"]()
    laptop = figure(js, data)["first"]["layout"]
    projector = figure(js, data, lecture=True)["first"]["layout"]
    # under the axis title on both, and as wide as the whole chart on a projector
    assert laptop["legend"]["yref"] == projector["legend"]["yref"] == "container"
    assert "xref" not in laptop["legend"] and projector["legend"]["xref"] == "container"
    assert projector["height"] == min(figure(js, data, lecture=True)["header"]["layout"]
                                      ["height"], max(400, 720 - 300 - GAP))
