"""A lecturer's link to one lesson may be the first thing a fresh server ever shows."""

from __future__ import annotations

import contextlib

import pytest

from testkit.servers import streamlit_server
from testkit.stepper import ready
from tests.browser.conftest import timeout_ms

pytestmark = pytest.mark.browser

TITLES = ["Step through", "Margin and the mistake bound", "Boolean functions and XOR",
          "Non-separable data", "Perceptron vs SVM", "Variants", "Your data"]


@contextlib.contextmanager
def first_visit(browser, path: str):
    """A new server, and a tab whose visit to ``path`` is the server's very first."""
    with streamlit_server(name="first-open") as (url, _):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        tab = context.new_page()
        tab.set_default_timeout(timeout_ms(60_000))
        tab.goto(f"{url}/{path}")
        ready(tab)
        yield tab
        context.close()


def test_a_fresh_server_opened_at_a_lesson_runs_the_app_around_it(browser):
    with first_visit(browser, "margin") as tab:
        # the app's own navigation, with the lessons' titles; never a list of script names
        nav = tab.locator('[data-testid="stSidebarNav"]')
        nav.wait_for(state="attached")
        names = [" ".join(t.split()) for t in nav.locator("a").all_inner_texts()]
        # each link is the icon's ligature, then the title
        assert [n.split(" ", 1)[1] for n in names] == TITLES


def test_a_fresh_server_opened_in_lecture_mode_keeps_the_sidebar_closed(browser):
    with first_visit(browser, "step_through?lecture=1") as tab:
        sidebar = tab.locator('[data-testid="stSidebar"]')
        assert sidebar.get_attribute("data-collapsed") == "true"
