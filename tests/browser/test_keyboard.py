"""Every student can follow by keyboard and with a screen reader: a lesson by Tab, Enter, Space
and the stepper's keys alone, a focus ring on every stop, no trap; the stepper's live region
announces each step with its meaning; Play without motion when the system asks for less."""

from __future__ import annotations

import itertools
import re

import pytest

from core.perceptron import perceptron
from core.trace import record
from datasets.builtin import BUILTIN
from scripts.screenshots import NOTES
from testkit.browser import settle
from testkit.stepper import wait_status
from tests.browser.test_access import DESKTOP, opened
from ui.url_state import DATA_SLUGS
from viz import describe
from viz.maths import num

pytestmark = pytest.mark.browser

# The focused element: what it is and where. ``look`` is how it and what draws its frame look
# (outline, shadow, border: on itself, its label and three ancestors, where they are on
# screen); a ring shows when the look changes as the focus leaves.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const label = el.labels?.[0]?.textContent ?? '';
  return {tag: el.tagName.toLowerCase(), type: el.type ?? '',
          name: (el.getAttribute('aria-label') || label || el.textContent
                 || el.getAttribute('title') || '').trim().slice(0, 40),
          area: el.closest('[data-testid="stSidebarUserContent"]') ? 'sidebar'
            : el.closest('.pl-stepper') ? 'stepper'
            : el.closest('[data-testid="stMainBlockContainer"]') ? 'main' : 'chrome',
          action: el.dataset.action ?? null};
}"""
LOOK = """async (el) => {
  // a frame's colour may fade in: look once what moves has arrived (at most half a second)
  const moving = document.getAnimations().map((a) => a.finished.catch(() => null));
  await Promise.race([Promise.all(moving), new Promise((done) => setTimeout(done, 500))]);
  const parts = [el, el.labels?.[0]];
  for (let e = el.parentElement, i = 0; e && i < 3; e = e.parentElement, i++) parts.push(e);
  return parts.filter((e) => {
    if (!e) return false;
    const r = e.getBoundingClientRect(), c = getComputedStyle(e);
    return r.width > 2 && r.height > 2 && c.opacity !== '0' && c.visibility !== 'hidden';
  }).map((e) => {
    const c = getComputedStyle(e);
    const outline = c.outlineStyle === 'none' ? 'none'
      : `${c.outlineStyle} ${c.outlineWidth} ${c.outlineColor}`;
    return `${outline} | ${c.boxShadow} | ${c.borderColor}`;
  });
}"""


# The focused element inside an open popover: Share's link box or its Copy button, and whether
# it lies whole in the window.
IN_POPOVER = """() => {
  const el = document.activeElement;
  if (!el?.closest('[data-testid="stPopoverBody"]')) return null;
  const r = el.getBoundingClientRect();
  return {link: el.matches('[data-testid="stCode"]') && /^https?:[/][/]/.test(el.innerText.trim()),
          copy: el.matches('button') && /copy/i.test(el.getAttribute('aria-label')
                                                     || el.getAttribute('title') || ''),
          onScreen: r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
            && r.right <= innerWidth};
}"""


def ring_shows(tab) -> bool:
    """Whether the focused element's look changes when the focus leaves it (then it comes back)."""
    focused = tab.evaluate_handle("() => document.activeElement")
    try:
        on = tab.evaluate(LOOK, focused)
        tab.evaluate("(el) => el.blur()", focused)
        off = tab.evaluate(LOOK, focused)
        tab.evaluate("(el) => el.focus()", focused)
        return on != off
    finally:
        focused.dispose()


def tab_until(tab, found, most: int = 80, rings: list | None = None) -> list[dict]:
    """Press Tab until ``found(stop)`` holds for the focused element; every stop on the way.

    With ``rings``, each stop in the app's own content that shows no ring is added to it.
    """
    stops = []
    for _ in range(most):
        tab.keyboard.press("Tab")
        stop = tab.evaluate(FOCUSED)
        if stop is None:
            continue
        stops.append(stop)
        if rings is not None and stop["area"] != "chrome" and not ring_shows(tab):
            rings.append(stop)
        if found(stop):
            return stops
    raise AssertionError(f"not reached in {most} Tabs: {[s['name'] for s in stops]}")


