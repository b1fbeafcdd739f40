"""chart.js: a figure the server drew (ui/chart.py), drawn by the page's own Plotly."""

from __future__ import annotations

import base64

import plotly.graph_objects as go
import pytest

from tests.browser.js.conftest import ORIGIN, open_page, origin
from ui.chart import chart_bytes
from viz.plane import CHART_CONFIG

pytestmark = pytest.mark.browser

# a box of a set width (a new one if ``fresh``), a component's host in it, mounted with the
# bytes given; how many times Plotly drew into it is counted (Plotly.react wrapped)
MOUNT = """async ([text, width, fresh]) => {
  let box = document.querySelector('#box');
  if (fresh) box?.remove();
  if (!box || fresh) {
    window.reacts = 0;
    box = document.createElement('div');
    box.id = 'box';
    document.body.append(box);
    box.append(document.createElement('div'));
  }
  box.style.width = `${width}px`;
  const Plotly = await pl.loadPlotly();
  if (!Plotly.react.counted) {
    const react = Plotly.react;
    Plotly.react = (...args) => { window.reacts += 1; return react(...args); };
    Plotly.react.counted = true;
  }
  pl.mountChart({ parentElement: box.firstChild, data: pl.bytes(text) });
  await new Promise((done) => setTimeout(done, 300));
  const gd = box.querySelector('.js-plotly-plot');
  const figure = box.querySelector('.pl-page-chart');
  return { reacts: window.reacts, role: figure.getAttribute('role'),
           label: figure.getAttribute('aria-label'), traces: gd.data.map((t) => t.name),
           width: gd._fullLayout.width, height: gd._fullLayout.height,
           buttons: [...box.querySelectorAll('.modebar-btn')].map((b) => b.dataset.title) };
}"""


def sent(title: str, alt: str, *, height: int = 400) -> str:
    fig = go.Figure([go.Scatter(x=[0, 1, 2], y=[1, 0, 1], name=title),
                     go.Contour(z=[[0, 1], [1, 0]], name="loss")],
                    layout=dict(height=height, width=900))
    return base64.b64encode(chart_bytes(fig, config=CHART_CONFIG, alt=alt)).decode()


def test_a_chart_is_drawn_as_wide_as_its_box_with_its_label_and_redrawn_only_when_it_changes(js):
    first = js.evaluate(MOUNT, [sent("points", "Two <b>points</b> & a loss"), 700, True])
    assert first["traces"] == ["points", "loss"]
    assert first["role"] == "figure"
    assert first["label"] == "Two <b>points</b> & a loss"  # the words as they are, not markup
    # the figure's own width gives way to its box's; its height stays
    assert (first["width"], first["height"]) == (700, 400)
    assert first["reacts"] == 1

    again = js.evaluate(MOUNT, [sent("points", "Two <b>points</b> & a loss"), 700])
    assert again["reacts"] == 1  # the same figure re-sent: nothing drawn again

    narrower = js.evaluate(MOUNT, [sent("points", "Two <b>points</b> & a loss"), 520])
    assert narrower["width"] == 520  # the box narrowed: the plot followed it
    assert narrower["reacts"] == 1

    changed = js.evaluate(MOUNT, [sent("moved", "Moved", height=300), 520])
    assert changed["reacts"] == 2
    assert (changed["traces"], changed["label"], changed["height"]) == (["moved", "loss"],
                                                                       "Moved", 300)


def test_a_3d_chart_is_drawn_by_the_whole_bundle_and_follows_its_box(js):
    fig = go.Figure([go.Scatter3d(x=[0, 1], y=[1, 0], z=[0, 1], name="lifted"),
                     go.Surface(z=[[0, 1], [1, 0]], name="plane")], layout=dict(height=380))
    data = base64.b64encode(chart_bytes(fig, config=CHART_CONFIG, alt="In 3-D")).decode()
    js.evaluate("""(text) => {
      document.querySelector('#box')?.remove();
      const box = Object.assign(document.createElement('div'), { id: 'box' });
      box.style.width = '600px';
      document.body.append(box);
      box.append(document.createElement('div'));
      pl.mountChart({ parentElement: box.firstChild, data: pl.bytes(text) });
    }""", data)
    js.wait_for_function("() => document.querySelector('#box .js-plotly-plot')?._fullLayout")
    drawn = js.evaluate("""async () => {
      const gd = document.querySelector('#box .js-plotly-plot');
      return [gd._fullData.map((t) => t.type), gd._fullLayout.width,
              window.Plotly === await pl.loadPlotly()];
    }""")
    assert drawn == [["scatter3d", "surface"], 600, True]  # the page's Plotly left in place
    js.evaluate("() => { document.querySelector('#box').style.width = '450px'; }")
    js.wait_for_function("() => document.querySelector('#box .js-plotly-plot')"
                         "._fullLayout.width === 450")


