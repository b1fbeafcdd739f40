"""ui/rest_later.py's script: a projector's page asks for its rest once its picture is drawn
and the page is still, and never while a request the page sent has had no run begin after it
(the request for the rest carries the page's widget values: sent before the server had
answered a button, it undid the button, and the notes' example's start was lost on a loaded
server)."""

from __future__ import annotations

import pytest

from ui.rest_later import JS

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><body>
<div data-testid="stApp" data-test-script-state="notRunning">
  <div data-testid="stMain"><div class="js-plotly-plot"><svg><g class="scatterlayer">
    <g class="trace"></g></g></svg></div></div>
  <div id="box"></div>
</div>
<script type="module">
%s
window.asked = [];
window.mount = (data) => mountRest({ parentElement: document.getElementById("box"), data,
  setTriggerValue: (name, value) => window.asked.push([name, value, performance.now()]) });
window.send = () => {  // a message over a socket, as Streamlit's page sends one
  try { WebSocket.prototype.send.call({}, "x"); } catch { /* no socket: only its record */ }
};
window.run = () => {  // a run the server began and ended
  const app = document.querySelector('[data-testid="stApp"]');
  app.setAttribute("data-test-script-state", "running");
  setTimeout(() => app.setAttribute("data-test-script-state", "notRunning"), 30);
};
</script></body></html>"""
DATA = {"page": "margin", "wait": 4000, "quiet": 100, "answer": 2500}


@pytest.fixture
def rest(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_content(PAGE % JS.replace("export default function", "window.mountRest = function"))
    page.wait_for_function("() => typeof window.mount === 'function'")
    yield page
    context.close()


def asked_after(page, ms: int) -> list:
    page.wait_for_timeout(ms)
    return page.evaluate("() => window.asked.map(([name, value]) => [name, value])")


def test_a_still_page_with_its_picture_asks_for_its_rest_once(rest):
    rest.evaluate("(data) => mount(data)", DATA)
    rest.wait_for_function("() => window.asked.length === 1")
    assert asked_after(rest, 300) == [["drawn", "margin"]]
    assert rest.evaluate("() => window.plRest") == {"page": "margin", "why": "drawn"}


def test_a_request_not_yet_answered_holds_the_rest_until_a_run_begins(rest):
    rest.evaluate("(data) => { mount(data); send(); }", DATA)
    assert asked_after(rest, 800) == []  # still for 8 times QUIET, and no run since the send
    rest.evaluate("() => run()")
    rest.wait_for_function("() => window.asked.length === 1")


def test_a_request_no_run_answers_holds_the_rest_back_a_while_only(rest):
    start = rest.evaluate("(data) => { mount(data); send(); return performance.now(); }", DATA)
    rest.wait_for_function("() => window.asked.length === 1", timeout=10_000)
    waited = rest.evaluate("() => window.asked[0][2]") - start
    assert DATA["answer"] <= waited < DATA["answer"] + 2000


def test_a_run_begun_before_the_send_does_not_answer_it(rest):
    rest.evaluate("(data) => { mount(data); }", {**DATA, "quiet": 400})
    rest.evaluate("() => { run(); setTimeout(send, 100); }")
    assert asked_after(rest, 1200) == []
    rest.evaluate("() => run()")
    rest.wait_for_function("() => window.asked.length === 1")


def test_a_burst_page_asks_at_a_moment_within_its_spread(rest):
    """A class's first screen in a burst (ui/first_screen.py's spread): its rest at a random
    moment within the spread, not at once; with Math.random pinned, exactly there."""
    rest.evaluate("() => { Math.random = () => 0.5; }")
    start = rest.evaluate("(data) => { mount(data); return performance.now(); }",
                          {**DATA, "spread": 2000})
    assert asked_after(rest, 600) == []
    rest.wait_for_function("() => window.asked.length === 1", timeout=10_000)
    waited = rest.evaluate("() => window.asked[0][2]") - start
    assert 1000 <= waited < 1000 + 1500


def test_a_burst_page_whose_reader_reaches_for_more_asks_once_still(rest):
    start = rest.evaluate("(data) => { mount(data); return performance.now(); }",
                          {**DATA, "spread": 60_000})
    rest.wait_for_timeout(300)
    rest.mouse.wheel(0, 200)  # the reader scrolls for the rest of the page
    rest.wait_for_function("() => window.asked.length === 1", timeout=10_000)
    assert rest.evaluate("() => window.asked[0][2]") - start < 5000
