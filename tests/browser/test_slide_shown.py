"""The next slide's picture at the clicker's press: a projector giving a lecture prepares the
next slide out of sight, and PageDown shows it over the page at once while the page runs the
slide; the page's own picture takes over once drawn. (The time it takes is bench/'s:
bench/slide_switch.py; here, what is shown and that it goes.)"""

from __future__ import annotations

import pytest

import lessons
from classroom import plan as plans
from testkit.browser import timeout_ms, wait_drawn
from testkit.class_journey import PROJECTOR, open_page
from tests.browser.test_lecture_plan import BAR, wait_slide

pytestmark = pytest.mark.browser

NOTES, _ = plans.builtin("notes", catalogue=lessons.plan_catalogue())

# at the press, in the same task as the key: what covers the page, and what it shows
AT_PRESS = """() => {
  const frame = document.querySelector('iframe.pl-prepare-shown');
  if (!frame) return null;
  const r = frame.getBoundingClientRect(), doc = frame.contentDocument;
  const title = doc?.querySelector('[data-testid="stMain"] h1')?.textContent ?? null;
  const plot = doc?.querySelector('[data-testid="stMain"] .js-plotly-plot');
  const bar = document.querySelector('.pl-slide-bar');
  const main = document.querySelector('[data-testid="stMain"]');
  return {cover: r.left === 0 && r.top === 0 && r.width === innerWidth
                 && r.height === innerHeight && getComputedStyle(frame).visibility === 'visible',
          title, drawn: Boolean(plot?._fullLayout), href: frame.contentWindow.location.href,
          barOver: Number(getComputedStyle(bar).zIndex) > Number(getComputedStyle(frame).zIndex),
          // the page's own (its main area, and whatever it layers) lies under the frame
          under: Number(getComputedStyle(frame).zIndex)
            > (Number(getComputedStyle(main).zIndex) || 0)};
}"""


def test_pagedown_shows_the_prepared_slide_at_once_and_the_page_takes_over(browser,
                                                                           server_url):
    errors: list[str] = []
    context, page = open_page(browser, f"{server_url}/?plan=notes&lecture=1", PROJECTOR,
                              errors)
    try:
        wait_slide(page, 1)
        wait_drawn(page)
        # slide 2 (Boolean's AND) prepared: its page drawn in a frame out of sight
        page.wait_for_function("() => window.__plPlan?.ready", timeout=timeout_ms(60_000))
        hidden = page.locator("iframe.pl-prepare")
        assert hidden.count() == 1 and not hidden.is_visible()
        page.keyboard.press("PageDown")
        shown = page.evaluate(AT_PRESS)
        assert shown is not None, "nothing was shown at the press"
        assert shown["cover"] and shown["under"] and shown["barOver"], shown
        assert shown["drawn"] and shown["title"].startswith("Boolean functions"), shown
        assert "/boolean?" in shown["href"] and "lecture=1" in shown["href"]
        # the bar says the slide at once; the page's own slide takes over and the frame goes
        page.wait_for_function(f"() => document.querySelector('{BAR}').textContent"
                               ".startsWith('slide 2 / ')")
        page.locator("iframe.pl-prepare-shown").wait_for(state="detached",
                                                          timeout=timeout_ms(60_000))
        wait_slide(page, 2)
        assert page.locator('[data-testid="stMain"] h1').first.inner_text().startswith(
            "Boolean functions")
        # back: nothing prepared that way, nothing shown; the slide before opens as before
        page.keyboard.press("PageUp")
        assert page.evaluate(AT_PRESS) is None
        wait_slide(page, 1)
    finally:
        context.close()
    assert errors == []
