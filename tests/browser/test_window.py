"""The window every one-person journey of a kind takes in turn (conftest.window) hands the next
journey nothing of the last: a sidebar opened by hand (Streamlit keeps it in localStorage) once
made the next projector's lesson open beside its settings."""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_idle, window

pytestmark = pytest.mark.browser


def test_a_window_taken_again_keeps_nothing_of_the_journey_before(browser, server_url):
    with window(browser, (1280, 720)) as tab:
        tab.goto(server_url)
        wait_idle(tab)
        tab.evaluate("""() => { localStorage.setItem('left', '1');
                                sessionStorage.setItem('left', '1');
                                document.cookie = 'left=1; path=/'; }""")
        first = tab
    with window(browser, (1024, 768)) as tab:
        assert tab is first  # the same tab, taken again
        tab.goto(server_url)
        wait_idle(tab)
        assert tab.evaluate("""() => [localStorage.getItem('left'),
                                      sessionStorage.getItem('left'),
                                      document.cookie.includes('left=')]""") == [None, None, False]
        assert tab.evaluate("() => [innerWidth, innerHeight]") == [1024, 768]
