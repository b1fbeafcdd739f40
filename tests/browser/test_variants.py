"""The Variants lesson in a real headless Chromium: each part renders, with screenshots."""

from __future__ import annotations

import numpy as np
import pytest

from core.kernel import Kernel, KernelModel, kernel_perceptron
from core.perceptron import perceptron
from core.trace import record
from core.variants import running_average, train_test_split
from datasets.builtin import noisy
from datasets.shapes import moons
from testkit.stepper import boundary, ready, wait_status, wait_url_step
from tests.browser.conftest import (
    ARTIFACTS,
    legend_names,
    metric_values,
    page_errors,
    settle,
    wait_idle,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def page(tab):
    """Each test here opens its own address first: no lesson is opened before it."""
    return tab


def open_part(page, server_url, part: str | None = None) -> None:
    page.set_viewport_size({"width": 1400, "height": 1700})  # the whole part in one screenshot
    page.goto(server_url + "/variants")
    wait_idle(page)
    if part is not None:
        page.get_by_role("radio", name=part).click()
        settle(page)
    page.locator(".js-plotly-plot").first.wait_for()


def assert_drawn(page, names: list[str], *, charts: int = 1, chart: int = 0) -> None:
    assert page.get_by_test_id("stException").count() == 0
    assert page.locator(".js-plotly-plot").count() == charts
    shown = legend_names(page.locator(".js-plotly-plot").nth(chart))
    for name in names:
        assert any(text.startswith(name) for text in shown), (name, shown)


def assert_step_ready(page) -> None:
    """On arrival Step, Next mistake and Play can be pressed; Back and Reset cannot."""
    controls = page.locator(".pl-controls")
    for name in ("Step", "Next mistake", "Play"):
        assert controls.get_by_role("button", name=name, exact=True).is_enabled(), name
    for name in ("Back", "Reset"):
        assert controls.get_by_role("button", name=name, exact=True).is_disabled(), name


def drawn(page, selector: str) -> int:
    """How many of the plane overlay's marks match ``selector`` and are shown."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(
        '.pl-plane .pl-overlay ' + selector)].filter((e) => e.getAttribute('visibility')
        !== 'hidden' && (e.tagName !== 'path' || e.getAttribute('d'))).length""", selector)


def on_line(segment: dict, w, b) -> None:
    """Both ends of a drawn segment lie on w.x + b = 0 (to a pixel's worth)."""
    scale = abs(w[0]) + abs(w[1])
    for x, y in ((segment["x1"], segment["y1"]), (segment["x2"], segment["y2"])):
        assert abs(w[0] * x + w[1] * y + b) / scale < 0.05, (segment, w, b)


def averaged_line(page) -> dict | None:
    """The overlay's averaged boundary in data coordinates, or None when hidden."""
    return page.evaluate("""() => {
      const line = document.querySelector('.pl-plane .pl-overlay line.pl-averaged');
      if (!line || line.getAttribute('visibility') === 'hidden') return null;
      const L = document.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
      const a = (n) => Number(line.getAttribute(n));
      const x = (n) => L.xaxis.p2l(a(n) - L.xaxis._offset);
      const y = (n) => L.yaxis.p2l(a(n) - L.yaxis._offset);
      return {x1: x('x1'), y1: y('y1'), x2: x('x2'), y2: y('y2')};
    }""")


def test_averaged_and_voted_step_in_the_browser(page, server_url):
    data = noisy(200, 0.7, 0)
    train, _ = train_test_split(200, 0.3, 0)
    trace = record(perceptron(data.X[train], data.y[train], max_epochs=50, seed=0))
    W_avg, b_avg = running_average(trace)
    K = trace.steps
    open_part(page, server_url)
    page.get_by_role("button", name="Load Noisy blobs").click()
    wait_status(page, f"Step 0 / {K} · epoch 0 · 0 mistakes")  # a new run opens at its start
    ready(page)
    assert_step_ready(page)
    shown = legend_names(page.locator(".pl-plane .js-plotly-plot"))
    for name in ["last: w·x + b = 0", "averaged: μ·x + μ_b = 0", "class -1, train",
                 "class +1, test"]:
        assert name in shown, (name, shown)
    assert page.get_by_test_id("stDataFrame").count() == 1
    assert averaged_line(page) is None  # mu = 0 before the first visit
    assert drawn(page, "path.pl-voted") == 0  # nor a vote
    wait_url_step(page, 0)
    page.keyboard.press("ArrowRight")
    wait_status(page, f"Step 1 / {K} · epoch 1 · 1 mistake ")
    on_line(boundary(page), trace.W[1], trace.b[1])
    on_line(averaged_line(page), W_avg[1], b_avg[1])
    assert drawn(page, "path.pl-voted") == 1  # one vector, one vote: its own line
    page.keyboard.press("n")
    k = int(trace.update_positions[1])
    wait_status(page, f"Step {k} / {K} · epoch {trace.epoch[k]} · 2 mistakes")
    page.keyboard.press("ArrowLeft")
    wait_status(page, f"Step {k - 1} / {K}")
    on_line(boundary(page), trace.W[k - 1], trace.b[k - 1])
    on_line(averaged_line(page), W_avg[k - 1], b_avg[k - 1])
    wait_url_step(page, k - 1)  # and the server's panels follow
    page.wait_for_function("(k) => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some((e) => e.textContent.startsWith(k + ' / '))", arg=k - 1)
    assert not page_errors(page)
    page.screenshot(path=ARTIFACTS / "variants_averaged.png", full_page=True)


