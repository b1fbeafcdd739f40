"""Classroom journeys: the exported run steps offline; lecture mode reads from afar."""

from __future__ import annotations

import pytest

from testkit.stepper import numbers, ready, wait_status
from tests.browser.conftest import ARTIFACTS, settle, wait_idle

pytestmark = pytest.mark.browser


def test_the_exported_run_steps_offline(page, browser, tmp_path):
    page.get_by_role("button", name="Lecture notes' example").click()
    settle(page, 500)
    wait_status(page, "Step 0 / 20")
    with page.expect_download() as download:
        page.get_by_role("button", name="The run (HTML, steps offline)").click()
    exported = tmp_path / "run.html"
    download.value.save_as(exported)
    with page.expect_download() as download:
        page.get_by_role("button", name="Every step (CSV)").click()
    steps = download.value.path().read_text()
    # step 3 visits the notes' example 3 (counted from 1, as the notes count), x = (1.5, 0)
    assert steps.splitlines()[4].startswith("3,1,3,1.5,0,1,0.35,False,0.3,0,-0.1,2")

    offline = browser.new_context(offline=True)
    player = offline.new_page()
    player.goto(exported.as_uri())
    ready(player)
    wait_status(player, "Step 0 / 20")
    for _ in range(3):
        player.keyboard.press("ArrowRight")
    wait_status(player, "Step 3 / 20 · epoch 1 · 2 mistakes")
    assert numbers(player)[-6:-4] == ["0.35", "0"]  # y·a = 0.35 > 0, then the boundary
    player.locator(".pl-controls").get_by_role("button", name="Play", exact=True).click()
    wait_status(player, "Step 20 / 20 · epoch 5 · 8 mistakes · converged")
    player.screenshot(path=ARTIFACTS / "offline_run.png")
    offline.close()


def test_lecture_link_opens_large_with_the_settings_tucked_away(browser, server_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{server_url}/?lecture=1&data=lecture-notes-example-4-points&step=2")
    wait_idle(page)
    ready(page)
    size = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert size == "21px"
    assert page.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "true"
    wait_status(page, "Step 2 / ")
    assert page.locator(".pl-stepper.pl-lecture").count() == 1
    # the notes' example stays one click away on a projector (issue 13)
    assert page.get_by_role("button", name="Lecture notes' example").count() == 1
    page.get_by_role("button", name="Keys").click()
    assert "Next mistake" in page.get_by_test_id("stPopoverBody").inner_text()
    page.keyboard.press("Escape")
    page.screenshot(path=ARTIFACTS / "lecture_mode.png")
    assert page.get_by_test_id("stException").count() == 0
    context.close()
