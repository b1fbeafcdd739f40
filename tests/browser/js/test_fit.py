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