def test_a_lesson_by_keyboard_alone(browser, server_url):
    with opened(browser, server_url, f"/?{NOTES}", size=DESKTOP) as tab:
        # from the top of the page to the stepper's slider: a ring on every stop
        unringed = []
        stops = tab_until(tab, lambda s: s["area"] == "stepper" and s["type"] == "range",
                          rings=unringed)
        assert unringed == [], f"focus without a visible ring: {[s['name'] for s in unringed]}"
        # a sensible order: the sidebar's settings, the lesson's title row, then its steps
        areas = [s["area"] for s in stops]
        assert max(i for i, a in enumerate(areas) if a == "sidebar") \
            < min(i for i, a in enumerate(areas) if a == "main") \
            < min(i for i, a in enumerate(areas) if a == "stepper")
        controls = [s["action"] or s["type"] for s in stops if s["area"] == "stepper"]
        # at step 0 Back and Reset are disabled: out of the way
        assert controls == ["step", "next", "play", "select-one", "predict", "range"]

        # the stepper's keys never hold the focus: Tab leaves the slider, Shift+Tab comes back
        tab.keyboard.press("Tab")
        assert tab.evaluate(FOCUSED)["type"] != "range"
        tab.keyboard.press("Shift+Tab")
        assert tab.evaluate(FOCUSED)["type"] == "range"

        # step: the slider's own arrow, Enter on Step, the page's →
        tab.keyboard.press("ArrowRight")
        wait_status(tab, "Step 1 /")
        step = tab.locator(".pl-step").first
        tab.keyboard.press("Shift+Tab")  # Predict
        tab.keyboard.press("Shift+Tab")  # speed
        tab.keyboard.press("Shift+Tab")  # Play
        tab.keyboard.press("Shift+Tab")  # Reset, enabled now
        tab.keyboard.press("Shift+Tab")  # Next mistake
        tab.keyboard.press("Shift+Tab")  # Step
        assert step.evaluate("(el) => el === document.activeElement")
        tab.keyboard.press("Enter")
        wait_status(tab, "Step 2 /")
        tab.keyboard.press("ArrowRight")
        wait_status(tab, "Step 3 /")

        # Predict: its checkbox by Tab and Space; Step asks; the first answer takes the focus
        tab_until(tab, lambda s: s["type"] == "checkbox" and s["area"] == "stepper")
        tab.keyboard.press("Space")
        assert tab.locator(".pl-stepper input[type=checkbox]").first.is_checked()
        tab.keyboard.press("ArrowRight")
        quiz = tab.locator(".pl-quiz")
        quiz.wait_for()
        assert tab.evaluate(FOCUSED)["name"] in ("Mistake", "No mistake")
        tab.keyboard.press("Enter")
        if quiz.is_visible():  # a mistake that turns w: which way? the first answer has focus
            tab.keyboard.press("Enter")
        wait_status(tab, "Step 4 /")
        assert re.search(r"Predictions: [01] / 1 right", tab.locator(".pl-score").inner_text())
        # the answer's buttons have gone: the focus stays in the stepper, where → steps on
        assert tab.evaluate(FOCUSED)["area"] == "stepper", tab.evaluate(FOCUSED)

        # a setting: the learning rate in the sidebar, typed
        eta = tab.get_by_label("Learning rate η")
        eta.focus()
        tab.keyboard.press("Control+A")
        tab.keyboard.type("0.5")
        tab.keyboard.press("Enter")
        tab.wait_for_function("() => new URLSearchParams(location.search).get('eta') === '0.5'")
        # the run the new rate starts must end first: a rerun that lands mid-Tab moves the focus
        settle(tab)

        # Share: by Tab from the top of the lesson, Enter opens the link, Escape closes it
        tab.locator('[data-testid="stMain"]').focus()
        tab_until(tab, lambda s: s["name"].endswith("Share") or "Share" in s["name"])
        tab.keyboard.press("Enter")
        link = tab.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]')
        link.wait_for()
        assert "eta=0.5" in link.inner_text()
        # its link, then Copy, next in the tab order: on screen, each with a ring
        tab.wait_for_function(f"() => ({IN_POPOVER})()?.link")
        for stop in ("link", "copy"):
            if stop == "copy":
                tab.keyboard.press("Tab")
            at = tab.evaluate(IN_POPOVER)
            assert at and at[stop], f"the {stop} is not next after Share: {tab.evaluate(FOCUSED)}"
            assert at["onScreen"], f"the {stop} is off screen"
            assert ring_shows(tab), f"the {stop} shows no focus ring"
        tab.keyboard.press("Escape")
        link.wait_for(state="hidden")


def expected_announcement(k: int, steps: int, trace, X, y) -> dict:
    """What step k means, with viz.maths's numbers: the example, y·a, and w before and after."""
    i = int(trace.index[k])
    ya = float(y[i] * trace.activation[k])
    w_before, w_after = trace.W[k - 1], trace.W[k]
    pair = lambda w: f"({num(w[0])}, {num(w[1])})"
    return {"head": f"Step {k} of {steps}: example {i + 1}", "ya": f"y·a = {num(ya)}",
            "verdict": (f"a mistake: w turns from {pair(w_before)} to {pair(w_after)}"
                        if trace.updated[k] else "correct")}


