"""Journeys through the perceptron-versus-SVM lesson in a real headless Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import (
    ARTIFACTS,
    assert_no_exception,
    legend_names,
    settle,
    timeout_ms,
)

pytestmark = pytest.mark.browser

LABEL = ".slider-group > text.slider-label"


def open_lesson(page, data: str | None = None) -> None:
    page.get_by_test_id("stSidebarNav").get_by_text("Perceptron vs SVM").click()
    settle(page)
    assert page.get_by_role("heading", name="Perceptron vs SVM").count() == 1
    if data:
        page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name=data).click()
        settle(page)


def part(page, name: str) -> None:
    page.get_by_test_id("stMain").get_by_text(name, exact=True).first.click()
    settle(page)


def test_losses_and_soft_margin_render(page):
    open_lesson(page, "Noisy blobs (generator)")
    chart = page.get_by_test_id("stPlotlyChart").first
    chart.locator(".js-plotly-plot").wait_for()
    names = legend_names(chart)
    assert "hinge max(0, 1 − z)" in names and "perceptron max(0, −z)" in names
    assert "logistic log₂(1 + e^−z)" in names
    page.get_by_test_id("stMain").get_by_text("log base e", exact=True).click()
    settle(page)
    assert "logistic ln(1 + e^−z)" in legend_names(page.get_by_test_id("stPlotlyChart").first)
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_losses.png")

    part(page, "Soft margin")
    charts = page.get_by_test_id("stPlotlyChart")
    assert charts.count() == 3
    assert "slack ξₙ (to its margin line)" in legend_names(charts.first)
    assert "Not separable" in page.get_by_test_id("stMain").inner_text()
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_soft_margin.png")
    assert_no_exception(page)


def test_step_by_step_then_both_animations_play(page):
    page.set_viewport_size({"width": 1400, "height": 1700})  # both runs and their maths at once
    open_lesson(page, "Separable (generator)")
    part(page, "Train side by side")
    assert page.get_by_test_id("stPlotlyChart").count() == 3  # two runs and the lambda sweep
    page.get_by_role("heading", name="Perceptron vs SVM").click()  # keys go to the page
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        settle(page, 300)
    assert page.get_by_test_id("stMetricValue").first.inner_text().startswith("3 / ")
    assert "Step 3: example 2" in page.get_by_test_id("stMain").inner_text()
    names = legend_names(page.get_by_test_id("stPlotlyChart").nth(1))
    assert "maximum-margin boundary" in names and "its margins w·x + b = ±1" in names
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_step.png")

    page.get_by_test_id("stMain").get_by_text("Play", exact=True).first.click()
    settle(page, 800)
    charts = page.get_by_test_id("stPlotlyChart")
    assert charts.count() == 2
    for k in range(2):
        chart = charts.nth(k)
        label = chart.locator(LABEL)
        label.wait_for()
        assert label.text_content().startswith("start")
        play = chart.locator(".updatemenu-button").filter(has_text="Play")
        play.wait_for()
        # the frame label moves on from "start": this animation plays (a click that lands
        # while the chart is still being laid out on a busy machine is tried again)
        for attempt in range(3):
            play.click()
            try:
                page.wait_for_function("el => /^t=\\d+/.test(el.textContent)",
                                       arg=label.element_handle(), timeout=timeout_ms(8_000))
                break
            except PlaywrightTimeout:
                if attempt == 2:
                    raise
    texts = [charts.nth(k).locator(LABEL).text_content() for k in range(2)]
    assert "mistakes" in texts[0] and "violations" in texts[1]
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_play.png")
    assert_no_exception(page)
