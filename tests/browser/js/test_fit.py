"""fit.js: a chart follows its box's width, which Plotly's own resize does not do once the
layout holds a height."""

from __future__ import annotations

import pytest

from tests.browser.js.conftest import GAP, ORIGIN

pytestmark = pytest.mark.browser

WIDTHS = """async (origin) => {
  if (!window.Plotly) {
    await new Promise((done) => {
      const script = document.createElement("script");
      script.src = origin + "/plotly.min.js";
      script.onload = done;
      document.head.appendChild(script);
    });
  }
  const box = document.createElement("div");
  box.style.width = "600px";
  document.body.appendChild(box);
  const gd = document.createElement("div");
  box.appendChild(gd);
  // a layout that holds a width and a height: Plotly's own resize leaves it as it is
  await Plotly.newPlot(gd, [{ x: [0, 1], y: [0, 1] }], { width: 600, height: 300 });
  const seen = [gd._fullLayout.width];
  box.style.width = "300px";
  await Plotly.Plots.resize(gd);
  seen.push(gd._fullLayout.width);
  await pl.fitWidth(gd, Plotly);
  seen.push(gd._fullLayout.width);
  box.style.width = "500px";
  await pl.fitWidth(gd, Plotly);
  seen.push(gd._fullLayout.width, gd._fullLayout.height);
  box.remove();
  return seen;
}"""


def test_a_chart_narrows_and_widens_with_its_box_and_keeps_its_height(js):
    assert js.evaluate(WIDTHS, ORIGIN) == [600, 600, 300, 500, 300]


LEGENDS = """async () => {
  const box = document.createElement("div");
  box.style.width = "700px";
  document.body.appendChild(box);
  const gd = document.createElement("div");
  box.appendChild(gd);
  // a legend beside the plot, headed by its run's name (lessons/svm/parts.py's pair)
  const legend = { orientation: "v", x: 1.02, xanchor: "left", y: 1, yanchor: "top",
                   title: { text: "Perceptron" } };
  await Plotly.newPlot(gd, [{ x: [0, 1], y: [0, 1], name: "class +1" }],
                       { width: 700, height: 400, showlegend: true, legend });
  const seen = () => {
    const l = gd._fullLayout.legend;
    return [gd._fullLayout.width, l.orientation, l.yref, l.title.side];
  };
  const out = [seen()];
  for (const width of [360, 700]) {  // one of two runs on a phone, then on a laptop
    box.style.width = `${width}px`;
    await pl.fitWidth(gd, Plotly, pl.legendFor(legend, { pair: true, width }));
    out.push(seen());
  }
  box.remove();
  return out;
}"""


def test_a_legend_beside_the_plot_goes_under_it_in_a_narrow_box_and_comes_back(js):
    js.evaluate(WIDTHS, ORIGIN)  # Plotly loaded
    got = js.evaluate(LEGENDS)
    assert got[0][:2] == [700, "v"]
    assert got[1] == [360, "h", "container", "top"]  # under the plot, its title above
    assert got[2][:2] == [700, "v"] and got[2][2] == "paper"


BESIDE = {"orientation": "v", "x": 1.02, "y": 1}
UNDER = {"orientation": "h", "y": -0.12, "x": 0}
FOOT = {"orientation": "h", "xref": "container", "x": 0, "xanchor": "left",
        "yref": "container", "y": 0, "yanchor": "bottom"}


@pytest.mark.parametrize(("legend", "place", "expected"), [
    (BESIDE, {"pair": True, "width": 449}, {**BESIDE, **FOOT}),  # one of two, narrow
    (BESIDE, {"pair": True, "width": 450}, BESIDE),
    (BESIDE, {"pair": True, "width": 419, "lecture": True}, {**BESIDE, **FOOT}),  # projector
    (BESIDE, {"pair": True, "width": 420, "lecture": True}, BESIDE),
    (BESIDE, {"pair": False, "width": 300}, BESIDE),  # a lone run keeps its figure's
    ({**BESIDE, "x": 0.02}, {"pair": True, "width": 300}, {**BESIDE, "x": 0.02}),  # inside
    (UNDER, {"lecture": True, "width": 900}, {**UNDER, **FOOT}),  # a projector: at the foot
    (UNDER, {"pair": True, "width": 300}, UNDER),
    (None, {"pair": True, "width": 300}, None),
])
def test_a_legend_goes_where_its_place_has_room(js, legend, place, expected):
    assert js.evaluate("([l, p]) => pl.legendFor(l, p)", [legend, place]) == expected


def height(js, figure_height: int, **place) -> int:
    where = {"width": 600, "top": 300, "windowWidth": 1280, "windowHeight": 720, **place}
    return js.evaluate("([h, p]) => pl.chartHeight(h, p)", [figure_height, where])