def test_the_live_region_announces_each_step_with_its_meaning(browser, server_url):
    data = BUILTIN[DATA_SLUGS["lecture-notes-example-4-points"]]()
    trace = record(perceptron(data.X, data.y, order="cyclic", init=((0.2, 0.0), -0.1), eta=0.1,
                              bias=True, max_epochs=50, seed=0))
    with opened(browser, server_url, f"/?{NOTES}", size=DESKTOP) as tab:
        live = tab.locator(".pl-stepper [aria-live]").first
        steps = trace.steps
        for k in range(1, 7):
            tab.keyboard.press("ArrowRight")
            wait_status(tab, f"Step {k} /")
            said = live.inner_text().replace("\u2212", "-")
            expected = expected_announcement(k, steps, trace, data.X, data.y)
            assert said.startswith(expected["head"]), (k, said)
            assert expected["ya"] in said, (k, said)
            assert expected["verdict"] in said, (k, said)


# Whether a node's text reaches a screen reader when it changes: inside a live region, or the
# description of the group that holds the focus.
ANNOUNCED = """(selector) => {
  const node = document.querySelector(selector);
  if (!node || !node.textContent.trim()) return false;
  if (node.closest('[aria-live]:not([aria-live="off"]), [role=status], [role=alert]')) return true;
  const group = document.activeElement?.closest('[aria-describedby]');
  return Boolean(group && group.getAttribute('aria-describedby').split(/\\s+/)
    .some((id) => document.getElementById(id)?.contains(node)));
}"""


def test_predict_modes_question_and_answer_are_announced(browser, server_url):
    with opened(browser, server_url, f"/?{NOTES}", size=DESKTOP) as tab:
        tab.locator(".pl-stepper input[type=checkbox]").first.check()
        tab.keyboard.press("ArrowRight")
        tab.locator(".pl-quiz").wait_for()
        assert tab.evaluate(ANNOUNCED, ".pl-quiz p"), "the question"
        # and the stepper's live region reads it as it appears
        question = tab.locator(".pl-quiz p").first.inner_text()
        assert tab.locator(".pl-stepper [aria-live]").first.inner_text() == question
        tab.keyboard.press("Enter")
        if tab.locator(".pl-quiz").is_visible():
            tab.keyboard.press("Enter")
        wait_status(tab, "Step 1 /")
        assert tab.evaluate(ANNOUNCED, ".pl-score"), "the answer"


def test_play_steps_without_motion_when_the_system_asks(browser, server_url):
    """With prefers-reduced-motion, Play moves one step at a time and nothing animates."""
    with opened(browser, server_url, f"/?{NOTES}", size=DESKTOP) as tab:
        tab.emulate_media(reduced_motion="reduce")
        tab.get_by_label("Play speed (steps per second)").select_option("5")
        tab.locator(".pl-controls").get_by_role("button", name="Play", exact=True).click()
        seen = tab.evaluate("""async () => {
          const seen = [];
          const end = performance.now() + 1500;
          while (performance.now() < end) {
            await new Promise(requestAnimationFrame);
            const running = document.getAnimations().filter((a) => a.playState === 'running'
              && a.effect?.target?.closest?.('[data-testid="stMain"]'));
            seen.push({k: Number(document.querySelector('.pl-stepper').dataset.step),
                       moving: running.length});
          }
          return seen;
        }""")
        steps = [s["k"] for s in seen]
        assert max(steps) > min(steps), "Play did not step"
        assert all(b - a in (0, 1) for a, b in itertools.pairwise(steps))
        assert not any(s["moving"] for s in seen), "something animates"


def test_the_steppers_chart_says_what_it_shows_now(browser, server_url):
    data = BUILTIN[DATA_SLUGS["lecture-notes-example-4-points"]]()
    trace = record(perceptron(data.X, data.y, order="cyclic", init=((0.2, 0.0), -0.1), eta=0.1,
                              bias=True, max_epochs=50, seed=0))
    with opened(browser, server_url, f"/?{NOTES}&step=2", size=DESKTOP) as tab:
        plane = tab.locator(".pl-plane").first
        said = plane.evaluate("""(el) => {
          const named = el.closest('[aria-label]') ?? el.querySelector('[aria-label]');
          return named && ['img', 'figure'].includes(named.getAttribute('role'))
            ? named.getAttribute('aria-label') : '';
        }""")
        expected = describe.boundary(data.X, data.y, trace.W[2], trace.b[2],
                                     name="The perceptron's boundary")
        assert describe.equation(trace.W[2], trace.b[2]) in said
        assert expected.split(". ", 1)[1].split(" Margin")[0] in said  # the sides, in words
