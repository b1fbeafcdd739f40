"""The pair layer: a follower beside its leader takes its steps, says nothing, and lines up."""

from __future__ import annotations

import base64

import pytest

from core.descent import svm_sgd
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import separable
from tests.browser.js.conftest import GAP, open_page
from ui.stepper import pack, perceptron_run

pytestmark = pytest.mark.browser

# two runs side by side, as the lesson places them, each in half the page (a run given as
# null: its box is left empty)
MOUNT = """([lead, follow]) => {
  window.reports = [];
  const roots = ["lead", "follow"].map((id) => pl.html("div", {
    id, style: "display: inline-block; vertical-align: top; width: 48%" }, document.body));
  [lead, follow].forEach((text, i) => text && pl.mountStepper({
    parentElement: roots[i], data: pl.bytes(text),
    setStateValue: (name, value) => window.reports.push([roots[i].id, value.k]) }));
}"""
READY = """() => Array.from(document.querySelectorAll(".pl-stepper")).every((box) =>
  box.dataset.step !== undefined && box.querySelector(".js-plotly-plot")?._fullLayout)"""
STATE = """() => {
  const box = (id) => document.querySelector(`#${id} .pl-stepper`);
  const top = (node) => node.getBoundingClientRect().top;
  const [lead, follow] = [box("lead"), box("follow")];
  return {
    classes: [lead.className, follow.className], group: lead.dataset.plLead,
    steps: [lead.dataset.step, follow.dataset.step],
    status: [top(lead.querySelector(".pl-status")), top(follow.querySelector(".pl-status"))],
    charts: [top(lead.querySelector(".pl-plane")), top(follow.querySelector(".pl-plane"))],
    across: lead.style.getPropertyValue("--pl-pair-width"),
    span: follow.getBoundingClientRect().right - lead.getBoundingClientRect().left,
    height: follow.querySelector(".js-plotly-plot").layout.height,
    room: innerHeight - top(follow.querySelector(".pl-plane")),
    head: follow.querySelector(".pl-explain .pl-head")?.textContent ?? null,
  };
}"""


def runs() -> tuple[str, str]:
    data = separable(30, 0.2, 0)
    svm_settings = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=0, max_epochs=20)
    svm = record(svm_sgd(data.X, data.y, **svm_settings))
    per = record(perceptron(data.X, data.y, eta=1.0, max_epochs=20))
    n = max(svm.steps, per.steps)
    left = perceptron_run(data, per.padded(n), dict(eta=1.0, bias=True),
                          outcome(per, data.X, data.y, max_epochs=20))
    right = perceptron_run(data, svm.padded(n), svm_settings,
                           outcome(svm, data.X, data.y, max_epochs=20),
                           descent={"lam": 0.01, "eta0": 1.0})
    return tuple(base64.b64encode(pack({**run.header, "run": run.id, "start": 0, **extra},
                                       run.columns)).decode()
                 for run, extra in ((left, {"lead": "g", "keys": True}),
                                    (right, {"follow": "g", "keys": False})))


@pytest.fixture
def page(browser, request):
    page = open_page(browser)
    # a laptop's window (the harness's own), or one narrower than a wide window (fit.js)
    page.set_viewport_size({"width": getattr(request, "param", 1280), "height": 800})
    page.evaluate(MOUNT, list(runs()))
    page.wait_for_function(READY)
    page.wait_for_timeout(300)  # the first resize has placed them
    yield page
    assert not page.errors
    page.context.close()


def test_the_follower_takes_the_leaders_steps_and_only_the_leader_reports(page):
    for key, k in (("ArrowRight", 1), ("ArrowRight", 2), ("n", None), ("Home", 0)):
        page.keyboard.press(key)
        # both drawn at the leader's new step (after n, any step past 2)
        page.wait_for_function("""(k) => {
          const [a, b] = Array.from(document.querySelectorAll(".pl-stepper"),
                                    (box) => Number(box.dataset.step));
          return a === b && (k === null ? a > 2 : a === k);
        }""", arg=k)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.reports.length > 0")  # once the student stops
    page.keyboard.press("ArrowRight")
    # hiding the tab or leaving the page reports at once: the leader's step, the leader alone
    page.evaluate("""() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
      delete document.visibilityState;
      window.dispatchEvent(new PageTransitionEvent("pagehide"));
    }""")
    assert page.evaluate("() => window.reports") == [["lead", 1], ["lead", 2]]


def test_a_follower_mounted_after_its_leader_stepped_starts_at_the_leaders_step(browser):
    page = open_page(browser)
    try:
        lead, follow = runs()
        page.evaluate(MOUNT, [lead, None])  # the leader alone, as a busy page may have it
        page.wait_for_function(READY)
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#lead .pl-stepper')"
                               ".dataset.step === '3'")
        page.evaluate("""(text) => pl.mountStepper({
          parentElement: document.querySelector('#follow'), data: pl.bytes(text),
          setStateValue: () => {} })""", follow)
        page.wait_for_function(READY)
        assert page.evaluate("""() => Array.from(document.querySelectorAll('.pl-stepper'),
                                                 (box) => box.dataset.step)""") == ["3", "3"]
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("page, foot, share", [(1280, 150, 0.64), (980, 0, 0.58)],
                         indirect=["page"])
def test_the_two_stand_level_and_the_leaders_controls_reach_across_both(page, foot, share):
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('#follow .pl-stepper').dataset.step === '1'")
    got = page.evaluate(STATE)
    assert got["classes"] == ["pl-stepper pl-pair", "pl-stepper pl-pair pl-follower"]
    assert got["group"] == "g"
    assert abs(got["status"][0] - got["status"][1]) <= 1
    assert abs(got["charts"][0] - got["charts"][1]) <= 1
    assert abs(float(got["across"].removesuffix("px")) - got["span"]) <= 1
    # the chart takes its share of the window under it, the maths the rest; in a wide window
    # (a laptop) a larger share, its legend under the plot and the chart grown by its height.
    # A chart is drawn again only for a change of more than 8 px (stepper.js), so that a top
    # moved by a line of text once it is drawn does not draw it again
    expected = min(520, max(260, (got["room"] - GAP) * share) + foot)
    assert abs(got["height"] - expected) <= 8, (got["height"], expected)
    assert got["head"].startswith("Example ")  # the step and epoch are in the status line