def test_a_projectors_chart_fills_the_window_under_it_and_two_runs_leave_room(js):
    assert height(js, 560) == 560  # a laptop's lone run: its figure's height
    # a projector, one run: the plane beside its steps, from its top to the window's bottom,
    # 400 px at least ...
    assert height(js, 900, lecture=True) == 720 - 300 - GAP
    assert height(js, 900, lecture=True, top=500) == 400
    # ... taller than its figure if the window has the room ...
    assert height(js, 300, lecture=True) == 720 - 300 - GAP
    # ... but no taller than its box is wide, with the legend under it
    assert height(js, 900, lecture=True, top=100, width=300) == 300 + 150
    assert height(js, 900, lecture=True, top=100, width=200) == 400
    # ... or 1.4 times as wide, where its plot grows taller than its box (place.tall)
    assert height(js, 900, lecture=True, top=100, width=300, tall=True) == 300 * 1.4 + 150
    assert height(js, 900, lecture=True, top=100, width=480, tall=True) == 720 - 100 - GAP
    assert height(js, 900, lecture=True, top=800) == 900  # scrolled out: kept
    # two runs side by side: 58% of the room under them for their charts, 260 px at least
    assert height(js, 900, pair=True, top=100) == round(0.58 * (720 - 100 - GAP))
    assert height(js, 900, pair=True) == 260
    # ... and 150 px more for a legend under the plot, in a narrow box
    assert height(js, 900, pair=True, top=100, width=360, windowWidth=768) == \
        round(0.58 * (720 - 100 - GAP)) + 150
    # a phone stacks them: each as tall as its square plot and its legend, wherever it is
    assert height(js, 900, pair=True, width=358, windowWidth=390, top=2000) == 358 + 150
    assert height(js, 900, pair=True, width=600, windowWidth=630) == 600
    # a laptop's (widePair): 64% of the room, its legend under the plot
    assert height(js, 900, pair=True, top=100, widePair=True) == \
        round(0.64 * (720 - 100 - GAP)) + 150


def test_a_wide_windows_lone_run_stands_as_a_projectors_and_its_pair_puts_legends_under(js):
    wide = "([l, p, b, w]) => pl.wideLayout(l, p, b, w)"
    # a laptop (1440 or 1280 wide, the sidebar open): one run's plane beside its steps
    assert js.evaluate(wide, [False, False, 980, 1440]) is True
    assert js.evaluate(wide, [False, False, 820, 1280]) is True
    # a tablet on its side, its sidebar folded: the same
    assert js.evaluate(wide, [False, False, 864, 1024]) is True
    # not in lecture mode's own layout, not two runs, not an upright tablet or a narrower
    # stepper (the sidebar open beside it)
    assert js.evaluate(wide, [True, False, 980, 1440]) is False
    assert js.evaluate(wide, [False, True, 980, 1440]) is False
    assert js.evaluate(wide, [False, False, 704, 768]) is False
    assert js.evaluate(wide, [False, False, 700, 1280]) is False
    # its plane: from its top to the window's foot, no taller than its box is wide with the
    # legend under it, 360 px at least
    assert height(js, 560, wide=True, top=200, width=620, windowHeight=900) == 900 - 200 - GAP
    assert height(js, 560, wide=True, top=100, width=400, windowHeight=900) == 400 + 150
    assert height(js, 560, wide=True, top=500, windowHeight=720) == 360
    # its legend at the chart's foot, as a projector's
    assert js.evaluate("(l) => pl.legendFor(l, { wide: true })",
                       {"orientation": "h", "y": -0.12})["yref"] == "container"
    # two runs side by side on a laptop: each legend under its plot, even in a wide box
    pair = "(w) => pl.widePair(false, true, w)"
    assert js.evaluate(pair, 1440) is True
    assert js.evaluate(pair, 980) is False
    assert js.evaluate("() => pl.widePair(true, true, 1440)") is False
    assert js.evaluate("() => pl.legendUnder({ pair: true, width: 480, widePair: true })") is True
    assert js.evaluate("() => pl.legendUnder({ pair: true, width: 480 })") is False


