"""The Variants lesson in a real headless Chromium: each part renders, with screenshots."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, legend_names, metric_values, settle, wait_idle

pytestmark = pytest.mark.browser


def open_part(page, server_url, part: str | None = None) -> None:
    page.set_viewport_size({"width": 1400, "height": 1700})  # the whole part in one screenshot
    page.goto(server_url + "/variants")
    wait_idle(page)
    if part is not None:
        page.get_by_role("radio", name=part).click()
        settle(page)
    page.get_by_test_id("stPlotlyChart").first.wait_for()


def assert_drawn(page, names: list[str]) -> None:
    assert page.get_by_test_id("stException").count() == 0
    assert page.locator(".js-plotly-plot").count() == 1
    shown = legend_names(page.locator(".js-plotly-plot"))
    for name in names:
        assert any(text.startswith(name) for text in shown), (name, shown)


def test_averaged_and_voted_on_noisy_blobs(page, server_url):
    open_part(page, server_url)
    page.get_by_role("button", name="Load Noisy blobs").click()
    settle(page, 800)
    assert_drawn(page, ["last: w·x + b = 0", "averaged: μ·x + μ_b = 0", "voted:",
                        "class -1, train", "class +1, test"])
    table = page.get_by_test_id("stDataFrame")
    assert table.count() == 1
    page.screenshot(path=ARTIFACTS / "variants_averaged.png", full_page=True)


def test_kernel_perceptron_on_moons_steps_with_the_keys(page, server_url):
    open_part(page, server_url, "Kernel perceptron")
    page.get_by_role("button", name="Load Moons").click()
    settle(page, 800)
    assert_drawn(page, ["boundary s(x) = 0", "class -1 (upper moon)", "class +1 (lower moon)"])
    assert page.locator(".js-plotly-plot .hm image, .js-plotly-plot .heatmaplayer image").count()
    assert "part=kernel" in page.url and "kernel=rbf" in page.url  # a link to this view
    last = metric_values(page)[0]
    assert last.split(" / ")[0] == last.split(" / ")[1]  # opens on the trained model
    page.screenshot(path=ARTIFACTS / "variants_kernel.png", full_page=True)
    page.keyboard.press("Home")
    settle(page)
    page.keyboard.press("ArrowRight")
    settle(page)
    assert metric_values(page)[0].startswith("1 / ")
    assert "Step 1, epoch 1" in page.get_by_test_id("stMain").inner_text()
    page.screenshot(path=ARTIFACTS / "variants_kernel_step.png", full_page=True)


def test_more_than_two_classes_on_iris(page, server_url):
    open_part(page, server_url, "More than two classes")
    assert_drawn(page, ["disputed: 2 or more classes claim it", "unclaimed: no class claims it",
                        "setosa", "versicolor", "virginica", "probe x"])
    page.screenshot(path=ARTIFACTS / "variants_multiclass.png", full_page=True)
