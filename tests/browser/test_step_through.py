"""Journeys through the step-through lesson in a real headless Chromium: keys, maths, link."""

from __future__ import annotations

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import record
from datasets.builtin import BUILTIN, noisy, separable
from testkit.stepper import (
    boundary,
    numbers,
    ready,
    reported_steps,
    status,
    step_of,
    wait_status,
    wait_url_step,
)
from tests.browser.conftest import ARTIFACTS, assert_no_exception, page_errors, settle, wait_idle
from ui.url_state import decode_points
from viz.maths import num

pytestmark = pytest.mark.browser
NOTES = "data=lecture-notes-example-4-points&init=typed&w1=0.2&b=-0.1&eta=0.1"


def open_link(page, server_url, query: str) -> None:
    page.goto(f"{server_url}/?{query}")
    wait_idle(page)
    ready(page)


def load_notes_example(page) -> None:
    page.get_by_role("button", name="Lecture notes' example").click()
    settle(page)
    wait_status(page, "Step 0 / 20")
    ready(page)


def test_keys_step_back_next_and_home_and_the_address_follows(page):
    load_notes_example(page)
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    wait_status(page, "Step 2 / 20 · epoch 1 · 2 mistakes · still learning")
    assert "Step 2, epoch 1" in page.locator(".pl-explain").inner_text()
    line = boundary(page)  # after step 2: w = (0.3, 0), b = -0.1, so x1 = 1/3
    assert line["x1"] == pytest.approx(1 / 3, abs=0.01)
    assert line["x2"] == pytest.approx(1 / 3, abs=0.01)
    page.keyboard.press("ArrowLeft")
    wait_status(page, "Step 1 / 20")
    wait_url_step(page, 1)
    page.keyboard.press("n")  # step 2 is the next mistake
    wait_status(page, "Step 2 / 20")
    page.keyboard.press("N")  # steps 3 (correct) skipped: 4 is a mistake
    wait_status(page, "Step 4 / 20 · epoch 1 · 3 mistakes")
    wait_url_step(page, 4)
    page.keyboard.press("Home")
    wait_status(page, "Step 0 / 20")
    wait_url_step(page, 0)
    page.screenshot(path=ARTIFACTS / "step_through.png", full_page=True)
    assert_no_exception(page)
    assert not page_errors(page)


def test_fast_presses_all_count_and_send_nothing_until_the_student_stops(fresh_tab, server_url):
    page = fresh_tab  # opened on the link alone, in a context of its own (its socket heard)
    sent = []
    # listening before the page opens its WebSocket: every frame it sends is seen
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda frame: sent.append(frame if isinstance(frame, bytes) else b"")))
    open_link(page, server_url, NOTES)
    wait_status(page, "Step 0 / 20")
    assert sent  # the listener sees this page's socket
    start = len(sent)
    for _ in range(9):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)  # a student's fast presses, 150 ms apart
    wait_status(page, "Step 9 / 20")  # no press lost
    wait_url_step(page, 9)  # a report after the last press
    reports = reported_steps(sent[start:])
    # not one per press: one when the student stops (and, on a machine so loaded that two
    # presses come more than the idle delay apart, one more in between), the last one wins
    assert len(reports) <= 2 and reports[-1] == 9 and reports == sorted(reports), reports
    page.keyboard.press("End")  # not a stepper key: nothing happens
    assert step_of(page) == 9


