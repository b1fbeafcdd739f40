"""The next slide's picture at the clicker's press: a projector giving a lecture prepares the
next slide out of sight, and PageDown shows it over the page at once while the page runs the
slide; the page's own picture takes over once drawn. In a class, the press gives the class the
prepared slide's view and its run at once, and the page then says nothing more. (The time it
takes is bench/'s: bench/slide_switch.py; here, what is shown, heard, and that it goes.)"""

from __future__ import annotations

import pytest

import lessons
from classroom import plan as plans
from testkit.browser import timeout_ms, wait_drawn
from testkit.class_journey import PHONE, PROJECTOR, open_page, start_class
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


# two stepping views, each a run of its own (the follower page draws runs)
TWO = plans.to_link(plans.Plan(slides=(
    plans.Slide(view="data=xor-1", title="XOR"),
    plans.Slide(view="data=lecture-notes-example-4-points&lesson=margin", title="Margin",
                step=2))))


def test_in_a_class_pagedown_gives_the_class_the_prepared_slide_and_its_run(browser,
                                                                            server_url):
    errors: list[str] = []
    context, page = open_page(browser, f"{server_url}/?plan={TWO}&lecture=1", PROJECTOR,
                              errors)
    phone_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        code = start_class(page)
        phone = phone_context.new_page()
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(f"{server_url}/follow?class={code}")
        phone.wait_for_function("() => typeof window.__plFollow?.run === 'string'",
                                timeout=timeout_ms(30_000))
        before = phone.evaluate("() => [window.__plFollow.viewSeq, window.__plFollow.run]")
        page.wait_for_function("() => window.__plPlan?.ready", timeout=timeout_ms(60_000))
        page.locator('[data-testid="stMain"] h1').first.click()  # the page has the focus
        page.keyboard.press("PageDown")
        # what the prepared page offered, sent with the key: its view and its kept run
        ahead = page.evaluate("() => window.__plPlan.shown?.ahead ?? null")
        assert ahead is not None, "the press sent nothing prepared"
        assert "lesson=margin" in ahead["view"] and ahead["run"] != before[1], ahead
        # the follower page draws that run, heard as the class's next view
        phone.wait_for_function("(run) => window.__plFollow.run === run", arg=ahead["run"],
                                timeout=timeout_ms(30_000))
        page.locator("iframe.pl-prepare-shown").wait_for(state="detached",
                                                          timeout=timeout_ms(60_000))
        wait_drawn(page)
        # the page's own run of the slide found its view the class's: one view, that run
        after = phone.evaluate("() => [window.__plFollow.viewSeq, window.__plFollow.run]")
        assert after == [before[0] + 1, ahead["run"]], (before, after)
        step = phone.evaluate("() => document.querySelector('main.pl-follow .pl-stepper')"
                              ".dataset.step")
        assert step == "2"  # the slide's step
    finally:
        phone_context.close()
        context.close()
    assert errors == []