def test_a_hidden_box_waits_a_shown_one_follows_and_a_removed_one_is_left_alone(js):
    js.evaluate(MOUNT, [sent("points", "Points"), 500, True])
    js.evaluate("() => { document.querySelector('#box').style.display = 'none'; }")
    js.wait_for_timeout(200)  # a resize of a hidden plot would throw in the page
    js.evaluate("() => { const box = document.querySelector('#box'); box.style.display = '';"
                " box.style.width = '410px'; }")
    js.wait_for_function("() => document.querySelector('#box .js-plotly-plot')"
                         "._fullLayout.width === 410")
    js.evaluate("() => document.querySelector('#box').remove()")
    js.wait_for_timeout(200)  # nor would one taken off the page (the fixture checks both)


def test_the_toolbar_is_the_pages_with_full_screen_and_nothing_for_plotlys_cloud(js):
    shown = js.evaluate(MOUNT, [sent("points", "Points"), 500, False])
    assert "Full screen" in shown["buttons"] and "Download plot as a PNG" in shown["buttons"]
    removed = {"Zoom", "Pan", "Box Select", "Lasso Select"}
    assert removed.isdisjoint(shown["buttons"])
    config = js.evaluate("() => document.querySelector('#box .js-plotly-plot')._context")
    assert config["displaylogo"] is False and config["showSendToCloud"] is False
    assert config["plotlyServerURL"] == ""


def test_the_layout_takes_the_boxs_width_and_the_screens_height_in_full_screen(js):
    layout = {"width": 900, "height": 400, "title": {"text": "t"}}
    assert js.evaluate("(l) => pl.chartLayout(l, 0)", layout) == {
        "height": 400, "title": {"text": "t"}, "autosize": True}
    assert js.evaluate("(l) => pl.chartLayout(l, 720)", layout)["height"] == 720
    assert js.evaluate("(l) => { pl.chartLayout(l, 720); return l; }", layout) == layout


def test_a_narrow_box_gives_its_plot_the_side_margins_and_its_toolbar_a_row(js):
    # a phone's page pads the chart already: the plot takes the figure's side margins there;
    # its toolbar (44 px buttons) a row of its own over the title, the chart that much taller
    layout = {"height": 400, "margin": {"l": 10, "r": 10, "t": 30, "b": 60},
              "title": {"text": "t", "yref": "container", "y": 0.98}}
    wide = js.evaluate("(l) => pl.chartLayout(l, 0, 700)", layout)
    narrow = js.evaluate("(l) => pl.chartLayout(l, 0, 358)", layout)
    assert wide["margin"] == layout["margin"] and wide["title"] == layout["title"]
    assert wide["height"] == 400
    assert narrow["margin"] == {"l": 2, "r": 2, "t": 30 + 44, "b": 60}
    assert narrow["height"] == 400 + 44
    assert narrow["title"] == {"text": "t", "yref": "paper", "y": 1, "yanchor": "bottom"}
    assert js.evaluate("(l) => pl.chartLayout(l, 800, 358)", layout)["height"] == 800
    # a subplot's title over the top plot counts as one; a plot with no words over it keeps
    # its top (the toolbar at its corner: a row would push a phone's picture down)
    subplots = {"height": 400, "margin": {"t": 30}, "annotations": [
        {"text": "loss", "yref": "paper", "y": 1, "yanchor": "bottom"},
        {"text": "slope", "yref": "paper", "y": 0.4, "yanchor": "bottom"}]}
    assert js.evaluate("(l) => pl.chartLayout(l, 0, 358)", subplots)["margin"]["t"] == 74
    bare = js.evaluate("(l) => pl.chartLayout(l, 0, 358)", {"height": 400, "margin": {"t": 10}})
    assert bare["margin"]["t"] == 10 and bare["height"] == 400
    # drawn with a title in a phone's box: the toolbar's buttons above the title and the plot
    titled = go.Figure(go.Scatter(x=[0, 1], y=[0, 1]), layout=dict(
        height=400, width=900, title="A title", margin=dict(t=40)))
    js.evaluate(MOUNT, [base64.b64encode(chart_bytes(titled, config=CHART_CONFIG, alt="t"))
                        .decode(), 358, True])
    clear = js.evaluate("""() => {
      const box = (s) => document.querySelector('#box ' + s)?.getBoundingClientRect();
      return [box('.modebar')?.bottom, box('.gtitle')?.top, box('.nsewdrag')?.top];
    }""")
    assert clear[0] <= clear[1] <= clear[2], clear
    # drawn: the plot is as wide as a narrow box less its tick labels, and a box that widens
    # past a phone's gets the figure's margins back
    js.evaluate(MOUNT, [sent("points", "Points"), 358, True])
    margins = "() => document.querySelector('#box .js-plotly-plot')._fullLayout.margin"
    assert js.evaluate(margins)["r"] == 2
    js.evaluate("() => { document.querySelector('#box').style.width = '700px'; }")
    js.wait_for_function(f"() => ({margins})().r === 80")  # Plotly's own, as the figure has


