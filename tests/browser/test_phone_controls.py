"""A phone's stepper (390 x 844, a touch screen): the chart first, under it the status line,
the slider and one row of the main controls; the speed of Play and Predict behind More, a
disclosure a finger and a keyboard open and shut; the Keys and Share row and the lesson's own
settings under the run, each still working by touch."""

from __future__ import annotations

import pytest

from scripts.screenshots import NOTES
from testkit.stepper import ready, step_of, wait_status
from tests.browser.conftest import wait_for_state
from tests.browser.test_access import PHONE, opened

pytestmark = pytest.mark.browser

# Where the stepper's parts and the Streamlit rows around it stand (tops and bottoms, px).
PLACES = """() => {
  const box = document.querySelector('.pl-stepper');
  const at = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; };
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    plane: at(box.querySelector('.pl-plane')), slider: at(box.querySelector('.pl-slider')),
    status: at(box.querySelector('.pl-status')), controls: at(box.querySelector('.pl-controls')),
    maths: at(box.querySelector('.pl-explain')),
    keys: at([...main.querySelectorAll('[data-testid="stPopoverButton"]')]
      .find((b) => b.textContent.includes('Keys'))),
    notes: at([...main.querySelectorAll('button')].find((b) => b.checkVisibility()
      && b.getBoundingClientRect().height > 0 && b.textContent.includes("Lecture notes' example"))),
    visible: [...box.querySelectorAll('.pl-controls > *')].filter((el) => el.checkVisibility())
      .map((el) => el.getAttribute('aria-label') || el.className),
  };
}"""


def expanded(tab) -> str | None:
    return tab.locator(".pl-more").first.get_attribute("aria-expanded")


def test_a_phone_has_one_row_and_the_rest_behind_more(browser, server_url):
    with opened(browser, server_url, f"/?{NOTES}&step=2", size=PHONE, touch=True) as tab:
        ready(tab)
        at = tab.evaluate(PLACES)
        # the chart, the status line under it, the slider, the controls, the maths
        assert at["plane"][1] <= at["status"][0] + 1, at
        assert at["status"][1] <= at["slider"][0] + 1, at
        assert at["slider"][1] <= at["controls"][0] + 1, at
        assert at["controls"][1] <= at["maths"][0] + 1, at
        # what the lesson draws over the run goes under it: Keys and Share, the notes' example
        assert at["keys"][0] >= at["maths"][0], at
        assert at["notes"][0] >= at["keys"][0], at
        assert at["visible"] == ["Back", "Step", "Next mistake", "Reset", "Play",
                                 "More controls"]
        more = tab.locator(".pl-more").first
        speed, predict = tab.locator(".pl-speed").first, tab.locator(".pl-toggle").first
        assert expanded(tab) == "false" and not speed.is_visible() and not predict.is_visible()

        # a tap opens More: the speed and Predict show, and each works by touch
        more.tap()
        assert expanded(tab) == "true"
        speed.wait_for(state="visible")
        assert tab.evaluate(PLACES)["visible"][-2:] == ["Play speed (steps per second)",
                                                         "pl-toggle pl-extra"]
        speed.select_option("10")
        assert speed.input_value() == "10"
        predict.tap()
        assert tab.locator(".pl-toggle input").first.is_checked()
        k = step_of(tab)
        tab.locator(".pl-step").first.tap()  # Predict asks before the step is shown
        tab.locator(".pl-quiz").first.wait_for(state="visible")
        predict.tap()
        assert not tab.locator(".pl-toggle input").first.is_checked()
        tab.locator(".pl-step").first.tap()
        wait_status(tab, f"Step {k + 1} /")

        # a second tap shuts it
        more.tap()
        assert expanded(tab) == "false"
        speed.wait_for(state="hidden")

        # by keyboard: Enter opens, Tab reaches the speed, Escape shuts and gives More the focus
        more.focus()
        tab.keyboard.press("Enter")
        assert expanded(tab) == "true"
        tab.keyboard.press("Tab")
        assert tab.evaluate("() => document.activeElement.classList.contains('pl-speed')")
        tab.keyboard.press("Escape")
        assert expanded(tab) == "false"
        speed.wait_for(state="hidden")
        assert tab.evaluate("() => document.activeElement.classList.contains('pl-more')")

        # Share, under the run, opens by touch
        share = tab.get_by_test_id("stMain").get_by_test_id("stPopoverButton").filter(
            has_text="Share").first
        share.scroll_into_view_if_needed()
        share.tap()
        tab.get_by_test_id("stPopoverBody").first.wait_for(state="visible")


def test_a_window_widened_from_a_phone_has_its_controls_back_in_place(browser, server_url):
    """Widened past a phone's width, short of a laptop's (where the plane stands beside them;
    test_screens opens a tablet on its side): the controls over the chart again, every one
    shown, More gone; narrowed again: the phone's order."""
    with opened(browser, server_url, f"/?{NOTES}&step=2", size=PHONE, touch=True) as tab:
        ready(tab)
        tab.locator(".pl-more").first.tap()
        tab.set_viewport_size({"width": 900, "height": 768})
        tab.wait_for_function("() => !document.querySelector('.pl-more').checkVisibility()")
        # the stepper's order follows its box, which Streamlit lays out again a moment after
        # the window (on a loaded machine, frames later): wait for that state, then measure
        wait_for_state(tab, f"""() => {{ const at = ({PLACES})();
          return at.controls[1] <= at.status[0] + 1 && at.status[1] <= at.plane[0] + 1; }}""",
                       ms=10_000)
        at = tab.evaluate(PLACES)
        assert at["controls"][1] <= at["status"][0] + 1 and at["status"][1] <= at["plane"][0] + 1
        assert "More controls" not in at["visible"]
        assert at["visible"][-3:] == ["Play speed (steps per second)", "pl-toggle pl-extra",
                                      "Step"]
        assert expanded(tab) == "false"
        tab.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        tab.wait_for_function("() => document.querySelector('.pl-more').checkVisibility()")
        wait_for_state(tab, f"""() => {{ const at = ({PLACES})();
          return at.plane[1] <= at.status[0] + 1 && at.slider[1] <= at.controls[0] + 1; }}""",
                       ms=10_000)
        at = tab.evaluate(PLACES)
        assert at["plane"][1] <= at["status"][0] + 1 and at["slider"][1] <= at["controls"][0] + 1
