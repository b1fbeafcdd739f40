"""A lesson reached through the sidebar opens at its top, whatever the scroll of the page before
(Streamlit keeps its main area's scroll from page to page: the new view showed its middle,
its title and a class's bar off the screen)."""

from __future__ import annotations

import pytest

from testkit.browser import wait_drawn
from tests.browser.conftest import assert_no_exception, settle, window
from tests.browser.views import VIEWS

pytestmark = pytest.mark.browser

MAIN_TOP = "() => document.querySelector('[data-testid=\"stMain\"]').scrollTop"


@pytest.mark.parametrize("lecture", [False, True], ids=["laptop", "projector"])
@pytest.mark.parametrize("lesson", ["Margin and the mistake bound", "Step through"],
                         ids=["another", "the same"])
def test_a_lesson_from_the_sidebar_opens_at_its_top(browser, server_url, lecture, lesson):
    with window(browser, (1280, 720)) as tab:
        tab.goto(f"{server_url}{VIEWS[0][1]}{'&lecture=1' if lecture else ''}")
        wait_drawn(tab)
        # the reader scrolls Step through down, as to reach what is under its picture
        main = tab.get_by_test_id("stMain").bounding_box()
        # (in the page's margin: a chart under the pointer may take the wheel)
        tab.mouse.move(main["x"] + 30, main["y"] + main["height"] / 2)
        tab.mouse.wheel(0, 700)
        tab.wait_for_function(f"() => ({MAIN_TOP})() > 150")
        bar = tab.get_by_test_id("stSidebar")
        if bar.get_attribute("data-collapsed") != "false":
            tab.get_by_test_id("stExpandSidebarButton").click()
        bar.get_by_role("link", name=lesson, exact=True).click()
        tab.wait_for_function("(lesson) => document.querySelector('[data-testid=\"stMain\"] h1')"
                              "?.textContent.startsWith(lesson)", arg=lesson)
        settle(tab, 300)
        wait_drawn(tab)
        assert_no_exception(tab)
        assert tab.evaluate(MAIN_TOP) == 0
        title = tab.locator("[data-testid='stMain'] h1").first.bounding_box()
        assert 0 <= title["y"] < 120, title  # the title is on the first screen, at its top