def test_without_plotly_the_box_says_the_chart_could_not_load(browser):
    page = open_page(browser, origin(lambda: 503))
    try:
        assert page.url.startswith(ORIGIN)
        page.evaluate("""(text) => {
          const host = document.createElement('div');
          document.body.append(host);
          pl.mountChart({ parentElement: host, data: pl.bytes(text) });
        }""", sent("points", "Points"))
        page.wait_for_selector(".pl-page-chart .pl-nochart")
        assert "could not load" in page.inner_text(".pl-page-chart")
        assert page.get_attribute(".pl-page-chart", "aria-label") == "Points"
    finally:
        page.context.close()


def test_full_screen_takes_the_screens_height_and_gives_it_back(js):
    js.evaluate(MOUNT, [sent("points", "Points", height=300), 500, True])
    button = js.locator('#box [data-title="Full screen"]')
    js.locator("#box .js-plotly-plot").hover()  # the toolbar shows over a hovered chart
    button.click()  # a real click: the browser grants full screen only to a person's gesture
    js.wait_for_function("""() => document.fullscreenElement?.classList.contains('pl-page-chart')
      && document.querySelector('#box .js-plotly-plot')._fullLayout.height === innerHeight""")
    js.evaluate("() => document.exitFullscreen()")
    js.wait_for_function("""() => !document.fullscreenElement
      && document.querySelector('#box .js-plotly-plot')._fullLayout.height === 300""")


def test_a_plot_of_equal_scales_drawn_again_is_the_plot_drawn_fresh(js):
    """Plotly writes the domain it shrank an equal-scale axis to into the figure it draws: a
    chart drawn again (its box turned narrow) must start from the figure as sent."""
    fig = go.Figure(go.Scatter(x=[0, 2], y=[0, 2]), layout=dict(height=420))
    fig.update_xaxes(range=[0, 2], constrain="domain")
    fig.update_yaxes(range=[0, 2], scaleanchor="x", scaleratio=1, constrain="domain")
    square = base64.b64encode(chart_bytes(fig, config=CHART_CONFIG, alt="Square")).decode()
    plot = """() => { const r = document.querySelector('#box .nsewdrag').getBoundingClientRect();
                      return [Math.round(r.width), Math.round(r.height)]; }"""
    js.evaluate(MOUNT, [square, 358, True])
    fresh = js.evaluate(plot)
    js.evaluate(MOUNT, [square, 900, True])  # wide: its height holds the square
    js.evaluate("() => { document.querySelector('#box').style.width = '358px'; }")
    js.wait_for_function(f"() => ({plot})()[0] === {fresh[0]}", timeout=5000)
    assert js.evaluate(plot) == fresh
