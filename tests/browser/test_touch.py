"""Every student can follow on a phone and a tablet: the lessons that step, by touch alone.

At 390 x 844 (a phone) and 768 x 1024 (a tablet, both ways up), with a touch screen: no
sideways scrolling, the sidebar only where asked, controls a finger can hit (44 x 44 CSS px),
a tap steps, the slider follows a finger, a swipe over a chart scrolls the page, a zoomed chart
comes back with one tap, and the chart and the step's maths on one screen or one swipe apart.
"""

from __future__ import annotations

import pytest

from scripts.screenshots import NOTES
from testkit.stepper import step_of, wait_status
from tests.browser.conftest import CHARTS
from tests.browser.projector import ON_SCREEN
from tests.browser.test_access import PHONE, TABLET, opened
from tests.browser.touch import drag, heap_mb, swipe_up

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "tablet": TABLET, "tablet_landscape": TABLET[::-1]}
VIEWS = {
    "step_through": f"/?{NOTES}&step=3",
    "margin": f"/margin?{NOTES}&step=3",
    "svm_train": "/svm?part=Train+side+by+side&data=lecture-notes-example-4-points&step=2",
}
FINGER = 44  # CSS px: WCAG 2.5.5's target size, and Apple's and Google's

# How far the page reaches past the window's right edge (the document, and Streamlit's main
# area, which is what scrolls); and where the sidebar is against the lesson.
LAYOUT = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const side = document.querySelector('[data-testid="stSidebar"]');
  const lesson = document.querySelector('[data-testid="stMainBlockContainer"]')
    .getBoundingClientRect();
  const shown = side && side.getAttribute('aria-expanded') !== 'false'
    && side.getBoundingClientRect().right > 1;
  return {page: document.documentElement.scrollWidth - innerWidth,
          main: main.scrollWidth - main.clientWidth,
          sidebar: shown ? side.getBoundingClientRect().right : 0, lesson: lesson.left};
}"""

# Every control of every stepper a student can press (a follower's are hidden), its size.
CONTROLS = """() => [...document.querySelectorAll(
    '.pl-controls .pl-button, .pl-controls .pl-speed, .pl-controls .pl-toggle, .pl-slider')]
  .filter((el) => el.getClientRects().length)
  .map((el) => {
    const r = el.getBoundingClientRect();
    return {name: el.getAttribute('aria-label') || el.textContent.trim() || el.className,
            width: r.width, height: r.height};
  })"""


def thumb(tab, value: int) -> tuple[float, float]:
    """Where the first stepper's slider draws its thumb at ``value`` (viewport px)."""
    return tab.evaluate("""(value) => {
      const s = document.querySelector('.pl-slider'), r = s.getBoundingClientRect();
      const half = 8;  // Chromium's thumb is 16 px wide and stays inside the track
      return [r.left + half + (r.width - 2 * half) * value / Number(s.max), r.top + r.height / 2];
    }""", value)


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def size(request):
    return SIZES[request.param]


