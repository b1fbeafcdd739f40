"""The stepper reports k to the server at most once every few seconds, and the last k wins.

A hall of 300 students stepping along is 300 fragment reruns per round of presses unless
each browser holds its reports back; these journeys count the reports on the WebSocket.
"""

from __future__ import annotations

import math
import time

import pytest

from testkit.stepper import ready, reported_steps, step_of, wait_status, wait_url_step
from tests.browser.conftest import assert_no_exception, page_errors, timeout_ms, wait_idle

pytestmark = pytest.mark.browser
EVERY_S = 5.0  # SYNC_EVERY_MS in ui/stepper_assets/sync.js
QUERY = "data=lecture-notes-example-4-points&init=typed&w1=0.2&b=-0.1&eta=0.1"


@pytest.fixture
def wire(browser, server_url):
    """A page whose every WebSocket frame sent to the server is kept, from the first one."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms(20_000))
    sent: list[bytes] = []
    tab.on("websocket", lambda ws: ws.on(
        "framesent", lambda frame: sent.append(frame if isinstance(frame, bytes) else b"")))
    tab.goto(f"{server_url}/?{QUERY}")
    wait_idle(tab)
    ready(tab)
    yield tab, sent
    context.close()


def test_many_presses_send_few_reports_and_the_address_ends_on_the_last_step(wire):
    page, sent = wire
    wait_status(page, "Step 0 / 20")
    start = len(sent)
    page.evaluate("""() => {  // a burst of 6 presses in one go: one report, after them
      for (let i = 0; i < 6; i++) {
        window.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
      }
    }""")
    wait_status(page, "Step 6 / 20")
    wait_url_step(page, 6)
    first = time.monotonic()
    assert reported_steps(sent[start:]) == [6]
    for _ in range(8):  # then a press every ~0.6 s, each past the idle delay of 0.5 s
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(600)
    pressed = time.monotonic() - first
    wait_status(page, "Step 14 / 20")
    wait_url_step(page, 14)
    reports = reported_steps(sent[start:])
    # without the throttle each of the 8 spaced presses is a report of its own
    assert len(reports) <= 2 + math.floor(pressed / EVERY_S), (reports, pressed)
    assert len(reports) < 1 + 8
    assert reports[-1] == 14
    assert reports == sorted(reports)
    assert step_of(page) == 14
    assert_no_exception(page)
    assert not page_errors(page)


def test_hiding_the_tab_reports_at_once_and_a_late_reply_does_not_rewind(wire):
    page, sent = wire
    start = len(sent)
    page.keyboard.press("ArrowRight")
    wait_url_step(page, 1)
    for _ in range(3):  # within the throttle window: held back
        page.keyboard.press("ArrowRight")
    wait_status(page, "Step 4 / 20")
    reported = page.evaluate("""() => {
      const s = document.querySelector('.pl-stepper').parentElement.__plStepper;
      const held = s.sync.synced;
      Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
      return [held, s.sync.synced];
    }""")
    assert reported == [1, 4]  # held back while pressing, sent the moment the tab hides
    wait_url_step(page, 4)
    # the reply to the report of step 4 re-sends the element: the page keeps its own k
    page.keyboard.press("ArrowRight")
    wait_status(page, "Step 5 / 20")
    wait_idle(page)
    assert step_of(page) == 5
    assert reported_steps(sent[start:])[:2] == [1, 4]
    assert_no_exception(page)


def test_leaving_the_page_reports_at_once(wire):
    page, sent = wire
    start = len(sent)
    page.keyboard.press("ArrowRight")
    wait_url_step(page, 1)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_status(page, "Step 3 / 20")
    reported = page.evaluate("""() => {
      const s = document.querySelector('.pl-stepper').parentElement.__plStepper;
      const held = s.sync.synced;
      window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: false}));
      return [held, s.sync.synced];
    }""")
    assert reported == [1, 3]  # held back by the throttle, sent as the page goes
    wait_url_step(page, 3)
    assert reported_steps(sent[start:]) == [1, 3]
    assert not page_errors(page)
