"""A lecture room is often offline: no lesson may ask another host for anything."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.browser.conftest import assert_no_exception, wait_idle
from tests.browser.stepper import ready

pytestmark = pytest.mark.browser

LESSONS = ["", "margin", "boolean", "nonseparable", "svm", "variants", "your_data"]


def test_no_lesson_requests_another_host(browser, server_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    tab = context.new_page()
    own = urlparse(server_url).netloc
    elsewhere = []
    tab.on("request", lambda request: elsewhere.append(request.url)
           if urlparse(request.url).scheme in ("http", "https", "ws", "wss")
           and urlparse(request.url).netloc != own else None)
    for lesson in LESSONS:
        tab.goto(f"{server_url}/{lesson}?lecture=1")
        wait_idle(tab)
        assert_no_exception(tab)
    # Plotly's default modebar offers to upload a chart to its cloud: the stepper's must not
    tab.goto(server_url)
    ready(tab)
    assert tab.locator(".modebar-btn").count() > 0
    assert tab.locator('.modebar-btn[data-title^="Share chart"]').count() == 0
    context.close()
    assert elsewhere == []
