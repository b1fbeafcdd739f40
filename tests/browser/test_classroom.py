"""Classroom journeys: the exported animation plays offline; lecture mode reads from afar."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, settle, timeout_ms, wait_idle

pytestmark = pytest.mark.browser


def test_exported_animation_plays_offline(page, browser, tmp_path):
    page.get_by_role("button", name="Load the lecture notes' worked example").click()
    settle(page, 500)
    page.get_by_role("radio", name="Play").click()
    settle(page, 800)
    with page.expect_download() as download:
        page.get_by_role("button", name="Animation (HTML, plays offline)").click()
    exported = tmp_path / "run.html"
    download.value.save_as(exported)
    with page.expect_download() as download:
        page.get_by_role("button", name="Every step (CSV)").click()
    steps = download.value.path().read_text()
    assert steps.splitlines()[4].startswith("3,1,2,1.5,0,1,0.35,False,0.3,0,-0.1,2")

    offline = browser.new_context(offline=True)
    player = offline.new_page()
    player.goto(exported.as_uri())
    player.wait_for_selector(".js-plotly-plot")
    label = "document.querySelector('.slider-group > text.slider-label').textContent"
    assert player.evaluate(f"() => {label}") == "start"
    player.locator(".updatemenu-button").filter(has_text="Play").click()
    player.wait_for_function(f"() => /t=1?[0-9] /.test({label})", timeout=timeout_ms(15_000))
    player.screenshot(path=ARTIFACTS / "offline_animation.png")
    offline.close()


def test_lecture_link_opens_large_with_the_settings_tucked_away(browser, server_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{server_url}/?lecture=1&data=lecture-notes-example-4-points&t=2")
    wait_idle(page)
    settle(page, 800)
    size = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert size == "21px"
    assert page.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "true"
    assert page.get_by_test_id("stMetricValue").first.inner_text().startswith("2 / ")
    assert page.get_by_role("button", name="Load the lecture notes' worked example").count() == 0
    page.get_by_role("button", name="Keys").click()
    assert "Next mistake" in page.get_by_test_id("stPopoverBody").inner_text()
    page.keyboard.press("Escape")
    page.screenshot(path=ARTIFACTS / "lecture_mode.png")
    assert page.get_by_test_id("stException").count() == 0
    context.close()
