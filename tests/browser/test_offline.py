"""A lecture room is often offline: no lesson may ask another host for anything (every view is
opened with its requests watched by tests/browser/test_screens.py's projector journey); and
the stepper's chart offers nothing that needs one."""

from __future__ import annotations

import pytest

from testkit.stepper import ready
from tests.browser.projector import watch_hosts

pytestmark = pytest.mark.browser


def test_the_steppers_toolbar_offers_no_upload_to_the_cloud(tab, server_url):
    # Plotly's default modebar offers to upload a chart to its cloud: the stepper's must not
    elsewhere = watch_hosts(tab, server_url.split("//", 1)[1])
    tab.goto(server_url)
    ready(tab)
    assert tab.locator(".modebar-btn").count() > 0
    assert tab.locator('.modebar-btn[data-title^="Share chart"]').count() == 0
    elsewhere.stop()
    assert elsewhere == []