def test_a_lone_runs_plane_has_one_height_and_a_phones_toolbar_its_own_row(js):
    # on a phone (one run out of lecture mode): as tall as its square plot needs, its toolbar's
    # 44 px row included, no taller than the figure's own height and that row
    drawn = {"height": 600, "margin": {"t": 54}, "_size": {"h": 500, "w": 350}}
    height = "([gd, own, place]) => pl.planeHeightFor({ _fullLayout: gd }, own, place)"
    assert js.evaluate(height, [drawn, 520, {"narrow": True}]) == 600 - (500 - 350)
    assert js.evaluate(height, [{**drawn, "_size": {"h": 500, "w": 500}}, 520,
                                {"narrow": True}]) == 520 + 44
    # where the margins move with the height (a phone's large run swung 468, 537, 469, ...):
    # the secant through the last drawing and this one lands on the square height, and this
    # drawing is the last one for the next
    swung = ("([gd, memo]) => [pl.planeHeightFor({ _fullLayout: gd }, 520, { narrow: true }, "
             "memo), memo]")
    got, memo = js.evaluate(swung, [{"height": 468, "_size": {"h": 300, "w": 369}},
                                    {"last": {"height": 537, "d": 68}}])
    assert got == round(468 + 69 * (537 - 468) / (68 + 69))
    assert memo == {"last": {"height": 468, "d": -69}}
    # elsewhere fit.js's chartHeight: the figure's own, or the window's on a projector
    assert js.evaluate(height, [drawn, 520, {"narrow": False}]) == 520
    projector = {"narrow": True, "lecture": True, "top": 100, "width": 900,
                 "windowHeight": 720, "windowWidth": 390}
    assert js.evaluate(height, [drawn, 520, projector]) == 720 - 100 - GAP
    # what a drawn plane needs: nothing when it stands so; the phone's toolbar row over the
    # title, and the figure's own top back elsewhere
    change = "([gd, layout, h, narrow]) => pl.planeChange({ _fullLayout: gd }, layout, h, narrow)"
    layout = {"margin": {"t": 10}, "title": {"text": "the plane"}}
    assert js.evaluate(change, [drawn, layout, 601, True]) is None
    assert js.evaluate(change, [drawn, layout, 450, True]) == {"height": 450}
    assert js.evaluate(change, [drawn, layout, 600, False]) == {
        "margin.t": 10, "title.yref": "container", "title.y": "auto", "title.yanchor": "auto"}
    assert js.evaluate(change, [{**drawn, "margin": {"t": 10}}, layout, 600, True]) == {
        "margin.t": 54, "title.yref": "paper", "title.y": 1, "title.yanchor": "bottom"}


def test_a_plot_that_grows_taller_is_drawn_at_a_new_size_from_its_figures_ranges(js):
    own = "(layout) => pl.ownRanges(layout)"
    tall = {"xaxis": {"range": [0.1, 2.9]}, "yaxis": {"range": [-0.3, 2.3], "constrain": "range"}}
    assert js.evaluate(own, tall) == {"xaxis.range": [0.1, 2.9], "yaxis.range": [-0.3, 2.3]}
    # a plot that shrinks to its box (every other plane) keeps what it has
    assert js.evaluate(own, {**tall, "yaxis": {"range": [-0.3, 2.3], "constrain": "domain"}}) == {}
    assert js.evaluate(own, {"xaxis": {}, "yaxis": {}}) == {}


def test_a_plane_follows_a_taller_room_past_a_line_and_a_shorter_one_at_once(js):
    redraw = "([drawn, wanted]) => pl.redrawFor(drawn, wanted)"
    # growing: not for a line of text (8 px), beyond it yes
    assert js.evaluate(redraw, [500, 508]) is False
    assert js.evaluate(redraw, [500, 509]) is True
    # shrinking: a chart may keep the gap it leaves above the window's foot, not more
    assert js.evaluate(redraw, [500, 500 - GAP]) is False
    assert js.evaluate(redraw, [500, 500 - GAP - 1]) is True


PAGE_TOP = """() => {
  // a chart 900 px down a scrolling box 100 px down the page, the box and the window scrolled
  const page = document.createElement("div");
  page.style.cssText = "margin-top: 100px; height: 400px; overflow-y: auto";
  const tall = document.createElement("div");
  tall.style.height = "3000px";
  const chart = document.createElement("div");
  chart.style.cssText = "margin-top: 900px; height: 50px";
  tall.appendChild(chart);
  page.appendChild(tall);
  document.body.style.cssText = "margin: 0; height: 4000px";
  document.body.appendChild(page);
  const seen = [pl.pageTop(chart)];
  page.scrollTop = 28;
  seen.push(chart.getBoundingClientRect().top, pl.pageTop(chart));
  window.scrollTo(0, 60);
  seen.push(chart.getBoundingClientRect().top, pl.pageTop(chart));
  page.remove();
  window.scrollTo(0, 0);
  document.body.style.cssText = "";
  return seen;
}"""


def test_a_charts_top_is_where_it_stands_on_the_pages_first_screen_however_scrolled(js):
    # in the window it moved by each scroll; in the page it stays at 100 + 900
    first, *moved = js.evaluate(PAGE_TOP)
    assert first == pytest.approx(1000, abs=1)
    assert moved[0] == pytest.approx(1000 - 28, abs=1)
    assert moved[2] == pytest.approx(1000 - 88, abs=1)
    assert moved[1] == moved[3] == first
