"""Drawing points with the mouse, training on them, and keeping sessions apart."""

from __future__ import annotations

import pytest

from testkit.stepper import numbers, ready, status, wait_status, wait_url_step
from tests.browser.conftest import ARTIFACTS, settle, wait_idle
from tests.browser.plotly import click_chart

pytestmark = pytest.mark.browser


def open_drawing(page) -> None:
    page.get_by_role("link", name="Your data").click()
    settle(page, 600)


def point_count(page) -> str:
    return page.get_by_test_id("stMain").get_by_text("of class −1").first.inner_text()


def draw(page, points) -> None:
    for label, x, y in points:
        page.get_by_role("radio", name=f"Add {label}").click()
        settle(page, 300)
        click_chart(page, x, y)
        settle(page, 600)


def test_draw_both_classes_erase_one_and_train_on_them(page):
    open_drawing(page)
    draw(page, [("+1", 1, 1), ("+1", 2, 2.5), ("−1", -2, -1), ("−1", -1, -2.5),
                ("−1", 3, -3)])
    assert point_count(page) == "5 points · 3 of class −1, 2 of class +1"
    page.get_by_role("radio", name="Erase").click()
    settle(page, 300)
    click_chart(page, 3.1, -2.9)
    settle(page, 600)
    assert point_count(page) == "4 points · 2 of class −1, 2 of class +1"
    page.screenshot(path=ARTIFACTS / "your_data.png")

    page.get_by_role("link", name="Step through").click()
    settle(page, 600)
    sidebar = page.get_by_test_id("stSidebar").inner_text()
    assert "4 points" in sidebar
    eta = page.get_by_label("Learning rate η")
    eta.fill("0.5")
    eta.press("Enter")
    settle(page, 600)
    page.evaluate("document.activeElement.blur()")  # arrow keys go to the page again
    ready(page)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_status(page, "Step 3 / ")
    explained = page.locator(".pl-explain").inner_text()
    assert "(1, 1)" in explained or "(-2, -1)" in explained.replace("\u2212", "-")
    assert page.get_by_test_id("stException").count() == 0

    # The link to this view opens the same data, settings and step in a fresh browser.
    wait_url_step(page, 3)
    page.get_by_role("button", name="Share", exact=True).click()
    link = page.get_by_test_id("stCode").inner_text().strip()
    assert "step=3" in link
    shown = (status(page), numbers(page))
    fresh = page.context.browser.new_context(viewport={"width": 1400, "height": 1000})
    other = fresh.new_page()
    other.goto(link)
    ready(other)
    # the first run of a fresh session can still be drawing: wait for the step itself
    wait_status(other, shown[0])
    assert "4 points" in other.get_by_test_id("stSidebar").inner_text()
    assert other.get_by_label("Learning rate η").input_value() == "0.5"
    assert (status(other), numbers(other)) == shown
    other.screenshot(path=ARTIFACTS / "from_link.png")
    fresh.close()


def test_two_students_never_see_each_others_points(browser, server_url):
    first = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    second = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    for tab in (first, second):
        tab.goto(server_url)
        wait_idle(tab)
        open_drawing(tab)
    draw(first, [("+1", 1, 1), ("−1", -1, -1)])
    draw(second, [("+1", 4, 4)])
    assert point_count(first).startswith("2 points")
    assert point_count(second).startswith("1 point ")
    second.goto(server_url)  # a new session, without a link, starts empty
    wait_idle(second)
    open_drawing(second)
    assert point_count(second).startswith("0 points")
    assert point_count(first).startswith("2 points")
    first.context.close()
    second.context.close()


def test_a_finger_draws_on_a_phone(browser, server_url):
    # a tap is a click for the canvas's chart (ui/chart.py's clicks): the point lands where the
    # finger was, on the grid
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    phone = context.new_page()
    phone.goto(f"{server_url}/your_data")
    wait_idle(phone)
    assert point_count(phone).startswith("0 points")
    click_chart(phone, 1, 2, tap=True)
    phone.wait_for_function("""() => [...document.querySelectorAll(
      '[data-testid="stMain"] [data-testid="stCaptionContainer"]')]
      .some((c) => c.textContent.startsWith('1 point '))""")
    assert point_count(phone) == "1 point · 0 of class −1, 1 of class +1"
    drawn = phone.wait_for_function("""() => {
      const points = document.querySelector('.js-plotly-plot')._fullData
        .filter((trace) => trace.name !== 'grid' && trace.x.length)
        .map((trace) => [...Array.from(trace.x), ...Array.from(trace.y)]);
      return points.length && points;
    }""").json_value()
    assert drawn == [[1, 2]]
    context.close()
