"""mount.js: the component's mount, as Streamlit calls it: a run mounted, sent again after a
rerun, replaced by another, mounted without the keys, and left (its element gone)."""

from __future__ import annotations

import pytest

from datasets.builtin import noisy
from tests.browser.js.test_stepper import MOUNT, SETTINGS, mount, packed, step_of

pytestmark = pytest.mark.browser


def test_the_same_run_sent_again_keeps_its_step_and_one_press_is_one_step(page):
    text, _ = packed()
    mount(page, text)
    page.keyboard.press("ArrowRight")
    for _ in range(3):
        page.evaluate(MOUNT, ["s1", text])  # Streamlit re-sends the element after a rerun
    page.evaluate(MOUNT, ["s1", None])
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2


def test_a_new_run_opens_where_it_is_told(page):
    text, _ = packed()
    mount(page, text)
    page.keyboard.press("ArrowRight")
    page.locator(".pl-toggle input").check()
    page.keyboard.press("ArrowRight")  # Predict asks before the step
    assert page.locator(".pl-quiz").is_visible()
    other, _ = packed(noisy(20, 0.8, 3), {**SETTINGS, "init": "zeros"}, start=4)
    page.evaluate(MOUNT, ["s1", other])
    assert step_of(page) == 4
    assert not page.locator(".pl-quiz").is_visible()  # the question was the old run's


def test_a_stepper_without_the_keys_leaves_them_alone(page):
    text, _ = packed(keys=False)
    mount(page, text)
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 0
    titles = page.locator(".pl-controls button").evaluate_all("(b) => b.map((n) => n.title)")
    assert titles[:2] == ["Back", "Step"]
    page.locator(".pl-step").click()
    assert step_of(page) == 1
    assert "Press Step to visit" not in page.locator(".pl-explain").inner_text()


def test_leaving_the_page_reports_and_stops_listening(page):
    text, _ = packed()
    mount(page, text)
    page.keyboard.press("ArrowRight")
    page.evaluate("() => { document.getElementById('s1').remove(); window.cleanups.s1(); }")
    assert page.evaluate("() => window.reports.map(([, v]) => v.k)") == [1]
    assert not page.evaluate("() => document.documentElement.classList.contains('pl-lecture-page')")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.reports.length") == 1


def test_a_views_new_stepper_keeps_the_page_it_lays_out_when_the_old_one_goes(page):
    # Streamlit mounts the next view's stepper before it cleans the last one up: the page's
    # projector layout is the new stepper's until it too goes
    text, _ = packed(lecture=True)
    lecture_page = "() => document.documentElement.classList.contains('pl-lecture-page')"
    mount(page, text, "s1")
    mount(page, text, "s2")
    page.evaluate("() => { document.getElementById('s1').remove(); window.cleanups.s1(); }")
    assert page.evaluate(lecture_page)
    page.evaluate("() => { document.getElementById('s2').remove(); window.cleanups.s2(); }")
    assert not page.evaluate(lecture_page)
