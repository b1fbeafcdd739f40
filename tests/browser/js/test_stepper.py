"""stepper.js: a run mounted as the component mounts it (mount.js), drawn, stepped, sized, and
without Plotly."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN
from tests.browser.js.conftest import GAP, open_page, origin
from ui.stepper import pack, perceptron_run
from viz.plane import CHART_CONFIG

pytestmark = pytest.mark.browser

NOTES = BUILTIN["Lecture notes' example: 4 points"]()
SETTINGS = dict(eta=0.1, bias=True, order="cyclic", init=((0.2, 0.0), -0.1), seed=0,
                max_epochs=5)
# mount (or mount again, as Streamlit re-sends an element) a run in the box with this id;
# what the stepper reports goes to window.reports
MOUNT = """([id, text]) => {
  window.reports = window.reports ?? [];
  const root = document.getElementById(id) ?? pl.html("div", { id }, document.body);
  window.cleanups = window.cleanups ?? {};
  window.cleanups[id] = pl.mountStepper({
    parentElement: root, data: text === null ? null : pl.bytes(text),
    setStateValue: (name, value) => window.reports.push([name, value]) });
}"""
READY = """(id) => {
  const box = document.querySelector(`#${id} .pl-stepper`);
  return box?.dataset.step !== undefined && box.querySelector(".js-plotly-plot")?._fullLayout;
}"""


def packed(data=NOTES, settings=SETTINGS, *, start=0, keys=True, lecture=False, extra=None,
           header=None):
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=5),
                         lecture=lecture, extra=extra)
    blob = pack({**run.header, "run": run.id, "start": start, "keys": keys, **(header or {})},
                run.columns)
    return base64.b64encode(blob).decode(), trace


def mount(page, text, id_="s1") -> None:
    page.evaluate(MOUNT, [id_, text])
    page.wait_for_function(READY, arg=id_)


def step_of(page, id_="s1") -> int:
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return int(page.evaluate("(id) => document.querySelector(`#${id} .pl-stepper`).dataset.step",
                             id_))


def test_a_run_opens_with_its_parts_in_order(page):
    text, _ = packed()
    mount(page, text)
    got = page.evaluate("""() => {
      const box = document.querySelector(".pl-stepper");
      const classes = (node) => Array.from(node.children, (c) => c.getAttribute("class"));
      return { box: classes(box), body: classes(box.querySelector(".pl-body")),
               side: classes(box.querySelector(".pl-side")),
               status: box.querySelector(".pl-status").textContent,
               slider: box.querySelector(".pl-slider").max,
               chars: box.style.getPropertyValue("--pl-status-chars"),
               visited: box.style.getPropertyValue("--pl-visited"),
               points: box.querySelector(".pl-plane .js-plotly-plot").data.map((t) => t.x.length) };
    }""")
    assert got["box"] == ["pl-controls", "pl-status", "pl-announce", "pl-score", "pl-body"]
    assert got["body"] == ["pl-chart pl-plane", "pl-side"]
    assert got["side"] == ["pl-quiz", "pl-kernel-note", "pl-explain", "pl-chart pl-weights"]
    assert got["status"] == "Step 0 / 20 · epoch 0 · 0 mistakes · still learning"
    assert got["slider"] == "20" and got["visited"] == "#E69F00"
    # sized for its longest line, at the start or the end
    assert int(got["chars"]) == 2 + max(len(got["status"]),
                                        len("Step 20 / 20 · epoch 5 · 8 mistakes · converged"))
    assert got["points"][:2] == [int(np.sum(NOTES.y < 0)), int(np.sum(NOTES.y > 0))]


def test_keys_buttons_and_the_slider_move_it_and_the_server_hears_where_it_stopped(page):
    text, trace = packed()
    mount(page, text)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2
    page.keyboard.press("n")
    later = [k for k in range(3, trace.steps + 1) if trace.updated[k]]
    assert step_of(page) == later[0]
    page.locator(".pl-back").click()
    assert step_of(page) == later[0] - 1
    page.locator(".pl-slider").fill("17")
    assert step_of(page) == 17
    page.keyboard.press("Home")
    assert step_of(page) == 0
    page.keyboard.press("End")  # no key of the stepper's
    page.locator(".pl-slider").fill("5")
    page.evaluate("() => window.dispatchEvent(new PageTransitionEvent('pagehide'))")
    reports = page.evaluate("() => window.reports")
    run = page.evaluate("() => document.querySelector('#s1').__plStepper.runId")
    # (a slow machine may report once on the way, when the student seems to have stopped)
    assert reports[-1] == ["position", {"run": run, "k": 5}] and len(reports) <= 2


def test_next_mistake_stops_where_the_lesson_says(page):
    stops = np.zeros(21, dtype=np.uint8)
    stops[[7, 13]] = 1
    text, _ = packed(extra={"stops": stops})
    mount(page, text)
    for expected in (7, 13, 20):
        page.keyboard.press("n")
        assert step_of(page) == expected


def test_on_a_projector_the_page_and_the_legend_make_room(page):
    text, _ = packed(lecture=True)
    mount(page, text)
    got = page.evaluate("""() => {
      const gd = document.querySelector(".pl-plane .js-plotly-plot");
      return [document.documentElement.classList.contains("pl-lecture-page"),
              document.querySelector(".pl-stepper").classList.contains("pl-lecture"),
              gd.layout.legend.yref, gd._fullLayout.height,
              gd.getBoundingClientRect().top, document.querySelector(".pl-plane").clientWidth];
    }""")
    assert got[:3] == [True, True, "container"]
    # the plane fills the window under it: 400 px at least, no taller than its box is wide
    # with the legend under it, and past the figure's own 624 px where the window has room
    assert got[3] == round(max(400, min(800 - got[4] - GAP, got[5] + 150)))
    assert got[3] > 624


@pytest.mark.parametrize("window", [(1280, 800), (390, 844), (900, 700)],
                         ids=["wide", "phone", "narrow"])
def test_a_lone_runs_chart_is_drawn_a_few_times_then_stands(page, window):
    # a wide window sizes the plane by the window, a phone by its square plot, elsewhere the
    # figure's own height: one rule each, never two pulling the chart two ways (a page that
    # draws its chart again and again stops answering)
    page.set_viewport_size({"width": window[0], "height": window[1]})
    text, _ = packed()
    mount(page, text)
    page.wait_for_timeout(1_000)  # its first drawings: automargin, the toolbar's row
    drawn = page.evaluate("""() => new Promise((done) => {
      const gd = document.querySelector(".pl-plane .js-plotly-plot");
      let count = 0;
      gd.on("plotly_afterplot", () => { count += 1; });
      setTimeout(() => done([count, gd._fullLayout.height]), 1500);
    })""")
    assert drawn[0] == 0, drawn
    wide = page.evaluate("() => document.querySelector('.pl-stepper').classList"
                         ".contains('pl-wide')")
    assert wide is (window[0] >= 1000)


def test_without_plotly_the_steps_still_work(browser):
    page = open_page(browser, origin(lambda: 404))
    text, _ = packed()
    page.evaluate(MOUNT, ["s1", text])
    page.wait_for_function("() => document.querySelector('.pl-stepper')?.dataset.step === '0'")
    assert page.locator(".pl-plane .pl-nochart").inner_text() == \
        "The chart could not load (plotly.min.js); the steps still work."
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 1
    assert page.locator(".pl-status").inner_text().startswith("Step 1 / 20")
    assert "Step 1, epoch 1" in page.locator(".pl-explain").inner_text()
    assert not page.errors
    page.context.close()


def test_the_charts_take_the_pages_toolbar_and_say_what_they_show(page):
    text, _ = packed(header={"config": CHART_CONFIG})
    mount(page, text)
    got = page.evaluate("""() => {
      const plane = document.querySelector(".pl-plane");
      const gd = plane.querySelector(".js-plotly-plot");
      return { removed: gd._context.modeBarButtonsToRemove, scroll: gd._context.scrollZoom,
               logo: gd._context.displaylogo, role: plane.getAttribute("role"),
               label: plane.getAttribute("aria-label"),
               hidden: Array.from(plane.querySelectorAll("svg.main-svg"),
                                  (svg) => svg.getAttribute("aria-hidden")),
               titles: Array.from(plane.querySelectorAll(".modebar-btn"),
                                  (b) => b.dataset.title) };
    }""")
    assert got["removed"] == CHART_CONFIG["modeBarButtonsToRemove"]
    assert got["scroll"] is False and got["logo"] is False
    assert not {"Zoom", "Pan", "Box Select", "Lasso Select"} & set(got["titles"])
    # a figure named by its words, the drawing hidden from a screen reader, the toolbar not
    # (an img's inside is not reachable, and its buttons are a keyboard's)
    assert got["role"] == "figure"
    assert got["hidden"] and set(got["hidden"]) == {"true"}
    assert got["label"].startswith("The perceptron's boundary: 0.2 x₁ + 0 x₂ − 0.1 = 0. ")


def test_a_projectors_plane_follows_the_window_and_stops_when_left(page):
    # fit.js followWindow: the window grows shorter, the plane with it (its chartHeight), and a
    # stepper left no longer follows
    text, _ = packed(lecture=True)
    mount(page, text)
    height = """() => document.querySelector(".pl-plane .js-plotly-plot")._fullLayout.height"""
    top = """() => document.querySelector(".pl-plane").getBoundingClientRect().top"""
    page.set_viewport_size({"width": 1280, "height": 640})
    page.wait_for_function(f"() => Math.abs(({height})() - Math.max(400, 640 - ({top})() - {GAP}))"
                           " <= 8")
    page.evaluate("() => window.cleanups.s1()")
    before = page.evaluate(height)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(500)
    assert page.evaluate(height) == before
