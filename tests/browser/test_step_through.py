"""Journeys through the step-through lesson in a real headless Chromium."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, assert_no_exception, metric_values, settle

pytestmark = pytest.mark.browser


def load_notes_example(page) -> None:
    page.get_by_role("button", name="Load the lecture notes' worked example").click()
    settle(page)


def test_arrow_keys_step_and_go_back(page):
    load_notes_example(page)
    assert metric_values(page)[0] == "0 / 20"
    for _ in range(2):
        page.keyboard.press("ArrowRight")
        settle(page)
    assert metric_values(page)[:3] == ["2 / 20", "1", "2"]
    explanation = page.get_by_test_id("stMain").inner_text()
    assert "Step 2, epoch 1" in explanation
    page.keyboard.press("ArrowLeft")
    settle(page)
    assert metric_values(page)[0] == "1 / 20"
    page.keyboard.press("ArrowRight")
    settle(page)
    page.screenshot(path=ARTIFACTS / "step_through.png", full_page=True)
    assert_no_exception(page)


def test_upload_a_csv_and_a_bad_one(page, tmp_path):
    good = tmp_path / "my_points.csv"
    good.write_text("x1;x2;label\n0,5;1;yes\n1,5;2;no\n2;0,5;yes\n", encoding="utf-8")
    uploader = page.get_by_test_id("stFileUploaderDropzoneInput")
    uploader.set_input_files(str(good))
    settle(page, 800)
    sidebar = page.get_by_test_id("stSidebar")
    assert "3 points · classes: −1 = no, +1 = yes" in sidebar.inner_text()

    bad = tmp_path / "broken.csv"
    bad.write_text("x1,x2,label\n1,2,a\n3,,b\n", encoding="utf-8")
    uploader.set_input_files(str(bad))
    settle(page, 800)
    alert = page.get_by_test_id("stAlert").first.inner_text()
    assert "row 3, column 'x2' is empty" in alert and "previous data is kept" in alert
    assert "3 points" in sidebar.inner_text()  # the good data is still there
    page.keyboard.press("ArrowRight")
    settle(page)
    assert metric_values(page)[0].startswith("1 / ")
    page.screenshot(path=ARTIFACTS / "upload_error.png", full_page=True)
    assert_no_exception(page)


def test_play_animates_in_the_browser(page):
    load_notes_example(page)
    page.get_by_role("radio", name="Play").click()
    settle(page, 800)
    chart = page.get_by_test_id("stPlotlyChart")
    chart.wait_for()
    label = chart.locator(".slider-group > text.slider-label")
    assert label.text_content().startswith("start")
    chart.locator(".updatemenu-button").filter(has_text="Play").click()
    page.wait_for_function(
        """() => /t=(1[0-9]|20) /.test(
                 document.querySelector('.slider-group > text.slider-label')?.textContent ?? '')""",
    )
    page.screenshot(path=ARTIFACTS / "play.png", full_page=True)
    assert_no_exception(page)
