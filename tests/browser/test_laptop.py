"""Every lesson on a laptop's screen, without lecture mode: no legend on an axis title and no
text clipped or cut short, nothing serious to WCAG's automatic checks (axe-core) in the
light theme or the dark one, and headings that skip no level (the projector's own checks
are in test_lecture.py)."""

from __future__ import annotations

import pytest

from scripts.screenshots import wait_drawn
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS, assert_no_exception, timeout_ms
from tests.browser.test_lecture import CHART_TEXT, CUT_TEXT, VIEWS

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (1440, 900)]  # opened at the first, then the window grows
# the main area's headings in order, as a screen reader lists them: (level, words)
HEADINGS = """() => [...document.querySelectorAll(
  '[data-testid="stMain"] :is(h1, h2, h3, h4, h5, h6)')]
  .map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 40)])"""


@pytest.mark.parametrize(("name", "link"), [view[:2] for view in VIEWS],
                         ids=[view[0] for view in VIEWS])
def test_a_lesson_on_a_laptop(browser, server_url, name, link):
    context = browser.new_context(viewport=dict(zip(("width", "height"), SIZES[0],
                                                    strict=True)))
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms(60_000))
    try:
        tab.goto(f"{server_url}{link}")
        for width, height in SIZES:
            tab.set_viewport_size({"width": width, "height": height})
            wait_drawn(tab)
            assert_no_exception(tab)
            tab.screenshot(path=ARTIFACTS / f"laptop_{name}_{width}x{height}.png")
            assert tab.evaluate(CUT_TEXT) == [], f"{width} x {height}"
            assert tab.evaluate(CHART_TEXT, 0)["overlaps"] == [], \
                f"legend on an axis title at {width} x {height}"
            if (width, height) == SIZES[0]:  # WCAG's automatic checks, light and dark
                assert_accessible(tab, f"{name}-laptop", dark=True)
                levels = tab.evaluate(HEADINGS)
                assert levels and levels[0][0] == 1, levels
                skipped = [words for (level, words), (above, _)
                           in zip(levels[1:], levels[:-1], strict=True) if level > above + 1]
                assert skipped == [], f"headings that skip a level: {levels}"
    finally:
        context.close()