@pytest.mark.parametrize("view", list(VIEWS))
def test_a_lesson_steps_by_touch(browser, server_url, view, size):
    with opened(browser, server_url, VIEWS[view], size=size, touch=True) as tab:
        chart_and_maths_a_swipe_apart_at_most(tab)
        layout = tab.evaluate(LAYOUT)
        assert layout["page"] <= 0 and layout["main"] <= 0, f"sideways scrolling: {layout}"
        assert layout["sidebar"] <= layout["lesson"] + 1, f"the sidebar covers it: {layout}"
        small = [c for c in tab.evaluate(CONTROLS)
                 if c["height"] < FINGER or (c["width"] < FINGER and "slider" not in c["name"])]
        assert small == [], f"under {FINGER} px"

        # a tap steps
        k = step_of(tab)
        tab.locator(".pl-step").first.tap()
        wait_status(tab, f"Step {k + 1} /")

        # the slider follows a finger
        last = int(tab.locator(".pl-slider").first.get_attribute("max"))
        target = min(last, k + max(6, last // 4))  # a finger's width is steps on a long run
        tab.locator(".pl-slider").first.scroll_into_view_if_needed()
        drag(tab, thumb(tab, k + 1), thumb(tab, target))
        moved = int(tab.locator(".pl-slider").first.input_value())
        assert moved > k + 1
        wait_status(tab, f"Step {moved} /")

        # a swipe over the chart scrolls the page: no drag mode takes the finger
        tab.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
        plane = tab.locator(".pl-plane .js-plotly-plot").first.bounding_box()
        height = tab.viewport_size["height"]
        y = min(plane["y"] + plane["height"] / 2, height - 60)
        assert swipe_up(tab, plane["x"] + plane["width"] / 2, y) > 100

        # on the phone, the same page: its toolbar (the views' own opens are shared with
        # these checks, a page open being most of a browser test's time)
        if size == PHONE and view == "margin":
            a_zoomed_chart_comes_back_with_one_tap(tab)
        if size == PHONE and view == "step_through":
            the_steppers_chart_offers_no_drag_mode(tab)


def chart_and_maths_a_swipe_apart_at_most(tab) -> None:
    """On the first screen together, or the maths in view once the chart is at the top."""
    height = tab.viewport_size["height"]
    seen = tab.evaluate(ON_SCREEN)
    first = seen["planes"][0]
    # the chart starts on the first screen (beside an open sidebar the title takes more)
    assert first["visible"] >= min(first["height"] / 4, 120), f"the chart: {first}"
    assert seen["maths"], "no step maths"
    for plane, maths in zip(seen["planes"], seen["maths"], strict=False):
        # a swipe that brings the chart's top to the screen's top shows the maths
        assert maths["top"] + min(maths["height"], 120) - plane["top"] <= height, \
            f"chart {plane}, maths {maths}"


# Every control a finger may hit on the page, anywhere on it (the folded sidebar's, out of the
# window, are not), each with the box a tap lands in: a checkbox's or a radio's is its label, a
# drop-down's is its whole field (its chevron is a part of it, the same target: WCAG 2.5.5's
# "equivalent"). Exempt, as WCAG 2.5.5 exempts them: a link inside a line of text. A slider is
# as wide as its track: its height is measured.
TARGETS = """() => {
  const found = [];
  const controls = 'button, a[href], input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [role=slider], [role=tab], [role=checkbox], [role=switch], [role=radio]';
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const field = el.closest('.react-aria-ComboBox, [data-baseweb="select"]');
    if (field && el.tagName !== 'INPUT') continue;
    if (el.matches('a') && el.closest('p, li') && el.closest('p, li').textContent.trim()
        !== el.textContent.trim()) continue;
    const target = field
      ?? (el.matches('input[type=checkbox], input[type=radio]') ? el.closest('label') ?? el : el);
    const r = target.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right <= 0 || r.left >= innerWidth) continue;
    const slider = el.matches('input[type=range], [role=slider]');
    if (r.height >= 44 - 0.5 && (slider || r.width >= 44 - 0.5)) continue;
    const name = (el.getAttribute('aria-label') || el.dataset.title || el.textContent
                  || el.closest('[data-testid]')?.dataset.testid || el.tagName).trim();
    found.push(`${name.slice(0, 40)}: ${Math.round(r.width)} x ${Math.round(r.height)}`);
  }
  return found;
}"""


def a_zoomed_chart_comes_back_with_one_tap(tab) -> None:
    """(On the phone's margin lesson, test_a_lesson_steps_by_touch.)"""
    chart = tab.locator(CHARTS).first
    chart.scroll_into_view_if_needed()
    ranges = """(el) => { const L = el.querySelector('.js-plotly-plot')._fullLayout;
                          return [...L.xaxis.range, ...L.yaxis.range]; }"""
    start = chart.evaluate(ranges)
    chart.locator('[data-title="Zoom in"]').tap()
    tab.wait_for_function("""([el, start]) => {
      const L = el.querySelector('.js-plotly-plot')._fullLayout;
      return L.xaxis.range[0] !== start[0]; }""", arg=[chart.element_handle(), start])
    chart.locator('[data-title="Reset axes"]').tap()
    tab.wait_for_function("""([el, start]) => {
      const L = el.querySelector('.js-plotly-plot')._fullLayout;
      return L.xaxis.range[0] === start[0]; }""", arg=[chart.element_handle(), start])
    assert chart.evaluate(ranges) == pytest.approx(start)
    # the toolbar offers nothing that would take a finger's drag
    titles = chart.locator(".modebar-btn").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.title)")
    assert not {"Zoom", "Pan", "Box Select", "Lasso Select"} & set(titles)


def the_steppers_chart_offers_no_drag_mode(tab) -> None:
    """(On the phone's step-through lesson, test_a_lesson_steps_by_touch.)"""
    titles = tab.locator(".pl-plane .modebar-btn").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.title)")
    assert "Reset axes" in titles
    assert not {"Zoom", "Pan", "Box Select", "Lasso Select"} & set(titles)


# The largest run a lesson steps through: 1,000 points (every lesson's most) that never
# separate, at most epochs, recorded up to core.trace.STEP_LIMIT steps.
LARGEST = {
    "step_through": "/?data=noisy-blobs-generator&n=1000&epochs=1000",
    "svm_train": "/svm?part=Train+side+by+side&data=noisy-blobs-generator&n=1000&epochs=1000",
}
# A mid-range phone's browser lets one tab use a few hundred MB before it discards it; a
# lesson's JavaScript takes at most 100 (about 23 MB measured, see the README).
HEAP_BUDGET_MB = 100


@pytest.mark.parametrize("view", list(LARGEST))
def test_the_largest_run_fits_a_phone(browser, server_url, view):
    with opened(browser, server_url, LARGEST[view], size=PHONE, touch=True) as tab:
        slider = tab.locator(".pl-slider").first
        last = int(slider.get_attribute("max"))
        assert last >= 10_000  # the run is a long one
        slider.fill(str(last))  # to the end: every step drawn once on the way
        wait_status(tab, f"Step {last} /")
        used = heap_mb(tab)
        print(f"{view}: {last:,} steps, JS heap {used:.1f} MB")
        assert used <= HEAP_BUDGET_MB
