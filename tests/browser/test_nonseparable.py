"""The non-separable lesson in a real headless Chromium: XOR's cycle, its trajectory, Play."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, legend_names, settle

pytestmark = pytest.mark.browser


def open_lesson(page) -> None:
    page.get_by_test_id("stSidebarNav").get_by_text("Non-separable data").click()
    settle(page)
    page.get_by_role("button", name="XOR (0/1)", exact=True).click()
    settle(page, 600)


def test_xor_cycle_banner_trajectory_and_steps(page):
    open_lesson(page)
    main = page.get_by_test_id("stMain")
    banner = page.get_by_test_id("stAlert").first.inner_text()
    assert ("Cycle found: the weights at the start of epoch 2 equal those at epoch 1 "
            "(period 1 epoch, 4 updates).") in banner
    assert main.locator(".katex").count() >= 4  # the repeated weights and the sums
    charts = main.get_by_test_id("stPlotlyChart")
    charts.nth(2).wait_for()
    assert main.locator(".js-plotly-plot").count() == 3
    trajectory = charts.nth(1)
    assert "the loop (4 updates)" in legend_names(trajectory)
    assert "repeated weights" in legend_names(trajectory)
    # the thick loop is drawn: a path element with a visible stroke in the loop's trace
    assert trajectory.locator(".scatterlayer .trace").nth(1).locator("path.js-line").count() == 1
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        settle(page)
    values = main.get_by_test_id("stMetricValue").all_inner_texts()
    assert values[:3] == ["3", "1", "3"]  # step 3 of epoch 1, three mistakes so far
    assert "last weights" in legend_names(charts.nth(2))
    page.set_viewport_size({"width": 1400, "height": 2300})
    settle(page, 800)
    page.screenshot(path=ARTIFACTS / "nonseparable.png", full_page=True)
    assert page.get_by_test_id("stException").count() == 0


def test_three_d_and_play(page):
    page.set_viewport_size({"width": 1400, "height": 1900})
    open_lesson(page)
    page.get_by_text("3-D: (w₁, w₂, b)").click()
    settle(page, 800)
    main = page.get_by_test_id("stMain")
    trajectory = main.get_by_test_id("stPlotlyChart").nth(1)
    trajectory.locator(".gl-container canvas").first.wait_for(state="attached")
    settle(page, 1500)
    trajectory.screenshot(path=ARTIFACTS / "nonseparable_3d.png")
    page.get_by_role("radio", name="Play").click()
    settle(page, 800)
    animation = main.get_by_test_id("stPlotlyChart").first
    label = animation.locator(".slider-group > text.slider-label")
    assert label.text_content().startswith("start")
    animation.locator(".updatemenu-button").filter(has_text="Play").click()
    page.wait_for_function(
        """() => /t=([5-9]|[1-9][0-9]) /.test(
                 document.querySelector('.slider-group > text.slider-label')?.textContent ?? '')""",
    )
    # the frames move the boundary only: both classes' points are still drawn
    animation.locator(".updatemenu-button").filter(has_text="Pause").click()
    page.wait_for_timeout(600)
    fills = animation.locator(".scatterlayer path.point").evaluate_all(
        "els => els.filter(e => e.getBoundingClientRect().width > 0)"
        "          .map(e => getComputedStyle(e).fill)")
    assert fills.count("rgb(0, 114, 178)") >= 2 and fills.count("rgb(213, 94, 0)") >= 2, fills
    page.screenshot(path=ARTIFACTS / "nonseparable_play.png", full_page=True)
    assert page.get_by_test_id("stException").count() == 0
