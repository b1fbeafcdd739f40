"""The non-separable lesson in a real headless Chromium: XOR's cycle, its trajectory, Play."""

from __future__ import annotations

import pytest

from testkit.stepper import ready, wait_status, wait_url_step
from tests.browser.conftest import ARTIFACTS, CHARTS, legend_names, page_errors, settle

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
    ready(page)
    charts = main.locator(CHARTS)
    charts.nth(1).wait_for()
    assert main.locator(".js-plotly-plot").count() == 3  # the stepper's, weight space, errors
    trajectory = charts.nth(0)
    assert "the loop (4 updates)" in legend_names(trajectory)
    assert "repeated weights" in legend_names(trajectory)
    # the thick loop is drawn: a path element with a visible stroke in the loop's trace
    assert trajectory.locator(".scatterlayer .trace").nth(1).locator("path.js-line").count() == 1
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_status(page, "Step 3 / 200 · epoch 1 · 3 mistakes · 2 / 4 training errors")
    wait_url_step(page, 3)  # and the weight-space chart follows the step on the server
    page.wait_for_function("""() => [...document.querySelectorAll('.js-plotly-plot')].some(
        (gd) => (gd._fullData || []).some((t) => t.name === 'weights now' && t.x[0] === 1))""")
    # a fragment rerun redraws its charts, so find the errors chart by its traces, not its place
    page.wait_for_function("""() => [...document.querySelectorAll('.js-plotly-plot')].some(
        (gd) => (gd._fullData || []).some((t) => t.name === 'last weights'))""")
    assert not page_errors(page)
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
    trajectory = main.locator(CHARTS).nth(0)
    trajectory.locator(".gl-container canvas").first.wait_for(state="attached")
    trajectory.screenshot(path=ARTIFACTS / "nonseparable_3d.png")
    ready(page)
    page.get_by_label("Play speed (steps per second)").select_option("30")
    page.locator(".pl-controls").get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("() => Number(document.querySelector('.pl-stepper').dataset.step)"
                           " >= 12")
    page.locator(".pl-controls").get_by_role("button", name="Pause", exact=True).click()
    # the points stay drawn by Plotly; only the overlay moves
    fills = page.locator(".pl-plane .scatterlayer path.point").evaluate_all(
        "els => els.map(e => getComputedStyle(e).fill)")
    assert fills.count("rgb(0, 114, 178)") == 2 and fills.count("rgb(213, 94, 0)") == 2, fills
    page.screenshot(path=ARTIFACTS / "nonseparable_play.png", full_page=True)
    assert page.get_by_test_id("stException").count() == 0
    assert not page_errors(page)