def test_a_boundary_outside_the_view_gets_an_edge_marker(tab, server_url):
    page = tab  # opened on the link alone
    # w = (1, 0), b = -5: the boundary x1 = 5 lies right of the points (x1 <= 2.5 in view)
    open_link(page, server_url, NOTES.replace("w1=0.2&b=-0.1", "w1=1&b=-5"))
    wait_status(page, "Step 0 / ")
    assert boundary(page) is None
    marker = page.locator(".pl-plane .pl-overlay text.pl-offview-text")
    assert marker.get_attribute("visibility") == "visible"
    distance = float(marker.text_content().split()[-2])  # "boundary [≈ ]2.2 away"
    right = page.evaluate("""() => [...document.querySelector('.pl-plane .js-plotly-plot')
                                    ._fullLayout.xaxis.range].sort((p, q) => p - q)[1]""")
    assert distance == pytest.approx(5 - right, abs=1e-6)  # the view's edge to x1 = 5
    slider = page.locator(".pl-slider")
    slider.fill(slider.get_attribute("max"))  # converged: the boundary separates the points
    page.wait_for_function("""() => document.querySelector(
        '.pl-plane .pl-overlay text.pl-offview-text').getAttribute('visibility') === 'hidden'""")
    assert boundary(page) is not None
    assert not page_errors(page)


def test_keys_still_work_after_a_sidebar_change_but_not_while_typing(page):
    load_notes_example(page)
    page.get_by_test_id("stSidebar").get_by_text("Learn a bias b").click()
    settle(page)
    ready(page)
    page.keyboard.press("ArrowRight")
    wait_status(page, "Step 1 / ")
    field = page.get_by_label("Learning rate η")
    field.click()
    field.press("ArrowRight")
    field.press("ArrowLeft")
    field.press("Home")
    assert step_of(page) == 1


def expected_numbers(X, y, trace, k, eta, bias) -> list[str]:
    """The numbers of step k as viz.maths writes them, in the page's order."""
    if k == 0:
        w, b = trace.W[0], trace.b[0]
        return [num(w[0]), num(abs(w[1])), num(abs(b)), "0"] if np.any(w != 0) else [num(b)]
    i = int(trace.index[k])
    x, label = X[i], float(y[i])
    wb, bb, wa, ba, a = trace.W[k - 1], trace.b[k - 1], trace.W[k], trace.b[k], trace.activation[k]
    out = [num(wb[0]), num(x[0]), num(wb[1]), num(x[1])]
    out += [num(abs(bb))] if bias else []
    out += [num(a), num(label), num(a), num(label * a), "0"]
    if trace.updated[k]:
        out += [*map(num, wb), num(eta), num(label), *map(num, x), *map(num, wa)]
        if bias:
            out += [num(bb), num(abs(eta * label)), num(ba)]
    if np.any(wa != 0):
        out += [num(wa[0]), num(abs(wa[1])), num(abs(ba)), "0"]
    return out


TIES = "100000.5,1,+;-123456.5,2,-;0.5,-2.5,+;3,0.000244140625,-"
CASES = [
    # the lecture notes' example, generated data, noise, and points whose numbers tie in "%.6g"
    (NOTES, BUILTIN["Lecture notes' example: 4 points"](), dict(eta=0.1, init=((0.2, 0.0), -0.1))),
    ("data=separable-generator&n=40&eta=0.3", separable(40, 0.2, 0), dict(eta=0.3)),
    ("data=noisy-blobs-generator&n=40&eta=0.7", noisy(40, 0.5, 0), dict(eta=0.7)),
    (f"pts={TIES.replace('+', '%2B')}&eta=0.5", decode_points(TIES, None), dict(eta=0.5)),
]


@pytest.mark.parametrize(("query", "data", "run"), CASES)
def test_the_numbers_shown_are_those_of_viz_maths(tab, server_url, query, data, run):
    page = tab  # opened on the link alone
    settings = dict(order="cyclic", init="zeros", bias=True, max_epochs=50, seed=0) | run
    trace = record(perceptron(data.X, data.y, **settings))
    rng = np.random.default_rng(len(query))
    picks = sorted({0, 1, trace.steps, *rng.integers(0, trace.steps + 1, 4).tolist()})
    open_link(page, server_url, f"{query}&step={picks[-1]}")
    assert step_of(page) == picks[-1]
    page.keyboard.press("Home")
    wait_status(page, "Step 0 / ")
    for k in picks:
        page.locator(".pl-slider").fill(str(k))
        wait_status(page, f"Step {k} / {trace.steps}")
        assert numbers(page) == expected_numbers(data.X, data.y, trace, k, settings["eta"], True), k
    assert not page_errors(page)


