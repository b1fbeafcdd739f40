"""The margin page's two runs at two etas, in a real headless Chromium: one clock for both."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, assert_no_exception, page_errors, settle, wait_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(tab):
    """Each test here opens its own address first: no lesson is opened before it."""
    return tab

STATUS = """() => [...document.querySelectorAll('.pl-stepper')]
              .map((box) => box.querySelector('.pl-status')?.textContent ?? '')"""


def statuses(page) -> list[str]:
    return page.evaluate(STATUS)


def wait_steppers(page, count: int) -> None:
    page.wait_for_function(
        """n => { const boxes = [...document.querySelectorAll('.pl-stepper')];
                  return boxes.length === n && boxes.every((b) => b.dataset.step !== undefined
                    && b.querySelector('.js-plotly-plot')?._fullLayout); }""", arg=count)


def test_both_runs_step_together_and_part_at_the_notes_start(tab, server_url):
    page = tab  # opened on its own link first: no lesson opened before it
    page.goto(f"{server_url}/margin?pair=1&pair_from=elsewhere")
    wait_idle(page)
    wait_steppers(page, 3)  # the page's own, then the pair
    pair = page.locator(".pl-stepper").nth(1)
    pair.scroll_into_view_if_needed()
    # only the stepper that owns the keys names them
    own, pairs = (box.locator("button[data-action=step]") for box in (
        page.locator(".pl-stepper").first, pair))
    assert own.get_attribute("aria-keyshortcuts") == "ArrowRight"
    assert own.get_attribute("title") == "Step (key: →)"
    assert pairs.get_attribute("aria-keyshortcuts") is None
    assert pairs.get_attribute("title") == "Step"
    assert "(→)" not in pair.locator(".pl-explain").inner_text()
    for _ in range(9):
        pair.locator("button[data-action=step]").click()
    page.wait_for_function(f"() => ({STATUS})().slice(1).every((s) => s.startsWith('Step 9 /'))")
    main, left, right = statuses(page)
    assert main.startswith("Step 0 /")  # the page's own stepper did not move
    assert left.startswith("Step 9 / 228") and right.startswith("Step 9 / 228")
    # step 9 is where they part: the eta = 1 run makes no update there, the eta = 0.1 run does
    assert "· 8 mistakes" in left and "· 9 mistakes" in right
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "eta_pair.png", full_page=True)
    page.keyboard.press("ArrowRight")  # the keys belong to the page's own stepper
    page.wait_for_function(f"() => ({STATUS})()[0].startsWith('Step 1 /')")
    assert statuses(page)[1].startswith("Step 9 /")
    settle(page)
    assert_no_exception(page)
    assert page_errors(page) == []