REGIONS = """() => {
  // the painted regions: the chart's axis ranges and each canvas cell's sign (-1, 0, +1)
  const canvas = document.querySelector('.pl-plane canvas.pl-regions');
  const L = document.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const signs = [];
  for (let j = 0; j < data.length; j += 4) {
    signs.push(data[j + 3] === 0 ? 0 : data[j] > 100 ? 1 : -1);
  }
  const sorted = (r) => [...r].sort((p, q) => p - q);
  return {n: canvas.width, xr: sorted(L.xaxis.range), yr: sorted(L.yaxis.range), signs};
}"""


def assert_regions(page, data, kernel, alpha) -> None:
    """The canvas's cells have the sign of core's s(x) at their centres (bar cells on s = 0)."""
    shown = page.evaluate(REGIONS)
    n, (x0, x1), (y0, y1) = shown["n"], shown["xr"], shown["yr"]
    xs = x0 + (np.arange(n) + 0.5) * (x1 - x0) / n
    ys = y1 - (np.arange(n) + 0.5) * (y1 - y0) / n  # row 0 is the top
    gx, gy = np.meshgrid(xs, ys)
    values = KernelModel(data.X, data.y, alpha, kernel).decision(np.c_[gx.ravel(), gy.ravel()])
    expected = np.sign(values).astype(int)
    got = np.asarray(shown["signs"])
    near = np.abs(values) < 1e-6 * max(1.0, float(np.abs(values).max()))
    assert np.all((got == expected) | near), np.sum(got != expected)


def test_kernel_perceptron_on_moons_steps_in_the_browser(page, server_url):
    data = moons(200, 0.1, 0)
    kernel = Kernel("rbf", width=0.4)
    steps = list(kernel_perceptron(data.X, data.y, kernel=kernel, max_epochs=50, seed=0))
    K = len(steps)
    open_part(page, server_url, "Kernel perceptron")
    page.get_by_role("button", name="Load Moons").click()
    wait_status(page, f"Step 0 / {K}")  # opens at its start, Step ready
    ready(page)
    assert_step_ready(page)
    page.locator(".pl-slider").fill(str(K))  # the trained model
    wait_status(page, f"Step {K} / {K}")
    assert "part=kernel" in page.url and "kernel=rbf" in page.url  # a link to this view
    shown = legend_names(page.locator(".pl-plane .js-plotly-plot"))
    assert "class -1 (upper moon)" in shown and "class +1 (lower moon)" in shown, shown
    assert_regions(page, data, kernel, steps[-1].w)
    assert drawn(page, "path.pl-boundary") == 1  # s(x) = 0
    assert drawn(page, "circle.pl-alpha") == np.count_nonzero(steps[-1].w)  # a disc per alpha > 0
    page.screenshot(path=ARTIFACTS / "variants_kernel.png", full_page=True)
    page.keyboard.press("Home")
    wait_status(page, f"Step 0 / {K} · epoch 0 · 0 mistakes")
    assert set(page.evaluate(REGIONS)["signs"]) == {0}  # every alpha = 0: s = 0 everywhere
    wait_url_step(page, 0)
    page.keyboard.press("ArrowRight")
    wait_status(page, f"Step 1 / {K} · epoch 1 · 1 mistake ")
    assert_regions(page, data, kernel, steps[0].w)
    page.keyboard.press("n")
    k = next(t for t in range(2, K + 1) if steps[t - 1].updated)
    wait_status(page, f"Step {k} / {K}")
    assert_regions(page, data, kernel, steps[k - 1].w)
    page.keyboard.press("ArrowLeft")
    wait_status(page, f"Step {k - 1} / {K}")
    assert_regions(page, data, kernel, steps[k - 2].w)
    wait_url_step(page, k - 1)  # and the server's maths follow
    page.wait_for_function("(k) => document.querySelector('[data-testid=stMain]').innerText"
                           ".includes('Step ' + k + ', epoch')", arg=k - 1)
    assert metric_values(page)[0] == f"{k - 1} / {K}"
    assert not page_errors(page)
    page.screenshot(path=ARTIFACTS / "variants_kernel_step.png", full_page=True)


def test_more_than_two_classes_on_iris(page, server_url):
    open_part(page, server_url, "More than two classes")
    assert_drawn(page, ["disputed: 2 or more classes claim it", "unclaimed: no class claims it",
                        "setosa", "versicolor", "virginica", "probe x"], charts=2)
    assert_drawn(page, ["tie in the vote", "y_setosa,versicolor(x) = 0", "setosa", "probe x"],
                 charts=2, chart=1)  # one-vs-one beside one-vs-rest
    page.screenshot(path=ARTIFACTS / "variants_multiclass.png", full_page=True)
