"""The margin and Boolean lessons in a real headless Chromium: their figures render."""

from __future__ import annotations

import pytest

from testkit.stepper import boundary, ready, status, step_of, wait_status, wait_url_step
from tests.browser.conftest import ARTIFACTS, assert_no_exception, page_errors, settle

pytestmark = pytest.mark.browser


def open_lesson(page, name: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
    settle(page, 800)


def snap(page, name: str, height: int = 2600) -> None:
    """A screenshot of a tall window: Streamlit scrolls inside the page, not the page."""
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": height})
    settle(page, 600)
    page.screenshot(path=ARTIFACTS / name, full_page=True)
    page.set_viewport_size(size)
    settle(page, 300)


def trace_names(page, chart: int) -> list[str]:
    """The names of the traces Plotly drew in the chart-th figure."""
    return page.evaluate(
        "i => document.querySelectorAll('.js-plotly-plot')[i].data.map(t => t.name || '')",
        chart)


def wait_for_charts(page, count: int) -> None:
    """Wait until ``count`` charts, no more, are drawn (a chart has several .main-svg layers of
    its own): a rerun under load keeps its stale charts on the page until it ends."""
    page.wait_for_function(
        """n => { const plots = [...document.querySelectorAll('.js-plotly-plot')];
                  return plots.length === n && plots.every(p => p.querySelector('.main-svg')); }""",
        arg=count)


def metric(page, label: str) -> str:
    """The value of the metric with this label."""
    block = page.get_by_test_id("stMetric").filter(has_text=label).first
    return block.get_by_test_id("stMetricValue").inner_text()


def band_corners(page) -> list[list[float]]:
    """The stepper's margin band as data coordinates, [] when it draws none."""
    return page.evaluate("""() => {
      const band = document.querySelector('.pl-plane .pl-overlay polygon.pl-band');
      if (!band || band.getAttribute('visibility') === 'hidden') return [];
      const L = document.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
      return band.getAttribute('points').trim().split(' ').map((p) => p.split(',').map(Number))
        .map(([x, y]) => [L.xaxis.p2l(x - L.xaxis._offset), L.yaxis.p2l(y - L.yaxis._offset)]);
    }""")


def test_margin_lesson_draws_bands_ball_and_proof(page):
    open_lesson(page, "Margin and the mistake bound")
    ready(page)
    page.locator(".pl-controls").get_by_role("button", name="Next mistake").click()
    page.keyboard.press("N")  # the keyboard shortcut: step 2, the second mistake
    wait_status(page, "Step 2 / 52 · epoch 1 · 2 mistakes · margin −∞")
    assert band_corners(page) == []  # no band: this boundary does not separate
    wait_url_step(page, 2)
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stMetric]')]"
                           ".some((m) => m.textContent.includes('Margin of this boundary'))")
    assert metric(page, "Margin of this boundary") == "−∞"
    wait_for_charts(page, 3)
    assert page.locator(".js-plotly-plot").count() == 3  # stepper, maximum margin, proof
    current = trace_names(page, 0)
    assert any(name.startswith("ball of radius R") for name in current)
    maximum = trace_names(page, 1)
    assert any(name.startswith("maximum-margin separator") for name in maximum)
    assert "support vectors" in maximum
    assert {"u·wₜ", "‖wₜ‖²"} <= set(trace_names(page, 2))
    assert metric(page, "Bound R²/γ²") == "81"  # the notes' 4 points: R = 3, gamma = 1/3

    page.locator(".pl-slider").fill("52")
    wait_status(page, "Step 52 / 52 · epoch 13 · 22 mistakes · margin ")
    text = status(page)
    assert text.endswith("· converged")
    margin = float(text.split("margin ≈ ")[1].split(" ")[0])  # a length: a float, "≈"
    wait_url_step(page, 52)
    page.wait_for_function("m => [...document.querySelectorAll('[data-testid=stMetric]')].some("
                           "(b) => b.textContent.includes('Margin of this boundary') && "
                           "b.textContent.includes(m))", arg=f"{margin:g}"[:5])
    # a length through a square root, rounded in writing: "≈", as the status line writes it
    shown = metric(page, "Margin of this boundary")
    assert shown.startswith("≈ ") and float(shown[2:]) == pytest.approx(margin, rel=1e-4)
    assert len(band_corners(page)) >= 3
    assert boundary(page) is not None and "Step 52, epoch 13" in page.locator(
        ".pl-explain").inner_text()
    assert not page_errors(page)

    page.get_by_role("button", name="Run the experiment").click()
    settle(page, 1500)
    wait_for_charts(page, 4)
    assert "mistakes = bound (y = x)" in trace_names(page, 3)
    snap(page, "margin_experiment.png", 4000)

    page.get_by_role("radio", name="Overlaid").click()
    settle(page, 500)
    ready(page)
    page.wait_for_function("() => document.querySelector('.pl-plane .js-plotly-plot')"
                           ".data.some((t) => t.name === 'support vectors')")
    assert step_of(page) == 52  # the same run: the page kept its step

    page.get_by_role("radio", name="Side by side").click()
    settle(page, 500)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Separable (generator)").click()
    settle(page, 800)
    wait_status(page, "Step 0 / ")
    page.keyboard.press("End")  # not a stepper key
    page.locator(".pl-slider").press("End")  # the slider's own key: to the last step
    page.wait_for_function("() => document.querySelector('.pl-status').textContent"
                           ".endsWith('· converged')")
    assert len(band_corners(page)) >= 3 and boundary(page) is not None
    snap(page, "margin_separable.png", 2200)
    assert not page_errors(page)
    assert_no_exception(page)


def test_boolean_lesson_draws_the_plane_the_best_line_and_the_lift(page):
    """Its parts one at a time, picked in the row under the title: the weights' plane, then
    XOR's best line, the lift (3-D and back in the plane) and the training's verdict."""
    open_lesson(page, "Boolean functions and XOR")
    wait_for_charts(page, 1)  # the weights' plane alone: the part the page opens on
    assert "w₁x₁ + w₂x₂ + b = 0" in trace_names(page, 0)
    main = page.get_by_test_id("stMain")
    assert "4 / 4" in page.get_by_test_id("stMetricValue").all_inner_texts()
    snap(page, "boolean.png", 1400)

    page.get_by_role("radio", name="XOR", exact=True).click()
    settle(page, 500)
    assert page.get_by_test_id("stMetricValue").all_inner_texts() == ["3 / 4"]  # OR's line
    box = page.get_by_test_id("stNumberInput").first.locator("input")
    box.fill("0")  # a = 20 x2 - 10: wrong on (1, 0) and (1, 1)
    box.press("Enter")
    settle(page, 500)
    assert page.get_by_test_id("stMetricValue").first.inner_text() == "2 / 4"
    snap(page, "boolean_xor.png", 1400)

    main.get_by_text("Why not XOR", exact=True).click()
    settle(page, 500)
    wait_for_charts(page, 1)
    assert page.get_by_test_id("stMetricValue").all_inner_texts() == ["3 / 4"]  # the best line
    assert "a best line" in trace_names(page, 0)
    main.get_by_text("A new feature", exact=True).click()
    settle(page, 500)
    wait_for_charts(page, 2)  # 3-D, and the curve in the plane
    assert page.locator(".js-plotly-plot").nth(0).locator(".gl-container, canvas").count() > 0
    assert "w₁x₁ + w₂x₂ + w₃x₁x₂ + b = 0" in trace_names(page, 1)
    main.get_by_text("Train on each", exact=True).click()
    settle(page, 500)
    assert "It never converges" in main.inner_text()
    assert_no_exception(page)