def test_predict_mode_asks_before_the_step_and_keeps_score(page):
    load_notes_example(page)
    page.get_by_role("checkbox", name="Predict").check()
    page.keyboard.press("ArrowRight")
    quiz = page.locator(".pl-quiz")
    quiz.wait_for()
    assert "Step 1 visits example 1" in quiz.inner_text()
    assert step_of(page) == 0  # not revealed yet
    quiz.get_by_role("button", name="No mistake", exact=True).click()  # step 1 is a mistake
    wait_status(page, "Step 1 / 20")
    assert "Not quite: it was a mistake. Predictions: 0 / 1 right." in page.locator(
        ".pl-score").inner_text()
    page.keyboard.press("ArrowRight")
    quiz.get_by_role("button", name="Mistake", exact=True).click()  # step 2: a mistake, w turns
    quiz.get_by_role("button", name="clockwise").first.wait_for()
    # w = (0.1, -0.1) -> (0.3, 0): anticlockwise
    quiz.get_by_role("button", name="↺ anticlockwise").click()
    wait_status(page, "Step 2 / 20")
    assert "Right. Predictions: 1 / 2 right." in page.locator(".pl-score").inner_text()


def test_play_runs_in_the_page_and_pauses(page):
    load_notes_example(page)
    page.get_by_label("Play speed (steps per second)").select_option("30")
    page.locator(".pl-controls").get_by_role("button", name="Play", exact=True).click()
    page.screenshot(path=ARTIFACTS / "play.png")
    wait_status(page, "Step 20 / 20 · epoch 5 · 8 mistakes · converged")
    wait_url_step(page, 20)
    page.keyboard.press("Home")
    page.locator(".pl-controls").get_by_role("button", name="Play", exact=True).click()
    page.locator(".pl-controls").get_by_role("button", name="Pause", exact=True).click()
    page.locator(".pl-controls").get_by_role("button", name="Play", exact=True).wait_for()
    paused = step_of(page)  # drawn with the label: playing no more
    assert paused < 20
    page.keyboard.press("ArrowRight")  # a step from where it paused, and nothing else moves it
    wait_status(page, f"Step {paused + 1} / 20")
    page.keyboard.press("ArrowLeft")
    wait_status(page, f"Step {paused} / 20")


