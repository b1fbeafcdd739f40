"""fit.js: a chart follows its box's width, which Plotly's own resize does not do once the
layout holds a height."""

from __future__ import annotations

import pytest

from tests.browser.js.conftest import ORIGIN

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
  for (const [width, under] of [[360, true], [700, false]]) {  // a phone, then a laptop
    box.style.width = `${width}px`;
    await pl.fitWidth(gd, Plotly, pl.legendFor(legend, under));
    out.push(seen());
  }
  box.remove();
  // any other legend stays where its figure has it
  out.push(pl.legendFor({ orientation: "h", y: -0.2 }, true).orientation,
           pl.legendFor({ orientation: "v", x: 0.02 }, true).x);
  return out;
}"""


def test_a_legend_beside_the_plot_goes_under_it_in_a_narrow_box_and_comes_back(js):
    js.evaluate(WIDTHS, ORIGIN)  # Plotly loaded
    got = js.evaluate(LEGENDS)
    assert got[0][:2] == [700, "v"]
    assert got[1] == [360, "h", "container", "top"]  # under the plot, its title above
    assert got[2][:2] == [700, "v"] and got[2][2] == "paper"
    assert got[3:] == ["h", 0.02]
