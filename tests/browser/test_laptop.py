"""Every lesson on a laptop's screen, without lecture mode: no legend on an axis title and no
text clipped or cut short, and nothing serious to WCAG's automatic checks (axe-core) in the
light theme or the dark one (the projector's own checks are in test_lecture.py)."""

from __future__ import annotations

import pytest

from scripts.screenshots import wait_drawn
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS, assert_no_exception, timeout_ms
from tests.browser.test_lecture import CHART_TEXT, CUT_TEXT, VIEWS

pytestmark = pytest.mark.browser

SIZES = [(1440, 900), (1280, 720)]
AUDITED = (1280, 720)  # as in lecture mode (test_lecture.py)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=lambda v: str(v))
@pytest.mark.parametrize(("name", "link"), [view[:2] for view in VIEWS],
                         ids=[view[0] for view in VIEWS])
def test_a_lesson_on_a_laptop(browser, server_url, name, link, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms(60_000))
    try:
        tab.goto(f"{server_url}{link}")
        wait_drawn(tab)
        assert_no_exception(tab)
        tab.screenshot(path=ARTIFACTS / f"laptop_{name}_{width}x{height}.png")
        assert tab.evaluate(CUT_TEXT) == []
        assert tab.evaluate(CHART_TEXT, 0)["overlaps"] == [], "legend on an axis title"
        if (width, height) == AUDITED:  # WCAG's automatic checks, light and dark
            assert_accessible(tab, f"{name}-laptop", dark=True)
    finally:
        context.close()