def test_zoom_redraws_the_overlay_through_the_axes(page):
    load_notes_example(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_status(page, "Step 2 / 20")
    page.evaluate("""() => Plotly.relayout(document.querySelector('.pl-plane .js-plotly-plot'),
                     {'xaxis.range': [0.1, 0.6], 'yaxis.range': [0.5, 1.0]})""")
    page.wait_for_function("""() => {
      const L = document.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
      return L.xaxis.range[0] === 0.1; }""")
    # still the line x1 = 1/3, now across the zoomed view
    page.wait_for_function("""() => {
      const l = document.querySelector('.pl-plane .pl-overlay line.pl-boundary');
      const L = document.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
      return Math.abs(L.yaxis.p2l(Number(l.getAttribute('y1')) - L.yaxis._offset) - 0.5) < 0.01;
    }""")
    line = boundary(page)
    assert line["x1"] == pytest.approx(1 / 3, abs=0.01)
    assert {round(line["y1"], 2), round(line["y2"], 2)} == {0.5, 1.0}


def test_upload_a_csv_and_a_bad_one(page, tmp_path):
    good = tmp_path / "my_points.csv"
    good.write_text("x1;x2;label\n0,5;1;yes\n1,5;2;no\n2;0,5;yes\n", encoding="utf-8")
    uploader = page.get_by_test_id("stFileUploaderDropzoneInput")
    uploader.set_input_files(str(good))
    sidebar = page.get_by_test_id("stSidebar")
    # the upload's rerun may not have begun after a fixed wait on a busy machine: wait for it
    page.wait_for_function("""() => document.querySelector('[data-testid="stSidebar"]')
      ?.innerText.includes('3 points · classes: −1 = no, +1 = yes')""")

    bad = tmp_path / "broken.csv"
    bad.write_text("x1,x2,label\n1,2,a\n3,,b\n", encoding="utf-8")
    uploader.set_input_files(str(bad))
    page.get_by_test_id("stAlert").first.wait_for()
    settle(page, 300)
    alert = page.get_by_test_id("stAlert").first.inner_text()
    assert "row 3, column 'x2' is empty" in alert and "previous data is kept" in alert
    assert "3 points" in sidebar.inner_text()  # the good data is still there
    ready(page)
    page.keyboard.press("ArrowRight")
    wait_status(page, "Step 1 / ")
    assert "(no)" in page.locator(".pl-explain").inner_text() or "(yes)" in page.locator(
        ".pl-explain").inner_text()
    page.screenshot(path=ARTIFACTS / "upload_error.png", full_page=True)
    assert_no_exception(page)
    assert status(page).startswith("Step 1 / ")


# the order in which the page added Plotly's script and its first chart (a stepper's box or a
# chart's), from the mutations in the order they were made
FIRST = """(() => {
  window.__firsts = [];
  const seen = (what) => !window.__firsts.includes(what) && window.__firsts.push(what);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches('script[src$="/plotly.min.js"]')) seen("plotly");
        if (node.matches('.pl-stepper, .pl-page-chart')
            || node.querySelector?.('.pl-stepper, .pl-page-chart')) seen("chart");
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""


def test_a_lesson_asks_for_its_plotly_before_its_first_chart_is_drawn(fresh_tab, server_url):
    tab = fresh_tab  # its own context: nothing cached, the init script its own
    # a chart's component mounts only once the script has run down to it; the page's first
    # message starts the load its charts then wait for (a lesson's link drew its picture
    # 0.05-0.3 s sooner, bench/lesson_open.py)
    tab.add_init_script(FIRST)
    tab.goto(f"{server_url}/margin?lecture=1")
    tab.wait_for_function("() => window.__firsts.length === 2")
    assert tab.evaluate("() => window.__firsts") == ["plotly", "chart"]


# when the page first showed a plane with its points, and when the mark of its rest to come
# (ui.rest_later) went, its rest drawn
ORDER = """(() => {
  window.__order = {};
  const seen = (what) => window.__order[what] ??= performance.now();
  new MutationObserver(() => {
    if (document.querySelector('.pl-stepper .scatterlayer .trace')) seen("picture");
    if (document.querySelector('.pl-rest-pending')) seen("pending");
    else if (window.__order.pending) seen("rest");
  }).observe(document, { childList: true, subtree: true });
})();"""


def test_a_projector_draws_the_picture_before_the_rest_and_a_press_meanwhile_holds(
        fresh_tab, server_url):
    tab = fresh_tab  # its own context: the init script its own
    # the page's first run ends at the run's plane, and the rest comes once it is drawn
    # (ui.rest_later); the notes' example pressed as soon as the plane is there keeps its
    # start when the rest arrives (a request for the rest sent while its run was on its way
    # would have the server undo what the button set)
    tab.add_init_script(ORDER)
    tab.goto(f"{server_url}/?lecture=1")
    ready(tab)
    tab.get_by_role("button", name="Lecture notes' example").press("Enter")
    settle(tab)
    wait_status(tab, "Step 0 / 20")
    tab.wait_for_function("() => window.__order.rest")
    order = tab.evaluate("() => window.__order")
    assert order["picture"] < order["rest"]
    assert tab.evaluate("() => window.plRest") == {"page": "step_through", "why": "drawn"}
    assert status(tab).startswith("Step 0 / 20")
    assert_no_exception(tab)
